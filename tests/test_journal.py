"""The journal on real files: replay, undo, partial counts, torn writes."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def records_of(path: Path) -> list[dict[str, Any]]:
    """The journal's records: every other line (each is written twice), without number and check."""
    lines = path.read_bytes().splitlines()
    assert lines[::2] == lines[1::2], "every record is written twice"
    records = [json.loads(line) for line in lines[::2]]
    assert [r.pop("n") for r in records] == list(range(len(records)))
    assert all(len(r.pop("k")) == 8 for r in records)
    return records


def test_every_line_is_json_with_events_written_twice_numbered_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    records = records_of(path)
    assert "partida" in records[0] and records[0]["formato"] == journal.FORMAT == 2
    assert {"deshacer": True} in records
    assert all("eventos" in r for r in records if "acciones" in r)
    # one record per utterance: the events are the typed events, as JSON
    assert all(event_from_json(e) for r in records if "acciones" in r for e in r["eventos"])
    # the check chains: each line's check is the CRC-32 of every line up to it (checks taken off)
    import zlib

    running = 0
    for line in path.read_bytes().splitlines()[::2]:
        head, check = line[: -len(b', "k": "xxxxxxxx"}')], line[-10:-2]
        running = zlib.crc32(head, running)
        assert int(check, 16) == running


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
    last = text.splitlines()[-1]
    torn = text[: -len(last) * 2 - 2 + 40]  # a power cut in the middle of the last write: its first copy cut short
    path.write_bytes(torn)
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.dropped_line == len(torn.splitlines()) and not loaded.damage.set_aside
    assert loaded.game.snapshot() == before_last.snapshot() != whole
    assert path.read_bytes() == torn  # reading never writes
    # the torn line is cut when the game goes on, so appending stays clean
    record = journal.Journal.resume(loaded)
    record.observe(Undone(), loaded.game)
    record.close()
    again = journal.load(path)
    assert again.damage is None and len(again.game.history) == len(before_last.history) - 1
    assert not (tmp_path / "p.jsonl.dañado").exists()


def test_a_torn_copy_loses_nothing_and_is_not_told(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    game = play(path, LINES)
    text = path.read_bytes()
    last = text.splitlines()[-1]
    for cut in (1, 20, len(last), len(last) + 1):  # the second copy cut anywhere, or missing whole
        path.write_bytes(text[:-cut])
        loaded = journal.load(path)
        assert loaded.damage is None, cut
        assert loaded.game.snapshot() == game.snapshot(), cut
        # going on writes the copy again first, so the last record is kept twice
        record = journal.Journal.resume(loaded)
        record.close()
        assert path.read_bytes() == text, cut


def test_a_power_cut_can_leave_zeros_where_the_write_was(tmp_path: Path) -> None:
    """ext4 without data journaling may grow the file before the data reaches
    it: the torn write reads back as zeros. That is a tear, not garbage."""
    path = tmp_path / "p.jsonl"
    game = play(path, LINES)
    text = path.read_bytes()
    path.write_bytes(text + b"\x00" * 300)
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.torn and not loaded.damage.set_aside
    assert loaded.game.snapshot() == game.snapshot()
    last = text.splitlines()[-1]
    path.write_bytes(text[: -len(last) - 1] + b"\x00" * 100)  # the second copy zeroed: nothing lost, nothing told
    assert journal.load(path).damage is None and journal.load(path).game.snapshot() == game.snapshot()


def test_a_last_line_without_its_newline_is_kept_and_never_glued(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    game = play(path, LINES)
    text = path.read_bytes()
    last = text.splitlines()[-1]
    for cut in (1, len(last) + 2):  # the second copy's newline missing; the first copy's newline missing
        path.write_bytes(text[:-cut])  # the write reached the disk but for its newline
        loaded = journal.load(path)
        assert loaded.damage is None and loaded.game.snapshot() == game.snapshot()
        referee = Referee(loaded.game, [journal.Journal.resume(loaded)], loaded.collecting)
        parser = Parser(players=loaded.game.players)
        for line in ["corrección", "corrección", "tres senas"]:
            referee.handle(parser.parse(line))
        assert journal.load(path).damage is None
        assert journal.load(path).game.snapshot() == referee.game.snapshot()
        records_of(path)
        path.write_bytes(text)
        game = journal.load(path).game


BAD = ["5", "[]", "null", '"hola"', "{}", '{"acciones": []}', '{"acciones": [5]}',
       '{"acciones": [{"tipo": "cuenta", "cantidad": "3"}]}',
       '{"acciones": [{"tipo": "apuesta", "jugador": "beto", "cantidad": 3}]}',
       '{"acciones": [{"tipo": "apuesta", "jugador": "zoe", "cantidad": 3, "pinta": 3}]}',
       '{"parciales": [{"tipo": "cuenta", "jugador": "ana", "valor": true}]}',
       '{"deshacer": 1}', "\u00ff\u00fe garbage", "{\"acciones\"", ""]


def older(path: Path) -> None:
    """The journal as format 1 wrote it: one line per record, no number, no check."""
    records = records_of(path)
    records[0]["formato"] = 1
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")


@pytest.mark.parametrize("bad", BAD)
def test_a_damaged_line_is_named_and_its_record_read_from_the_copy(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "p.jsonl"
    game = play(path, LINES)
    partials = journal.load(path).partials
    text = path.read_bytes()
    for index in (0, 1, 6, 7):  # the header, its copy, a move, its copy
        lines = text.split(b"\n")
        lines[index] = bad.encode("latin-1") if "garbage" in bad else bad.encode()
        damaged = b"\n".join(lines)
        path.write_bytes(damaged)
        loaded = journal.load(path)
        assert loaded.damage is not None and loaded.damage.changed == (index + 1,), index
        assert loaded.damage.lost is None and not loaded.damage.torn and loaded.damage.set_aside
        assert loaded.game.snapshot() == game.snapshot() and loaded.partials == partials, index
        # going on sets the damaged file aside and writes the whole game again, both copies
        record = journal.Journal.resume(loaded)
        assert record.first_notice is None
        record.close()
        assert (tmp_path / "p.jsonl.dañado").read_bytes() == damaged
        assert path.read_bytes() == text and journal.load(path).damage is None
        (tmp_path / "p.jsonl.dañado").unlink()


@pytest.mark.parametrize("bad", [b for b in BAD if b])
def test_a_damaged_middle_line_of_an_older_journal_is_named_and_the_game_is_kept_up_to_it(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    older(path)
    lines = path.read_bytes().split(b"\n")
    good = Game.replay(journal.load(path).game.rules, ["ana", "beto", "carla"], [])
    for line in lines[1:3]:
        for action in json.loads(line).get("acciones", []):
            good.apply(action_from_json(action))
    lines[3] = bad.encode("latin-1") if "garbage" in bad else bad.encode()
    path.write_bytes(b"\n".join(lines))
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.lost == 4 and not loaded.damage.torn
    assert loaded.game.snapshot() == good.snapshot()
    # going on sets the damaged file aside and writes the good part again, in today's format
    record = journal.Journal.resume(loaded)
    assert record.first_notice is None
    record.observe(Undone(), loaded.game)
    record.close()
    assert (tmp_path / "p.jsonl.dañado").read_bytes() == b"\n".join(lines)
    assert journal.load(path).damage is None and records_of(path)[-1] == {"deshacer": True}


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
    assert len(path.read_bytes().splitlines()) == lines_before + 2  # one record, twice
    assert referee.handle(parser.parse("corrección")).text == "Borré lo de ana y beto."
    assert not referee.collecting
    # the utterance that completes the count is the count: one record, no partials before it
    reply = referee.handle(parser.parse("ana dos beto uno carla cero dani cero"))
    assert reply.text.startswith("Había tres trenes")
    records = records_of(path)
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
    records = records_of(path)
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
    lengths = [len(copy) for copy in raw.splitlines()[::2]]
    starts = [0]  # where each record's first copy begins
    for length in lengths:
        starts.append(starts[-1] + 2 * (length + 1))
    assert len(lengths) == len(states)
    cut = tmp_path / "cut.jsonl"
    header_copy = range(lengths[0] + 1, starts[1] - 1)  # 1.6 KB of the same case: a cut in the header's copy
    for offset in [o for o in range(lengths[0], len(raw) + 1) if o not in header_copy or o % 16 == 0]:
        cut.write_bytes(raw[:offset])
        loaded = journal.load(cut)
        whole = sum(1 for start, length in zip(starts, lengths, strict=False) if offset >= start + length) - 1
        torn = any(start < offset < start + length for start, length in zip(starts, lengths, strict=False))
        assert (loaded.dropped_line is not None) == torn, offset  # only a cut inside a record's first copy is told
        assert loaded.damage is None or not loaded.damage.set_aside, offset
        assert (loaded.game.snapshot(), loaded.partials) == states[whole], offset
    with pytest.raises(journal.JournalError):
        cut.write_bytes(raw[: lengths[0] - 1])
        journal.load(cut)


# ------------------------------------------------------------------ any single damaged line


def counted_game(path: Path) -> tuple[dict[str, Any], list[Partial]]:
    """A journal that ends in the middle of a count (per-player partials said), and the live table."""
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    for line in [*LINES, "cuatro quinas", "dudo", "ana dos", "corrección", "ana uno", "beto dos"]:
        referee.handle(parser.parse(line))
    record.close()
    return game.snapshot(), referee.collecting.flat()


def flip(data: bytes, positions: list[int], rng: random.Random) -> bytes:
    changed = bytearray(data)
    for at in positions:
        changed[at] ^= rng.randint(1, 255)
    return bytes(changed)


def test_three_flipped_bytes_in_the_header_resume_at_the_same_place(tmp_path: Path) -> None:
    """The issue's check: the header held the rules and the players; its copy holds them too."""
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    text = path.read_bytes()
    header = text.index(b"\n")
    rng = random.Random(37)
    for trial in range(300):
        damaged = flip(text, rng.sample(range(header), 3), rng)
        path.write_bytes(damaged)
        loaded = journal.load(path)
        assert (loaded.game.snapshot(), loaded.partials) == live, trial
        assert loaded.damage is not None and loaded.damage.set_aside and loaded.damage.lost is None, trial
        assert loaded.damage.changed[0] == 1, trial
    # going on: the damaged file aside, the journal whole again
    record = journal.Journal.resume(loaded)
    record.close()
    assert path.read_bytes() == text and (tmp_path / "p.jsonl.dañado").read_bytes() == damaged


def test_a_header_glued_to_its_copy_is_split_again(tmp_path: Path) -> None:
    """A changed newline glues two lines into one: the copies inside are still found."""
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    text = path.read_bytes()
    for newline in [i for i, byte in enumerate(text) if byte == ord("\n")][:-1]:
        path.write_bytes(text[:newline] + b"#" + text[newline + 1 :])
        loaded = journal.load(path)
        assert (loaded.game.snapshot(), loaded.partials) == live, newline
        assert loaded.damage is not None and loaded.damage.changed and loaded.damage.lost is None, newline


def test_one_changed_digit_in_a_move_line_is_noticed_named_and_read_from_its_copy(tmp_path: Path) -> None:
    """The issue's check: "cantidad": 4 made 5 is still valid JSON, and still a legal
    bid; the check of that line no longer holds."""
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    text = path.read_bytes()
    lines = text.split(b"\n")
    index = next(i for i, line in enumerate(lines) if b'"cantidad": 4, "pinta": 3' in line)
    lines[index] = lines[index].replace(b'"cantidad": 4', b'"cantidad": 5', 1)
    json.loads(lines[index])  # still valid JSON
    path.write_bytes(b"\n".join(lines))
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.changed == (index + 1,) and loaded.damage.lost is None
    assert (loaded.game.snapshot(), loaded.partials) == live
    # the changed history is never the one resumed: with both copies changed, reading stops before them
    lines[index + 1] = lines[index]
    path.write_bytes(b"\n".join(lines))
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.lost == index + 1
    assert loaded.records == index // 2


def mutations(lines: list[bytes], index: int, rng: random.Random) -> dict[str, list[bytes]]:
    """Every way one line may be damaged (``lines`` ends with the empty piece after the last newline)."""
    line = lines[index]
    digits = [i for i, byte in enumerate(line) if chr(byte).isdigit()]
    at = rng.choice(digits)
    found = {
        "flipped byte": flip(line, [rng.randrange(len(line))], rng),
        "changed digit": line[:at] + str((int(chr(line[at])) + 1) % 10).encode() + line[at + 1 :],
        "garbage": b"\xff\xfe no es del registro",
        "emptied": b"",
        "cut short": line[: len(line) // 2],
        "zeros": b"\x00" * len(line),
    }
    result = {name: [*lines[:index], new, *lines[index + 1 :]] for name, new in found.items()}
    result["deleted"] = lines[:index] + lines[index + 1 :]
    result["doubled"] = lines[: index + 1] + lines[index:]
    if index + 2 < len(lines):
        result["glued to the next"] = [*lines[:index], line + lines[index + 1], *lines[index + 2 :]]
        if lines[index + 1] != line:  # a copy swapped with its twin is no change
            result["swapped with the next"] = [*lines[:index], lines[index + 1], line, *lines[index + 2 :]]
    return result


def test_any_single_damaged_line_resumes_at_the_same_place_and_is_noticed(tmp_path: Path) -> None:
    """Every line, every kind of damage: nothing accepted is lost, nothing is
    doubled, and every change is noticed (but a last copy gone, which a power
    cut between the two copies leaves too)."""
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    text = path.read_bytes()
    lines = text.split(b"\n")
    rng = random.Random(2026)
    for index in range(len(lines) - 1):
        for kind, damaged in mutations(lines, index, rng).items():
            path.write_bytes(b"\n".join(damaged))
            loaded = journal.load(path)
            where = f"line {index + 1}: {kind}"
            assert (loaded.game.snapshot(), loaded.partials) == live, where
            assert loaded.damage is None or loaded.damage.lost is None, where
            if not (kind == "deleted" and index >= len(lines) - 3):  # the last record once: what a cut between copies leaves
                assert loaded.damage is not None and loaded.damage.set_aside, where
            record = journal.Journal.resume(loaded)
            record.close()
            assert path.read_bytes() == text, where  # written again whole: both copies, every check
            for aside in tmp_path.glob("p.jsonl.dañado*"):
                aside.unlink()


def test_garbage_after_the_last_line_is_named_as_garbage_and_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    text = path.read_bytes()
    lines = len(text.splitlines())
    for garbage in (b"\xff\xfe basura\n", b"\xff\xfe basura", b'{"acciones": [{"tipo": "parte"}]}\n', b"5"):
        path.write_bytes(text + garbage)
        loaded = journal.load(path)
        assert loaded.damage is not None and loaded.damage.trailing and loaded.damage.changed == (lines + 1,), garbage
        assert (loaded.game.snapshot(), loaded.partials) == live
        journal.Journal.resume(loaded).close()
        assert path.read_bytes() == text and (tmp_path / "p.jsonl.dañado").read_bytes() == text + garbage
        (tmp_path / "p.jsonl.dañado").unlink()


def test_a_record_with_both_copies_gone_ends_what_can_be_read(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    lines = path.read_bytes().split(b"\n")
    lines[6] = lines[7] = b"\xff basura"
    path.write_bytes(b"\n".join(lines))
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.lost == 7 and not loaded.damage.changed
    assert loaded.records == 3 and len(loaded.game.history) == 2  # the header, "parte ana", "tres trenes"


def test_a_damaged_line_twice_is_kept_aside_under_another_name(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    for _time in range(2):
        lines = path.read_bytes().split(b"\n")
        lines[4] = b"basura"
        path.write_bytes(b"\n".join(lines))
        loaded = journal.load(path)
        assert (loaded.game.snapshot(), loaded.partials) == live
        journal.Journal.resume(loaded).close()
    assert (tmp_path / "p.jsonl.dañado").exists() and (tmp_path / "p.jsonl.dañado-2").exists()


# ------------------------------------------------------------------ older journals


def test_an_older_journal_without_checks_loads_and_goes_on_in_todays_format(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    live = counted_game(path)
    older(path)
    text = path.read_bytes()
    assert b'"k"' not in text and b'"formato": 1' in text
    loaded = journal.load(path)
    assert loaded.damage is None and (loaded.game.snapshot(), loaded.partials) == live
    assert path.read_bytes() == text  # reading never writes
    record = journal.Journal.resume(loaded)
    record.observe(Undone(), loaded.game)
    record.close()
    records = records_of(path)  # written again whole, twice, numbered and checked
    assert records[0]["formato"] == 2 and records[-1] == {"deshacer": True}
    assert not list(tmp_path.glob("*.dañado*"))
    assert journal.load(path).damage is None


def test_an_older_journals_torn_last_line_is_still_a_tear_and_garbage_is_garbage(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    play(path, LINES)
    older(path)
    text = path.read_bytes()
    path.write_bytes(text[:-25])
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.torn == len(text.splitlines()) and not loaded.damage.set_aside
    path.write_bytes(text + b"\xff\xfe basura\n")
    loaded = journal.load(path)
    assert loaded.damage is not None and loaded.damage.lost == len(text.splitlines()) + 1 and loaded.damage.set_aside


# ------------------------------------------------------------------ files that are not journals


def test_a_folder_a_pipe_or_a_missing_file_is_refused_in_spanish(tmp_path: Path) -> None:
    folder = tmp_path / "carpeta.jsonl"
    folder.mkdir()
    with pytest.raises(journal.JournalError) as refused:
        journal.load(folder)
    assert "es una carpeta" in str(refused.value) and "directory" not in str(refused.value).lower()
    pipe = tmp_path / "tubo.jsonl"
    os.mkfifo(pipe)
    with pytest.raises(journal.JournalError, match="no es un archivo común"):
        journal.load(pipe)  # never opened: reading a pipe would hold the table
    with pytest.raises(journal.JournalError, match="no existe"):
        journal.load(tmp_path / "no-hay.jsonl")
    (tmp_path / "archivo").write_text("x")
    with pytest.raises(journal.JournalError, match="una parte del camino no es una carpeta") as refused:
        journal.load(tmp_path / "archivo" / "p.jsonl")
    assert refused.value.detail is not None and "Not a directory" in refused.value.detail  # the system's words, for the log


def test_a_big_file_that_is_no_journal_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "grande.jsonl"
    path.write_bytes(random.Random(1).randbytes(20_000_000))
    with pytest.raises(journal.JournalError, match="no es un registro de partida") as refused:
        journal.load(path)
    assert refused.value.detail == "no header in the first 64 KB"


def test_empty_files_are_empty_journals(tmp_path: Path) -> None:
    for content in (b"", b"\n\n", b"  \n"):
        path = tmp_path / "vacio.jsonl"
        path.write_bytes(content)
        with pytest.raises(journal.JournalError, match="está vacío"):
            journal.load(path)


@pytest.fixture(scope="module")
def base_journal(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("base") / "p.jsonl"
    play(path, LINES)
    return path.read_bytes()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_anywhere_never_raises_but_a_journal_error(
    tmp_path_factory: pytest.TempPathFactory, base_journal: bytes, data: st.DataObject,
) -> None:
    """Bytes flipped, cut, inserted or lines of garbage: the journal loads (with its
    damage told) or is refused in Spanish, never an exception of another kind."""
    path = tmp_path_factory.mktemp("azar") / "p.jsonl"
    text = bytearray(base_journal)
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(text)))
        what = data.draw(st.sampled_from(["flip", "cut", "insert", "delete"]))
        if what == "flip" and at < len(text):
            text[at] ^= data.draw(st.integers(1, 255))
        elif what == "cut":
            del text[at:]
        elif what == "insert":
            text[at:at] = data.draw(st.binary(max_size=40))
        elif what == "delete":
            del text[at : at + data.draw(st.integers(1, 300))]
    path.write_bytes(bytes(text))
    try:
        loaded = journal.load(path)
    except journal.JournalError as err:
        assert str(err)
        return
    loaded.game.snapshot()
    journal.Journal.resume(loaded).close()  # a torn end is cut only at the next write
    again = journal.load(path)
    assert (again.damage is None or not again.damage.set_aside) and again.game.snapshot() == loaded.game.snapshot()


def test_every_reason_a_file_cannot_be_read_is_said_in_spanish() -> None:
    """Permission and disk errors cannot be made here as root: their words are checked directly."""
    import errno

    from assistant import messages

    for code, words in [(errno.EACCES, "no tengo permiso para leerlo"), (errno.EIO, "el disco da errores al leerlo"),
                        (errno.EISDIR, "es una carpeta"), (errno.ENOENT, "no existe"), (errno.ELOOP, "da vueltas en círculo"),
                        (errno.EOVERFLOW, "el sistema no me deja leerlo"), (None, "el sistema no me deja leerlo")]:
        assert messages.journal_unreadable(Path("p.jsonl"), code) == f"No pude leer el registro p.jsonl: {messages.why_not_read(code)}."
        assert words in messages.why_not_read(code)
