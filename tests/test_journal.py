"""The journal on real files: replay, undo, partial counts, torn writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant import journal
from assistant.changes import Undone
from assistant.referee import Referee
from assistant.rules import Game, event_from_json, preset
from assistant.speech import Parser


def play(path: Path, lines: list[str], rules: str = "yocacho") -> Game:
    game = Game(preset(rules), ["ana", "beto", "carla"])
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    for line in lines:
        referee.handle(parser.parse(line))
    record.close()
    return game


LINES = ["parte ana por la derecha", "tres trenes", "cuatro trenes", "corrección", "cuatro quinas", "dudo", "hay uno", "dos senas"]


def test_replay_rebuilds_the_identical_game(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    game = play(path, LINES)
    loaded = journal.load(path)
    assert loaded.game.snapshot() == game.snapshot()
    assert not loaded.finished and loaded.dropped_line is None


def test_every_line_is_json_with_events(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert "partida" in records[0]
    assert {"deshacer": True} in records
    assert all("eventos" in r for r in records if "acciones" in r)
    # one line per utterance: the events are the typed events, as JSON
    assert all(event_from_json(e) for r in records if "acciones" in r for e in r["eventos"])


def test_a_resumed_obligo_named_with_a_direction_is_still_the_obligo(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    lines = ["parte ana por la izquierda"] + ["cinco trenes", "dudo", "hay cero"] * 4 + ["parte ana por la derecha"]
    game = play(path, lines)
    assert game.obligo is not None and game.obligo.obligador == "ana" and game.seats["ana"].dice == 1
    loaded = journal.load(path)
    assert loaded.game.snapshot() == game.snapshot()
    assert loaded.game.obligo is not None and loaded.game.starter == "ana"


def test_torn_last_line_is_dropped_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    whole = journal.load(path).game.snapshot()
    before_last = Game.replay(journal.load(path).game.rules, ["ana", "beto", "carla"], journal.load(path).game.history[:-1])
    text = path.read_bytes()
    path.write_bytes(text[:-25])  # a power cut in the middle of the last write
    loaded = journal.load(path)
    assert loaded.dropped_line is not None
    assert loaded.game.snapshot() == before_last.snapshot() != whole
    # the torn line is cut from the file, so appending goes on cleanly
    record = journal.Journal(path)
    record.observe(Undone(), loaded.game)
    record.close()
    assert journal.load(path).dropped_line is None


def test_a_bad_line_in_the_middle_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    lines = path.read_text("utf-8").splitlines()
    lines[2] = lines[2][:10]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(journal.JournalError, match="línea 3"):
        journal.load(path)


def test_partial_counts_survive_and_are_restored(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, ["parte ana", "tres trenes", "dudo", "ana dos", "carla uno", "corrección", "carla cero"])
    loaded = journal.load(path)
    assert loaded.partials == [("cuenta", "ana", 2), ("cuenta", "carla", 0)]
    referee = Referee(loaded.game, (), loaded.partials)
    reply = referee.handle(Parser(players=loaded.game.players).parse("beto uno"))
    assert reply.text.startswith("Había tres trenes")


def test_finished_games_are_marked_and_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUDO_DATOS", str(tmp_path))
    folder = journal.games_dir()
    folder.mkdir(parents=True)
    game = Game(preset("chimbo9"), ["ana", "beto"])
    record = journal.Journal.create(game.rules, game.players, folder / "partida-1.jsonl")
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    for line in ["parte ana", "tres trenes", "dudo", "hay cero"] * 3:
        referee.handle(parser.parse(line))
    record.close()
    assert game.over and journal.load(folder / "partida-1.jsonl").finished
    assert journal.latest_unfinished() is None
    game = play(folder / "partida-2.jsonl", LINES)
    latest = journal.latest_unfinished()
    assert latest is not None and latest.path == folder / "partida-2.jsonl"
    assert latest.game.snapshot() == game.snapshot()


def test_not_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"hola": 1}\n', "utf-8")
    with pytest.raises(journal.JournalError, match="no es un registro"):
        journal.load(path)
    with pytest.raises(journal.JournalError, match="No pude leer"):
        journal.load(tmp_path / "missing.jsonl")
