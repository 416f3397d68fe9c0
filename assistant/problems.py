"""What every command needs before any game exists: the exception that stops
with a message for the table, and where the data lives. Kept apart so the
command line starts without loading the game."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir


def default_dir() -> Path:
    """``$DUDO_DATOS`` or the platform's data directory (``~/.local/share/dudo`` on Linux)."""
    env = os.environ.get("DUDO_DATOS")
    return Path(env) if env else Path(user_data_dir("dudo", appauthor=False))


class SetupError(Exception):
    """A problem setting up the table, said to the player in Spanish."""


class CannotServe(SetupError):
    """The service cannot referee at all (no voice model, a recognizer that
    cannot load): exit code 3, which the unit does not restart on (restarting
    cannot help)."""

    exit_code = 3
