"""Whole scripted games per preset: every reply and the state after it, line by line.

Like open_spiel's playthroughs, each step records a one-line picture of the
table, so a change of rules shows in the diff as the step where the game
first goes another way.

The expected files were reviewed by hand against the rulebooks. After a
deliberate change of wording or rules, regenerate them with
``DUDO_REGENERAR=1 pytest tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from assistant import replies
from assistant.rules import Game, load_rules
from assistant.session import script_lines, simulate

GOLDEN = Path(__file__).parent / "golden"
SCRIPTS = sorted(GOLDEN.glob("*.txt"))


def header(path: Path) -> tuple[str, list[str]]:
    values = {}
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("# ") and ":" in line:
            key, _, value = line[2:].partition(":")
            values[key.strip()] = value.strip()
    spec = values["reglas"]
    if spec.endswith(".toml"):
        spec = str(GOLDEN / spec)
    return spec, values["jugadores"].split(",")


def line(game: Game) -> str:
    """The table in one line, drawn from its public picture (``Game.picture``):
    round, phase, mode, turn and way, bid, what is being counted, each seat's score."""
    shown = game.picture(detail=True)
    parts = [f"ronda {shown['ronda']}", shown["fase"]]
    if shown["modo"] != "normal":
        parts.append(shown["modo"])
    if shown["turno"] is not None:
        parts.append(f"turno {shown['turno']} ({shown['sentido']})")
    if game.bid is not None:
        parts.append(f"{replies.say(game, game.bid)} de {shown['apuesta']['jugador']}")
    if shown["contando"] is not None:
        parts.append(f"falta contar {shown['contando']}")
    seats = []
    for s in shown["jugadores"]:
        score = "fuera" if s["eliminado"] else f"{s['dados']}d" + (f" {s['palos']}p" if s["palos"] else "") + (f" +{s['a_favor']}" if s["a_favor"] else "")
        seats.append(f"{s['nombre']} {score}")
    return " · ".join(parts) + " | " + ", ".join(seats)


def run(path: Path) -> dict[str, object]:
    spec, players = header(path)
    return simulate(Game(load_rules(spec), players), script_lines(path), trace=line)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_golden_game(script: Path) -> None:
    expected_path = script.with_suffix(".json")
    result = run(script)
    if os.environ.get("DUDO_REGENERAR"):
        expected_path.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", "utf-8")
    expected = json.loads(expected_path.read_text("utf-8"))
    for i, (got, want) in enumerate(zip(result["pasos"], expected["pasos"], strict=True)):  # type: ignore[call-overload]
        assert got == want, f"{script.name}, paso {i + 1} «{want['entrada']}»"
    assert result["estado"] == expected["estado"]


def test_every_preset_has_a_game_to_the_winner() -> None:
    winners = {}
    for script in SCRIPTS:
        spec, _ = header(script)
        winners[spec] = run(script)["estado"]["ganador"]  # type: ignore[index]
    for name in ("caleuchano", "yocacho", "chimbo9", "clasico"):
        assert winners[name], f"the {name} golden game does not reach a winner"
