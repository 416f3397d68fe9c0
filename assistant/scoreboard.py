"""The scoreboard: a read-only page for the table's phones or the bar's TV.

Four paths, all GET (or HEAD): ``/`` (the page, the current state already drawn
in it, every asset inline: it is right before and without JavaScript),
``/estado`` (the state as ``dudo simular --json`` gives it), ``/noche``
(tonight's figures, as ``dudo estadisticas --json`` gives them), ``/eventos``
(server-sent events: the whole view, drawn, after every accepted step, and a
pulse every few seconds so a page knows when it has lost the referee). Any
other path is 404, any other method on these paths 405: nothing can change the
game over HTTP. How it is served (hypercorn, the connection gate, mDNS, the QR
code) is ``screen_server``'s business.

It is an observer of the referee: ``observe`` only stores the new view and
wakes the server's loop, so the referee never waits for a browser; tonight's
figures are read from the journals on one worker thread, once per step and only
when a page asks. A failing server leaves the game as it was.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import json
import logging
import threading
from collections.abc import Callable, Iterable
from datetime import datetime
from importlib import resources
from typing import Any

from assistant import replies, screen_server
from assistant.changes import Answered, Change, Observer, Played
from assistant.rules import Game
from assistant.rules import events as ev
from assistant.screen_server import Announced, Receive, Scope, Send

log = logging.getLogger("dudo")

PULSE_SECONDS = 5.0
"""A pulse this often on every live page: the page says it lost the referee after a few missed."""
RESULTS = (ev.DieLost, ev.PaloTaken, ev.DieGained, ev.PaloReturned, ev.Eliminated, ev.Penalized, ev.PassJudged, ev.Counted)
FICHAS = ("amarilla", "azul", "roja")
"""Chimbo 9's fichas, in the order they are lost."""
ROUNDS_SHOWN = 4
"""The last rounds on the screen (a TV cannot scroll); the view keeps 12."""
GAMES_SHOWN = 3
"""Tonight's finished games listed by name; the rest are counted."""
TABLE_ROWS = 8
"""Rows of the night's table at most (the leaders): it must fit a TV."""
PATHS = ("/", "/estado", "/noche", "/eventos")
H = replies.SCREEN_HEADINGS
parse_address = screen_server.parse_address


class Scoreboard(Observer):
    """Keeps the view up to date and serves it: an observer of the table."""

    def __init__(
        self, host: str | None, port: int, night: Iterable[dict[str, Any]] = (), figures: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.figures = figures or _tonight
        """Tonight's figures (``GET /noche``), read when a page asks for them."""
        self._lock = threading.Lock()
        self._version = 0
        self._view: dict[str, Any] = {}
        self._estado: dict[str, Any] = {}
        self._rounds: list[dict[str, Any]] = []
        self._call: Any = None
        """The round's pending call as it last stood (who called what on whose bid)."""
        self._said = ""
        self.night = list(night)
        self.closed = False
        self._news: asyncio.Event | None = None
        self._payload: tuple[int, dict[str, Any], bytes] | None = None
        self._payload_lock: asyncio.Lock | None = None
        self._figures: dict[str, Any] = {"partidas": 0, "jugadores": {}}
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self.server = screen_server.Server(self._app, host, port)
        self.announced_here: Announced | None = None
        """Set by a test to draw the page as if served elsewhere (None: as it is served)."""
        self._qr: tuple[str, str] = ("", "")

    @property
    def announced(self) -> Announced:
        """Where the page can be opened (it may change once: a network that came up late)."""
        return self.announced_here or self.server.announced

    def _qr_code(self) -> str:
        """The QR code of the LAN address, as inline SVG ("" with none)."""
        ip = self.announced.ip
        if ip is None:
            return ""
        link = screen_server.url(ip, self.announced.port)
        if self._qr[0] != link:
            self._qr = (link, screen_server.qr_svg(link))
        return self._qr[1]

    @property
    def address(self) -> str:
        """The page's main address (the LAN one when served to the network)."""
        return self.announced.main or screen_server.url("127.0.0.1", self.server.port)

    def start(self, game: Game, announce: bool = True) -> None:
        """Show ``game`` (its rounds so far rebuilt from its history) and start serving."""
        self.follow(game)
        self.server.start(announce)

    def follow(self, game: Game) -> None:
        """A new game at the same table ("otra"): its rounds start empty."""
        self._rounds = _rounds_of(game)
        self._call = game.pending
        self._update(game)

    def close(self) -> None:
        self.closed = True
        self.server.close()
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ what the referee tells it

    def observe(self, change: Change, game: Game) -> None:
        if isinstance(change, Played):
            entry = _round_result(game, change.events, self._call)
            if entry is not None:
                self._rounds.append(entry)
        if game.pending is not None:
            self._call = game.pending
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
        with self._lock:
            self._estado = game.picture()
            self._view = view
            self._version += 1
        self.server.call(self._wake)

    def _wake(self) -> None:
        if self._news is not None:
            self._news.set()
            self._news = asyncio.Event()

    # ------------------------------------------------------------------ what the pages read

    @property
    def view(self) -> dict[str, Any]:
        """The current view (what the page shows, as plain data)."""
        with self._lock:
            return self._view

    def estado(self) -> dict[str, Any]:
        with self._lock:
            return self._estado

    async def _current(self) -> tuple[int, dict[str, Any], bytes]:
        """The view with tonight's figures and drawn, as of the current step: the
        figures are read once per step, on the worker thread, by whichever page
        asks first (the others wait for the same reading)."""
        assert self._payload_lock is not None
        async with self._payload_lock:
            with self._lock:
                version, view = self._version, self._view
            if self._payload is not None and self._payload[0] == version:
                return self._payload
            if self._worker is None:
                self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pantalla-cifras")
            try:
                self._figures = await asyncio.get_running_loop().run_in_executor(self._worker, self.figures)
            except Exception:  # the screen never stops on a journal it cannot read
                log.exception("night figures")
            full = {**view, "cifras": self._figures}
            drawn = {**full, "html": board_html(full)}
            self._payload = (version, full, json.dumps(drawn, ensure_ascii=False).encode("utf-8"))
            return self._payload

    # ------------------------------------------------------------------ the ASGI app

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        if self._news is None:
            self._news = asyncio.Event()
            self._payload_lock = asyncio.Lock()
        path, method = scope["path"], scope["method"]
        try:
            if method not in ("GET", "HEAD"):
                await _reply(send, 405 if path in PATHS else 404, b"", "text/plain; charset=utf-8", allow=path in PATHS)
            elif path == "/":
                _, full, _ = await self._current()
                await _reply(send, 200, self.drawn_page(full), "text/html; charset=utf-8", head=method == "HEAD")
            elif path == "/estado":
                body = json.dumps(self.estado(), ensure_ascii=False).encode("utf-8")
                await _reply(send, 200, body, "application/json; charset=utf-8", head=method == "HEAD")
            elif path == "/noche":
                _, full, _ = await self._current()
                body = json.dumps(full["cifras"], ensure_ascii=False).encode("utf-8")
                await _reply(send, 200, body, "application/json; charset=utf-8", head=method == "HEAD")
            elif path == "/eventos" and method == "GET":
                await self._events(scope, receive, send)
            else:
                await _reply(send, 404 if path not in PATHS else 405, b"", "text/plain; charset=utf-8", allow=path in PATHS)
        except (TimeoutError, OSError):
            return  # the client went away or stopped reading: routine

    async def _events(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.server.begin_stream(scope.get("client")):
            await _reply(send, 503, b"", "text/plain; charset=utf-8", retry=True)
            return
        await _send(send, {"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no")]})

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        left = asyncio.ensure_future(gone())
        waiter: asyncio.Future[Any] | None = None
        try:
            await _chunk(send, b"retry: 1000\n\n")
            seen = -1
            while not self.closed and not left.done():
                assert self._news is not None
                news = self._news
                version, _, body = await self._current()
                if version != seen:
                    seen = version
                    await _chunk(send, b"data: " + body + b"\n\n")
                    continue
                if waiter is None or waiter.done():
                    waiter = asyncio.ensure_future(news.wait())
                done, _ = await asyncio.wait([left, waiter], timeout=PULSE_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    await _chunk(send, b"event: pulso\ndata: " + str(seen).encode() + b"\n\n")
        finally:
            left.cancel()
            if waiter is not None:
                waiter.cancel()

    def drawn_page(self, full: dict[str, Any]) -> bytes:
        """The page with ``full`` already drawn in it, and the QR code in its corner."""
        template = page().decode("utf-8")
        corner = ""
        qr = self._qr_code()
        if qr:
            typed = "".join(f"<span>{html.escape(u.removeprefix('http://').rstrip('/'))}</span>" for u in self.announced.urls)
            corner = f'<figure id="qr">{qr}<figcaption>{typed}</figcaption></figure>'
        filled = {
            "TITULO": html.escape(_title(full)),
            "TABLERO": board_html(full),
            "CONEXION": html.escape(replies.screen_updated(datetime.now().strftime("%H:%M:%S"))),
            "QR": corner,
            "VIVO": html.escape(replies.screen_live()),
            "SIN_CONEXION": html.escape(replies.screen_stale("{hora}")),
        }
        for key, value in filled.items():
            template = template.replace("{{" + key + "}}", value)
        return template.encode("utf-8")


def page() -> bytes:
    """The page as the package ships it, before it is drawn (every asset inline)."""
    return resources.files("assistant").joinpath("pantalla.html").read_bytes()


async def _send(send: Send, message: dict[str, Any]) -> None:
    await asyncio.wait_for(send(message), screen_server.WRITE_SECONDS)


async def _chunk(send: Send, data: bytes) -> None:
    await _send(send, {"type": "http.response.body", "body": data, "more_body": True})


async def _reply(send: Send, status: int, body: bytes, kind: str, head: bool = False, allow: bool = False, retry: bool = False) -> None:
    headers = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
    if status == 405 and allow:
        headers.append((b"allow", b"GET, HEAD"))
    if retry:
        headers.append((b"retry-after", b"5"))
    await _send(send, {"type": "http.response.start", "status": status, "headers": headers})
    await _send(send, {"type": "http.response.body", "body": b"" if head else body})


# ------------------------------------------------------------------ the view, as data


def _round_result(game: Game, events: Iterable[ev.Event], call: Any) -> dict[str, Any] | None:
    """How a round ended, for the list (None: these events ended nothing);
    ``game`` is as it stands after them, ``call`` the call that was pending."""
    events = list(events)
    if not any(isinstance(e, RESULTS) for e in events):
        return None
    finished = game.round_number - (1 if any(isinstance(e, ev.RoundStarted) for e in events) else 0)
    return {"ronda": finished, "texto": replies.round_summary(game, call, events)}


def _rounds_of(game: Game) -> list[dict[str, Any]]:
    """The results of the rounds played so far (a resumed game), from its history."""
    found = []
    call = None
    for then, events in game.retold():
        entry = _round_result(then, events, call)
        if entry is not None:
            found.append(entry)
        if then.pending is not None:
            call = then.pending
    return found


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
        "titular": replies.screen_headline(game),
        "le_toca": replies.screen_turn(game),
        "modo": replies.board_mode(game),
        "dijo": said,
        "rondas": rounds[-12:],
        "noche": night + ([{"hora": "ahora", "jugadores": list(game.players), "ganadores": list(game.winners),
                             "rondas": game.round_number, "reglas": rules.name}] if game.over else []),
        "fin": replies.winner(game.winners, replies.payers(game)) if game.over else None,
    }


# ------------------------------------------------------------------ the view, drawn

PIPS = {1: [(50, 50)], 2: [(28, 28), (72, 72)], 3: [(25, 25), (50, 50), (75, 75)],
        4: [(28, 28), (72, 28), (28, 72), (72, 72)], 5: [(25, 25), (75, 25), (50, 50), (25, 75), (75, 75)],
        6: [(28, 22), (72, 22), (28, 50), (72, 50), (28, 78), (72, 78)]}
DICE_DRAWN = 12


def _die(face: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9" fill="{"#c0392b" if face == 1 else "#1b1b1b"}"/>' for x, y in PIPS[face])
    return f'<svg class="dado" viewBox="0 0 100 100"><rect x="4" y="4" width="92" height="92" rx="16" fill="#f4f1e6"/>{pips}</svg>'


def _e(text: Any) -> str:
    return html.escape(str(text))


def _title(full: dict[str, Any]) -> str:
    return replies.screen_title(full["reglas"], full["ronda"])


def _score(p: dict[str, Any], full: dict[str, Any]) -> str:
    if full["unidad"] == "fichas" and not p["fuera"]:
        dots = "".join(f'<span class="ficha {_e(f["color"])}{" perdida" if f["perdida"] else ""}" '
                       f'title="{_e(replies.screen_ficha(f["color"], f["perdida"]))}"></span>' for f in p["fichas"])
        return f'<span class="puntaje">{dots}</span>'
    return f'<span class="puntaje">{_e(replies.screen_score(full["unidad"], p["dados"], p["palos"], p["a_favor"], p["fuera"]))}</span>'


def board_html(full: dict[str, Any]) -> str:
    """The page's board (everything but the connection line and the QR corner),
    drawn from the view: the first paint and every live update use this one drawing."""
    bid = full["apuesta"]
    if bid is not None:
        headline = f'{_e(bid["texto"])}<span class="quien">{_e(replies.screen_bid_by(bid["jugador"]))}</span>'
        dice = "".join(_die(bid["pinta"]) for _ in range(min(bid["cantidad"], DICE_DRAWN))) if isinstance(bid["pinta"], int) else ""
    else:
        headline, dice = _e(full["titular"]), ""
    players = "".join(
        f'<li class="{"turno " if p["turno"] else ""}{"fuera" if p["fuera"] else ""}" data-nombre="{_e(p["nombre"])}">'
        f'<span class="nombre">{"▶ " if p["turno"] else ""}{_e(p["nombre"])}</span>{_score(p, full)}</li>'
        for p in full["jugadores"])
    rounds = "".join(f"<li>{_e(replies.screen_round(r['ronda'], r['texto']))}</li>" for r in reversed(full["rondas"][-ROUNDS_SHOWN:]))
    games = full["noche"]
    listed = "".join(f"<li>{_e(replies.screen_game(g['hora'], g['ganadores'], g['rondas']))}"
                     f"<span class=\"quienes\">{_e(replies.screen_game_players(g['jugadores']))}</span></li>" for g in games[-GAMES_SHOWN:])
    if len(games) > GAMES_SHOWN:
        listed += f'<li class="mas">{_e(replies.screen_more_games(len(games) - GAMES_SHOWN))}</li>'
    night_games = f'<h2>{_e(H["noche"])}</h2><ul id="noche">{listed}</ul>' if games else '<ul id="noche" hidden></ul>'
    return (
        f'<div class="columna" id="izquierda"><section id="juego" aria-live="polite"><h1 id="titulo">{_e(_title(full))}</h1>'
        f'<div id="modo">{_e(full["fin"] or full["modo"])}</div>'
        f'<div id="apuesta">{headline}</div><div id="dados" aria-hidden="true">{dice}</div>'
        f'<div id="le-toca">{_e(full["le_toca"])}</div>'
        f'<div id="sentido">{_e(replies.screen_direction(full["sentido"]))}</div></section>'
        f'<section id="mesa"><h2>{_e(H["jugadores"])}</h2><ol id="jugadores">{players}</ol></section></div>'
        f'<div class="columna" id="derecha"><section id="arbitro"><h2>{_e(H["arbitro"])}</h2><div id="dijo">{_e(full["dijo"] or "")}</div></section>'
        f'<section id="historia"><h2>{_e(H["rondas"])}</h2><ul id="rondas">{rounds}</ul>{night_games}</section>'
        + _figures_html(full.get("cifras") or {"jugadores": {}}) + "</div>"
    )


def _figures_html(cifras: dict[str, Any]) -> str:
    players = cifras.get("jugadores", {})
    if not players:
        return '<section id="cifras" hidden></section>'
    order = sorted(players, key=lambda n: (-players[n]["ganadas"], players[n]["rondas_perdidas"], n))[:TABLE_ROWS]
    rows, panels = [], []
    for i, name in enumerate(order):
        f = players[name]
        values = (name, f["ganadas"], f["terminadas"], f["rondas_perdidas"], replies.screen_of(f["dudas_acertadas"], f["dudas"]),
                  replies.screen_of(f["apuestas_aguantadas"], f["apuestas_dudadas"]))
        cells = "".join(f'<td data-titulo="{_e(title)}">{_e(v)}</td>' for title, v in zip(replies.SCREEN_COLUMNS, values, strict=True))
        lead = ' class="lider"' if i == 0 and f["ganadas"] > 0 else ""
        rows.append(f'<tr data-nombre="{_e(name)}"{lead}>{cells}</tr>')
        panels.append(f'<li data-nombre="{_e(name)}">{_e(replies.screen_player_panel(name, f))}</li>')
    head = "".join(f"<th>{_e(c)}</th>" for c in replies.SCREEN_COLUMNS)
    return (f'<section id="cifras"><h2>{_e(H["cifras"])}</h2><table id="cifras-tabla"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table><ul id="cifras-detalle">{"".join(panels)}</ul></section>')


def night_entry(summary: Any) -> dict[str, Any]:
    """A finished game (``journal.Summary``) as the page lists it."""
    hour = summary.started.astimezone().strftime("%H:%M") if summary.started is not None else "—"
    return {"hora": hour, "jugadores": list(summary.players), "ganadores": list(summary.winners),
            "rondas": summary.rounds, "reglas": summary.rules}


def start(address: str, game: Game, night: Iterable[dict[str, Any]] = (), figures: Callable[[], dict[str, Any]] | None = None,
          announce: bool = True) -> Scoreboard:
    """Serve the scoreboard at ``[HOST:]PUERTO`` (raises ``OSError`` or ``ValueError``);
    without a host, on every interface, announced by mDNS (unless ``announce`` is False)."""
    host, port = parse_address(address)
    board = Scoreboard(host, port, night, figures)
    board.start(game, announce)
    return board


def _tonight() -> dict[str, Any]:
    from assistant import stats

    return stats.night_json()
