"""What the voice wing says to people, in Spanish, in one place: the audio
devices, the speech model, the sound room and the voice.

The wing knows nothing of the game, so nothing here is about it; the replies
(``assistant/replies.py``) word what the table hears of a game.
"""

from __future__ import annotations

import shlex
from pathlib import Path

# ------------------------------------------------------------------ devices

NO_DEVICES = "No hay dispositivos de audio."
MICROPHONE = "micrófono"
SPEAKER = "parlante"
DEFAULT = " (por omisión)"


def cannot_query_audio(err: object) -> str:
    return f"No pude consultar el audio: {err}"


def no_such_device(spec: str) -> str:
    return f"No encuentro un dispositivo que se llame «{spec}». Mira la lista con: dudo dispositivos"


def cannot_open_microphone(err: object) -> str:
    return f"No pude abrir el micrófono: {err}"


# ------------------------------------------------------------------ the speech model

PUBLISHED_ZIP = "vosk-model-small-es-0.42.zip"
"""The Spanish model's archive as vosk publishes it (``models.SPANISH``; a test checks they agree)."""
MISSING_MODEL = (
    f"No hay modelo de voz en español. Para instalarlo: dudo modelo descargar (unos 39 MB), o sin internet, "
    f"con el archivo en un pendrive: dudo modelo instalar {PUBLISHED_ZIP}\n"
    "Mientras tanto se puede jugar escribiendo: dudo jugar --texto --jugadores ana,beto"
)
PROGRESS = "Modelo de voz"
CUT_SHORT = "La descarga se cortó; vuelve a intentarlo y seguirá donde quedó."
NOT_THE_MODEL = "El archivo bajado no es el modelo esperado (la suma de verificación no coincide). Lo borré."
ODD_PATHS = "El archivo del modelo trae rutas raras; no lo desempaco."
NOT_A_ZIP = "El archivo bajado no es un zip válido."
CHECKING_MODEL = "Revisando el modelo (el reconocedor lo carga una vez)…"
NO_MODEL_IN_ZIP = "El zip no trae un modelo de vosk completo."
HALF_DOWNLOADED = "Hay una descarga del modelo a medias; «dudo modelo descargar» la termina."
COMPLETE = "completo"
INCOMPLETE = "INCOMPLETO o inexistente"


def missing_library(library: str, package: str | None) -> str:
    if package is None:
        return f"No puedo cargar el reconocedor de voz: falta la biblioteca {library} del sistema (se busca con: apt-file search {library})."
    return (f"No puedo cargar el reconocedor de voz: falta la biblioteca {library}. "
            f"Instálala con: sudo apt install {package}")


def cannot_load_vosk(err: object) -> str:
    return f"No puedo cargar el reconocedor de voz (vosk): {err}"


def broken_model(path: Path) -> str:
    return (f"El modelo de voz en {path} está dañado o incompleto y no se puede leer. "
            "Bórralo y vuelve a bajarlo: dudo modelo descargar.")


RECOGNIZER_READY = "Reconocedor de voz (vosk): carga bien."
SPOKEN_MISSING_LIBRARY = "No puedo escuchar: al sistema le falta una biblioteca para el reconocedor de voz. En la pantalla y en el registro dice cuál instalar."
SPOKEN_BROKEN_MODEL = "No puedo escuchar: el modelo de voz está dañado. Hay que instalarlo de nuevo."


def not_a_model(path: Path) -> str:
    return f"{path} no es un modelo de vosk completo (falta am/, conf/ o graph/)."


def server_said(code: int, url: str) -> str:
    return f"El servidor respondió {code} al bajar el modelo ({url})."


def cannot_connect(archive: str) -> str:
    return f"No pude conectarme para bajar el modelo de voz (¿hay internet?). Si traes el archivo en un pendrive: dudo modelo instalar {archive}"


def cannot_connect_playing(archive: str) -> str:
    return ("Sin internet no pude bajar el modelo de voz: se juega escribiendo. "
            f"Para jugar hablando, con el archivo en un pendrive: dudo modelo instalar {archive}")


def no_such_archive(path: Path) -> str:
    return f"No encuentro {path}: pon la ruta del archivo del modelo ({PUBLISHED_ZIP}), por ejemplo dudo modelo instalar /media/pendrive/{PUBLISHED_ZIP}"


def not_a_zip(path: Path) -> str:
    return f"{path} no es un zip sano (¿se cortó al copiarlo?): no instalé nada. Cópialo de nuevo y vuelve a intentarlo."


def cannot_write(folder: Path, err: OSError) -> str:
    reason = "el disco está lleno" if err.errno == 28 else "no tengo permiso" if err.errno in (1, 13, 30) else "el sistema no me deja"
    return f"No pude dejar el modelo en {folder}: {reason}. No instalé nada."


def does_not_load(path: Path) -> str:
    return f"El modelo de {path} está completo pero el reconocedor no lo puede cargar (¿dañado, o de otra versión de vosk?): no lo instalé."


def installed_from(path: Path, published: bool, spanish: bool) -> str:
    if not spanish:
        return (f"Modelo instalado en {path}, pero por su nombre no es el español, así que no se usa solo. "
                f"Para usarlo: dudo jugar --modelo {shlex.quote(str(path))}")
    checked = ("Es el archivo publicado (la suma de verificación coincide)" if published
               else "No es el archivo publicado (la suma de verificación es otra), pero trae un modelo completo")
    return f"Modelo de voz en español instalado en {path}. {checked}, y el reconocedor lo carga. Ya se puede jugar hablando."


def wrong_size(size: int, low: int, high: int) -> str:
    return f"El archivo del modelo mide {size} bytes; se esperaban entre {low} y {high}."


def incomplete(have: int, total: int) -> str:
    return f"La descarga quedó incompleta ({have} de {total} bytes); vuelve a intentarlo y seguirá donde quedó."


def installed(path: Path) -> str:
    return f"Modelo en español instalado: {path}"


def not_installed(path: Path) -> str:
    return (f"No está el modelo en español. Para instalarlo: dudo modelo descargar, o sin internet: "
            f"dudo modelo instalar {PUBLISHED_ZIP} (quedará en {path})")


def chosen_by_environment(path: str, state: str) -> str:
    return f"DUDO_MODELO apunta a {path} ({state}); ese es el que se usa."


# ------------------------------------------------------------------ recognition

NOT_MONO_16 = "La grabación tiene que ser WAV mono de 16 bits (sox entrada.wav -c 1 -b 16 salida.wav)."
VOSK_RESULT_NOT_OBJECT = "un resultado de vosk es un objeto JSON"
VOSK_ALTERNATIVES_NOT_LIST = "'alternatives' tiene que ser una lista de objetos"
VOSK_RESULT_SHAPE = "un resultado de vosk tiene 'text' o 'alternatives'"


# ------------------------------------------------------------------ the sound room

ROOM_HAND_PICKED = "micrófono o parlante elegido a mano, fuera del servidor de sonido"
ROOM_NO_PACTL = "no está pactl (pulseaudio-utils)"


def room_unreachable(err: object) -> str:
    return f"no pude consultar el servidor de sonido ({err})"


def room_missing(source: str, sink: str) -> str:
    return f"no encuentro la entrada «{source}» o la salida «{sink}»"


def room_no_canceller(source: str) -> str:
    return f"la entrada «{source}» no pasa por un cancelador de eco"


def room_other_sink(source: str, sink: str) -> str:
    return f"la entrada «{source}» cancela el eco de otra salida que «{sink}»"


def room_cancels(source: str, sink: str) -> str:
    return f"cancelador de eco: entrada «{source}», salida «{sink}»"


# ------------------------------------------------------------------ the voice

NO_ESPEAK = "no hay espeak-ng"


def no_such_voice(voice: str) -> str:
    return f"No existe la voz «{voice}»"
