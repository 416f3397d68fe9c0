"""The game on disk: one JSON object per line, appended, flushed and fsynced.

Line 1 is the header (rules and players); every accepted utterance adds one
line, all or nothing: ``{"acciones": […], "eventos": […]}`` for actions,
``{"parciales": […]}`` for per-player counts or hands, ``{"deshacer": true}``
for an undo. (Older journals wrote ``{"accion": …}`` per action and a
``{"fin": …}`` line; both are still read.)

Reading never writes. A power cut can tear only the line being written: a
last line that does not read is dropped (``Damage.torn``); a line that does
not read anywhere else is damage, named by file and line, and the game is
offered up to the line before it. A last line whose newline is missing but
which reads whole is kept (the write reached the disk but for its ``\\n``).

Writing never stops the game: a record that cannot be written (disk full,
read-only, no permission, folder removed) is owed, the referee is told once
(``StorageFailed``), every later step retries, and when the disk takes it
again everything owed is written in order (``StorageRecovered``).
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from assistant import messages
from assistant.changes import (
    Change,
    Collecting,
    Notice,
    Observer,
    Partial,
    PartialGiven,
    Played,
    StorageCause,
    StorageFailed,
    StorageRecovered,
    Table,
    Undone,
)
from assistant.problems import default_dir
from assistant.rules import Game, Reason, RulesError, RuleSet, action_from_json, action_to_json, event_to_json
from assistant.rules.events import DieLost, GameOver, PaloTaken
from assistant.rules.ruleset import rules_from_json

FORMAT = 1


class JournalError(Exception):
    """A journal that cannot be resumed at all; the message is Spanish, for the player.
    ``reason`` is the rules' own reason when the stored rules are the problem."""

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


def games_dir(base: Path | None = None) -> Path:
    return (base or default_dir()) / "partidas"


def simulated_path(base: Path | None = None) -> Path:
    """Where ``dudo simular`` keeps its game: beside the table's, under another
    name, so it counts in the statistics and is never offered for resuming."""
    return games_dir(base) / f"simulada-{_stamp()}.jsonl"


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def _cause(err: OSError) -> StorageCause:
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return "lleno"
    if err.errno == errno.EROFS:
        return "solo_lectura"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "sin_permiso"
    if err.errno in (errno.ENOENT, errno.ENOTDIR):
        return "sin_carpeta"
    return "falla"


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def change_to_json(change: Change) -> dict[str, Any]:
    if isinstance(change, Played):
        return {"acciones": [action_to_json(a) for a in change.actions], "eventos": [event_to_json(e) for e in change.events]}
    if isinstance(change, PartialGiven):
        return {"parciales": [{"tipo": k, "jugador": p, "valor": v} for k, p, v in change.partials]}
    return {"deshacer": True}


class Journal(Observer):
    """Appends a game's steps to ``path``; an observer of the referee (``observe``).

    ``kept`` is what the file already holds (a resumed game); every record
    reaches the disk (fsync) before ``observe`` returns, or is owed and
    retried at the next step. The file is rewritten from memory (atomically)
    when it is not what was written: removed, cut short, or set aside as
    damaged.
    """

    def __init__(self, path: Path, kept: bytes = b"", set_aside: bool = False) -> None:
        self.path = path
        self._kept = bytearray(kept)
        """Every byte the file must hold, as written so far."""
        self._on_disk = len(kept) if path.exists() and not set_aside else -1
        """Bytes of ``_kept`` known to be on disk; -1: the file must be rewritten."""
        self._set_aside = set_aside
        self._owed: list[bytes] = []
        self._fd: int | None = None
        self._failing: StorageCause | None = None
        self.steps = 0
        """Records written or owed since this journal was opened (0: nothing played)."""
        self.first_notice: Notice | None = None
        """What went wrong opening it (told to the table before the game starts)."""

    @classmethod
    def create(cls, rules: RuleSet, players: tuple[str, ...], path: Path | None = None) -> Journal:
        if path is None:
            path = games_dir() / f"partida-{_stamp()}.jsonl"
        if path.exists():  # a new game never writes over another's journal
            raise FileExistsError(path)
        journal = cls(path)
        header = {
            "formato": FORMAT,
            "partida": {
                "reglas": rules.to_json(),
                "jugadores": list(players),
                "inicio": datetime.now(UTC).isoformat(timespec="seconds"),
            },
        }
        journal.first_notice = journal._write(_line(header))
        return journal

    @classmethod
    def resume(cls, loaded: Loaded) -> Journal:
        """Go on writing a loaded game: after its last good line. A damaged
        journal is set aside (``….dañado``) and rewritten up to that line."""
        journal = cls(loaded.path, loaded.good, set_aside=loaded.damage is not None and not loaded.damage.torn)
        journal.first_notice = journal._flush()
        return journal

    def observe(self, change: Change, game: Game) -> Notice | None:
        """One line per accepted utterance."""
        self.steps += 1
        return self._write(_line(change_to_json(change)))

    @property
    def failing(self) -> bool:
        return self._failing is not None

    def _write(self, line: bytes) -> Notice | None:
        self._owed.append(line)
        return self._flush()

    def _flush(self) -> Notice | None:
        if not self._owed and self._on_disk == len(self._kept):
            return None
        owed = len(self._owed)
        try:
            fd = self._open()
            while self._owed:
                _write_all(fd, self._owed[0])
                os.fsync(fd)
                self._kept += self._owed.pop(0)
                self._on_disk = len(self._kept)
        except OSError as err:
            self._cut_back()
            if self._failing is None:
                self._failing = _cause(err)
                return StorageFailed(self._failing)
            return None
        if self._failing is not None:
            self._failing = None
            return StorageRecovered(owed)
        return None

    def _open(self) -> int:
        """The file descriptor to append to, the file made whole first."""
        if self._fd is not None:
            try:
                same = os.stat(self.path).st_ino == os.fstat(self._fd).st_ino
            except OSError:
                same = False
            if same:
                return self._fd
            self._close_fd()  # the file was removed or replaced under us: write it again whole
            self._on_disk = -1
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self._set_aside and self.path.exists():
            os.replace(self.path, self.path.with_name(self.path.name + ".dañado"))
            self._set_aside = False
        size = self.path.stat().st_size if self.path.exists() else -1
        if self._on_disk < 0 or size < self._on_disk:
            self._rewrite()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.ftruncate(fd, self._on_disk)  # a write cut short by a failure leaves nothing behind
            os.lseek(fd, self._on_disk, os.SEEK_SET)
        except OSError:
            os.close(fd)
            raise
        self._fd = fd
        return fd

    def _rewrite(self) -> None:
        """Write ``_kept`` whole to a new file and put it in place in one step."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            _write_all(fd, bytes(self._kept))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        self._on_disk = len(self._kept)

    def _cut_back(self) -> None:
        """After a failed write: drop the part of a line that reached the disk
        (the file stays a clean journal) and close, to reopen at the next try."""
        if self._fd is not None and self._on_disk >= 0:
            try:
                os.ftruncate(self._fd, self._on_disk)
            except OSError:
                pass
        self._close_fd()

    def _close_fd(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def close(self) -> None:
        """Close the file; a game where nothing was played leaves no journal behind."""
        self._flush()
        self._close_fd()
        if self.steps == 0 and self._kept.count(b"\n") == 1 and not self._owed:
            try:
                self.path.unlink()
            except OSError:
                pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class Damage:
    """Where a journal stopped reading. ``torn``: the last line, cut by a power
    cut mid-write; otherwise a line in the middle that does not read."""

    line: int
    torn: bool
    detail: str
    """What was wrong, for the log (English)."""


@dataclass
class Loaded:
    """A journal read back: the game up to its last good line, and what was noticed."""

    table: Table
    path: Path
    good: bytes
    """The journal's bytes up to its last good line (with its newline)."""
    damage: Damage | None = None
    ended: bool = False
    """An older journal's ``fin`` line."""
    started: str | None = None
    """When the game began (ISO 8601, UTC), from the header."""

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def collecting(self) -> Collecting:
        return self.table.collecting

    @property
    def partials(self) -> list[Partial]:
        return self.collecting.flat()

    @property
    def finished(self) -> bool:
        return self.ended or self.game.over

    @property
    def empty(self) -> bool:
        """Started and left before anything was played."""
        return not self.game.history and not self.collecting

    @property
    def dropped_line(self) -> int | None:
        return self.damage.line if self.damage is not None and self.damage.torn else None


class _Bad(ValueError):
    """A line that does not read as a record."""


def _change(record: object) -> Change | None:
    """The change a record stands for (None for an old ``fin`` marker)."""
    if not isinstance(record, dict):
        raise _Bad(f"a record is an object, not {type(record).__name__}")
    if "acciones" in record or "accion" in record:
        actions = record["acciones"] if "acciones" in record else [record["accion"]]
        if not isinstance(actions, list) or not actions:
            raise _Bad("actions must be a non-empty list")
        try:
            return Played(tuple(action_from_json(a) for a in actions), ())
        except ValueError as err:
            raise _Bad(str(err)) from err
    if "parciales" in record or "parcial" in record:
        given = record["parciales"] if "parciales" in record else [record["parcial"]]
        if not isinstance(given, list) or not given:
            raise _Bad("partials must be a non-empty list")
        return PartialGiven(tuple(_partial(p) for p in given))
    if record.get("deshacer") is True:
        return Undone()
    if "fin" in record:
        return None
    raise _Bad(f"unknown record {sorted(record)}")


def _partial(data: object) -> Partial:
    if not isinstance(data, dict) or not isinstance(data.get("jugador"), str):
        raise _Bad("a partial is an object with a player")
    kind, value = data.get("tipo"), data.get("valor")
    if kind == "cuenta" and isinstance(value, int) and not isinstance(value, bool):
        return ("cuenta", data["jugador"], value)
    if kind == "mano" and isinstance(value, list) and all(isinstance(f, int) and not isinstance(f, bool) for f in value):
        return ("mano", data["jugador"], value)
    raise _Bad(f"bad partial {data!r}")


def _lines(raw: bytes) -> Iterator[tuple[int, bytes, int]]:
    """(number, line, offset after it) for each line; a last line without its newline too."""
    start = 0
    number = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        number += 1
        if end < 0:
            yield number, raw[start:], len(raw)
            return
        yield number, raw[start:end], end + 1
        start = end + 1


def _header(path: Path, line: bytes) -> tuple[RuleSet, list[str], str | None]:
    """Rules, players and start time (ISO, UTC) of a journal's first line."""
    try:
        record = json.loads(line.decode("utf-8"))
        header = record["partida"]
        players = header["jugadores"]
        stored_rules = header["reglas"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not isinstance(stored_rules, dict):
            raise TypeError("players or rules of the wrong type")
    except (UnicodeDecodeError, ValueError, TypeError, KeyError) as err:
        raise JournalError(messages.not_a_journal(path.name)) from err
    started = header.get("inicio")
    try:
        return rules_from_json(stored_rules), players, started if isinstance(started, str) else None
    except RulesError as err:
        raise JournalError(messages.stored_rules_invalid(path.name), err.reason) from err
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise JournalError(messages.stored_rules_unreadable(path.name)) from err


def load(path: Path) -> Loaded:
    """Rebuild the game in ``path`` by replaying its lines once, in order (linear
    time). Raises ``JournalError`` only when nothing of it can be resumed."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise JournalError(messages.journal_unreadable(path, err.strerror)) from err
    lines = list(_lines(raw))
    if not lines:
        raise JournalError(messages.empty_journal(path.name))
    rules, players, started = _header(path, lines[0][1])
    try:
        table = Table(Game(rules, players))
    except RulesError as err:
        raise JournalError(messages.stored_rules_invalid(path.name), err.reason) from err
    good_end = lines[0][2]
    damage: Damage | None = None
    ended = False
    last_number = lines[-1][0] if lines[-1][1].strip() else lines[-1][0] - 1
    for number, line, end in lines[1:]:
        if not line.strip():
            good_end = end
            continue
        try:
            change = _change(json.loads(line.decode("utf-8")))
            if change is None:
                ended = True
            else:
                _replay(table, change)
                ended = ended and not isinstance(change, Undone)
        except (ValueError, RulesError) as err:  # decoding errors are ValueErrors too
            cut = isinstance(err, (UnicodeDecodeError, json.JSONDecodeError)) and number >= last_number
            damage = Damage(number, cut, f"{type(err).__name__}: {err}")
            break
        good_end = end
    good = raw[:good_end]
    if good and not good.endswith(b"\n"):
        good += b"\n"
    return Loaded(table, path, good, damage, ended, started)


def _replay(table: Table, change: Change) -> None:
    """One record onto the table, all or nothing; an undo with nothing to undo is ignored."""
    if isinstance(change, Undone) and not table.collecting and not table.game.history:
        return
    if isinstance(change, Played) and len(change.actions) > 1:
        trial = Table(table.game.copy(), table.collecting)
        trial.play(change.actions)  # raises before the real table is touched
    table.advance(change)


def _finished_at_a_glance(raw: bytes) -> bool:
    """Does the last record end the game (its events include the end)? Saves
    replaying every finished game to find the unfinished one."""
    tail = raw.rstrip(b"\n")
    last = tail[tail.rfind(b"\n") + 1 :]
    try:
        record = json.loads(last.decode("utf-8"))
    except ValueError:
        return False
    if not isinstance(record, dict):
        return False
    if "fin" in record:
        return True
    events = record.get("eventos")
    return isinstance(events, list) and any(isinstance(e, dict) and e.get("tipo") == GameOver.kind for e in events)


@dataclass
class Search:
    """What looking for an unfinished game found: the game, and journals that could not be read."""

    found: Loaded | None
    unreadable: list[JournalError]


def unfinished(base: Path | None = None, rules: RuleSet | None = None, players: list[str] | None = None) -> Search:
    """The most recent game that has not ended and is not empty, with these
    rules and players when they are given; a journal that cannot be read at
    all is reported and the search goes on (one bad file never blocks others)."""
    folder = games_dir(base)
    unreadable: list[JournalError] = []
    if not folder.is_dir():
        return Search(None, unreadable)
    for path in sorted(folder.glob("partida-*.jsonl"), reverse=True):
        try:
            raw = path.read_bytes()
        except OSError as err:
            unreadable.append(JournalError(messages.journal_unreadable(path.name, err.strerror)))
            continue
        if b"\n" not in raw.strip() or _finished_at_a_glance(raw):
            continue  # only a header (an empty game), or a finished one
        try:
            header_rules, header_players, _started = _header(path, raw.split(b"\n", 1)[0])
        except JournalError as err:
            unreadable.append(err)
            continue
        if players and header_players != players:
            continue
        if rules is not None and header_rules.to_json() != rules.to_json():
            continue
        try:
            loaded = load(path)
        except JournalError as err:
            unreadable.append(err)
            continue
        if not loaded.finished and not loaded.empty:
            return Search(loaded, unreadable)
    return Search(None, unreadable)


def latest_unfinished(base: Path | None = None) -> Loaded | None:
    """The most recent unfinished game, whatever its rules and players."""
    return unfinished(base).found


# ------------------------------------------------------------------ finished games


@dataclass(frozen=True)
class Summary:
    """A finished game in a few facts, for ``dudo historial`` and the scoreboard."""

    path: Path
    started: datetime | None
    players: tuple[str, ...]
    rules: str
    scoring: str
    """What is lost: dados, palos or fichas."""
    winners: tuple[str, ...]
    rounds: int
    losses: dict[str, int]
    """Dice or palos lost by each player over the game."""

    @property
    def lost_most(self) -> tuple[str, int] | None:
        if not self.losses:
            return None
        name = max(self.losses, key=lambda n: (self.losses[n], -self.players.index(n)))
        return name, self.losses[name]


def summarize(loaded: Loaded) -> Summary:
    """Replays the game once to count what each player lost."""
    game = loaded.game
    losses = dict.fromkeys(game.players, 0)
    for _then, events in game.retold():
        for event in events:
            if isinstance(event, DieLost | PaloTaken):
                losses[event.player] += event.count
    started = None
    if loaded.started:
        try:
            started = datetime.fromisoformat(loaded.started)
        except ValueError:
            started = None
    finished_round = game.round_number
    return Summary(loaded.path, started, game.players, game.rules.name, game.rules.scoring, tuple(game.winners), finished_round,
                   {n: k for n, k in losses.items() if k})


def finished_games(base: Path | None = None, since: datetime | None = None) -> list[Summary]:
    """Finished games, oldest first (started after ``since``, when given); a
    journal that cannot be read is skipped."""
    folder = games_dir(base)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("partida-*.jsonl")):
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        if not _finished_at_a_glance(raw):
            continue
        try:
            loaded = load(path)
        except JournalError:
            continue
        if not loaded.finished:
            continue
        summary = summarize(loaded)
        if since is None or (summary.started is not None and summary.started >= since):
            found.append(summary)
    return found
