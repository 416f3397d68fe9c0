"""What the recognizer returned for each utterance, beside the game's journal.

One JSON line per utterance: vosk's result exactly as it came (``"vosk"``),
the alternative acted on, the reply and the timings, so a night at a real
table can be replayed exactly (``dudo simular`` reads these lines). With
``--grabar`` the audio of each utterance is kept too, as a WAV, for building
a corpus. Both are bounded: the log rotates once past ``MAX_LOG_BYTES``, and
recording stops past ``MAX_AUDIO_BYTES``. A log that cannot be written is
dropped silently: it never stops the game.
"""

from __future__ import annotations

import json
import logging
import os
import wave
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from assistant.changes import Answered, Observer
from assistant.rules import Game
from assistant.voice.heard import Heard

MAX_LOG_BYTES = 5_000_000
"""The log is moved to ``….1.jsonl`` (replacing an older one) past this size."""
MAX_AUDIO_BYTES = 300_000_000
"""Recording stops when a game's WAVs reach this size (about 2.6 hours of speech at 16 kHz)."""

log = logging.getLogger("dudo")


def log_path(journal: Path) -> Path:
    """``partida-X.jsonl`` → ``partida-X.reconocedor.jsonl``."""
    return journal.with_name(journal.stem + ".reconocedor.jsonl")


def audio_dir(journal: Path) -> Path:
    return journal.with_name(journal.stem + ".audio")


class HeardLog(Observer):
    """Writes one line per utterance: an observer of what was answered."""

    def __init__(self, path: Path, audio: Path | None = None, max_bytes: int = MAX_LOG_BYTES,
                 max_audio_bytes: int = MAX_AUDIO_BYTES) -> None:
        self.path = path
        self.audio = audio
        self.max_bytes = max_bytes
        self.max_audio_bytes = max_audio_bytes
        self._audio_bytes = 0
        self._recording = audio is not None
        self._count = 0

    def answered(self, said: Answered, game: Game) -> None:
        heard = said.heard
        self._count += 1
        entry: dict[str, Any] = {
            "hora": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "vosk": dict(heard.raw) if heard.raw is not None else {"text": heard.text},
            "elegida": said.chosen,
            "texto": said.text,
            "aceptada": said.accepted,
            "respuesta": said.reply,
            "ms_reconocer": round(heard.latency_ms, 2),
            "ms_responder": round(said.reply_ms, 3),
        }
        if heard.start is not None:
            entry["inicio_s"], entry["fin_s"] = heard.start, heard.end
        if heard.follows:
            entry["sigue"] = True  # said on from the utterance before: its replay reads them together too
        wav = self._save_audio(heard)
        if wav is not None:
            entry["audio"] = wav
        try:
            self._rotate()
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        except OSError:
            log.warning("recognizer log %s cannot be written", self.path, exc_info=True)

    def _rotate(self) -> None:
        if self.path.exists() and self.path.stat().st_size >= self.max_bytes:
            os.replace(self.path, self.path.with_name(self.path.stem + ".1.jsonl"))

    def _save_audio(self, heard: Heard) -> str | None:
        if self.audio is None or heard.audio is None or not self._recording:
            return None
        if self._audio_bytes + len(heard.audio) > self.max_audio_bytes:
            log.warning("recording stopped: %d bytes of audio kept for this game", self._audio_bytes)
            self._recording = False
            return None
        name = f"{self._count:05d}.wav"
        try:
            self.audio.mkdir(parents=True, exist_ok=True)
            with wave.open(str(self.audio / name), "wb") as out:
                out.setnchannels(1)
                out.setsampwidth(2)
                out.setframerate(heard.sample_rate)
                out.writeframes(heard.audio)
        except OSError:
            log.warning("cannot keep the audio of utterance %d", self._count, exc_info=True)
            return None
        self._audio_bytes += len(heard.audio)
        return f"{self.audio.name}/{name}"
