"""Listen to the referee: its replies said by espeak-ng into WAV files, and measured.

What a table must hold at once is a *breath*: the speech between two sentence
pauses (espeak-ng pauses about 0.38 s at a period or a question mark, 0.26 s at a
colon, 0.17 s at a comma). For every reply this reports its seconds and its
longest breath; for all of them, the median, the worst, and the words a minute.

    .venv/bin/python -m scripts.escuchar                       # the golden games' replies
    .venv/bin/python -m scripts.escuchar viejo/*.json --wav /tmp/oir   # any playthroughs; keep the WAVs

The replies come from the golden playthroughs (``tests/golden/*.json``: every
reply of a whole game per preset) or from the JSON files given (``dudo simular
--json`` prints the same shape).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.voice.speaker import Speaker
from scripts import sala

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
SENTENCE_PAUSE = 0.3
"""Seconds of quiet that end a breath: a period's pause, not a comma's."""
VOICE = "roa/es-419"


@dataclass(frozen=True)
class Heard:
    text: str
    seconds: float
    breaths: list[float]
    """Seconds of each stretch between sentence pauses."""

    @property
    def longest(self) -> float:
        return max(self.breaths, default=0.0)


def breaths(audio: np.ndarray, rate: int, pause: float = SENTENCE_PAUSE) -> list[float]:
    """The seconds of speech between pauses of at least ``pause`` seconds."""
    loud = sala.loudness(audio, rate) > sala.WHOLE_FLOOR
    spans: list[list[int]] = []
    quiet = 0
    for i, on in enumerate(loud):
        if not on:
            quiet += 1
            continue
        if spans and quiet * sala.BLOCK < pause:
            spans[-1][1] = i + 1
        else:
            spans.append([i, i + 1])
        quiet = 0
    return [(end - start) * sala.BLOCK for start, end in spans]


def hear(speaker: Speaker, text: str, folder: Path, n: int) -> Heard:
    path = speaker.save(text, folder / f"respuesta-{n:03d}.wav")
    with wave.open(str(path), "rb") as wav:
        audio = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).astype(np.float32) / 32768
        rate = wav.getframerate()
    spoken = breaths(audio, rate)
    return Heard(text, sum(spoken), spoken)


def replies_in(paths: list[Path]) -> list[str]:
    """Every distinct reply of these playthroughs, in order."""
    seen: dict[str, None] = {}
    for path in paths:
        for step in json.loads(path.read_text("utf-8"))["pasos"]:
            if step["respuesta"]:
                seen.setdefault(step["respuesta"], None)
    return list(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archivos", nargs="*", type=Path, help="playthroughs (JSON con 'pasos'); por omisión, los dorados")
    parser.add_argument("--voz", default=VOICE)
    parser.add_argument("--wav", type=Path, help="carpeta donde dejar los WAV")
    parser.add_argument("--peores", type=int, default=5)
    args = parser.parse_args()
    texts = replies_in(args.archivos or sorted(GOLDEN.glob("*.json")))
    speaker = Speaker(play=False, voice=args.voz, engine="espeak")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.wav or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        heard = [hear(speaker, text, folder, n) for n, text in enumerate(texts)]
    seconds = [h.seconds for h in heard]
    longest = [h.longest for h in heard]
    words = sum(len(h.text.split()) for h in heard)
    print(f"{len(heard)} respuestas, voz {args.voz}: {sum(seconds):.1f} s de voz, {60 * words / sum(seconds):.0f} palabras por minuto")
    print(f"por respuesta: mediana {statistics.median(seconds):.2f} s, máximo {max(seconds):.2f} s")
    print(f"el trecho más largo sin pausa de oración: mediana {statistics.median(longest):.2f} s, máximo {max(longest):.2f} s; "
          f"sobre 4 s: {sum(x > 4 for x in longest)}")
    for h in sorted(heard, key=lambda h: -h.longest)[: args.peores]:
        print(f"  {h.longest:5.2f} s  {h.text}")


if __name__ == "__main__":
    main()
