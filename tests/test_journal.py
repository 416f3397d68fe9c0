"""The journal on real files: replay, undo, partial counts, torn writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant import journal
from assistant.changes import Partial, Undone
from assistant.referee import Referee
from assistant.rules import Game, action_from_json, event_from_json, preset
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


def test_torn_last_line_is_dropped_and_cut_only_when_writing(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    whole = journal.load(path).game.snapshot()
    before_last = Game.replay(journal.load(path).game.rules, ["ana", "beto", "carla"], journal.load(path).game.history[:-1])
    text = path.read_bytes()
    path.write_bytes(text[:-25])  # a power cut in the middle of the last write
    loaded = journal.load(path)
    assert loaded.dropped_line is not None and loaded.damage is not None and loaded.damage.torn
    assert loaded.game.snapshot() == before_last.snapshot() != whole
    assert path.read_bytes() == text[:-25]  # reading never writes
    # the torn line is cut when the game goes on, so appending stays clean
    record = journal.Journal.resume(loaded)
    record.observe(Undone(), loaded.game)
    record.close()
    again = journal.load(path)
    assert again.damage is None and len(again.game.history) == len(before_last.history) - 1


def test_a_last_line_without_its_newline_is_kept_and_never_glued(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    game = play(path, LINES)
    path.write_bytes(path.read_bytes()[:-1])  # the write reached the disk but for its newline
    loaded = journal.load(path)
    assert loaded.damage is None and loaded.game.snapshot() == game.snapshot()
    referee = Referee(loaded.game, [journal.Journal.resume(loaded)], loaded.collecting)
    parser = Parser(players=loaded.game.players)
    for line in ["corrección", "corrección", "tres senas"]:
        referee.handle(parser.parse(line))
    assert journal.load(path).damage is None
    assert journal.load(path).game.snapshot() == referee.game.snapshot()


@pytest.mark.parametrize("bad", ["5", "[]", "null", '"hola"', "{}", '{"acciones": []}', '{"acciones": [5]}',
                                 '{"acciones": [{"tipo": "cuenta", "cantidad": "3"}]}',
                                 '{"acciones": [{"tipo": "apuesta", "jugador": "beto", "cantidad": 3}]}',
                                 '{"acciones": [{"tipo": "apuesta", "jugador": "zoe", "cantidad": 3, "pinta": 3}]}',
                                 '{"parciales": [{"tipo": "cuenta", "jugador": "ana", "valor": true}]}',
                                 '{"deshacer": 1}', "\u00ff\u00fe garbage", "{\"acciones\""])
def test_a_damaged_middle_line_is_named_and_the_game_is_kept_up_to_it(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    lines = path.read_bytes().split(b"\n")
    good = Game.replay(journal.load(path).game.rules, ["ana", "beto", "carla"], [])
    for line in lines[1:3]:
        for action in json.loads(line).get("acciones", []):
            good.apply(action_from_json(action))
    lines[3] = bad.encode("latin-1") if "garbage" in bad else bad.encode()
    path.write_bytes(b"\n".join(lines))
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.line == 4 and not loaded.damage.torn
    assert loaded.game.snapshot() == good.snapshot()
    # going on sets the damaged file aside and writes the good part again
    record = journal.Journal.resume(loaded)
    assert record.first_notice is None
    record.observe(Undone(), loaded.game)
    record.close()
    assert (tmp_path / "p.jsonl.dañado").read_bytes() == b"\n".join(lines)
    assert journal.load(path).damage is None


def test_partial_counts_survive_and_are_restored(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, ["parte ana", "tres trenes", "dudo", "ana dos", "carla uno", "corrección", "carla cero"])
    loaded = journal.load(path)
    assert loaded.partials == [("cuenta", "ana", 2), ("cuenta", "carla", 0)]
    referee = Referee(loaded.game, (), loaded.collecting)
    reply = referee.handle(Parser(players=loaded.game.players).parse("beto uno"))
    assert reply.text.startswith("Había tres trenes")


def test_undo_during_a_count_takes_back_the_last_thing_said_live_and_resumed(tmp_path: Path) -> None:
    before = ["parte ana", "tres trenes", "dudo", "ana dos", "ana tres", "corrección", "beto uno"]
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    referee = Referee(game)
    parser = Parser(players=game.players)
    said = [referee.handle(parser.parse(line)).text for line in before]
    assert said[5] == "Borré lo de ana."
    live = referee.handle(parser.parse("carla uno")).text
    path = tmp_path / "p.jsonl"
    play(path, before)
    loaded = journal.load(path)
    resumed = Referee(loaded.game, (), loaded.collecting).handle(parser.parse("carla uno")).text
    assert live == resumed == "Había cuatro trenes, bastaban tres. Beto pierde un dado, le quedan cuatro. Parte beto."


def test_several_counts_in_one_utterance_are_one_record_and_one_undo(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    game = Game(preset("yocacho"), ["ana", "beto", "carla", "dani"])
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    for line in ["parte ana", "tres trenes", "dudo"]:
        referee.handle(parser.parse(line))
    lines_before = len(path.read_bytes().splitlines())
    assert referee.handle(parser.parse("ana dos beto uno")).text == "Van tres. Faltan carla y dani."
    assert len(path.read_bytes().splitlines()) == lines_before + 1
    assert referee.handle(parser.parse("corrección")).text == "Borré lo de ana y beto."
    assert not referee.collecting
    # the utterance that completes the count is the count: one record, no partials before it
    reply = referee.handle(parser.parse("ana dos beto uno carla cero dani cero"))
    assert reply.text.startswith("Había tres trenes")
    records = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert "acciones" in records[-1] and records[-1]["acciones"][0]["tipo"] == "cuenta"
    assert "deshacer" in records[-2]
    record.close()


def test_a_refused_last_hand_is_neither_kept_nor_journaled(tmp_path: Path) -> None:
    """A closed obligado (caleuchano with the house's obligo cerrado): the
    obligador's mixed hand cannot show his hidden face, and is refused whole."""
    import dataclasses

    path = tmp_path / "p.jsonl"
    game = Game(dataclasses.replace(preset("caleuchano"), obligo_cerrado=True), ["ana", "beto", "carla"])
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    for line in ["parte ana"] + ["castigo para ana"] * 4 + ["obligo cerrado", "dos de éstas", "dudo"]:
        assert referee.handle(parser.parse(line)).accepted, line
    for line in ["beto tren tren quina quina quina", "carla tren tren quina quina quina"]:
        assert referee.handle(parser.parse(line)).accepted
    size, kept = path.stat().st_size, referee.collecting.flat()
    reply = referee.handle(parser.parse("ana tren tren quina quina quina"))
    assert not reply.accepted and "díganme el total" in reply.text
    assert referee.collecting.flat() == kept and path.stat().st_size == size
    assert referee.handle(parser.parse("ana tren tren tren tren tren")).text.startswith("Había nueve de esas, bastaban dos.")
    record.close()
    assert journal.load(path).game.snapshot() == game.snapshot()


def test_one_utterance_that_starts_and_bids_is_one_record(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, ["ana, tres trenes"])
    records = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert len(records) == 2 and [a["tipo"] for a in records[1]["acciones"]] == ["parte", "apuesta"]


def test_loading_is_linear(tmp_path: Path) -> None:
    """Twice the rounds cost about twice the time, never four times."""
    import time

    def journal_of(rounds: int) -> Path:
        path = tmp_path / f"{rounds}.jsonl"
        game = Game(preset("yocacho"), ["ana", "beto", "carla"])
        lines = [json.dumps({"formato": 1, "partida": {"reglas": game.rules.to_json(), "jugadores": list(game.players)}})]
        lines += [json.dumps({"acciones": [{"tipo": "parte", "jugador": "ana", "sentido": None}], "eventos": []})]
        for _ in range(rounds):
            lines += [json.dumps({"acciones": [{"tipo": "apuesta", "jugador": "ana", "cantidad": 2, "pinta": 3}], "eventos": []}),
                      json.dumps({"parciales": [{"tipo": "cuenta", "jugador": "ana", "valor": 1}]}),
                      json.dumps({"deshacer": True})]
        path.write_text("\n".join(lines) + "\n", "utf-8")
        return path

    def cost(path: Path) -> float:
        start = time.perf_counter()
        journal.load(path)
        return time.perf_counter() - start

    small, big = journal_of(1000), journal_of(4000)
    assert min(cost(big) for _ in range(3)) < 8 * min(cost(small) for _ in range(3))


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


def test_a_journal_cut_at_every_byte_resumes_to_the_game_as_it_was_then(tmp_path: Path) -> None:
    """A power cut at any byte: the game is the live game after the last whole
    record, and only a cut inside a record is reported (as a torn last line)."""
    lines = ["parte ana", "tres trenes", "dudo", "ana dos", "beto uno", "corrección", "beto cero", "carla uno",
             "cuatro quinas", "calzo", "hay cuatro", "ana, dos senas"]
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    path = tmp_path / "p.jsonl"
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    states: list[tuple[dict[str, Any], list[Partial]]] = [(game.snapshot(), [])]
    for line in lines:
        before = path.stat().st_size
        referee.handle(parser.parse(line))
        if path.stat().st_size != before:
            states.append((game.snapshot(), referee.collecting.flat()))
    record.close()
    raw = path.read_bytes()
    header_end = raw.index(b"\n") + 1
    cut = tmp_path / "cut.jsonl"
    for offset in range(header_end, len(raw) + 1):
        cut.write_bytes(raw[:offset])
        loaded = journal.load(cut)
        whole = raw[:offset].count(b"\n") - 1
        if not raw[:offset].endswith(b"\n") and raw[offset - 1 : offset] == b"}" and raw[offset : offset + 1] == b"\n":
            whole += 1  # everything but the newline: the record is whole
            assert loaded.damage is None
        elif not raw[:offset].endswith(b"\n"):
            assert loaded.damage is not None and loaded.damage.torn, offset
        assert (loaded.game.snapshot(), loaded.partials) == states[whole], offset
    with pytest.raises(journal.JournalError):
        cut.write_bytes(raw[: header_end // 2])
        journal.load(cut)
