"""The `dudo` command.

Heavy modules (vosk, sounddevice, pyttsx3) are imported only by the
subcommands that need them, so `dudo interpretar` and `dudo simular` start fast.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import shlex
import sys
import traceback
import wave
from collections.abc import Iterator
from enum import StrEnum
from io import TextIOWrapper
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from assistant import cli_es, messages
from assistant.cli_modelo import modelo_app
from assistant.config import DEFAULT_RATE, RATES, TableConfig, players
from assistant.problems import SetupError, default_dir

if TYPE_CHECKING:  # the game's modules load only for the commands that play (transcribir starts fast)
    from assistant.session import TableIO

DEFAULT_PRESET = "caleuchano"
"""The rules when none are named (``assistant.rules.DEFAULT_PRESET``; a test checks they agree)."""

log = logging.getLogger("dudo")

cli_es.install()

app = typer.Typer(
    help=(
        "Árbitro de Dudo (cacho) por voz, sin internet.\n\n"
        "Ejemplos:\n\n"
        "  dudo jugar --jugadores ana,beto,carla --reglas caleuchano\n\n"
        "  dudo jugar --texto --jugadores ana,beto\n\n"
        "  dudo interpretar \"tres trenes\" \"dudo\"\n\n"
        "  dudo simular partida.txt --jugadores ana,beto --reglas yocacho --json"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help", "--ayuda"]},
)
app.add_typer(modelo_app, name="modelo")


UserError = SetupError
"""A problem to tell the player in Spanish, without a traceback."""


# ------------------------------------------------------------------ shared options

Players = Annotated[
    Optional[str],
    typer.Option("--jugadores", "-j", help="Nombres en el orden en que se juega por la izquierda, separados por comas: ana,beto,carla."),
]
Rules = Annotated[
    str,
    typer.Option("--reglas", "-r", help="Preset (caleuchano, yocacho, chimbo9, clasico) o un archivo TOML con reglas de la casa."),
]


def _players(text: str | None) -> list[str]:
    return list(players(text))


def _readable(path: Path) -> None:
    if not path.is_file():
        raise UserError(messages.no_such_file(path))


# ------------------------------------------------------------------ interpretar, gramatica


@app.command()
def interpretar(
    frases: Annotated[Optional[list[str]], typer.Argument(help="Frases a interpretar; sin frases, lee una por línea de la entrada.")] = None,
    jugadores: Players = None,
    todas: Annotated[
        bool, typer.Option("--todas", help="Todas las lecturas de cada frase, la mejor primero: cuánto de la frase explica cada una y con qué regla.")
    ] = False,
) -> None:
    """Muestra cómo se entiende cada frase, como JSON (una línea por frase).

    Sin contexto, la mejor lectura; en la mesa, el árbitro toma la primera que
    el juego acepta («ana dos trenes» después de levantar es la cuenta de ana).

    Ejemplo: dudo interpretar "van tres trenes" "lo dudo" --jugadores ana,beto
    """
    from assistant.speech import Parser

    parser = Parser(players=_players(jugadores))
    lines: Iterator[str] = iter(frases) if frases else (line.rstrip("\n") for line in sys.stdin)
    for line in lines:
        shown: object = [r.to_json() for r in parser.readings(line)] if todas else parser.parse(line).to_json()
        print(json.dumps(shown, ensure_ascii=False), flush=True)


@app.command()
def gramatica(
    jugadores: Players = None,
    lista: Annotated[bool, typer.Option("--lista", help="Imprime todas las frases.")] = False,
) -> None:
    """Cuenta las frases que se le dan al reconocedor de voz (o las lista).

    Ejemplo: dudo gramatica --jugadores ana,beto --lista
    """
    from assistant.speech import grammar

    phrases = grammar.phrases(players=_players(jugadores))
    if lista:
        for phrase in phrases:
            print(phrase)
        return
    print(f"{len(phrases)} frases, {len(grammar.vocabulary(phrases))} palabras distintas.")


# ------------------------------------------------------------------ simular


@app.command()
def simular(
    guion: Annotated[Path, typer.Argument(help="Archivo con una frase por línea; las líneas con # son comentarios.")],
    jugadores: Players = None,
    reglas: Rules = DEFAULT_PRESET,
    como_json: Annotated[bool, typer.Option("--json", help="Imprime un objeto JSON con cada paso y el estado final.")] = False,
    guardar: Annotated[bool, typer.Option(
        "--guardar", help="Guarda el registro de la partida simulada, aparte (en simuladas/): nunca cuenta en las cifras de la noche.")] = False,
    sin_registro: Annotated[bool, typer.Option("--sin-registro", hidden=True, help="Ya no hace falta: sin --guardar no se guarda.")] = False,
) -> None:
    """Juega un guion (o repite lo que oyó el reconocedor una noche) de principio a fin, sin micrófono.

    Una partida simulada no es una noche jugada: no se guarda (salvo con
    --guardar, y entonces aparte), no cuenta en «dudo estadisticas» ni en la
    pantalla, y nunca se ofrece para seguirla en una mesa.

    Ejemplo: dudo simular partida.txt --jugadores ana,beto,carla --reglas yocacho --json
    """
    from assistant.night import new_game, rules_for, simulated
    from assistant.session import script_lines

    _readable(guion)
    game = new_game(rules_for(reglas), _players(jugadores))
    result = simulated(game, script_lines(guion), say=None if como_json else print, keep=guardar and not sin_registro)
    if como_json:
        print(json.dumps(result, ensure_ascii=False, indent=1))


# ------------------------------------------------------------------ jugar, reanudar

Model = Annotated[Optional[Path], typer.Option("--modelo", help="Carpeta de un modelo de vosk (o la variable DUDO_MODELO).")]
Mic = Annotated[Optional[str], typer.Option("--microfono", help="Micrófono: número o parte del nombre (ver «dudo dispositivos»).")]
Speaker = Annotated[Optional[str], typer.Option("--parlante", help="Parlante: número o parte del nombre (ver «dudo dispositivos»).")]
Voice = Annotated[Optional[str], typer.Option("--voz", help="Voz de espeak-ng, por ejemplo roa/es-419 (latinoamericana) o roa/es.")]
Rate = Annotated[Optional[int], typer.Option(
    "--velocidad", min=RATES[0], max=RATES[1], help=f"Palabras por minuto al hablar (de {RATES[0]} a {RATES[1]}; por omisión {DEFAULT_RATE}).")]
Text = Annotated[bool, typer.Option("--texto", help="Jugar escribiendo en vez de hablar.")]
Screen = Annotated[Optional[str], typer.Option(
    "--pantalla", help="Abre el marcador para teléfonos o la tele: PUERTO lo abre a la red del local (dice su dirección y "
                       "muestra un código QR); HOST:PUERTO, solo en esa dirección (127.0.0.1:PUERTO, solo en este equipo).")]


class Level(StrEnum):
    poco = "poco"
    normal = "normal"
    todo = "todo"


Talk = Annotated[Optional[Level], typer.Option(
    "--hablar",
    help="Cuánto habla el árbitro: poco (un sonido corto por apuesta aceptada; por omisión con voz), "
         "normal (por omisión escribiendo) o todo (también dice a quién le toca y qué puede decir).")]
Record = Annotated[bool, typer.Option("--grabar", help="Por voz: guarda también el audio de cada frase (WAV), junto al registro de lo que oyó el reconocedor.")]
JournalPath = Annotated[Optional[Path], typer.Option("--partida", help="Archivo de registro de la partida (por omisión, uno nuevo en la carpeta de datos).")]
ResumedPath = Annotated[Optional[Path], typer.Option(
    "--partida", help="Archivo de registro de la partida a seguir (por omisión, la última sin terminar en la carpeta de datos).")]


OptionalRules = Annotated[
    Optional[str],
    typer.Option(
        "--reglas", "-r",
        help=f"Preset (caleuchano, yocacho, chimbo9, clasico) o un archivo TOML con reglas de la casa. Por omisión, {DEFAULT_PRESET}.",
    ),
]


@app.command()
def jugar(
    jugadores: Players = None,
    reglas: OptionalRules = None,
    texto: Text = False,
    modelo: Model = None,
    microfono: Mic = None,
    parlante: Speaker = None,
    voz: Voice = None,
    velocidad: Rate = None,
    partida: JournalPath = None,
    grabar: Record = False,
    pantalla: Screen = None,
    hablar: Talk = None,
    continuar: Annotated[bool, typer.Option("--continuar", help="Si hay una partida sin terminar, seguirla sin preguntar.")] = False,
    nueva: Annotated[bool, typer.Option("--nueva", help="Empezar una partida nueva aunque haya una sin terminar.")] = False,
    config: Annotated[Optional[Path], typer.Option("--config", help="Archivo TOML con jugadores y reglas (lo usa el servicio de la Raspberry Pi).")] = None,
) -> None:
    """Arbitra una partida: escucha, responde en voz alta y lleva la cuenta.

    Si hay una partida sin terminar con los mismos jugadores (y las mismas
    reglas, si se dicen), ofrece seguirla.

    Ejemplos:

      dudo jugar --jugadores ana,beto,carla --reglas caleuchano

      dudo jugar --texto --jugadores ana,beto --reglas yocacho
    """
    from assistant.config import table_config
    from assistant.night import Night, first_game

    table = table_config(
        players_text=jugadores, rules=reglas, text=texto, model=modelo, microphone=microfono, speaker=parlante, voice=voz,
        rate=velocidad, screen=pantalla, level=hablar.value if hablar else None, record_audio=grabar, journal=partida,
        resume="nueva" if nueva else "seguir" if continuar else "preguntar", file=config,
    )
    if table.rules:
        from assistant.night import rules_for

        rules_for(table.rules)  # a house-rules file's problems are told before the microphone opens
    io = _io(table)
    first, journal = first_game(table, io)
    Night(io, table.level, table.screen).run(first, journal)


@app.command()
def reanudar(
    partida: ResumedPath = None,
    texto: Text = False,
    modelo: Model = None,
    microfono: Mic = None,
    parlante: Speaker = None,
    voz: Voice = None,
    velocidad: Rate = None,
    grabar: Record = False,
    pantalla: Screen = None,
    hablar: Talk = None,
) -> None:
    """Sigue la última partida sin terminar (después de un corte de luz, por ejemplo).

    Ejemplo: dudo reanudar --texto
    """
    from assistant.config import TableConfig
    from assistant.night import Night, resumed_game

    table = TableConfig(text=texto, model=modelo, microphone=microfono, speaker=parlante, voice=voz,
                        rate=velocidad or DEFAULT_RATE, screen=pantalla, level=hablar.value if hablar else None, record_audio=grabar)
    io = _io(table)
    first, journal = resumed_game(partida, io)
    Night(io, table.level, table.screen).run(first, journal)


@app.command()
def historial() -> None:
    """Las partidas terminadas: fecha, jugadores, reglas, quién ganó, cuántas rondas y quién perdió más.

    Ejemplo: dudo historial
    """
    from assistant import report

    report.print_history()


@app.command()
def estadisticas(
    desde: Annotated[Optional[str], typer.Option("--desde", help="Desde esta noche o momento: 2026-11-20, o 2026-11-20T21:00.")] = None,
    hasta: Annotated[Optional[str], typer.Option("--hasta", help="Hasta esta noche (incluida) o momento.")] = None,
    jugador: Annotated[Optional[str], typer.Option("--jugador", help="Solo las cifras de este jugador.")] = None,
    noche: Annotated[bool, typer.Option("--noche", help="Solo esta noche (de 6 de la mañana a 6 de la mañana).")] = False,
    como_json: Annotated[bool, typer.Option("--json", help="Imprime las cifras como JSON.")] = False,
) -> None:
    """Quién duda mejor, quién blufea, quién gana: las cifras de cada jugador, sacadas de las partidas guardadas.

    Una noche va de 6 de la mañana a 6 de la mañana: una fecha sola en --desde o --hasta es esa noche entera.

    Ejemplo: dudo estadisticas --desde 2026-11-01 --hasta 2026-11-30 --jugador beto --json
    """
    from assistant import report

    try:
        period = report.period(desde, hasta, jugador, noche)
    except ValueError as err:
        raise UserError(messages.bad_moment(str(err))) from err
    report.print_figures(period, como_json)


# ------------------------------------------------------------------ input and output at the table


def _io(table: TableConfig) -> TableIO:
    """The keyboard, or the microphone and the voice when there is a model and audio."""
    from assistant.session import TableIO

    if table.text:
        return TableIO()
    from assistant.voice_io import table_io

    return table_io(table)


# ------------------------------------------------------------------ voice commands


@app.command()
def dispositivos() -> None:
    """Lista los micrófonos y parlantes que ve el sistema.

    Ejemplo: dudo dispositivos
    """
    from assistant.voice import microphone

    for line in microphone.describe_devices():
        print(line)


@app.command()
def transcribir(
    archivo: Annotated[Path, typer.Argument(help="Grabación WAV (mono, 16 bits).")],
    modelo: Model = None,
    jugadores: Players = None,
) -> None:
    """Reconoce una grabación y muestra qué se oyó y qué se entendió, con tiempos.

    Ejemplo: dudo transcribir mesa.wav --jugadores ana,beto
    """
    _readable(archivo)
    from assistant.voice import models, recognizer

    model_path = models.find_model(modelo)
    if model_path is None:
        raise UserError(models.MISSING_MODEL)
    loading = recognizer.load_in_background(model_path)  # the parser and the grammar are built meanwhile
    from assistant.speech import Parser, grammar

    names = _players(jugadores)
    parser = Parser(players=names)
    phrases = grammar.phrases(players=names)
    try:
        rec = recognizer.VoskRecognizer(model_path, phrases, model=loading.result())
    except recognizer.RecognizerError as err:
        raise UserError(str(err)) from err
    for heard in rec.transcribe_wav(archivo):
        command = parser.parse(heard.text)
        print(
            f"{heard.start or 0:7.2f}–{heard.end or 0:6.2f} s  conf {heard.confidence or 0:.2f}  "
            f"«{heard.text}» → {json.dumps(command.to_json(), ensure_ascii=False)}"
            f"  (listo en {heard.latency_ms:.0f} ms)"
        )


@app.command()
def grabar(
    carpeta: Annotated[Path, typer.Argument(help="Carpeta donde guardar las grabaciones (se crea; si ya tiene, se agregan).")],
    frases: Annotated[Optional[Path], typer.Option(
        "--frases", help="Archivo con una frase por línea (por omisión, todas las formas de jugada y algo de charla).")] = None,
    jugadores: Players = None,
    microfono: Mic = None,
    parlante: Speaker = None,
    voz: Voice = None,
    velocidad: Rate = 165,
) -> None:
    """Graba un corpus para medir el reconocimiento: dice una frase, el jugador la repite, y se guarda.

    Cada frase queda como WAV junto a lo que significa, en CARPETA/frases.tsv.
    Ctrl-C para terminar: lo grabado queda guardado.

    Ejemplo: dudo grabar mesa-viernes --jugadores ana,beto,carla --microfono USB
    """
    from assistant import fieldkit
    from assistant.speech import Parser
    from assistant.voice.microphone import Microphone, MicrophoneError, pick_device
    from assistant.voice.speaker import Speaker as Voz

    names = _players(jugadores) or ["ana", "beto", "carla"]
    if frases is not None:
        _readable(frases)
        phrases = fieldkit.fill(frases.read_text("utf-8").splitlines(), names)
    else:
        phrases = fieldkit.builtin_phrases(names)
    try:
        mic = Microphone(pick_device(microfono))
    except MicrophoneError as err:
        raise UserError(str(err)) from err
    speaker = Voz(voz, velocidad or DEFAULT_RATE, device=pick_device(parlante, "output"), fallback_print=lambda _text: None)
    total = len(phrases)
    manifest = carpeta / fieldkit.MANIFEST
    before = len(fieldkit.read_manifest(carpeta)) if manifest.exists() else 0

    def prompt(phrase: str) -> None:
        print(f"Di: «{phrase}»", flush=True)
        speaker.say(f"Di: {phrase}")
        speaker.wait()  # the player speaks after the prompt, not over it

    try:
        fieldkit.record(carpeta, phrases, Parser(players=names),
                                lambda: (fieldkit.Chunk(b.data, b.time) for b in mic.blocks()), mic.rate, prompt, speaker.busy_at)
    except KeyboardInterrupt:
        pass
    finally:
        mic.close()
    kept = len(fieldkit.read_manifest(carpeta)) if manifest.exists() else 0
    print(f"Listo: {kept - before} de {total} frases guardadas esta vez; {kept} en total en {carpeta}.")


@app.command()
def evaluar(
    carpeta: Annotated[Path, typer.Argument(help="Carpeta con WAV y frases.tsv (la que deja «dudo grabar»).")],
    modelo: Model = None,
    jugadores: Players = None,
    como_json: Annotated[bool, typer.Option("--json", help="Imprime el informe como JSON.")] = False,
) -> None:
    """Mide el reconocedor y el parser sobre un corpus grabado: acierto, charla tomada como jugada, latencia, confusiones.

    Ejemplo: dudo evaluar mesa-viernes --json
    """
    from assistant import fieldkit, replies
    from assistant.speech import Parser, grammar
    from assistant.voice import models, recognizer

    if not (carpeta / fieldkit.MANIFEST).is_file():
        raise UserError(f"En {carpeta} no hay {fieldkit.MANIFEST}: graba un corpus con: dudo grabar {shlex.quote(str(carpeta))}")
    model_path = models.find_model(modelo)
    if model_path is None:
        raise UserError(models.MISSING_MODEL)
    names = _players(jugadores) or fieldkit.manifest_players(carpeta)
    try:
        rec = recognizer.VoskRecognizer(model_path, grammar.phrases(players=names))
    except recognizer.RecognizerError as err:
        raise UserError(str(err)) from err
    try:
        report = fieldkit.evaluate(carpeta, lambda path: list(rec.transcribe_wav(path)), Parser(players=names)).to_json()
    except (ValueError, OSError, wave.Error) as err:
        raise UserError(f"No pude leer el corpus: {err}") from err
    if como_json:
        print(json.dumps({"modelo": model_path.name, **report}, ensure_ascii=False, indent=1))
        return
    print(replies.evaluation(model_path.name, report))


# ------------------------------------------------------------------ entry point


def log_path() -> Path:
    return default_dir() / "dudo.log"


LOG_BYTES = 1_000_000
"""The log rotates at this size, keeping two old files: about 3 MB at most."""


class _QuietLog(logging.handlers.RotatingFileHandler):
    """A log that cannot be written (disk full, read-only) drops the line: it
    never prints to the table or stops the game."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


def _setup_log(path: Path) -> None:
    logging.raiseExceptions = False
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = _QuietLog(path, maxBytes=LOG_BYTES, backupCount=2, encoding="utf-8", delay=True)
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root.addHandler(handler)


def main() -> None:
    """Run the app; a player never sees a traceback (it goes to the log file)."""
    path = log_path()
    _setup_log(path)
    if isinstance(sys.stdin, TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # a stray byte that is not UTF-8 is not fatal
    try:
        app()
    except UserError as err:
        print(str(err), file=sys.stderr)
        log.error("%s", err)
        sys.exit(getattr(err, "exit_code", 1))
    except Exception:
        log.error("error inesperado\n%s", traceback.format_exc())
        print(f"Algo falló y no pude seguir. El detalle quedó en {path}.", file=sys.stderr)
        sys.exit(1)
