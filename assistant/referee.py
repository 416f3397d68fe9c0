"""The only place where a word becomes a move.

``Referee.handle`` takes a parsed ``Command`` and answers with a ``Reply``:
what to say, and whether the line was accepted (it changed the game or
answered a query). Bad input gets a Spanish reason and changes nothing.

Voice cannot tell who spoke, so calls and bids are made in the name of the
player whose turn it is; the engine refuses what that player may not do.

Every accepted step is published to the referee's observers (``changes.Observer``:
the journal, the scoreboard) with the state after it; an observer that fails
is logged and never stops the game. What the table asks beyond the game
(«otra», «terminamos») comes back as a typed ``Request`` for the evening.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from assistant import replies
from assistant.changes import Answered, Change, Collecting, Notice, Observer, Partial, PartialGiven, Played, Table, Undone
from assistant.rules import (
    HIDDEN,
    Action,
    Bid,
    Call,
    Count,
    Event,
    Game,
    Hands,
    Oblige,
    Penalty,
    Raise,
    Revive,
    RulesError,
    ShownHand,
    Start,
    Verdict,
)
from assistant.rules.events import Counted, Eliminated, GameOver, PassJudged, Penalized
from assistant.rules.figures import Totals
from assistant.speech.commands import (
    NIGHT_QUERIES,
    BidCommand,
    CallCommand,
    Command,
    CountCommand,
    HandCommand,
    ObligoCommand,
    PenaltyCommand,
    PlayerCountCommand,
    QueryCommand,
    RaiseCommand,
    ReviveCommand,
    SimpleCommand,
    StartCommand,
    Unknown,
)


def _bid(command: BidCommand) -> Bid:
    """The engine's bid for a parsed one ("de éstas" is the hidden face)."""
    return Bid(command.quantity, HIDDEN if command.face == "estas" else int(command.face))


@dataclass(frozen=True)
class NewGame:
    """«Otra»: a new game with the same rules for these players, in this order."""

    seats: tuple[str, ...]


@dataclass(frozen=True)
class EndNight:
    """«Terminamos»: the night is over (the game in play stays resumable)."""


Request = NewGame | EndNight
"""What the table asks of the evening, beyond the game: the evening (``night.Night``) does it."""


@dataclass(frozen=True)
class Reply:
    """What the referee answers to one utterance."""

    text: str
    accepted: bool
    events: tuple[Event, ...] = ()
    short: str = ""
    """A shorter way to say it, for ``--hablar poco`` ("": there is none)."""
    request: Request | None = None

    @property
    def game_over(self) -> bool:
        return any(isinstance(e, GameOver) for e in self.events)


log = logging.getLogger("dudo")


class Referee:
    def __init__(
        self, game: Game, observers: Iterable[Observer] = (), collecting: Collecting | None = None,
        night: Callable[[], Totals] | None = None,
    ) -> None:
        self.table = Table(game, collecting or Collecting())
        self.observers = list(observers)
        self.night = night or _tonight
        """The night's figures, for «¿quién va ganando la noche?» (the evening's; by default tonight's journals)."""
        self.awaiting: Callable[[], Reply] | None = None
        """A destructive step waiting for "sí"."""
        self.asked_move = False
        """The pending question asks about a half-heard move: anything but a yes drops it."""
        self.notices: list[Notice] = []
        """What observers said since the last reply (the journal cannot write, or can again)."""
        self.verdict: tuple[int, str] | None = None
        """The last verdict said, and the length of the game's history then: «repite» says it
        again until the next step (the table asks exactly when someone missed who lost)."""

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def collecting(self) -> Collecting:
        return self.table.collecting

    def publish(self, change: Change) -> None:
        """Tell every observer; one that fails is logged and the game goes on."""
        for observer in self.observers:
            try:
                notice = observer.observe(change, self.game)
            except Exception:
                log.exception("observer %r failed on %r", observer, change)
                continue
            if notice is not None:
                self.notices.append(notice)

    def answered(self, said: Answered) -> None:
        """Tell every observer what was heard and answered; one that fails is logged."""
        for observer in self.observers:
            try:
                observer.answered(said, self.game)
            except Exception:
                log.exception("observer %r failed on an utterance", observer)

    # ------------------------------------------------------------------ entry

    def accepts(self, command: Command) -> bool:
        """Would ``command`` be accepted now (a legal step, a query, a yes or no
        that answers something, an undo)? Tried on a copy of the table: the game
        does not change and no observer hears of it."""
        if isinstance(command, SimpleCommand) and command.action in ("si", "no") and self.awaiting is not None:
            return True
        if isinstance(command, QueryCommand):
            return True  # a question is always answered (the night's figures are not computed to know it)
        return self._trial().handle(command).accepted

    def _trial(self, observers: Iterable[Observer] = ()) -> Referee:
        """A referee on a copy of the table: what it does changes nothing here."""
        return Referee(self.game.copy(), observers, Collecting(list(self.collecting.groups)))

    def ask_about(self, command: Command) -> Reply:
        """A move half-heard ("ocho… [unk] cuadras"), asked back in a few words before it
        is played ("¿Ocho cuadras?"): a yes plays it, anything else (chatter too) drops
        the question. Only a move the game would take now is asked about; one it would
        refuse gets the refusal, as if it had been played."""
        seen: list[Change] = []

        class Watch(Observer):
            def observe(self, change: Change, game: Game) -> Notice | None:
                seen.append(change)
                return None

        answer = self._trial((Watch(),)).handle(command)
        if not answer.accepted or not seen:
            return answer
        actions = [a for change in seen if isinstance(change, Played) for a in change.actions]
        partials = [p for change in seen if isinstance(change, PartialGiven) for p in change.partials]
        if not actions and not partials:
            # a change that is no move (taking one back): the real table's own question, never the trial's
            # word that it was done ("¿Borro los tres trenes de ana? Sí o no.")
            return self._handle(command, False)
        reply = self._ask_first(replies.confirm_move(self.game, actions, partials), lambda: self._handle(command, True))
        self.asked_move = True
        return reply

    def expects(self, command: Command) -> bool:
        """Is ``command`` what the game waits for now, not merely something it would take?
        A bid or a call from the player to move while the bids go round; a count (a total,
        a player's dice, a hand) after a reveal; a yes or a no when a question is pending;
        who starts and which way before the first bid. What the moment expects may be read
        among words around it ("uff, eran como nueve"); outside it, the same words need more."""
        return expectation(command) in self.expecting()

    def expecting(self) -> frozenset[str]:
        """The kinds of answer the game waits for now (``expectation``)."""
        game = self.game
        if self.awaiting is not None or game.phase == "juicio":
            return frozenset({"si_no"} | ({"mano"} if game.phase == "juicio" else set()))
        if game.over:
            return frozenset({"fin"})  # "[unk] otra partida": another game, or the night's end
        if game.phase == "inicio":
            return frozenset({"parte", "jugada"})
        if game.phase == "cuenta":
            return frozenset({"cuenta", "mano"})
        return frozenset({"jugada"})

    def replaces(self, command: Command) -> bool:
        """Would ``command`` be accepted in place of the last step (undone first)? On a copy."""
        trial = self._trial()
        return trial.handle(SimpleCommand("deshacer")).accepted and trial.handle(command).accepted

    def opening(self) -> str:
        """What to say when the game starts (or resumes)."""
        if not self.game.history:
            return replies.greeting(self.game)
        return replies.resumed(self.game, self.collecting.flat())

    def handle(self, command: Command, certain: bool = True) -> Reply:
        reply = self._handle(command, certain)
        if self.notices:
            said = " ".join(replies.notice(n) for n in self.notices)
            self.notices = []
            reply = replace(reply, text=f"{reply.text} {said}".strip(), short=f"{reply.short} {said}".strip() if reply.short else "")
        return reply

    def _handle(self, command: Command, certain: bool) -> Reply:
        raised = self._bare_raise(command)
        if raised is not None:
            command = raised
        if isinstance(command, Unknown):  # chatter does not cancel a pending question, but a half-heard move's
            if self.asked_move:
                self.awaiting, self.asked_move = None, False
            return self._unknown(command)
        self.asked_move = False
        confirm, self.awaiting = self.awaiting, None
        if isinstance(command, SimpleCommand) and command.action in ("si", "no") and confirm is not None:
            return confirm() if command.action == "si" else Reply(replies.cancelled(), True)
        if isinstance(command, SimpleCommand) and command.action == "deshacer" and confirm is not None:
            return Reply(replies.cancelled(), True)  # "cancela", "borra eso" when asked: the question goes, nothing is undone
        if isinstance(command, QueryCommand):
            return self._query(command)
        if isinstance(command, SimpleCommand) and command.action == "deshacer":
            return self._undo(certain)
        if isinstance(command, SimpleCommand) and command.action == "otra":
            return self._another(command)
        if isinstance(command, SimpleCommand) and command.action in ("ayuda", "terminar"):
            return self._table(command.action)
        if self.game.over:
            return Reply(replies.game_over_already(self.game), False)
        return self._game_command(command, certain)

    # ------------------------------------------------------------------ commands

    def _game_command(self, command: Command, certain: bool) -> Reply:
        game = self.game
        phase = game.phase
        if isinstance(command, StartCommand):
            if phase == "inicio" and command.player is None:
                return Reply(replies.ask_starter(game), False)
            return self._apply([Start(command.player, command.direction)])
        if isinstance(command, PenaltyCommand):
            action = Penalty(command.player)
            if not certain:
                return self._ask_first(replies.confirm_penalty(command.player), lambda: self._apply([action]))
            return self._apply([action])
        if phase == "inicio":
            if isinstance(command, BidCommand) and command.player is not None:
                # "ana, tres trenes" before anyone said who starts: ana opens
                return self._apply([Start(command.player, command.direction), Raise(command.player, _bid(command))])
            return Reply(replies.who_starts_first(game), False)
        turn = game.turn or ""
        if isinstance(command, BidCommand):
            if phase == "cuenta":
                return self._bid_as_count(command, certain)
            actions: list[Action] = []
            if command.direction is not None and game.bid is None:
                actions.append(Start(None, command.direction))
            actions.append(Raise(command.player or turn, _bid(command)))
            return self._apply(actions)
        if isinstance(command, RaiseCommand):  # no bid standing to say it against
            return Reply(replies.no_bid_to_raise(game), False)
        if isinstance(command, CallCommand):
            if command.bid is not None and game.bid is not None and Bid(*command.bid) != game.bid:
                # "dudo cinco trenes" when four trenes stand: say which bid stands, do nothing
                return Reply(replies.not_the_standing_bid(game, Bid(*command.bid)), False)
            # a named caller is held to the turn ("Le toca a beto, no a carla")
            return self._apply([Call(command.player or turn, command.call)])
        if isinstance(command, ObligoCommand):
            return self._apply([Oblige(turn, command.mode == "cerrado")])
        if isinstance(command, ReviveCommand):
            return self._apply([Revive(None if command.everyone else (command.player or turn))])
        if isinstance(command, CountCommand):
            if phase == "cuenta":
                if not self._counts_the_face(command.face):
                    return Reply(replies.count_needs_bid_face(game), False)
                return self._count(Count(command.quantity), certain)
            if phase == "juicio":
                return Reply(replies.judgement_question(game), False)
            return Reply(replies.number_alone(command.quantity), False)
        if isinstance(command, PlayerCountCommand):
            if phase != "cuenta":
                return Reply(replies.only_during_count(), False)
            return self._player_counts(command, certain)
        if isinstance(command, HandCommand):
            return self._hand(command, certain)
        if isinstance(command, SimpleCommand):
            if phase == "juicio" and command.action in ("si", "no"):
                return self._apply([Verdict(command.action == "si")])
            return Reply(replies.nothing_to_confirm(), False)
        return Reply(replies.not_understood(), False)

    def _bid_as_count(self, command: BidCommand, certain: bool) -> Reply:
        """"Hay cuatro trenes" after a reveal is a count, if it names the face
        counted; "ana dos trenes" and "dos trenes, ana" are ana's count, not the table's."""
        if not self._counts_the_face(command.face):
            return Reply(replies.count_needs_bid_face(self.game), False)
        named = command.player or command.to
        if named is not None:
            return self._player_counts(PlayerCountCommand(named, command.quantity, face=command.face), certain)
        return self._count(Count(command.quantity), certain)

    def _counts_the_face(self, face: int | str | None) -> bool:
        """Is ``face`` (said with a count, or not said: None) the one being counted?"""
        pending = self.game.pending
        assert pending is not None
        if face is None or pending.bid.face == HIDDEN:
            return True
        return (HIDDEN if face == "estas" else face) == pending.bid.face

    def _count(self, action: Count | Hands, certain: bool) -> Reply:
        """Apply a count; an uncertain one that would put a player out asks first."""
        if not certain:
            trial = self.game.copy()
            try:
                events = trial.apply(action)
            except RulesError as err:
                return Reply(replies.illegal(self.game, err.reason), False, short=replies.illegal_short(self.game, err.reason))
            out = next((e.player for e in events if isinstance(e, Eliminated)), None)
            if out is not None:
                total = next(e.total for e in events if isinstance(e, Counted))
                return self._ask_first(replies.confirm_count(self.game, total, out), lambda: self._apply([action]))
        return self._apply([action])

    def _player_counts(self, command: PlayerCountCommand, certain: bool) -> Reply:
        game = self.game
        if not self._counts_the_face(command.face):
            return Reply(replies.count_needs_bid_face(game), False)
        for name, n in command.counts:
            if name not in game.active:
                return Reply(replies.unknown_player(name), False)
            if not 0 <= n <= game.seats[name].dice:
                return Reply(replies.count_too_big(name, game.seats[name].dice, n), False)
        pending = game.pending
        assert pending is not None
        if pending.bid.face == HIDDEN and isinstance(command.face, int) and not command.more and command.quantity == game.seats[command.player].dice:
            # "la carla tiene una quina" while «de éstas» is counted: all her dice, so her hand, and it tells the face
            return self._hand(HandCommand((command.face,) * command.quantity, command.player), certain)
        return self._collect(tuple(("cuenta", name, n) for name, n in command.counts), certain)

    def _hand(self, command: HandCommand, certain: bool) -> Reply:
        game = self.game
        if game.phase == "juicio":
            pending = game.pending
            assert pending is not None
            if command.player is not None and command.player != pending.target:
                return Reply(replies.wrong_hand(pending.target, command.player), False)
            return self._apply([ShownHand(command.faces)])
        if game.phase != "cuenta":
            return Reply(replies.only_during_count(), False)
        if command.kind is not None:
            return Reply(replies.need_the_dice(game), False)
        name = command.player or next((p for p in self._reveal_order() if p not in self.collecting.latest()), None)
        if name is None or name not in game.active:
            return Reply(replies.unknown_player(name), False)
        have = game.seats[name].dice
        if len(command.faces) != have:
            return Reply(replies.hand_size_mismatch(name, have, len(command.faces)), False)
        return self._collect((("mano", name, list(command.faces)),), certain)

    def _collect(self, said: tuple[Partial, ...], certain: bool) -> Reply:
        """Counts or hands said of players after a reveal: how the count stands, or,
        once every player has one or the other, the count itself (the one step kept).
        A table may mix them ("ana dos", "beto tren tren quina"): the hands are counted as the rules count."""
        game = self.game
        given = self.collecting.with_group(said).latest()
        counts = [v for v in given.values() if isinstance(v, int)]
        hands = {name: v for name, v in given.items() if not isinstance(v, int)}
        missing = [p for p in self._reveal_order() if p not in given]
        seen = game.seen_in(hands) if hands else 0
        if not missing and not counts:
            return self._count(Hands.of(hands), certain)
        if not missing and seen is not None:
            return self._count(Count(sum(counts) + seen), certain)
        self._give(said)
        if missing and counts and seen is not None:
            return Reply(replies.count_progress(game, sum(counts) + seen, missing), True, short=replies.hand_progress(missing))
        if missing:
            return Reply(replies.hand_progress(missing), True)
        obligo = game.obligo
        assert obligo is not None  # only a hidden face is not known once everyone has spoken
        return Reply(replies.hidden_die_needed(obligo.obligador), True)

    def _give(self, said: tuple[Partial, ...]) -> None:
        change = PartialGiven(said)
        self.table.advance(change)
        self.publish(change)

    def _reveal_order(self) -> list[str]:
        """Players in the order they lift their cachos: from the starter, in the round's direction."""
        game = self.game
        first = game.starter if game.starter in game.active else game.active[0]
        assert first is not None
        order = [first]
        while len(order) < len(game.active):
            order.append(game.next_player(order[-1]))
        return order

    # ------------------------------------------------------------------ applying

    def _apply(self, actions: list[Action]) -> Reply:
        """Apply actions together, or none of them. ``Game.apply`` is atomic for
        one action; only a pair ("tres trenes por la derecha") is tried on a copy."""
        game = self.game
        try:
            if len(actions) > 1:
                trial = game.copy()
                for action in actions:
                    trial.apply(action)
            caused = self.table.play(tuple(actions))
        except RulesError as err:
            return Reply(replies.illegal(game, err.reason), False, short=replies.illegal_short(game, err.reason))
        events = tuple(e for some in caused for e in some)
        self.publish(Played(tuple(actions), events))
        text = replies.step(game, caused[-1])
        if any(isinstance(e, Counted | PassJudged | Penalized) for e in events):
            self.verdict = (len(game.history), text)
        return Reply(text, True, events, replies.brief(game, caused[-1]))

    def _ask_first(self, question: str, then: Callable[[], Reply]) -> Reply:
        self.awaiting = then
        return Reply(question, True)

    # ------------------------------------------------------------------ undo, queries

    def _undo(self, certain: bool) -> Reply:
        game = self.game
        if self.collecting:
            group = self.table.undo()
            assert isinstance(group, tuple)
            self.publish(Undone())
            return Reply(replies.count_collecting_undone([name for _kind, name, _value in group]), True)
        if not game.history:
            return Reply(replies.nothing_to_undo(), False)
        what = replies.describe_action(game, game.history[-1])
        if not certain:
            return self._ask_first(replies.confirm_undo(what), self._do_undo)
        return self._do_undo()

    def _do_undo(self) -> Reply:
        game = self.game
        what = replies.describe_action(game, game.history[-1])
        self.table.undo()
        self.publish(Undone())
        return Reply(replies.undone(what, game), True)

    def _table(self, action: str) -> Reply:
        """Help, a new game, the end of the night: the table's own requests."""
        game = self.game
        if action == "ayuda":
            if not game.over and game.phase != "juicio":  # "¿quieres más?": a "sí" says the rest (in a judgement "sí" is the verdict)
                self.awaiting = lambda: Reply(replies.help_more(self.game), True)
            return Reply(replies.help_now(game), True)
        return Reply(replies.good_night(game), True, request=EndNight())

    def _another(self, command: SimpleCommand) -> Reply:
        """"Otra" (with players joining or leaving): once this game is over or before it began."""
        game = self.game
        if not (game.over or not game.history):
            return Reply(replies.finish_first(), False)
        absent = [name for name in command.leaving if name not in game.players]
        if absent:
            return Reply(replies.not_at_the_table(absent[0]), False)
        present = [name for name in command.joining if name in game.players]
        if present:
            return Reply(replies.already_at_the_table(present[0]), False)
        seats = tuple(p for p in game.players if p not in command.leaving) + command.joining
        try:
            Game(game.rules, list(seats))
        except RulesError as err:
            return Reply(replies.refusal(err.reason, game), False)
        return Reply(replies.another_game(command.joining, command.leaving, seats), True, request=NewGame(seats))

    def _query(self, command: QueryCommand) -> Reply:
        game = self.game
        if command.what == "jugador" and command.player in game.players and game.history and not game.over:
            return Reply(replies.player_now(game, command.player), True)  # «¿cómo va beto?» mid-game: this game
        if command.what in ("marcador", "dados") and command.player in game.players:
            return Reply(replies.player_now(game, command.player), True)  # «¿cuántos dados le quedan a la ana?»: hers
        if command.what == "apuesta" and self.verdict is not None and self.verdict[0] == len(game.history):
            return Reply(self.verdict[1], True)  # «repite» right after a verdict: the verdict, not "no hay apuesta"
        if command.what in NIGHT_QUERIES:
            whole, short = replies.night_answer(command.what, self.night(), command.player)
            return Reply(whole, True, short=short)
        text = {
            "dados": replies.dice_in_play,
            "marcador": replies.score,
            "turno": replies.turn,
            "apuesta": replies.current_bid,
            "reglas": replies.rules_summary,
        }[command.what](game)
        return Reply(text, True)

    def _bare_raise(self, command: Command) -> BidCommand | None:
        """"subo a cinco", or "seis" alone, while bidding: the same face as the bid on the
        table; "uno más", "diez de lo mismo" said against it (its hidden face too)."""
        game = self.game
        if game.phase != "apuestas" or game.bid is None or game.pending is not None:
            return None
        if isinstance(command, RaiseCommand):
            raised = command.quantity or game.bid.quantity + command.more
            return BidCommand(raised, "estas" if game.bid.face == HIDDEN else game.bid.face)
        if game.bid.face == HIDDEN:
            return None
        quantity = None
        if (isinstance(command, Unknown) and command.hint == "falta_pinta") or isinstance(command, CountCommand):
            quantity = command.quantity
        return BidCommand(quantity, game.bid.face) if quantity else None

    def _unknown(self, command: Unknown) -> Reply:
        if command.hint == "falta_pinta" and command.quantity is not None:
            return Reply(replies.missing_face(command.quantity), False)
        if command.hint == "falta_cantidad" and command.face is not None:
            return Reply(replies.missing_quantity(self.game, command.face), False)
        return Reply(replies.not_understood(), False)


def expectation(command: Command) -> str:
    """What kind of answer ``command`` is: "jugada" (a bid, a raise, a call, an obligo, a
    revival), "cuenta" (a count), "mano" (dice shown), "si_no", "parte" (who starts), "fin"
    (another game, or the night's end: what a finished game waits for), or "otra" (a
    question, an undo, a penalty: taken at any moment, never expected)."""
    if isinstance(command, BidCommand | RaiseCommand | CallCommand | ObligoCommand | ReviveCommand):
        return "jugada"
    if isinstance(command, CountCommand | PlayerCountCommand):
        return "cuenta"
    if isinstance(command, HandCommand):
        return "mano"
    if isinstance(command, SimpleCommand) and command.action in ("si", "no"):
        return "si_no"
    if isinstance(command, StartCommand):
        return "parte"
    if isinstance(command, SimpleCommand) and command.action in ("otra", "terminar"):
        return "fin"
    return "otra"


def _tonight() -> Totals:
    from assistant import stats

    return stats.night()
