"""What a game says of each player, counted from its history: who doubts
best, who bluffs, who wins. Pure: a game in, numbers out; the journals that
hold the games are read by ``assistant.stats``.

What is counted, per player:

- ``partidas``: games with at least one bid in which the player sat; ``ganadas``:
  finished games the player won; ``terminadas``: finished games played.
- ``rondas_perdidas``: rounds lost, and how (``perdidas``): ``apuesta`` (a doubted
  bid that fell short), ``duda`` (a wrong doubt, of a bid, a paso or a picado),
  ``calzo`` (a calzo that was not exact), ``paso`` (a caught paso), ``picado``
  (a caught picado), ``mato`` (clásico's matar, either side), ``castigo``.
- ``dudas`` made and ``dudas_acertadas``; ``calzos`` and ``calzos_acertados``;
  ``pasos`` and ``pasos_pillados``; ``apuestas_dudadas`` and
  ``apuestas_aguantadas`` (doubted bids that held: a bluff nobody doubted is
  never seen, so never counted); ``mayor_apuesta_aguantada``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from assistant.rules import events as ev
from assistant.rules.bid import Bid

if TYPE_CHECKING:
    from assistant.rules.game import Game

EVENING_STARTS = time(6, 0)
"""A night runs from 6 a.m. to 6 a.m.: a game at 2 a.m. belongs to the evening before."""
LOSS_KINDS = ("apuesta", "duda", "calzo", "paso", "picado", "mato", "castigo")
COUNTS = (
    "partidas", "ganadas", "terminadas", "rondas_perdidas", "dudas", "dudas_acertadas", "calzos", "calzos_acertados",
    "pasos", "pasos_pillados", "apuestas_dudadas", "apuestas_aguantadas", "matos", "matos_acertados",
)


@dataclass
class Figures:
    """One player's figures (over a game, a night, or any period)."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0))
    lost: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LOSS_KINDS, 0))
    biggest: Bid | None = None
    """The biggest bid of the player's that was doubted and held."""

    def __getitem__(self, key: str) -> int:
        return self.counts[key]

    def add(self, other: Figures) -> None:
        for key, value in other.counts.items():
            self.counts[key] += value
        for key, value in other.lost.items():
            self.lost[key] += value
        if other.biggest is not None and (self.biggest is None or _bigger(other.biggest, self.biggest)):
            self.biggest = other.biggest

    def to_json(self) -> dict[str, Any]:
        biggest = None if self.biggest is None else self.biggest.to_json()
        return {**self.counts, "perdidas": dict(self.lost), "mayor_apuesta_aguantada": biggest}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Figures:
        figures = cls()
        figures.counts.update({k: int(data[k]) for k in COUNTS})
        figures.lost.update({k: int(v) for k, v in data["perdidas"].items()})
        if data.get("mayor_apuesta_aguantada"):
            figures.biggest = Bid.from_json(data["mayor_apuesta_aguantada"])
        return figures


def _bigger(a: Bid, b: Bid) -> bool:
    return (a.quantity, a.face) > (b.quantity, b.face)


@dataclass(frozen=True)
class GameFigures:
    """A game's figures and the facts that place it in time."""

    name: str
    started: datetime | None
    players: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    figures: dict[str, Figures]

    def to_json(self) -> dict[str, Any]:
        return {
            "archivo": self.name, "inicio": self.started.isoformat() if self.started else None, "jugadores": list(self.players),
            "terminada": self.finished, "ganadores": list(self.winners), "figuras": {p: f.to_json() for p, f in self.figures.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameFigures:
        started = datetime.fromisoformat(data["inicio"]) if data["inicio"] else None
        return cls(data["archivo"], started, tuple(data["jugadores"]), bool(data["terminada"]), tuple(data["ganadores"]),
                   {p: Figures.from_json(f) for p, f in data["figuras"].items()})


def game_figures(game: Game, name: str = "", started: datetime | None = None) -> GameFigures:
    """Replay ``game``'s history once and count what every player did."""
    figures = {p: Figures() for p in game.players}
    pending: ev.Called | None = None
    castigo = False
    bids = 0
    for _then, events in game.retold():
        for e in events:
            if isinstance(e, ev.BidMade):
                bids += 1
            elif isinstance(e, ev.Passed):
                figures[e.player].counts["pasos"] += 1
            elif isinstance(e, ev.Called):
                pending = e
                _called(figures, e)
            elif isinstance(e, ev.Counted) and pending is not None:
                _counted(figures, pending, e)
            elif isinstance(e, ev.PassJudged) and pending is not None:
                if not e.valid:
                    figures[pending.player].counts["dudas_acertadas"] += 1
                    if e.call == "paso":
                        figures[e.player].counts["pasos_pillados"] += 1
            elif isinstance(e, ev.Penalized):
                castigo = True
            elif isinstance(e, ev.DieLost | ev.PaloTaken):
                figures[e.player].counts["rondas_perdidas"] += 1
                figures[e.player].lost[_how(e.player, pending, castigo)] += 1
            elif isinstance(e, ev.RoundStarted | ev.GameOver):
                pending, castigo = None, False
    if bids:  # a game where nobody bid was not played ("parte ana", then «terminamos»)
        for player in game.players:
            figures[player].counts["partidas"] += 1
            if game.over:
                figures[player].counts["terminadas"] += 1
                figures[player].counts["ganadas"] += player in game.winners
    return GameFigures(name, started, tuple(game.players), game.over, tuple(game.winners), figures)


def _called(figures: dict[str, Figures], e: ev.Called) -> None:
    caller = figures[e.player].counts
    if e.doubted is not None or e.call in ("dudo", "siciliana"):
        caller["dudas"] += 1
        if e.doubted is None:
            figures[e.target].counts["apuestas_dudadas"] += 1
    elif e.call == "calzo":
        caller["calzos"] += 1
    elif e.call == "mato":
        caller["matos"] += 1


def _counted(figures: dict[str, Figures], call: ev.Called, e: ev.Counted) -> None:
    if call.call in ("dudo", "siciliana"):
        if e.total >= e.bid.quantity:
            target = figures[call.target]
            target.counts["apuestas_aguantadas"] += 1
            if target.biggest is None or _bigger(e.bid, target.biggest):
                target.biggest = e.bid
        else:
            figures[call.player].counts["dudas_acertadas"] += 1
    elif call.call == "calzo" and e.total == e.bid.quantity:
        figures[call.player].counts["calzos_acertados"] += 1
    elif call.call == "mato" and e.total == e.bid.quantity:
        figures[call.player].counts["matos_acertados"] += 1


def _how(loser: str, call: ev.Called | None, castigo: bool) -> str:
    """Why ``loser`` lost the round: which side of which call, or a castigo."""
    if castigo or call is None:
        return "castigo"
    if call.doubted is not None:
        return call.doubted if loser == call.target else "duda"
    if call.call in ("dudo", "siciliana"):
        return "apuesta" if loser == call.target else "duda"
    return call.call  # calzo, mato


# ------------------------------------------------------------------ periods


@dataclass(frozen=True)
class Period:
    """Games started in [since, until) (either open), and for whom."""

    since: datetime | None = None
    until: datetime | None = None
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "desde": self.since.isoformat() if self.since else None,
            "hasta": self.until.isoformat() if self.until else None,
            **({"jugador": self.player} if self.player else {}),
        }

    def holds(self, game: GameFigures) -> bool:
        if game.started is None:
            return self.since is None and self.until is None
        started = game.started.astimezone()
        return (self.since is None or started >= self.since) and (self.until is None or started < self.until)


def evening(moment: datetime | None = None) -> Period:
    """The night ``moment`` belongs to: from 6 a.m. that day (the day before, before 6) to 6 a.m. the next."""
    now = (moment or datetime.now()).astimezone()
    start = now.replace(hour=EVENING_STARTS.hour, minute=EVENING_STARTS.minute, second=0, microsecond=0)
    if now < start:
        start -= timedelta(days=1)
    return Period(start, start + timedelta(days=1))


@dataclass
class Totals:
    """Figures summed over the games of a period."""

    games: int = 0
    players: dict[str, Figures] = field(default_factory=dict)
    """By player, in the order they first sat down."""
    finished: int = 0
    """Of ``games``, those that ended: a game still in play is neither won nor lost."""

    def to_json(self) -> dict[str, Any]:
        return {"partidas": self.games, "terminadas": self.finished, "jugadores": {p: f.to_json() for p, f in self.players.items()}}


def totals(games: Iterable[GameFigures], period: Period = Period()) -> Totals:
    result = Totals()
    for game in games:
        if not period.holds(game) or not any(f["partidas"] for f in game.figures.values()):
            continue
        if period.player is not None and period.player not in game.players:
            continue
        result.games += 1
        result.finished += game.finished
        for player, figures in game.figures.items():
            if period.player is None or player == period.player:
                result.players.setdefault(player, Figures()).add(figures)
    return result
