"""How the scoreboard is served: where, to whom, and how it stands up to a bar's network.

Hypercorn (asyncio, pure Python) serves the page's ASGI app on one thread of
its own: a page open on a phone is an idle connection, not a thread. Hypercorn
was chosen by measurement (``scripts/bench.py servidores``): of the standard
library's threaded server, aiohttp, uvicorn and hypercorn, only hypercorn
closes a connection that never finishes its request (half-open, or one header
byte every two seconds) on its own; the threaded server grew a thread per such
connection, uvicorn and aiohttp kept them for ever or for 75 s.

In front of hypercorn sits a small gate, the only part written here: it counts
open connections and, past ``MAX_CONNECTIONS``, drops the oldest one that is
not a live page (a half-open connection, an idle keep-alive), so a crowd of
broken clients can never fill the process's file descriptors (the journal needs
them) nor lock out a new phone. Live pages are capped at ``MAX_STREAMS``.

Where: without a host the page is served on every interface, and
``addresses`` gives it as a phone can open it: the machine's LAN address, and
a name announced by mDNS (zeroconf: ``dudo.local``, or ``dudo-2.local`` when
another table already took it). A QR code (segno) carries the LAN address.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("dudo.pantalla")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_CONNECTIONS = 256
"""Open connections at most (a table has a dozen phones and a TV); past it the
oldest that is not a live page is dropped. Well under the Pi's default limit of
1,024 open files."""
MAX_STREAMS = 128
"""Live pages (server-sent events) at most; one more is told 503 and retries."""
REQUEST_SECONDS = 10.0
"""A connection has this long to finish a request (and an idle keep-alive to
send the next): half-open and slow clients are closed after it."""
WRITE_SECONDS = 10.0
"""A client that reads nothing for this long while we write to it is dropped."""
NAME = "dudo"
"""The name announced on the network: ``dudo.local``."""
NAME_TRIES = 9
"""dudo, dudo-2 … dudo-9: one per table in the same bar."""
NETWORK_SECONDS = 5.0
"""With no network at start, how often to look for one."""
LOOKUP_SECONDS = 0.6
"""How long to listen for another machine already answering to a name."""


def parse_address(text: str) -> tuple[str | None, int]:
    """``PUERTO`` (every interface: None) or ``HOST:PUERTO``; ``ValueError`` otherwise."""
    host, _, port = text.strip().rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(text)
    host = host.strip("[]")
    return (host or None), int(port)


def is_loopback(host: str | None) -> bool:
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str | None) -> bool:
    return host in (None, "", "0.0.0.0", "::")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the same network can reach: the
    one the default route leaves from first, then the other non-loopback ones."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("198.51.100.1", 9))  # a route lookup only: UDP connect sends nothing
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        import ifaddr

        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if ip.is_IPv4 and isinstance(ip.ip, str) and ip.ip not in found:
                    found.append(ip.ip)
    except (OSError, ImportError, ValueError):
        pass
    usable = []
    for text in found:
        address = ipaddress.ip_address(text)
        if not (address.is_loopback or address.is_link_local or address.is_unspecified):
            usable.append(text)
    return usable


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def qr_text(link: str) -> str:
    """The QR code of ``link`` for a terminal: two rows per line in half blocks."""
    import io

    import segno

    out = io.StringIO()
    segno.make(link, error="m").terminal(out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as inline SVG, dark on light (the page puts it in a corner)."""
    import segno

    svg: str = segno.make(link, error="m").svg_inline(scale=4, border=2, dark="#10231a", light="#f4f1e6", omitsize=True)
    return svg


@dataclass
class _Connection:
    writer: asyncio.StreamWriter
    opened: float
    stream: bool = False


@dataclass
class Announced:
    """Where the page can be opened, as a person at the table needs it."""

    urls: list[str] = field(default_factory=list)
    """Best first: the LAN address, then the mDNS name."""
    ip: str | None = None
    name: str | None = None
    """``dudo.local`` (None when nothing was announced)."""
    port: int = 0
    waiting: bool = False
    """Served to the network, but the machine is on none yet (the address comes later)."""

    @property
    def main(self) -> str:
        return self.urls[0] if self.urls else ""


class Server:
    """Serves ``app`` on its own thread; ``close`` stops it and every connection."""

    def __init__(self, app: App, host: str | None, port: int) -> None:
        self.app = app
        self.host = host
        self.sockets = _listen(host, port)  # OSError here: the port is busy or the host is not ours
        self.port = int(self.sockets[0].getsockname()[1])
        self.loop = asyncio.new_event_loop()
        self.open: dict[Any, _Connection] = {}
        self.streams = 0
        self.dropped = 0
        """Connections dropped by the gate (for the tests and the bench)."""
        self.announced = Announced(port=self.port)
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._zeroconf: Any = None
        self._late: asyncio.Future[None] | None = None
        self._registering: asyncio.Future[Any] | None = None
        self._thread = threading.Thread(target=self._run, name="pantalla", daemon=True)

    # ------------------------------------------------------------------ from the referee's thread

    def start(self, announce: bool = True, wait: float = 3.0) -> Announced:
        """Start serving; with ``announce`` (and a host that is not loopback) the
        name is announced on the network. Returns where the page is, once known."""
        self._announce = announce and not is_loopback(self.host)
        self._thread.start()
        self._ready.wait(wait)
        return self.announced

    def call(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` in the server's loop (never waits; nothing once closed)."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(callback)

    def close(self) -> None:
        if self._thread.is_alive() and self._stop is not None:
            stop = self._stop
            self.call(stop.set)
            self._thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()

    # ------------------------------------------------------------------ the server's thread

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.set_exception_handler(_quiet)
        try:
            self.loop.run_until_complete(self._main())
        except Exception:  # the game goes on without its screen
            log.exception("scoreboard server stopped")
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    async def _main(self) -> None:
        from hypercorn.app_wrappers import ASGIWrapper
        from hypercorn.asyncio.tcp_server import TCPServer
        from hypercorn.asyncio.worker_context import WorkerContext
        from hypercorn.config import Config

        self._stop = asyncio.Event()
        config = Config()
        config.keep_alive_timeout = REQUEST_SECONDS
        config.h11_max_incomplete_size = 8 * 1024
        config.include_server_header = False
        config.accesslog = None
        config.errorlog = log
        config.graceful_timeout = 0.5
        wrapped = ASGIWrapper(self.app)  # type: ignore[arg-type]
        context = WorkerContext(None)
        state: dict[str, Any] = {}

        async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            key = writer.get_extra_info("peername")
            if key is None:
                writer.transport.abort()
                return
            key = tuple(key[:2])
            self.open[key] = _Connection(writer, time.monotonic())
            if len(self.open) > MAX_CONNECTIONS:
                self._drop_oldest(keep=key)
            try:
                await TCPServer(wrapped, self.loop, config, context, state, reader, writer)
            except (OSError, asyncio.IncompleteReadError):
                pass
            except Exception:
                log.debug("pantalla: connection", exc_info=True)
            finally:
                gone = self.open.get(key)
                if gone is not None and gone.writer is writer:
                    del self.open[key]
                    if gone.stream:
                        self.streams -= 1

        servers = [await asyncio.start_server(connected, sock=sock, backlog=128) for sock in self.sockets]
        if self._announce:
            await self._announce_name()
        else:
            self.announced.urls = [url(self.host or "127.0.0.1", self.port)]
        self._ready.set()
        await self._stop.wait()
        for server in servers:
            server.close()
        for conn in list(self.open.values()):
            conn.writer.transport.abort()
        if self._zeroconf is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._zeroconf.async_close(), 2)
        for task in [t for t in asyncio.all_tasks(self.loop) if t is not asyncio.current_task()]:
            task.cancel()
        await asyncio.sleep(0)

    def _drop_oldest(self, keep: Any) -> None:
        """The gate is full: drop the oldest connection that is not a live page
        (or, when all are live pages, the newcomer)."""
        waiting = [(c.opened, k) for k, c in self.open.items() if not c.stream and k != keep]
        victim = min(waiting)[1] if waiting else keep
        conn = self.open.pop(victim, None)
        if conn is not None:
            conn.writer.transport.abort()
            self.dropped += 1

    def begin_stream(self, client: Any) -> bool:
        """A live page starts on ``client``'s connection; False when there are too many."""
        conn = self.open.get(tuple(client[:2])) if client else None
        if conn is None or self.streams >= MAX_STREAMS:
            return False
        conn.stream = True
        self.streams += 1
        return True

    async def _announce_name(self) -> None:
        """The LAN address and a free ``dudo[-N].local`` name, announced by mDNS.
        With no network yet (a Pi whose Wi-Fi comes up after the referee), it
        keeps looking in the background: the page gains its address and QR code then."""
        ips = [self.host] if self.host and not is_wildcard(self.host) else lan_addresses()
        if not ips:
            self.announced.urls = [url("127.0.0.1", self.port)]
            self.announced.waiting = True
            self._late = asyncio.ensure_future(self._await_network())
            return
        name = None
        try:
            name = await self._register(ips)
        except Exception:  # no multicast here (no network, a locked-down service): the address is enough
            log.warning("pantalla: no mDNS", exc_info=True)
        self.announced = Announced([url(ips[0], self.port)] + ([url(name, self.port)] if name else []), ips[0], name, self.port)

    async def _await_network(self) -> None:
        while not lan_addresses():
            await asyncio.sleep(NETWORK_SECONDS)
        await self._announce_name()

    async def _register(self, ips: list[str]) -> str | None:
        from zeroconf import IPVersion, ServiceInfo
        from zeroconf._services.info import AddressResolverIPv4
        from zeroconf.asyncio import AsyncZeroconf

        if not ips:
            return None
        zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
        self._zeroconf = zc
        ours = set(ips)
        for n in range(1, NAME_TRIES + 1):
            host = NAME if n == 1 else f"{NAME}-{n}"
            resolver = AddressResolverIPv4(f"{host}.local.")
            if await resolver.async_request(zc.zeroconf, int(LOOKUP_SECONDS * 1000)) and set(resolver.parsed_addresses()) - ours:
                continue  # another table answers to this name
            info = ServiceInfo(
                "_http._tcp.local.", f"Dudo {host}._http._tcp.local.", port=self.port, parsed_addresses=ips,
                server=f"{host}.local.", properties={"path": "/"},
            )
            # probing and announcing go on in the background: the table is not kept waiting for them
            self._registering = asyncio.ensure_future(zc.async_register_service(info, allow_name_change=True))
            self._registering.add_done_callback(_logged)
            return f"{host}.local"
        return None


def _listen(host: str | None, port: int) -> list[socket.socket]:
    """The listening sockets: every interface (IPv6 and IPv4 together where the
    system has both), or ``host`` alone."""
    if is_wildcard(host) and host != "0.0.0.0":
        try:
            sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        except OSError:
            sock = None
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                sock.bind(("::", port))
                sock.listen(128)
                sock.setblocking(False)
                return [sock]
            except OSError:
                sock.close()
        host = "0.0.0.0"
    family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return [sock]


def _logged(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("pantalla: mDNS", exc_info=task.exception())


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """A client that vanished mid-write is routine: to the log, never the terminal."""
    log.debug("pantalla: %s", context.get("message"), exc_info=context.get("exception"))
