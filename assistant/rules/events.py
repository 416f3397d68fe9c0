"""What happened, as small frozen values: ``Game.apply`` returns these.

Events carry data only (who, which bid, how many dice are left); turning them
into words is the replies' business. JSON exists only at the boundary (the
journal, ``dudo simular --json``): ``event_to_json`` / ``event_from_json``
convert every event generically, so a new event needs no code here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_type_hints

from assistant.rules.bid import Bid

Direction = Literal["izquierda", "derecha"]
Mode = Literal["normal", "obligo", "uno_contra_uno"]
CountedCall = Literal["dudo", "calzo", "mato", "siciliana"]
JudgedCall = Literal["paso", "picado"]


@dataclass(frozen=True, slots=True)
class StarterNamed:
    """The table said who opens this round and which way it goes."""

    player: str
    direction: Direction
    obligo: str | None = None
    """The obligador, when the round is an imposed obligo / obligado."""
    kind: ClassVar[str] = "parte"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round decided by the rules after the last one ended."""

    number: int
    starter: str
    direction: Direction
    mode: Mode
    obligador: str | None = None
    obligo_offer: str | None = None
    """A player who may (not must) call his obligo this round (clásico)."""
    kind: ClassVar[str] = "ronda"


@dataclass(frozen=True, slots=True)
class BidMade:
    player: str
    bid: Bid
    kind: ClassVar[str] = "apuesta"


@dataclass(frozen=True, slots=True)
class FalsaOpened:
    """An opening on aces in yocacho: those aces are void and the next bid is free."""

    player: str
    quantity: int
    kind: ClassVar[str] = "partida_falsa"


@dataclass(frozen=True, slots=True)
class ObligoDeclined:
    """Clásico: a player who could call his obligo opened normally instead."""

    player: str
    kind: ClassVar[str] = "obligo_renuncia"


@dataclass(frozen=True, slots=True)
class ObligoDeclared:
    player: str
    closed: bool
    kind: ClassVar[str] = "obligo"


@dataclass(frozen=True, slots=True)
class Passed:
    player: str
    kind: ClassVar[str] = "paso"


@dataclass(frozen=True, slots=True)
class PicadoCalled:
    player: str
    direction: Direction
    """The new direction of play."""
    kind: ClassVar[str] = "picado"


@dataclass(frozen=True, slots=True)
class Called:
    """A call that waits for the table: a count (dudo, calzo, mato, siciliana)
    or, when ``doubted`` is set, a verdict on a pass or a picado."""

    player: str
    call: CountedCall
    target: str
    bid: Bid
    doubted: JudgedCall | None = None
    kind: ClassVar[str] = "llamada"


@dataclass(frozen=True, slots=True)
class Counted:
    call: CountedCall
    bid: Bid
    seen: int
    bonus: int
    """The millas' extra die (caleuchano)."""
    total: int
    kind: ClassVar[str] = "cuenta"


@dataclass(frozen=True, slots=True)
class PassJudged:
    call: JudgedCall
    player: str
    valid: bool
    short_hand: bool = False
    """The passer had fewer than five dice: no hand can make the pass (yocacho)."""
    kind: ClassVar[str] = "juicio"


@dataclass(frozen=True, slots=True)
class Penalized:
    """Castigo por error."""

    player: str
    kind: ClassVar[str] = "castigo"


@dataclass(frozen=True, slots=True)
class DieLost:
    player: str
    count: int
    dice: int
    """Dice left."""
    banked: int = 0
    """Dice still banked "a favor" (clásico)."""
    from_bank: int = 0
    """How many of the lost dice came out of the bank."""
    kind: ClassVar[str] = "pierde_dado"


@dataclass(frozen=True, slots=True)
class PaloTaken:
    """A loss when scoring by palos (or chimbo9's fichas)."""

    player: str
    count: int
    palos: int
    """Palos (lost fichas) the player has now."""
    kind: ClassVar[str] = "palo"


@dataclass(frozen=True, slots=True)
class DieGained:
    """An exact calzo when scoring by dice: a die back, a die banked, or nothing."""

    player: str
    dice: int
    banked: int
    changed: bool
    kind: ClassVar[str] = "gana_dado"


@dataclass(frozen=True, slots=True)
class PaloReturned:
    """An exact calzo when scoring by palos: one palo less, if there was one."""

    player: str
    palos: int
    changed: bool
    kind: ClassVar[str] = "devuelve_palo"


@dataclass(frozen=True, slots=True)
class Eliminated:
    player: str
    kind: ClassVar[str] = "eliminado"


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[str, ...]
    payers: tuple[str, ...] = ()
    """The losers who pay the round (the first out), when the rules say how many."""
    kind: ClassVar[str] = "fin"


@dataclass(frozen=True)
class Revived:
    """Revivir: ``players`` each returned one palo (everyone, or the would-be obligador)."""

    players: tuple[str, ...]
    palos: tuple[int, ...]
    """Each one's palos after returning one."""
    kind: ClassVar[str] = "revivir"


Event = (
    StarterNamed | RoundStarted | BidMade | FalsaOpened | ObligoDeclined | ObligoDeclared | Passed
    | PicadoCalled | Called | Counted | PassJudged | Penalized | DieLost | PaloTaken | DieGained
    | PaloReturned | Eliminated | GameOver | Revived
)
EVENT_TYPES: dict[str, type[Any]] = {  # every member of Event (a test checks none is missing)
    cls.kind: cls
    for cls in (
        StarterNamed, RoundStarted, BidMade, FalsaOpened, ObligoDeclined, ObligoDeclared, Passed,
        PicadoCalled, Called, Counted, PassJudged, Penalized, DieLost, PaloTaken, DieGained,
        PaloReturned, Eliminated, GameOver, Revived,
    )
}


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"tipo": kind, field: value, …}``; a bid is ``{"cantidad", "pinta"}``, tuples are lists."""
    data: dict[str, Any] = {"tipo": event.kind}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Bid):
            value = value.to_json()
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def event_from_json(data: dict[str, Any]) -> Event:
    """The inverse of ``event_to_json``; raises ``ValueError`` on anything else."""
    if not isinstance(data, dict):
        raise ValueError(f"an event is an object, not {type(data).__name__}")
    cls = EVENT_TYPES.get(data.get("tipo"))  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown event kind {data.get('tipo')!r}")
    hints = get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if hints[f.name] is Bid:
            value = Bid.from_json(value)
        elif isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    try:
        event: Event = cls(**values)
    except TypeError as err:
        raise ValueError(str(err)) from err
    return event
