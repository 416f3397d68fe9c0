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
from typing import Protocol

import numpy as np

from assistant.voice.heard import Heard, joined
from assistant.voice.microphone import Block, Microphone
from assistant.voice.recognizer import Recognizer
from assistant.voice.vad import MIN_LEVEL, SpeechDetector

KEEP_SECONDS = 20.0
"""At most this much audio is kept for one utterance (its end)."""
SHORT_SILENCE = 0.24
"""Seconds of quiet that end an utterance the game would take as it stands: eight of
the detector's 30 ms frames (0.25 s took nine, 0.27 s). Said on after it, a
self-correction still replaces the bid (``Heard.follows``)."""
LONG_SILENCE = 0.5
"""Seconds of quiet that end any utterance (vosk's own rule may end it sooner)."""
ECHO_MARGIN = 2.0
"""While the referee talks, a player must be this many times louder than what
may be left of the referee's voice in the (echo-cancelled) microphone to cut it off."""
ECHO_WINDOW = 1.0
"""Seconds of the referee's output that may still echo in a block of the microphone: the
sound server's buffers sit between the output the speaker reckons and what the
canceller hands back (the test room's loopback delayed the echo 0.05-0.85 s, run to run)."""
COUPLING_BLOCKS = 10
"""Blocks of the referee alone before the leftover of its voice is known; until
then it is taken as loud as the output itself."""
COUPLING_QUANTILE = 0.98
"""The leftover is reckoned high: a loud word of the referee never cuts it off. The
canceller leaks in bursts, at the onset of a word after a pause, a block or two at a time:
a lower quantile (0.9 was) learned the quiet between them and let the next burst through."""
COUPLING_FLOOR = 0.02
"""The canceller is never credited with taking away more than 34 dB of the referee's voice:
a stretch of talk whose echo had not yet come back (or came back quiet) teaches no less."""
QUIET_OUTPUT = 0.003
"""Output quieter than this teaches nothing about the echo."""
PREROLL_SECONDS = 0.5
"""When someone starts speaking, the recognizer starts over this far back: the
utterance holds the first syllable and nothing of what came before (the
referee's leftover voice, a murmur)."""
FOLLOW_SECONDS = LONG_SILENCE - SHORT_SILENCE + 0.15
"""A new utterance whose start is heard this soon after one ended early (at the short
silence) would have been part of it under the long silence (the detector is sure of
a start about 0.15 s after it): it ``follows``. Another player answering the earcon
starts later (the earcon comes ~0.4 s after the speaker stopped, then a reaction)."""
SETTLE_SECONDS = 0.5
"""After a silence the canceller lets the referee's first word through louder
(by 15 dB here) while it settles: for this long after the referee starts, a
player must outshout the output itself to cut it off."""


class AudioTail:
    """The last ``limit`` bytes of audio, kept as blocks with a running size
    (the pre-roll before a person speaks, the audio of an utterance)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.blocks: deque[bytes] = deque()
        self.size = 0

    def append(self, data: bytes) -> None:
        self.blocks.append(data)
        self.size += len(data)
        while self.size > self.limit and len(self.blocks) > 1:
            self.size -= len(self.blocks.popleft())

    def clear(self) -> None:
        self.blocks.clear()
        self.size = 0

    def copy(self) -> AudioTail:
        twin = AudioTail(self.limit)
        twin.blocks, twin.size = deque(self.blocks), self.size
        return twin

    def joined(self) -> bytes:
        return b"".join(self.blocks)


class EchoGate:
    """How loud a player must be to count while the referee talks: louder than
    what the canceller may leave of the referee's voice, reckoned from how loud
    it played (``output``) times the coupling learned while it talked alone."""

    def __init__(self) -> None:
        self.coupling: deque[float] = deque(maxlen=200)
        """Leftover / output, while the referee talked alone."""

    def level(self, output: float, settling: bool) -> float:
        if output <= 0.0:
            return MIN_LEVEL
        learned = len(self.coupling) >= COUPLING_BLOCKS and not settling
        known = max(COUPLING_FLOOR, float(np.quantile(self.coupling, COUPLING_QUANTILE))) if learned else 1.0
        return max(MIN_LEVEL, ECHO_MARGIN * known * output)

    def learn(self, heard: float, output: float) -> None:
        if output >= QUIET_OUTPUT:
            self.coupling.append(heard / output)


class Listener:
    """Microphone blocks in (``feed``), in order; an utterance out once it ends.

    A block is judged by when it *arrived* (``speaking_at(block.time)``), not
    when it is read. Half duplex drops the blocks that arrived while the
    referee was speaking, and the recognizer's half-finished utterance with
    them. Full duplex (``duplex``) keeps them and calls ``barge_in`` when a
    player starts speaking over the referee: voiced, and louder than the echo
    gate. ``complete(partial_text)``: would the game take this as it stands?
    Then a shorter silence ends it. With ``keep_audio`` every utterance carries
    the audio fed since the last one (up to ``KEEP_SECONDS``), for ``--grabar``.

    The detector and the recognizer are given, so the logic runs on fake audio
    and a fake clock in fast tests.
    """

    def __init__(
        self,
        recognizer: Decoder,
        detector: Detector,
        speaking_at: Callable[[float], bool] = lambda _t: False,
        keep_audio: bool = False,
        *,
        duplex: bool = False,
        barge_in: Callable[[], object] | None = None,
        complete: Callable[[str], bool] | None = None,
        output_level: Callable[[float, float], float] | None = None,
    ) -> None:
        self.recognizer = recognizer
        self.detector = detector
        self.speaking_at = speaking_at
        self.keep_audio = keep_audio
        self.duplex = duplex
        self.barge_in = barge_in
        self.complete = complete
        self.output_level = output_level
        bytes_per_second = recognizer.sample_rate * 2
        self.kept = AudioTail(int(KEEP_SECONDS * bytes_per_second))
        self.preroll = AudioTail(int(PREROLL_SECONDS * bytes_per_second))
        self.gate = EchoGate()
        self.dropped = False
        """Half duplex: blocks were dropped while the referee spoke."""
        self.cut_off = False
        """``barge_in`` was called for the referee's current stretch of talk."""
        self.talk_began: float | None = None
        """When the referee's current stretch of talk was first heard (duplex)."""
        self.fed = 0
        """Bytes fed to the recognizer since it last started over."""
        self.held: Heard | None = None
        """An utterance ended early that was not a whole call ("cinco" in "cinco… quinas"):
        what follows a short pause is joined to it."""
        self.tried_early = False
        """The utterance in progress was already ended early once."""
        self.early_end: float | None = None
        """When the last utterance was given at the short silence (block time)."""
        self.following = False
        """The utterance in progress started within ``FOLLOW_SECONDS`` of that."""

    def feed(self, block: Block) -> Heard | None:
        speaking = self.speaking_at(block.time)
        if speaking and not self.duplex:
            self.dropped = True
            return None
        if self.dropped:
            self._start_over()
        self._track_talk(block.time, speaking)
        detector = self.detector
        settling = self.talk_began is not None and block.time - self.talk_began < SETTLE_SECONDS
        output = self.output_level(block.time, ECHO_WINDOW) if self.talk_began is not None and self.output_level is not None else 0.0
        detector.gate = self.gate.level(output, settling)
        detector.feed(block.data)
        if self.talk_began is not None:
            if not detector.speaking:
                if not settling and detector.level < detector.gate:
                    # what beats the gate may be a player starting to speak: only the echo teaches
                    self.gate.learn(detector.level, output)
            elif self.barge_in is not None and not self.cut_off:
                self.cut_off = True
                self.barge_in()
        if detector.started:
            self.following = self.early_end is not None and block.time - self.early_end <= FOLLOW_SECONDS
            self.early_end = None
        if detector.started and self.fed != self.preroll.size:
            # the utterance starts where the person did: the recognizer holds more than
            # the pre-roll, or less (vosk closed a murmur as the person began)
            self._from_preroll()
        heard = self.recognizer.feed(block.data)
        self.fed += len(block.data)
        self.preroll.append(block.data)
        if self.keep_audio:
            self.kept.append(block.data)
        ended = heard is None and detector.spoke and self._ended(detector.quiet)
        if ended:
            heard = self.recognizer.finish()
        elif heard is None and detector.spoke and self._may_end_early(detector.quiet):
            heard = self._end_early()
            if heard is None:
                return None
        if self.held is not None and (heard is not None or ended):
            heard = joined(self.held, heard)
            self.held = None
        if heard is None and not ended:
            return None
        spoke = detector.spoke
        quiet = detector.quiet  # how long the speaker had been silent: the short silence ended it, or the long one
        detector.reset()
        self.fed = 0
        self.tried_early = False
        if heard is None:
            return None  # the silence ended it and nothing in it could be read: over all the same
        if not spoke:
            return None  # words from what was not anybody's speech (a murmur, the referee's faint echo)
        heard = dataclasses.replace(heard, follows=self.following)
        self.following = False
        self.early_end = block.time if quiet < LONG_SILENCE else None
        if self.keep_audio:
            heard = dataclasses.replace(heard, audio=self.kept.joined(), sample_rate=self.recognizer.sample_rate)
            self.kept.clear()
        return heard

    def _may_end_early(self, quiet: float) -> bool:
        return quiet >= SHORT_SILENCE and self.complete is not None and not self.tried_early

    def _end_early(self) -> Heard | None:
        """The short silence came and the partial text was no whole call: the
        decoder runs behind the audio, so its final reading is asked for now
        ("dudo" is known 0.25 s after it was said, not 0.5 s). A whole call is
        the utterance; anything else is held, and joined to what is said next
        if the player goes on ("cinco… quinas"), or ends as it is at the long silence."""
        self.tried_early = True
        early = self.recognizer.finish()
        if early is not None and self.complete is not None and self.complete(early.text):
            return early
        if early is not None:
            self.held = early
        self.preroll.clear()  # the next words start after the pause, not again with the held ones
        self.fed = 0
        return None

    def _start_over(self) -> None:
        """After dropping the referee's talk: nothing heard before counts."""
        self.held = None
        self.tried_early = False
        self.recognizer.reset()
        self.detector.reset()
        self.dropped = False
        self.kept.clear()
        self.preroll.clear()
        self.fed = 0

    def _track_talk(self, moment: float, speaking: bool) -> None:
        if not (self.duplex and speaking):
            self.talk_began = None
            self.cut_off = False
        elif self.talk_began is None:
            self.talk_began = moment

    def _from_preroll(self) -> None:
        self.recognizer.reset()
        for before in self.preroll.blocks:
            self.recognizer.feed(before)
        self.fed = self.preroll.size
        self.kept = self.preroll.copy()
        self.kept.limit = int(KEEP_SECONDS * self.recognizer.sample_rate * 2)

    def _ended(self, quiet: float) -> bool:
        if quiet >= LONG_SILENCE:
            return True
        if quiet < SHORT_SILENCE or self.complete is None:
            return False
        partial = self.recognizer.partial()
        return self.complete(f"{self.held.text} {partial}" if self.held is not None else partial)


class Decoder(Protocol):
    """What the listener needs of a recognizer (``recognizer.Recognizer`` has it)."""

    sample_rate: int

    def feed(self, audio: bytes) -> Heard | None: ...

    def finish(self) -> Heard | None: ...

    def partial(self) -> str: ...

    def reset(self) -> None: ...


class Detector(Protocol):
    """What the listener needs of a speech detector (``vad.SpeechDetector``)."""

    gate: float
    spoke: bool
    speaking: bool
    quiet: float
    level: float
    started: bool

    def feed(self, data: bytes) -> None: ...

    def reset(self) -> None: ...


def listen(
    microphone: Microphone,
    recognizer: Recognizer,
    speaking_at: Callable[[float], bool] = lambda _t: False,
    stop: Callable[[], bool] = lambda: False,
    keep_audio: bool = False,
    *,
    duplex: bool | Callable[[], bool] = False,
    barge_in: Callable[[], object] | None = None,
    complete: Callable[[str], bool] | None = None,
    output_level: Callable[[float, float], float] | None = None,
) -> Iterator[Heard]:
    """Utterances heard at the table: the microphone's blocks through a ``Listener``
    with WebRTC's speech detector, until ``stop()``. ``duplex`` may be asked
    again for every block: the room can change while playing."""
    room = duplex if callable(duplex) else (lambda: duplex)
    listener = Listener(
        recognizer, SpeechDetector(microphone.rate), speaking_at, keep_audio,
        duplex=room(), barge_in=barge_in, complete=complete, output_level=output_level,
    )
    for block in microphone.blocks(stop):
        listener.duplex = room()
        heard = listener.feed(block)
        if heard is not None:
            yield heard
