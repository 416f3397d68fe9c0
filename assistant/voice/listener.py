"""Microphone + recognizer, half duplex: what is heard while the referee speaks is dropped."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from assistant.voice.heard import Heard
from assistant.voice.microphone import Microphone
from assistant.voice.recognizer import Recognizer


def listen(
    microphone: Microphone,
    recognizer: Recognizer,
    speaking_at: Callable[[float], bool] = lambda _t: False,
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[Heard]:
    """Utterances heard while the referee is silent.

    A block is judged by when it *arrived* (``speaking_at(block.time)``), not
    when it is read: replies are spoken on this same thread, so audio of the
    referee's own voice waits in the queue until it has finished. Such audio,
    and the recognizer's half-finished utterance with it, is thrown away, so
    the referee never answers itself.
    """
    dropped = False
    for block in microphone.blocks(stop):
        if speaking_at(block.time):
            dropped = True
            continue
        if dropped:
            recognizer.reset()
            dropped = False
        heard = recognizer.feed(block.data)
        if heard is not None:
            yield heard
