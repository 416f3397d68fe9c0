"""The Dudo game as a state machine: one gate for legality, one way to change.

``Game.apply(action)`` checks the action with the same predicates as
``Game.is_legal`` and ``Game.legal_actions``; an illegal action raises a
``RulesError`` whose ``reason`` is a typed value (``refusals``), and the state
is left exactly as it was; an accepted one returns typed ``events``. Every accepted action is kept in
``history``: replaying it rebuilds the game, and undo is a replay without
the last one.
"""

from __future__ import annotations

import dataclasses
import math
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from assistant.rules import refusals as no
from assistant.rules.actions import (
    Action,
    Call,
    Count,
    Hands,
    Oblige,
    Penalty,
    Raise,
    Revive,
    ShownHand,
    Start,
    Verdict,
)
from assistant.rules.bid import AS, HIDDEN, Bid
from assistant.rules.errors import RulesError, refuse
from assistant.rules.events import (
    BidMade,
    Called,
    Counted,
    CountedCall,
    DieGained,
    DieLost,
    Direction,
    Eliminated,
    Event,
    FalsaOpened,
    GameOver,
    JudgedCall,
    Mode,
    ObligoDeclared,
    ObligoDeclined,
    PaloReturned,
    PaloTaken,
    Passed,
    PassJudged,
    Penalized,
    PicadoCalled,
    Revived,
    RoundStarted,
    StarterNamed,
)
from assistant.rules.hands import HAND_SIZE, count_face, valid_pass
from assistant.rules.ruleset import RuleSet

Phase = Literal["inicio", "apuestas", "cuenta", "juicio", "fin"]
LEFT, RIGHT = 1, -1
DIRECTION_NAMES: dict[int, Direction] = {LEFT: "izquierda", RIGHT: "derecha"}


@dataclass
class Seat:
    """One player's score. ``dice`` stays at the full count when scoring by palos."""

    name: str
    dice: int
    palos: int = 0
    banked: int = 0
    out: bool = False


@dataclass(frozen=True)
class Pending:
    """A call waiting for the table's report: a count, or a pass/picado verdict."""

    call: CountedCall | JudgedCall
    caller: str
    target: str
    bid: Bid


@dataclass
class Obligo:
    """The obligo (obligado) round under way."""

    obligador: str
    closed: bool = False
    declared: bool = False


@dataclass
class RoundState:
    """Everything that is reset when a round starts."""

    bid: Bid | None = None
    bidder: str | None = None
    bids: int = 0
    falsa: int = 0
    """Aces disabled by a partida falsa (0: none)."""
    falsa_free: bool = False
    """The bid after a partida falsa is free, as if opening."""
    passed: set[str] = field(default_factory=set)
    pass_standing: str | None = None
    """The last passer, whose pass the player to act may doubt."""
    picado_used: bool = False
    picado_standing: str | None = None
    pending: Pending | None = None


MAX_PLAYERS = 10
"""A table of ten is already loud; more would not fit the dice or the turns."""
MARKS = 2
"""Round starts remembered for undo (a "corrección" rarely reaches further back)."""


def name_key(name: str) -> str:
    """What is left of a name once accents, case and punctuation are dropped:
    two players with the same key could never be told apart by voice."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(c for c in plain.casefold() if c.isalnum())


class Game:
    """A game of Dudo under one rule set, players given in seat order
    (the order play goes *por la izquierda*)."""

    def __init__(self, rules: RuleSet, players: Iterable[str]) -> None:
        seats = [p.strip() for p in players]
        if len(seats) < 2:
            raise refuse(no.TooFewPlayers())
        if any(not p for p in seats):
            raise refuse(no.UnnamedPlayer())
        if len(seats) > MAX_PLAYERS:
            raise refuse(no.TooManyPlayers(len(seats), MAX_PLAYERS))
        heard: dict[str, str] = {}
        for name in seats:
            key = name_key(name)
            if key in heard:
                first = heard[key]
                raise refuse(no.DuplicatePlayer(name) if first == name else no.SameSoundingNames(first, name))
            heard[key] = name
        for name in seats:
            if not any(c.isalpha() for c in name) or any(not (c.isalpha() or c in " -'") for c in name):
                raise refuse(no.UnsayableName(name))
        if rules.winners >= len(seats):
            raise refuse(no.TooManyWinners(rules.winners, len(seats)))
        self.rules = rules
        self.players: tuple[str, ...] = tuple(seats)
        self.seats: dict[str, Seat] = {p: Seat(p, rules.dice_per_player) for p in seats}
        self.initial_dice = rules.dice_per_player * len(seats)
        self.history: list[Action] = []
        self.round_number = 1
        self.direction = LEFT if rules.default_direction == "izquierda" else RIGHT
        self.starter: str | None = None
        self.starter_from_table = True
        self.turn: str | None = None
        self.phase: Phase = "inicio"
        self.r = RoundState()
        self.obligo: Obligo | None = None
        self.obligo_offer: str | None = None
        self.obligo_used: set[str] = set()
        self.eliminated: list[str] = []
        self.winners: list[str] = []
        self.revived = False
        """Revivir is once per game."""
        self._marks: list[tuple[int, dict[str, Any]]] = []
        """(len(history), state) at the start of the last rounds: undo replays from there."""

    # ------------------------------------------------------------------ queries

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if not self.seats[p].out]

    @property
    def dice_in_play(self) -> int:
        return sum(self.seats[p].dice for p in self.active)

    @property
    def mode(self) -> Mode:
        if self.obligo is not None:
            return "obligo"
        return "uno_contra_uno" if len(self.active) == 2 else "normal"

    @property
    def bid(self) -> Bid | None:
        return self.r.bid

    @property
    def bidder(self) -> str | None:
        return self.r.bidder

    @property
    def pending(self) -> Pending | None:
        return self.r.pending

    @property
    def over(self) -> bool:
        return self.phase == "fin"

    def next_player(self, name: str, direction: int | None = None) -> str:
        """The next active player after ``name`` (who may be out) going ``direction``."""
        step = self.direction if direction is None else direction
        i = self.players.index(name)
        for k in range(1, len(self.players) + 1):
            candidate = self.players[(i + step * k) % len(self.players)]
            if not self.seats[candidate].out:
                return candidate
        return name

    def wild_now(self) -> bool:
        """Do aces count for the bid face in the pending count?"""
        if not self.rules.aces_wild or self.obligo is not None:
            return False
        pending = self.r.pending
        return not (pending and pending.call == "siciliana" and not self.rules.siciliana_wild)

    def millas_bonus(self, face: int) -> int:
        """Caleuchano's extra die for a bid on millas (none in the obligado)."""
        return int(self.rules.millas and face == 2 and self.obligo is None)

    def most_possible(self, face: int) -> int:
        """The greatest count a bid on ``face`` can reach: every die on the table, plus the millas bonus."""
        return self.dice_in_play + self.millas_bonus(face)

    def max_quantity(self, face: int) -> int:
        """The greatest quantity a bid may name. No rulebook caps a bid by the
        dice on the table (such a bid is legal and doomed); a house may
        (``bid_over_dice_refused``). Beyond twice the dice the game began with
        it is a slip, not a bid."""
        if self.rules.bid_over_dice_refused:
            return self.most_possible(face)
        return 2 * self.initial_dice + self.millas_bonus(face)

    def min_aces(self, n: int) -> int:
        """Fewest aces that may follow n of a common face."""
        need = math.ceil(n / 2) if self.rules.to_aces == "mitad_arriba" else n // 2 + 1
        if not self.rules.same_quantity_to_aces and need >= n:
            need = n + 1
        return max(need, self.r.falsa + 1)

    def at_trigger(self, name: str) -> bool:
        """Is ``name`` in the state that gives an obligo (one die / one palo from out)?"""
        seat = self.seats[name]
        if self.rules.obligo_trigger == "un_dado":
            return self.rules.scoring == "dados" and seat.dice == 1
        return self.rules.scoring != "dados" and seat.palos == self.rules.loss_limit - 1

    # ------------------------------------------------------------------ the gate

    def violation(self, action: Action) -> RulesError | None:
        """Why ``action`` is not allowed now, or None when it is."""
        try:
            self._check(action)
        except RulesError as err:
            return err
        return None

    def is_legal(self, action: Action) -> bool:
        return self.violation(action) is None

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events it caused."""
        self._check(action)
        round_before = self.round_number
        events = self._do(action)
        self.history.append(action)
        if self.round_number != round_before:
            self._mark()
        return events

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action now (a count or a hand is listed as totals only)."""
        for candidate in self._candidates():
            if self.is_legal(candidate):
                yield candidate

    def _candidates(self) -> Iterator[Action]:
        if self.phase == "fin":
            return
        for p in self.active:
            yield Penalty(p)
        if self.phase == "cuenta":
            for total in range(self.dice_in_play + 1):
                yield Count(total)
            return
        if self.phase == "juicio":
            yield Verdict(True)
            yield Verdict(False)
            return
        for p in self.active:
            for d in (None, "izquierda", "derecha"):
                yield Start(p, d)  # type: ignore[arg-type]
        if self.phase == "inicio" or self.turn is None:
            return
        actor = self.turn
        yield Start(None, "izquierda")
        yield Start(None, "derecha")
        for face in (HIDDEN, 1, 2, 3, 4, 5, 6):
            # bids are listed up to one above what the table holds (a doomed bid), not to the slip limit
            for q in range(1, min(self.max_quantity(face), self.most_possible(face) + 1) + 1):
                yield Raise(actor, Bid(q, face))
        for call in ("dudo", "calzo", "mato", "siciliana", "paso", "picado"):
            yield Call(actor, call)  # type: ignore[arg-type]
        yield Oblige(actor, False)
        yield Oblige(actor, True)
        yield Revive(None)
        yield Revive(actor)

    # ------------------------------------------------------------------ checks

    def _check(self, action: Action) -> None:
        if self.phase == "fin":
            raise refuse(no.GameIsOver(tuple(self.winners)))
        if isinstance(action, Penalty):
            return self._check_penalty(action)
        if isinstance(action, Start):
            return self._check_start(action)
        if self.phase == "inicio":
            raise refuse(no.NoStarterYet())
        if isinstance(action, (Count, Hands)):
            return self._check_reveal(action)
        if isinstance(action, (Verdict, ShownHand)):
            return self._check_judgement(action)
        if isinstance(action, Revive):
            return self._check_revive(action)
        self._check_actor(action.player)
        if isinstance(action, Raise):
            return self._check_raise(action.player, action.bid)
        if isinstance(action, Oblige):
            return self._check_oblige(action)
        return self._check_call(action)

    def _check_player(self, name: str | None) -> None:
        if name is None or name not in self.seats:
            raise refuse(no.NotPlaying(name))
        if self.seats[name].out:
            raise refuse(no.AlreadyOut(name))

    def _check_actor(self, name: str) -> None:
        self._check_player(name)
        pending = self.r.pending
        if pending is not None:
            if self.phase == "juicio":
                raise refuse(no.JudgementPending(pending.call, pending.target))
            raise refuse(no.CountPending(pending.bid))
        if name != self.turn:
            raise refuse(no.NotYourTurn(self.turn, name))

    def _check_penalty(self, action: Penalty) -> None:
        if not self.rules.castigo:
            raise refuse(no.NotInTheseRules("castigo"))
        self._check_player(action.player)

    def _check_start(self, action: Start) -> None:
        if self.phase not in ("inicio", "apuestas") or self.r.bid is not None or self.r.passed:
            raise refuse(no.RoundUnderWay())
        if action.direction not in (None, "izquierda", "derecha"):
            raise refuse(no.BadDirection())
        if action.player is None:
            if self.phase == "inicio":
                raise refuse(no.WhoStarts())
            return
        self._check_player(action.player)
        if action.player != self.starter and not self.starter_from_table:
            raise refuse(no.StarterImposed(str(self.starter), obligo=self.obligo is not None))

    def _check_raise(self, player: str, bid: Bid) -> None:
        if bid.quantity < 1:
            raise refuse(no.NoDice())
        if bid.face not in (HIDDEN, 1, 2, 3, 4, 5, 6):
            raise refuse(no.BadFace())
        if bid.quantity > self.max_quantity(bid.face):
            if self.rules.bid_over_dice_refused:
                raise refuse(no.OverDiceInPlay(self.dice_in_play, bid))
            raise refuse(no.AbsurdQuantity(bid.quantity, self.max_quantity(bid.face)))
        if bid.face == HIDDEN:
            self._check_hidden(player)
        if self.obligo is not None:
            return self._check_obligo_raise(player, bid)
        prev = self.r.bid
        if prev is None:
            return self._check_opening(player, bid)
        if bid.face == AS and bid.quantity <= self.r.falsa:
            raise refuse(no.FalsaAces(self.r.falsa))
        if self.r.falsa_free:
            return
        if not self._follows(prev, bid, self.rules.aces_wild):
            raise refuse(no.NotARaise(prev, self._raise_options(prev)))

    def _check_hidden(self, player: str) -> None:
        ob = self.obligo
        if ob is None or not ob.closed:
            raise refuse(no.HiddenOnlyClosed())
        prev = self.r.bid
        if player != ob.obligador and (prev is None or prev.face != HIDDEN):
            raise refuse(no.HiddenIsObligadors(ob.obligador))

    def _check_opening(self, player: str, bid: Bid) -> None:
        if bid.face == AS and self.rules.aces_wild and self.rules.opening_aces == "un_dado" and self.seats[player].dice != 1:
            raise refuse(no.NoOpeningAces())
        if self.obligo_offer == player and bid.face == HIDDEN:
            raise refuse(no.HiddenOnlyClosed())

    def _rank(self, face: int) -> int:
        """Face order for ordinary raises; aces rank 7 in caleuchano's obligado."""
        if face == AS and self.obligo is not None and self.rules.obligo_aces_rank_seven:
            return 7
        return face

    def _follows(self, prev: Bid, new: Bid, wild: bool) -> bool:
        """May ``new`` follow ``prev``? Without wild aces (the obligo, chimbo9's
        variants) only more dice, or a higher face with as many, will do."""
        if not wild:
            return new.quantity > prev.quantity or (
                new.quantity == prev.quantity and self._rank(new.face) > self._rank(prev.face)
            )
        if prev.face == AS and new.face == AS:
            return new.quantity > prev.quantity
        if prev.face == AS:
            return new.quantity >= 2 * prev.quantity + 1
        if new.face == AS:
            return new.quantity >= self.min_aces(prev.quantity)
        return new.quantity > prev.quantity or (new.quantity == prev.quantity and new.face > prev.face)

    def raise_options(self) -> tuple[Bid | no.AnyFace, ...]:
        """The smallest raises on the table now, in a normal round (none before
        the first bid, in an obligo, or after a falsa)."""
        prev = self.r.bid
        if prev is None or self.obligo is not None or self.r.falsa_free or self.phase != "apuestas":
            return ()
        return self._raise_options(prev)

    def _raise_options(self, prev: Bid) -> tuple[Bid | no.AnyFace, ...]:
        """The smallest raises after ``prev`` in a normal round, as a hint:
        after five quinas, six of any face, five senas or three aces."""
        options: list[Bid | no.AnyFace] = []
        if prev.face == AS:
            if prev.quantity + 1 <= self.max_quantity(AS):
                options.append(Bid(prev.quantity + 1, AS))
            if 2 * prev.quantity + 1 <= self.dice_in_play:
                options.append(no.AnyFace(2 * prev.quantity + 1, other=True))
        else:
            if prev.quantity + 1 <= self.dice_in_play:
                options.append(no.AnyFace(prev.quantity + 1))
            if prev.face < 6:
                options.append(Bid(prev.quantity, prev.face + 1))
            if self.rules.aces_wild and self.min_aces(prev.quantity) <= self.dice_in_play:
                options.append(Bid(self.min_aces(prev.quantity), AS))
        return tuple(options)

    def _check_obligo_raise(self, player: str, bid: Bid) -> None:
        prev = self.r.bid
        if prev is None:
            return
        up = Bid(prev.quantity + 1, prev.face)
        if bid.face == prev.face:
            if bid.quantity <= prev.quantity:
                raise refuse(no.ObligoRaiseQuantity(prev, up))
            return
        if not self._may_change_face(player):
            raise refuse(no.ObligoFaceFixed(up))
        if self.rules.obligo_change_more_quantity:
            if bid.quantity <= prev.quantity:
                raise refuse(no.ObligoChangeNeedsMore(prev.quantity + 1))
            return
        if not self._follows(prev, bid, wild=False):
            raise refuse(no.ObligoNotARaise(prev))

    def _may_change_face(self, player: str) -> bool:
        ob = self.obligo
        assert ob is not None
        who = self.rules.obligo_changers
        if who == "nadie":
            return False
        if player == ob.obligador:
            return who == "obligador_e_iguales"
        return self.at_trigger(player)

    def _check_oblige(self, action: Oblige) -> None:
        rules = self.rules
        if rules.obligo == "no":
            raise refuse(no.NotInTheseRules("obligo"))
        if len(self.active) == 2 and not rules.duel_obligo:
            raise refuse(no.NotInThisMode("uno_contra_uno", "obligo"))
        if self.r.bid is not None:
            raise refuse(no.ObligoAfterOpening())
        if action.closed and not rules.obligo_cerrado:
            raise refuse(no.NotInTheseRules("obligo_cerrado"))
        if self.obligo is not None and self.obligo.obligador == action.player:
            return
        if self.obligo_offer == action.player:
            return
        if action.player in self.obligo_used:
            raise refuse(no.ObligoUsed(action.player))
        raise refuse(no.ObligoNotNow(rules.obligo_trigger, rules.loss_limit - 1, rules.obligo_any_time))

    def _check_revive(self, action: Revive) -> None:
        rules, r = self.rules, self.r
        if not rules.revivir or rules.scoring == "dados":
            raise refuse(no.NotInTheseRules("revivir"))
        if self.revived:
            raise refuse(no.ReviveUsed())
        if self.phase != "apuestas" or r.bid is not None or r.passed or r.pending is not None:
            raise refuse(no.RoundUnderWay())
        if action.player is None:
            palos = {self.seats[p].palos for p in self.active}
            if len(palos) != 1 or palos == {0}:
                raise refuse(no.ReviveUnequal())
            return
        self._check_player(action.player)
        ob = self.obligo
        if ob is None or ob.obligador != action.player or ob.declared:
            raise refuse(no.ReviveNotObligado(None if ob is None else ob.obligador))
        other = next((p for p in self.active if p != action.player and self.at_trigger(p)), None)
        if other is not None:
            raise refuse(no.ReviveBlocked(other))

    # one named check per call; each raises the reason it is refused

    def _check_call(self, action: Call) -> None:
        if self.r.bid is None:
            raise refuse(no.NoBidYet(self.turn, action.call))
        {
            "dudo": lambda _player: None,
            "calzo": self._check_calzo,
            "mato": self._check_mato,
            "siciliana": self._check_siciliana,
            "paso": self._check_paso,
            "picado": self._check_picado,
        }[action.call](action.player)

    def _standing(self) -> bool:
        """Is a pass or a picado waiting to be answered?"""
        return bool(self.r.pass_standing or self.r.picado_standing)

    def _check_allowed(self, call: no.Feature, enabled: bool, in_duel: bool = True, in_obligo: bool = True) -> None:
        """The rule set has ``call``, and the round's mode allows it."""
        if not enabled:
            raise refuse(no.NotInTheseRules(call))
        if len(self.active) == 2 and not in_duel:
            raise refuse(no.NotInThisMode("uno_contra_uno", call))
        if self.obligo is not None and not in_obligo:
            raise refuse(no.NotInThisMode("obligo", call))

    def _check_calzo(self, player: str) -> None:
        rules = self.rules
        self._check_allowed("calzo", rules.calzo, rules.duel_calzo, rules.obligo_calzo)
        if self._standing():
            raise refuse(no.AfterPass("calzo"))
        need = math.ceil(rules.calzo_min_fraction * self.initial_dice)
        if rules.scoring == "dados" and self.dice_in_play < need:
            raise refuse(no.CalzoThreshold(self.dice_in_play, need))
        if rules.calzo_max_dice_forbidden and self.seats[player].dice >= rules.dice_per_player:
            raise refuse(no.CalzoFullDice())

    def _check_mato(self, _player: str) -> None:
        self._check_allowed("mato", self.rules.mato)
        if self._standing():
            raise refuse(no.AfterPass("mato"))

    def _check_siciliana(self, player: str) -> None:
        rules, r = self.rules, self.r
        self._check_allowed("siciliana", rules.siciliana, in_obligo=False)
        if r.bids != 1 or self._standing() or r.bidder is None or r.bidder != self.starter:
            raise refuse(no.SicilianaOnlyOpening())
        one_die = 1 in (self.seats[player].dice, self.seats[r.bidder].dice)
        if rules.scoring == "dados" and one_die and not rules.siciliana_with_one_die:
            raise refuse(no.SicilianaOneDie())

    def _doubt_is_siciliana(self, player: str) -> bool:
        """clasico: any doubt of the opening bid by the next player is the siciliana."""
        if not (self.rules.siciliana and self.rules.siciliana_any_doubt):
            return False
        try:
            self._check_siciliana(player)
        except RulesError:
            return False
        return True

    def _check_paso(self, player: str) -> None:
        rules, r = self.rules, self.r
        self._check_allowed("paso", rules.paso, rules.duel_paso, rules.obligo_paso)
        if rules.paso_once_per_round and player in r.passed:
            raise refuse(no.AlreadyPassed(player))
        if r.pass_standing and not rules.paso_after_paso:
            raise refuse(no.AfterPass("paso"))
        if r.picado_standing:
            raise refuse(no.AfterPass("paso", picado=True))
        if self.seats[player].dice < rules.paso_min_dice:
            raise refuse(no.PasoMinDice(rules.paso_min_dice))

    def _check_picado(self, _player: str) -> None:
        self._check_allowed("picado", self.rules.picado)
        if self.r.picado_used:
            raise refuse(no.PicadoUsed())
        if self.r.pass_standing:
            raise refuse(no.AfterPass("picado"))

    def _check_reveal(self, action: Count | Hands) -> None:
        pending = self.r.pending
        if self.phase != "cuenta" or pending is None:
            raise refuse(no.NothingToCount())
        if isinstance(action, Count):
            if not 0 <= action.total <= self.dice_in_play:
                raise refuse(no.CountTooBig(action.total, self.dice_in_play))
            return
        given = dict(action.hands)
        for name in given:
            self._check_player(name)
        for name in self.active:
            if name not in given:
                raise refuse(no.MissingHand(name))
            self._check_faces(name, given[name])
        if pending.bid.face == HIDDEN:
            ob = self.obligo
            assert ob is not None
            if len(set(given[ob.obligador])) != 1:
                raise refuse(no.HiddenNeedsTotal())

    def _check_faces(self, name: str, faces: tuple[int, ...]) -> None:
        have = self.seats[name].dice
        if len(faces) != have:
            raise refuse(no.HandSize(name, have, len(faces)))
        if any(f not in range(1, 7) for f in faces):
            raise refuse(no.FaceRange())

    def _check_judgement(self, action: Verdict | ShownHand) -> None:
        pending = self.r.pending
        if self.phase != "juicio" or pending is None:
            raise refuse(no.NothingToJudge())
        if isinstance(action, ShownHand):
            self._check_faces(pending.target, action.faces)

    # ------------------------------------------------------------------ changes

    def _do(self, action: Action) -> list[Event]:
        if isinstance(action, Penalty):
            events: list[Event] = [Penalized(action.player)]
            self.r.pending = None
            events += self._lose(action.player, 1)
            return events + self._end_round(action.player)
        if isinstance(action, Start):
            return self._do_start(action)
        if isinstance(action, Raise):
            return self._do_raise(action)
        if isinstance(action, Oblige):
            return self._do_oblige(action)
        if isinstance(action, Call):
            return self._do_call(action)
        if isinstance(action, (Count, Hands)):
            return self._resolve_count(action)
        if isinstance(action, Revive):
            return self._do_revive(action)
        return self._resolve_judgement(action)

    def _do_revive(self, action: Revive) -> list[Event]:
        players = self.active if action.player is None else [action.player]
        for p in players:
            self.seats[p].palos -= 1
        self.revived = True
        if self.obligo is not None and not self.obligo.declared:
            # nobody owes an obligado any more: the round is an ordinary one
            self.obligo_used.discard(self.obligo.obligador)
        assert self.starter is not None
        self._offer_obligo(self.starter)
        return [Revived(tuple(players), tuple(self.seats[p].palos for p in players))]

    def _do_start(self, action: Start) -> list[Event]:
        if action.player is not None and (self.phase == "inicio" or action.player != self.starter):
            # a new starter: what the rules owe him is worked out again. Naming the
            # same starter (with a direction, say) never undoes an imposed obligo.
            if self.obligo is not None and not self.obligo.declared:
                self.obligo_used.discard(self.obligo.obligador)  # owed to a starter who no longer starts
            self._offer_obligo(action.player)
        if action.player is not None:
            self.starter = self.turn = action.player
            self.phase = "apuestas"
        if action.direction is not None:
            self.direction = LEFT if action.direction == "izquierda" else RIGHT
        assert self.starter is not None
        obligador = None if self.obligo is None else self.obligo.obligador
        return [StarterNamed(self.starter, DIRECTION_NAMES[self.direction], obligador)]

    def _do_raise(self, action: Raise) -> list[Event]:
        r, bid = self.r, action.bid
        events: list[Event] = []
        if r.bid is None:
            if self.obligo_offer == action.player:
                self.obligo_offer = None
                if self.at_trigger(action.player):
                    # clasico: the first time with one die you may obligar; opening normally declines it
                    self.obligo_used.add(action.player)
                    events.append(ObligoDeclined(action.player))
                # an offer away from the trigger ("obligar en cualquier etapa") stays for a later round
            if bid.face == AS and self.obligo is None and self.rules.aces_wild and self.rules.opening_aces == "falsa":
                r.falsa, r.falsa_free = bid.quantity, True
                events.append(FalsaOpened(action.player, bid.quantity))
            elif self.obligo is not None:
                self.obligo.declared = True
        elif r.falsa_free:
            r.falsa_free = False
        r.bid, r.bidder = bid, action.player
        r.bids += 1
        r.pass_standing = r.picado_standing = None
        self.turn = self.next_player(action.player)
        return [BidMade(action.player, bid), *events]

    def _do_oblige(self, action: Oblige) -> list[Event]:
        if self.obligo is None or self.obligo.obligador != action.player:
            self.obligo = Obligo(action.player)
            self.obligo_used.add(action.player)
            self.obligo_offer = None
        self.obligo.closed = action.closed
        self.obligo.declared = True
        return [ObligoDeclared(action.player, action.closed)]

    def _do_call(self, action: Call) -> list[Event]:
        r, player = self.r, action.player
        assert r.bid is not None and r.bidder is not None
        if action.call == "paso":
            r.passed.add(player)
            r.pass_standing = player
            self.turn = self.next_player(player)
            return [Passed(player)]
        if action.call == "picado":
            r.picado_used = True
            r.picado_standing = player
            self.direction = -self.direction
            self.turn = self.next_player(player)
            return [PicadoCalled(player, DIRECTION_NAMES[self.direction])]
        if action.call == "dudo" and (r.pass_standing or r.picado_standing):
            kind: Literal["paso", "picado"] = "paso" if r.pass_standing else "picado"
            target = r.pass_standing or r.picado_standing
            assert target is not None
            r.pending = Pending(kind, player, target, r.bid)
            self.phase = "juicio"
            events: list[Event] = [Called(player, "dudo", target, r.bid, doubted=kind)]
            if kind == "paso" and self.seats[target].dice < HAND_SIZE:
                # every pass hand takes five dice: passing with fewer is a bluff
                # that loses as soon as it is doubted (yocacho)
                return events + self._judge(False, short_hand=True)
            return events
        call = "siciliana" if action.call == "dudo" and self._doubt_is_siciliana(player) else action.call
        r.pending = Pending(call, player, r.bidder, r.bid)
        self.phase = "cuenta"
        return [Called(player, call, r.bidder, r.bid)]

    def seen_in(self, hands: dict[str, tuple[int, ...]]) -> int | None:
        """How many dice of ``hands`` count for the bid being counted (aces wild
        where they are now); None while the face is hidden ("de éstas") and the
        obligador's die is not among them."""
        pending = self.r.pending
        assert pending is not None
        face = pending.bid.face
        if face == HIDDEN:
            assert self.obligo is not None
            die = hands.get(self.obligo.obligador)
            if not die:
                return None
            face = die[0]
        return count_face((d for faces in hands.values() for d in faces), face, self.wild_now())

    def _resolve_count(self, action: Count | Hands) -> list[Event]:
        pending = self.r.pending
        assert pending is not None
        bid = pending.bid
        if isinstance(action, Count):
            seen = action.total
        else:
            found = self.seen_in(dict(action.hands))
            assert found is not None  # every hand was checked to be there
            seen = found
        bonus = self.millas_bonus(bid.face)
        total = seen + bonus
        call = pending.call
        assert call != "paso" and call != "picado"
        events: list[Event] = [Counted(call, bid, seen, bonus, total)]
        caller, target = pending.caller, pending.target
        key: str
        if call in ("dudo", "siciliana"):
            key = caller if total >= bid.quantity else target
            cost = self.rules.siciliana_cost if call == "siciliana" else 1
            events += self._lose(key, cost)
        elif call == "calzo":
            key = caller
            events += self._gain(caller) if total == bid.quantity else self._lose(caller, 1)
        else:  # mato
            key = target if total == bid.quantity else caller
            events += self._lose(key, 1)
        return events + self._end_round(key)

    def _resolve_judgement(self, action: Verdict | ShownHand) -> list[Event]:
        pending = self.r.pending
        assert pending is not None
        if isinstance(action, Verdict):
            valid = action.valid
        elif pending.call == "paso":
            valid = valid_pass(action.faces, self.rules.paso_hands)
        else:
            valid = action.faces.count(AS) >= 2
        return self._judge(valid)

    def _judge(self, valid: bool, short_hand: bool = False) -> list[Event]:
        pending = self.r.pending
        assert pending is not None
        call = pending.call
        assert call == "paso" or call == "picado"
        loser = pending.caller if valid else pending.target
        event = PassJudged(call, pending.target, valid, short_hand)
        return [event, *self._lose(loser, 1), *self._end_round(loser)]

    def _lose(self, name: str, n: int) -> list[Event]:
        seat = self.seats[name]
        event: Event
        if self.rules.scoring == "dados":
            from_bank = min(seat.banked, n)
            seat.banked -= from_bank
            seat.dice = max(0, seat.dice - (n - from_bank))
            seat.out = seat.dice == 0
            event = DieLost(name, n, seat.dice, seat.banked, from_bank)
        else:
            seat.palos = min(self.rules.loss_limit, seat.palos + n)
            seat.out = seat.palos >= self.rules.loss_limit
            event = PaloTaken(name, n, seat.palos)
        if not seat.out:
            return [event]
        self.eliminated.append(name)
        return [event, Eliminated(name)]

    def _gain(self, name: str) -> list[Event]:
        """An exact calzo: a die back, a die banked (clasico), or nothing at the cap (yocacho)."""
        seat = self.seats[name]
        if self.rules.scoring != "dados":
            had = seat.palos
            seat.palos = max(0, seat.palos - 1)
            return [PaloReturned(name, seat.palos, seat.palos != had)]
        before = (seat.dice, seat.banked)
        if seat.dice < self.rules.dice_per_player:
            seat.dice += 1
        elif self.rules.calzo_bank:
            seat.banked = 1
        return [DieGained(name, seat.dice, seat.banked, before != (seat.dice, seat.banked))]

    def _end_round(self, key: str) -> list[Event]:
        """Close the round decided by ``key`` (who lost, gained or was punished)."""
        active = self.active
        self.r = RoundState()
        self.obligo = None
        self.obligo_offer = None
        if len(active) <= self.rules.winners:
            self.phase = "fin"
            self.turn = None
            self.winners = active
            return [GameOver(tuple(active), tuple(self.eliminated[: self.rules.payers]))]
        if self.seats[key].out:
            step = -self.direction if self.rules.starter_after_elimination == "anterior" else self.direction
            starter = self.next_player(key, step)
        else:
            starter = key
        self.round_number += 1
        self.starter = self.turn = starter
        self.starter_from_table = False
        self.phase = "apuestas"
        self._offer_obligo(starter)
        return [
            RoundStarted(
                self.round_number,
                starter,
                DIRECTION_NAMES[self.direction],
                self.mode,
                obligador=None if self.obligo is None else self.obligo.obligador,
                obligo_offer=self.obligo_offer,
            )
        ]

    def _offer_obligo(self, starter: str) -> None:
        """Set up the obligo a starter at the trigger owes (or may call)."""
        rules = self.rules
        self.obligo = None
        self.obligo_offer = None
        if rules.obligo == "no" or starter in self.obligo_used:
            return
        if len(self.active) == 2 and not rules.duel_obligo:
            return
        if not self.at_trigger(starter):
            if rules.obligo_any_time:
                self.obligo_offer = starter  # "obligar en cualquier etapa": his to call, once per game
            return
        if rules.obligo == "obligatorio":
            self.obligo = Obligo(starter)
            self.obligo_used.add(starter)
        else:
            self.obligo_offer = starter

    # ------------------------------------------------------------------ history

    @classmethod
    def replay(cls, rules: RuleSet, players: Iterable[str], actions: Iterable[Action]) -> Game:
        """Rebuild a game from its actions (raises if one no longer applies)."""
        game = cls(rules, players)
        for action in actions:
            game.apply(action)
        return game

    def retold(self) -> Iterator[tuple[Game, list[Event]]]:
        """The history replayed from the start: after each action, the replayed
        game as it then stood and the events the action caused."""
        replay = Game(self.rules, self.players)
        for action in self.history:
            yield replay, replay.apply(action)

    def undo(self) -> Action:
        """Take back the last accepted action; returns it. The game is rebuilt
        from the start of the round (a mark), or from the start of the game."""
        if not self.history:
            raise refuse(no.NothingToUndo())
        last = self.history[-1]
        keep = self.history[:-1]
        marks = [m for m in self._marks if m[0] <= len(keep)]
        if not marks:
            rebuilt = Game.replay(self.rules, self.players, keep)
            self.__dict__.update(rebuilt.__dict__)
            return last
        at, state = marks[-1]
        self.__dict__.update(state)
        self.__dict__.update(self._state())  # the mark stays as it was, for a later undo
        self.history = keep[:at]
        self._marks = marks
        for action in keep[at:]:
            self.apply(action)
        return last

    def _mark(self) -> None:
        """Remember the state at a round's start (the two latest are kept).
        Copied field by field: this runs once a round, also while a journal loads."""
        self._marks.append((len(self.history), self._state()))
        del self._marks[:-MARKS]

    def _state(self) -> dict[str, Any]:
        """Everything but the history, the marks and the (frozen) rules, as an
        independent copy; every mutable attribute is copied by hand."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("history", "_marks", "rules")}
        state["seats"] = {name: dataclasses.replace(seat) for name, seat in self.seats.items()}
        state["r"] = dataclasses.replace(self.r, passed=set(self.r.passed))
        state["obligo"] = None if self.obligo is None else dataclasses.replace(self.obligo)
        state["obligo_used"] = set(self.obligo_used)
        state["eliminated"] = list(self.eliminated)
        state["winners"] = list(self.winners)
        return state

    def copy(self) -> Game:
        """An independent game in the same state (for trying a move)."""
        twin = object.__new__(Game)
        twin.__dict__.update(self._state())
        twin.rules = self.rules
        twin.history = list(self.history)
        twin._marks = list(self._marks)  # marks are never changed in place
        return twin

    # The game's public picture: what a table can know of it, as plain data. One
    # picture for everything that shows a game: ``dudo simular --json`` and the
    # scoreboard's ``GET /estado`` give it as it is; the scoreboard's page, the
    # golden playthroughs and ``snapshot`` are drawn from its detailed form.
    def picture(self, detail: bool = False) -> dict[str, Any]:
        """The game as the table sees it, in the shape ``dudo simular --json`` promises:
        ``turno`` is whose bid it is (None once the cachos are lifted), ``ganador`` the
        winner when there is exactly one.

        ``detail`` adds what a screen or a trace also shows: ``fase``, ``sentido``,
        who ``parte``, the call being counted (``contando``), every winner
        (``ganadores``) and each seat's banked dice (``a_favor``)."""
        shown: dict[str, Any] = {
            "reglas": self.rules.name,
            "jugadores": [
                {"nombre": s.name, "dados": s.dice, "palos": s.palos, "eliminado": s.out, **({"a_favor": s.banked} if detail else {})}
                for s in self.seats.values()
            ],
            "turno": self.turn if self.phase == "apuestas" else None,
            "apuesta": None if self.bid is None else {**self.bid.to_json(), "jugador": self.bidder},
            "modo": self.mode,
            "ganador": self.winners[0] if len(self.winners) == 1 else None,
            "ronda": self.round_number,
        }
        if detail:
            pending = self.pending
            shown |= {
                "fase": self.phase,
                "sentido": DIRECTION_NAMES[self.direction],
                "parte": self.starter,
                "contando": None if pending is None else pending.call,
                "ganadores": list(self.winners),
            }
        return shown

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, for the engine's own checks: equal
        snapshots mean equal games. The detailed picture (``picture``) plus the
        round's bookkeeping a table never sees."""
        r = self.r
        return {
            **self.picture(detail=True),
            "turno_interno": self.turn,
            "apuestas_ronda": r.bids,
            "falsa": r.falsa,
            "falsa_libre": r.falsa_free,
            "pasaron": sorted(r.passed),
            "paso_pendiente": r.pass_standing,
            "picado": [r.picado_used, r.picado_standing],
            "pendiente": None if r.pending is None else [r.pending.call, r.pending.caller, r.pending.target],
            "obligo": None if self.obligo is None else [self.obligo.obligador, self.obligo.closed],
            "ofrece_obligo": self.obligo_offer,
            "obligos_usados": sorted(self.obligo_used),
            "eliminados": list(self.eliminated),
            "ganadores": list(self.winners),
            "desde_mesa": self.starter_from_table,
            "revivido": self.revived,
        }
