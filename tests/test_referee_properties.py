"""Random table talk through the whole referee: never a crash, and a refused
line never changes the game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
