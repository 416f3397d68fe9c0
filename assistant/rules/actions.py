"""What players and the table can do, as small frozen values.

Each action serialises to a plain dict (``to_json``) so a game can be stored
as a list of them and rebuilt by replaying them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    def of(cls, hands: Mapping[str, Sequence[int]]) -> Hands:
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


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    """``data[key]`` checked to be of ``kind`` (bool is not an int here); ValueError otherwise."""
    if key not in data:
        if optional:
            return None
        raise ValueError(f"missing {key!r}")
    value = data[key]
    if value is None and optional:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise ValueError(f"{key!r} is {type(value).__name__}, not {'/'.join(k.__name__ for k in kinds)}")
    return value


def _faces(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in value):
        raise ValueError("dice must be a list of numbers")
    return tuple(value)


def action_from_json(data: object) -> Action:
    """The inverse of ``action_to_json``; raises ``ValueError`` on anything that is
    not exactly what it writes (a journal line may be damaged)."""
    if not isinstance(data, dict):
        raise ValueError(f"an action is an object, not {type(data).__name__}")
    kind = data.get("tipo")
    if kind == "parte":
        direction = _field(data, "sentido", str, optional=True)
        if direction not in (None, "izquierda", "derecha"):
            raise ValueError(f"unknown direction {direction!r}")
        return Start(_field(data, "jugador", str, optional=True), direction)
    if kind == "apuesta":
        face = _field(data, "pinta", (int, str))
        if isinstance(face, str) and face != "estas":
            raise ValueError(f"unknown face {face!r}")
        return Raise(_field(data, "jugador", str), Bid(_field(data, "cantidad", int), 0 if face == "estas" else face))
    if kind == "llamada":
        call = _field(data, "llamada", str)
        if call not in ("dudo", "calzo", "mato", "siciliana", "paso", "picado"):
            raise ValueError(f"unknown call {call!r}")
        return Call(_field(data, "jugador", str), call)
    if kind == "obligo":
        return Oblige(_field(data, "jugador", str), bool(_field(data, "cerrado", bool, optional=True)))
    if kind == "cuenta":
        return Count(_field(data, "cantidad", int))
    if kind == "manos":
        hands = _field(data, "manos", dict)
        if not all(isinstance(name, str) for name in hands):
            raise ValueError("hands are named by players")
        return Hands(tuple((name, _faces(faces)) for name, faces in hands.items()))
    if kind == "juicio":
        return Verdict(_field(data, "valido", bool))
    if kind == "mano":
        return ShownHand(_faces(data.get("caras")))
    if kind == "castigo":
        return Penalty(_field(data, "jugador", str))
    if kind == "revivir":
        return Revive(_field(data, "jugador", str, optional=True))
    raise ValueError(f"unknown action kind {kind!r}")
