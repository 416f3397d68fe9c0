"""How much of the corpus the parser understands: commands right, chatter turned into a move.

    .venv/bin/python scripts/understanding.py [--voice] [--misses]

``--voice`` first turns every word outside the recognizer grammar into
``[unk]``, as vosk does with a grammar (the voice path). Prints one JSON line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.speech import Parser, grammar  # noqa: E402
from assistant.speech.normalize import fold, tokens  # noqa: E402

PLAYERS = ["ana", "beto", "carla", "dani", "juan pablo"]


def corpus() -> tuple[list[tuple[str, dict[str, object]]], list[str]]:
    commands: list[tuple[str, dict[str, object]]] = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.tsv")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                text, _, expected = line.partition("\t")
                commands.append((text, json.loads(expected)))
    chatter = [
        line
        for line in (ROOT / "tests" / "corpus" / "no_es_jugada.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return commands, chatter


def as_heard(text: str, known: set[str]) -> str:
    """The line as a grammar-bound recognizer would return it: unknown words become [unk]."""
    return " ".join(w if w in known else "[unk]" for w in tokens(text))


def typed_only(text: str, parser: Parser) -> bool:
    """Digits and misspellings ("trens") are typed, never heard: a recognizer writes dictionary words."""
    lex = parser.lexicon
    names = {w for p in PLAYERS for w in p.split()}
    return any(w.isdigit() or not (w in lex.vocabulary or w in lex.common or w in names) for w in tokens(text))


def measure(voice: bool = False) -> dict[str, object]:
    parser = Parser(players=PLAYERS)
    known = {fold(w) for w in grammar.vocabulary(grammar.phrases(players=PLAYERS))}
    commands, chatter = corpus()
    if voice:
        commands = [(t, e) for t, e in commands if not typed_only(t, parser)]
    misses = []
    for text, expected in commands:
        said = as_heard(text, known) if voice else text
        got = parser.parse(said).to_json()
        if got != expected:
            misses.append((text, expected, got))
    accepted = []
    for text in chatter:
        said = as_heard(text, known) if voice else text
        got = parser.parse(said).to_json()
        if got["accion"] != "desconocido":
            accepted.append((text, got))
    return {
        "camino": "voz" if voice else "texto",
        "ordenes": len(commands),
        "entendidas": round(1 - len(misses) / len(commands), 4),
        "charla": len(chatter),
        "charla_como_jugada": round(len(accepted) / len(chatter), 4),
        "fallas": misses,
        "charla_aceptada": accepted,
    }


if __name__ == "__main__":
    result = measure("--voice" in sys.argv)
    if "--misses" not in sys.argv:
        result = {k: v for k, v in result.items() if k not in ("fallas", "charla_aceptada")}
    print(json.dumps(result, ensure_ascii=False, indent=1 if "--misses" in sys.argv else None))
