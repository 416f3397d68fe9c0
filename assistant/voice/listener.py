"""Microphone + recognizer, half duplex: what is heard while the referee speaks is dropped."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Iterator

from assistant.voice.heard import Heard
from assistant.voice.microphone import Microphone
from assistant.voice.recognizer import Recognizer

KEEP_SECONDS = 20.0
"""At most this much audio is kept for one utterance (its end)."""


def listen(
    microphone: Microphone,
    recognizer: Recognizer,
    speaking_at: Callable[[float], bool] = lambda _t: False,
    stop: Callable[[], bool] = lambda: False,
    keep_audio: bool = False,
) -> Iterator[Heard]:
    """Utterances heard while the referee is silent.

    A block is judged by when it *arrived* (``speaking_at(block.time)``), not
    when it is read: replies are spoken on this same thread, so audio of the
    referee's own voice waits in the queue until it has finished. Such audio,
    and the recognizer's half-finished utterance with it, is thrown away, so
    the referee never answers itself.

    With ``keep_audio`` every utterance carries the audio fed since the last
    one (up to ``KEEP_SECONDS``), for ``--grabar``.
    """
    dropped = False
    kept: deque[bytes] = deque()
    kept_bytes = 0
    limit = int(KEEP_SECONDS * recognizer.sample_rate * 2)
    for block in microphone.blocks(stop):
        if speaking_at(block.time):
            dropped = True
            continue
        if dropped:
            recognizer.reset()
            dropped = False
            kept.clear()
            kept_bytes = 0
        heard = recognizer.feed(block.data)
        if keep_audio:
            kept.append(block.data)
            kept_bytes += len(block.data)
            while kept_bytes > limit and len(kept) > 1:
                kept_bytes -= len(kept.popleft())
        if heard is not None:
            if keep_audio:
                heard = dataclasses.replace(heard, audio=b"".join(kept), sample_rate=recognizer.sample_rate)
                kept.clear()
                kept_bytes = 0
            yield heard
