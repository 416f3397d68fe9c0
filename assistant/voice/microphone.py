"""Microphone capture: the audio callback only queues bytes; nothing blocks it.

The device is opened at 16 kHz when it allows, otherwise at its own rate
(many USB microphones only do 44.1 or 48 kHz): the recognizer is then created
at that rate and vosk resamples to its 16 kHz internally. An overflow is
counted and reported, never fatal; a microphone that disappears is reported
and reopened until it comes back.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from assistant.voice import messages as say

log = logging.getLogger("dudo.microfono")

TARGET_RATE = 16000
BLOCK_SECONDS = 0.05
"""Audio per callback (seconds): the end of a call is seen at most this late."""
QUEUE_SECONDS = 30
"""How much audio may wait for the recognizer before blocks are dropped (seconds)."""
SILENT_TIMEOUT = 2.0
"""No audio for this long (seconds) means the stream died."""
FIRST_AUDIO_TIMEOUT = 6.0
"""A stream just opened may take longer to give its first block (seen: 1.6 s
through PulseAudio's ALSA plugin; a USB microphone waking up): no audio for this
long after opening means it is not there."""


LOST = "lost"
"""Reported when no audio comes any more (unplugged, the sound server gone)."""
BACK = "back"
"""Reported once audio flows again after a loss."""


class MicrophoneError(Exception):
    """The microphone cannot be opened; the message is Spanish."""


@dataclass(frozen=True)
class Block:
    """A block of 16-bit mono audio."""

    data: bytes
    rate: int
    """Hertz."""
    time: float
    """Monotonic time when the block arrived (seconds)."""

    @property
    def seconds(self) -> float:
        return len(self.data) / 2 / self.rate


def _sd() -> Any:
    import sounddevice

    return sounddevice


def describe_devices() -> list[str]:
    """What `dudo dispositivos` prints."""
    sd = _sd()
    lines = []
    try:
        devices = sd.query_devices()
        default_in, default_out = sd.default.device
    except Exception as err:  # PortAudio missing or broken
        return [say.cannot_query_audio(err)]
    for index, dev in enumerate(devices):
        kinds = []
        if dev["max_input_channels"] > 0:
            kinds.append(say.MICROPHONE + (say.DEFAULT if index == default_in else ""))
        if dev["max_output_channels"] > 0:
            kinds.append(say.SPEAKER + (say.DEFAULT if index == default_out else ""))
        lines.append(f"{index:3d}  {dev['name']}  — {', '.join(kinds)}, {int(dev['default_samplerate'])} Hz")
    if not lines:
        lines.append(say.NO_DEVICES)
    return lines


def pick_device(spec: str | None, kind: str = "input") -> int | None:
    """A device index from a number or part of a name; None for the default."""
    if spec is None or spec == "":
        return None
    sd = _sd()
    if spec.isdigit():
        return int(spec)
    channels = "max_input_channels" if kind == "input" else "max_output_channels"
    matches = [i for i, d in enumerate(sd.query_devices()) if spec.lower() in d["name"].lower() and d[channels] > 0]
    if not matches:
        raise MicrophoneError(say.no_such_device(spec))
    return int(matches[0])


def device_name(device: int | None) -> str | None:
    """PortAudio's name for a device index (None: the default)."""
    if device is None:
        return None
    return str(_sd().query_devices(device)["name"])


def choose_rate(device: int | None) -> int:
    """16 kHz when the device takes it, else its default rate."""
    sd = _sd()
    try:
        sd.check_input_settings(device=device, samplerate=TARGET_RATE, channels=1, dtype="int16")
        return TARGET_RATE
    except Exception:
        info = sd.query_devices(device, "input")
        return int(info["default_samplerate"])


class Microphone:
    """A live input stream; iterate ``blocks()`` to receive audio."""

    def __init__(self, device: int | None = None, report: Callable[[str], None] | None = None) -> None:
        self.device = device
        self.report = report or (lambda what: log.warning("microphone %s", what))
        """Told ``LOST`` and ``BACK``, once each time: the layer above words it for the table."""
        self.rate = choose_rate(device)
        self.overflows = 0
        self.dropped = 0
        self._queue: queue.Queue[Block] = queue.Queue(maxsize=int(QUEUE_SECONDS / BLOCK_SECONDS))
        self._stream: Any = None
        self._open()

    def _callback(self, indata: Any, frames: int, when: Any, status: Any) -> None:
        if status and status.input_overflow:
            self.overflows += 1
        try:
            self._queue.put_nowait(Block(bytes(indata), self.rate, time.monotonic()))
        except queue.Full:
            self.dropped += 1

    def _open(self) -> None:
        self._flowing = False  # no block yet from this stream: the first may be slow to come
        sd = _sd()
        try:
            self._stream = sd.RawInputStream(
                samplerate=self.rate,
                blocksize=int(self.rate * BLOCK_SECONDS),
                device=self.device,
                channels=1,
                dtype="int16",
                callback=self._callback,
            )
            self._stream.start()
        except Exception as err:
            self._stream = None
            raise MicrophoneError(say.cannot_open_microphone(err)) from err

    def blocks(self, stop: Callable[[], bool] = lambda: False) -> Iterator[Block]:
        """Audio blocks until ``stop()``; reopens the stream if it dies."""
        reported_overflows = 0
        while not stop():
            try:
                block = self._queue.get(timeout=SILENT_TIMEOUT if self._flowing else FIRST_AUDIO_TIMEOUT)
            except queue.Empty:
                self._recover(stop)
                continue
            self._flowing = True
            if self.overflows > reported_overflows:
                log.warning("microphone overflow (%d so far)", self.overflows)
                reported_overflows = self.overflows
            yield block

    def _recover(self, stop: Callable[[], bool]) -> None:
        """No audio: the microphone was unplugged or the stream stopped. Retry until back."""
        self.report(LOST)
        log.warning("microphone lost: reopening until audio comes back")
        self.close()
        while not stop():
            try:
                _sd()._terminate()
                _sd()._initialize()
                self.rate = choose_rate(self.device)
                self._open()
            except Exception:
                time.sleep(2.0)
                continue
            # an open stream is not enough: say it is back only once audio flows
            deadline = time.monotonic() + FIRST_AUDIO_TIMEOUT
            while self._queue.empty() and time.monotonic() < deadline and not stop():
                time.sleep(0.05)
            if not self._queue.empty():
                self.report(BACK)
                log.warning("microphone back")
                return
            self.close()

    def drain(self) -> None:
        """Drop audio already queued (what was heard while the referee spoke)."""
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

    def close(self) -> None:
        if self._stream is not None:
            try:
                self._stream.stop()
                self._stream.close()
            except Exception:
                pass
            self._stream = None
