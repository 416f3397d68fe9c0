"""The scoreboard's server from outside, as a bar's network treats it: a whole
``dudo jugar --pantalla`` process under abuse (dropped requests, hundreds of
half-open connections, a slow client, a page that never reads), and the address
a phone on another host of the network is given (network namespaces: the
referee and a phone as two hosts joined by a cable; nothing leaves this machine)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assistant import screen_server
from tests.test_crash import dudo_command
from tests.test_scoreboard import free_port, request


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no thread count")


def reset(s: socket.socket) -> None:
    """Close with a TCP reset, as a phone that locks mid-request."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def visit(port: int, path: str = "/estado") -> tuple[float, dict[str, Any]]:
    """A new visitor: seconds until the whole answer, and the answer."""
    started = time.monotonic()
    status, body = request(f"http://127.0.0.1:{port}{path}")
    assert status == 200
    return time.monotonic() - started, json.loads(body)


class Referee:
    """``dudo jugar --texto`` with the screen on, fed line by line; its terminal kept in files."""

    def __init__(self, tmp_path: Path, screen: str, wrap: list[str] | None = None) -> None:
        self.out = (tmp_path / "salida.txt").open("w+", encoding="utf-8")
        self.err = (tmp_path / "errores.txt").open("w+", encoding="utf-8")
        env = {**os.environ, "DUDO_DATOS": str(tmp_path / "datos"), "DUDO_MODELO": "", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([*(wrap or []), *dudo_command(), "jugar", "--texto", "--nueva", "--jugadores", "ana,beto,carla",
                                      "--pantalla", screen], stdin=subprocess.PIPE, stdout=self.out, stderr=self.err, text=True, env=env)
        self.wait_for("El marcador está")

    def printed(self) -> str:
        return Path(self.out.name).read_text("utf-8")

    def wait_for(self, text: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = [line for line in self.printed().splitlines() if text in line]
            if found:
                return found[-1]
            assert self.proc.poll() is None, self.printed() + Path(self.err.name).read_text("utf-8")
            time.sleep(0.05)
        raise AssertionError(f"never printed {text!r}: {self.printed()}")

    def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> tuple[str, str]:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.printed(), Path(self.err.name).read_text("utf-8")


@pytest.mark.slow
def test_a_hostile_network_never_shakes_the_referee(tmp_path: Path) -> None:
    port = free_port()
    ref = Referee(tmp_path, f"127.0.0.1:{port}")
    held: list[socket.socket] = []
    stop = threading.Event()
    try:
        assert visit(port)[0] < 1
        # a page that opens the live updates and never reads them (a tiny window: the server's writes back up)
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        stuck.connect(("127.0.0.1", port))
        stuck.sendall(b"GET /eventos HTTP/1.1\r\nHost: x\r\n\r\n")
        held.append(stuck)
        # 20 dropped requests of each kind: sent, then reset before the answer is read
        for path in ("/estado", "/", "/eventos", "/noche"):
            for _ in range(20):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                reset(s)
        # a slow client: one header byte every half second
        cut: list[float] = []

        def slow() -> None:
            s = socket.create_connection(("127.0.0.1", port))
            began = time.monotonic()
            try:
                for byte in b"GET /estado HTTP/1.1\r\nX-Lento: " + b"a" * 100:
                    if stop.is_set():
                        break
                    s.sendall(bytes([byte]))
                    time.sleep(0.5)
            except OSError:
                cut.append(time.monotonic() - began)  # closed by the server: what we want
            finally:
                s.close()
        slow_client = threading.Thread(target=slow, daemon=True)
        slow_client.start()
        # 300 half-open connections: a request begun and never finished
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /estado HTTP/1.1\r\nHost:")
            held.append(s)
        time.sleep(0.5)
        assert threads(ref.proc.pid) <= 64
        # the game goes on, and a new visitor sees it at once
        ref.say("parte ana por la izquierda")
        ref.say("tres trenes")
        ref.wait_for("Tres trenes. Sigue beto.")
        took, state = visit(port)
        assert took < 1 and state["turno"] == "beto" and state["apuesta"] == {"cantidad": 3, "pinta": 3, "jugador": "ana"}
        # 1,500 more: the gate keeps the oldest waiting ones out, a visitor still gets in
        for _ in range(1500):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost:")
            held.append(s)
        ref.say("cuatro trenes")
        ref.wait_for("Cuatro trenes. Sigue carla.")
        took, state = visit(port)
        assert took < 1 and state["turno"] == "carla"
        assert threads(ref.proc.pid) <= 64
        open_files = len(os.listdir(f"/proc/{ref.proc.pid}/fd"))
        assert open_files < screen_server.MAX_CONNECTIONS + 64  # the gate held; the journal still has files to spare
        # the half-open ones are closed by the server once their time is up
        time.sleep(screen_server.REQUEST_SECONDS + 2)
        closed = 0
        for s in held[1:301]:
            s.setblocking(False)
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        assert closed == 300
        slow_client.join(timeout=2)
        assert cut and cut[0] < screen_server.REQUEST_SECONDS + 2, "the slow client was never cut"
        assert visit(port)[0] < 1
    finally:
        stop.set()
        for s in held:
            reset(s)
        printed, errors = ref.close()
    assert "Traceback" not in printed + errors and "Error" not in printed + errors, printed + errors
    assert errors.strip() == "" or "[" in errors  # only the referee's own notes in brackets


# ------------------------------------------------------------------ the address a phone is given (two hosts, one cable)


def netns_ready() -> bool:
    if not shutil.which("ip") or os.geteuid() != 0:
        return False
    name = f"dudo-prueba-{uuid.uuid4().hex[:6]}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True).returncode == 0
    if made:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return made


needs_netns = pytest.mark.skipif(not netns_ready(), reason="hace falta ser root con ip netns (iproute2) para armar la red de prueba")


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


def connect_referee(bar: dict[str, str]) -> None:
    """The referee's host joins the network: its address and its default route."""
    ip("-n", bar["mesa"], "addr", "add", f"{bar['ip_mesa']}/24", "dev", bar["dev_mesa"])
    ip("-n", bar["mesa"], "route", "add", "default", "via", bar["ip_telefono"])


@pytest.fixture
def bar(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """Two hosts on one cable: the referee's (10.77.N.1, with a default route, as on a
    bar's Wi-Fi) and a phone's (10.77.N.2). Multicast crosses the cable, so mDNS works.
    Marked ``offline``, the referee's host has no address yet (``connect_referee``)."""
    offline = request.node.get_closest_marker("offline") is not None
    tag = uuid.uuid4().hex[:6]
    net = f"10.77.{int(tag[:2], 16)}"
    mesa, telefono = f"dudo-mesa-{tag}", f"dudo-tel-{tag}"
    ip("netns", "add", mesa)
    ip("netns", "add", telefono)
    try:
        ip("link", "add", f"m{tag}", "type", "veth", "peer", "name", f"t{tag}")
        ip("link", "set", f"m{tag}", "netns", mesa)
        ip("link", "set", f"t{tag}", "netns", telefono)
        for ns, dev in ((mesa, f"m{tag}"), (telefono, f"t{tag}")):
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        ip("-n", telefono, "addr", "add", f"{net}.2/24", "dev", f"t{tag}")
        hosts = {"mesa": mesa, "telefono": telefono, "ip_mesa": f"{net}.1", "ip_telefono": f"{net}.2", "dev_mesa": f"m{tag}"}
        if not offline:
            connect_referee(hosts)
        yield hosts
    finally:
        subprocess.run(["ip", "netns", "del", mesa], capture_output=True)
        subprocess.run(["ip", "netns", "del", telefono], capture_output=True)


PHONE = """
import json, sys, urllib.request
from zeroconf import Zeroconf, IPVersion
from zeroconf._services.info import AddressResolverIPv4
printed, name = sys.argv[1], sys.argv[2]
out = {}
with urllib.request.urlopen(printed + "estado", timeout=5) as r:
    out["estado"] = json.loads(r.read())
with urllib.request.urlopen(printed, timeout=5) as r:
    out["pagina"] = r.read().decode()
zc = Zeroconf(ip_version=IPVersion.V4Only)
resolver = AddressResolverIPv4(name + ".")
out["resuelto"] = resolver.parsed_addresses() if resolver.request(zc, 3000) else []
zc.close()
print(json.dumps(out))
"""

OTHER_TABLE = """
import sys, time
from zeroconf import Zeroconf, IPVersion, ServiceInfo
zc = Zeroconf(ip_version=IPVersion.V4Only)
zc.register_service(ServiceInfo("_http._tcp.local.", "Otra mesa._http._tcp.local.", port=8080,
                                parsed_addresses=[sys.argv[1]], server="dudo.local."))
print("listo", flush=True)
time.sleep(60)
"""


@pytest.mark.slow
@needs_netns
def test_without_a_host_a_phone_on_the_network_opens_the_printed_address_and_the_name(bar: dict[str, str], tmp_path: Path) -> None:
    ref = Referee(tmp_path, "8080", wrap=["ip", "netns", "exec", bar["mesa"]])
    try:
        line = ref.wait_for("El marcador está en")
        assert line.startswith(f"El marcador está en http://{bar['ip_mesa']}:8080/ o en http://dudo.local:8080/")
        for bad in ("127.0.0.1", "0.0.0.0", "localhost", "[::]"):
            assert bad not in line
        ref.say("parte ana")
        ref.say("tres trenes")
        ref.wait_for("Tres trenes. Sigue beto.")
        phone = subprocess.run(["ip", "netns", "exec", bar["telefono"], sys.executable, "-c", PHONE, f"http://{bar['ip_mesa']}:8080/",
                                "dudo.local"], capture_output=True, text=True, timeout=30)
        assert phone.returncode == 0, phone.stderr
        seen = json.loads(phone.stdout)
        assert seen["estado"]["turno"] == "beto"
        assert seen["resuelto"] == [bar["ip_mesa"]]  # dudo.local, announced by mDNS, reaches the referee
        assert f'<figcaption><span>{bar["ip_mesa"]}:8080</span><span>dudo.local:8080</span></figcaption>' in seen["pagina"]
        assert '<div id="apuesta">tres trenes' in seen["pagina"]
        if shutil.which("chromium") and shutil.which("zbarimg"):  # one scan: the TV's picture, read by a QR reader
            shot = tmp_path / "tele.png"
            subprocess.run(["ip", "netns", "exec", bar["telefono"], "chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            "--hide-scrollbars", f"--user-data-dir={tmp_path / 'perfil'}", "--window-size=1920,1080",
                            f"--screenshot={shot}", f"http://{bar['ip_mesa']}:8080/"], capture_output=True, timeout=60)
            read = subprocess.run(["zbarimg", "-q", "--raw", str(shot)], capture_output=True, text=True, timeout=30)
            assert read.stdout.strip() == f"http://{bar['ip_mesa']}:8080/"
    finally:
        printed, errors = ref.close()
    assert "Traceback" not in printed + errors


@pytest.mark.slow
@needs_netns
def test_a_second_table_in_the_bar_takes_the_next_name(bar: dict[str, str], tmp_path: Path) -> None:
    other = subprocess.Popen(["ip", "netns", "exec", bar["telefono"], sys.executable, "-c", OTHER_TABLE, bar["ip_telefono"]],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "listo"
        ref = Referee(tmp_path, "8080", wrap=["ip", "netns", "exec", bar["mesa"]])
        line = ref.wait_for("El marcador está en")
        ref.close()
        assert f"http://{bar['ip_mesa']}:8080/ o en http://dudo-2.local:8080/" in line
    finally:
        other.kill()
        other.wait()


# ------------------------------------------------------------------ the pieces


def test_addresses_without_a_host_are_every_interface_and_loopback_only_on_request() -> None:
    assert screen_server.parse_address("8080") == (None, 8080)
    assert screen_server.parse_address("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert screen_server.parse_address("[::1]:8080") == ("::1", 8080)
    for bad in ("", "80a", "0", "70000", "host:"):
        with pytest.raises(ValueError):
            screen_server.parse_address(bad)
    assert screen_server.is_loopback("127.0.0.1") and screen_server.is_loopback("localhost") and screen_server.is_loopback("::1")
    assert not screen_server.is_loopback(None) and not screen_server.is_loopback("10.0.0.5")
    for shown in screen_server.lan_addresses():  # whatever this machine has: never loopback nor link-local
        assert not shown.startswith(("127.", "169.254.")) and shown != "0.0.0.0"


def test_the_terminal_qr_code_is_the_address() -> None:
    import segno

    link = "http://10.77.9.1:8080/"
    drawn = screen_server.qr_text(link).splitlines()
    # two modules per character: the upper half and the lower half
    rows: list[list[bool]] = []
    for line in drawn:
        rows.append([ch in "█▀" for ch in line])
        rows.append([ch in "█▄" for ch in line])
    expected = [[bool(v) for v in row] for row in segno.make(link, error="m").matrix]
    size = len(expected)
    inner = [row[2:2 + size] for row in rows[2:2 + size]]  # inside the two-module border
    assert inner == [[not v for v in row] for row in expected]  # light blocks on a dark terminal: the code's dark modules are gaps
    assert screen_server.qr_text("http://10.77.9.2:8080/") != "\n".join(drawn)


def test_the_address_is_said_in_words_a_person_can_type() -> None:
    from assistant import replies

    said = replies.screen_on_spoken("192.168.1.20", "dudo.local", 8080)
    assert said == "El marcador está en dudo punto local, dos puntos, ocho mil ochenta. También pueden escanear el código QR."
    assert replies.screen_on_spoken("192.168.1.20", None, 8080) == (
        "El marcador está en ciento noventa y dos punto ciento sesenta y ocho punto uno punto veinte, dos puntos, ocho mil ochenta."
        " También pueden escanear el código QR.")
    second = replies.screen_on_spoken("10.0.0.2", "dudo-2.local", 80)
    assert second.startswith("El marcador está en dudo guion dos punto local, dos puntos, ochenta.")
    assert not any(ch.isdigit() for ch in said + second)
    printed = replies.screen_on(["http://192.168.1.20:8080/", "http://dudo.local:8080/"])
    assert printed.startswith("El marcador está en http://192.168.1.20:8080/ o en http://dudo.local:8080/ ")


def test_the_address_is_announced_once_printed_and_said(tmp_path: Path) -> None:
    from assistant.night import _open_screen
    from assistant.rules import Game, preset
    from assistant.session import TableIO

    class Heard(TableIO):
        def __init__(self) -> None:
            super().__init__()
            self.announced: list[tuple[str, str]] = []
            self.told: list[str] = []

        def announce(self, printed: str, spoken: str) -> None:
            self.announced.append((printed, spoken))

        def tell(self, text: str) -> None:
            self.told.append(text)

    io = Heard()
    port = free_port()
    board = _open_screen(f"127.0.0.1:{port}", Game(preset("yocacho"), ["ana", "beto"]), io)
    assert board is not None
    board.close()
    ((printed, spoken),) = io.announced
    assert printed.startswith(f"El marcador está en http://127.0.0.1:{port}/ ")
    assert spoken == "" and io.told == []  # this machine only: nothing a phone could type
    assert _open_screen("no:es", Game(preset("yocacho"), ["ana", "beto"]), io) is None
    assert io.told == ["No pude abrir el marcador: la pantalla queda apagada y la partida sigue igual."]  # why: on the terminal


@pytest.mark.slow
@pytest.mark.offline
@needs_netns
def test_a_referee_that_starts_before_the_network_shows_its_address_once_it_is_on(bar: dict[str, str], tmp_path: Path) -> None:
    ref = Referee(tmp_path, "8080", wrap=["ip", "netns", "exec", bar["mesa"]])
    try:
        line = ref.wait_for("El marcador está")
        assert line == "El marcador está listo, pero este equipo todavía no tiene red. Cuando la tenga, la página muestra su dirección."
        connect_referee(bar)  # the Wi-Fi comes up
        deadline = time.monotonic() + screen_server.NETWORK_SECONDS + 10
        page = ""
        while time.monotonic() < deadline and "figcaption" not in page:
            time.sleep(0.5)
            got = subprocess.run(["ip", "netns", "exec", bar["telefono"], sys.executable, "-c",
                                  "import urllib.request, sys; print(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())",
                                  f"http://{bar['ip_mesa']}:8080/"], capture_output=True, text=True, timeout=20)
            page = got.stdout
        assert f"<figcaption><span>{bar['ip_mesa']}:8080</span><span>dudo.local:8080</span></figcaption>" in page
    finally:
        printed, errors = ref.close()
    assert "Traceback" not in printed + errors


def test_past_the_cap_a_live_page_is_told_to_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    import http.client

    from assistant import scoreboard
    from assistant.rules import Game, preset

    monkeypatch.setattr(screen_server, "MAX_STREAMS", 2)
    port = free_port()
    board = scoreboard.start(f"127.0.0.1:{port}", Game(preset("yocacho"), ["ana", "beto"]))
    pages = []
    try:
        for _ in range(2):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/eventos")
            response = conn.getresponse()
            assert response.status == 200 and response.readline() == b"retry: 1000\n"
            pages.append(conn)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/eventos")
        refused = conn.getresponse()
        assert refused.status == 503 and refused.getheader("Retry-After") == "5"
        conn.close()
        pages.pop().close()  # one page leaves: there is room again
        deadline = time.monotonic() + 5
        while board.server.streams > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/eventos")
        assert conn.getresponse().status == 200
        pages.append(conn)
    finally:
        for p in pages:
            p.close()
        board.close()
