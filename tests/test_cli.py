"""The `dudo` command as a user runs it: real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
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
    assert out[-1].startswith("Había un tren, no tres. Ana pierde una ficha")
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
    assert "Traceback" not in result.stderr and "roto.jsonl no es un registro de partida" in result.stderr
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
    text = path.read_bytes()
    path.write_bytes(text[:-20])  # the power went mid-write, in the second copy: nothing is lost
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert "Ojo" not in result.stdout
    assert "Van cuatro trenes, de beto. Le toca a ana." in result.stdout
    last = text.splitlines()[-1]
    path.write_bytes(text[: -len(last) - 20])  # in the first copy: that record was never answered
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert "estaba cortada, y la descarté" in result.stdout
    assert "Van tres trenes, de ana. Le toca a beto." in result.stdout


def _journals(data_dir: dict[str, str]) -> list[Path]:
    return sorted((Path(data_dir["DUDO_DATOS"]) / "partidas").glob("partida-*.jsonl"))


def test_the_resume_offer_names_rules_score_and_pending_and_a_game_line_means_yes(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", "--reglas", "yocacho",
         stdin="parte ana\ntres trenes\ndudo\nhay cero\ncuatro quinas\ndudo\nbeto uno\n", env=data_dir)
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", stdin="carla cero\n", env=data_dir)
    offer, *rest = result.stdout.splitlines()
    assert offer.startswith("Hay una partida sin terminar de ana, beto y carla, en la ronda dos. Reglas Yo Cacho.")
    assert "Ana, cuatro dados; beto, cinco dados; carla, cinco dados." in offer
    assert "Estamos contando: ya dijeron beto uno." in offer and offer.endswith("¿La seguimos? Sí o no.")
    # "carla cero" is a game line: it means yes, and it is played
    assert rest[0].startswith("Seguimos la partida: ronda dos.")
    assert rest[1] == "Va uno. Falta ana."


def test_other_rules_or_players_are_not_the_same_game(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", "--reglas", "yocacho", stdin="parte ana\ntres trenes\n", env=data_dir)
    for args in (["--jugadores", "ana,beto,carla", "--reglas", "caleuchano"], ["--jugadores", "ana,beto"]):
        result = dudo("jugar", "--texto", *args, stdin="parte ana\n", env=data_dir)
        assert "partida sin terminar" not in result.stdout, args
        assert result.stdout.startswith("¡Hola!"), args
    found = dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", "--reglas", "yocacho", stdin="sí\n", env=data_dir)
    assert found.stdout.startswith("Hay una partida sin terminar de ana, beto y carla, en la ronda")
    assert "Reglas Yo Cacho." in found.stdout.splitlines()[0]


def test_empty_games_are_never_unfinished_and_never_hide_the_real_one(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\n", env=data_dir)
    for _ in range(2):  # started and left at once
        empty = dudo("jugar", "--texto", "--nueva", "--jugadores", "ana,beto", stdin="", env=data_dir)
        assert empty.returncode == 0
    assert len(_journals(data_dir)) == 1  # an empty game leaves no journal behind
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert "Van tres trenes, de ana. Le toca a beto." in result.stdout


def test_a_damaged_newest_journal_is_told_and_offered_up_to_its_last_good_line(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\n", env=data_dir)
    dudo("jugar", "--texto", "--nueva", "--jugadores", "ana,beto", stdin="parte beto\ncinco quinas\nseis quinas\ndudo\n", env=data_dir)
    newest = _journals(data_dir)[-1]
    lines = newest.read_bytes().split(b"\n")
    lines[6] = lines[7] = b"\x00\xff garbage"  # both copies of "seis quinas"
    newest.write_bytes(b"\n".join(lines))
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert result.returncode == 0, result.stderr
    assert "el registro de la partida está dañado en la línea siete" in result.stdout  # said: no file name aloud
    assert f"El registro {newest.name} está dañado en la línea 7" in result.stderr  # the terminal's note names it
    assert "Van cinco quinas, de beto. Le toca a ana." in result.stdout  # the newest game, up to line 6
    # the damaged file is kept aside, and the game goes on in a clean journal
    assert newest.with_name(newest.name + ".dañado").exists()
    assert f"quedó aparte en {newest}.dañado" in result.stderr
    assert "dañado" not in dudo("reanudar", "--texto", stdin="", env=data_dir).stdout


def test_one_damaged_line_is_named_and_nothing_is_lost(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte beto\ncinco quinas\nseis quinas\n", env=data_dir)
    (path,) = _journals(data_dir)
    lines = path.read_bytes().split(b"\n")
    lines[4] = lines[4].replace(b'"cantidad": 5', b'"cantidad": 4')  # still JSON, still a legal bid
    path.write_bytes(b"\n".join(lines))
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Ojo: el registro de la partida no estaba como lo escribí, en la línea cinco. "
                                    "Cada jugada está escrita dos veces: sigo con la copia, y no se perdió nada.")
    assert f"El registro {path.name} no estaba como se escribió (líneas 5)" in result.stderr  # the file, for the terminal
    assert "Van seis quinas, de ana. Le toca a beto." in result.stdout
    assert path.with_name(path.name + ".dañado").read_bytes() == b"\n".join(lines)


def test_three_flipped_bytes_in_the_header_resume_at_the_same_place(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", "--reglas", "yocacho",
         stdin="parte ana\ntres trenes\ndudo\nana uno\n", env=data_dir)
    (path,) = _journals(data_dir)
    text = bytearray(path.read_bytes())
    for at in (30, 300, 900):  # in the rules and the players
        text[at] ^= 0x5A
    path.write_bytes(bytes(text))
    result = dudo("reanudar", "--texto", stdin="beto uno\n", env=data_dir)
    assert result.returncode == 0, result.stderr
    assert "no estaba como lo escribí, en la línea uno" in result.stdout
    assert "Van tres trenes, de ana. Estamos contando: ya dijeron ana uno." in result.stdout
    assert result.stdout.splitlines()[-1] == "Van dos. Falta carla."


def test_garbage_at_the_end_is_named_as_garbage_and_kept_aside(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte beto\ncinco quinas\n", env=data_dir)
    (path,) = _journals(data_dir)
    text = path.read_bytes()
    path.write_bytes(text + b"\xff\xfe esto no es del registro\n")
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert result.returncode == 0, result.stderr
    assert "la última línea del registro es basura" in result.stdout
    assert f"La última línea del registro {path.name} (la 7) es basura" in result.stderr
    assert "cortada" not in result.stdout and "Van cinco quinas, de beto." in result.stdout
    assert path.read_bytes() == text and path.with_name(path.name + ".dañado").exists()


@pytest.mark.parametrize("bad", [b"5", b"[]", b"null", b'{"acciones": [{"tipo": "cuenta", "cantidad": "3"}]}'])
def test_the_service_start_never_crash_loops_on_a_damaged_journal(data_dir: dict[str, str], bad: bytes) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\ncuatro trenes\n", env=data_dir)
    (path,) = _journals(data_dir)
    lines = path.read_bytes().split(b"\n")
    lines[2] = bad
    path.write_bytes(b"\n".join(lines))
    for time in range(2):  # twice: a restart finds a clean journal
        result = dudo("jugar", "--texto", "--continuar", "--jugadores", "ana,beto", stdin="repite\n", env=data_dir)
        assert result.returncode == 0 and "Traceback" not in result.stderr and "Algo falló" not in result.stderr
        assert ("no estaba como lo escribí, en la línea tres" in result.stdout) == (time == 0)
        assert result.stdout.endswith("Van cuatro trenes, de beto. Le toca a ana.\n")  # nothing lost


def test_a_journal_that_is_not_one_never_blocks_the_others(data_dir: dict[str, str]) -> None:
    dudo("jugar", "--texto", "--jugadores", "ana,beto", stdin="parte ana\ntres trenes\n", env=data_dir)
    folder = Path(data_dir["DUDO_DATOS"]) / "partidas"
    (folder / "partida-99999999-999999-999999.jsonl").write_bytes(b"\xff\xfe\x00 no soy un registro\n{}\n")
    result = dudo("reanudar", "--texto", stdin="repite\n", env=data_dir)
    assert result.returncode == 0
    assert "partida-99999999-999999-999999.jsonl no es un registro de partida" in result.stdout
    assert "Van tres trenes, de ana. Le toca a beto." in result.stdout


def test_the_command_line_default_rules_are_the_engines() -> None:
    from assistant import cli
    from assistant.rules import DEFAULT_PRESET

    assert cli.DEFAULT_PRESET == DEFAULT_PRESET


def test_transcribir_starts_without_loading_the_game() -> None:
    """The command line imports the game's modules only for the commands that play."""
    import sys

    code = "import sys, assistant.cli; print(sorted(m for m in sys.modules if m.startswith(('assistant.rules', 'assistant.journal', 'assistant.referee'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# ------------------------------------------------------------------ the journal the table names

OS_ENGLISH = ("Is a directory", "Not a directory", "No such file", "Permission denied", "Errno", "Traceback", "Error")


def test_an_empty_partida_file_starts_the_game_there(tmp_path: Path, data_dir: dict[str, str]) -> None:
    """The issue's check: an empty file given to ``jugar --partida`` is where the game goes, exit 0."""
    path = tmp_path / "mesa.jsonl"
    path.touch()
    result = dudo("jugar", "--texto", "--partida", str(path), "--jugadores", "ana,beto", "--reglas", "yocacho",
                  stdin="parte ana\ntres trenes\n", env=data_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("¡Hola! Juegan ana y beto") and result.stdout.endswith("Tres trenes. Sigue beto.\n")
    assert f"Registro de la partida: {path}" in result.stderr
    assert not (Path(data_dir["DUDO_DATOS"]) / "partidas").exists()  # not in another file
    again = dudo("reanudar", "--texto", "--partida", str(path), stdin="repite\n", env=data_dir)
    assert "Van tres trenes, de ana. Le toca a beto." in again.stdout
    # nothing played: the table's file stays (empty of moves), never removed
    other = tmp_path / "otra.jsonl"
    other.touch()
    assert dudo("jugar", "--texto", "--partida", str(other), "--jugadores", "ana,beto", env=data_dir).returncode == 0
    assert other.exists()


def test_a_header_with_no_moves_starts_the_game_in_that_file(tmp_path: Path, data_dir: dict[str, str]) -> None:
    path = tmp_path / "mesa.jsonl"
    path.touch()
    dudo("jugar", "--texto", "--partida", str(path), "--jugadores", "ana,beto,carla", "--reglas", "yocacho", env=data_dir)
    assert len(path.read_bytes().splitlines()) == 2  # the header and its copy
    # its players and rules, as nobody named others
    result = dudo("jugar", "--texto", "--partida", str(path), stdin="parte carla\n", env=data_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("¡Hola! Juegan ana, beto y carla, en ese orden por la izquierda. Reglas Yo Cacho.")
    assert result.stdout.endswith("Parte carla, por la izquierda.\n")
    assert not (Path(data_dir["DUDO_DATOS"]) / "partidas").exists()
    assert len(path.read_bytes().splitlines()) == 4


def test_a_partida_file_with_another_game_is_left_as_it_is(tmp_path: Path, data_dir: dict[str, str]) -> None:
    path = tmp_path / "mesa.jsonl"
    dudo("jugar", "--texto", "--partida", str(path), "--jugadores", "ana,beto", stdin="parte ana\n", env=data_dir)
    text = path.read_bytes()
    result = dudo("jugar", "--texto", "--partida", str(path), "--jugadores", "carla,dani", stdin="parte dani\n", env=data_dir)
    assert result.returncode == 0 and result.stdout.endswith("Parte dani, por la izquierda.\n")
    assert f"{path} ya tiene una partida guardada, así que esta nueva va en" in result.stderr
    assert path.read_bytes() == text


@pytest.mark.parametrize("args", [["jugar", "--texto", "--jugadores", "ana,beto"], ["jugar", "--texto", "--nueva", "--jugadores", "ana,beto"],
                                  ["jugar", "--texto", "--continuar", "--jugadores", "ana,beto"], ["reanudar", "--texto"]])
def test_a_folder_as_the_journal_is_refused_in_spanish_only(tmp_path: Path, data_dir: dict[str, str], args: list[str]) -> None:
    """The issue's check: no words of the system's English at the table; they go to the log."""
    folder = tmp_path / "carpeta.jsonl"
    folder.mkdir()
    result = dudo(*args, "--partida", str(folder), stdin="parte ana\n", env=data_dir)
    assert result.returncode == 1
    assert result.stderr == f"{folder} es una carpeta, no un registro de partida: nombra un archivo, por ejemplo {folder / 'partida.jsonl'}\n"
    assert result.stdout == "" and not any(word in result.stderr for word in OS_ENGLISH)
    assert list(folder.iterdir()) == []
    assert "a directory" in (Path(data_dir["DUDO_DATOS"]) / "dudo.log").read_text("utf-8")


def test_a_pipe_or_a_path_through_a_file_is_refused_in_spanish_without_waiting(tmp_path: Path, data_dir: dict[str, str]) -> None:
    import os

    pipe = tmp_path / "tubo.jsonl"
    os.mkfifo(pipe)
    result = dudo("reanudar", "--texto", "--partida", str(pipe), env=data_dir)  # reading a pipe would wait forever
    assert result.returncode == 1 and "no es un archivo común" in result.stderr
    (tmp_path / "archivo").write_text("x")
    inside = tmp_path / "archivo" / "p.jsonl"
    result = dudo("reanudar", "--texto", "--partida", str(inside), env=data_dir)
    assert result.returncode == 1
    assert result.stderr == f"No pude leer el registro {inside}: una parte del camino no es una carpeta.\n"
    # a new game there: the table hears it cannot be kept, in Spanish, and plays on
    result = dudo("jugar", "--texto", "--partida", str(inside), "--jugadores", "ana,beto", stdin="parte ana\n", env=data_dir)
    assert result.returncode == 0 and "No puedo guardar la partida" in result.stdout
    assert not any(word in result.stdout + result.stderr for word in OS_ENGLISH)


def test_a_folder_as_the_configuration_is_refused_in_spanish(tmp_path: Path, data_dir: dict[str, str]) -> None:
    result = dudo("jugar", "--texto", "--config", str(tmp_path), env=data_dir)
    assert result.returncode == 1
    assert result.stderr == f"No pude leer la configuración {tmp_path}: es una carpeta, no un archivo.\n"


def test_house_rules_in_a_pipe_are_refused_without_waiting(tmp_path: Path, data_dir: dict[str, str]) -> None:
    import os

    pipe = tmp_path / "casa.toml"
    os.mkfifo(pipe)
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", str(pipe), env=data_dir)
    assert result.returncode == 1
    assert result.stderr == "casa.toml no es un archivo común (es una tubería o un dispositivo): nombra un archivo TOML con las reglas.\n"


def test_an_unreadable_rules_file_is_said_in_spanish() -> None:
    """Root reads anything here: the reason as the rules pass it (the error's name) is worded directly."""
    from assistant import replies
    from assistant.rules import refusals as no

    assert replies.refusal(no.BadRulesFile("casa.toml", "ilegible", "EACCES")) == "No pude leer el archivo casa.toml: no tengo permiso para leerlo."
    assert replies.refusal(no.BadRulesFile("casa.toml", "ilegible", "")) == "No pude leer el archivo casa.toml: el sistema no me deja leerlo."


def korean_zip(folder: Path, root: str = "vosk-model-small-es-0.42") -> Path:
    """The Korean stand-in model, zipped the way vosk publishes its models (one folder inside)."""
    from tests.test_voice import korean_model

    archive = folder / f"{root}.zip"
    model = korean_model()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for path in sorted(model.rglob("*")):
            if path.is_file():
                zf.write(path, f"{root}/{path.relative_to(model)}")
    return archive


@pytest.mark.vosk
@pytest.mark.slow
def test_modelo_instalar_from_a_brought_zip_checks_it_and_says_where_it_went(tmp_path: Path, data_dir: dict[str, str]) -> None:
    assert "dudo modelo instalar" in dudo("modelo", "--help").stdout
    archive = korean_zip(tmp_path)
    broken = tmp_path / "roto.zip"
    data = bytearray(archive.read_bytes())
    data[len(data) // 2] ^= 0xFF
    broken.write_bytes(bytes(data))
    cut = tmp_path / "cortado.zip"
    cut.write_bytes(archive.read_bytes()[: len(data) // 3])
    for bad in (broken, cut):
        refused = dudo("modelo", "instalar", str(bad), env=data_dir)
        assert refused.returncode == 1 and "no es un zip sano" in refused.stderr and "Traceback" not in refused.stderr
        assert not Path(data_dir["DUDO_MODELOS"]).exists() or not any(Path(data_dir["DUDO_MODELOS"]).iterdir())
    done = dudo("modelo", "instalar", str(archive), env=data_dir)
    target = Path(data_dir["DUDO_MODELOS"]) / "vosk-model-small-es-0.42"
    assert done.returncode == 0, done.stderr
    assert f"instalado en {target}" in done.stdout and "no es el archivo publicado" in done.stdout.lower()
    assert (target / "am" / "final.mdl").is_file() and sorted(p.name for p in target.parent.iterdir()) == [target.name]
    state = dudo("modelo", "estado", env=data_dir)
    assert state.returncode == 0 and str(target) in state.stdout and "carga bien" in state.stdout
    again = dudo("modelo", "instalar", str(broken), env=data_dir)  # a bad copy later leaves the good model alone
    assert again.returncode == 1 and (target / "am" / "final.mdl").is_file()


def test_an_offline_launch_says_one_spanish_line_with_the_file_install(tmp_path: Path, data_dir: dict[str, str]) -> None:
    fetch = dudo("modelo", "descargar", "--si-falta", "--al-jugar", "--url", "http://127.0.0.1:9/vosk-model-small-es-0.42.zip", env=data_dir)
    assert fetch.returncode == 1 and fetch.stdout == ""
    assert fetch.stderr.splitlines() == [
        "Sin internet no pude bajar el modelo de voz: se juega escribiendo. Para jugar hablando, con el archivo en un pendrive: "
        "dudo modelo instalar vosk-model-small-es-0.42.zip"]


def test_a_misspelt_command_or_preset_is_offered_the_closest_in_spanish(data_dir: dict[str, str]) -> None:
    command = dudo("jugr", env=data_dir)
    assert command.returncode == 2 and "No existe el comando 'jugr'. ¿Quisiste decir 'jugar'?" in command.stderr
    assert "Did you mean" not in command.stderr
    assert "¿Quisiste decir 'instalar'?" in dudo("modelo", "instala", "x.zip", env=data_dir).stderr
    for typed, meant in (("calechano", "caleuchano"), ("Clásico", "clasico"), ("yocaco", "yocacho")):
        rules = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", typed, env=data_dir)
        assert rules.returncode == 1 and f"No conozco las reglas '{typed}'. ¿Quisiste decir '{meant}'?" in rules.stderr, typed
    far = dudo("simular", "x.txt", "--reglas", "zzz", env=data_dir)
    assert "¿Quisiste decir" not in far.stderr


def test_reanudar_help_says_partida_is_the_last_unfinished_game() -> None:
    def words(*args: str) -> str:  # the help's text without rich's boxes
        return " ".join(dudo(*args).stdout.replace("│", " ").split())

    shown = words("reanudar", "--help")
    assert "la última sin terminar" in shown and "uno nuevo" not in shown
    assert "uno nuevo" in words("jugar", "--help")


def _hint(text: str, before: str) -> list[str]:
    """The command a note names after ``before``, split as a shell would."""
    import shlex

    tail = text.split(before, 1)[1]
    return shlex.split(tail.split(" (registro:")[0].rstrip("]\n"))


def test_the_hints_the_program_prints_work_as_typed(tmp_path: Path, data_dir: dict[str, str]) -> None:
    """A game kept in a file the table named (with a space in its folder) is resumed by
    the very command the note prints; so is the empty file's hint, and the plain one."""
    kept = tmp_path / "mis partidas" / "viernes.jsonl"
    kept.parent.mkdir()
    played = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--partida", str(kept), stdin="parte ana\ntres trenes\n", env=data_dir)
    hint = _hint(played.stderr + played.stdout, "Para seguirla: ")
    assert hint == ["dudo", "reanudar", "--partida", str(kept)], hint
    resumed = dudo(*hint[1:], "--texto", stdin="dudo\n", env=data_dir)
    assert resumed.returncode == 0 and "Seguimos la partida" in resumed.stdout and "Beto duda los tres trenes de ana" in resumed.stdout
    plain = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--nueva", stdin="parte ana\ntres trenes\n", env=data_dir)
    hint = _hint(plain.stderr + plain.stdout, "Para seguirla: ")
    assert hint == ["dudo", "reanudar"]
    assert "Seguimos la partida" in dudo(*hint[1:], "--texto", env=data_dir).stdout
    empty = tmp_path / "mis partidas" / "vacio.jsonl"
    empty.touch()
    refused = dudo("reanudar", "--texto", "--partida", str(empty), env=data_dir)
    hint = _hint(refused.stderr, "Para empezar una ahí: ")
    assert hint == ["dudo", "jugar", "--partida", str(empty)]
    started = dudo(*hint[1:], "--texto", stdin="ana, beto\nparte ana\n", env=data_dir)
    assert started.returncode == 0 and "Juegan ana y beto" in started.stdout
