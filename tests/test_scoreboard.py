"""The scoreboard page in a real headless Chromium (Debian's, driven by
Selenium with Debian's chromedriver: no browser is ever downloaded), and the
server from outside: what it serves, what it refuses, and that nothing listens
without --pantalla."""

from __future__ import annotations

import html
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from assistant import replies, scoreboard, screen_server
from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.speech import Parser
from tests.test_crash import dudo_command

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="hace falta chromium y chromium-driver de Debian (scripts/instalar.sh --test)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Table:
    """A referee with the scoreboard as an observer, fed lines like the session does."""

    def __init__(self, rules: str = "yocacho", players: tuple[str, ...] = ("ana", "beto", "carla")) -> None:
        self.game = Game(preset(rules), list(players))
        self.board = scoreboard.start(f"127.0.0.1:{free_port()}", self.game)
        self.referee = Referee(self.game, [self.board])
        self.parser = Parser(players=self.game.players)

    def say(self, line: str) -> str:
        reply = self.referee.handle(self.parser.parse(line))
        self.board.said(reply.text, self.game)
        return reply.text

    def close(self) -> None:
        self.board.close()


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


def request(url: str, method: str = "GET") -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, b""


def test_only_three_paths_and_only_get(table: Table) -> None:
    base = table.board.address
    status, body = request(base)
    links = set(re.findall(rb"(?:https?:)?//[\w.-]+", body)) - {b"//www.w3.org", b"http://www.w3.org"}
    assert status == 200 and b"<title>Dudo" in body and links == set()  # no CDN: every asset is inline
    status, body = request(base + "estado")
    assert status == 200 and json.loads(body)["turno"] is None
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"):
        assert request(base + "estado", method)[0] == 405, method
        assert request(base, method)[0] == 405, method
    for path in ("x", "estado/", "../etc/passwd", "assistant/", "pantalla.html", "%2e%2e/"):
        assert request(base + path)[0] == 404, path
    assert table.game.history == []  # nothing changed the game


def sse_until(url: str, done: Callable[[dict[str, Any]], bool], into: list[tuple[float, dict[str, Any]]], ready: threading.Event) -> None:
    """Read the page's event stream until ``done(view)``; each view with the time it came."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", "/eventos")
    response = conn.getresponse()
    while True:
        line = response.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            view = json.loads(line[6:])
            into.append((time.monotonic(), view))
            ready.set()  # the page has the state as it was when it opened
            if done(view):
                break
    conn.close()


def test_ten_pages_at_once_each_see_every_step_within_half_a_second(table: Table) -> None:
    pages: list[list[tuple[float, dict[str, Any]]]] = [[] for _ in range(10)]
    readies = [threading.Event() for _ in pages]
    done = lambda view: view["apuesta"] is not None  # noqa: E731
    threads = [threading.Thread(target=sse_until, args=(table.board.address, done, got, ready), daemon=True)
               for got, ready in zip(pages, readies, strict=True)]
    for t in threads:
        t.start()
    assert all(r.wait(5) for r in readies)
    table.say("parte ana por la izquierda")
    said = time.monotonic()
    table.say("tres trenes")
    for t in threads:
        t.join(timeout=5)
    for got in pages:
        arrived, last = got[-1]
        assert arrived - said < 0.5
        assert last["apuesta"] == {"texto": "tres trenes", "cantidad": 3, "pinta": 3, "jugador": "ana"}
        assert [p["nombre"] for p in last["jugadores"] if p["turno"]] == ["beto"]


def test_a_failing_screen_never_stops_the_game() -> None:
    t = Table()
    t.board.server.close()  # the server and its sockets are gone under it
    assert t.say("parte ana") == "Parte ana, por la izquierda."
    assert t.say("tres trenes") == "Tres trenes. Sigue beto."
    t.board.close()


def test_rounds_and_fichas_and_an_undo(tmp_path: Path) -> None:
    t = Table("chimbo9", ("ana", "beto"))
    try:
        for line in ("parte ana", "tres trenes", "dudo", "hay cero"):
            t.say(line)
        view = t.board.view
        assert view["rondas"] == [{"ronda": 1, "texto": "beto dudó los tres trenes de ana; no había ninguno. Ana pierde una ficha."}]
        ana = next(p for p in view["jugadores"] if p["nombre"] == "ana")
        assert ana["fichas"] == [{"color": "amarilla", "perdida": True}, {"color": "azul", "perdida": False},
                                 {"color": "roja", "perdida": False}]
        t.say("corrección")
        assert t.board.view["rondas"] == []
    finally:
        t.close()


# ------------------------------------------------------------------ a real browser


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("hace falta chromium y chromium-driver de Debian (scripts/instalar.sh --test)")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a driver or a browser
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={tmp_path / 'perfil'}", "--window-size=1280,800"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def shown(driver: Any, css: str, what: str = "innerText") -> str:
    """The text of the first element matching ``css`` ("" when there is none), read in one
    step: a live update redraws the board, so an element found a moment ago may be gone."""
    return str(driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e[arguments[1]] : ''", css, what))


def snapshot(driver: Any, css: str, cells: str) -> dict[str, list[str]]:
    """Each element matching ``css`` by its data-nombre: the texts of its ``cells``, in one step."""
    return dict(driver.execute_script("""return [...document.querySelectorAll(arguments[0])].map(r =>
        [r.dataset.nombre, [...r.querySelectorAll(arguments[1])].map(c => c.textContent)])""", css, cells))


def wait_for(check: Callable[[], bool], seconds: float) -> float:
    """Seconds until ``check()`` is true (fails after ``seconds``)."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if check():
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError("the page did not change in time")


@needs_chromium
def test_the_page_follows_the_game_in_a_real_browser(table: Table, browser: Any, tmp_path: Path) -> None:

    driver = browser
    driver.get(table.board.address)

    def text(css: str) -> str:
        return shown(driver, css)  # not there yet reads as empty, not as a failure
    wait_for(lambda: text("#estado-conexion") == "en vivo", 5)
    table.say("parte ana por la izquierda")
    wait_for(lambda: "ana" in text("#jugadores li.turno"), 5)
    table.say("tres trenes")
    wait_for(lambda: text("#apuesta").startswith("tres trenes") and "beto" in text("#jugadores li.turno"), 5)
    assert driver.execute_script("return document.querySelectorAll('#dados svg.dado').length") == 3
    assert "Tres trenes. Sigue beto." in text("#dijo")
    assert "por la izquierda" in text("#sentido")
    size = driver.execute_script("return parseFloat(getComputedStyle(document.getElementById('apuesta')).fontSize)")
    assert size >= 40  # legible from across the table
    shot = tmp_path / "marcador.png"
    driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    table.say("dudo")
    table.say("ana dos")
    wait_for(lambda: "Contando" in text("#modo"), 5)


@needs_chromium
def test_the_page_reconnects_by_itself(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    port = free_port()
    game = Game(preset("yocacho"), ["ana", "beto"])
    board = scoreboard.start(f"127.0.0.1:{port}", game)
    driver = browser
    driver.get(board.address)

    def text(css: str) -> str:
        return shown(driver, css)
    wait_for(lambda: text("#estado-conexion") == "en vivo", 5)
    board.close()
    lost = wait_for(lambda: text("#estado-conexion").startswith("Sin conexión con el árbitro desde las"), 10)
    assert 2 < lost < 8  # after a few seconds, not at the first hiccup
    assert "sin-conexion" in str(driver.find_element(By.TAG_NAME, "body").get_attribute("class"))
    again = scoreboard.start(f"127.0.0.1:{port}", game)  # the referee came back on the same port
    referee = Referee(game, [again])
    referee.handle(Parser(players=game.players).parse("parte beto"))
    try:
        wait_for(lambda: text("#estado-conexion") == "en vivo" and "beto" in text("#jugadores li.turno"), 5)
    finally:
        again.close()


# ------------------------------------------------------------------ from outside


def listening_ports(pid: int) -> list[str]:
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if f"pid={pid}," in line]


def test_a_text_game_with_pantalla_serves_the_state_and_without_it_nothing_listens(tmp_path: Path) -> None:
    if not shutil.which("ss"):
        pytest.skip("hace falta ss (iproute2)")
    port = free_port()
    env = {**os.environ, "DUDO_DATOS": str(tmp_path), "DUDO_MODELO": ""}
    for screen in (["--pantalla", f"127.0.0.1:{port}"], []):
        proc = subprocess.Popen([*dudo_command(), "jugar", "--texto", "--nueva", "--jugadores", "ana,beto,carla", *screen],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("parte ana por la izquierda\ntres trenes\n")
        proc.stdin.flush()
        lines = [proc.stdout.readline() for _ in range(3 + bool(screen))]
        try:
            if screen:
                assert lines[0].startswith(f"El marcador está en http://127.0.0.1:{port}/")
                status, body = request(f"http://127.0.0.1:{port}/estado")
                state = json.loads(body)
                assert status == 200 and state["apuesta"] == {"cantidad": 3, "pinta": 3, "jugador": "ana"} and state["turno"] == "beto"
                assert request(f"http://127.0.0.1:{port}/estado", "POST")[0] == 405
                assert listening_ports(proc.pid)
            else:
                assert lines[-1].startswith("Tres trenes. Sigue beto.")
                assert listening_ports(proc.pid) == []
        finally:
            proc.stdin.close()
            proc.wait(timeout=10)


def test_a_busy_port_leaves_the_screen_off_and_the_game_on(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        from tests.test_cli import dudo

        result = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--pantalla", f"127.0.0.1:{port}", stdin="parte ana\n",
                      env={"DUDO_DATOS": str(tmp_path)})
    assert result.returncode == 0
    assert "No pude abrir el marcador: la pantalla queda apagada y la partida sigue igual." in result.stdout
    assert "No pude abrir el marcador: el puerto ya lo ocupa otro programa." in result.stderr  # why, for the terminal
    assert "Address already in use" not in result.stdout + result.stderr  # the system's words go to the log
    assert "Address already in use" in (tmp_path / "dudo.log").read_text("utf-8")
    assert result.stdout.splitlines()[-1] == "Parte ana, por la izquierda."


def test_historial_lists_finished_games_and_the_page_shows_tonights(tmp_path: Path) -> None:
    from tests.test_cli import dudo

    env = {"DUDO_DATOS": str(tmp_path)}
    lines = "parte ana\n" + "tres trenes\ndudo\nhay cero\n" * 3
    dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "chimbo9", stdin=lines, env=env)
    dudo("jugar", "--texto", "--nueva", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\n", env=env)  # unfinished
    result = dudo("historial", env=env)
    (line,) = result.stdout.splitlines()
    assert " · ana y beto · chimbo9 · ganó beto · 3 rondas · perdió más ana (3 fichas)" in line
    assert dudo("historial", env={"DUDO_DATOS": str(tmp_path / "nada")}).stdout.strip() == "Todavía no hay partidas terminadas."
    from assistant import journal
    from assistant.scoreboard import night_entry

    (summary,) = journal.finished_games(tmp_path)
    entry = night_entry(summary)
    assert entry["jugadores"] == ["ana", "beto"] and entry["ganadores"] == ["beto"] and entry["rondas"] == 3


# ------------------------------------------------------------------ the night's figures


def night_folder(tmp_path: Path) -> Path:
    """Two games played tonight at a typed table (``dudo jugar --texto``) into a folder of their own."""
    folder = tmp_path / "datos"
    for lines in ("parte ana\ntres trenes\ncuatro trenes\ndudo\nhay cinco\n", "parte beto\ndos quinas\ndudo\nhay uno\n"):
        done = subprocess.run([*dudo_command(), "jugar", "--texto", "--nueva", "--jugadores", "ana,beto,carla", "--reglas", "yocacho"],
                              input=lines, capture_output=True, text=True, env={**os.environ, "DUDO_DATOS": str(folder)})
        assert done.returncode == 0, done.stderr
    return folder


def test_noche_serves_tonights_figures_as_dudo_estadisticas_does(tmp_path: Path) -> None:
    from assistant import stats

    folder = night_folder(tmp_path)
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    board = scoreboard.start(f"127.0.0.1:{free_port()}", game, figures=lambda: stats.night_json(folder))
    try:
        status, body = request(board.address + "noche")
        assert status == 200
        served = json.loads(body)
        printed = subprocess.run([*dudo_command(), "estadisticas", "--json", "--noche"], capture_output=True, text=True,
                                 env={**os.environ, "DUDO_DATOS": str(folder)}, check=True)
        assert served == json.loads(printed.stdout)
        assert served["partidas"] == 2 and served["jugadores"]["beto"]["dudas"] == 0 and served["jugadores"]["carla"]["dudas"] == 2
        assert request(board.address + "noche", "POST")[0] == 405
    finally:
        board.close()


@needs_chromium
def test_the_page_shows_the_nights_table_and_each_players_panel(browser: Any, tmp_path: Path) -> None:

    from assistant import stats

    folder = night_folder(tmp_path)
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    board = scoreboard.start(f"127.0.0.1:{free_port()}", game, figures=lambda: stats.night_json(folder))
    try:
        browser.get(board.address)
        wait_for(lambda: browser.execute_script("const e = document.getElementById('cifras'); return e && !e.hidden") is True, 5)
        rows = snapshot(browser, "#cifras-tabla tbody tr", "td")
        assert set(rows) == {"ana", "beto", "carla"}
        # jugador, ganadas, terminadas (both games are still in play), rondas perdidas, dudas bien, faroles que aguantaron
        assert rows["carla"] == ["carla", "0", "0", "1", "1 de 2", "—"]
        assert rows["beto"] == ["beto", "0", "0", "1", "—", "1 de 2"]
        panels = dict(browser.execute_script("return [...document.querySelectorAll('#cifras-detalle li')].map(l => [l.dataset.nombre, l.textContent])"))
        assert "1 por dudar mal" in panels["carla"] and "no ha perdido rondas" in panels["ana"]
        shot = tmp_path / "noche.png"
        browser.set_window_size(420, 900)  # a phone: each player's panel shows under the table (a TV has no room for it)
        wait_for(lambda: "1 por dudar mal" in shown(browser, "#cifras-detalle li[data-nombre=carla]"), 5)
        browser.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        board.close()


# ------------------------------------------------------------------ whole on a TV and a phone, right without JavaScript

SIX = ("ana", "bartolomé", "carla", "domitila", "eusebio", "francisca")
ROUND = ("dos trenes", "dudo", "hay cinco")


@pytest.fixture(scope="module")
def long_night(tmp_path_factory: pytest.TempPathFactory) -> Callable[[], dict[str, Any]]:
    """Tonight's figures after a 14-round game of six, typed at a table (``dudo jugar --texto``)."""
    tmp_path = tmp_path_factory.mktemp("noche")
    folder = tmp_path / "noche"
    typed = "\n".join(["parte ana", *ROUND * 14]) + "\n"
    done = subprocess.run([*dudo_command(), "jugar", "--texto", "--nueva", "--jugadores", ",".join(SIX), "--reglas", "yocacho"],
                          input=typed, capture_output=True, text=True, env={**os.environ, "DUDO_DATOS": str(folder)})
    assert done.returncode == 0, done.stderr
    from assistant import stats

    return lambda: stats.night_json(folder)


def play_rounds(table: Table, n: int) -> None:
    table.say("parte ana")
    for _ in range(n):
        for line in ROUND:
            table.say(line)
    assert table.game.round_number == n + 1


@pytest.fixture
def long_table(long_night: Callable[[], dict[str, Any]]) -> Iterator[Table]:
    t = Table("yocacho", SIX)
    t.board.figures = long_night
    t.board.night = [{"hora": f"2{i}:00", "jugadores": list(SIX), "ganadores": [SIX[i]], "rondas": 20 + i, "reglas": "yocacho"}
                     for i in range(5)]
    play_rounds(t, 14)
    t.say("tres trenes")  # a bid on the table, the next player to move
    yield t
    t.close()


def test_the_first_response_holds_the_state_drawn(long_table: Table) -> None:
    status, body = request(long_table.board.address)
    page = body.decode("utf-8")
    assert status == 200
    for name in SIX:
        assert f'data-nombre="{html.escape(name)}"' in page
    bid = re.search(r'<div id="apuesta">(.*?)<span class="quien">de (\w+)</span>', page)
    assert bid is not None and bid.groups() == ("tres trenes", long_table.game.bidder)
    assert f"Le toca a {long_table.game.turn}" in page
    assert page.count("<li>Ronda ") == scoreboard.ROUNDS_SHOWN and "<li>Ronda 14: " in page
    assert "y dos partidas más" in page


def test_between_rounds_the_largest_line_says_who_starts(table: Table) -> None:
    assert "¿Quién parte?" in request(table.board.address)[1].decode()
    table.say("parte beto")
    assert '<div id="apuesta">Parte beto</div>' in request(table.board.address)[1].decode()


def test_a_round_says_whose_bid_who_doubted_what_there_was_and_who_paid() -> None:
    t = Table("caleuchano", ("ana", "beto", "carla"))
    try:
        for line in ("parte ana", "cinco trenes", "dudo", "hay seis"):
            t.say(line)
        (entry,) = t.board.view["rondas"]
        assert replies.screen_round(entry["ronda"], entry["texto"]) == "Ronda 1: beto dudó los cinco trenes de ana; había seis. Palo para beto."
        for line in ("tres tontos", "dudo", "hay cero"):
            t.say(line)
        assert t.board.view["rondas"][-1]["texto"] == "carla dudó las tres millas de beto; había una con la de regalo. Palo para beto."
        resumed = scoreboard._rounds_of(t.game)  # a resumed game rebuilds the same list from its history
        assert resumed == t.board.view["rondas"]
    finally:
        t.close()
    t = Table("yocacho", ("ana", "beto", "carla"))
    try:
        for line in ("parte ana", "tres cuadras", "calzo", "hay tres"):
            t.say(line)
        assert t.board.view["rondas"][-1]["texto"].startswith("beto calzó las tres cuadras de ana; había tres. Beto calzó")
    finally:
        t.close()


def chromium(tmp_path: Path, javascript: bool = True) -> Any:
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                f"--user-data-dir={tmp_path / ('perfil' if javascript else 'perfil-sin-js')}"):
        options.add_argument(arg)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


@needs_chromium
def test_without_javascript_the_page_shows_the_players_and_the_bid(long_table: Table, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium(tmp_path, javascript=False)
    try:
        driver.get(long_table.board.address)
        time.sleep(2)  # with scripts on, the live updates would have replaced the drawing by now
        names = [li.get_attribute("data-nombre") for li in driver.find_elements(By.CSS_SELECTOR, "#jugadores li")]
        assert names == list(SIX)
        assert driver.find_element(By.ID, "apuesta").text.startswith("tres trenes")
        assert long_table.game.turn in driver.find_element(By.CSS_SELECTOR, "#jugadores li.turno").text
        assert len(driver.find_elements(By.CSS_SELECTOR, "#dados svg.dado")) == 3
        assert driver.find_element(By.ID, "estado-conexion").text.startswith("foto de las ")  # not passed off as live
    finally:
        driver.quit()


SCREENS = {"tele": {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False},
           "telefono": {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}}


@needs_chromium
@pytest.mark.parametrize("screen", SCREENS)
def test_after_fourteen_rounds_the_page_is_whole_on_a_tv_and_a_phone(long_table: Table, tmp_path: Path, screen: str) -> None:

    metrics = SCREENS[screen]
    here = long_table.board.address  # loopback: the only address this test ever opens
    # drawn as when served to the bar's network: the QR code in its corner (an address only shown, never opened)
    long_table.board.announced_here = screen_server.Announced(["http://10.77.0.1:8080/", "http://dudo.local:8080/"], "10.77.0.1", "dudo.local", 8080)
    driver = chromium(tmp_path)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        driver.get(here)
        wait_for(lambda: shown(driver, "#estado-conexion") == "en vivo", 10)
        long_table.say("cuatro trenes")  # the game goes on under the page
        wait_for(lambda: shown(driver, "#apuesta").startswith("cuatro trenes"), 5)
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('#cifras-tabla tbody tr').length") == len(SIX), 5)
        size = driver.execute_script("const e = document.documentElement; return [e.scrollWidth, e.scrollHeight, innerWidth, innerHeight]")
        driver.save_screenshot(str(tmp_path / f"{screen}.png"))
        if os.environ.get("DUDO_CAPTURAS"):
            shutil.copy(tmp_path / f"{screen}.png", Path(os.environ["DUDO_CAPTURAS"]) / f"{screen}.png")
        assert size[0] <= metrics["width"], size  # nothing scrolls sideways
        if screen == "tele":
            assert size[1] <= metrics["height"], size  # nothing scrolls at all
            clipped = driver.execute_script(
                "return [...document.querySelectorAll('section')].filter(s => s.scrollHeight > s.clientHeight + 1).map(s => s.id)")
            assert clipped == []
            sizes = driver.execute_script("""return Object.fromEntries(['apuesta', 'le-toca', 'dijo', 'rondas', 'cifras-tabla']
                .map(id => [id, parseFloat(getComputedStyle(document.getElementById(id)).fontSize)]))""")
            assert sizes["apuesta"] >= 90 and sizes["le-toca"] >= 50 and min(sizes.values()) >= 24, sizes  # read from 3 m
            assert sizes["apuesta"] == max(sizes.values())
        # the QR code is whole on the screen and covers nothing
        overlaps = driver.execute_script("""
            const box = e => e.getBoundingClientRect();
            const qr = box(document.getElementById('qr'));
            const inside = qr.left >= 0 && qr.top >= 0 && qr.right <= innerWidth && (qr.bottom <= innerHeight || innerWidth < 700);
            const hit = [...document.querySelectorAll('#tablero li, #tablero h2, #tablero td, #apuesta')].filter(e => {
                const b = box(e); return b.left < qr.right && b.right > qr.left && b.top < qr.bottom && b.bottom > qr.top; });
            return [inside, hit.map(e => e.textContent)];""")
        assert overlaps == [True, []]
    finally:
        driver.quit()
