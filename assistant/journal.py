"""The game on disk: JSON lines, appended, flushed and fsynced.

Every record is written **twice**, as two identical lines in one write, and
each line carries its number and a check: ``{"n": 3, …, "k": "9f1c02ab"}``.
Record 0 is the header (rules, players, seats); every accepted utterance adds
one record, all or nothing: ``{"acciones": […], "eventos": […]}`` for actions,
``{"parciales": […]}`` for per-player counts or hands, ``{"deshacer": true}``
for an undo. The check ``k`` is the CRC-32 of the line up to it, continued from
the previous record's check: a chain over the whole journal, so a change to
any line, a line lost or one moved is noticed. It protects against accidents
(a flipped bit, a card gone bad, a hand edit); it is not a signature, anyone
can compute it again after changing a line.

Reading never writes, and no single damaged line loses anything: a line that
is not as written is named, and its record read from the copy beside it (the
header too). A power cut can tear only the write in progress: a last line cut
short is dropped (``Damage.torn``), and if it was a copy, nothing is lost. A
record whose two copies are both gone ends what can be read (``Damage.lost``):
the game is offered up to the line before. Older journals (format 1: one line
per record, no checks, ``{"accion": …}`` and ``{"fin": …}`` lines) still load,
and are written again in this format when a game in them goes on.

Writing never stops the game: a record that cannot be written (disk full,
read-only, no permission, folder removed) is owed, the referee is told once
(``StorageFailed``), every later step retries, and when the disk takes it
again everything owed is written in order (``StorageRecovered``).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import zlib
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

FORMAT = 2
"""1: one line per record, no checks; 2: every record twice, numbered and checked."""

SNIFF = 65536
"""Bytes read first to find the header: a big file that is no journal is refused
without reading it all."""


class JournalError(Exception):
    """A journal that cannot be resumed at all; the message is Spanish, for the player.
    ``reason`` is the rules' own reason when the stored rules are the problem;
    ``detail`` the system's words, for the log."""

    def __init__(self, message: str, reason: Reason | None = None, detail: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.detail = detail


def games_dir(base: Path | None = None) -> Path:
    return (base or default_dir()) / "partidas"


def simulated_dir(base: Path | None = None) -> Path:
    """Where ``dudo simular --guardar`` keeps its games: apart from the table's, so a
    game nobody played never counts in the night's figures nor is offered for resuming."""
    return (base or default_dir()) / "simuladas"


def simulated_path(base: Path | None = None) -> Path:
    return simulated_dir(base) / f"simulada-{_stamp()}.jsonl"


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


# ------------------------------------------------------------------ lines and their checks

_CHECK = b', "k": "'
_TAIL = len(_CHECK) + 8 + 2
"""``, "k": "xxxxxxxx"}``: the end of every checked line."""
_HEX = frozenset(b"0123456789abcdef")
_START = b'{"n": '
"""How every checked line begins (where a line glued to another is split again)."""


def _checked(number: int, record: dict[str, Any], base: int) -> tuple[bytes, int]:
    """Record ``number`` as one journal line (with its newline), and its check:
    the CRC-32 of the line up to the check, continued from ``base`` (the
    previous record's check; 0 before the header)."""
    body = json.dumps({"n": number, **record}, ensure_ascii=False).encode("utf-8")
    head = body[:-1]
    check = zlib.crc32(head, base)
    return head + _CHECK + b"%08x" % check + b'"}\n', check


def _verify(line: bytes, base: int) -> int | None:
    """The line's check, if it is a whole line written right after a record whose check is ``base``."""
    if len(line) <= _TAIL or not line.startswith(_START) or line[-_TAIL:-10] != _CHECK or line[-2:] != b'"}':
        return None
    digits = line[-10:-2]
    if not _HEX.issuperset(digits):
        return None
    check = int(digits, 16)
    return check if zlib.crc32(line[:-_TAIL], base) == check else None


def change_to_json(change: Change) -> dict[str, Any]:
    if isinstance(change, Played):
        return {"acciones": [action_to_json(a) for a in change.actions], "eventos": [event_to_json(e) for e in change.events]}
    if isinstance(change, PartialGiven):
        return {"parciales": [{"tipo": k, "jugador": p, "valor": v} for k, p, v in change.partials]}
    return {"deshacer": True}


def _header_record(rules: RuleSet, players: tuple[str, ...]) -> dict[str, Any]:
    return {
        "formato": FORMAT,
        "partida": {
            "reglas": rules.to_json(),
            "jugadores": list(players),
            "inicio": datetime.now(UTC).isoformat(timespec="seconds"),
        },
    }


class Journal(Observer):
    """Appends a game's steps to ``path``; an observer of the referee (``observe``).

    Every record reaches the disk twice (two identical checked lines, one
    write, fsync) before ``observe`` returns, or is owed and retried at the next
    step. The file is rewritten from memory (atomically) when it is not what
    was written: removed, cut short, set aside as damaged, or in an older format.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._kept = bytearray()
        """Every byte the file must hold, as written so far."""
        self._on_disk = -1
        """Bytes of ``_kept`` known to be on disk; -1: the file must be rewritten."""
        self._set_aside = False
        self._owed: list[bytes] = []
        self._fd: int | None = None
        self._failing: StorageCause | None = None
        self._number = 0
        """The next record's number."""
        self._check = 0
        """The last record's check: the next one's chain goes on from it."""
        self._played = 0
        """Records after the header, held or owed."""
        self._keep_empty = False
        """A file named by the table: kept even if nothing is played in it."""
        self.steps = 0
        """Records written or owed since this journal was opened (0: nothing played)."""
        self.first_notice: Notice | None = None
        """What went wrong opening it (told to the table before the game starts)."""
        self.aside: Path | None = None
        """Where the damaged file was kept aside, once it has been."""

    @classmethod
    def create(cls, rules: RuleSet, players: tuple[str, ...], path: Path | None = None, over: bool = False) -> Journal:
        """A new game's journal. ``over``: ``path`` is the table's own file, empty
        or with a header and no moves, and the game starts in it."""
        if path is None:
            path = games_dir() / f"partida-{_stamp()}.jsonl"
        if os.path.lexists(path) and not over:  # a new game never writes over another's journal
            raise FileExistsError(path)
        journal = cls(path)
        journal._keep_empty = over
        journal.first_notice = journal._write(_header_record(rules, players))
        return journal

    @classmethod
    def resume(cls, loaded: Loaded) -> Journal:
        """Go on writing a loaded game after its last good record. A damaged
        journal is set aside (``….dañado``) and written again whole, as is an
        older format; a torn end is cut and what it lacked written again."""
        journal = cls(loaded.path)
        damaged = loaded.damage is not None and loaded.damage.set_aside
        if damaged or loaded.rewrite or not loaded.path.exists():
            journal._kept = bytearray(loaded.good)
            journal._on_disk = -1
        else:
            journal._kept = bytearray(loaded.good[: loaded.intact])
            journal._on_disk = loaded.intact
            if loaded.intact < len(loaded.good):
                journal._owed.append(loaded.good[loaded.intact :])
        journal._set_aside = damaged
        journal._keep_empty = True  # a file that was there stays, whatever is played in it now
        journal._number, journal._check = loaded.records, loaded.check
        journal._played = loaded.records - 1
        journal.first_notice = journal._flush()
        return journal

    def observe(self, change: Change, game: Game) -> Notice | None:
        """One record per accepted utterance."""
        self.steps += 1
        self._played += 1
        return self._write(change_to_json(change))

    @property
    def failing(self) -> bool:
        return self._failing is not None

    def _write(self, record: dict[str, Any]) -> Notice | None:
        line, self._check = _checked(self._number, record, self._check)
        self._number += 1
        self._owed.append(line + line)  # both copies in one write: a tear can only cut the second short
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
            aside = _aside(self.path)
            os.replace(self.path, aside)
            self._set_aside = False
            self.aside = aside
        size = self.path.stat().st_size if self.path.exists() else -1
        if self._on_disk < 0 or size < self._on_disk:
            self._rewrite()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.ftruncate(fd, self._on_disk)  # a write cut short by a failure (or a torn end) leaves nothing behind
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
        """Close the file; a game where nothing was played leaves no journal
        behind (unless the table named the file)."""
        self._flush()
        self._close_fd()
        if self._played == 0 and not self._keep_empty and not self._owed:
            try:
                self.path.unlink()
            except OSError:
                pass


def _aside(path: Path) -> Path:
    """Where a damaged journal is kept: ``….dañado`` (``….dañado-2`` … if that is taken)."""
    aside = path.with_name(path.name + ".dañado")
    number = 2
    while aside.exists():
        aside = path.with_name(f"{path.name}.dañado-{number}")
        number += 1
    return aside


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class Damage:
    """What reading a journal noticed. Lines are numbered from 1, as an editor shows them."""

    changed: tuple[int, ...] = ()
    """Lines that are not as they were written (changed, garbage, a copy missing
    or one too many), every record of them read from its copy: nothing is lost."""
    lost: int | None = None
    """The first line from which nothing more could be read (both copies of a
    record gone, or a line of an older journal): the game is offered up to before it."""
    torn: int | None = None
    """A last line cut short by a power cut mid-write, the record it began
    dropped (it was never answered). A torn copy loses nothing and is not told."""
    trailing: bool = False
    """The one changed line comes after the game's last record, both copies of
    which are whole: garbage at the end."""
    detail: str = ""
    """What was wrong, for the log (English)."""

    @property
    def set_aside(self) -> bool:
        """Is the file to be kept aside (``….dañado``) when the game goes on?"""
        return bool(self.changed) or self.lost is not None


@dataclass
class Loaded:
    """A journal read back: the game up to its last good record, and what was noticed."""

    table: Table
    path: Path
    good: bytes
    """The journal as it must be on disk: every record read, twice, checked."""
    intact: int = 0
    """How many leading bytes of the file already are ``good``'s."""
    damage: Damage | None = None
    ended: bool = False
    """An older journal's ``fin`` line."""
    started: str | None = None
    """When the game began (ISO 8601, UTC), from the header."""
    rewrite: bool = False
    """An older format: the file is written again whole when the game goes on."""
    records: int = 1
    """Records read, the header included: the next record's number."""
    check: int = 0
    """The last record's check, where the chain goes on."""
    lines: int = 0
    """Lines in the file as it was read."""

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
        return self.damage.torn if self.damage is not None else None


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


def _lines(raw: bytes) -> list[bytes]:
    """The lines, without their newlines; a last line without its newline too."""
    lines = raw.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


def _torn_shaped(line: bytes) -> bytes | None:
    """What a last line without its newline held before a power cut tore it
    (the zeros a filesystem may leave after it taken off), or None if it cannot
    be the start of a line we write (it is garbage, not a tear): a tear leaves a
    strict beginning, so never a line that ends as a whole checked line does."""
    kept = line.rstrip(b"\x00")
    if kept and not kept.startswith(b"{"):
        return None
    if len(kept) > _TAIL and kept[-_TAIL:-10] == _CHECK and kept.endswith(b'"}'):
        return None
    try:
        kept.decode("utf-8")
    except UnicodeDecodeError as err:
        if err.reason != "unexpected end of data":  # a tear may split only the last character
            return None
    return kept


def _salvage(line: bytes) -> list[bytes]:
    """The checked lines inside a damaged one: two lines glued together when the
    newline between them changed (the byte before each inner start is dropped)."""
    starts = []
    at = line.find(_START, 1)
    while at >= 0:
        starts.append(at)
        at = line.find(_START, at + 1)
    if not starts:
        return []
    pieces = [line[: starts[0] - 1]]
    for i, begin in enumerate(starts):
        pieces.append(line[begin : starts[i + 1] - 1 if i + 1 < len(starts) else len(line)])
    return pieces


@dataclass
class _Found:
    """A record of a checked journal: its line as written, its check, where it was first read."""

    line: bytes
    check: int
    number: int
    copies: int = 1
    gap_before: int = 0
    """Damaged lines right before it (one of them may have been its other copy)."""


@dataclass
class _Scan:
    """What a checked journal's lines hold, before replaying it."""

    found: list[_Found]
    changed: list[int]
    lost: int | None
    torn: int | None
    trailing: bool


def _scan_checked(lines: list[bytes], ends_whole: bool) -> _Scan:
    """Every record whose line (or its copy) is as written, in order along the
    chain of checks; the lines that are not as written; where the chain breaks."""
    found: list[_Found] = []
    changed: list[int] = []
    gap = 0
    last_match = 0

    def match(piece: bytes, number: int) -> bool:
        nonlocal gap
        if found and piece == found[-1].line:  # its copy
            found[-1].copies += 1
            if found[-1].copies > 2:
                changed.append(number)  # one copy too many
            gap = 0
            return True
        check = _verify(piece, found[-1].check if found else 0)
        if check is None:
            return False
        if found and found[-1].copies < 2 and found[-1].gap_before == 0 and gap == 0:
            changed.append(number)  # the previous record's copy is missing: named where it should be
        found.append(_Found(piece, check, number, gap_before=gap))
        gap = 0
        return True

    torn = None
    for number, line in enumerate(lines, start=1):
        if match(line, number):
            last_match = number
            continue
        if number == len(lines) and not ends_whole:
            kept = _torn_shaped(line)
            if kept is not None:
                if not (found and found[-1].copies == 1 and found[-1].line.startswith(kept)):
                    torn = number  # a record begun and never finished (a torn copy loses nothing)
                break
        if any([match(piece, number) for piece in _salvage(line)]):
            last_match = number
        else:
            gap += 1
        changed.append(number)
    after = [n for n in changed if n > last_match]
    lost = None
    trailing = False
    if len(after) >= 2:  # a record whose two copies are both gone: nothing after it can be checked
        lost = after[0]
        changed = [n for n in changed if n < lost]
    elif after:
        trailing = bool(found) and found[-1].copies >= 2
    return _Scan(found, changed, lost, torn, trailing)


def _header(path: Path, record: object) -> tuple[RuleSet, list[str], str | None]:
    """Rules, players and start time (ISO, UTC) of a journal's header record."""
    try:
        if not isinstance(record, dict):
            raise TypeError(f"a header is an object, not {type(record).__name__}")
        header = record["partida"]
        players = header["jugadores"]
        stored_rules = header["reglas"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players) or not isinstance(stored_rules, dict):
            raise TypeError("players or rules of the wrong type")
    except (ValueError, TypeError, KeyError) as err:
        raise JournalError(messages.not_a_journal(path.name)) from err
    started = header.get("inicio")
    try:
        return rules_from_json(stored_rules), players, started if isinstance(started, str) else None
    except RulesError as err:
        raise JournalError(messages.stored_rules_invalid(path.name), err.reason) from err
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise JournalError(messages.stored_rules_unreadable(path.name)) from err


def _json(line: bytes) -> object:
    return json.loads(line.decode("utf-8"))


def _header_line(raw: bytes) -> tuple[bytes, bool]:
    """The header's line (a checked copy found among the first lines, else an
    older journal's first line) and whether it is checked."""
    lines = _lines(raw[:SNIFF])[:3]
    for line in lines:
        for piece in [line, *_salvage(line)]:
            if _verify(piece, 0) is not None:
                return piece, True
    return (lines[0] if lines else b""), False


def _read(path: Path, size: int = -1) -> bytes:
    """The file's bytes (the first ``size``), or a ``JournalError`` in Spanish:
    a folder, a device or a pipe is never opened (a pipe would hold the table)."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise JournalError(messages.journal_is_folder(path), detail="a directory")
        if not stat.S_ISREG(mode):
            raise JournalError(messages.journal_not_a_file(path), detail=f"not a regular file (mode {mode:o})")
        with open(path, "rb") as file:
            return file.read(size)
    except OSError as err:
        raise JournalError(messages.journal_unreadable(path, err.errno), detail=f"{type(err).__name__}: {err}") from err


def blank(path: Path) -> bool:
    """Is ``path`` an empty file (or only blank lines)? ``JournalError`` in Spanish if it cannot be read."""
    head = _read(path, SNIFF)
    return len(head) < SNIFF and not head.strip()


def load(path: Path) -> Loaded:
    """Rebuild the game in ``path`` by replaying its records once, in order (linear
    time). Raises ``JournalError`` only when nothing of it can be resumed."""
    head = _read(path, SNIFF)
    if len(head) == SNIFF and b'"partida"' not in head:  # a big file that is no journal is not read whole
        raise JournalError(messages.not_a_journal(path.name), detail="no header in the first 64 KB")
    raw = head if len(head) < SNIFF else _read(path)
    if not raw or raw.isspace():
        raise JournalError(messages.empty_journal(path))
    lines = _lines(raw)
    header, checked = _header_line(raw)
    if checked:
        return _load_checked(path, raw, lines)
    try:
        record = _json(header)
    except ValueError as err:
        raise JournalError(messages.not_a_journal(path.name), detail=f"line 1: {err}") from err
    return _load_older(path, raw, lines, record)


def _table(path: Path, header: object) -> tuple[Table, str | None]:
    rules, players, started = _header(path, header)
    try:
        return Table(Game(rules, players)), started
    except RulesError as err:
        raise JournalError(messages.stored_rules_invalid(path.name), err.reason) from err


def _load_checked(path: Path, raw: bytes, lines: list[bytes]) -> Loaded:
    scan = _scan_checked(lines, raw.endswith(b"\n"))
    try:
        header = _json(scan.found[0].line)
    except (IndexError, ValueError) as err:  # its check holds, so only if a change happened to keep it
        raise JournalError(messages.not_a_journal(path.name), detail=f"header: {err!r}") from err
    table, started = _table(path, header)
    lost, detail = scan.lost, ""
    kept = [scan.found[0].line] * 2
    records, check = 1, scan.found[0].check
    for number, record in enumerate(scan.found[1:], start=1):
        try:
            data = _json(record.line)
            if not isinstance(data, dict) or data.get("n") != number:
                raise _Bad(f"record {number} is numbered {data.get('n') if isinstance(data, dict) else None}")
            change = _change(data)
            if change is not None:
                _replay(table, change)
        except (ValueError, RulesError) as err:  # a line whose check holds but does not apply: ours, and wrong
            lost, detail = record.number, f"{type(err).__name__}: {err}"
            break
        kept += (record.line, record.line)
        records, check = number + 1, record.check
    good = b"\n".join(kept) + b"\n"
    changed = tuple(n for n in scan.changed if lost is None or n < lost)
    damage = None
    if changed or lost is not None or scan.torn is not None:
        detail = detail or f"lines not as written: {list(changed)}, lost from: {lost}, torn: {scan.torn}"
        damage = Damage(changed, lost, scan.torn, scan.trailing and lost is None, detail)
    return Loaded(table, path, good, _common_prefix(raw, good), damage, False, started, False, records, check, len(lines))


def _common_prefix(a: bytes, b: bytes | bytearray) -> int:
    """How many leading bytes ``a`` and ``b`` share (compared a block at a time)."""
    limit = min(len(a), len(b))
    step = 65536
    at = 0
    while at < limit and a[at : at + step] == b[at : at + step]:
        at += step
    end = min(at + step, limit)
    while at < end and a[at] == b[at]:
        at += 1
    return min(at, limit)


def _load_older(path: Path, raw: bytes, lines: list[bytes], header: object) -> Loaded:
    """A journal of format 1: one line per record and no checks. Damage ends what
    can be read; it is written again in today's format when the game goes on."""
    table, started = _table(path, header)
    assert isinstance(header, dict)
    upgraded = {**header, "formato": FORMAT}
    line, check = _checked(0, {k: v for k, v in upgraded.items() if k not in ("n", "k")}, 0)
    good = bytearray(line) * 2
    records = 1
    damage: Damage | None = None
    ended = False
    ends_whole = raw.endswith(b"\n")
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            record = _json(line)
            change = _change(record)
            if change is None:
                ended = True
            else:
                _replay(table, change)
                ended = ended and not isinstance(change, Undone)
        except (ValueError, RulesError) as err:  # decoding errors are ValueErrors too
            cut = isinstance(err, (UnicodeDecodeError, json.JSONDecodeError))  # a whole record that reads was never torn
            torn = cut and number == len(lines) and not ends_whole and _torn_shaped(line) is not None
            damage = Damage(lost=None if torn else number, torn=number if torn else None, detail=f"{type(err).__name__}: {err}")
            break
        assert isinstance(record, dict)
        line, check = _checked(records, {k: v for k, v in record.items() if k not in ("n", "k")}, check)
        good += line * 2
        records += 1
    return Loaded(table, path, bytes(good), 0, damage, ended, started, True, records, check, len(lines))


def _replay(table: Table, change: Change) -> None:
    """One record onto the table, all or nothing; an undo with nothing to undo is ignored."""
    if isinstance(change, Undone) and not table.collecting and not table.game.history:
        return
    if isinstance(change, Played) and len(change.actions) > 1:
        trial = Table(table.game.copy(), table.collecting)
        trial.play(change.actions)  # raises before the real table is touched
    table.advance(change)


def _only_a_header(raw: bytes) -> bool:
    """A game started and left before anything was played: its header (and its copy), nothing more."""
    lines = raw.strip().split(b"\n")
    return len(lines) == 1 or (len(lines) == 2 and lines[0] == lines[1])


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
            raw = _read(path)
            if _only_a_header(raw) or _finished_at_a_glance(raw):
                continue  # an empty game, or a finished one
            header, _checked_line = _header_line(raw)
            try:
                record = _json(header)
            except ValueError as err:
                raise JournalError(messages.not_a_journal(path.name), detail=f"header: {err}") from err
            header_rules, header_players, _started = _header(path, record)
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
            if not _finished_at_a_glance(_read(path)):
                continue
            loaded = load(path)
        except JournalError:
            continue
        if not loaded.finished:
            continue
        summary = summarize(loaded)
        if since is None or (summary.started is not None and summary.started >= since):
            found.append(summary)
    return found
