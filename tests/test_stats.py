"""The night's figures: counted from the journals, equal to a hand count of the
same games, asked by voice, shown on the scoreboard, printed by ``dudo estadisticas``."""

from __future__ import annotations

import json
import os
import random
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant import replies, stats
from assistant.referee import Referee
from assistant.rules import Game, RulesError, load_rules, preset, with_overrides
from assistant.rules import events as ev
from assistant.rules.figures import Figures, Period, Totals, evening, game_figures, totals
from assistant.session import Session, heard_from_line, script_lines, simulate
from assistant.speech import Parser
from tests.test_cli import dudo
from tests.test_rules_properties import ALL_ON, random_action

GAMES = Path(__file__).parent / "estadisticas"
"""Scripted games and, beside each, the figures counted by hand (``*.esperado.json``)."""


def figures_of(rules: str, players: list[str], lines: list[str]) -> dict[str, dict[str, Any]]:
    game = Game(load_rules(GAMES / rules) if rules.endswith(".toml") else preset(rules), players)
    simulate(game, [h for h in (heard_from_line(line) for line in lines) if h is not None])
    return {p: f.to_json() for p, f in game_figures(game).figures.items()}


def scripts() -> list[Path]:
    return sorted(GAMES.glob("*.txt"))


def header(path: Path) -> tuple[str, list[str]]:
    values = dict(line[2:].split(":", 1) for line in path.read_text("utf-8").splitlines() if line.startswith("# ") and ":" in line)
    return values["reglas"].strip(), values["jugadores"].strip().split(",")


@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.stem)
def test_a_games_figures_equal_the_hand_count(script: Path) -> None:
    rules, players = header(script)
    got = figures_of(rules, players, [h.text for h in script_lines(script)])
    expected = json.loads(script.with_suffix(".esperado.json").read_text("utf-8"))
    for player, figures in expected.items():
        for key, value in figures.items():
            assert got[player][key] == value, (script.name, player, key)


def test_the_scripted_games_cover_every_way_to_lose_a_round() -> None:
    seen: set[str] = set()
    for script in scripts():
        for figures in json.loads(script.with_suffix(".esperado.json").read_text("utf-8")).values():
            seen |= {k for k, v in figures.get("perdidas", {}).items() if v}
    assert seen == {"apuesta", "duda", "calzo", "paso", "picado", "mato", "castigo"}


def test_games_played_in_one_folder_add_up_in_dudo_estadisticas(tmp_path: Path) -> None:
    """Every script typed at a table (``dudo jugar --texto``) into one data folder,
    then ``dudo estadisticas --json`` equals the sum of the hand counts."""
    env = {"DUDO_DATOS": str(tmp_path / "datos")}
    expected: dict[str, dict[str, int]] = {}
    for script in scripts():
        rules, players = header(script)
        spec = str(script.with_name(rules)) if rules.endswith(".toml") else rules
        typed = "".join(f"{h.text}\n" for h in script_lines(script))
        done = dudo("jugar", "--texto", "--nueva", "--reglas", spec, "--jugadores", ",".join(players), stdin=typed, env=env)
        assert done.returncode == 0, done.stderr
        for player, figures in json.loads(script.with_suffix(".esperado.json").read_text("utf-8")).items():
            mine = expected.setdefault(player, {})
            for key, value in figures.items():
                if isinstance(value, int):
                    mine[key] = mine.get(key, 0) + value
    result = dudo("estadisticas", "--json", env=env)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["partidas"] == len(scripts())
    for player, figures in expected.items():
        for key, value in figures.items():
            assert got["jugadores"][player][key] == value, (player, key)
    # the terminal table names every player; one player only with --jugador
    table = dudo("estadisticas", env=env)
    assert all(name in table.stdout for name in expected)
    assert "…" not in table.stdout and max(len(line) for line in table.stdout.splitlines()) <= 80  # whole in a terminal
    one = json.loads(dudo("estadisticas", "--json", "--jugador", "ana", env=env).stdout)
    assert list(one["jugadores"]) == ["ana"]


def test_a_corrected_resumed_or_damaged_game_counts_as_its_replay_says(tmp_path: Path) -> None:
    env = {"DUDO_DATOS": str(tmp_path / "datos")}
    lines = "parte ana\ntres trenes\ndudo\ncorrección\ncuatro trenes\ndudo\nhay cinco\n"
    first = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "yocacho", stdin=lines, env=env)
    assert first.returncode == 0, first.stderr
    more = dudo("reanudar", "--texto", stdin="dos quinas\ndudo\nhay cero\n", env=env)
    assert more.returncode == 0, more.stderr
    got = json.loads(dudo("estadisticas", "--json", env=env).stdout)["jugadores"]
    # the corrected doubt is not counted: beto then bid four trenes, ana doubted them wrongly, and
    # after resuming beto doubted ana's two quinas rightly
    assert (got["beto"]["dudas"], got["beto"]["dudas_acertadas"], got["ana"]["dudas"], got["ana"]["rondas_perdidas"]) == (1, 1, 1, 2)
    assert got["ana"]["partidas"] == 1  # a resumed game is one game
    journal = next((tmp_path / "datos" / "partidas").glob("partida-*.jsonl"))
    data = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(data[:-4]) + b"{esto no es json\n" * 2)  # the last doubt and count, both copies damaged
    damaged = json.loads(dudo("estadisticas", "--json", env=env).stdout)["jugadores"]
    assert damaged["ana"]["rondas_perdidas"] == 1 and damaged["beto"]["dudas"] == 0  # up to the damage


def test_the_index_is_only_a_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(preset("yocacho"), ["ana", "beto"])
    from assistant import journal as journal_module

    monkeypatch.setenv("DUDO_DATOS", str(tmp_path))
    record = journal_module.Journal.create(game.rules, game.players)
    simulate(game, [h for h in (heard_from_line(t) for t in ["parte ana", "tres trenes", "dudo", "hay uno"]) if h], observers=[record])
    record.close()
    first = stats.Book(tmp_path).games()
    index = journal_module.games_dir(tmp_path) / stats.INDEX
    assert index.exists() and first[0].figures["beto"]["dudas_acertadas"] == 1
    index.write_text("esto no es un índice", "utf-8")
    assert stats.Book(tmp_path).games()[0].to_json() == first[0].to_json()  # rebuilt from the journal
    index.unlink()
    assert stats.Book(tmp_path).games()[0].to_json() == first[0].to_json()
    # a journal that changed is read again, not taken from the index
    simulate(Game(preset("yocacho"), ["ana", "beto"]), [])
    with open(record.path, "a", encoding="utf-8") as f:
        f.write("")
    os.utime(record.path, ns=(1, 1))
    assert stats.Book(tmp_path).games()[0].figures["beto"]["dudas"] == 1


def test_a_night_runs_from_six_to_six() -> None:
    late = datetime(2026, 11, 21, 2, 30).astimezone()
    night = evening(late)
    assert night.since == datetime(2026, 11, 20, 6, 0).astimezone() and night.until == night.since + timedelta(days=1)
    assert evening(datetime(2026, 11, 20, 22, 0).astimezone()) == night
    assert evening(datetime(2026, 11, 21, 6, 0).astimezone()).since == datetime(2026, 11, 21, 6, 0).astimezone()


def test_dates_on_the_command_line_are_whole_nights(tmp_path: Path) -> None:
    env = {"DUDO_DATOS": str(tmp_path / "datos")}
    played = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "yocacho", "--nueva",
                  stdin="parte ana\ntres trenes\ndudo\nhay uno\nterminamos\n", env=env)
    assert played.returncode == 0, played.stderr
    today = evening().since
    assert today is not None
    day = today.date().isoformat()
    assert json.loads(dudo("estadisticas", "--json", "--desde", day, "--hasta", day, env=env).stdout)["partidas"] == 1
    assert json.loads(dudo("estadisticas", "--json", "--noche", env=env).stdout)["partidas"] == 1
    before = (today - timedelta(days=2)).date().isoformat()
    assert json.loads(dudo("estadisticas", "--json", "--hasta", before, env=env).stdout)["partidas"] == 0
    bad = dudo("estadisticas", "--desde", "el martes", env=env)
    assert bad.returncode != 0 and "No entiendo la fecha «el martes»" in bad.stderr and "isoformat" not in bad.stderr


def test_a_simulation_never_counts_in_the_night_and_is_kept_only_when_asked(tmp_path: Path) -> None:
    """A game nobody played (``dudo simular``, a replay) leaves the night's figures as
    they were; kept with --guardar it goes apart, still never counted nor offered."""
    env = {"DUDO_DATOS": str(tmp_path / "datos")}
    played = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "yocacho", "--nueva",
                  stdin="parte ana\ntres trenes\ndudo\nhay uno\n", env=env)
    assert played.returncode == 0, played.stderr
    before = dudo("estadisticas", "--json", env=env).stdout
    assert json.loads(before)["partidas"] == 1
    script = tmp_path / "g.txt"
    script.write_text("parte diego\ntres trenes\ndudo\nhay uno\n", "utf-8")
    assert dudo("simular", str(script), "--jugadores", "diego,elena", "--reglas", "yocacho", env=env).returncode == 0
    assert dudo("estadisticas", "--json", env=env).stdout == before
    assert not (tmp_path / "datos" / "simuladas").exists() and len(list((tmp_path / "datos" / "partidas").glob("*.jsonl"))) == 1
    kept = dudo("simular", str(script), "--jugadores", "diego,elena", "--reglas", "yocacho", "--guardar", env=env)
    assert kept.returncode == 0
    assert len(list((tmp_path / "datos" / "simuladas").glob("simulada-*.jsonl"))) == 1
    assert not list((tmp_path / "datos" / "partidas").glob("simulada-*"))
    assert dudo("estadisticas", "--json", env=env).stdout == before
    assert dudo("estadisticas", "--json", "--noche", env=env).stdout == dudo("estadisticas", "--json", "--noche", env=env).stdout
    assert "diego" not in dudo("estadisticas", "--noche", env=env).stdout
    # one an older version left among the table's games is not counted either
    old = tmp_path / "datos" / "partidas" / "simulada-20261120-220000-000001.jsonl"
    old.write_bytes(next((tmp_path / "datos" / "simuladas").glob("*.jsonl")).read_bytes())
    assert dudo("estadisticas", "--json", env=env).stdout == before
    offered = dudo("jugar", "--texto", "--jugadores", "diego,elena", "--reglas", "yocacho", stdin="", env=env)
    assert "sin terminar" not in offered.stdout


# ---------------------------------------------------------------- by voice


def night_of(tmp_path: Path, scripts_: list[tuple[str, list[str], list[str]]]) -> Totals:
    games = []
    for rules, players, lines in scripts_:
        game = Game(preset(rules), players)
        simulate(game, [h for h in (heard_from_line(line) for line in lines) if h is not None])
        games.append(game_figures(game, started=datetime.now().astimezone()))
    return totals(games, evening())


def test_the_night_is_asked_by_voice_and_answered_short_at_poco() -> None:
    night = night_of(Path(), [
        ("yocacho", ["ana", "beto", "carla"], ["parte ana", "tres trenes", "cuatro trenes", "dudo", "hay dos", "cinco quinas", "dudo", "hay seis"]),
    ])
    said: list[str] = []
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    session = Session(Referee(game, night=lambda: night), Parser(players=game.players), say=said.append, level="poco",
                      earcon=lambda _sound: None)
    for question in ("¿quién va ganando la noche?", "¿cómo va beto?", "¿quién duda mejor?", "estadísticas", "quién blufea mejor"):
        heard = heard_from_line(question)
        assert heard is not None
        reply = session.hear(heard)
        assert reply.accepted, question
        assert len([s for s in said[-1].split(".") if s.strip()]) <= 2, said[-1]  # two sentences at most
    assert "Duda mejor carla" in said[2]  # carla doubted beto's four trenes: only two
    whole = Referee(game, night=lambda: night).handle(Parser(players=game.players).parse("cómo va beto")).text
    assert whole.startswith("Beto está en su primera partida de la noche.") and "por apostar de más" in whole  # in play: not lost


def test_a_night_question_changes_nothing_in_the_game() -> None:
    game = Game(preset("yocacho"), ["ana", "beto"])
    referee = Referee(game, night=lambda: Totals())
    before = game.snapshot()
    reply = referee.handle(Parser(players=game.players).parse("quién va ganando la noche"))
    assert reply.accepted and reply.text == replies.NO_NIGHT_YET and game.snapshot() == before


def _figures(**counts: int) -> Figures:
    f = Figures()
    f.counts.update(counts)
    return f


def test_the_night_answers_name_ties_misses_and_clean_records_in_plain_spanish() -> None:
    night = Totals(1, {
        "ana": _figures(partidas=1, dudas=2, apuestas_dudadas=2, apuestas_aguantadas=2),
        "beto": _figures(partidas=1, rondas_perdidas=2, dudas=1, calzos=1),
        "carla": _figures(partidas=1, calzos=3, calzos_acertados=1),
    })
    standing, _ = replies.night_answer("noche", night)
    assert standing.endswith("Van mejor ana y carla: no han perdido ninguna ronda.")
    doubts, _ = replies.night_answer("dudas", night)
    assert doubts == "Nadie le ha achuntado a una duda todavía. Quien más dudó: ana, dos veces."  # the leader, not every zero
    calzos, _ = replies.night_answer("calzos", night)
    assert calzos == "Calza mejor carla: acertó una de tres. Le sigue beto: calzó una vez sin acertar."  # veces: una
    bluff, _ = replies.night_answer("apuestas", night)
    assert bluff == "Blufea mejor ana: le dudaron dos apuestas y aguantaron todas."
    beto, _ = replies.night_answer("jugador", night, "beto")
    assert "Dudó una vez y no le achuntó." in beto and "Calzó una vez y no acertó." in beto
    assert replies.night_answer("jugador", night, "dani")[0] == "Dani no ha jugado esta noche."


# ---------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["caleuchano", "yocacho", "chimbo9", "clasico"]))
def test_figures_of_any_game_hold_together(seed: int, spec: str) -> None:
    rng = random.Random(seed)
    rules = with_overrides(preset(spec), ALL_ON) if spec == "clasico" else preset(spec)
    game = Game(rules, ["ana", "beto", "carla", "dani"][: rng.randint(2, 4)])
    losses = 0
    for _ in range(200):
        if game.over:
            break
        try:
            events = game.apply(random_action(rng, game))
        except RulesError:
            continue
        losses += sum(isinstance(e, ev.DieLost | ev.PaloTaken) for e in events)
    figures = game_figures(game).figures
    assert sum(f["rondas_perdidas"] for f in figures.values()) == losses
    for f in figures.values():
        assert sum(f.lost.values()) == f["rondas_perdidas"]
        assert f["dudas_acertadas"] <= f["dudas"] and f["calzos_acertados"] <= f["calzos"]
        assert f["pasos_pillados"] <= f["pasos"] and f["apuestas_aguantadas"] <= f["apuestas_dudadas"]
        assert f["ganadas"] <= f["terminadas"] <= f["partidas"] <= 1
    assert sum(f["ganadas"] for f in figures.values()) == (len(game.winners) if game.over and game.history else 0) or not figures
    total = totals([game_figures(game)], Period())
    assert total.games in (0, 1)


def test_a_game_in_play_is_not_lost_and_the_legend_explains_a_cell_of_its_own_table(tmp_path: Path) -> None:
    """The issue's "0 de 1": while the first game is still on, nobody has played and
    lost a game; the legend's example is a cell of the table it sits under."""
    env = {"DUDO_DATOS": str(tmp_path / "datos")}
    played = dudo("jugar", "--texto", "--nueva", "--jugadores", "ana,beto,carla", "--reglas", "yocacho",
                  stdin="parte ana\ntres trenes\ndudo\nhay uno\n", env=env)
    assert played.returncode == 0, played.stderr
    figures = json.loads(dudo("estadisticas", "--json", "--noche", env=env).stdout)
    assert figures["partidas"] == 1 and figures["terminadas"] == 0
    assert all(f["terminadas"] == 0 and f["ganadas"] == 0 for f in figures["jugadores"].values())
    table = dudo("estadisticas", "--noche", env=env).stdout
    first = table.split("Cómo se perdieron")[0]
    rows = {line.split()[0]: line.split() for line in first.splitlines() if line.split() and line.split()[0] in ("ana", "beto", "carla")}
    assert all(row[1] == "—" for row in rows.values()), table  # games won: nothing to count yet, not "0 de 1"
    legend = " ".join(table.split("Cómo se perdieron")[0].split("─")[-1].split())
    quoted = re.findall(r"«(\d+ de \d+)» en ([^:]+):", legend)
    assert quoted, legend
    cell, column = quoted[0]
    assert any(cell in " ".join(row) for row in rows.values()), (cell, table)
    assert all(word in first for word in column.split()), column  # a column of this table
    assert "La partida está en juego: todavía no se cuenta como ganada ni perdida." in legend
    assert "2 de 5" not in legend
    said = replies.night_answer("jugador", stats.night(tmp_path / "datos"), "beto")[0]
    assert said.startswith("Beto está en su primera partida de la noche."), said
