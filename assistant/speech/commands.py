"""What the parser understood: one small frozen value per kind of utterance.

``to_json`` gives the shapes ``dudo interpretar`` prints (keys in Spanish,
exactly as the issue specifies). Not understanding is a normal result:
``Unknown``, which may carry a hint of what was heard ("a number but no face")
so the referee can ask a precise question back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

Face = int | Literal["estas"]
Direction = Literal["derecha", "izquierda"]
Query = Literal["dados", "marcador", "turno", "apuesta", "reglas", "noche", "jugador", "dudas", "apuestas", "calzos", "estadisticas"]
NIGHT_QUERIES = ("noche", "jugador", "dudas", "apuestas", "calzos", "estadisticas")
"""What is asked of the night's figures, not of the game in play."""
CallName = Literal["dudo", "siciliana", "calzo", "paso", "mato", "picado"]


@dataclass(frozen=True)
class BidCommand:
    """A bid; ``player`` is set when the speaker named who bids ("beto, tres trenes"),
    ``to`` when he named whom he said it to ("nueve cuadras, diego")."""

    quantity: int
    face: Face
    direction: Direction | None = None
    player: str | None = None
    to: str | None = None
    """After a reveal the same words are that player's count ("dos trenes, ana"), never the table's."""
    action: ClassVar[str] = "apuesta"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"accion": self.action, "cantidad": self.quantity, "pinta": self.face}
        if self.direction:
            data["sentido"] = self.direction
        if self.player:
            data["jugador"] = self.player
        return data


@dataclass(frozen=True)
class RaiseCommand:
    """A bid said against the one standing, in its face: "uno más", "subo dos"
    (``more`` than its quantity) or "diez de lo mismo" (``quantity``)."""

    more: int = 0
    quantity: int | None = None
    action: ClassVar[str] = "apuesta"

    def to_json(self) -> dict[str, Any]:
        if self.quantity is not None:
            return {"accion": self.action, "cantidad": self.quantity, "pinta": "la misma"}
        return {"accion": self.action, "mas": self.more, "pinta": "la misma"}


@dataclass(frozen=True)
class CallCommand:
    """A call; ``player`` is set when named ("carla duda"); ``bid`` when the caller
    restated the bid he calls ("dudo esas cuatro quinas": (4, 5))."""

    call: CallName
    player: str | None = None
    bid: tuple[int, int] | None = None

    @property
    def action(self) -> str:
        return self.call

    def to_json(self) -> dict[str, Any]:
        """The call, and who made it when named; a restated bid is only the call
        ("dudo los cinco trenes" is a dudo): ``details`` shows it."""
        data: dict[str, Any] = {"accion": self.call}
        if self.player:
            data["jugador"] = self.player
        return data

    def details(self) -> dict[str, Any]:
        data = self.to_json()
        if self.bid:
            data["cantidad"], data["pinta"] = self.bid
        return data


@dataclass(frozen=True)
class ObligoCommand:
    mode: Literal["abierto", "cerrado"] | None = None
    action: ClassVar[str] = "obligo"

    def to_json(self) -> dict[str, Any]:
        return {"accion": self.action, "modo": self.mode}


@dataclass(frozen=True)
class CountCommand:
    """The table's count after a reveal; ``face`` when it was named ("había tres trenes")."""

    quantity: int
    face: Face | None = None
    action: ClassVar[str] = "cuenta"

    def to_json(self) -> dict[str, Any]:
        return {"accion": self.action, "cantidad": self.quantity}


@dataclass(frozen=True)
class PlayerCountCommand:
    """"ana tiene dos"; several at once ("ana dos beto uno") keep the rest in ``more``."""

    player: str
    quantity: int
    more: tuple[tuple[str, int], ...] = ()
    face: Face | None = None
    """The face counted, when it was named ("ana dos trenes")."""
    action: ClassVar[str] = "cuenta_jugador"

    @property
    def counts(self) -> list[tuple[str, int]]:
        return [(self.player, self.quantity), *self.more]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"accion": self.action, "jugador": self.player, "cantidad": self.quantity}
        if self.more:
            data["mas"] = [{"jugador": p, "cantidad": n} for p, n in self.more]
        return data


@dataclass(frozen=True)
class HandCommand:
    """Dice shown. ``kind`` is set when the hand was named only by its kind
    ("pichanga", "tenía full"): ``faces`` is then one hand of that kind, enough to
    judge a paso but not to count a face."""

    faces: tuple[int, ...]
    player: str | None = None
    kind: str | None = None
    action: ClassVar[str] = "mano"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"accion": self.action}
        if self.kind:
            data["tipo"] = self.kind
        else:
            data["caras"] = sorted(self.faces)
        if self.player:
            data["jugador"] = self.player
        return data


@dataclass(frozen=True)
class StartCommand:
    player: str | None = None
    direction: Direction | None = None
    action: ClassVar[str] = "parte"

    def to_json(self) -> dict[str, Any]:
        return {"accion": self.action, "jugador": self.player, "sentido": self.direction}


@dataclass(frozen=True)
class SimpleCommand:
    """si, no, deshacer; and for the whole table: ayuda, otra (a new game, same
    players and rules), terminar (the night is over)."""

    action: Literal["si", "no", "deshacer", "ayuda", "otra", "terminar"]
    joining: tuple[str, ...] = ()
    """«otra con pedro»: who joins the new game."""
    leaving: tuple[str, ...] = ()
    """«otra sin ana»: who leaves it."""

    def to_json(self) -> dict[str, Any]:
        extra = {k: list(v) for k, v in (("entran", self.joining), ("salen", self.leaving)) if v}
        return {"accion": self.action, **extra}


@dataclass(frozen=True)
class QueryCommand:
    what: Query
    player: str | None = None
    """Whose figures: «¿cómo va beto?» (his game while one is played), «cifras de beto» (his night: ``noche``)."""
    action: ClassVar[str] = "consulta"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"accion": self.action, "que": self.what}
        if self.player:
            data["jugador"] = self.player
        return data


@dataclass(frozen=True)
class PenaltyCommand:
    player: str
    action: ClassVar[str] = "castigo"

    def to_json(self) -> dict[str, Any]:
        return {"accion": self.action, "jugador": self.player}


@dataclass(frozen=True)
class ReviveCommand:
    """Revivir: "revivimos" (``everyone``) or "revivo" (the speaker, or ``player`` when named)."""

    everyone: bool
    player: str | None = None
    action: ClassVar[str] = "revivir"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"accion": self.action, "todos": self.everyone}
        if self.player:
            data["jugador"] = self.player
        return data


@dataclass(frozen=True)
class Unknown:
    """Not understood. ``hint``: "falta_pinta" when a quantity came without a face,
    "falta_cantidad" for a face without a quantity, "jugador" for a name we
    could not place; ``quantity``/``face`` keep what was heard."""

    hint: str | None = None
    quantity: int | None = None
    face: int | None = None
    heard: tuple[str, ...] = field(default=(), compare=False)
    action: ClassVar[str] = "desconocido"

    def to_json(self) -> dict[str, Any]:
        return {"accion": self.action}


@dataclass(frozen=True)
class Reading:
    """One way to read an utterance. ``explained``: the share of its words the
    reading accounts for (1.0: all; less when a tail such as "y listo" was
    dropped). A ``weak`` reading is taken only when the game accepts it now
    ("carla quina" is carla's one-die hand only while hands are being told).

    ``certainty`` (0-1) says how sure the reading is: 1.0 when every word is placed
    (or only a tail the lexicon knows is dropped); less when words it does not
    explain stand around it (``unexplained``: "jugale siete trenes", "[unk] dudo");
    0.0 when a cue says the line is about something else (``cues``: "ayer dudé").
    ``lead`` and ``tail``: how many words before and after the move it leaves out."""

    command: Command
    explained: float = 1.0
    weak: bool = False
    how: str = "frase"
    """Which rule found it: frase, marco, cola, corrección, repetición, titubeo, suma, contexto, suelta."""
    certainty: float = 1.0
    unexplained: tuple[str, ...] = ()
    cues: tuple[str, ...] = ()
    lead: int = 0
    tail: int = 0

    def to_json(self) -> dict[str, Any]:
        details = getattr(self.command, "details", None)
        data = details() if callable(details) else self.command.to_json()
        extra = {"pinta": self.command.face} if isinstance(self.command, CountCommand | PlayerCountCommand) and self.command.face else {}
        sure: dict[str, Any] = {}
        if self.certainty < 1.0:
            sure["certeza"] = round(self.certainty, 2)
        if self.unexplained:
            sure["sin_explicar"] = list(self.unexplained)
        if self.cues:
            sure["vetos"] = list(self.cues)
        return {**data, **extra, "explica": round(self.explained, 2), "lectura": self.how, **({"debil": True} if self.weak else {}), **sure}


Command = (
    BidCommand
    | RaiseCommand
    | ReviveCommand
    | CallCommand
    | ObligoCommand
    | CountCommand
    | PlayerCountCommand
    | HandCommand
    | StartCommand
    | SimpleCommand
    | QueryCommand
    | PenaltyCommand
    | Unknown
)
