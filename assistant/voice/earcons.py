"""Earcons: sounds shorter than a word, for what the table need not hear in words.

Generated (no binary files in the repository): a few sine tones with a short
fade, 16 kHz mono, each at most ``MAX_SECONDS``. Distinct by pitch and shape:

- ``aceptada``: two quick rising tones (the bid stands, play on);
- ``rechazada``: one low tone (not accepted; the reason follows in words);
- ``repite``: two equal questioning beeps (the referee needs something said again).
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 16000
MAX_SECONDS = 0.15
NAMES = ("aceptada", "rechazada", "repite")

_SHAPES: dict[str, list[tuple[float, float]]] = {
    # (frequency Hz, seconds); 0 Hz is a gap
    "aceptada": [(880.0, 0.05), (0.0, 0.01), (1320.0, 0.06)],
    "rechazada": [(220.0, 0.14)],
    "repite": [(660.0, 0.045), (0.0, 0.03), (660.0, 0.045)],
}


def samples(name: str) -> np.ndarray:
    """The earcon as 16-bit samples."""
    parts = []
    for freq, seconds in _SHAPES[name]:
        n = int(RATE * seconds)
        if freq == 0.0:
            parts.append(np.zeros(n))
            continue
        t = np.arange(n) / RATE
        tone = np.sin(2 * np.pi * freq * t)
        fade = min(n // 4, int(RATE * 0.008))  # no click at either end
        ramp = np.ones(n)
        ramp[:fade] = np.linspace(0.0, 1.0, fade)
        ramp[n - fade :] = np.linspace(1.0, 0.0, fade)
        parts.append(tone * ramp)
    audio = np.concatenate(parts) * 0.6
    return (audio * 32767).astype(np.int16)


def write(name: str, folder: Path) -> Path:
    """The earcon as a WAV in ``folder`` (written once)."""
    path = folder / f"{name}.wav"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(samples(name).tobytes())
    return path
