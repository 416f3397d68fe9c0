"""Random table talk through the whole referee: never a crash, and a refused
line never changes the game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant import journal
from assistant.referee import Referee
from assistant.rules import PRESETS, Game, preset
from assistant.speech import Parser
from tests.test_parser import corpus

UTTERANCES = [text for text, _ in corpus()] + [
    "parte ana", "parte beto por la derecha", "dudo", "hay dos", "hay cero", "sí", "no",
    "corrección", "as tren tren cuadra cuadra", "tres trenes", "dos ases", "cinco senas",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(PRESETS),
    lines=st.lists(st.sampled_from(UTTERANCES), min_size=1, max_size=60),
    certainty=st.lists(st.booleans(), min_size=60, max_size=60),
)
def test_random_talk_never_breaks_the_referee(rules: str, lines: list[str], certainty: list[bool]) -> None:
    game = Game(preset(rules), ["ana", "beto", "carla", "dani"])
    referee = Referee(game)
    parser = Parser(players=game.players)
    for line, certain in zip(lines, certainty, strict=False):
        before = game.snapshot()
        reply = referee.handle(parser.parse(line), certain=certain)
        assert reply.text and "{" not in reply.text
        if not reply.accepted:
            assert game.snapshot() == before, line
    rebuilt = Game.replay(game.rules, game.players, game.history)
    assert rebuilt.snapshot() == game.snapshot()


COUNT_TALK = [
    "parte ana", "tres trenes", "cuatro trenes", "dos ases", "dudo", "calzo", "paso", "corrección", "sí", "no",
    "ana dos", "beto uno", "carla cero", "dani tres", "ana dos beto uno", "carla uno dani cero", "ana uno y beto dos",
    "ana tren tren quina quina quina", "beto as tren cuadra cuadra sena", "carla quina quina quina quina quina",
    "dani tren tren tren tren tren", "hay tres", "hay cero", "castigo para beto", "obligo", "dos de éstas",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    rules=st.sampled_from(PRESETS),
    lines=st.lists(st.sampled_from(COUNT_TALK), min_size=1, max_size=40),
    certainty=st.lists(st.booleans(), min_size=40, max_size=40),
)
def test_the_journal_replays_to_the_live_game_after_every_line(
    tmp_path_factory: pytest.TempPathFactory, rules: str, lines: list[str], certainty: list[bool]
) -> None:
    """Per-player counts, hands and undo in the mix: after every line, a resume
    from the journal is the live table (game and counts said so far), and an
    utterance writes at most one record."""
    path = tmp_path_factory.mktemp("fuzz") / "p.jsonl"
    game = Game(preset(rules), ["ana", "beto", "carla", "dani"])
    record = journal.Journal.create(game.rules, game.players, path)
    referee = Referee(game, [record])
    parser = Parser(players=game.players)
    written = 2
    for line, certain in zip(lines, certainty, strict=False):
        referee.handle(parser.parse(line), certain=certain)
        now = len(path.read_bytes().splitlines())
        assert now in (written, written + 2), line  # one record at most, written twice
        written = now
        loaded = journal.load(path)
        assert loaded.damage is None
        assert loaded.game.snapshot() == game.snapshot(), line
        assert loaded.collecting.flat() == referee.collecting.flat(), line
    record.close()
