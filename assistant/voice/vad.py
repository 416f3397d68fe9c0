"""Where a person's speech starts and stops in the microphone's audio.

WebRTC's voice activity detector (the ``webrtcvad`` wheel: the same C code
browsers use, tens of microseconds per frame even on a Pi) judges each 30 ms
frame; a level gate on top keeps a faint leftover of the referee's own voice,
or a murmur across the room, from counting as someone speaking to it. What
is speech is decided here; what was said is vosk's business.
"""

from __future__ import annotations

from collections import deque

import numpy as np

VAD_RATE = 16000
FRAME_SECONDS = 0.03
FRAME_SAMPLES = int(VAD_RATE * FRAME_SECONDS)
AGGRESSIVENESS = 2
"""WebRTC's modes go from 0 (any sound is speech) to 3 (only clear speech)."""
ONSET_WINDOW = 10
"""Frames (0.3 s) looked at to decide that speech started..."""
ONSET_FRAMES = 5
"""...of which this many (0.15 s) must be voiced: a cough or a clink is not a player."""
MIN_LEVEL = 0.002
"""RMS (of full scale) below which a frame is never speech, whatever its shape (-54 dBFS)."""


class SpeechDetector:
    """Fed the microphone's blocks in order; says whether someone is speaking,
    whether someone spoke since the last ``reset``, and for how long it has
    been quiet since."""

    def __init__(self, rate: int, aggressiveness: int = AGGRESSIVENESS) -> None:
        import webrtcvad

        self.rate = rate
        self._vad = webrtcvad.Vad(aggressiveness)
        self._rest = np.empty(0, dtype=np.int16)
        self._window: deque[bool] = deque(maxlen=ONSET_WINDOW)
        self.gate = MIN_LEVEL
        """Level a voiced frame must reach (the listener raises it while the referee talks)."""
        self.spoke = False
        """Speech started since the last ``reset``."""
        self.speaking = False
        """Speech in the last window."""
        self.quiet = 0.0
        """Seconds since the last voiced frame (0 while speaking; counts only once someone spoke)."""
        self.level = 0.0
        """RMS of the last block fed (of full scale)."""
        self.started = False
        """The block just fed is the one where speech started."""

    def feed(self, data: bytes) -> None:
        samples = np.frombuffer(data, dtype=np.int16)
        self.level = float(np.sqrt(np.mean((samples.astype(np.float64) / 32768.0) ** 2))) if len(samples) else 0.0
        if self.rate != VAD_RATE and len(samples):
            count = round(len(samples) * VAD_RATE / self.rate)
            samples = np.interp(
                np.arange(count) * (self.rate / VAD_RATE), np.arange(len(samples)), samples.astype(np.float64)
            ).astype(np.int16)
        audio = np.concatenate([self._rest, samples])
        whole = len(audio) // FRAME_SAMPLES * FRAME_SAMPLES
        self._rest = audio[whole:]
        self.started = False
        for start in range(0, whole, FRAME_SAMPLES):
            frame = audio[start : start + FRAME_SAMPLES]
            self._frame(frame)

    def _frame(self, frame: np.ndarray) -> None:
        rms = float(np.sqrt(np.mean((frame.astype(np.float64) / 32768.0) ** 2)))
        voiced = rms >= self.gate and self._vad.is_speech(frame.tobytes(), VAD_RATE)
        self._window.append(voiced)
        was = self.speaking
        self.speaking = sum(self._window) >= ONSET_FRAMES if not was else any(self._window)
        if self.speaking and not was and not self.spoke:
            self.spoke = True
            self.started = True
        if voiced and self.spoke:
            self.quiet = 0.0
        elif self.spoke:
            self.quiet += FRAME_SECONDS

    def reset(self) -> None:
        """A new utterance: forget that anyone spoke (the audio in flight is kept)."""
        self.spoke = False
        self.speaking = False
        self.quiet = 0.0
        self._window.clear()
