"""The scoreboard: a read-only page for the table's phones or the bar's TV.

The web stack is the standard library's threaded ``http.server``: nothing to
install on a Pi, a thread per open page (ten phones are ten idle threads),
server-sent events for live updates (the browser's ``EventSource`` reconnects by
itself). Four paths, all GET: ``/`` (the page, every asset inline, no
internet needed), ``/estado`` (the state as ``dudo simular --json`` gives it),
``/noche`` (tonight's figures, as ``dudo estadisticas --json`` gives them),
``/eventos`` (the whole view after every accepted step, tonight's figures
with it). Any other path is 404, any other method on these paths 405: nothing
can change the game over HTTP.

It is an observer of the referee: ``observe`` only stores the new view and
wakes the waiting pages, so the referee never waits for a browser (tonight's
figures are read from the journals by the server's threads, once per step);
a failing server leaves the game as it was.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from assistant import replies
from assistant.changes import Answered, Change, Observer, Played
from assistant.rules import Game
from assistant.rules import events as ev

log = logging.getLogger("dudo")

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps idle connections (and proxies) open."""
RESULTS = (ev.DieLost, ev.PaloTaken, ev.DieGained, ev.PaloReturned, ev.Eliminated, ev.Penalized, ev.PassJudged, ev.Counted)
FICHAS = ("amarilla", "azul", "roja")
"""Chimbo 9's fichas, in the order they are lost."""


def parse_address(text: str) -> tuple[str, int]:
    """``PUERTO`` or ``HOST:PUERTO``; the host defaults to 127.0.0.1 (this machine only)."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(text)
    return (host.strip("[]") or "127.0.0.1"), int(port)


class Scoreboard(Observer):
    """Serves the page and keeps the view up to date: an observer of the table."""

    def __init__(
        self, host: str, port: int, night: Iterable[dict[str, Any]] = (), figures: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self._changed = threading.Condition()
        self.figures = figures or _tonight
        """Tonight's figures (``GET /noche``), read when a page asks for them."""
        self._figures_cache: tuple[int, dict[str, Any]] | None = None
        self._figures_lock = threading.Lock()
        self._version = 0
        self._view: dict[str, Any] = {}
        self._estado: dict[str, Any] = {}
        self._rounds: list[dict[str, Any]] = []
        self._said = ""
        self.night = list(night)
        self.closed = False
        handler = type("Handler", (_Handler,), {"board": self})
        self.server = _Server((host, port), handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self._serve, name="pantalla", daemon=True)

    @property
    def address(self) -> str:
        host, port = self.server.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def start(self, game: Game) -> None:
        """Show ``game`` (its rounds so far rebuilt from its history) and start serving."""
        self.follow(game)
        self._thread.start()

    def follow(self, game: Game) -> None:
        """A new game at the same table ("otra"): its rounds start empty."""
        self._rounds = _rounds_of(game)
        self._update(game)

    def _serve(self) -> None:
        try:
            self.server.serve_forever(poll_interval=0.2)
        except Exception:  # the game goes on without its screen
            log.exception("scoreboard server stopped")

    def close(self) -> None:
        self.closed = True
        with self._changed:
            self._changed.notify_all()
        self.server.shutdown()
        self.server.server_close()

    # ------------------------------------------------------------------ what the referee tells it

    def observe(self, change: Change, game: Game) -> None:
        if isinstance(change, Played):
            entry = _round_result(game, change.events)
            if entry is not None:
                self._rounds.append(entry)
        # an undo back into a round takes its result off the list
        self._rounds = [r for r in self._rounds if r["ronda"] < game.round_number or game.over]
        self._update(game)

    def answered(self, said: Answered, game: Game) -> None:
        """What the referee answered, for the screen."""
        self.said(said.reply, game)

    def said(self, text: str, game: Game) -> None:
        """The referee's last words (an answer, or its opening), for the screen."""
        self._said = text
        self._update(game)

    def _update(self, game: Game) -> None:
        view = _view(game, self._rounds, self._said, self.night)
        with self._changed:
            self._estado = game.picture()
            self._view = view
            self._version += 1
            self._changed.notify_all()

    # ------------------------------------------------------------------ what the pages read

    def estado(self) -> dict[str, Any]:
        with self._changed:
            return self._estado

    def night_figures(self) -> dict[str, Any]:
        """Tonight's figures as of the current step, read once per step (by whichever page asks first)."""
        with self._figures_lock:
            version = self._version
            if self._figures_cache is None or self._figures_cache[0] != version:
                try:
                    self._figures_cache = (version, self.figures())
                except Exception:  # the screen never stops on a journal it cannot read
                    log.exception("night figures")
                    self._figures_cache = (version, {"partidas": 0, "jugadores": {}})
            return self._figures_cache[1]

    def wait_newer(self, seen: int, timeout: float) -> tuple[int, dict[str, Any] | None]:
        """The view once it is newer than version ``seen`` (None after ``timeout``)."""
        with self._changed:
            if self._version == seen and not self.closed:
                self._changed.wait(timeout)
            if self._version == seen or self.closed:
                return seen, None
            return self._version, self._view


def _round_result(game: Game, events: Iterable[ev.Event]) -> dict[str, Any] | None:
    """How a round ended, for the list (None: these events ended nothing);
    ``game`` is as it stands after them."""
    events = list(events)
    if not any(isinstance(e, RESULTS) for e in events):
        return None
    finished = game.round_number - (1 if any(isinstance(e, ev.RoundStarted) for e in events) else 0)
    return {"ronda": finished, "texto": replies.result(game, [e for e in events if not isinstance(e, (ev.RoundStarted, ev.GameOver))])}


def _rounds_of(game: Game) -> list[dict[str, Any]]:
    """The results of the rounds played so far (a resumed game), from its history."""
    return [entry for then, events in game.retold() if (entry := _round_result(then, events)) is not None]


def _view(game: Game, rounds: list[dict[str, Any]], said: str, night: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything the page shows, as plain data: the game's picture (``Game.picture``)
    laid out for the page, and the words from ``replies``."""
    rules = game.rules
    shown = game.picture(detail=True)
    seats = []
    for seat in shown["jugadores"]:
        entry: dict[str, Any] = {
            "nombre": seat["nombre"], "dados": seat["dados"], "palos": seat["palos"], "a_favor": seat["a_favor"],
            "fuera": seat["eliminado"], "turno": seat["nombre"] == shown["turno"] and not game.over,
        }
        if rules.scoring == "fichas":
            entry["fichas"] = [{"color": color, "perdida": i < seat["palos"]} for i, color in enumerate(FICHAS[: rules.loss_limit])]
        seats.append(entry)
    bid = None
    if game.bid is not None:
        bid = {"texto": replies.say(game, game.bid), "cantidad": game.bid.quantity,
               "pinta": "estas" if game.bid.face == 0 else game.bid.face, "jugador": game.bidder}
    return {
        "estado": game.picture(),
        "reglas": rules.name,
        "unidad": rules.scoring,
        "limite": rules.loss_limit,
        "ronda": shown["ronda"],
        "sentido": shown["sentido"],
        "jugadores": seats,
        "apuesta": bid,
        "modo": replies.board_mode(game),
        "dijo": said,
        "rondas": rounds[-12:],
        "noche": night + ([{"hora": "ahora", "jugadores": list(game.players), "ganadores": list(game.winners),
                             "rondas": game.round_number, "reglas": rules.name}] if game.over else []),
        "fin": replies.winner(game.winners, replies.payers(game)) if game.over else None,
    }


def page() -> bytes:
    return resources.files("assistant").joinpath("pantalla.html").read_bytes()


class _Server(ThreadingHTTPServer):
    request_queue_size = 64
    """A room full of phones opening the page at once (the default backlog is 5)."""


class _Handler(BaseHTTPRequestHandler):
    board: Scoreboard
    server_version = "dudo"
    sys_version = ""
    PATHS = ("/", "/estado", "/noche", "/eventos")

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("pantalla: " + format, *args)

    def _path(self) -> str:
        return urlsplit(self.path).path

    def _send(self, status: int, body: bytes, kind: str, head_only: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if status == 405:
            self.send_header("Allow", "GET, HEAD")
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def do_GET(self) -> None:
        self._get(head_only=False)

    def do_HEAD(self) -> None:
        self._get(head_only=True)

    def _get(self, head_only: bool) -> None:
        path = self._path()
        if path == "/":
            self._send(200, page(), "text/html; charset=utf-8", head_only)
        elif path == "/estado":
            body = json.dumps(self.board.estado(), ensure_ascii=False).encode("utf-8")
            self._send(200, body, "application/json; charset=utf-8", head_only)
        elif path == "/noche":
            body = json.dumps(self.board.night_figures(), ensure_ascii=False).encode("utf-8")
            self._send(200, body, "application/json; charset=utf-8", head_only)
        elif path == "/eventos" and not head_only:
            self._events()
        else:
            self._send(404 if path not in self.PATHS else 405, b"", "text/plain; charset=utf-8", head_only)

    def _refuse(self) -> None:
        self._send(405 if self._path() in self.PATHS else 404, b"", "text/plain; charset=utf-8")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("do_"):  # POST, PUT, DELETE… or any other method: never a change
            return self._refuse
        raise AttributeError(name)

    def _events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = 0
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while not self.board.closed:
                seen, view = self.board.wait_newer(seen, KEEPALIVE_SECONDS)
                if view is None:
                    self.wfile.write(b": sigo\n\n")
                else:
                    view = {**view, "cifras": self.board.night_figures()}
                    self.wfile.write(b"data: " + json.dumps(view, ensure_ascii=False).encode("utf-8") + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            return


def night_entry(summary: Any) -> dict[str, Any]:
    """A finished game (``journal.Summary``) as the page lists it."""
    hour = summary.started.astimezone().strftime("%H:%M") if summary.started is not None else "—"
    return {"hora": hour, "jugadores": list(summary.players), "ganadores": list(summary.winners),
            "rondas": summary.rounds, "reglas": summary.rules}


def start(address: str, game: Game, night: Iterable[dict[str, Any]] = (), figures: Callable[[], dict[str, Any]] | None = None) -> Scoreboard:
    """Serve the scoreboard at ``[HOST:]PUERTO`` (raises ``OSError`` or ``ValueError``)."""
    host, port = parse_address(address)
    board = Scoreboard(host, port, night, figures)
    board.start(game)
    return board


def _tonight() -> dict[str, Any]:
    from assistant import stats

    return stats.night_json()
