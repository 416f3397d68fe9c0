"""The evening at one table: games played one after another, with the same
rules, microphone, voice and screen.

``Night`` owns what lasts longer than one game: the table's input and output,
the scoreboard, and for each game its referee and observers (its journal, its
recognizer log, the scoreboard following it). It runs the utterances through
the ``Session`` (which hears and answers one at a time) and does what the table
asks beyond the game: «otra» (this journal closed, a new game, a new journal,
the scoreboard follows) and «terminamos» (the night ends; the game in play
stays resumable). ``first_game`` decides how the evening begins: the same
unfinished game offered again, or a new one.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant import journal as journal_module
from assistant import messages, replies
from assistant.changes import Observer, Table
from assistant.config import TableConfig
from assistant.problems import SetupError
from assistant.referee import EndNight, NewGame, Referee
from assistant.rules import DEFAULT_PRESET, Game, RulesError, RuleSet, load_rules
from assistant.session import Session, TableIO, simulate
from assistant.speech import Parser
from assistant.voice.heard import Heard

if TYPE_CHECKING:
    from assistant.scoreboard import Scoreboard

log = logging.getLogger("dudo")

NIGHT_HOURS = 12
"""The scoreboard lists the games finished this long before the night began."""


class Night:
    """One table's evening. ``run`` plays it from its first game to the end."""

    def __init__(self, io: TableIO, level: str | None = None, screen: str | None = None) -> None:
        self.io = io
        self.level = level or ("poco" if io.voice else "normal")
        self.screen = screen
        self.board: Scoreboard | None = None
        self.journal: journal_module.Journal | None = None
        self.session: Session | None = None

    # ------------------------------------------------------------------ the run

    def run(self, table: Table, journal: journal_module.Journal) -> None:
        """Play until «terminamos» or the end of the input (Ctrl-C too), then close."""
        if self.screen:
            self.board = _open_screen(self.screen, table.game, self.io)
        try:
            session = self._begin(table, journal)
            for heard in self.io.utterances():
                reply = session.hear(heard)
                if isinstance(reply.request, EndNight):
                    break
                if isinstance(reply.request, NewGame):
                    session = self.another(reply.request.seats)
        except KeyboardInterrupt:
            pass
        finally:
            self.close()

    def another(self, seats: tuple[str, ...]) -> Session:
        """«Otra»: this game's journal closed, a new game for ``seats`` with the
        same rules and a journal of its own; the scoreboard follows it."""
        assert self.journal is not None and self.session is not None
        self.journal.close()
        fresh = Game(self.session.referee.game.rules, list(seats))
        if self.board is not None:
            self.board.follow(fresh)
        return self._begin(Table(fresh), journal_module.Journal.create(fresh.rules, fresh.players))

    def close(self) -> None:
        """The night is over: the last journal closed, the screen off, what is
        still being said heard to the end, and a note on where the game was kept."""
        if self.journal is not None:
            self.journal.close()
        self.io.close()
        if self.board is not None:
            self.board.close()
        if self.journal is None or self.session is None:
            return
        played = self.session.referee.game
        if self.journal.failing:
            self.io.note(messages.not_all_saved(self.journal.path))
        elif not played.over and played.history:
            path = self.journal.path
            self.io.note(messages.saved_to_resume(path, path.parent.resolve() == journal_module.games_dir().resolve()))

    # ------------------------------------------------------------------ one game

    def _begin(self, table: Table, journal: journal_module.Journal) -> Session:
        """A game starts (or resumes): its observers, its referee, its opening words."""
        self.journal = journal
        game = table.game
        self.io.rebuild_for(list(game.players))
        if journal.first_notice is not None:
            self.io.tell(replies.notice(journal.first_notice))
        referee = Referee(game, self._observers(journal), table.collecting)
        if self.session is None:
            self.session = Session(referee, Parser(players=game.players), say=self._say, ignore_chatter=self.io.voice,
                                   level=self.level, earcon=self.io.earcon)
            self.io.complete = lambda text: self.session is not None and self.session.complete(text)
        else:
            self.session.follow(referee)
        self.session.start(self.io.listening)
        self.io.listening = ()  # said once a night
        return self.session

    def _observers(self, journal: journal_module.Journal) -> list[Observer]:
        """Who hears this game: its journal, the scoreboard, and by voice the recognizer's log."""
        observers: list[Observer] = [journal]
        if self.board is not None:
            observers.append(self.board)
        if self.io.voice:  # what the recognizer returned, beside the journal: the night can be replayed exactly
            from assistant.heardlog import HeardLog, audio_dir, log_path

            keep = audio_dir(journal.path) if getattr(self.io, "keep_audio", False) else None
            observers.append(HeardLog(log_path(journal.path), keep))
            self.io.note(messages.heard_log_at(log_path(journal.path), keep))
        return observers

    def _say(self, text: str) -> None:
        self.io.tell(text)
        if self.board is not None and self.session is not None:
            try:
                self.board.said(text, self.session.referee.game)
            except Exception:  # the screen never stops the game
                log.exception("scoreboard")


def _open_screen(address: str, game: Game, io: TableIO) -> Scoreboard | None:
    """The scoreboard at ``address``, or None (said to the table) if it cannot open."""
    from assistant import scoreboard

    since = datetime.now().astimezone() - timedelta(hours=NIGHT_HOURS)
    night = [scoreboard.night_entry(s) for s in journal_module.finished_games(since=since)]
    try:
        board = scoreboard.start(address, game, night)
    except ValueError:
        io.note(messages.bad_screen_address(address))
        io.tell(replies.screen_off())
        return None
    except OSError as err:
        log.warning("scoreboard at %s: %s", address, err)  # the system's words go to the log
        io.note(messages.screen_failed(messages.port_problem(err.errno, isinstance(err, socket.gaierror))))
        io.tell(replies.screen_off())
        return None
    where = board.announced
    if where.waiting:
        io.tell(replies.screen_waiting_for_network())
        return board
    io.announce(replies.screen_on(where.urls or [board.address]), replies.screen_on_spoken(where.ip, where.name, where.port))
    if where.ip is not None:
        from assistant.screen_server import qr_text, url

        io.picture(replies.screen_qr_caption(), qr_text(url(where.ip, where.port)))
    return board


# ------------------------------------------------------------------ how the evening begins


def rules_for(spec: str | None) -> RuleSet:
    """A preset or a house-rules file (the default preset when None); its problems in Spanish."""
    try:
        return load_rules(spec or DEFAULT_PRESET)
    except RulesError as err:
        raise SetupError(replies.refusal(err.reason)) from err


def simulated(game: Game, lines: Iterable[Heard], say: Callable[[str], None] | None, keep: bool) -> dict[str, Any]:
    """``dudo simular``: play a script; with ``keep``, its journal is kept apart
    (``simuladas/``): never counted in the figures, never offered to resume."""
    record = journal_module.Journal.create(game.rules, game.players, journal_module.simulated_path()) if keep else None
    try:
        return simulate(game, lines, say=say, observers=[record] if record else [])
    finally:
        if record is not None:
            record.close()


def new_game(rules: RuleSet, players: list[str] | tuple[str, ...]) -> Game:
    if len(players) < 2:
        raise SetupError(messages.TWO_PLAYERS_NEEDED)
    try:
        return Game(rules, list(players))
    except RulesError as err:
        raise SetupError(replies.refusal(err.reason)) from err


def first_game(config: TableConfig, io: TableIO) -> tuple[Table, journal_module.Journal]:
    """The game the evening starts with: the same unfinished game (these players,
    these rules when named), offered or taken as ``config.resume`` says; else a
    new one, asking for the players if nobody named them. A journal the table
    names (``--partida``) that is empty, or has a header and no moves, is where
    the new game goes; one that holds another game is left as it is."""
    asked_rules = rules_for(config.rules) if config.rules else None
    players = list(config.players)
    named = config.journal
    held = _named(named, io) if named is not None else None
    if config.resume != "nueva":
        if named is None:
            found = latest(io, players, asked_rules)
        else:
            found = held if held is not None and not held.finished and not held.empty and _same(held, players, asked_rules) else None
        offer = replies.resume_offer(found.game, found.partials) if found is not None else ""
        if found is not None and (config.resume == "seguir" or io.ask_yes_no(offer, found.game.players)):
            return found.table, resume(found, io)
    here = named is not None and (held is None or held.empty)
    if held is not None and held.empty:  # a header and no moves: its players and rules, unless others are named
        if not players:
            players = list(held.game.players)
        if asked_rules is None and players == list(held.game.players):
            asked_rules = held.game.rules
    if not players:
        players = io.ask_players()
    game = new_game(asked_rules or rules_for(None), players)
    target = named if here else None
    journal = journal_module.Journal.create(game.rules, game.players, target, over=here and target is not None and os.path.lexists(target))
    if named is not None and not here:
        io.note(messages.journal_elsewhere(named, journal.path))
    io.note(messages.journal_at(journal.path))
    return Table(game), journal


def _named(path: Path, io: TableIO) -> journal_module.Loaded | None:
    """The game in the journal the table named: None if there is none yet (no
    file, or an empty one); a folder, a file that cannot be read or that is no
    journal is refused in Spanish (a file that is not ours is never written over)."""
    if not os.path.lexists(path):  # (False too when the system will not say: reading it then says why, in Spanish)
        return None
    try:
        if journal_module.blank(path):
            return None
    except journal_module.JournalError as err:
        _log_error(path, err)
        raise SetupError(journal_error(err)) from err
    return load(path, io)


def _same(loaded: journal_module.Loaded, players: list[str], rules: RuleSet | None) -> bool:
    return (not players or list(loaded.game.players) == players) and (rules is None or loaded.game.rules.to_json() == rules.to_json())


def resume(loaded: journal_module.Loaded, io: TableIO) -> journal_module.Journal:
    """Go on writing a loaded game; where a damaged file was kept is noted at the terminal."""
    journal = journal_module.Journal.resume(loaded)
    if journal.aside is not None:
        io.note(messages.journal_set_aside(journal.aside))
    return journal


def resumed_game(path: Path | None, io: TableIO) -> tuple[Table, journal_module.Journal]:
    """``dudo reanudar``: the game in ``path``, or the latest unfinished one."""
    loaded = load(path, io) if path is not None else latest(io)
    if loaded is None or loaded.empty:
        raise SetupError(messages.NOTHING_TO_RESUME)
    if loaded.finished:
        raise SetupError(replies.already_finished(loaded.path.name, loaded.game))
    return loaded.table, resume(loaded, io)


def journal_error(err: journal_module.JournalError) -> str:
    return f"{err} {replies.refusal(err.reason)}" if err.reason is not None else str(err)


def _log_error(path: Path, err: journal_module.JournalError) -> None:
    log.warning("journal %s: %s%s", path, err, f" ({err.detail})" if err.detail else "")


def load(path: Path, io: TableIO) -> journal_module.Loaded:
    """The game in ``path``, its damage told to the table."""
    try:
        loaded = journal_module.load(path)
    except journal_module.JournalError as err:
        _log_error(path, err)
        raise SetupError(journal_error(err)) from err
    tell_damage(loaded, io)
    return loaded


def tell_damage(loaded: journal_module.Loaded, io: TableIO) -> None:
    damage = loaded.damage
    if damage is None:
        return
    log.warning("journal %s: %s", loaded.path, damage.detail)
    path = loaded.path  # the file for the terminal's note; the table hears the line, never a file name
    if damage.lost is not None:
        io.note(messages.journal_damaged_at(path, damage.lost))
        last = damage.lost == loaded.lines
        io.tell(replies.journal_last_line_unreadable(damage.lost) if last else replies.journal_damaged(damage.lost))
    elif damage.trailing:
        io.note(messages.journal_garbage_at(path, damage.changed[0]))
        io.tell(replies.journal_garbage_at_the_end())
    elif damage.changed:
        io.note(messages.journal_repaired_at(path, damage.changed))
        io.tell(replies.journal_repaired(damage.changed))
    if damage.torn is not None:
        io.tell(replies.journal_dropped_line())


def latest(io: TableIO, players: list[str] | None = None, rules: RuleSet | None = None) -> journal_module.Loaded | None:
    """The latest unfinished game (with these players and rules, when given);
    journals that cannot be read and damage on the way are told to the table."""
    search = journal_module.unfinished(players=players or None, rules=rules)
    for err in search.unreadable:
        log.warning("journal: %s%s", err, f" ({err.detail})" if err.detail else "")
        io.tell(journal_error(err))
    if search.found is not None:
        tell_damage(search.found, io)
    return search.found
