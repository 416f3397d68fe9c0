"""How this table plays tonight: one frozen value, built once from the command
line and the table's file (``/etc/dudo/mesa.toml`` on a Pi), then read by
everything that starts the evening. The command line wins over the file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from assistant import messages
from assistant.problems import SetupError

RATES = (80, 450)
"""Words per minute a table can follow, slowest to fastest."""
DEFAULT_RATE = 165
LEVELS = ("poco", "normal", "todo")
FILE_KEYS = {"jugadores", "reglas", "microfono", "parlante", "voz", "velocidad", "pantalla", "hablar"}

Resume = Literal["preguntar", "seguir", "nueva"]


@dataclass(frozen=True)
class TableConfig:
    """Everything the evening needs to know before the first word."""

    players: tuple[str, ...] = ()
    """In the order play goes por la izquierda; empty: asked at the table."""
    rules: str | None = None
    """A preset's name or a house-rules file (None: the default preset, or the resumed game's)."""
    text: bool = False
    """Played by keyboard: no microphone, no voice."""
    model: Path | None = None
    microphone: str | None = None
    """A device number or part of its name (None: the system's default)."""
    speaker: str | None = None
    voice: str | None = None
    """An espeak-ng voice ("roa/es-419")."""
    rate: int = DEFAULT_RATE
    """Words per minute."""
    screen: str | None = None
    """``[HOST:]PUERTO`` of the scoreboard (None: no port is opened)."""
    level: str | None = None
    """How much the referee says (``LEVELS``; None: poco by voice, normal by keyboard)."""
    record_audio: bool = False
    """Keep every utterance's audio beside the recognizer log (``--grabar``)."""
    journal: Path | None = None
    """The journal to write or resume (None: a new one in the data folder)."""
    resume: Resume = "preguntar"
    """An unfinished game with these players: offer it, take it, or start anew."""


def players(text: str | None) -> tuple[str, ...]:
    """"ana, beto,carla" -> ("ana", "beto", "carla")."""
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


def table_config(
    *,
    players_text: str | None = None,
    rules: str | None = None,
    text: bool = False,
    model: Path | None = None,
    microphone: str | None = None,
    speaker: str | None = None,
    voice: str | None = None,
    rate: int | None = None,
    screen: str | None = None,
    level: str | None = None,
    record_audio: bool = False,
    journal: Path | None = None,
    resume: Resume = "preguntar",
    file: Path | None = None,
) -> TableConfig:
    """The command line's options over the table's file (``file``, or ``$DUDO_CONFIG``);
    a file that cannot be read or holds a wrong value is a ``SetupError`` in Spanish."""
    path = file or (Path(os.environ["DUDO_CONFIG"]) if os.environ.get("DUDO_CONFIG") else None)
    stored = _read(path) if path is not None else {}
    seats = players(players_text)
    if not seats and "jugadores" in stored:
        raw = stored["jugadores"]
        seats = tuple(str(n) for n in raw) if isinstance(raw, list) else players(str(raw))
        rules = rules if rules is not None else stored.get("reglas")
    return TableConfig(
        players=seats,
        rules=rules,
        text=text,
        model=model,
        microphone=microphone or stored.get("microfono"),
        speaker=speaker or stored.get("parlante"),
        voice=voice or stored.get("voz"),
        rate=rate if rate is not None else stored.get("velocidad", DEFAULT_RATE),
        screen=screen or stored.get("pantalla"),
        level=level or stored.get("hablar"),
        record_audio=record_audio,
        journal=journal,
        resume=resume,
    )


def _read(path: Path) -> dict[str, Any]:
    """The table's file, checked: only known keys, each a value that makes sense."""
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise SetupError(messages.config_unreadable(path, err)) from err
    unknown = set(data) - FILE_KEYS
    if unknown:
        raise SetupError(messages.config_unknown_key(sorted(unknown)[0], path))
    if "hablar" in data and data["hablar"] not in LEVELS:
        raise SetupError(messages.config_bad_level(path))
    if "velocidad" in data:
        rate = data["velocidad"]
        if isinstance(rate, bool) or not isinstance(rate, int) or not RATES[0] <= rate <= RATES[1]:
            raise SetupError(messages.config_bad_rate(path, *RATES))
    for key in ("reglas", "microfono", "parlante", "voz", "pantalla"):
        if key in data:
            data[key] = str(data[key]) if data[key] else None
    return data
