"""A recognizer that errs, for the team's own tests: each golden line turned
into the vosk result a noisy table would give.

Three kinds of error, each the way a grammar-restricted recognizer fails:

- ``swap``: the best reading is wrong (a confusable game word), the truth is
  second, close behind (n-best).
- ``insert``: a word from outside the game slipped into the best reading
  (a bar word heard as part of the call), the truth second (n-best).
- ``substitute``: a confusable game word replaces the right one, as the only
  reading, with full confidence (vosk-api #1339): nothing to choose from.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from assistant.referee import Referee
from assistant.rules import Game, load_rules
from assistant.session import MARGIN, Session
from assistant.speech import Parser
from assistant.voice.heard import Heard, from_vosk
from tests.test_golden import header

Kind = Literal["swap", "insert", "substitute"]
KINDS: tuple[Kind, ...] = ("swap", "insert", "substitute")

CONFUSABLE: dict[str, tuple[str, ...]] = {
    # game words that sound alike in Spanish, or differ in one syllable
    "dos": ("tres",), "tres": ("dos", "seis"), "cuatro": ("cinco",), "cinco": ("cuatro", "seis"),
    "seis": ("tres", "siete"), "siete": ("seis",), "ocho": ("cinco",), "uno": ("dos",), "cero": ("tres",),
    "tren": ("tres",), "trenes": ("senas",), "senas": ("trenes",), "sena": ("quina",), "quinas": ("cuadras",),
    "cuadras": ("quinas",), "quina": ("sena",), "cuadra": ("quina",), "ases": ("senas",), "as": ("tres",),
    "dudo": ("paso",), "paso": ("dudo",), "calzo": ("paso",), "sí": ("no",), "no": ("sí",),
}
BAR_WORDS = ("cerveza", "mesa", "vaso", "música", "tele", "garzón", "mañana")
"""Words a table says that are not the game's (and not the parser's fillers)."""


def substitute(text: str, rng: random.Random) -> str | None:
    """The text with one confusable game word replaced; None if it has none."""
    words = text.split()
    spots = [i for i, w in enumerate(words) if w in CONFUSABLE]
    if not spots:
        return None
    i = rng.choice(spots)
    words[i] = rng.choice(CONFUSABLE[words[i]])
    return " ".join(words)


def insert(text: str, rng: random.Random) -> str:
    words = text.split()
    words.insert(rng.randrange(len(words) + 1), rng.choice(BAR_WORDS))
    return " ".join(words)


def corrupt(text: str, kind: Kind, rng: random.Random) -> dict[str, Any] | None:
    """The vosk result for ``text`` heard through the channel (None: nothing to corrupt)."""
    wrong = insert(text, rng) if kind == "insert" else substitute(text, rng)
    if wrong is None or wrong == text:
        return None
    if kind == "substitute":
        return {"text": wrong, "result": [{"word": w, "conf": 1.0, "start": 0.0, "end": 0.3} for w in wrong.split()]}
    behind = rng.uniform(0.1, MARGIN - 0.1)
    return {"alternatives": [{"text": wrong, "confidence": 200.0}, {"text": text, "confidence": 200.0 - behind}]}


@dataclass
class Outcome:
    script: str
    kind: Kind
    corrupted: int
    """Lines heard through the channel."""
    same_acceptance: bool
    same_end: bool


def golden_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text("utf-8").splitlines() if line.strip() and not line.startswith("#")]


def play(path: Path, heard: Iterator[Heard | None]) -> tuple[list[bool], dict[str, Any]]:
    """Acceptance per line and the final state; a question for "sí" (a step
    with no way back, chosen from an uncertain reading) is answered yes."""
    spec, players = header(path)
    game = Game(load_rules(spec), players)
    session = Session(Referee(game), Parser(players=game.players), say=lambda _t: None)
    accepted = []
    for item in heard:
        if item is None:
            continue
        reply = session.hear(item)
        if session.referee.awaiting is not None:
            reply = session.hear(Heard.from_text("sí"))
        accepted.append(reply.accepted)
    return accepted, game.snapshot()


def run(path: Path, kind: Kind, seed: int, rate: float = 0.5, only_harmless: bool = False) -> Outcome:
    """The golden game with about ``rate`` of its lines heard through the channel.
    ``only_harmless``: corrupt a line only when the wrong reading is one the
    game would not accept at that point (unparseable or illegal)."""
    lines = golden_lines(path)
    clean = play(path, (Heard.from_text(line) for line in lines))
    rng = random.Random(seed)
    spec, players = header(path)
    probe = Session(Referee(Game(load_rules(spec), players)), Parser(players=players), say=lambda _t: None)
    corrupted = 0

    def noisy() -> Iterator[Heard | None]:
        nonlocal corrupted
        for line in lines:
            result = corrupt(line, kind, rng) if rng.random() < rate else None
            if result is not None and only_harmless:
                wrong = from_vosk(result)
                if wrong is not None and probe.referee.accepts(probe.parser.parse(wrong.best.text)):
                    result = None  # the channel made a legal move of it: not what this run is about
            heard = from_vosk(result) if result is not None else Heard.from_text(line)
            corrupted += result is not None
            probe.hear(Heard.from_text(line))  # the probe follows the true game
            if probe.referee.awaiting is not None:
                probe.hear(Heard.from_text("sí"))
            yield heard

    accepted, end = play(path, noisy())
    return Outcome(path.stem, kind, corrupted, accepted == clean[0], end == clean[1])
