"""``dudo modelo``: the Spanish speech model, downloaded, installed from a file
the user brought (a bar without internet), and its state."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from assistant.problems import SetupError as UserError

log = logging.getLogger("dudo")

modelo_app = typer.Typer(
    help=("El modelo de voz en español: descargarlo, instalarlo desde un archivo traído (sin internet) y ver qué hay instalado.\n\n"
          "Ejemplos:\n\n"
          "  dudo modelo descargar\n\n"
          "  dudo modelo instalar /media/pendrive/vosk-model-small-es-0.42.zip\n\n"
          "  dudo modelo estado"),
    no_args_is_help=True,
)

@modelo_app.command("descargar")
def modelo_descargar(
    si_falta: Annotated[bool, typer.Option("--si-falta", help="No hace nada si ya hay un modelo en español.")] = False,
    url: Annotated[str | None, typer.Option("--url", help="Otra dirección de descarga (o un archivo local).")] = None,
    al_jugar: Annotated[bool, typer.Option("--al-jugar", hidden=True, help="Lo usa scripts/jugar.sh: sin internet, dice que se juega escribiendo.")] = False,
) -> None:
    """Descarga el modelo de voz en español (unos 39 MB) a la carpeta models/.

    Sin internet: «dudo modelo instalar ARCHIVO.zip» con el archivo traído en un pendrive.

    Ejemplo: dudo modelo descargar
    """
    from assistant.voice import messages as voice_messages
    from assistant.voice import models

    found = models.find_model() if si_falta else None
    if found is not None:
        print(f"El modelo ya está en {found}.")
        return
    try:
        path = models.install(models.SPANISH if url is None else models.SPANISH.at(url), models.models_dir())
    except models.Offline as err:
        log.warning("model download: no connection (%s)", err.detail)
        raise UserError(voice_messages.cannot_connect_playing(models.archive_name(models.SPANISH)) if al_jugar else str(err)) from err
    except models.DownloadError as err:
        raise UserError(str(err)) from err
    print(f"Modelo listo en {path}.")


@modelo_app.command("instalar")
def modelo_instalar(
    archivo: Annotated[Path, typer.Argument(
        help="El modelo traído en un pendrive: el zip como se publica (vosk-model-small-es-0.42.zip) o su carpeta ya desempacada.")],
) -> None:
    """Instala el modelo de voz en español desde un archivo traído, sin internet.

    Revisa que el zip esté sano, que traiga un modelo completo y que el
    reconocedor lo cargue, y dice dónde quedó. El archivo se baja en otro
    equipo de https://alphacephei.com/vosk/models (vosk-model-small-es-0.42.zip).

    Ejemplo: dudo modelo instalar /media/pendrive/vosk-model-small-es-0.42.zip
    """
    from assistant.voice import messages as voice_messages
    from assistant.voice import models

    if not archivo.exists():
        raise UserError(voice_messages.no_such_archive(archivo))
    problem = models.recognizer_problem(None)  # vosk itself: a missing library is not the file's fault
    if problem is not None:
        raise UserError(problem)
    print(voice_messages.CHECKING_MODEL, flush=True)
    try:
        done = models.install_from(archivo, models.models_dir(), loads=models.recognizer_problem)
    except models.DownloadError as err:
        raise UserError(str(err)) from err
    print(voice_messages.installed_from(done.path, done.published, done.spanish))


@modelo_app.command("estado")
def modelo_estado() -> None:
    """Dice qué modelo de voz está instalado, cuál se usaría y si el reconocedor lo carga.

    Ejemplo: dudo modelo estado
    """
    from assistant.voice import messages as voice_messages
    from assistant.voice import models

    for line in models.status_lines():
        print(line)
    try:
        chosen = models.find_model()
    except models.DownloadError:
        chosen = None  # already said: DUDO_MODELO is not a whole model
    problem = models.recognizer_problem(chosen)
    if problem is not None:
        raise UserError(problem)
    print(voice_messages.RECOGNIZER_READY)
