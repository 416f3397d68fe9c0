"""The Dudo game as a state machine: one gate for legality, one way to change.

``Game.apply(action)`` checks the action with the same predicates as
``Game.is_legal`` and ``Game.legal_actions``; an illegal action raises a
``RulesError`` whose ``reason`` is a Spanish sentence to say aloud, and the
state is left exactly as it was. Every accepted action is kept in
``history``: replaying it rebuilds the game, and undo is a replay without
the last one.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from assistant.rules import names
from assistant.rules.actions import (
    Action,
    Call,
    Count,
    Hands,
    Oblige,
    Penalty,
    Raise,
    ShownHand,
    Start,
    Verdict,
)
from assistant.rules.bid import AS, HIDDEN, Bid
from assistant.rules.errors import IllegalAction, MalformedBid, RulesError
from assistant.rules.hands import HAND_SIZE, count_face, valid_pass
from assistant.rules.ruleset import RuleSet

Event = dict[str, Any]
Phase = Literal["inicio", "apuestas", "cuenta", "juicio", "fin"]
Mode = Literal["normal", "obligo", "uno_contra_uno"]
LEFT, RIGHT = 1, -1
DIRECTION_NAMES = {LEFT: "izquierda", RIGHT: "derecha"}


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

    call: str
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


class Game:
    """A game of Dudo under one rule set, players given in seat order
    (the order play goes *por la izquierda*)."""

    def __init__(self, rules: RuleSet, players: Iterable[str]) -> None:
        seats = [p.strip() for p in players]
        if len(seats) < 2:
            raise IllegalAction("Se necesitan al menos dos jugadores.")
        if any(not p for p in seats):
            raise IllegalAction("Hay un jugador sin nombre.")
        lowered = [p.lower() for p in seats]
        if len(set(lowered)) != len(lowered):
            dup = next(p for p in seats if lowered.count(p.lower()) > 1)
            raise IllegalAction(f"Hay dos jugadores que se llaman {dup}.")
        if rules.winners >= len(seats):
            raise IllegalAction("Tiene que haber más jugadores que ganadores.")
        self.rules = rules
        self.players: tuple[str, ...] = tuple(seats)
        self.seats: dict[str, Seat] = {p: Seat(p, rules.dice_per_player) for p in seats}
        self.initial_dice = rules.dice_per_player * len(seats)
        self.history: list[Action] = []
        self.round_number = 1
        self.direction = LEFT
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

    def say(self, bid: Bid) -> str:
        """A bid in words, with this rule set's face names."""
        return names.quantity(bid.quantity, bid.face, self.rules.two_is_milla)

    def wild_now(self) -> bool:
        """Do aces count for the bid face in the pending count?"""
        if not self.rules.aces_wild or self.obligo is not None:
            return False
        pending = self.r.pending
        return not (pending and pending.call == "siciliana" and not self.rules.siciliana_wild)

    def millas_bonus(self, bid: Bid) -> int:
        return int(self.rules.millas and bid.face == 2 and self.obligo is None)

    def max_quantity(self, face: int) -> int:
        """The greatest quantity a bid may name: every die on the table, plus the millas bonus."""
        return self.dice_in_play + int(self.rules.millas and face == 2 and self.obligo is None)

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
        events = self._do(action)
        self.history.append(action)
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
            for q in range(1, self.max_quantity(face) + 1):
                yield Raise(actor, Bid(q, face))
        for call in ("dudo", "calzo", "mato", "siciliana", "paso", "picado"):
            yield Call(actor, call)  # type: ignore[arg-type]
        yield Oblige(actor, False)
        yield Oblige(actor, True)

    # ------------------------------------------------------------------ checks

    def _check(self, action: Action) -> None:
        if self.phase == "fin":
            raise IllegalAction(f"La partida ya terminó: ganó {names.join_and(self.winners)}.")
        if isinstance(action, Penalty):
            return self._check_penalty(action)
        if isinstance(action, Start):
            return self._check_start(action)
        if self.phase == "inicio":
            raise IllegalAction("Primero hay que decir quién parte, por ejemplo: «parte ana por la izquierda».")
        if isinstance(action, (Count, Hands)):
            return self._check_reveal(action)
        if isinstance(action, (Verdict, ShownHand)):
            return self._check_judgement(action)
        self._check_actor(action.player)
        if isinstance(action, Raise):
            return self._check_raise(action.player, action.bid)
        if isinstance(action, Oblige):
            return self._check_oblige(action)
        return self._check_call(action)

    def _check_player(self, name: str | None) -> None:
        if name is None or name not in self.seats:
            raise IllegalAction(f"{name} no está jugando.")
        if self.seats[name].out:
            raise IllegalAction(f"{name} ya quedó fuera.")

    def _check_actor(self, name: str) -> None:
        self._check_player(name)
        pending = self.r.pending
        if pending is not None:
            if self.phase == "juicio":
                raise IllegalAction(f"Primero hay que ver si el {pending.call} de {pending.target} valía.")
            article = "las" if names.face_words(pending.bid.face, self.rules.two_is_milla)[2] else "los"
            raise IllegalAction(f"Primero hay que contar {article} {self.say(pending.bid)}.")
        if name != self.turn:
            raise IllegalAction(f"Le toca a {self.turn}, no a {name}.")

    def _check_penalty(self, action: Penalty) -> None:
        if not self.rules.castigo:
            raise IllegalAction("En estas reglas no hay castigo por error.")
        self._check_player(action.player)

    def _check_start(self, action: Start) -> None:
        if self.phase not in ("inicio", "apuestas") or self.r.bid is not None or self.r.passed:
            raise IllegalAction("La ronda ya partió; el sentido se elige antes de la primera apuesta.")
        if action.direction not in (None, "izquierda", "derecha"):
            raise IllegalAction("El sentido es por la derecha o por la izquierda.")
        if action.player is None:
            if self.phase == "inicio":
                raise IllegalAction("¿Quién parte? Digan, por ejemplo: «parte ana».")
            return
        self._check_player(action.player)
        if action.player != self.starter and not self.starter_from_table:
            raise IllegalAction(f"Esta ronda la parte {self.starter}.")

    def _check_raise(self, player: str, bid: Bid) -> None:
        if bid.quantity < 1:
            raise MalformedBid("Una apuesta es de al menos un dado.")
        if bid.face not in (HIDDEN, 1, 2, 3, 4, 5, 6):
            raise MalformedBid("Las pintas van del as a la sena.")
        top = self.max_quantity(bid.face)
        if bid.quantity > top:
            raise IllegalAction(
                f"En la mesa hay {names.number(self.dice_in_play)} dados: no se puede apostar {self.say(bid)}."
            )
        if bid.face == HIDDEN:
            self._check_hidden(player)
        if self.obligo is not None:
            return self._check_obligo_raise(player, bid)
        prev = self.r.bid
        if prev is None:
            return self._check_opening(player, bid)
        if bid.face == AS and bid.quantity <= self.r.falsa:
            raise IllegalAction(
                f"Los {names.quantity(self.r.falsa, AS)} quedaron anulados por la partida falsa: "
                f"hay que decir {names.quantity(self.r.falsa + 1, AS)} o más."
            )
        if self.r.falsa_free:
            return
        if not self._follows(prev, bid):
            raise IllegalAction(self._raise_hint(prev))

    def _check_hidden(self, player: str) -> None:
        ob = self.obligo
        if ob is None or not ob.closed:
            raise IllegalAction("«De éstas» solo vale en un obligo cerrado.")
        prev = self.r.bid
        if player != ob.obligador and (prev is None or prev.face != HIDDEN):
            raise IllegalAction(f"«De éstas» son las del obligador, {ob.obligador}: no se puede cambiar a ellas.")

    def _check_opening(self, player: str, bid: Bid) -> None:
        if bid.face == AS and self.rules.aces_wild:
            if self.rules.opening_aces == "un_dado" and self.seats[player].dice != 1:
                raise IllegalAction("No se puede partir con ases, salvo teniendo un solo dado.")
        if self.obligo_offer == player and bid.face == HIDDEN:
            raise IllegalAction("«De éstas» solo vale en un obligo cerrado.")

    def _rank(self, face: int) -> int:
        """Face order for ordinary raises; aces rank 7 in caleuchano's obligado."""
        if face == AS and self.obligo is not None and self.rules.obligo_aces_rank_seven:
            return 7
        return face

    def _follows(self, prev: Bid, new: Bid) -> bool:
        """May ``new`` follow ``prev`` in a normal round?"""
        if not self.rules.aces_wild:
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

    def _raise_hint(self, prev: Bid) -> str:
        """"Después de cinco quinas hay que subir: seis de cualquier pinta, cinco senas o tres ases."""
        say = self.say
        options: list[str] = []
        if prev.face == AS:
            if prev.quantity + 1 <= self.max_quantity(AS):
                options.append(say(Bid(prev.quantity + 1, AS)))
            if 2 * prev.quantity + 1 <= self.dice_in_play:
                options.append(f"{names.number(2 * prev.quantity + 1, True)} de cualquier otra pinta")
        else:
            if prev.quantity + 1 <= self.dice_in_play:
                options.append(f"{names.number(prev.quantity + 1, True)} de cualquier pinta")
            if prev.face < 6:
                options.append(say(Bid(prev.quantity, prev.face + 1)))
            if self.rules.aces_wild and self.min_aces(prev.quantity) <= self.dice_in_play:
                options.append(say(Bid(self.min_aces(prev.quantity), AS)))
        if not options:
            return f"Después de {say(prev)} ya no se puede subir: queda dudar."
        return f"Después de {say(prev)} hay que subir: {names.join_or(options)}."

    def _check_obligo_raise(self, player: str, bid: Bid) -> None:
        ob = self.obligo
        assert ob is not None
        prev = self.r.bid
        if prev is None:
            return
        if bid.face == prev.face:
            if bid.quantity <= prev.quantity:
                raise IllegalAction(
                    f"En el obligo se sube la cantidad: después de {self.say(prev)} va {self.say(Bid(prev.quantity + 1, prev.face))}."
                )
            return
        if not self._may_change_face(player):
            raise IllegalAction(
                f"En el obligo no se cambia la pinta: hay que subir a {self.say(Bid(prev.quantity + 1, prev.face))} o dudar."
            )
        if self.rules.obligo_change_more_quantity:
            if bid.quantity <= prev.quantity:
                raise IllegalAction(
                    f"Para cambiar la pinta en el obligo hay que subir la cantidad: {names.number(prev.quantity + 1, True)} o más."
                )
            return
        if not (bid.quantity > prev.quantity or (bid.quantity == prev.quantity and self._rank(bid.face) > self._rank(prev.face))):
            raise IllegalAction(
                f"Después de {self.say(prev)} hay que subir: más dados, o una pinta mayor con la misma cantidad."
            )

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
            raise IllegalAction("En estas reglas no hay obligo.")
        if len(self.active) == 2 and not rules.duel_obligo:
            raise IllegalAction("Mano a mano no hay obligo.")
        if self.r.bid is not None:
            raise IllegalAction("El obligo se declara antes de partir.")
        if action.closed and not rules.obligo_cerrado:
            raise IllegalAction("En estas reglas el obligo es abierto.")
        if self.obligo is not None and self.obligo.obligador == action.player:
            return
        if self.obligo_offer == action.player:
            return
        if action.player in self.obligo_used:
            raise IllegalAction(f"{action.player} ya usó su obligo.")
        if rules.obligo_trigger == "un_dado":
            raise IllegalAction("Se obliga al quedar con un solo dado, y en la ronda que uno parte.")
        raise IllegalAction(
            f"Obliga el que recibe el palo número {names.number(rules.loss_limit - 1, False, False)}, en la ronda siguiente."
        )

    def _check_call(self, action: Call) -> None:
        rules, r, call, player = self.rules, self.r, action.call, action.player
        duel = len(self.active) == 2
        standing = r.pass_standing or r.picado_standing
        if r.bid is None:
            raise IllegalAction(
                f"Todavía no hay apuesta: {self.turn} tiene que partir."
                if call != "dudo"
                else "Todavía no hay apuesta que dudar."
            )
        if call == "dudo":
            return
        if call == "calzo":
            if not rules.calzo:
                raise IllegalAction("En estas reglas no se calza.")
            if duel and not rules.duel_calzo:
                raise IllegalAction("Mano a mano no se calza.")
            if self.obligo is not None and not rules.obligo_calzo:
                raise IllegalAction("En el obligo no se calza.")
            if standing:
                raise IllegalAction("Una apuesta pasada no se puede calzar.")
            need = math.ceil(rules.calzo_min_fraction * self.initial_dice)
            if rules.scoring == "dados" and self.dice_in_play < need:
                raise IllegalAction(
                    f"Ya no se puede calzar: quedan {names.number(self.dice_in_play)} dados y hace falta la mitad, {names.number(need)}."
                )
            if rules.calzo_max_dice_forbidden and self.seats[player].dice >= rules.dice_per_player:
                raise IllegalAction("Con todos tus dados no se calza.")
            return
        if call == "mato":
            if not rules.mato:
                raise IllegalAction("En estas reglas no se mata.")
            if standing:
                raise IllegalAction("Después de un paso se duda el paso o se sube; no se mata.")
            return
        if call == "siciliana":
            if not rules.siciliana:
                raise IllegalAction("En estas reglas no se duda a la siciliana.")
            if self.obligo is not None:
                raise IllegalAction("En el obligo no hay siciliana.")
            if r.bids != 1 or standing or r.bidder is None or r.bidder != self.starter:
                raise IllegalAction("A la siciliana solo se duda la partida, y la duda el que sigue al que partió.")
            if rules.scoring == "dados" and 1 in (self.seats[player].dice, self.seats[r.bidder].dice):
                raise IllegalAction("No se duda a la siciliana cuando alguno de los dos tiene un solo dado.")
            return
        if call == "paso":
            if not rules.paso:
                raise IllegalAction("En estas reglas no se pasa.")
            if duel and not rules.duel_paso:
                raise IllegalAction("Mano a mano no se pasa.")
            if self.obligo is not None and not rules.obligo_paso:
                raise IllegalAction("En el obligo no se pasa.")
            if rules.paso_once_per_round and player in r.passed:
                raise IllegalAction(f"{player} ya pasó en esta ronda: hay que subir o dudar.")
            if r.pass_standing and not rules.paso_after_paso:
                raise IllegalAction("No se puede pasar un paso: hay que dudar el paso o subir.")
            if r.picado_standing:
                raise IllegalAction("Después de un picado se duda el picado o se sube.")
            if self.seats[player].dice < rules.paso_min_dice:
                raise IllegalAction(f"Para pasar hay que tener los {names.number(rules.paso_min_dice)} dados.")
            return
        # picado
        if not rules.picado:
            raise IllegalAction("En estas reglas no hay picado.")
        if r.picado_used:
            raise IllegalAction("Ya hubo un picado en esta ronda.")
        if standing:
            raise IllegalAction("Primero hay que responder al paso: dudarlo o subir.")

    def _check_reveal(self, action: Count | Hands) -> None:
        pending = self.r.pending
        if self.phase != "cuenta" or pending is None:
            raise IllegalAction("No hay nada que contar ahora.")
        if isinstance(action, Count):
            if not 0 <= action.total <= self.dice_in_play:
                raise IllegalAction(
                    f"No puede haber {names.number(action.total, True)}: en la mesa hay {names.number(self.dice_in_play)} dados."
                )
            return
        given = dict(action.hands)
        for name in given:
            self._check_player(name)
        for name in self.active:
            if name not in given:
                raise IllegalAction(f"Falta la mano de {name}.")
            self._check_faces(name, given[name])
        if pending.bid.face == HIDDEN:
            ob = self.obligo
            assert ob is not None
            if len(set(given[ob.obligador])) != 1:
                raise IllegalAction("Con «de éstas» díganme el total: no sé cuál es la pinta del obligador.")

    def _check_faces(self, name: str, faces: tuple[int, ...]) -> None:
        have = self.seats[name].dice
        if len(faces) != have:
            raise IllegalAction(f"{name} tiene {names.number(have)} dados, no {names.number(len(faces))}.")
        if any(f not in range(1, 7) for f in faces):
            raise IllegalAction("Las caras de un dado van del uno al seis.")

    def _check_judgement(self, action: Verdict | ShownHand) -> None:
        pending = self.r.pending
        if self.phase != "juicio" or pending is None:
            raise IllegalAction("No hay ningún paso ni picado dudado ahora.")
        if isinstance(action, ShownHand):
            self._check_faces(pending.target, action.faces)

    # ------------------------------------------------------------------ changes

    def _do(self, action: Action) -> list[Event]:
        if isinstance(action, Penalty):
            events: list[Event] = [{"tipo": "castigo", "jugador": action.player}]
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
        return self._resolve_judgement(action)

    def _do_start(self, action: Start) -> list[Event]:
        if action.player is not None:
            self.starter = self.turn = action.player
            self.phase = "apuestas"
            self._offer_obligo(action.player)
        if action.direction is not None:
            self.direction = LEFT if action.direction == "izquierda" else RIGHT
        return [{"tipo": "parte", "jugador": self.starter, "sentido": DIRECTION_NAMES[self.direction]}]

    def _do_raise(self, action: Raise) -> list[Event]:
        r, bid = self.r, action.bid
        events: list[Event] = []
        if r.bid is None:
            if self.obligo_offer == action.player:
                # clasico: the first time with one die you may obligar; opening normally declines it
                self.obligo_used.add(action.player)
                self.obligo_offer = None
                events.append({"tipo": "obligo_renuncia", "jugador": action.player})
            if bid.face == AS and self.obligo is None and self.rules.aces_wild and self.rules.opening_aces == "falsa":
                r.falsa, r.falsa_free = bid.quantity, True
                events.append({"tipo": "partida_falsa", "jugador": action.player, "cantidad": bid.quantity})
            elif self.obligo is not None:
                self.obligo.declared = True
        elif r.falsa_free:
            r.falsa_free = False
        r.bid, r.bidder = bid, action.player
        r.bids += 1
        r.pass_standing = r.picado_standing = None
        self.turn = self.next_player(action.player)
        return [{"tipo": "apuesta", "jugador": action.player, **bid.to_json()}, *events]

    def _do_oblige(self, action: Oblige) -> list[Event]:
        if self.obligo is None or self.obligo.obligador != action.player:
            self.obligo = Obligo(action.player)
            self.obligo_used.add(action.player)
            self.obligo_offer = None
        self.obligo.closed = action.closed
        self.obligo.declared = True
        return [{"tipo": "obligo", "jugador": action.player, "cerrado": action.closed}]

    def _do_call(self, action: Call) -> list[Event]:
        r, player = self.r, action.player
        assert r.bid is not None and r.bidder is not None
        event: Event = {"tipo": action.call, "jugador": player}
        if action.call == "paso":
            r.passed.add(player)
            r.pass_standing = player
            self.turn = self.next_player(player)
            return [event]
        if action.call == "picado":
            r.picado_used = True
            r.picado_standing = player
            self.direction = -self.direction
            self.turn = self.next_player(player)
            return [{**event, "sentido": DIRECTION_NAMES[self.direction]}]
        if action.call == "dudo" and (r.pass_standing or r.picado_standing):
            kind = "paso" if r.pass_standing else "picado"
            target = r.pass_standing or r.picado_standing
            assert target is not None
            r.pending = Pending(kind, player, target, r.bid)
            self.phase = "juicio"
            events = [{**event, "contra": target, "duda": kind}]
            if kind == "paso" and self.seats[target].dice < HAND_SIZE:
                # every pass hand takes five dice: passing with fewer is a bluff
                # that loses as soon as it is doubted (yocacho)
                return events + self._judge(False, short_hand=True)
            return events
        r.pending = Pending(action.call, player, r.bidder, r.bid)
        self.phase = "cuenta"
        return [{**event, "contra": r.bidder, **r.bid.to_json()}]

    def _resolve_count(self, action: Count | Hands) -> list[Event]:
        pending = self.r.pending
        assert pending is not None
        bid = pending.bid
        if isinstance(action, Count):
            seen = action.total
        else:
            hands = dict(action.hands)
            face = bid.face
            if face == HIDDEN:
                assert self.obligo is not None
                face = hands[self.obligo.obligador][0]
            seen = count_face((d for faces in hands.values() for d in faces), face, self.wild_now())
        bonus = self.millas_bonus(bid)
        total = seen + bonus
        events: list[Event] = [
            {"tipo": "cuenta", "llamada": pending.call, "vistos": seen, "bono": bonus, "total": total, **bid.to_json()}
        ]
        caller, target = pending.caller, pending.target
        key: str
        if pending.call in ("dudo", "siciliana"):
            key = caller if total >= bid.quantity else target
            cost = self.rules.siciliana_cost if pending.call == "siciliana" else 1
            events += self._lose(key, cost)
        elif pending.call == "calzo":
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
        loser = pending.caller if valid else pending.target
        event: Event = {"tipo": "juicio", "llamada": pending.call, "jugador": pending.target, "valido": valid}
        if short_hand:
            event["sin_cinco_dados"] = True
        return [event] + self._lose(loser, 1) + self._end_round(loser)

    def _lose(self, name: str, n: int) -> list[Event]:
        seat = self.seats[name]
        from_bank = 0
        if self.rules.scoring == "dados":
            from_bank = min(seat.banked, n)
            seat.banked -= from_bank
            seat.dice = max(0, seat.dice - (n - from_bank))
            seat.out = seat.dice == 0
        else:
            seat.palos = min(self.rules.loss_limit, seat.palos + n)
            seat.out = seat.palos >= self.rules.loss_limit
        event = {"tipo": "pierde", "jugador": name, "cantidad": n, "dados": seat.dice, "palos": seat.palos, "a_favor": seat.banked}
        if from_bank:  # only scoring by dice banks dice
            event["usa_a_favor"] = from_bank
        events: list[Event] = [event]
        if seat.out:
            self.eliminated.append(name)
            events.append({"tipo": "eliminado", "jugador": name})
        return events

    def _gain(self, name: str) -> list[Event]:
        """An exact calzo: a die back, a die banked (clasico), or nothing at the cap (yocacho)."""
        seat = self.seats[name]
        before = (seat.dice, seat.palos, seat.banked)
        if self.rules.scoring != "dados":
            seat.palos = max(0, seat.palos - 1)
        elif seat.dice < self.rules.dice_per_player:
            seat.dice += 1
        elif self.rules.calzo_bank:
            seat.banked = 1
        changed = before != (seat.dice, seat.palos, seat.banked)
        return [{"tipo": "gana", "jugador": name, "dados": seat.dice, "palos": seat.palos, "a_favor": seat.banked, "cambia": changed}]

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
            return [{"tipo": "fin", "ganadores": list(active)}]
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
        event: Event = {
            "tipo": "ronda",
            "numero": self.round_number,
            "parte": starter,
            "sentido": DIRECTION_NAMES[self.direction],
            "modo": self.mode,
        }
        if self.obligo is not None:
            event["obligador"] = self.obligo.obligador
        elif self.obligo_offer is not None:
            event["puede_obligar"] = self.obligo_offer
        return [event]

    def _offer_obligo(self, starter: str) -> None:
        """Set up the obligo a starter at the trigger owes (or may call)."""
        rules = self.rules
        self.obligo = None
        self.obligo_offer = None
        if rules.obligo == "no" or starter in self.obligo_used or not self.at_trigger(starter):
            return
        if len(self.active) == 2 and not rules.duel_obligo:
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

    def undo(self) -> Action:
        """Take back the last accepted action; returns it."""
        if not self.history:
            raise IllegalAction("No hay nada que deshacer.")
        last = self.history[-1]
        rebuilt = Game.replay(self.rules, self.players, self.history[:-1])
        self.__dict__.update(rebuilt.__dict__)
        return last

    def copy(self) -> Game:
        return copy.deepcopy(self)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: equal snapshots mean equal games."""
        r = self.r
        return {
            "reglas": self.rules.name,
            "fase": self.phase,
            "ronda": self.round_number,
            "sentido": DIRECTION_NAMES[self.direction],
            "parte": self.starter,
            "turno": self.turn,
            "modo": self.mode,
            "jugadores": [
                {"nombre": s.name, "dados": s.dice, "palos": s.palos, "a_favor": s.banked, "eliminado": s.out}
                for s in self.seats.values()
            ],
            "apuesta": None if r.bid is None else {**r.bid.to_json(), "jugador": r.bidder},
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
        }
