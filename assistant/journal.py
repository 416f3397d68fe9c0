"""The game on disk: one JSON object per line, appended, flushed and fsynced.

Line 1 is the header (rules and players); every accepted utterance adds one
line, all or nothing: ``{"acciones": […], "eventos": […]}`` for actions,
``{"parciales": […]}`` for per-player counts or hands, ``{"deshacer": true}``
for an undo. (Older journals wrote ``{"accion": …}`` per action and a
``{"fin": …}`` line; both are still read.) A power cut can tear only the line being
written: on loading, a last line that is not JSON is dropped with a warning
(and cut from the file, so later appends stay clean); a bad line anywhere
else is an error, never silently skipped.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from assistant.changes import Change, Partial, PartialGiven, Played, Undone
from assistant.rules import Action, Game, Reason, RulesError, RuleSet, action_from_json, action_to_json, event_to_json
from assistant.rules.ruleset import rules_from_json

FORMAT = 1


class JournalError(Exception):
    """A journal that cannot be read back; the message is Spanish, for the player.
    ``reason`` is the rules' own reason when the stored rules are the problem."""

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


def default_dir() -> Path:
    """``$DUDO_DATOS`` or the platform's data directory (``~/.local/share/dudo`` on Linux)."""
    env = os.environ.get("DUDO_DATOS")
    return Path(env) if env else Path(user_data_dir("dudo", appauthor=False))


def games_dir(base: Path | None = None) -> Path:
    return (base or default_dir()) / "partidas"


class Journal:
    """Appends a game's steps to ``path``; every write reaches the disk before
    returning. It is an observer of the referee (``observe``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the game

    @classmethod
    def create(cls, rules: RuleSet, players: tuple[str, ...], path: Path | None = None) -> Journal:
        if path is None:
            folder = games_dir()
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = folder / f"partida-{stamp}.jsonl"
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
        journal = cls(path)
        journal._write(
            {
                "formato": FORMAT,
                "partida": {
                    "reglas": rules.to_json(),
                    "jugadores": list(players),
                    "inicio": datetime.now(UTC).isoformat(timespec="seconds"),
                },
            }
        )
        return journal

    def observe(self, change: Change, game: Game) -> None:
        """One line per accepted utterance."""
        if isinstance(change, Played):
            self._write(
                {
                    "acciones": [action_to_json(a) for a in change.actions],
                    "eventos": [event_to_json(e) for e in change.events],
                }
            )
        elif isinstance(change, PartialGiven):
            self._write({"parciales": [{"tipo": k, "jugador": p, "valor": v} for k, p, v in change.partials]})
        elif isinstance(change, Undone):
            self._write({"deshacer": True})

    def _write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


@dataclass
class Loaded:
    """A journal read back: the rebuilt game and what was noticed on the way."""

    game: Game
    path: Path
    finished: bool
    dropped_line: int | None = None
    """Line number of a torn last line that was dropped, if any."""
    partials: list[Partial] = field(default_factory=list)
    """Per-player counts or hands given after the last step (for the referee)."""


def load(path: Path) -> Loaded:
    """Rebuild the game in ``path`` by replaying its steps."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise JournalError(f"No pude leer el registro {path}: {err.strerror}.") from err
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    records: list[dict[str, Any]] = []
    dropped: int | None = None
    for number, line in enumerate(lines, start=1):
        try:
            records.append(json.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            if number == len(lines) and number > 1:
                dropped = number
                _cut_last_line(path, raw, line)
                break
            raise JournalError(f"El registro {path.name} está dañado en la línea {number}.") from err
    if not records or "partida" not in records[0]:
        raise JournalError(f"{path.name} no es un registro de partida.")
    header = records[0]["partida"]
    try:
        rules = rules_from_json(header["reglas"])
    except RulesError as err:
        raise JournalError(f"Las reglas guardadas en {path.name} no sirven.", err.reason) from err
    # Steps and partial reports form one stack: an undo pops the newest entry,
    # and a step clears the partial reports that led to it.
    entries: list[tuple[str, Any]] = []
    finished = False
    for record in records[1:]:
        if "accion" in record or "acciones" in record:
            entries = [e for e in entries if e[0] == "accion"]
            for action in record.get("acciones", [record.get("accion")]):
                entries.append(("accion", action_from_json(action)))
        elif "parcial" in record or "parciales" in record:
            entries += [("parcial", p) for p in record.get("parciales", [record.get("parcial")])]
        elif record.get("deshacer"):
            if entries:
                entries.pop()
            finished = False
        elif "fin" in record:
            finished = True
    actions: list[Action] = [value for kind, value in entries if kind == "accion"]
    partials = [(p["tipo"], p["jugador"], p["valor"]) for kind, p in entries if kind == "parcial"]
    try:
        game = Game.replay(rules, header["jugadores"], actions)
    except Exception as err:  # a journal from another version of the rules
        raise JournalError(f"No pude rehacer la partida de {path.name}: {err}") from err
    return Loaded(game, path, finished or game.over, dropped, partials)


def _cut_last_line(path: Path, raw: bytes, torn: bytes) -> None:
    """Rewrite the journal without its torn last line (atomically)."""
    keep = raw[: raw.rfind(torn)]
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(keep)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def latest_unfinished(base: Path | None = None) -> Loaded | None:
    """The most recent game that has not ended, already rebuilt (loading is what
    tells whether it ended, and it cuts a torn last line: load once, keep the result)."""
    folder = games_dir(base)
    if not folder.exists():
        return None
    for path in sorted(folder.glob("partida-*.jsonl"), reverse=True):
        try:
            loaded = load(path)
        except JournalError:
            continue
        if not loaded.finished:
            return loaded
    return None
