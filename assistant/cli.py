"""The `dudo` command.

Heavy modules (vosk, sounddevice, pyttsx3) are imported only by the
subcommands that need them, so `dudo interpretar` and `dudo simular` start fast.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import logging
import logging.handlers
import os
import re
import sys
import traceback
import wave
from collections.abc import Iterator
from enum import StrEnum
from io import TextIOWrapper
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

try:  # typer >= 0.29 vendors click
    from typer import _click as _vendored_click  # type: ignore[attr-defined]

    click: Any = _vendored_click
except ImportError:  # pragma: no cover - older typer with click installed
    import click as _plain_click  # type: ignore[import-not-found]

    click = _plain_click

from assistant.problems import SetupError, default_dir

if TYPE_CHECKING:  # the game's modules load only for the commands that play (transcribir starts fast)
    from assistant import journal as journal_module
    from assistant.changes import Table
    from assistant.rules import Game, RuleSet
    from assistant.session import TableIO

DEFAULT_PRESET = "caleuchano"
"""The rules when none are named (``assistant.rules.DEFAULT_PRESET``; a test checks they agree)."""

log = logging.getLogger("dudo")

# ------------------------------------------------------------------ Spanish help

_TYPER_ES = {
    # the strings typer looks up through gettext; click's own are literals (patched below)
    "(dynamic)": "(dinámico)",
    "Aborted!": "Cancelado.",
    "default: {default}": "por omisión: {default}",
    "required": "obligatorio",
    "env var: {var}": "variable: {var}",
    "Arguments": "Argumentos",
    "Options": "Opciones",
    "Commands": "Comandos",
    "Missing command.": "Falta el comando.",
    "No such command {name!r}.": "No existe el comando {name!r}.",
}


def _spanish(message: str) -> str:
    return _TYPER_ES.get(message, message)


def _translate_help() -> None:
    import typer.core

    typer.core._ = _spanish  # type: ignore[attr-defined]
    # click's help option and usage prefix are literals, not gettext calls
    original_help_option = click.core.Command.get_help_option

    def help_option_es(self: Any, ctx: Any) -> Any:
        option = original_help_option(self, ctx)
        if option is not None:
            option.help = "Muestra esta ayuda y sale."
        return option

    click.core.Command.get_help_option = help_option_es  # click offers no hook for this text
    original_usage = click.formatting.HelpFormatter.write_usage

    def usage_es(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        args = args.replace("[OPTIONS]", "[OPCIONES]").replace("COMMAND [ARGS]...", "COMANDO [ARGUMENTOS]...")
        original_usage(self, prog, args, "Uso: " if prefix is None else prefix)

    click.formatting.HelpFormatter.write_usage = usage_es
    # typer imports its rich formatting only to print help or an error: the
    # Spanish goes in when it loads, so a command that runs never pays for rich
    if "typer.rich_utils" in sys.modules:
        _rich_in_spanish(sys.modules["typer.rich_utils"])
    else:
        sys.meta_path.insert(0, _WhenLoaded("typer.rich_utils", _rich_in_spanish))


def _rich_in_spanish(rich_utils: Any) -> None:
    rich_utils.OPTIONS_PANEL_TITLE = "Opciones"
    rich_utils.ARGUMENTS_PANEL_TITLE = "Argumentos"
    rich_utils.COMMANDS_PANEL_TITLE = "Comandos"
    rich_utils.ERRORS_PANEL_TITLE = "Error"
    rich_utils.DEFAULT_STRING = "[por omisión: {}]"
    rich_utils.REQUIRED_LONG_STRING = "[obligatorio]"
    rich_utils.ENVVAR_STRING = "[variable: {}]"
    rich_utils.ABORTED_TEXT = "Cancelado."
    rich_utils.RICH_HELP = "Prueba [blue]'{command_path} {help_option}'[/] para ver la ayuda."
    original_error = rich_utils.rich_format_error

    def error_es(err: Any) -> None:
        said = _error_es(err.format_message())
        err.format_message = lambda: said  # click builds its messages in English, as f-strings
        original_error(err)

    rich_utils.rich_format_error = error_es


class _WhenLoaded(importlib.abc.MetaPathFinder):
    """Runs ``then(module)`` right after the module ``name`` is first imported."""

    def __init__(self, name: str, then: Any) -> None:
        self.name = name
        self.then = then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        run, then = spec.loader.exec_module, self.then

        def exec_module(module: Any) -> None:
            run(module)
            then(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


_CLICK_ERRORS: list[tuple[str, Any]] = [
    (r"No such option: (\S+) \(Possible options: (.+)\)", lambda m: f"No existe la opción {m[1]}. ¿Quisiste decir {m[2].replace(', ', ' o ')}?"),
    (r"No such option: (\S+)", lambda m: f"No existe la opción {m[1]}."),
    (r"Invalid value for (.+?): (?:Input should be a valid integer.*|'.*' is not a valid integer.*)",
     lambda m: f"{m[1]} tiene que ser un número entero."),
    (r"Invalid value for (.+?): (-?\d+) is not in the range (\d+)<=x<=(\d+)\.",
     lambda m: f"{m[1]} tiene que ir de {m[3]} a {m[4]} (vino {m[2]})."),
    (r"Invalid value for (.+?): Input should be less than or equal to (-?\d+)", lambda m: f"{m[1]} puede ser {m[2]} como mucho."),
    (r"Invalid value for (.+?): Input should be greater than or equal to (-?\d+)", lambda m: f"{m[1]} tiene que ser al menos {m[2]}."),
    (r"Invalid value for (.+?): (?:Value error, )?'(.*)' is not one of (.*?)\.?",
     lambda m: f"{m[1]} tiene que ser {m[3].replace(', ', ' o ')} (vino '{m[2]}')."),
    (r"Invalid value for (.+?): (.*)", lambda m: f"Valor inválido para {m[1]}: {m[2]}"),
    (r"Option '(.+)' requires an argument\.", lambda m: f"A la opción '{m[1]}' le falta su valor."),
    (r"Missing argument '(.+)'\.", lambda m: f"Falta el argumento '{m[1]}'."),
    (r"Missing option '(.+)'\.", lambda m: f"Falta la opción '{m[1]}'."),
    (r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", lambda m: f"Sobra: {m[1]}."),
]


def _error_es(message: str) -> str:
    """click's English usage errors, said in Spanish."""
    for pattern, spanish in _CLICK_ERRORS:
        match = re.fullmatch(pattern, message, flags=re.DOTALL)
        if match:
            return str(spanish(match))
    return message


_translate_help()

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
modelo_app = typer.Typer(help="El modelo de voz en español: descargarlo y ver qué hay instalado.", no_args_is_help=True)
app.add_typer(modelo_app, name="modelo")


UserError = SetupError
"""A problem to tell the player in Spanish, without a traceback."""


class CannotServe(UserError):
    """The service cannot referee at all (no voice model): exit code 3, which
    the unit does not restart on (restarting cannot help)."""

    exit_code = 3


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
    if not text:
        return []
    names = [p.strip() for p in text.split(",") if p.strip()]
    return names


def _readable(path: Path) -> None:
    if not path.is_file():
        raise UserError(f"No encuentro el archivo {path}.")


def _rules(spec: str) -> Any:
    from assistant import replies
    from assistant.rules import RulesError, load_rules

    try:
        return load_rules(spec)
    except RulesError as err:
        raise UserError(replies.refusal(err.reason)) from err


def _new_game(rules: RuleSet, players: list[str]) -> Game:
    from assistant import replies
    from assistant.rules import Game, RulesError

    if len(players) < 2:
        raise UserError("Se necesitan al menos dos jugadores: --jugadores ana,beto")
    try:
        return Game(rules, players)
    except RulesError as err:
        raise UserError(replies.refusal(err.reason)) from err


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
) -> None:
    """Juega un guion de principio a fin, sin micrófono ni registro.

    Ejemplo: dudo simular partida.txt --jugadores ana,beto,carla --reglas yocacho --json
    """
    from assistant.session import script_lines, simulate

    _readable(guion)
    game = _new_game(_rules(reglas), _players(jugadores))
    result = simulate(game, script_lines(guion), say=None if como_json else print)
    if como_json:
        print(json.dumps(result, ensure_ascii=False, indent=1))


# ------------------------------------------------------------------ jugar, reanudar

Model = Annotated[Optional[Path], typer.Option("--modelo", help="Carpeta de un modelo de vosk (o la variable DUDO_MODELO).")]
Mic = Annotated[Optional[str], typer.Option("--microfono", help="Micrófono: número o parte del nombre (ver «dudo dispositivos»).")]
Speaker = Annotated[Optional[str], typer.Option("--parlante", help="Parlante: número o parte del nombre (ver «dudo dispositivos»).")]
Voice = Annotated[Optional[str], typer.Option("--voz", help="Voz de espeak-ng, por ejemplo roa/es-419 (latinoamericana) o roa/es.")]
RATES = (80, 450)
"""Words per minute a table can follow, slowest to fastest."""
Rate = Annotated[int, typer.Option("--velocidad", min=RATES[0], max=RATES[1], help="Palabras por minuto al hablar (de 80 a 450).")]
Text = Annotated[bool, typer.Option("--texto", help="Jugar escribiendo en vez de hablar.")]
Screen = Annotated[Optional[str], typer.Option(
    "--pantalla", help="Abre el marcador para teléfonos o la tele: [HOST:]PUERTO (por omisión solo en este equipo, 127.0.0.1).")]
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
    velocidad: Rate = 165,
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
    from assistant import journal as journal_module
    from assistant import replies
    from assistant.changes import Table

    table = _table_from(jugadores, reglas, config)
    names, rules_spec = table["jugadores"], table["reglas"]
    asked_rules = _rules(rules_spec) if rules_spec else None
    io = _io(
        texto, modelo, microfono or table.get("microfono"), voz or table.get("voz"),
        int(table.get("velocidad", velocidad)), names, parlante or table.get("parlante"), grabar,
    )
    if not nueva:
        found = _resumable(partida if partida and partida.exists() else None, io, names, asked_rules)
        if found is not None and (continuar or io.ask_yes_no(replies.resume_offer(found.game, found.partials), found.game.players)):
            level = (hablar.value if hablar else None) or table.get("hablar")
            _play(found.table, journal_module.Journal.resume(found), io, pantalla or table.get("pantalla"), level)
            return
    if not names:
        names = io.ask_players()
    game = _new_game(asked_rules or _rules(DEFAULT_PRESET), names)
    record = journal_module.Journal.create(game.rules, game.players, partida if partida and not partida.exists() else None)
    io.note(f"Registro de la partida: {record.path}")
    _play(Table(game), record, io, pantalla or table.get("pantalla"), (hablar.value if hablar else None) or table.get("hablar"))


@app.command()
def reanudar(
    partida: JournalPath = None,
    texto: Text = False,
    modelo: Model = None,
    microfono: Mic = None,
    parlante: Speaker = None,
    voz: Voice = None,
    velocidad: Rate = 165,
    grabar: Record = False,
    pantalla: Screen = None,
    hablar: Talk = None,
) -> None:
    """Sigue la última partida sin terminar (después de un corte de luz, por ejemplo).

    Ejemplo: dudo reanudar --texto
    """
    from assistant import journal as journal_module
    from assistant import replies

    io = _io(texto, modelo, microfono, voz, velocidad, [], parlante, grabar)
    loaded = _load(partida, io) if partida is not None else _latest(io)
    if loaded is None or loaded.empty:
        raise UserError("No hay ninguna partida sin terminar. Para una nueva: dudo jugar --jugadores ana,beto")
    if loaded.finished:
        raise UserError(f"La partida de {loaded.path.name} ya terminó: {replies.winner(loaded.game.winners, replies.payers(loaded.game))}")
    _play(loaded.table, journal_module.Journal.resume(loaded), io, pantalla, hablar.value if hablar else None)


def _journal_error(err: journal_module.JournalError) -> str:
    from assistant import replies

    return f"{err} {replies.refusal(err.reason)}" if err.reason is not None else str(err)


def _load(path: Path, io: TableIO) -> journal_module.Loaded:
    """The game in ``path``, its damage told to the table."""
    from assistant import journal as journal_module

    try:
        loaded = journal_module.load(path)
    except journal_module.JournalError as err:
        raise UserError(_journal_error(err)) from err
    _tell_damage(loaded, io)
    return loaded


def _tell_damage(loaded: journal_module.Loaded, io: TableIO) -> None:
    from assistant import replies

    damage = loaded.damage
    if damage is None:
        return
    log.warning("journal %s: line %d does not read (%s)", loaded.path, damage.line, damage.detail)
    if damage.torn:
        io.tell(replies.journal_dropped_line(damage.line))
    else:
        io.tell(replies.journal_damaged(loaded.path.name, damage.line))


def _resumable(path: Path | None, io: TableIO, players: list[str], rules: RuleSet | None) -> journal_module.Loaded | None:
    """The unfinished game to offer: the one in ``path``, or the latest with
    these players and rules (when given). Journals that cannot be read are told
    and skipped."""

    if path is not None:
        loaded = _load(path, io)
        same = (not players or list(loaded.game.players) == players) and (rules is None or loaded.game.rules.to_json() == rules.to_json())
        return loaded if same and not loaded.finished and not loaded.empty else None
    return _latest(io, players, rules)


def _latest(io: TableIO, players: list[str] | None = None, rules: RuleSet | None = None) -> journal_module.Loaded | None:
    """The latest unfinished game (with these players and rules, when given);
    journals that cannot be read and damage on the way are told to the table."""
    from assistant import journal as journal_module

    search = journal_module.unfinished(players=players or None, rules=rules)
    for err in search.unreadable:
        io.tell(_journal_error(err))
    if search.found is not None:
        _tell_damage(search.found, io)
    return search.found


def _play(table: Table, record: journal_module.Journal, io: TableIO, screen: str | None = None, level: str | None = None) -> None:
    from assistant import journal as journal_module
    from assistant import replies
    from assistant.referee import Referee
    from assistant.rules import Game
    from assistant.session import Session
    from assistant.speech import Parser

    game = table.game
    io.rebuild_for(list(game.players))
    if record.first_notice is not None:
        io.tell(replies.notice(record.first_notice))
    board = _screen(screen, game, io) if screen else None
    say = io.tell
    if board is not None:
        shown = board

        def say(text: str) -> None:
            io.tell(text)
            try:
                shown.said(text, session.referee.game)  # after «otra», the new game
            except Exception:  # the screen never stops the game
                log.exception("scoreboard")

    referee = Referee(game, [record] + ([board] if board is not None else []), table.collecting)
    session = Session(referee, Parser(players=game.players), say=say, ignore_chatter=io.voice,
                      level=level or ("poco" if io.voice else "normal"), earcon=io.earcon)
    journals = [record]

    def new_game(seats: tuple[str, ...]) -> Referee:
        """"Otra": these players (the same, or with some joining or leaving), the same rules, a journal of its own."""
        journals[-1].close()
        fresh = Game(game.rules, list(seats))
        io.rebuild_for(list(fresh.players))
        journals.append(journal_module.Journal.create(fresh.rules, fresh.players))
        if board is not None:
            board.follow(fresh)
        return Referee(fresh, [journals[-1]] + ([board] if board is not None else []))

    session.new_game = new_game
    if io.voice:  # what the recognizer returned, beside the journal: the night can be replayed exactly
        from assistant.heardlog import HeardLog, audio_dir, log_path

        keep = audio_dir(record.path) if getattr(io, "keep_audio", False) else None
        session.record = HeardLog(log_path(record.path), keep).record
        io.note(f"Lo que oye el reconocedor queda en {log_path(record.path)}" + (f"; el audio, en {keep}" if keep else ""))
    io.complete = session.complete
    session.start()
    try:
        session.run(io.utterances())
    except KeyboardInterrupt:
        pass
    finally:
        journals[-1].close()
        io.close()
        if board is not None:
            board.close()
    last, played = journals[-1], session.referee.game
    if last.failing:
        io.note(f"Ojo: la partida no quedó guardada entera en {last.path} (no se pudo escribir en el disco).")
    elif not played.over and played.history:
        io.note(f"Partida guardada. Para seguirla: dudo reanudar  (registro: {last.path})")


def _screen(address: str, game: Game, io: TableIO) -> Any:
    """The scoreboard at ``address``, or None (said to the table) if it cannot open."""
    from datetime import datetime, timedelta

    from assistant import journal as journal_module
    from assistant import replies, scoreboard

    since = datetime.now().astimezone() - timedelta(hours=12)
    night = [scoreboard.night_entry(s) for s in journal_module.finished_games(since=since)]
    try:
        board = scoreboard.start(address, game, night)
    except ValueError:
        io.tell(replies.screen_off(f"«{address}» no es una dirección: usa PUERTO o HOST:PUERTO"))
        return None
    except OSError as err:
        io.tell(replies.screen_off(err.strerror or str(err)))
        return None
    io.tell(replies.screen_on(board.address))
    return board


def _table_from(jugadores: str | None, reglas: str | None, config: Path | None) -> dict[str, Any]:
    """Players and rules from the options, or from the table's config file
    (which may also name the microphone, speaker, voice and rate)."""
    table: dict[str, Any] = {"jugadores": _players(jugadores), "reglas": reglas}
    path = config or (Path(os.environ["DUDO_CONFIG"]) if os.environ.get("DUDO_CONFIG") else None)
    if path is None:
        return table
    import tomllib

    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise UserError(f"No pude leer la configuración {path}: {err}") from err
    unknown = set(data) - {"jugadores", "reglas", "microfono", "parlante", "voz", "velocidad", "pantalla", "hablar"}
    if unknown:
        raise UserError(f"No conozco «{sorted(unknown)[0]}» en {path}.")
    if not table["jugadores"]:
        raw = data.get("jugadores", [])
        table["jugadores"] = [str(n) for n in raw] if isinstance(raw, list) else _players(str(raw))
        if "reglas" in data and reglas is None:
            table["reglas"] = str(data["reglas"])
    if "hablar" in data:
        if data["hablar"] not in ("poco", "normal", "todo"):
            raise UserError(f"En {path}, «hablar» tiene que ser poco, normal o todo.")
        table["hablar"] = data["hablar"]
    for key in ("microfono", "parlante", "voz", "pantalla"):
        if data.get(key):
            table[key] = str(data[key])
    if "velocidad" in data:
        rate = data["velocidad"]
        if isinstance(rate, bool) or not isinstance(rate, int) or not RATES[0] <= rate <= RATES[1]:
            raise UserError(f"En {path}, «velocidad» tiene que ser un número de {RATES[0]} a {RATES[1]} (palabras por minuto).")
        table["velocidad"] = rate
    return table


@app.command()
def historial() -> None:
    """Las partidas terminadas: fecha, jugadores, reglas, quién ganó, cuántas rondas y quién perdió más.

    Ejemplo: dudo historial
    """
    from assistant import journal as journal_module
    from assistant import replies

    games = journal_module.finished_games()
    if not games:
        print(replies.no_history())
        return
    for g in games:
        started = g.started.astimezone().strftime("%Y-%m-%d %H:%M") if g.started is not None else "—"
        print(replies.history_line(started, g.players, g.rules, g.winners, g.rounds, g.lost_most, g.scoring))


# ------------------------------------------------------------------ input and output at the table


def _io(
    texto: bool, modelo: Path | None, microfono: str | None, voz: str | None, velocidad: int,
    players: list[str], parlante: str | None = None, grabar: bool = False,
) -> TableIO:
    from assistant.session import TableIO

    if texto:
        return TableIO()
    from assistant.voice import models

    try:
        model_path = models.find_model(modelo)
    except models.DownloadError as err:
        raise UserError(str(err)) from err
    if model_path is None:
        if os.environ.get("INVOCATION_ID"):  # started by systemd: nobody can type
            raise CannotServe("No hay modelo de voz en español y sin él el servicio no puede arbitrar, así que no vuelvo a "
                              "intentarlo. Para instalarlo: dudo modelo descargar; después: systemctl --user restart dudo")
        print(
            "[No hay modelo de voz en español, así que se juega escribiendo. "
            "Para jugar hablando: dudo modelo descargar]",
            file=sys.stderr,
        )
        return TableIO()
    from assistant.voice_io import VoiceIO

    try:
        return VoiceIO(model_path, microfono, voz, velocidad, players, parlante, keep_audio=grabar)
    except Exception as err:  # no microphone, no audio stack: the game goes on by keyboard
        log.exception("voice unavailable")
        print(f"[No pude abrir el audio ({err}); se juega escribiendo.]", file=sys.stderr)
        return TableIO()


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
    rec = recognizer.VoskRecognizer(model_path, phrases, model=loading.result())
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
    speaker = Voz(voz, velocidad, device=pick_device(parlante, "output"), fallback_print=lambda _text: None)
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
        raise UserError(f"En {carpeta} no hay {fieldkit.MANIFEST}: graba un corpus con «dudo grabar {carpeta}».")
    model_path = models.find_model(modelo)
    if model_path is None:
        raise UserError(models.MISSING_MODEL)
    names = _players(jugadores) or fieldkit.manifest_players(carpeta)
    rec = recognizer.VoskRecognizer(model_path, grammar.phrases(players=names))
    try:
        report = fieldkit.evaluate(carpeta, lambda path: list(rec.transcribe_wav(path)), Parser(players=names)).to_json()
    except (ValueError, OSError, wave.Error) as err:
        raise UserError(f"No pude leer el corpus: {err}") from err
    if como_json:
        print(json.dumps({"modelo": model_path.name, **report}, ensure_ascii=False, indent=1))
        return
    print(replies.evaluation(model_path.name, report))


@modelo_app.command("descargar")
def modelo_descargar(
    si_falta: Annotated[bool, typer.Option("--si-falta", help="No hace nada si el modelo ya está.")] = False,
    url: Annotated[Optional[str], typer.Option("--url", help="Otra dirección de descarga (o un archivo local).")] = None,
) -> None:
    """Descarga el modelo de voz en español (unos 39 MB) a la carpeta models/.

    Ejemplo: dudo modelo descargar
    """
    from assistant.voice import models

    target = models.models_dir() / models.SPANISH.name
    if si_falta and models.is_complete(target):
        print(f"El modelo ya está en {target}.")
        return
    try:
        path = models.install(models.SPANISH if url is None else models.SPANISH.at(url), models.models_dir())
    except models.DownloadError as err:
        raise UserError(str(err)) from err
    print(f"Modelo listo en {path}.")


@modelo_app.command("estado")
def modelo_estado() -> None:
    """Dice qué modelo de voz está instalado y cuál se usaría.

    Ejemplo: dudo modelo estado
    """
    from assistant.voice import models

    for line in models.status_lines():
        print(line)


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
