"""What a recognizer heard in one utterance, kept whole: every alternative, every word and its timing.

A typed line is a ``Heard`` too (one alternative, no timings, certain), so
the session has one input type whether the table talks or types.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from assistant.voice import messages as say

UNKNOWN = "[unk]"
"""vosk's word for speech outside the phrase list."""

PAUSE = 0.25
"""Seconds of silence between two words that set a clause apart, as a comma does in a typed
line: "diez trenes… confíen en el proceso" (shorter than the silence that ends an utterance)."""


@dataclass(frozen=True)
class Word:
    word: str
    start: float
    """Seconds from the start of the stream."""
    end: float
    confidence: float | None = None
    """0..1 as vosk gives it for a single best result; n-best words carry none."""


@dataclass(frozen=True)
class Alternative:
    """One reading of the utterance."""

    text: str
    words: tuple[Word, ...] = ()
    score: float | None = None
    """vosk's n-best score (a log-likelihood: higher is better, not 0..1); None for a single best."""

    @property
    def unknown(self) -> bool:
        """Some of it was outside the phrase list."""
        return UNKNOWN in self.text.split()

    @property
    def phrased(self) -> str:
        """The text with a comma where the speaker paused between two words (``PAUSE``), the
        clause breaks the parser reads ("diez trenes, confíen en el proceso"); the text itself
        when the words carry no timings (typed) or are not the text's words."""
        words = self.words
        if len(words) < 2 or [w.word for w in words] != self.text.split():
            return self.text
        return words[0].word + "".join((", " if w.start - before.end >= PAUSE else " ") + w.word for before, w in pairwise(words))

    @property
    def clean_text(self) -> str:
        """The text without vosk's ``[unk]`` markers."""
        return " ".join(w for w in self.text.split() if w != UNKNOWN)


@dataclass(frozen=True)
class Heard:
    """One utterance: alternatives best first (never empty), and how long recognition took."""

    alternatives: tuple[Alternative, ...]
    latency_ms: float = 0.0
    """From the end of the audio that completed the utterance to this result (milliseconds)."""
    typed: bool = False
    """Typed or scripted text: certain, no timings."""
    follows: bool = False
    """Began right after an utterance the listener ended early as a whole call, before
    the long silence would have ended that one: the same speaker going on ("cinco
    cuadras… no, seis cuadras")."""
    raw: Mapping[str, Any] | None = field(default=None, compare=False)
    """vosk's result exactly as it came (for the recognizer log and its replay)."""
    audio: bytes | None = field(default=None, compare=False, repr=False)
    """The utterance's audio (16-bit mono at ``sample_rate``), when it is kept."""
    sample_rate: int = field(default=16000, compare=False)

    def __post_init__(self) -> None:
        if not self.alternatives:
            raise ValueError("a Heard needs at least one alternative")

    @classmethod
    def from_text(cls, text: str) -> Heard:
        return cls((Alternative(text),), typed=True)

    @property
    def best(self) -> Alternative:
        return self.alternatives[0]

    @property
    def text(self) -> str:
        """The best reading, ``[unk]`` markers kept: a word outside the grammar is an unknown word to the parser."""
        return self.best.text

    @property
    def words(self) -> tuple[Word, ...]:
        return self.best.words

    @property
    def confidence(self) -> float | None:
        """How sure the recognizer is of the best reading, 0..1; None for typed text (certain).

        A single best result: the mean of its word confidences. N-best: the
        best score's share of all scores (a softmax over the log-likelihoods),
        so close rivals lower it and a lone alternative is certain.
        """
        if self.typed:
            return None
        scores = [a.score for a in self.alternatives]
        if all(s is not None for s in scores) and scores:
            top = max(s for s in scores if s is not None)
            weights = [math.exp(s - top) for s in scores if s is not None]
            return weights[0] / sum(weights)
        known = [w.confidence for w in self.best.words if w.confidence is not None]
        if known:
            return sum(known) / len(known)
        return 0.0

    @property
    def start(self) -> float | None:
        return self.best.words[0].start if self.best.words else None

    @property
    def end(self) -> float | None:
        return self.best.words[-1].end if self.best.words else None


def joined(first: Heard, then: Heard | None) -> Heard:
    """An utterance ended early and what was said after a short pause, as one:
    the first one's best reading before each reading of the second ("cinco" +
    "quinas"). Its ``raw`` has vosk's shape, so the recognizer log replays it."""
    if then is None:
        return first
    head = first.best
    alternatives = tuple(
        Alternative(
            f"{head.text} {alt.text}".strip(), head.words + alt.words,
            None if head.score is None or alt.score is None else head.score + alt.score,
        )
        for alt in then.alternatives
    )
    return Heard(alternatives, then.latency_ms, first.typed and then.typed, first.follows, raw=_raw(alternatives), sample_rate=then.sample_rate)


def _raw(alternatives: tuple[Alternative, ...]) -> dict[str, Any]:
    def result(words: tuple[Word, ...]) -> list[dict[str, Any]]:
        return [
            {"word": w.word, "start": w.start, "end": w.end, **({} if w.confidence is None else {"conf": w.confidence})}
            for w in words
        ]

    if all(a.score is not None for a in alternatives):
        return {"alternatives": [{"text": a.text, "confidence": a.score, "result": result(a.words)} for a in alternatives]}
    best = alternatives[0]
    return {"text": best.text, "result": result(best.words)}


def _words(items: Any) -> tuple[Word, ...]:
    if not isinstance(items, list):
        return ()
    words = []
    for item in items:
        if not isinstance(item, Mapping) or not isinstance(item.get("word"), str):
            raise ValueError(f"palabra sin 'word': {item!r}")
        conf = item.get("conf")
        words.append(
            Word(item["word"], float(item.get("start", 0.0)), float(item.get("end", 0.0)), None if conf is None else float(conf))
        )
    return tuple(words)


def _alternative(item: Mapping[str, Any], scored: bool) -> Alternative:
    words = _words(item.get("result"))
    text = item.get("text")
    if not isinstance(text, str):
        text = " ".join(w.word for w in words)
    score = item.get("confidence") if scored else None
    if scored and not isinstance(score, int | float):
        raise ValueError(f"alternativa sin 'confidence': {dict(item)!r}")
    return Alternative(" ".join(text.split()), words, None if score is None else float(score))


def from_vosk(result: str | Mapping[str, Any], latency_ms: float = 0.0) -> Heard | None:
    """A ``Heard`` from vosk's ``Result()`` / ``FinalResult()``, as JSON text or parsed.

    Single best: ``{"text": …, "result": [{"word", "conf", "start", "end"}, …]}``.
    N-best (``SetMaxAlternatives``): ``{"alternatives": [{"text", "confidence", "result"?}, …]}``.
    None when the best reading is empty (silence, or only ``[unk]``). Raises ``ValueError``
    for anything else.
    """
    data = json.loads(result) if isinstance(result, str) else result
    if not isinstance(data, Mapping):
        raise ValueError(say.VOSK_RESULT_NOT_OBJECT)
    if "alternatives" in data:
        items = data["alternatives"]
        if not isinstance(items, list) or not all(isinstance(i, Mapping) for i in items):
            raise ValueError(say.VOSK_ALTERNATIVES_NOT_LIST)
        alternatives = [_alternative(i, scored=True) for i in items]
    elif "text" in data or "result" in data:
        alternatives = [_alternative(data, scored=False)]
    else:
        raise ValueError(say.VOSK_RESULT_SHAPE)
    if not alternatives or not alternatives[0].clean_text:
        return None  # silence or noise was the best reading
    return Heard(tuple(alternatives), latency_ms, raw=data)
