"""Input is bounded: a typed or heard line longer than any move is refused at
once with a short Spanish line, before the parser sees it, and the table goes on."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

from assistant import journal, replies
from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.session import MAX_CHARS, MAX_LINE_CHARS, Session, bounded_line, heard_from_line, keyboard
from assistant.speech import Parser
from assistant.speech.commands import Reading
from assistant.voice.heard import Heard, from_vosk
from tests.test_crash import Process

TOO_LONG = "Eso es muy largo para ser una jugada, no lo tomo. Dila en pocas palabras."


class CountingParser(Parser):
    """The real parser, counting the lines it is given."""

    seen: list[str]

    def readings(self, text: str) -> list[Reading]:
        self.seen.append(text)
        return super().readings(text)


def table(tmp_path: Path | None = None) -> tuple[Session, CountingParser, list[str]]:
    game = Game(preset("yocacho"), ["ana", "beto"])
    observers = [journal.Journal.create(game.rules, game.players, tmp_path / "p.jsonl")] if tmp_path else []
    parser = CountingParser(players=game.players)
    parser.seen = []
    said: list[str] = []
    session = Session(Referee(game, observers), parser, say=said.append)
    session.hear(Heard.from_text("parte ana"))
    parser.seen.clear()
    return session, parser, said


def test_a_huge_typed_line_is_refused_before_the_parser_sees_it(tmp_path: Path) -> None:
    session, parser, said = table(tmp_path)
    before = (session.referee.game.snapshot(), (tmp_path / "p.jsonl").read_bytes())
    started = time.perf_counter()
    huge = heard_from_line("tres trenes " * 100_000)  # 1.2 MB of a bid, repeated
    assert huge is not None
    reply = session.hear(huge)
    assert time.perf_counter() - started < 0.05  # at once: nothing of it is read
    assert not reply.accepted and reply.text == TOO_LONG == replies.too_long() and said[-1] == TOO_LONG
    assert parser.seen == []
    assert (session.referee.game.snapshot(), (tmp_path / "p.jsonl").read_bytes()) == before  # the game untouched
    assert len(session.steps[-1].text) == MAX_CHARS + 1  # what the night keeps of it is short too
    assert session.hear(Heard.from_text("tres trenes")).text == "Tres trenes. Sigue beto."


def test_the_bound_is_above_any_move_and_just_over_it_is_refused() -> None:
    session, parser, _said = table()
    longest = "ana, as as as as as, " * 2 + "ana dos beto uno"  # long, but a table says far less
    assert len(longest) < MAX_CHARS
    session.hear(Heard.from_text(longest))
    assert parser.seen  # read
    parser.seen.clear()
    reply = session.hear(Heard.from_text("x" * (MAX_CHARS + 1)))
    assert reply.text == TOO_LONG and parser.seen == []


def test_a_huge_heard_line_gets_the_same_answer() -> None:
    """A recognizer result (single best, or n-best) whose text is longer than any move."""
    session, parser, _said = table()
    long_text = "tres trenes " * 40
    single = from_vosk({"text": long_text, "result": []})
    assert single is not None and session.hear(single).text == TOO_LONG
    nbest = from_vosk({"alternatives": [{"text": long_text, "confidence": 300.0}, {"text": "tres trenes", "confidence": 299.0}]})
    assert nbest is not None and session.hear(nbest).text == TOO_LONG
    assert parser.seen == []
    # a long lower alternative is never read; the best one is
    nbest = from_vosk({"alternatives": [{"text": "tres trenes", "confidence": 300.0}, {"text": long_text, "confidence": 299.0}]})
    assert nbest is not None and session.hear(nbest).text == "Tres trenes. Sigue beto."
    assert all(len(text) <= MAX_CHARS for text in parser.seen)
    # a voice line that long is whole: it is ended and refused, never waited on
    assert session.complete(long_text)


def test_a_line_without_end_is_read_in_blocks_and_dropped() -> None:
    stream = io.StringIO("a" * 5_000_000 + "\ntres trenes\n" + "{" + "b" * 100_000 + "\n")
    first = bounded_line(stream)
    assert first is not None and len(first) == MAX_LINE_CHARS + 1
    assert bounded_line(stream) == "tres trenes\n"
    heard = heard_from_line(bounded_line(stream) or "")  # a cut recognizer result is not parsed as JSON
    assert heard is not None and len(heard.text) == MAX_CHARS + 1
    assert bounded_line(stream) is None
    texts = [h.text for h in keyboard(io.StringIO("x" * 1_000_000 + "\n\ndudo\n"))]
    assert [len(t) for t in texts] == [MAX_CHARS + 1, 4]


def test_a_recognizer_result_with_every_word_timed_still_fits() -> None:
    said = "ana dos beto uno carla cero dani tres"
    words = [{"word": w, "conf": 1.0, "start": i * 0.3, "end": i * 0.3 + 0.25} for i, w in enumerate(said.split(" "))]
    line = json.dumps({"vosk": {"alternatives": [{"text": said, "confidence": 200.0 - n, "result": words} for n in range(10)]}})
    assert len(line) < MAX_LINE_CHARS
    heard = heard_from_line(line)
    assert heard is not None and len(heard.alternatives) == 10


def test_after_a_megabyte_typed_line_the_next_is_answered_and_the_game_ends_within_a_second(tmp_path: Path) -> None:
    """The issue's check, with a real process: the bound is 1 s (scripts/bench.py measures it)."""
    import os

    process = Process(["jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "yocacho"], {**os.environ, "DUDO_DATOS": str(tmp_path)})
    assert process.read().startswith("¡Hola!")
    assert process.send("parte ana") == "Parte ana, por la izquierda."
    assert process.proc.stdin is not None
    started = time.perf_counter()
    process.proc.stdin.write("tres trenes " * 90_000 + "\n")  # about 1 MB
    process.proc.stdin.write("tres trenes\n")
    process.proc.stdin.flush()
    assert process.read() == TOO_LONG
    assert process.read() == "Tres trenes. Sigue beto."
    answered = time.perf_counter() - started
    process.finish()
    ended = time.perf_counter() - started
    assert answered < 1.0 and ended < 1.0, (answered, ended)
    (path,) = (tmp_path / "partidas").glob("partida-*.jsonl")
    assert journal.load(path).game.bid is not None and len(journal.load(path).game.history) == 2


def test_the_resume_question_and_the_players_question_refuse_a_huge_line_too(tmp_path: Path) -> None:
    from tests.test_cli import dudo

    env = {"DUDO_DATOS": str(tmp_path)}
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\n", env=env)
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="sí " * 200_000 + "\nsí\nrepite\n", env=env)
    lines = result.stdout.splitlines()
    assert lines[0].endswith("¿La seguimos? Sí o no.") and lines[1] == TOO_LONG
    assert lines[-1] == "Van tres trenes, de ana. Le toca a beto."
