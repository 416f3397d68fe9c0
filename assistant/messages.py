"""What the program says to people outside a game, in Spanish, in one place:
notes for whoever is at the terminal, the journal's problems, the table's
configuration. What the table hears about a game is in ``replies.py``.

A leaf: it imports nothing of the program, so any room may use it.
"""

from __future__ import annotations

from pathlib import Path

# ------------------------------------------------------------------ the journal


def not_a_journal(name: str) -> str:
    return f"{name} no es un registro de partida (la línea 1 no se entiende)."


def empty_journal(name: str) -> str:
    return f"{name} está vacío: no es un registro de partida."


def stored_rules_invalid(name: str) -> str:
    return f"Las reglas guardadas en {name} no sirven."


def stored_rules_unreadable(name: str) -> str:
    return f"Las reglas guardadas en {name} no se entienden."


def journal_unreadable(path: Path | str, why: str | None) -> str:
    return f"No pude leer el registro {path}: {why}."


# ------------------------------------------------------------------ the table

NO_PLAYERS_SAID = "No se dijeron los jugadores."
PLAYERS_NEEDED = "Faltan los jugadores: usa --jugadores ana,beto,carla o el archivo de configuración."
TWO_PLAYERS_NEEDED = "Se necesitan al menos dos jugadores: --jugadores ana,beto"
NOTHING_TO_RESUME = "No hay ninguna partida sin terminar. Para una nueva: dudo jugar --jugadores ana,beto"


def no_such_file(path: Path) -> str:
    return f"No encuentro el archivo {path}."


def config_unreadable(path: Path, err: object) -> str:
    return f"No pude leer la configuración {path}: {err}"


def config_unknown_key(key: str, path: Path) -> str:
    return f"No conozco «{key}» en {path}."


def config_bad_level(path: Path) -> str:
    return f"En {path}, «hablar» tiene que ser poco, normal o todo."


def config_bad_rate(path: Path, low: int, high: int) -> str:
    return f"En {path}, «velocidad» tiene que ser un número de {low} a {high} (palabras por minuto)."


SERVICE_WITHOUT_MODEL = (
    "No hay modelo de voz en español y sin él el servicio no puede arbitrar, así que no vuelvo a "
    "intentarlo. Para instalarlo: dudo modelo descargar; después: systemctl --user restart dudo"
)
PLAYING_BY_KEYBOARD = "[No hay modelo de voz en español, así que se juega escribiendo. Para jugar hablando: dudo modelo descargar]"


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
STATS_CAPTION = "«2 de 5»: dos de cinco. Apuestas aguantadas: de las que le dudaron (un bluf que nadie dudó no se ve)."
OF = "{right} de {tried}"
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


def journal_at(path: Path) -> str:
    return f"Registro de la partida: {path}"


def heard_log_at(path: Path, audio: Path | None) -> str:
    return f"Lo que oye el reconocedor queda en {path}" + (f"; el audio, en {audio}" if audio else "")


def not_all_saved(path: Path) -> str:
    return f"Ojo: la partida no quedó guardada entera en {path} (no se pudo escribir en el disco)."


def saved_to_resume(path: Path) -> str:
    return f"Partida guardada. Para seguirla: dudo reanudar  (registro: {path})"
