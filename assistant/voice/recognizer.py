"""Vosk with our phrase list: audio chunks in, finished utterances out.

The grammar is a hint, not a gate (vosk builds a bigram model from it), so
what comes back is only "what was heard": the parser and the rules decide
what it means. Words the model does not know are dropped from the phrase
list up front and reported, instead of being silently ignored by vosk.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import wave
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from platformdirs import user_cache_dir

from assistant.voice import messages as say
from assistant.voice.heard import Heard, from_vosk

CHUNK_SECONDS = 0.2
"""Vosk decodes in 200 ms steps."""
TUNED_ENDPOINTS = {
    # seconds of trailing silence that end an utterance (vosk's defaults: 0.5, 1.0, 2.0);
    # table calls are short: "dudo" should be answered as soon as the speaker stops
    "--endpoint.rule2.min-trailing-silence": "0.4",
    "--endpoint.rule3.min-trailing-silence": "0.8",
    "--endpoint.rule4.min-trailing-silence": "1.6",
}


class Recognizer(Protocol):
    """Audio in, ``Heard`` out: what the listener needs of any recognizer."""

    sample_rate: int
    phrases: list[str]
    """The phrases it listens for (those it can hear)."""
    missing: list[str]
    """Words of the phrase list it cannot hear."""

    def set_phrases(self, phrases: Iterable[str]) -> None: ...

    def unknown_names(self, names: Iterable[str]) -> list[str]: ...

    def feed(self, audio: bytes) -> Heard | None:
        """16-bit mono audio at ``sample_rate``; an utterance when one ends."""
        ...

    def finish(self) -> Heard | None:
        """End the utterance in progress now (the speaker stopped, or the stream ended)."""
        ...

    def partial(self) -> str:
        """The best reading so far of the utterance in progress."""
        ...

    def reset(self) -> None:
        """Forget audio in progress."""
        ...


def tuned_model_dir(model: Path) -> Path:
    """A copy of the model's conf with shorter end-of-utterance silences.

    The downloaded model is never edited: a sibling folder in the cache links
    to its parts and holds our own ``conf/model.conf``.
    """
    key = hashlib.sha1(str(model.resolve()).encode("utf-8")).hexdigest()[:10]
    base = Path(os.environ.get("DUDO_CACHE") or user_cache_dir("dudo", appauthor=False))
    tuned = base / "modelos" / f"{model.name}-{key}"
    conf_text = (model / "conf" / "model.conf").read_text("utf-8")
    lines = [line for line in conf_text.splitlines() if line.split("=")[0] not in TUNED_ENDPOINTS]
    lines += [f"{k}={v}" for k, v in TUNED_ENDPOINTS.items()]
    wanted = "\n".join(lines) + "\n"
    conf = tuned / "conf"
    conf.mkdir(parents=True, exist_ok=True)
    for part in model.iterdir():
        link = tuned / part.name
        if part.name == "conf":
            for item in part.iterdir():
                if item.name != "model.conf" and not (conf / item.name).exists():
                    (conf / item.name).symlink_to(item.resolve())
            continue
        if not link.exists():
            link.symlink_to(part.resolve())
    target = conf / "model.conf"
    if not target.exists() or target.read_text("utf-8") != wanted:
        tmp = conf / "model.conf.tmp"
        tmp.write_text(wanted, "utf-8")
        os.replace(tmp, target)
    return tuned


class RecognizerError(Exception):
    """vosk cannot run here, or the model cannot be read: the text says why and
    what to do, in Spanish, for the screen and the service's log; ``spoken`` is
    the short version for the table's ears (no paths, no commands)."""

    def __init__(self, text: str, spoken: str) -> None:
        super().__init__(text)
        self.spoken = spoken


LIBRARY_PACKAGES = {
    "libatomic.so.1": "libatomic1",  # the aarch64 and armhf builds of libvosk.so
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
    "libgomp.so.1": "libgomp1",
    "libgfortran.so.5": "libgfortran5",
}
"""The Debian package that holds each shared library vosk's wheels are linked against."""

_MISSING_LIBRARY = re.compile(r"([\w+.-]+\.so[.\d]*): cannot open shared object file")


def vosk_module() -> Any:
    """``import vosk``, or a ``RecognizerError`` that names the missing library and its package."""
    try:
        import vosk
    except (OSError, ImportError) as err:
        raise why_vosk_fails(err) from err
    return vosk


def why_vosk_fails(err: BaseException) -> RecognizerError:
    """What an ``import vosk`` error means for the table: the missing library and its Debian package."""
    missing = _MISSING_LIBRARY.search(str(err))
    if missing is not None:
        return RecognizerError(say.missing_library(missing[1], LIBRARY_PACKAGES.get(missing[1])), say.SPOKEN_MISSING_LIBRARY)
    return RecognizerError(say.cannot_load_vosk(err), say.SPOKEN_MISSING_LIBRARY)


def load_model(model_path: Path, tuned: bool = True) -> Any:
    """The vosk model (with our endpoint tuning): the slow part of starting."""
    vosk = vosk_module()
    vosk.SetLogLevel(-1)
    try:
        return vosk.Model(str(tuned_model_dir(model_path) if tuned else model_path))
    except Exception as err:  # vosk says only "Failed to create a model"
        raise RecognizerError(say.broken_model(model_path), say.SPOKEN_BROKEN_MODEL) from err


def load_in_background(model_path: Path, tuned: bool = True) -> Future[Any]:
    """Start loading the model in a thread (vosk releases the interpreter while
    it reads), so the grammar and the parser are built meanwhile."""
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vosk-model")
    future = executor.submit(load_model, model_path, tuned)
    executor.shutdown(wait=False)
    return future


class VoskRecognizer:
    """One vosk recognizer restricted to a phrase list.

    With ``alternatives`` > 1 vosk returns that many readings (n-best, scored,
    word timings without per-word confidence); otherwise the single best with
    per-word confidences.
    """

    def __init__(
        self, model_path: Path, phrases: Iterable[str], sample_rate: int = 16000, tuned: bool = True, alternatives: int = 1,
        model: Any = None,
    ) -> None:
        """``model``: one already loaded (``load_model``, or the result of ``load_in_background``)."""
        self._vosk = vosk_module()
        self.model = model if model is not None else load_model(model_path, tuned)
        self.sample_rate = sample_rate
        self.missing: list[str] = []
        self.phrases: list[str] = []
        self.alternatives = alternatives
        self.set_phrases(phrases)

    def knows(self, word: str) -> bool:
        return bool(self.model.vosk_model_find_word(word) >= 0)

    def set_phrases(self, phrases: Iterable[str]) -> None:
        """Use these phrases (players changed, say); phrases with unknown words are left out
        and their words listed in ``missing``."""
        kept: list[str] = []
        missing: set[str] = set()
        known: dict[str, bool] = {}  # a few hundred words make up thousands of phrases: ask vosk once each

        def knows(word: str) -> bool:
            if word not in known:
                known[word] = self.knows(word)
            return known[word]

        for phrase in phrases:
            if phrase == "[unk]":
                if knows("[unk]"):
                    kept.append(phrase)
                continue
            unknown = [w for w in phrase.split() if not knows(w)]
            if unknown:
                missing.update(unknown)
            else:
                kept.append(phrase)
        self.phrases = kept
        self.missing = sorted(missing)
        if kept:
            grammar = json.dumps(kept, ensure_ascii=False)  # vosk does not decode \\u escapes
            self._rec = self._vosk.KaldiRecognizer(self.model, self.sample_rate, grammar)
        else:  # nothing of ours is in this model: free recognition, still useful for plumbing
            self._rec = self._vosk.KaldiRecognizer(self.model, self.sample_rate)
        self._rec.SetWords(True)
        if self.alternatives > 1:
            self._rec.SetMaxAlternatives(self.alternatives)

    def unknown_names(self, names: Iterable[str]) -> list[str]:
        """Players' names (or parts of them) the model cannot hear."""
        return [n for n in names if any(not self.knows(w) for w in n.lower().split())]

    def feed(self, audio: bytes) -> Heard | None:
        """16-bit mono audio at ``sample_rate``; returns an utterance when one ends."""
        started = time.perf_counter()
        ended = self._rec.AcceptWaveform(audio)
        if not ended:
            return None
        return self._heard(self._rec.Result(), started)

    def finish(self) -> Heard | None:
        """End the utterance in progress now (the speaker stopped, or the stream ended)."""
        return self._heard(self._rec.FinalResult(), time.perf_counter())

    def partial(self) -> str:
        """The best reading so far of the utterance in progress."""
        text = json.loads(self._rec.PartialResult()).get("partial", "")
        return text if isinstance(text, str) else ""

    def reset(self) -> None:
        """Forget audio in progress (after the referee spoke, for instance).

        ``FinalResult()`` with its result thrown away, not ``Reset()``: vosk
        0.3.45's ``Reset`` keeps about 35 kB each time (the listener starts
        over at every sound it hears, all night), while a final result frees
        the utterance and leaves the recognizer as new."""
        self._rec.FinalResult()

    def _heard(self, result_json: str, started: float) -> Heard | None:
        return from_vosk(result_json, (time.perf_counter() - started) * 1000)

    def transcribe_wav(self, path: Path) -> Iterator[Heard]:
        """Every utterance in a WAV file (mono, 16-bit; any rate vosk can take)."""
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                raise ValueError(say.NOT_MONO_16)
            if wav.getframerate() != self.sample_rate:
                self.sample_rate = wav.getframerate()
                self.set_phrases(self.phrases)
            step = int(self.sample_rate * CHUNK_SECONDS)
            while True:
                frames = wav.readframes(step)
                if not frames:
                    break
                heard = self.feed(frames)
                if heard is not None:
                    yield heard
        last = self.finish()
        if last is not None:
            yield last


def _conforms(rec: VoskRecognizer) -> Recognizer:
    return rec  # mypy checks that vosk's recognizer is a Recognizer
