"""The game's public picture: what a table can know of a game, as plain data.

One picture for everything that shows a game: ``dudo simular --json`` and the
scoreboard's ``GET /estado`` give it as it is, the scoreboard's page and the
golden playthroughs are drawn from it. Its keys are the JSON the command line
promises (Spanish names, numbers and names as values, no sentences). The
engine's own equality check, ``Game.snapshot``, is this picture plus the
round's bookkeeping a table never sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.rules.game import Game


def picture(game: Game, detail: bool = False) -> dict[str, Any]:
    """The game as the table sees it, in the shape ``dudo simular --json`` promises:
    ``turno`` is whose bid it is (None once the cachos are lifted), ``ganador`` the
    winner when there is exactly one.

    ``detail`` adds what a screen or a trace also shows: ``fase``, ``sentido``,
    who ``parte``, the call being counted (``contando``), every winner
    (``ganadores``) and each seat's banked dice (``a_favor``)."""
    from assistant.rules.game import DIRECTION_NAMES

    shown: dict[str, Any] = {
        "reglas": game.rules.name,
        "jugadores": [
            {"nombre": s.name, "dados": s.dice, "palos": s.palos, "eliminado": s.out, **({"a_favor": s.banked} if detail else {})}
            for s in game.seats.values()
        ],
        "turno": game.turn if game.phase == "apuestas" else None,
        "apuesta": None if game.bid is None else {**game.bid.to_json(), "jugador": game.bidder},
        "modo": game.mode,
        "ganador": game.winners[0] if len(game.winners) == 1 else None,
        "ronda": game.round_number,
    }
    if detail:
        pending = game.pending
        shown |= {
            "fase": game.phase,
            "sentido": DIRECTION_NAMES[game.direction],
            "parte": game.starter,
            "contando": None if pending is None else pending.call,
            "ganadores": list(game.winners),
        }
    return shown
