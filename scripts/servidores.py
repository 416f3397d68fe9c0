"""Which server for the scoreboard: the same tiny app on four servers, the same abuse.

The measurement behind the choice of hypercorn (README, "El marcador"). It needs
the candidates, which the project does not install; in a throwaway venv:

    python3 -m venv /tmp/servidores && /tmp/servidores/bin/pip install aiohttp uvicorn hypercorn
    /tmp/servidores/bin/python scripts/servidores.py torture KIND N     (KIND: stdlib aiohttp uvicorn hypercorn)

Each server serves /estado (JSON) and /eventos (server-sent events, one every
0.5 s, the disconnects caught as the real page does) on loopback; the abuse is
a live reader, 20 dropped requests and 20 dropped streams (reset before
reading), N half-open connections (a request begun and never finished), then a
slow client (one header byte every 2 s); it reports threads, memory, a new
visitor's time, events still flowing, which half-open connections the server
closes and when, and what the server printed.
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
import struct
import sys
import tempfile
import threading
import time

STATE = json.dumps({"turno": "ana", "apuesta": {"cantidad": 3, "pinta": 3}}).encode()


def serve_stdlib(port: int) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class H(BaseHTTPRequestHandler):
        timeout = 10

        def log_message(self, *a: object) -> None:
            pass

        def do_GET(self) -> None:
            if self.path == "/eventos":
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                try:
                    while True:
                        self.wfile.write(b"data: " + STATE + b"\n\n")
                        self.wfile.flush()
                        time.sleep(0.5)
                except OSError:
                    return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(STATE)))
            self.end_headers()
            self.wfile.write(STATE)

    s = ThreadingHTTPServer(("127.0.0.1", port), H)
    s.daemon_threads = True
    s.request_queue_size = 64
    s.serve_forever()


async def asgi_app(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] != "http":
        if scope["type"] == "lifespan":
            while True:
                m = await receive()
                if m["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        return
    if scope["path"] == "/eventos":
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
            while True:
                await send({"type": "http.response.body", "body": b"data: " + STATE + b"\n\n", "more_body": True})
                await asyncio.sleep(0.5)
        except (ConnectionError, OSError):
            return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": STATE})


def serve_uvicorn(port: int) -> None:
    import uvicorn

    uvicorn.run(asgi_app, host="127.0.0.1", port=port, log_level="warning", loop="asyncio", http="h11", lifespan="off")


def serve_hypercorn(port: int) -> None:
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    c = Config()
    c.bind = [f"127.0.0.1:{port}"]
    c.loglevel = "WARNING"
    asyncio.run(serve(asgi_app, c))  # type: ignore[arg-type]


def serve_aiohttp(port: int) -> None:
    from aiohttp import web

    async def estado(request: web.Request) -> web.Response:
        return web.Response(body=STATE, content_type="application/json")

    async def eventos(request: web.Request) -> web.StreamResponse:
        r = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        try:
            await r.prepare(request)
            while True:
                await r.write(b"data: " + STATE + b"\n\n")
                await asyncio.sleep(0.5)
        except (ConnectionError, OSError):
            return r

    app = web.Application()
    app.router.add_get("/estado", estado)
    app.router.add_get("/eventos", eventos)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


def threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return -1


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return -1


def visit(port: int) -> float:
    t = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /estado HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    assert b"ana" in data, data[:200]
    return time.monotonic() - t


def reset(s: socket.socket) -> None:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def torture(port: int, pid: int, half: int) -> dict[str, object]:
    out: dict[str, object] = {}
    # an SSE reader that counts events while the abuse goes on (the game goes on)
    got: list[float] = []
    stop = threading.Event()

    def reader() -> None:
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /eventos HTTP/1.1\r\nHost: x\r\n\r\n")
        while not stop.is_set():
            try:
                c = s.recv(65536)
            except OSError:
                break
            if not c:
                break
            got.append(time.monotonic())
        s.close()

    r = threading.Thread(target=reader, daemon=True)
    r.start()
    time.sleep(1)
    out["visit_idle_ms"] = round(visit(port) * 1000, 1)
    # 20 dropped requests (sent, reset before reading), 20 dropped event streams
    for path in ("/estado", "/eventos"):
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            reset(s)
    time.sleep(1)
    # half-open: a partial request line, then nothing
    held = []
    t = time.monotonic()
    for _ in range(half):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /estado HTTP/1.1\r\nHost:")
            held.append(s)
        except OSError:
            break
    out["half_open_made"] = len(held)
    out["opening_s"] = round(time.monotonic() - t, 2)
    time.sleep(1)
    out["threads_held"] = threads(pid)
    out["rss_mb_held"] = round(rss_mb(pid), 1)
    lat = []
    for _ in range(5):
        try:
            lat.append(visit(port))
        except Exception as err:
            lat.append(99.0)
            out["visit_error"] = repr(err)
    out["visit_held_ms_max"] = round(max(lat) * 1000, 1)
    before = len(got)
    time.sleep(2)
    out["events_in_2s_held"] = len(got) - before
    # which held connections the server closes, and when
    closed_at: dict[int, float] = {}
    deadline = time.monotonic() + 75
    for s in held:
        s.setblocking(False)
    while time.monotonic() < deadline and len(closed_at) < len(held):
        for i, s in enumerate(held):
            if i in closed_at:
                continue
            try:
                if s.recv(65536) == b"":
                    closed_at[i] = time.monotonic() - t
            except BlockingIOError:
                pass
            except OSError:
                closed_at[i] = time.monotonic() - t
        time.sleep(0.5)
    out["half_open_closed_by_server"] = len(closed_at)
    out["closed_after_s_median"] = round(sorted(closed_at.values())[len(closed_at) // 2], 1) if closed_at else None
    for s in held:
        reset(s)
    # slow client: one header byte every 2 s for 40 s
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    t = time.monotonic()
    slow_closed = None
    for b in b"GET /estado HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaa":
        try:
            s.sendall(bytes([b]))
            s.setblocking(False)
            try:
                if s.recv(100) == b"":
                    slow_closed = time.monotonic() - t
                    break
            except BlockingIOError:
                pass
            s.setblocking(True)
        except OSError:
            slow_closed = time.monotonic() - t
            break
        time.sleep(2)
        if time.monotonic() - t > 40:
            break
    out["slow_client_closed_after_s"] = None if slow_closed is None else round(slow_closed, 1)
    reset(s)
    stop.set()
    out["threads_end"] = threads(pid)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        {"stdlib": serve_stdlib, "uvicorn": serve_uvicorn, "hypercorn": serve_hypercorn, "aiohttp": serve_aiohttp}[sys.argv[2]](int(sys.argv[3]))
    else:
        import subprocess

        kind, half = sys.argv[2], int(sys.argv[3])
        with socket.socket() as p:
            p.bind(("127.0.0.1", 0))
            port = p.getsockname()[1]
        err = open(os.path.join(tempfile.gettempdir(), f"servidores-{kind}-{half}.err"), "w+")  # noqa: SIM115
        proc = subprocess.Popen([sys.executable, __file__, "serve", kind, str(port)], stderr=err, stdout=err)
        for _ in range(100):
            try:
                visit(port)
                break
            except OSError:
                time.sleep(0.1)
        res = torture(port, proc.pid, half)
        time.sleep(1)
        err.seek(0)
        text = err.read()
        res["stderr_lines"] = len(text.splitlines())
        res["tracebacks"] = text.count("Traceback")
        print(json.dumps({"server": kind, "half_open": half, **res}), flush=True)
        proc.kill()
        proc.wait()
