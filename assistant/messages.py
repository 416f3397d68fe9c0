"""What the program says to people outside a game, in Spanish, in one place:
notes for whoever is at the terminal, the journal's problems, the table's
configuration. What the table hears about a game is in ``replies.py``.

A leaf: it imports nothing of the program, so any room may use it.
"""

from __future__ import annotations

import errno
import shlex
from collections.abc import Sequence
from pathlib import Path

# ------------------------------------------------------------------ files

_WHY_NOT_READ = {
    errno.ENOENT: "no existe",
    errno.EISDIR: "es una carpeta, no un archivo",
    errno.ENOTDIR: "una parte del camino no es una carpeta",
    errno.EACCES: "no tengo permiso para leerlo",
    errno.EPERM: "no tengo permiso para leerlo",
    errno.EIO: "el disco da errores al leerlo",
    errno.ELOOP: "el camino da vueltas en círculo (enlaces que se apuntan entre sí)",
    errno.ENAMETOOLONG: "el nombre es demasiado largo",
    errno.ENOMEM: "no hay memoria para leerlo",
    errno.EMFILE: "hay demasiados archivos abiertos",
    errno.ENFILE: "hay demasiados archivos abiertos",
}


def why_not_read(code: int | None) -> str:
    """Why a file could not be read, in Spanish, from the system's error number
    (the system's own words, in English, go to the log)."""
    return _WHY_NOT_READ.get(code or 0, "el sistema no me deja leerlo")


# ------------------------------------------------------------------ the journal


def not_a_journal(name: str) -> str:
    return f"{name} no es un registro de partida (no entiendo su encabezado, donde van las reglas y los jugadores)."


def empty_journal(path: Path) -> str:
    return f"{path.name} está vacío: no hay partida que seguir. Para empezar una ahí: dudo jugar --partida {shlex.quote(str(path))}"


def journal_is_folder(path: Path | str) -> str:
    return f"{path} es una carpeta, no un registro de partida: nombra un archivo, por ejemplo {Path(path) / 'partida.jsonl'}"


def journal_not_a_file(path: Path | str) -> str:
    return f"{path} no es un archivo común (es un dispositivo, una tubería o algo así): nombra un archivo para el registro."


def journal_set_aside(path: Path) -> str:
    return f"El registro dañado, tal como estaba, quedó aparte en {path}"


def journal_elsewhere(named: Path, path: Path) -> str:
    return f"{named} ya tiene una partida guardada, así que esta nueva va en {path}"


def stored_rules_invalid(name: str) -> str:
    return f"Las reglas guardadas en {name} no sirven."


def stored_rules_unreadable(name: str) -> str:
    return f"Las reglas guardadas en {name} no se entienden."


def journal_unreadable(path: Path | str, code: int | None) -> str:
    return f"No pude leer el registro {path}: {why_not_read(code)}."


# ------------------------------------------------------------------ the table

NO_PLAYERS_SAID = "No se dijeron los jugadores."
PLAYERS_NEEDED = "Faltan los jugadores: usa --jugadores ana,beto,carla o el archivo de configuración."
TWO_PLAYERS_NEEDED = "Se necesitan al menos dos jugadores: --jugadores ana,beto"
NOTHING_TO_RESUME = "No hay ninguna partida sin terminar. Para una nueva: dudo jugar --jugadores ana,beto"


def no_such_file(path: Path) -> str:
    return f"No encuentro el archivo {path}."


def config_unreadable(path: Path, err: object) -> str:
    if isinstance(err, OSError):
        return f"No pude leer la configuración {path}: {why_not_read(err.errno)}."
    if isinstance(err, UnicodeDecodeError):
        return f"No pude leer la configuración {path}: no está escrita en UTF-8."
    return f"No pude leer la configuración {path}: {err}"


def config_unknown_key(key: str, path: Path) -> str:
    return f"No conozco «{key}» en {path}."


def config_bad_level(path: Path) -> str:
    return f"En {path}, «hablar» tiene que ser poco, normal o todo."


def config_bad_rate(path: Path, low: int, high: int) -> str:
    return f"En {path}, «velocidad» tiene que ser un número de {low} a {high} (palabras por minuto)."


SERVICE_WITHOUT_MODEL = (
    "No hay modelo de voz en español y sin él el servicio no puede arbitrar, así que no vuelvo a "
    "intentarlo. Para instalarlo: dudo modelo descargar (o sin internet: dudo modelo instalar "
    "vosk-model-small-es-0.42.zip); después: systemctl --user restart dudo"
)
PLAYING_BY_KEYBOARD = ("[No hay modelo de voz en español, así que se juega escribiendo. Para jugar hablando: dudo modelo descargar, "
                       "o sin internet: dudo modelo instalar vosk-model-small-es-0.42.zip]")


def no_recognizer(reason: str) -> str:
    return f"[{reason} Mientras tanto se juega escribiendo.]"


def audio_failed(err: object) -> str:
    return f"[No pude abrir el audio ({err}); se juega escribiendo.]"


def bad_moment(text: str) -> str:
    return f"No entiendo la fecha «{text}»: usa 2026-11-20 (esa noche) o 2026-11-20T21:00."


# ------------------------------------------------------------------ statistics, in the terminal

NO_GAMES = "No hay partidas en ese período."
STATS_TITLE = "Cifras de {games} {word}{span}"
STATS_COLUMNS = ("Jugador", "Partidas\nganadas", "Rondas\nperdidas", "Dudas\nbien", "Calzos\nbien", "Pasos\npillados",
                 "Apuestas\naguantadas", "Mayor\naguantada")
STATS_CAPTION = "—: nada que contar todavía. Un bluf que nadie dudó no se ve, así que no se cuenta."
OF = "{right} de {tried}"
_EXAMPLE = {
    # how one "a de b" cell of each column reads, for the legend under the table
    "ganadas": ("{name} ganó {right} de {tried} {nouns}", "partida terminada", "partidas terminadas"),
    "dudas": ("{name} acertó {right} de {tried} {nouns}", "duda", "dudas"),
    "calzos": ("{name} acertó {right} de {tried} {nouns}", "calzo", "calzos"),
    "pasos": ("a {name} le pillaron {right} de {tried} {nouns}", "paso", "pasos"),
    "aguantadas": ("{name} aguantó {right} de {tried} {nouns}", "apuesta que le dudaron", "apuestas que le dudaron"),
}


def stats_caption(example: tuple[str, str, str, int, int] | None, in_play: int, games: int) -> str:
    """The legend under the table, with an example taken from the table itself:
    ``example`` is (column key, column title, player, right, tried)."""
    parts = []
    if example is not None:
        key, title, name, right, tried = example
        text, one, many = _EXAMPLE[key]
        said = text.format(name=name, right=right, tried=tried, nouns=one if tried == 1 else many)
        parts.append(f"«{OF.format(right=right, tried=tried)}» en {title}: {said}.")
    if in_play:
        which = "La partida está en juego" if games == 1 else (
            f"Una de las {games} partidas está en juego" if in_play == 1 else f"{in_play} de las {games} partidas están en juego")
        parts.append(f"{which}: todavía no se cuenta como ganada ni perdida.")
    return " ".join([*parts, STATS_CAPTION])
LOSSES_TITLE = "Cómo se perdieron las rondas"
LOSS_COLUMNS = ("Jugador", "Apuesta\ncorta", "Duda\nerrada", "Calzo\nerrado", "Paso\npillado", "Picado\npillado", "Mato", "Castigo")


def stats_title(games: int, since: str | None, until: str | None) -> str:
    span = (f" desde {since}" if since else "") + (f" hasta {until}" if until else "")
    return STATS_TITLE.format(games=games, word="partida" if games == 1 else "partidas", span=span)


# ------------------------------------------------------------------ notes for the terminal


def listening(rate: int, voice: str | None, phrases: int) -> str:
    return f"Escuchando a {rate} Hz; voz {voice or 'de espeak-ng'}; {phrases} frases en la gramática."


def model_knows_no_word(model: Path) -> str:
    return f"Ojo: el modelo {model} no conoce ninguna palabra del juego. ¿Es el modelo en español?"


def room(duplex: bool, why: str) -> str:
    return ("Dúplex: " if duplex else "Semidúplex: ") + why


INTERRUPTED = "me interrumpieron: me callo y escucho"


def heard(text: str, confidence: float) -> str:
    return f"oí «{text}» (confianza {confidence:.2f})"


def bad_screen_address(address: str) -> str:
    return f"«{address}» no es una dirección para el marcador: usa PUERTO o HOST:PUERTO."


def screen_failed(detail: str) -> str:
    return f"No pude abrir el marcador: {detail}."


def journal_damaged_at(path: Path, line: int) -> str:
    return f"El registro {path.name} está dañado en la línea {line}; se sigue desde la anterior."


def journal_repaired_at(path: Path, lines: Sequence[int]) -> str:
    return f"El registro {path.name} no estaba como se escribió (líneas {', '.join(map(str, lines))}); se siguió con la copia de cada una."


def journal_garbage_at(path: Path, line: int) -> str:
    return f"La última línea del registro {path.name} (la {line}) es basura: no la escribió el árbitro, y no cuenta."


_PORT_PROBLEMS = {
    errno.EADDRINUSE: "el puerto ya lo ocupa otro programa",
    errno.EACCES: "no tengo permiso para usar ese puerto: los menores que 1024 son del sistema",
    errno.EPERM: "no tengo permiso para usar ese puerto: los menores que 1024 son del sistema",
    errno.EADDRNOTAVAIL: "esa dirección no es de este equipo",
}


def port_problem(code: int | None, unknown_host: bool = False) -> str:
    """Why the scoreboard's port could not be opened, from the system's error number."""
    if unknown_host:
        return "no encuentro ese nombre de equipo"
    return _PORT_PROBLEMS.get(code or 0, "el sistema no me deja abrirlo")


def journal_at(path: Path) -> str:
    return f"Registro de la partida: {path}"


def heard_log_at(path: Path, audio: Path | None) -> str:
    return f"Lo que oye el reconocedor queda en {path}" + (f"; el audio, en {audio}" if audio else "")


def not_all_saved(path: Path) -> str:
    return f"Ojo: la partida no quedó guardada entera en {path} (no se pudo escribir en el disco)."


def saved_to_resume(path: Path, among_the_games: bool = True) -> str:
    """``among_the_games``: the journal is in the data folder, where ``dudo reanudar``
    looks; one the table named elsewhere is named in the command."""
    how = "dudo reanudar" if among_the_games else f"dudo reanudar --partida {shlex.quote(str(path))}"
    return f"Partida guardada. Para seguirla: {how} (registro: {path})"
