"""Spoken replies: pyttsx3 (espeak-ng) synthesizes, our own audio stream plays.

pyttsx3's espeak driver would play through `aplay` on the default ALSA
device, with no device choice and no way to know exactly when it stops, and
it has been seen to hang after the first phrase on a Pi. So one engine lives
in one worker thread and only synthesizes to a WAV; playback goes through
sounddevice, which tells us when the sound is over (half duplex needs that).
If pyttsx3 fails or hangs, espeak-ng is called directly; if sound fails
altogether, the reply is printed and the game goes on.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("dudo.parlante")

SPANISH_VOICES = ("roa/es-419", "roa/es", "es-419", "es")
"""Preferred espeak-ng voices: Latin American first."""
ECHO_TAIL = 0.5
"""Seconds after playback ends during which the microphone is still ignored."""
EARCON_TAIL = 0.15
"""The same after an earcon: a short tone at table volume dies out sooner than speech."""
SYNTH_TIMEOUT = 3.0
"""A synthesis taking longer than this (seconds) is abandoned, and the engine with it:
espeak-ng makes a sentence in tens of milliseconds, so a slower one is stuck."""


def _quiet_driver() -> None:
    """pyttsx3's espeak driver prints "Audio saved to …" for every file; the
    table's terminal shows replies only. Shadow ``print`` in that module alone
    (redirecting sys.stdout from this thread would swallow the main thread's too)."""
    import sys

    module = sys.modules.get("pyttsx3.drivers.espeak")
    if module is not None:
        module.print = lambda *args, **kwargs: None  # type: ignore[attr-defined]


def _espeak() -> str | None:
    return shutil.which("espeak-ng") or shutil.which("espeak")


class _Engine:
    """One pyttsx3 engine in its own thread (espeak can be initialised only once)."""

    def __init__(self, voice: str | None, rate: int) -> None:
        self.jobs: queue.Queue[tuple[str, Path, threading.Event]] = queue.Queue()
        self.voice_id: str | None = None
        self.ready = threading.Event()
        self.error: Exception | None = None
        threading.Thread(target=self._run, args=(voice, rate), daemon=True, name="pyttsx3").start()
        self.ready.wait(SYNTH_TIMEOUT)

    def _run(self, voice: str | None, rate: int) -> None:
        try:
            import pyttsx3

            engine = pyttsx3.init()
            _quiet_driver()
            ids = [v.id for v in engine.getProperty("voices")]
            wanted = [voice] if voice else list(SPANISH_VOICES)
            self.voice_id = next((v for v in wanted if v in ids), None)
            if self.voice_id is None and voice:
                raise ValueError(f"No existe la voz «{voice}»")
            if self.voice_id:
                engine.setProperty("voice", self.voice_id)
            engine.setProperty("rate", rate)
        except Exception as err:
            self.error = err
            self.ready.set()
            return
        self.ready.set()
        while True:
            text, path, done = self.jobs.get()
            try:
                engine.save_to_file(text, str(path))
                engine.runAndWait()
            except Exception as err:  # reported through the missing file
                log.warning("pyttsx3 failed: %s", err)
            done.set()

    def synthesize(self, text: str, path: Path) -> bool | None:
        """True: ``path`` holds the whole speech; False: the engine failed this
        once; None: it did not answer in time (it is stuck: retire it)."""
        done = threading.Event()
        self.jobs.put((text, path, done))
        if not done.wait(SYNTH_TIMEOUT):
            return None
        return complete_wav(path)


def complete_wav(path: Path) -> bool:
    """A WAV with sound in it whose data is all there (not cut short)."""
    try:
        with wave.open(str(path), "rb") as wav:
            frames = wav.getnframes()
            declared = frames * wav.getsampwidth() * wav.getnchannels()
            data = len(wav.readframes(frames))
    except (OSError, EOFError, wave.Error):
        return False
    return frames > 0 and data == declared


class Speaker:
    """Says replies aloud; ``busy()`` is true while speaking (plus an echo tail)."""

    def __init__(
        self,
        voice: str | None = None,
        rate: int = 165,
        device: int | None = None,
        play: bool = True,
        fallback_print: Callable[[str], None] = print,
        engine: str = "auto",
    ) -> None:
        """``engine``: "espeak" (espeak-ng run for each reply), "pyttsx3", or
        "auto": espeak-ng where it is a command, else pyttsx3. On Linux pyttsx3
        drives the same espeak-ng, but its first reply after a start came out cut
        short now and then under load (3.7 s of 4.6 s, in the suite); a fresh
        espeak-ng process per reply takes ~20 ms and is the same every time."""
        self.voice = voice
        self.rate = rate
        self.device = device
        self.play_audio = play
        self.fallback_print = fallback_print
        self._engine: _Engine | None = None
        if engine == "pyttsx3" or (engine == "auto" and _espeak() is None):
            self._engine = _Engine(voice, rate)
            if self._engine.error is not None:
                log.warning("pyttsx3 unavailable: %s", self._engine.error)
                self._engine = None
        self._busy_until = 0.0
        self._speaking = threading.Event()
        self._folder = Path(tempfile.mkdtemp(prefix="dudo-voz-"))

    @property
    def voice_id(self) -> str | None:
        return self._engine.voice_id if self._engine else (self.voice or SPANISH_VOICES[0])

    def busy(self) -> bool:
        return self.busy_at(time.monotonic())

    def busy_at(self, moment: float) -> bool:
        """Was the referee speaking (or its echo still in the room) at ``moment``
        (``time.monotonic()`` seconds)?"""
        return self._speaking.is_set() or moment < self._busy_until

    def save(self, text: str, path: Path) -> Path:
        """Synthesize ``text`` to a WAV file (pyttsx3, else espeak-ng). An engine
        that does not answer in time is retired for good: later replies never
        queue behind a stuck synthesis."""
        if self._engine is not None:
            done = self._engine.synthesize(text, path)
            if done:
                return path
            if done is None:
                log.warning("pyttsx3 stuck for %.0f s: retired, espeak-ng from now on", SYNTH_TIMEOUT)
                self._engine = None
            else:
                log.warning("pyttsx3 gave no whole WAV; using espeak-ng directly")
        espeak = _espeak()
        if espeak is None:
            raise RuntimeError("no hay espeak-ng")
        voice = self.voice or "roa/es-419"
        subprocess.run([espeak, "-v", voice, "-s", str(self.rate), "-w", str(path), "--", text], check=True, timeout=SYNTH_TIMEOUT)
        return path

    def say(self, text: str) -> None:
        """Speak and return when the sound is over; print instead if audio fails."""
        self._speaking.set()
        try:
            path = self.save(text, self._folder / f"r{time.monotonic_ns()}.wav")
            if self.play_audio:
                self._play(path)
            path.unlink(missing_ok=True)
        except Exception as err:
            log.warning("speech output failed: %s", err)
            self.fallback_print(text)
        finally:
            self._busy_until = time.monotonic() + ECHO_TAIL
            self._speaking.clear()

    def earcon(self, name: str) -> None:
        """Play one of ``earcons.NAMES`` through the same output as speech; silent if sound fails."""
        from assistant.voice import earcons

        self._speaking.set()
        try:
            path = earcons.write(name, self._folder)
            if self.play_audio:
                self._play(path)
        except Exception as err:
            log.warning("earcon %s failed: %s", name, err)
        finally:
            self._busy_until = time.monotonic() + EARCON_TAIL
            self._speaking.clear()

    def _play(self, path: Path) -> None:
        import sounddevice as sd

        with wave.open(str(path), "rb") as wav:
            rate = wav.getframerate()
            audio = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16)
            channels = wav.getnchannels()
        if channels > 1:
            audio = audio.reshape(-1, channels)
        sd.play(audio, rate, device=self.device, blocking=True)


def wav_stats(path: Path) -> dict[str, Any]:
    """Duration (seconds) and RMS level (0..1) of a 16-bit WAV, for checks."""
    with wave.open(str(path), "rb") as wav:
        frames = wav.readframes(wav.getnframes())
        rate = wav.getframerate()
    audio = np.frombuffer(frames, dtype=np.int16).astype(np.float64) / 32768.0
    return {"seconds": len(audio) / rate if rate else 0.0, "rms": float(np.sqrt(np.mean(audio**2))) if len(audio) else 0.0}
