"""The night's figures, counted from the journals: nothing new is stored.

Every figure comes from replaying a journal (so a corrected step is not
counted, a resumed game counts once, a damaged one up to its damage; see
``rules.figures`` for what is counted). An index (``estadisticas.json`` beside
the games) keeps each journal's figures by its size and modification time, so
a year of games reads in well under a second; it is only a cache, rebuilt from
the journals when it is lost, stale or unreadable.
"""

from __future__ import annotations

import json
import logging
import os
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from assistant import journal as journal_module
from assistant.rules.figures import GameFigures, Period, Totals, evening, game_figures, totals

log = logging.getLogger("dudo")

INDEX = "estadisticas.json"
INDEX_FORMAT = 1


def journals(base: Path | None = None) -> list[Path]:
    """Every journal of a game played at a table, oldest first. Simulations and
    replays are kept apart (``simuladas/``) and never counted; one an older
    version left among the games (``simulada-…``) is not counted either."""
    folder = journal_module.games_dir(base)
    if not folder.is_dir():
        return []
    return sorted(folder.glob("partida-*.jsonl"))


class Book:
    """Every journal's figures, from the index when the file has not changed since."""

    def __init__(self, base: Path | None = None) -> None:
        self.base = base
        self.path = journal_module.games_dir(base) / INDEX
        self._entries: dict[str, dict[str, Any]] = self._read()
        self._dirty = False

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
            if data.get("formato") == INDEX_FORMAT and isinstance(data.get("partidas"), dict):
                return dict(data["partidas"])
        except (OSError, ValueError, AttributeError):
            pass
        return {}

    def games(self, period: Period | None = None) -> list[GameFigures]:
        """Every game (read from the index, or replayed when new or changed), oldest
        first; with ``period``, journals named for another day are not even opened."""
        found = []
        paths = journals(self.base)
        for path in paths:
            if period is not None and not _may_hold(path, period):
                continue
            entry = self._entry(path)
            if entry is not None:
                found.append(entry)
        names = {p.name for p in paths}
        if set(self._entries) - names:
            self._entries = {k: v for k, v in self._entries.items() if k in names}
            self._dirty = True
        self.save()
        return found

    def _entry(self, path: Path) -> GameFigures | None:
        try:
            st = path.stat()
        except OSError:
            return None
        stamp = [st.st_size, st.st_mtime_ns]
        cached = self._entries.get(path.name)
        if cached is not None and cached.get("sello") == stamp:
            try:
                return GameFigures.from_json(cached["partida"])
            except (KeyError, ValueError, TypeError):
                pass
        try:
            loaded = journal_module.load(path)
        except journal_module.JournalError:
            return None
        started = _started(loaded.path)
        figures = game_figures(loaded.game, path.name, started)
        self._entries[path.name] = {"sello": stamp, "partida": figures.to_json()}
        self._dirty = True
        return figures

    def save(self) -> None:
        """Write the index (atomically); a folder that cannot be written keeps no index."""
        if not self._dirty:
            return
        try:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"formato": INDEX_FORMAT, "partidas": self._entries}, ensure_ascii=False), "utf-8")
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError:
            log.warning("statistics index %s cannot be written", self.path, exc_info=True)


_NAMED_ON = re.compile(r"-(\d{8})-\d{6}-")


def _may_hold(path: Path, period: Period) -> bool:
    """Could the game in ``path`` have started in ``period``? Its name says the day
    it began (a day either side allowed, for time zones); a name that says nothing, yes."""
    found = _NAMED_ON.search(path.name)
    if found is None:
        return True
    day = datetime.strptime(found[1], "%Y%m%d").date()
    if period.since is not None and day < period.since.date() - timedelta(days=1):
        return False
    return not (period.until is not None and day > period.until.date() + timedelta(days=1))


def _started(path: Path) -> datetime | None:
    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline().decode("utf-8"))
        text = header["partida"].get("inicio")
        return datetime.fromisoformat(text) if isinstance(text, str) else None
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None


def night(base: Path | None = None, moment: datetime | None = None) -> Totals:
    """Tonight's figures, from every journal of this evening (the game in play included)."""
    period = evening(moment)
    return totals(Book(base).games(period), period)


def night_json(base: Path | None = None, moment: datetime | None = None) -> dict[str, Any]:
    """Tonight's figures in the shape ``dudo estadisticas --json`` prints (``GET /noche``)."""
    period = evening(moment)
    return {**period.to_json(), **totals(Book(base).games(period), period).to_json()}
