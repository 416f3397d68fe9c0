"""Lines that C libraries print: PortAudio ("Expression '…' failed in
'src/hostapi/alsa/pa_linux_alsa.c'") and ALSA ("ALSA lib pcm.c:…
underrun occurred") write straight to the process's standard error when a
sound server goes away or a buffer runs dry. The table's terminal shows
replies and notes only: those lines go to the log, where they help.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_moved = False


def libraries_to(log: Path) -> None:
    """From now on, what C code writes to file descriptor 2 is appended to
    ``log``; Python's ``sys.stderr`` keeps the terminal. Once per process."""
    global _moved
    if _moved:
        return
    try:
        sys.stderr.flush()
        terminal = os.dup(2)
        log.parent.mkdir(parents=True, exist_ok=True)
        target = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return  # no log to write to: the lines stay where they were
    sys.stderr = open(terminal, "w", buffering=1, encoding=sys.stderr.encoding or "utf-8", errors="replace", closefd=True)  # noqa: SIM115
    os.dup2(target, 2)
    os.close(target)
    _moved = True
