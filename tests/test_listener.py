"""The listener's logic on fake audio blocks and a fake clock, in milliseconds.

The recognizer and the speech detector are stand-ins that do what the script
says: the listener's own rules are what is tested (half duplex drops the
referee's talk, the pre-roll, barge-in, the echo gate, the end of an
utterance, the audio kept). The real parts are tested end to end in
``test_barge.py`` and ``test_voice.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from assistant.voice.heard import Alternative, Heard
from assistant.voice.listener import (
    COUPLING_BLOCKS,
    COUPLING_FLOOR,
    ECHO_MARGIN,
    FOLLOW_SECONDS,
    KEEP_SECONDS,
    LONG_SILENCE,
    PREROLL_SECONDS,
    SETTLE_SECONDS,
    SHORT_SILENCE,
    AudioTail,
    EchoGate,
    Listener,
)
from assistant.voice.microphone import Block
from assistant.voice.vad import MIN_LEVEL

RATE = 16000
BLOCK = 0.05
"""Seconds per block, as the microphone gives them."""


def block(i: int, value: int = 0) -> Block:
    """Block number ``i`` of the fake clock: it arrived at ``i * BLOCK`` seconds."""
    return Block(bytes([value % 256, 0]) * int(RATE * BLOCK), RATE, i * BLOCK)


@dataclass
class FakeRecognizer:
    sample_rate: int = RATE
    fed: list[bytes] = field(default_factory=list)
    resets: int = 0
    partial_text: str = ""
    result_at: int | None = None
    """Return a result on this feed (vosk's own endpointer)."""
    empty: int = 0
    """The first this many final results are empty (a sound too faint or garbled to read)."""
    new_audio: bool = False
    """Audio was fed since the last final result."""

    def feed(self, data: bytes) -> Heard | None:
        self.fed.append(data)
        self.new_audio = True
        if self.result_at is not None and len(self.fed) == self.result_at:
            return Heard((Alternative("dudo"),))
        return None

    def partial(self) -> str:
        return self.partial_text

    def finish(self) -> Heard | None:
        had, self.new_audio = self.new_audio, False
        if not had or self.empty > 0:  # nothing to read, as vosk's empty result
            self.empty -= had
            return None
        return Heard((Alternative(self.partial_text or "tres trenes"),))

    def reset(self) -> None:
        self.resets += 1
        self.fed.clear()


@dataclass
class ScriptedDetector:
    """Speech in the blocks listed in ``voiced``; quiet counted in block lengths after it."""

    voiced: set[int]
    level_of: dict[int, float] = field(default_factory=dict)
    gate: float = MIN_LEVEL
    spoke: bool = False
    speaking: bool = False
    quiet: float = 0.0
    level: float = 0.0
    started: bool = False
    gates: list[float] = field(default_factory=list)
    count: int = 0
    quiet_blocks: int = 0

    def feed(self, data: bytes) -> None:
        i = self.count
        self.count += 1
        self.gates.append(self.gate)
        self.level = self.level_of.get(i, 0.0)
        voiced = i in self.voiced and self.level_of.get(i, 1.0) >= self.gate
        self.started = voiced and not self.spoke
        self.speaking = voiced
        if voiced:
            self.spoke = True
            self.quiet_blocks = 0
        elif self.spoke:
            self.quiet_blocks += 1
        self.quiet = self.quiet_blocks * BLOCK

    def reset(self) -> None:
        self.spoke = self.speaking = False
        self.quiet, self.quiet_blocks = 0.0, 0


def run(listener: Listener, blocks: int) -> list[tuple[int, Heard]]:
    out = []
    for i in range(blocks):
        heard = listener.feed(block(i, i))
        if heard is not None:
            out.append((i, heard))
    return out


def test_an_utterance_ends_after_the_long_silence_when_it_is_not_a_whole_call() -> None:
    rec = FakeRecognizer(partial_text="tres")
    heard = run(Listener(rec, ScriptedDetector({2, 3, 4}), complete=lambda _text: False), 40)
    ends = [i for i, _ in heard]
    assert ends == [4 + round(LONG_SILENCE / BLOCK)]


def test_a_whole_call_ends_after_the_short_silence() -> None:
    rec = FakeRecognizer(partial_text="dudo")
    heard = run(Listener(rec, ScriptedDetector({2, 3}), complete=lambda text: text == "dudo"), 40)
    assert [i for i, _ in heard] == [3 + round(SHORT_SILENCE / BLOCK)]
    assert heard[0][1].text == "dudo"


def test_words_without_anybodys_speech_are_dropped() -> None:
    """vosk returns words from a murmur the detector never took for speech."""
    rec = FakeRecognizer(result_at=5)
    assert run(Listener(rec, ScriptedDetector(set())), 20) == []


def test_half_duplex_drops_what_arrives_while_the_referee_speaks_and_starts_over() -> None:
    rec = FakeRecognizer(partial_text="tres trenes")
    talking = (0.5, 1.0)  # seconds on the fake clock

    def speaking_at(t: float) -> bool:
        return talking[0] <= t < talking[1]

    detector = ScriptedDetector({25, 26, 27})
    listener = Listener(rec, detector, speaking_at)
    heard = run(listener, 60)
    assert detector.count == 60 - round((talking[1] - talking[0]) / BLOCK)  # never fed while it spoke
    assert rec.resets >= 1 and len(heard) == 1
    # what it fed after the talk is only what came after it
    assert len(rec.fed) <= 60 - 20


def test_the_recognizer_starts_over_a_pre_roll_before_the_first_sound() -> None:
    rec = FakeRecognizer(partial_text="tres trenes")
    listener = Listener(rec, ScriptedDetector({30, 31, 32}))
    for i in range(31):
        listener.feed(block(i, i))
    # at block 30 speech started: the recognizer was reset and given the pre-roll, then block 30 itself
    assert rec.resets == 1
    assert len(rec.fed) == round(PREROLL_SECONDS / BLOCK) + 1
    assert rec.fed[-1] == block(30, 30).data and rec.fed[0] == block(30 - round(PREROLL_SECONDS / BLOCK), 30 - round(PREROLL_SECONDS / BLOCK)).data


def test_a_word_begun_as_vosk_closes_a_murmur_starts_from_the_pre_roll() -> None:
    """In full duplex the recognizer is fed the canceller's leftover of the referee's
    voice; vosk may close that as an utterance of its own just as a player starts
    (before the detector is sure of it). That is nobody's speech and is dropped,
    but the player's first syllables went with it: "cuatro" said 0.3 s after
    "¿Cuántos trenes hay?" came out empty and the count was never heard. The
    word starts from the pre-roll all the same."""
    rec = FakeRecognizer(partial_text="cuatro", result_at=29)  # vosk closes the murmur on block 28
    listener = Listener(rec, ScriptedDetector({30, 31, 32}))
    for i in range(31):
        listener.feed(block(i, i))
    assert rec.resets == 1
    assert rec.fed[0] == block(20, 20).data and rec.fed[-1] == block(30, 30).data  # 0.5 s before the onset, and the onset


def test_an_utterance_read_as_nothing_ends_and_the_next_one_is_heard_from_its_start() -> None:
    """A word too faint to read (the canceller damps a player who answers the moment
    the referee stops) gave an empty result; the listener stayed inside that
    utterance, asking for a final result at every block, and never saw the next
    player start."""
    rec = FakeRecognizer(partial_text="cuatro", empty=1)  # the faint word reads as nothing
    detector = ScriptedDetector({5, 6, 30, 31, 32})
    heard = run(Listener(rec, detector, complete=lambda text: text == "cuatro"), 60)
    assert [i for i, _ in heard] == [32 + round(SHORT_SILENCE / BLOCK)]
    assert rec.resets == 1  # the second word started from its pre-roll


@pytest.mark.parametrize(("gap_blocks", "follows"), [(2, True), (round(FOLLOW_SECONDS / BLOCK) + 3, False)])
def test_what_is_said_on_right_after_a_call_ended_early_follows_it(gap_blocks: int, follows: bool) -> None:
    """"cinco cuadras" is given at the short silence; "no, seis cuadras" begun before
    the long silence would have ended it follows it; begun later, it is a new line."""
    rec = FakeRecognizer(partial_text="cinco cuadras")
    end = 3 + round(SHORT_SILENCE / BLOCK)  # the first one is given here
    second = end + gap_blocks
    heard = run(Listener(rec, ScriptedDetector({2, 3, second, second + 1}), complete=lambda _text: True), second + 20)
    assert [i for i, _ in heard] == [end, second + 1 + round(SHORT_SILENCE / BLOCK)]
    assert [h.follows for _, h in heard] == [False, follows]


def test_barge_in_is_called_once_per_stretch_of_the_referees_talk() -> None:
    calls: list[float] = []
    rec = FakeRecognizer(partial_text="dudo")
    detector = ScriptedDetector({20, 21, 22, 23, 60, 61, 62})

    def speaking_at(t: float) -> bool:
        return 0.5 <= t < 2.0 or 2.5 <= t < 3.5

    listener = Listener(rec, detector, speaking_at, duplex=True, barge_in=lambda: calls.append(1.0))
    run(listener, 80)
    assert len(calls) == 2  # once while it talked over the first stretch, once in the second


def test_the_echo_gate_is_the_output_until_the_coupling_is_learned() -> None:
    gate = EchoGate()
    assert gate.level(0.0, settling=False) == MIN_LEVEL
    assert gate.level(0.1, settling=False) == pytest.approx(ECHO_MARGIN * 0.1)  # nothing learned: as loud as the output
    for _ in range(COUPLING_BLOCKS):
        gate.learn(0.005, 0.1)  # the canceller leaves 5 % of the output
    assert gate.level(0.1, settling=False) == pytest.approx(ECHO_MARGIN * 0.05 * 0.1)
    assert gate.level(0.1, settling=True) == pytest.approx(ECHO_MARGIN * 0.1)  # settling: the output itself again
    gate.learn(0.5, 0.0001)  # a quiet output teaches nothing
    assert len(gate.coupling) == COUPLING_BLOCKS


def test_the_echo_gate_learns_the_canceller_s_bursts_not_the_quiet_between() -> None:
    """The canceller leaks at the onset of a word after a pause, a block at a time:
    the gate is set by those bursts, and never credits the canceller with silence."""
    gate = EchoGate()
    for i in range(100):
        gate.learn(0.006 if i % 20 == 0 else 0.0, 0.2)  # one block in twenty leaks 3 % of the output
    assert gate.level(0.2, settling=False) > 0.006  # the next burst does not cut the referee off
    quiet = EchoGate()
    for _ in range(100):
        quiet.learn(0.0, 0.2)  # an echo that has not come back yet
    assert quiet.level(0.2, settling=False) == pytest.approx(ECHO_MARGIN * COUPLING_FLOOR * 0.2)


def test_while_the_referee_talks_a_player_must_beat_the_gate() -> None:
    """The listener raises the detector's gate from the output level it was told."""
    rec = FakeRecognizer()
    detector = ScriptedDetector(set())

    def speaking_at(t: float) -> bool:
        return t >= 0.0

    listener = Listener(rec, detector, speaking_at, duplex=True, output_level=lambda _t, _w: 0.2)
    run(listener, round(SETTLE_SECONDS / BLOCK) + COUPLING_BLOCKS + 5)
    assert detector.gates[0] == pytest.approx(ECHO_MARGIN * 0.2)  # settling: the output itself
    assert detector.gates[-1] == MIN_LEVEL or detector.gates[-1] < detector.gates[0]  # learned: far less


def test_a_player_starting_to_speak_over_the_referee_is_not_learned_as_its_echo() -> None:
    """The first blocks of a player's voice come before the detector is sure someone
    speaks: louder than the gate, they are not taken for the canceller's leftover (which
    would raise the gate over the player's own voice), and the player cuts the referee off."""
    rec = FakeRecognizer()
    learned = round(SETTLE_SECONDS / BLOCK) + COUPLING_BLOCKS + 5
    levels = {i: 0.004 for i in range(learned)}  # the referee alone: a leftover of 2 % of its output
    onset = range(learned, learned + 3)  # the player begins: loud, not yet sure speech
    voice = range(learned + 3, learned + 10)
    levels |= {i: 0.1 for i in (*onset, *voice)}
    detector = ScriptedDetector(set(voice), level_of=levels)
    calls: list[float] = []
    listener = Listener(rec, detector, lambda _t: True, duplex=True, barge_in=lambda: calls.append(1.0), output_level=lambda _t, _w: 0.2)
    run(listener, learned + 10)
    assert calls, f"the player never cut the referee off: gates {detector.gates[-10:]}"
    assert max(detector.gates[learned:]) < 0.1


def test_kept_audio_is_bounded_and_belongs_to_the_utterance() -> None:
    rec = FakeRecognizer(partial_text="tres")
    length = round(KEEP_SECONDS / BLOCK) + 40
    voiced = set(range(5, length - 20))
    listener = Listener(rec, ScriptedDetector(voiced), keep_audio=True)
    heard = run(listener, length)
    assert len(heard) == 1
    audio = heard[0][1].audio
    assert audio is not None and len(audio) <= KEEP_SECONDS * RATE * 2 + len(block(0).data)


def test_the_audio_tail_keeps_only_its_limit() -> None:
    tail = AudioTail(limit=10)
    for chunk in (b"aaaa", b"bbbb", b"cccc", b"dddd"):
        tail.append(chunk)
    assert tail.joined() == b"ccccdddd" and tail.size == 8
    twin = tail.copy()
    tail.clear()
    assert twin.joined() == b"ccccdddd" and tail.size == 0


@dataclass
class LaggingRecognizer(FakeRecognizer):
    """A decoder behind the audio: no partial text yet, the final reading only
    when asked for (``finals``, one per ``finish``; nothing after them)."""

    finals: list[str] = field(default_factory=list)
    finished: int = 0

    def finish(self) -> Heard | None:  # type: ignore[override]
        self.finished += 1
        text = self.finals.pop(0) if self.finals else ""
        return Heard((Alternative(text, score=-1.0),)) if text else None


def is_call(text: str) -> bool:
    return text.split() in (["dudo"], ["cinco", "quinas"])


def test_a_short_call_the_decoder_has_not_shown_yet_ends_after_the_short_silence() -> None:
    """The partial text lags: "dudo" is asked for at the short silence, not left to the long one."""
    rec = LaggingRecognizer(finals=["dudo"])
    heard = run(Listener(rec, ScriptedDetector({2, 3}), complete=is_call), 40)
    assert [(i, h.text) for i, h in heard] == [(3 + round(SHORT_SILENCE / BLOCK), "dudo")]


def test_a_bid_with_a_pause_is_one_utterance() -> None:
    """ "cinco… quinas": the first word, ended early, is no whole call; it is held
    and joined to what follows the pause, with their scores added."""
    rec = LaggingRecognizer(finals=["cinco", "quinas"])
    pause = round(SHORT_SILENCE / BLOCK) + 2  # longer than the short silence, shorter than the long one
    second = 3 + pause + 1
    heard = run(Listener(rec, ScriptedDetector({2, 3, second, second + 1}), complete=is_call), 60)
    assert len(heard) == 1
    i, whole = heard[0]
    assert whole.text == "cinco quinas"
    assert whole.best.score == -2.0
    assert whole.raw == {"alternatives": [{"text": "cinco quinas", "confidence": -2.0, "result": []}]}
    assert i > second + 1


def test_a_held_word_alone_ends_at_the_long_silence() -> None:
    rec = LaggingRecognizer(finals=["cinco"])
    heard = run(Listener(rec, ScriptedDetector({2, 3}), complete=is_call), 40)
    assert [(i, h.text) for i, h in heard] == [(3 + round(LONG_SILENCE / BLOCK), "cinco")]
    assert rec.finished == 2  # asked early once, then at the long silence


def test_the_referee_talking_drops_a_held_word() -> None:
    """Half duplex: what was held before the referee spoke does not join what comes after."""
    rec = LaggingRecognizer(finals=["cinco", "dudo"])
    talking = {12, 13, 14}
    listener = Listener(rec, ScriptedDetector({2, 3, 20}), speaking_at=lambda t: round(t / BLOCK) in talking, complete=is_call)
    heard = run(listener, 40)
    assert [h.text for _, h in heard] == ["dudo"]
