"""A bid: a quantity of one face (or of the obligador's hidden face)."""

from __future__ import annotations

from dataclasses import dataclass

AS = 1
HIDDEN = 0
"""Face of an "N de éstas" bid: the obligador's own face, unknown to the table."""
FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class Bid:
    """``Bid(3, 5)`` is "tres quinas"; ``Bid(2, HIDDEN)`` is "dos de éstas".

    Bids are deliberately not ordered: whether one may follow another
    depends on the rule set and the mode (see ``Game._check_raise`` and
    ``Game._check_obligo_raise``).
    """

    quantity: int
    face: int

    def __repr__(self) -> str:
        return f"Bid({self.quantity}, {self.face})"

    @property
    def aces(self) -> bool:
        return self.face == AS

    def to_json(self) -> dict[str, int | str]:
        return {"cantidad": self.quantity, "pinta": "estas" if self.face == HIDDEN else self.face}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Bid:
        face = data["pinta"]
        quantity = data["cantidad"]
        assert isinstance(quantity, int)
        return cls(quantity, HIDDEN if face == "estas" else int(str(face)))
