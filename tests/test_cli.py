"""The `dudo` command as a user runs it: real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.test_crash import dudo_command

ROOT = Path(__file__).resolve().parents[1]


def dudo(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        dudo_command() + list(args), input=stdin, capture_output=True, text=True, timeout=120,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture()
def data_dir(tmp_path: Path) -> dict[str, str]:
    return {"DUDO_DATOS": str(tmp_path / "datos"), "DUDO_MODELOS": str(tmp_path / "modelos"), "DUDO_MODELO": ""}


def test_help_is_spanish_with_examples() -> None:
    result = dudo("--help")
    assert result.returncode == 0
    assert "Uso:" in result.stdout and "Comandos" in result.stdout and "Muestra esta ayuda" in result.stdout
    for command in ("jugar", "reanudar", "simular", "interpretar", "transcribir", "dispositivos", "modelo"):
        assert command in result.stdout
    for command in ("jugar", "simular", "interpretar", "transcribir", "reanudar", "gramatica"):
        sub = dudo(command, "--help")
        assert sub.returncode == 0 and "Ejemplo" in sub.stdout, command


def test_interpretar_arguments_and_stdin() -> None:
    result = dudo("interpretar", "van tres trenes", "dudo po", "tengo sed", "--jugadores", "ana,beto")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [
        {"accion": "apuesta", "cantidad": 3, "pinta": 3},
        {"accion": "dudo"},
        {"accion": "desconocido"},
    ]
    piped = dudo("interpretar", "--jugadores", "ana,beto", stdin="ana tiene dos\npalo para beto\n")
    assert [json.loads(line) for line in piped.stdout.splitlines()] == [
        {"accion": "cuenta_jugador", "jugador": "ana", "cantidad": 2},
        {"accion": "castigo", "jugador": "beto"},
    ]


def test_simular_json_shape(tmp_path: Path) -> None:
    script = tmp_path / "g.txt"
    script.write_text("# comentario\nparte ana\ntres trenes\ndudo\nhay dos\ncalzo\n", "utf-8")
    result = dudo("simular", str(script), "--reglas", "yocacho", "--jugadores", "ana,beto,carla", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [s["aceptada"] for s in data["pasos"]] == [True, True, True, True, False]
    assert set(data["pasos"][0]) == {"entrada", "aceptada", "respuesta"}
    assert data["estado"] == {
        "reglas": "yocacho",
        "jugadores": [
            {"nombre": "ana", "dados": 4, "palos": 0, "eliminado": False},
            {"nombre": "beto", "dados": 5, "palos": 0, "eliminado": False},
            {"nombre": "carla", "dados": 5, "palos": 0, "eliminado": False},
        ],
        "turno": "ana",
        "apuesta": None,
        "modo": "normal",
        "ganador": None,
        "ronda": 2,
    }


def test_jugar_texto_end_to_end_and_resume(data_dir: dict[str, str]) -> None:
    first = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "chimbo9",
                 stdin="parte ana\ntres trenes\ndudo\nhay uno\n", env=data_dir)
    assert first.returncode == 0, first.stderr
    out = first.stdout.splitlines()
    assert out[0].startswith("¡Hola! Juegan ana y beto")
    assert out[-1].startswith("Había un tren. Ana pierde una ficha")
    assert "dudo reanudar" in first.stderr
    again = dudo("reanudar", "--texto", stdin="cómo vamos\n", env=data_dir)
    assert again.stdout.splitlines()[0].startswith("Seguimos la partida: ronda dos.")
    assert again.stdout.splitlines()[1] == "Ana, dos fichas; beto, tres fichas."
    offered = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "chimbo9", stdin="sí\ncómo vamos\n", env=data_dir)
    assert "¿La seguimos?" in offered.stdout and "Ana, dos fichas" in offered.stdout


def test_jugar_without_model_says_why_and_plays_by_keyboard(data_dir: dict[str, str]) -> None:
    result = dudo("jugar", "--jugadores", "ana,beto", "--nueva", stdin="parte ana\n", env=data_dir)
    assert "No hay modelo de voz en español" in result.stderr
    assert "Parte ana, por la izquierda." in result.stdout


def test_errors_are_spanish_without_traceback(tmp_path: Path, data_dir: dict[str, str]) -> None:
    bad = tmp_path / "roto.jsonl"
    bad.write_text('{"formato": 1}\n{"accion"\n{"x": 1}\n', "utf-8")
    result = dudo("reanudar", "--texto", "--partida", str(bad), env=data_dir)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "dañado" in result.stderr
    for args, message in [
        (["jugar", "--texto", "--jugadores", "ana"], "al menos dos jugadores"),
        (["jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "truco"], "No conozco las reglas"),
        (["simular", "no-existe.txt"], "No encuentro el archivo"),
        (["reanudar", "--texto"], "No hay ninguna partida sin terminar"),
    ]:
        result = dudo(*args, env=data_dir)
        assert result.returncode != 0 and message in result.stderr and "Traceback" not in result.stderr, args


def test_modelo_estado_and_missing_model(data_dir: dict[str, str], tmp_path: Path) -> None:
    result = dudo("modelo", "estado", env=data_dir)
    assert "No está el modelo en español" in result.stdout
    wav = tmp_path / "x.wav"
    wav.write_bytes(b"RIFF")
    result = dudo("transcribir", str(wav), env=data_dir)
    assert result.returncode == 1 and "dudo modelo descargar" in result.stderr


def test_gramatica_reports_size() -> None:
    result = dudo("gramatica", "--jugadores", "ana,beto")
    assert result.returncode == 0 and "frases" in result.stdout and "palabras distintas" in result.stdout


def test_python_dash_m_works() -> None:
    import sys

    result = subprocess.run([sys.executable, "-m", "assistant", "interpretar", "calzo"], capture_output=True, text=True)
    assert json.loads(result.stdout) == {"accion": "calzo"}


def test_resume_after_a_torn_write_says_so(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "yocacho",
         stdin="parte ana\ntres trenes\ncuatro trenes\n", env=data_dir)
    folder = Path(data_dir["DUDO_DATOS"]) / "partidas"
    (path,) = folder.glob("partida-*.jsonl")
    path.write_bytes(path.read_bytes()[:-20])  # the power went mid-write
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert "estaba cortada y la descarté" in result.stdout
    assert "Van tres trenes, de ana. Le toca a beto." in result.stdout
