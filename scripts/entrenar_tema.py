#!/usr/bin/env python3
"""Train the topic model (``assistant/speech/topic.py``) on every labelled corpus the team
keeps, and write it beside the lexicon (``lexicon/tema.json``).

    .venv/bin/python scripts/entrenar_tema.py [--sin b166,b167,...] [--salida PATH]

The lines: the team's own families (``tests/corpus/*.tsv``, ``no_es_jugada.txt``,
``familias.jsonl``) and the outside batches (``tests/corpus/ajenos``). Never the held-out
corpus in ``../shared/corpus``: it measures what the team was not shown. ``--sin`` leaves
batches out (by the start of their name), to measure the model on batches it has not seen
before they are taught. The file records a digest of the lexicon, of the lines it was trained
on and of a sample of them as the model sees them (``Parser.topic_words``); ``tests/test_topic.py``
says when any has changed since: a corpus line, the lexicon, or how the parser sorts words.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.speech import Parser, topic  # noqa: E402
from assistant.speech import lexicon as lexicon_module  # noqa: E402
from assistant.speech.parser import MAX_WORDS  # noqa: E402
from scripts.understanding import OUTSIDE_PLAYERS, TEAM_PLAYERS, labelled, team  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"


def sources(left_out: tuple[str, ...] = ()) -> list[tuple[list[str], list[tuple[str, bool]]]]:
    """(players, [(line, is it talk)]) of each corpus trained on, in a fixed order."""
    commands, chatter = team()
    found = [(TEAM_PLAYERS, [(c[0], False) for c in commands] + [(t, True) for t in chatter])]
    for path in [CORPUS / "familias.jsonl", *sorted((CORPUS / "ajenos").glob("*.jsonl"))]:
        if path.name.startswith(left_out) and left_out:
            continue
        commands, chatter = labelled(path)
        found.append((OUTSIDE_PLAYERS, [(c[0], False) for c in commands] + [(t, True) for t in chatter]))
    return found


@cache
def _parser(players: tuple[str, ...]) -> Parser:
    """One parser per table (the batches written outside share one), without the model it trains."""
    return Parser(players=players, topic=False)


def seen(parser: Parser, text: str) -> list[str]:
    """``text`` as the topic model sees it, read as the parser reads a line (``Parser.readings``)."""
    return parser.topic_words(parser.lexicon.said(text)[:MAX_WORDS])


PROBE = 10
"""One line in this many, read as the model sees it, goes into the digest: a change to how the
parser sorts words shows there without reading every line again (17 s) in a test."""


def digest(left_out: tuple[str, ...] = ()) -> str:
    """What the model is trained from: the lexicon's files, the lines with their labels, and one
    line in ``PROBE`` as the model sees it (``Parser.topic_words``)."""
    h = hashlib.sha256(lexicon_module.fingerprint().encode())
    for players, lines in sources(left_out):
        parser = _parser(tuple(players))
        probe = [seen(parser, text) for text, _talk in lines[::PROBE]]
        h.update(json.dumps([players, lines, probe], ensure_ascii=False).encode())
    return h.hexdigest()[:16]


def examples(left_out: tuple[str, ...] = ()) -> list[tuple[list[str], bool]]:
    """Each line as the topic model sees it (``Parser.topic_words``), with its label."""
    out: list[tuple[list[str], bool]] = []
    for players, lines in sources(left_out):
        parser = _parser(tuple(players))
        out.extend((seen(parser, text), talk) for text, talk in lines)
    return out


def main() -> None:
    args = argparse.ArgumentParser(description="Entrena el modelo de tema (lexicon/tema.json).")
    args.add_argument("--sin", default="", help="lotes que no entran, por el comienzo de su nombre (b166,b167)")
    args.add_argument("--salida", type=Path, default=ROOT / "lexicon" / topic.NAME, help="dónde escribir el modelo")
    options = args.parse_args()
    left_out = tuple(s for s in options.sin.split(",") if s)
    salida: Path = options.salida
    lines = examples(left_out)
    model = topic.train(lines)
    model = topic.TopicModel(model.bias, model.weights, digest(left_out))
    salida.write_text(json.dumps(model.to_json(), ensure_ascii=False, indent=0, sort_keys=False) + "\n", "utf-8")
    talk = sum(t for _w, t in lines)
    print(f"{len(lines)} líneas ({talk} de charla), {len(model.weights)} pesos -> {salida}")


if __name__ == "__main__":
    main()
