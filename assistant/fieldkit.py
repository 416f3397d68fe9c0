"""The field kit for the first real table: record a corpus, then measure the
recognizer and the parser on it.

A corpus is a folder of WAVs (16-bit mono) and ``frases.tsv``: one line per
WAV, ``archivo<TAB>frase<TAB>esperado`` where ``esperado`` is the command the
phrase means, as the JSON ``dudo interpretar`` prints. ``dudo grabar`` writes
one; ``dudo evaluar`` reads any folder in that shape.
"""

from __future__ import annotations

import json
import statistics
import time
import wave
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from assistant.speech import Parser
from assistant.voice.heard import Heard

MANIFEST = "frases.tsv"
SPEECH_RMS = 500
"""Least loudness (16-bit RMS) of a block of speech; the room's own noise raises it."""
END_SILENCE = 0.8
"""Seconds of quiet that end a recorded phrase."""
PRE_ROLL = 0.3
"""Seconds kept from before the voice started (the first consonant)."""
MAX_PHRASE = 8.0
WAIT_FOR_VOICE = 10.0
"""Seconds to wait for the player to start; then the phrase is skipped."""


def builtin_phrases(players: Iterable[str]) -> list[str]:
    """The shipped list (``lexicon/frases_grabar.txt``), with the table's players in turn."""
    names = list(players) or ["ana", "beto"]
    text = resources.files("assistant.lexicon").joinpath("frases_grabar.txt").read_text("utf-8")
    return fill(text.splitlines(), names)


def fill(lines: Iterable[str], names: list[str]) -> list[str]:
    phrases = []
    turn = 0
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        while "{jugador}" in line:
            line = line.replace("{jugador}", names[turn % len(names)], 1)
            turn += 1
        phrases.append(line)
    return phrases


def expected(parser: Parser, phrase: str) -> dict[str, Any]:
    return parser.parse(phrase).to_json()


def manifest_players(folder: Path) -> list[str]:
    """The players the corpus was recorded for (its names are in the phrases)."""
    for line in (folder / MANIFEST).read_text("utf-8").splitlines():
        if line.startswith("# jugadores:"):
            return [n.strip() for n in line.split(":", 1)[1].split(",") if n.strip()]
    return []


def read_manifest(folder: Path) -> list[tuple[Path, str, dict[str, Any]]]:
    rows = []
    for line in (folder / MANIFEST).read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, phrase, want = line.split("\t")
        rows.append((folder / name, phrase, json.loads(want)))
    return rows


# ------------------------------------------------------------------ recording


@dataclass(frozen=True)
class Chunk:
    data: bytes
    time: float


def capture(blocks: Iterator[Chunk], rate: int, busy_at: Callable[[float], bool] = lambda _t: False) -> bytes | None:
    """One phrase from a stream of 16-bit blocks: from just before the voice
    starts to ``END_SILENCE`` after it stops. None if nobody spoke in time.
    Blocks that arrived while the referee spoke are ignored (its own prompt)."""
    pre: list[bytes] = []
    voiced: list[bytes] = []
    quiet = 0.0
    waited = 0.0
    floor: float | None = None
    threshold = float(SPEECH_RMS)
    for block in blocks:
        seconds = len(block.data) / 2 / rate
        if busy_at(block.time):
            continue
        samples = np.frombuffer(block.data, dtype=np.int16).astype(np.float32)
        rms = float(np.sqrt(np.mean(samples**2))) if samples.size else 0.0
        if not voiced:
            floor = rms if floor is None else min(floor, rms)
            threshold = max(SPEECH_RMS, 3 * floor)
            if rms < threshold:
                pre.append(block.data)
                while len(pre) * seconds > PRE_ROLL and len(pre) > 1:
                    pre.pop(0)
                waited += seconds
                if waited > WAIT_FOR_VOICE:
                    return None
                continue
            voiced = [*pre, block.data]
            continue
        voiced.append(block.data)
        quiet = quiet + seconds if rms < threshold else 0.0  # the threshold the voice started above
        if quiet >= END_SILENCE or len(voiced) * seconds >= MAX_PHRASE:
            return b"".join(voiced)
    return b"".join(voiced) if voiced else None


def save_wav(path: Path, audio: bytes, rate: int) -> None:
    tmp = path.with_suffix(".tmp")
    with wave.open(str(tmp), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(audio)
    tmp.replace(path)


def record(
    folder: Path,
    phrases: list[str],
    parser: Parser,
    blocks: Callable[[], Iterator[Chunk]],
    rate: int,
    prompt: Callable[[str], None],
    busy_at: Callable[[float], bool] = lambda _t: False,
) -> int:
    """Ask for each phrase, keep the WAV and its expected command. Each line of
    the manifest is written after its WAV, so stopping (Ctrl-C) keeps all that
    was saved. Returns how many were saved; numbering goes on after an earlier
    session in the same folder."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / MANIFEST
    if not manifest.exists():
        manifest.write_text(f"# jugadores: {','.join(parser.players)}\n", "utf-8")
    done = len(read_manifest(folder))
    saved = 0
    stream = blocks()
    for phrase in phrases:
        prompt(phrase)
        audio = capture(stream, rate, busy_at)
        if audio is None:
            continue
        name = f"{done + saved + 1:04d}.wav"
        save_wav(folder / name, audio, rate)
        with open(manifest, "a", encoding="utf-8") as f:
            f.write(f"{name}\t{phrase}\t{json.dumps(expected(parser, phrase), ensure_ascii=False)}\n")
        saved += 1
    return saved


# ------------------------------------------------------------------ evaluating


@dataclass
class Result:
    file: str
    phrase: str
    expected: dict[str, Any]
    heard: str
    got: dict[str, Any]
    seconds: float
    """Length of the recording."""
    decode_seconds: float
    """Time the recognizer took over the whole file."""
    latency_ms: float
    """From the end of the audio to the command: the recognizer's last step plus parsing."""

    @property
    def right(self) -> bool:
        return self.got == self.expected

    @property
    def intent_right(self) -> bool:
        return self.got.get("accion") == self.expected.get("accion")


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        total = len(self.results)
        chatter = [r for r in self.results if r.expected.get("accion") == "desconocido"]
        moves = [r for r in self.results if r.expected.get("accion") != "desconocido"]
        audio = sum(r.seconds for r in self.results)
        decode = sum(r.decode_seconds for r in self.results)
        latencies = sorted(r.latency_ms for r in self.results)
        confusions = Counter(
            f"{r.expected.get('accion')} → {r.got.get('accion')}" for r in self.results if not r.intent_right
        )
        return {
            "frases": total,
            "acierto_intencion": _share(sum(r.intent_right for r in moves), len(moves)),
            "acierto_exacto": _share(sum(r.right for r in moves), len(moves)),
            "charla": len(chatter),
            "charla_tomada_como_jugada": sum(r.got.get("accion") != "desconocido" for r in chatter),
            "latencia_ms": {
                "mediana": round(statistics.median(latencies), 2) if latencies else None,
                "p95": round(latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))], 2) if latencies else None,
            },
            "segundos_de_audio": round(audio, 3),
            "factor_tiempo_real": round(decode / audio, 4) if audio else None,
            "confusiones": dict(confusions.most_common()),
            "detalle": [
                {"archivo": r.file, "frase": r.phrase, "oido": r.heard, "esperado": r.expected, "entendido": r.got}
                for r in self.results if not r.right
            ],
        }


def _share(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def evaluate(folder: Path, transcribe: Callable[[Path], list[Heard]], parser: Parser) -> Report:
    """Every WAV of the corpus through the recognizer (``transcribe``) and the parser."""
    report = Report()
    for path, phrase, want in read_manifest(folder):
        with wave.open(str(path), "rb") as wav:
            seconds = wav.getnframes() / wav.getframerate()
        started = time.perf_counter()
        heard = transcribe(path)
        decode = time.perf_counter() - started
        text = " ".join(h.text for h in heard)
        parse_start = time.perf_counter()
        got = parser.parse(text).to_json() if text else {"accion": "desconocido"}
        parse_ms = (time.perf_counter() - parse_start) * 1000
        last_ms = heard[-1].latency_ms if heard else 0.0
        report.results.append(Result(path.name, phrase, want, text, got, seconds, decode, last_ms + parse_ms))
    return report
