"""Every reason the rules can give and every event they can cause has its
Spanish sentence: a new refusal or event without one fails here, not at a table."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any, Literal

import pytest

from assistant import replies
from assistant.rules import Bid, Game, preset
from assistant.rules import events as ev
from assistant.rules import refusals as no


def _subclasses(base: type) -> list[type]:
    found: list[type] = []
    sub: type
    for sub in base.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


REASONS = sorted({c for c in _subclasses(no.Reason) if getattr(no, c.__name__, None) is c}, key=lambda c: c.__name__)
"""(``@dataclass(slots=True)`` makes a new class: the one it replaced may linger among the subclasses.)"""
EVENTS = [c for c in typing.get_args(ev.Event)]


def _sample(kind: Any) -> Any:
    """A plausible value of a field's type."""
    origin = typing.get_origin(kind)
    if origin is Literal:
        return typing.get_args(kind)[0]
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return _sample(next(a for a in typing.get_args(kind) if a is not type(None)))
    if origin is tuple:
        return (_sample(typing.get_args(kind)[0]),)
    if kind is str:
        return "ana"
    if kind is int:
        return 2
    if kind is bool:
        return False
    if kind is Bid:
        return Bid(3, 3)
    if kind is object:
        return "x"
    if isinstance(kind, type) and issubclass(kind, no.Reason):
        return no.TooFewPlayers()
    args = typing.get_args(kind)
    if args:
        return _sample(args[0])
    raise TypeError(f"no sample for {kind!r}")


def _instance(cls: type) -> Any:
    hints = typing.get_type_hints(cls, vars(no) | vars(ev))
    return cls(**{f.name: _sample(hints[f.name]) for f in dataclasses.fields(cls) if f.init})


@pytest.mark.parametrize("reason", REASONS, ids=lambda c: c.__name__)
def test_every_refusal_reason_has_its_sentence(reason: type) -> None:
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    text = replies.refusal(_instance(reason), game)
    assert len(text.split()) >= 3 and text.rstrip()[-1] in ".?!»)" and "{" not in text and "None" not in text, text


def test_every_reason_is_found() -> None:
    assert len(REASONS) > 50 and no.NotARaise in REASONS and no.BadRulesFile in REASONS


@pytest.mark.parametrize("event", EVENTS, ids=lambda c: c.__name__)
def test_every_event_type_is_worded(event: type) -> None:
    """Each event is worded in ``replies``: on its own, or with the step it comes with."""
    source = Path(replies.__file__).read_text("utf-8")
    assert f"ev.{event.__name__}" in source, f"replies never words {event.__name__}"


@pytest.mark.parametrize("event", EVENTS, ids=lambda c: c.__name__)
def test_every_event_has_a_json_kind(event: type) -> None:
    assert ev.event_from_json(ev.event_to_json(_instance(event))) == _instance(event)
