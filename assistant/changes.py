"""What the table does, told to whoever listens: one observer contract.

An ``Observer`` hears two things, each with the game as it stands after it:
every accepted change (``observe``: the referee publishes it) and every
utterance with what the referee answered (``answered``: the session tells it,
refused or not). The journal keeps the changes; the recognizer-result log
keeps the utterances; the scoreboard shows both. Nothing waits for them, and
an observer that fails is logged and the game goes on. An observer may answer
a change with a ``Notice`` the table must hear (the journal cannot write to
the disk, or can again).

``Table`` is the game plus what has been said of the reveal so far; live play
and a journal's replay move it with the same ``advance``, so both reach the
same state after the same changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from assistant.rules import Action, Event, Game
from assistant.voice.heard import Heard

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
    """The last thing said was taken back: the last utterance of counts or hands
    during a reveal, else the last action."""


Change = Played | PartialGiven | Undone

StorageCause = Literal["lleno", "solo_lectura", "sin_permiso", "sin_carpeta", "falla"]


@dataclass(frozen=True)
class StorageFailed:
    """The journal could not be written; the game goes on from memory."""

    cause: StorageCause


@dataclass(frozen=True)
class StorageRecovered:
    """The journal is written again; ``owed`` records were caught up."""

    owed: int


Notice = StorageFailed | StorageRecovered


@dataclass(frozen=True)
class Answered:
    """One utterance and what the referee answered to it."""

    heard: Heard
    """What the recognizer returned (or what was typed)."""
    text: str
    """The reading acted on."""
    chosen: int
    """Which alternative of ``heard`` it was (0: the best)."""
    reply: str
    """What the referee said back."""
    accepted: bool
    reply_ms: float
    """Milliseconds from the result to the reply: choosing, parsing, refereeing."""


class Observer:
    """Hears what happens at the table. Both hooks do nothing unless overridden."""

    def observe(self, change: Change, game: Game) -> Notice | None:
        """An accepted change, with the game after it (the journal writes it)."""
        return None

    def answered(self, said: Answered, game: Game) -> None:
        """An utterance and the referee's answer, accepted or not (the recognizer log keeps it)."""


@dataclass
class Collecting:
    """Counts or hands said after a reveal, one group per utterance, in order.
    The latest value given for a player is the one that counts."""

    groups: list[tuple[Partial, ...]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.groups)

    def latest(self) -> dict[str, int | tuple[int, ...]]:
        """Each player's count or hand, whichever was said of him last."""
        found: dict[str, int | tuple[int, ...]] = {}
        for group in self.groups:
            for _kind, name, value in group:
                found[name] = value if isinstance(value, int) else tuple(value)
        return found

    def with_group(self, group: tuple[Partial, ...]) -> Collecting:
        """What would be collected after ``group`` (nothing changes here)."""
        return Collecting([*self.groups, group])

    def flat(self) -> list[Partial]:
        return [p for group in self.groups for p in group]


@dataclass
class Table:
    """A game and the reveal in progress: what both live play and replay move."""

    game: Game
    collecting: Collecting = field(default_factory=Collecting)

    def play(self, actions: tuple[Action, ...]) -> list[list[Event]]:
        """Apply actions in order (the caller made sure they all apply); a step
        ends the reveal, so what was said of it is spent. Events per action."""
        caused = [self.game.apply(action) for action in actions]
        self.collecting = Collecting()
        return caused

    def undo(self) -> tuple[Partial, ...] | Action:
        """Take back the last thing said: the last utterance of the reveal, else the last action."""
        if self.collecting:
            return self.collecting.groups.pop()
        return self.game.undo()

    def advance(self, change: Change) -> None:
        """Apply one change (raises ``RulesError`` if an action no longer applies)."""
        if isinstance(change, Played):
            self.play(change.actions)
        elif isinstance(change, PartialGiven):
            self.collecting.groups.append(change.partials)
        else:
            self.undo()
