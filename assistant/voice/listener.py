"""Microphone + recognizer: utterances out, as soon as the speaker stops.

Two ways to share the room with the referee's own voice:

- **half duplex** (no echo cancellation): what is heard while the referee
  speaks, and for a short tail after, is dropped, so it never answers itself;
- **full duplex** (the sound server removes the referee's voice from the
  microphone, ``module-echo-cancel``): everything is heard. When a player
  starts speaking over the referee, ``barge_in`` is called (the speaker stops)
  and the player's words, fed to the recognizer from their first sample, come
  out whole.

An utterance ends when vosk's endpointer says so, or sooner when the voice
activity detector has heard the speaker stop: ``SHORT_SILENCE`` after a call
the game would take as it stands ("dudo", "tres trenes"), ``LONG_SILENCE``
after anything else (a player may still be saying the face of a bid).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Iterator

import numpy as np

from assistant.voice.heard import Heard
from assistant.voice.microphone import Microphone
from assistant.voice.recognizer import Recognizer
from assistant.voice.vad import MIN_LEVEL, SpeechDetector

KEEP_SECONDS = 20.0
"""At most this much audio is kept for one utterance (its end)."""
SHORT_SILENCE = 0.25
"""Seconds of quiet that end an utterance the game would take as it stands."""
LONG_SILENCE = 0.5
"""Seconds of quiet that end any utterance (vosk's own rule may end it sooner)."""
ECHO_MARGIN = 2.0
"""While the referee talks, a player must be this many times louder than what
may be left of the referee's voice in the (echo-cancelled) microphone to cut it off."""
ECHO_WINDOW = 0.5
"""Seconds of the referee's output that may still echo in a block of the microphone."""
COUPLING_BLOCKS = 10
"""Blocks of the referee alone before the leftover of its voice is known; until
then it is taken as loud as the output itself."""
COUPLING_QUANTILE = 0.9
"""The leftover is reckoned high: a loud word of the referee never cuts it off."""
QUIET_OUTPUT = 0.003
"""Output quieter than this teaches nothing about the echo."""
PREROLL_SECONDS = 0.5
"""When someone starts speaking, the recognizer starts over this far back: the
utterance holds the first syllable and nothing of what came before (the
referee's leftover voice, a murmur)."""
SETTLE_SECONDS = 0.5
"""After a silence the canceller lets the referee's first word through louder
(by 15 dB here) while it settles: for this long after the referee starts, a
player must outshout the output itself to cut it off."""


def listen(
    microphone: Microphone,
    recognizer: Recognizer,
    speaking_at: Callable[[float], bool] = lambda _t: False,
    stop: Callable[[], bool] = lambda: False,
    keep_audio: bool = False,
    *,
    duplex: bool = False,
    barge_in: Callable[[], object] | None = None,
    complete: Callable[[str], bool] | None = None,
    output_level: Callable[[float, float], float] | None = None,
) -> Iterator[Heard]:
    """Utterances heard at the table.

    A block is judged by when it *arrived* (``speaking_at(block.time)``), not
    when it is read. Half duplex drops the blocks that arrived while the
    referee was speaking, and the recognizer's half-finished utterance with
    them. Full duplex (``duplex``) keeps them and calls ``barge_in`` when a
    player starts speaking over the referee: voiced, and louder than what the
    canceller leaves of the referee's voice. That leftover is reckoned from
    ``output_level(moment, window)`` (how loud the referee played then) times
    the coupling learned while the referee talked alone, so a word of its own
    that slips through the canceller is not taken for a player.

    ``complete(partial_text)``: would the game take this as it stands? Then a
    shorter silence ends it.

    With ``keep_audio`` every utterance carries the audio fed since the last
    one (up to ``KEEP_SECONDS``), for ``--grabar``.
    """
    detector = SpeechDetector(microphone.rate)
    dropped = False
    kept: deque[bytes] = deque()
    kept_bytes = 0
    limit = int(KEEP_SECONDS * recognizer.sample_rate * 2)
    coupling: deque[float] = deque(maxlen=200)  # leftover / output, while the referee talked alone
    cut_off = False  # barge_in was called for the sound playing now
    talk_began: float | None = None  # when the referee's current stretch of talk was first heard (duplex)
    preroll: deque[bytes] = deque()
    preroll_bytes = 0
    preroll_limit = int(PREROLL_SECONDS * recognizer.sample_rate * 2)
    fed = 0  # bytes fed to the recognizer since it last started over
    for block in microphone.blocks(stop):
        speaking = speaking_at(block.time)
        if speaking and not duplex:
            dropped = True
            continue
        if dropped:
            recognizer.reset()
            detector.reset()
            dropped = False
            kept.clear()
            kept_bytes = 0
            preroll.clear()
            preroll_bytes = fed = 0
        if not (duplex and speaking):
            talk_began = None
        elif talk_began is None:
            talk_began = block.time
        settling = talk_began is not None and block.time - talk_began < SETTLE_SECONDS
        output = output_level(block.time, ECHO_WINDOW) if talk_began is not None and output_level is not None else 0.0
        if output > 0.0:
            learned = len(coupling) >= COUPLING_BLOCKS and not settling
            known = float(np.quantile(coupling, COUPLING_QUANTILE)) if learned else 1.0
            detector.gate = max(MIN_LEVEL, ECHO_MARGIN * known * output)
        else:
            detector.gate = MIN_LEVEL
        detector.feed(block.data)
        if talk_began is not None:
            if not detector.speaking:
                if output >= QUIET_OUTPUT and not settling:
                    coupling.append(detector.level / output)
            elif barge_in is not None and not cut_off:
                cut_off = True
                barge_in()
        else:
            cut_off = False
        if detector.started and fed > preroll_bytes:
            recognizer.reset()  # the utterance starts where the person did
            for before in preroll:
                recognizer.feed(before)
            fed = kept_bytes = preroll_bytes
            kept = deque(preroll)
        heard = recognizer.feed(block.data)
        fed += len(block.data)
        preroll.append(block.data)
        preroll_bytes += len(block.data)
        while preroll_bytes > preroll_limit:
            preroll_bytes -= len(preroll.popleft())
        if keep_audio:
            kept.append(block.data)
            kept_bytes += len(block.data)
            while kept_bytes > limit and len(kept) > 1:
                kept_bytes -= len(kept.popleft())
        if heard is None and detector.spoke and _ended(detector.quiet, recognizer, complete):
            heard = recognizer.finish()
        if heard is None:
            continue
        spoke = detector.spoke
        detector.reset()
        fed = 0
        if not spoke:
            continue  # words from what was not anybody's speech (a murmur, the referee's faint echo)
        if keep_audio:
            heard = dataclasses.replace(heard, audio=b"".join(kept), sample_rate=recognizer.sample_rate)
            kept.clear()
            kept_bytes = 0
        yield heard


def _ended(quiet: float, recognizer: Recognizer, complete: Callable[[str], bool] | None) -> bool:
    if quiet >= LONG_SILENCE:
        return True
    return quiet >= SHORT_SILENCE and complete is not None and complete(recognizer.partial())
