"""What the referee publishes after each accepted step, and who may listen.

The journal, the recognizer-result log and the scoreboard are observers: they
receive every change with the game as it stands after it, and nothing in the
referee waits for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from assistant.rules import Action, Event, Game

PartialKind = Literal["cuenta", "mano"]
Partial = tuple[PartialKind, str, int | list[int]]
"""A per-player count or hand given after a reveal: (kind, player, value)."""


@dataclass(frozen=True)
class Played:
    """Actions applied together for one utterance, and what they caused."""

    actions: tuple[Action, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class PartialGiven:
    """Per-player counts or hands said in one utterance, before the total is known."""

    partials: tuple[Partial, ...]


@dataclass(frozen=True)
class Undone:
    """The last step (or the last partial report) was taken back."""


Change = Played | PartialGiven | Undone


class Observer(Protocol):
    """Hears every accepted change, with the game as it stands after it."""

    def observe(self, change: Change, game: Game) -> None: ...
