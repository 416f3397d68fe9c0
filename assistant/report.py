"""What the journals tell in the terminal: ``dudo historial`` (finished games)
and ``dudo estadisticas`` (the figures of a period, as tables with rich, which
typer already brings, or as JSON), and the moments a period is asked in."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from typing import Any

from assistant import journal as journal_module
from assistant import messages, replies, stats
from assistant.rules.figures import EVENING_STARTS, LOSS_KINDS, Period, Totals, evening, totals


def moment(text: str | None, end: bool) -> datetime | None:
    """"2026-11-20" is that night (from 6 a.m.; as an end, until 6 a.m. the next
    day); "2026-11-20T21:00" that moment, in local time. Raises ``ValueError``."""
    if not text:
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        try:
            when = datetime.fromisoformat(text.replace(" ", "T"))
        except ValueError:
            raise ValueError(text) from None  # the words the user typed, for the message
        return when if when.tzinfo is not None else when.astimezone()
    start = datetime.combine(day, EVENING_STARTS).astimezone()
    return start + timedelta(days=1) if end else start


def print_history() -> None:
    """Every finished game, one line each."""
    games = journal_module.finished_games()
    if not games:
        print(replies.no_history())
    for g in games:
        started = g.started.astimezone().strftime("%Y-%m-%d %H:%M") if g.started is not None else "—"
        print(replies.history_line(started, g.players, g.rules, g.winners, g.rounds, g.lost_most, g.scoring))


def period(since: str | None, until: str | None, player: str | None, tonight: bool) -> Period:
    """The period asked on the command line (tonight's by default with ``tonight``). Raises ``ValueError``."""
    base = evening() if tonight else Period()
    return Period(moment(since, end=False) or base.since, moment(until, end=True) or base.until, player)


def print_figures(asked: Period, as_json: bool) -> None:
    figures = totals(stats.Book().games(asked), asked)
    if as_json:
        print(json.dumps({**asked.to_json(), **figures.to_json()}, ensure_ascii=False, indent=1))
    else:
        print_tables(figures, asked)


def print_tables(totals: Totals, period: Period) -> None:
    from rich import box
    from rich.console import Console

    console = Console(highlight=False)
    if not totals.games:
        console.print(messages.NO_GAMES)
        return
    since = period.since.strftime("%Y-%m-%d %H:%M") if period.since else None
    until = period.until.strftime("%Y-%m-%d %H:%M") if period.until else None
    table = _table(messages.stats_title(totals.games, since, until), messages.STATS_COLUMNS, box)
    example = None
    for name, f in totals.players.items():
        biggest = replies.bid_figures(f.biggest) if f.biggest is not None else "—"
        pairs = [(key, f[right], f[tried]) for key, right, tried in _PAIRS]
        table.add_row(name, _of(*pairs[0][1:]), str(f["rondas_perdidas"]), *(_of(r, t) for _, r, t in pairs[1:]), biggest)
        if example is None:  # the legend explains a cell that is in this very table
            example = next(((key, _TITLES[key], name, r, t) for key, r, t in pairs if t), None)
    table.caption = messages.stats_caption(example, totals.games - totals.finished, totals.games)
    console.print(table)
    losses = _table(messages.LOSSES_TITLE, messages.LOSS_COLUMNS, box)
    for name, f in totals.players.items():
        losses.add_row(name, *(str(f.lost[k]) for k in LOSS_KINDS))
    console.print(losses)


_PAIRS = (
    # the table's "a de b" columns: (legend key, the count of right ones, the count of tries)
    ("ganadas", "ganadas", "terminadas"), ("dudas", "dudas_acertadas", "dudas"), ("calzos", "calzos_acertados", "calzos"),
    ("pasos", "pasos_pillados", "pasos"), ("aguantadas", "apuestas_aguantadas", "apuestas_dudadas"),
)
_TITLES = dict(zip((k for k, _, _ in _PAIRS), (messages.STATS_COLUMNS[i].replace("\n", " ") for i in (1, 3, 4, 5, 6)), strict=True))


def _table(title: str, columns: tuple[str, ...], box: Any) -> Any:
    from rich.table import Table

    table = Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False)
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 else "right", no_wrap=True)
    return table


def _of(right: int, tried: int) -> str:
    """"2 de 5"; a dash when nothing was tried."""
    return messages.OF.format(right=right, tried=tried) if tried else "—"
