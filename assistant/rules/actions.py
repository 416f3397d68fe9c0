"""What players and the table can do, as small frozen values.

Each action serialises to a plain dict (``to_json``) so a game can be stored
as a list of them and rebuilt by replaying them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from assistant.rules.bid import Bid

Direction = Literal["izquierda", "derecha"]


@dataclass(frozen=True, slots=True)
class Start:
    """"parte ana por la derecha": who opens the round and which way it goes.

    ``player`` may be None when the starter is already known and only the
    direction is said; ``direction`` None keeps the current direction.
    """

    player: str | None = None
    direction: Direction | None = None
    kind: ClassVar[str] = "parte"


@dataclass(frozen=True, slots=True)
class Raise:
    """A bid by ``player`` (the opening bid or a raise)."""

    player: str
    bid: Bid
    kind: ClassVar[str] = "apuesta"


@dataclass(frozen=True, slots=True)
class Call:
    """dudo, calzo, mato, siciliana (dudar la partida), paso or picado."""

    player: str
    call: Literal["dudo", "calzo", "mato", "siciliana", "paso", "picado"]
    kind: ClassVar[str] = "llamada"


@dataclass(frozen=True, slots=True)
class Oblige:
    """The obligador declares the obligo (open or closed) before opening."""

    player: str
    closed: bool = False
    kind: ClassVar[str] = "obligo"


@dataclass(frozen=True, slots=True)
class Count:
    """The table's total of the bid face, as seen on the dice (aces included
    where they are wild; the millas bonus is added by the engine)."""

    total: int
    kind: ClassVar[str] = "cuenta"


@dataclass(frozen=True, slots=True)
class Hands:
    """Every active player's revealed dice; the engine counts them itself."""

    hands: tuple[tuple[str, tuple[int, ...]], ...]
    kind: ClassVar[str] = "manos"

    @classmethod
    def of(cls, hands: dict[str, list[int] | tuple[int, ...]]) -> Hands:
        return cls(tuple((name, tuple(faces)) for name, faces in hands.items()))


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a doubted pass (or picado) was valid, when the table says so."""

    valid: bool
    kind: ClassVar[str] = "juicio"


@dataclass(frozen=True, slots=True)
class ShownHand:
    """The passer's (or picador's) dice, for the engine to judge."""

    faces: tuple[int, ...]
    kind: ClassVar[str] = "mano"


@dataclass(frozen=True, slots=True)
class Penalty:
    """Castigo por error: the table gives ``player`` a loss; he starts again."""

    player: str
    kind: ClassVar[str] = "castigo"


@dataclass(frozen=True, slots=True)
class Revive:
    """Caleuchano's revivir (not regulation): ``player`` None is "revivimos" (every
    player on the same palos returns one); a player is "revivo" (instead of his
    obligado, he returns the palo that brought it)."""

    player: str | None = None
    kind: ClassVar[str] = "revivir"


Action = Start | Raise | Call | Oblige | Count | Hands | Verdict | ShownHand | Penalty | Revive


def action_to_json(action: Action) -> dict[str, Any]:
    """A plain dict, e.g. ``{"tipo": "apuesta", "jugador": "ana", "cantidad": 3, "pinta": 3}``."""
    data: dict[str, Any] = {"tipo": action.kind}
    if isinstance(action, Start):
        data.update(jugador=action.player, sentido=action.direction)
    elif isinstance(action, Raise):
        data.update(jugador=action.player, **action.bid.to_json())
    elif isinstance(action, Call):
        data.update(jugador=action.player, llamada=action.call)
    elif isinstance(action, Oblige):
        data.update(jugador=action.player, cerrado=action.closed)
    elif isinstance(action, Count):
        data.update(cantidad=action.total)
    elif isinstance(action, Hands):
        data.update(manos={name: list(faces) for name, faces in action.hands})
    elif isinstance(action, Verdict):
        data.update(valido=action.valid)
    elif isinstance(action, ShownHand):
        data.update(caras=list(action.faces))
    elif isinstance(action, Revive):
        data.update(jugador=action.player)
    else:
        data.update(jugador=action.player)
    return data


def action_from_json(data: dict[str, Any]) -> Action:
    kind = data["tipo"]
    if kind == "parte":
        return Start(data.get("jugador"), data.get("sentido"))
    if kind == "apuesta":
        return Raise(data["jugador"], Bid.from_json(data))
    if kind == "llamada":
        return Call(data["jugador"], data["llamada"])
    if kind == "obligo":
        return Oblige(data["jugador"], bool(data.get("cerrado", False)))
    if kind == "cuenta":
        return Count(int(data["cantidad"]))
    if kind == "manos":
        return Hands.of(data["manos"])
    if kind == "juicio":
        return Verdict(bool(data["valido"]))
    if kind == "mano":
        return ShownHand(tuple(data["caras"]))
    if kind == "castigo":
        return Penalty(data["jugador"])
    if kind == "revivir":
        return Revive(data.get("jugador"))
    raise ValueError(f"unknown action kind {kind!r}")
