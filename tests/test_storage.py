"""Storage faults on real filesystems: a tiny tmpfs that fills up, a read-only
mount, a folder removed under the referee. The game never stops, never prints
a traceback, and writes what it owes when the disk takes it again."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import journal
from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.speech import Parser
from tests.test_cli import dudo


def _mount(target: Path, options: str) -> str | None:
    """Mount a tmpfs at ``target``; the reason it cannot be done, or None."""
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root (the suite runs as root in CI)"
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)], capture_output=True, text=True)
    return None if done.returncode == 0 else f"mount -t tmpfs failed: {done.stderr.strip()}"


def _tmpfs(target: Path, options: str) -> Iterator[Path]:
    why = _mount(target, options)
    if why:
        pytest.skip(why)
    yield target
    subprocess.run(["umount", "-l", str(target)], check=False)


@pytest.fixture
def tiny(tmp_path: Path) -> Iterator[Path]:
    """An 8 KB tmpfs: a full SD card in miniature."""
    yield from _tmpfs(tmp_path / "tiny", "size=8k,mode=0777")


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A filesystem mounted read-only (an SD card remounted after an I/O error)."""
    yield from _tmpfs(tmp_path / "ro", "size=64k,ro")


def fill(path: Path) -> None:
    """Fill the disk to the last byte."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 256)
    except OSError:
        pass
    finally:
        os.close(fd)


def long_game() -> str:
    return "parte ana\n" + "tres trenes\ndudo\nhay cero\nana dos\ncómo vamos\n" * 40


def test_a_long_game_on_a_full_disk_answers_every_line_and_exits_0(tiny: Path) -> None:
    env = {"DUDO_DATOS": str(tiny)}
    text = long_game()
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", "--reglas", "caleuchano", stdin=text, env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr and "Logging error" not in result.stderr
    assert len(result.stdout.splitlines()) == 1 + len(text.splitlines())  # the greeting, then one reply per line
    assert result.stdout.count("No puedo guardar la partida: el disco está lleno.") == 1
    # what reached the disk is a clean journal: no half line left behind
    (path,) = (tiny / "partidas").glob("partida-*.jsonl")
    assert journal.load(path).damage is None


def test_the_disk_fills_then_frees_and_everything_owed_is_written_in_order(tiny: Path) -> None:
    game = Game(preset("caleuchano"), ["ana", "beto", "carla"])
    path = tiny / "partidas" / "p.jsonl"
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    said = [referee.handle(parser.parse("parte ana")).text]
    while not record.failing:
        said += [referee.handle(parser.parse(line)).text for line in ("tres trenes", "dudo", "hay cero")]
    assert "el disco está lleno" in said[-1] or "el disco está lleno" in said[-2] or "el disco está lleno" in said[-3]
    more = [referee.handle(parser.parse(line)).text for line in ("tres trenes", "dudo")]
    assert not any("No puedo guardar" in text for text in more)  # said once
    subprocess.run(["mount", "-o", "remount,size=1m", str(tiny)], check=True)
    reply = referee.handle(parser.parse("hay cero")).text
    assert "Ya puedo guardar la partida otra vez: guardé las" in reply
    record.close()
    loaded = journal.load(path)
    assert loaded.damage is None and loaded.game.snapshot() == game.snapshot()


def test_resuming_on_a_full_disk_with_a_torn_line_needs_no_write(tiny: Path) -> None:
    env = {"DUDO_DATOS": str(tiny)}
    dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "yocacho", stdin="parte ana\ntres trenes\ncuatro trenes\n", env=env)
    (path,) = (tiny / "partidas").glob("partida-*.jsonl")
    text = path.read_bytes()
    last = text.splitlines()[-1]
    path.write_bytes(text[: -len(last) - 20])  # the last write torn in its first copy
    fill(tiny / "relleno")
    result = dudo("reanudar", "--texto", stdin="cómo vamos\ncinco trenes\n", env=env)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "estaba cortada, y la descarté" in result.stdout
    assert "Van tres trenes, de ana. Le toca a beto." in result.stdout
    assert "Cinco trenes. Sigue ana." in result.stdout
    # cutting the torn line freed its bytes: the new step was written there, or the table was told it was not
    loaded = journal.load(path)
    assert loaded.damage is None
    assert len(loaded.game.history) == 3 or "No puedo guardar la partida: el disco está lleno." in result.stdout


def test_a_read_only_data_folder_plays_from_memory(read_only: Path) -> None:
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\ndudo\nhay cero\n",
                  env={"DUDO_DATOS": str(read_only)})
    assert result.returncode == 0 and "Traceback" not in result.stderr and "Algo falló" not in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("No puedo guardar la partida: el disco quedó en solo lectura.")
    assert lines[-1].startswith("No había ningún tren, no tres.")
    assert "no quedó guardada" in result.stderr


def test_the_folder_removed_under_the_referee_is_written_again_whole(tmp_path: Path) -> None:
    game = Game(preset("yocacho"), ["ana", "beto"])
    path = tmp_path / "datos" / "partidas" / "p.jsonl"
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    referee.handle(parser.parse("parte ana"))
    referee.handle(parser.parse("tres trenes"))
    shutil.rmtree(tmp_path / "datos")
    reply = referee.handle(parser.parse("dudo"))
    assert reply.accepted and "No puedo guardar" not in reply.text
    record.close()
    assert journal.load(path).game.snapshot() == game.snapshot()


def test_bytes_that_are_not_utf8_are_replaced(tmp_path: Path) -> None:
    import sys

    from tests.test_crash import dudo_command

    done = subprocess.run(
        [*dudo_command(), "jugar", "--texto", "--jugadores", "ana,beto"], input=b"parte ana\n\xff\xfe tres\ntres trenes\n",
        capture_output=True, env={**os.environ, "DUDO_DATOS": str(tmp_path)}, check=False,
    )
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, sys.executable
    assert out.splitlines()[-1] == "Tres trenes. Sigue beto."
