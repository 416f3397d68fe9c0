"""Crash-proofing with real processes: kill `dudo jugar` after any line
(SIGKILL, no cleanup) and `dudo reanudar` must continue the identical game."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from assistant import journal
from assistant.rules import Game, preset
from assistant.session import script_lines, simulate

SCRIPT = Path(__file__).parent / "crash" / "guion.txt"
LINES = [u.text for u in script_lines(SCRIPT)]
PLAYERS = "ana,beto,carla"
RULES = "yocacho"
TIMEOUT = 30.0


def dudo_command() -> list[str]:
    exe = shutil.which("dudo", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "assistant"]


class Process:
    """A `dudo` process fed line by line; each line gets one reply line."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            dudo_command() + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def read(self) -> str:
        return self.lines.get(timeout=TIMEOUT)

    def send(self, text: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return self.read()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)

    def finish(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=TIMEOUT) == 0


@pytest.fixture(scope="module")
def expected() -> tuple[list[str], dict[str, object]]:
    game = Game(preset(RULES), PLAYERS.split(","))
    result = simulate(game, script_lines(SCRIPT))
    return [step["respuesta"] for step in result["pasos"]], game.snapshot()  # type: ignore[index]


@pytest.mark.slow
@pytest.mark.parametrize("kill_after", range(1, len(LINES)))
def test_kill_and_resume(tmp_path: Path, kill_after: int, expected: tuple[list[str], dict[str, object]]) -> None:
    replies, final = expected
    env = {**os.environ, "DUDO_DATOS": str(tmp_path)}
    path = tmp_path / "partida.jsonl"
    first = Process(["jugar", "--texto", "--nueva", "--partida", str(path), "--jugadores", PLAYERS, "--reglas", RULES], env)
    assert first.read().startswith("¡Hola!")
    for i, line in enumerate(LINES[:kill_after]):
        assert first.send(line) == replies[i], line
    first.kill()

    second = Process(["reanudar", "--texto", "--partida", str(path)], env)
    assert second.read().startswith("Seguimos la partida")
    for i, line in enumerate(LINES[kill_after:], start=kill_after):
        assert second.send(line) == replies[i], f"after resuming at line {kill_after}: {line}"
    second.finish()
    assert journal.load(path).game.snapshot() == final
