"""Every sound the referee means to make reaches the speaker whole, through the
sound server's echo canceller (as on the Pi) and without it: earcons and a short
reply, many times each, measured at the speaker's monitor (``scripts/sala.py``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest

from assistant.voice import earcons
from scripts import sala
from tests.test_voice import needs_espeak

pytestmark = pytest.mark.audio


def wav_audio(path: Path) -> tuple[np.ndarray, int]:
    import wave

    with wave.open(str(path), "rb") as wav:
        rate = wav.getframerate()
        audio = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).astype(np.float32) / 32768
    return audio, rate


@needs_espeak
@pytest.mark.parametrize(("echo_cancel", "earcons_each", "replies"), [(True, 20, 8), (False, 10, 4)],
                         ids=["con-cancelacion-de-eco", "sin-cancelacion"])
def test_earcon_and_short_reply_reach_the_speaker_whole(echo_cancel: bool, earcons_each: int, replies: int) -> None:
    if not sala.available():
        pytest.skip("PulseAudio no está instalado (scripts/instalar.sh --test lo instala)")
    played = sala.play_whole(echo_cancel, earcons_each, replies)
    assert played.whole == len(played.plan), f"{len(played.short)} of {len(played.plan)} cut short or lost: {played.short[:5]}"


def test_earcon_at_another_rate_keeps_its_length_and_loudness_in_the_stream() -> None:
    """Earcons (16 kHz) and replies (espeak-ng's 22 050 Hz) share one stream: resampled, not changed."""
    from assistant.voice.speaker import OUTPUT_RATE, _read_mono

    folder = Path(tempfile.mkdtemp())
    try:
        for name in earcons.NAMES:
            path = earcons.write(name, folder)
            audio, rate = wav_audio(path)
            resampled = _read_mono(path, OUTPUT_RATE)
            assert abs(len(resampled) / OUTPUT_RATE - len(audio) / rate) < 0.002, name
            assert abs(np.abs(resampled).max() / 32768 - np.abs(audio).max()) < 0.02, name  # as loud
    finally:
        for f in folder.iterdir():
            os.unlink(f)
        folder.rmdir()
