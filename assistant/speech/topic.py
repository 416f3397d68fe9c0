"""Is a line about the game or about something else? A small logistic model over its words.

The veto cues of the lexicon name families of chatter one by one ("tomé tres trenes pa
llegar", "ayer dudé"), and each batch of lines written outside the team still brings
chatter no family names: "camino tres cuadras pa' llegar acá, con este frío", "el beto se
comió un paso en el zapateo". What those lines share is their other words: a journey, a
dance, the cold. This model weighs each word of a line (and each pair of words said
together) by how often it came in chatter rather than in commands, across every labelled
corpus the team keeps, and says how likely the line is talk. The parser asks it only of a
move read among words it cannot place (``Reading.how == "suelta"``), where those other
words are all the evidence there is; a move said whole never asks it.

The words are the parser's, as it sees them (``Parser.topic_words``): a number, a face and
a player's name stand for their kind ("<n>", "<cara>", "<nombre>"), so "cuatro hijos" and
"seis hijos" are one pair, and a word nobody knows (``[unk]`` among them) is "<ruido>".
The weights are trained offline by ``scripts/entrenar_tema.py`` into ``tema.json`` beside
the lexicon, with a digest of the lexicon, the lines and a sample of them as the model sees
them: a test says when a corpus, the lexicon or the parser's sorting of words changed and the
model must be trained again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from pathlib import Path

from assistant.speech import messages as say

START, END = "<s>", "</s>"
LENGTH_STEP = 3
"""Words per length bucket: a long line is more often talk."""
LENGTH_BUCKETS = 6


def features(words: Sequence[str]) -> set[str]:
    """What the model weighs in a line said as ``words``: each word, each pair of words
    said together (with the line's start and end as words), and how long the line is."""
    padded = [START, *words, END]
    return {*words, *(f"{a} {b}" for a, b in pairwise(padded)), f"<largo{min(len(words) // LENGTH_STEP, LENGTH_BUCKETS)}>"}


@dataclass(frozen=True)
class TopicModel:
    """``weights`` by feature and ``bias``: the log-odds that a line is talk, summed."""

    bias: float
    weights: Mapping[str, float]
    trained_on: str = ""
    """The digest of what it was trained on (``scripts/entrenar_tema.py``: ``digest``)."""

    def chatter_odds(self, words: Sequence[str]) -> float:
        """How likely (0-1) a line said as ``words`` is talk rather than a move."""
        z = self.bias + sum(self.weights.get(f, 0.0) for f in features(words))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def to_json(self) -> dict[str, object]:
        return {"entrenado_con": self.trained_on, "sesgo": self.bias, "pesos": dict(sorted(self.weights.items()))}


def from_json(data: object) -> TopicModel:
    weights = data.get("pesos") if isinstance(data, dict) else None
    bias = data.get("sesgo") if isinstance(data, dict) else None
    if not isinstance(weights, dict) or not isinstance(bias, int | float) or not all(isinstance(v, int | float) for v in weights.values()):
        raise ValueError(say.topic_malformed())
    trained_on = data.get("entrenado_con", "") if isinstance(data, dict) else ""
    return TopicModel(float(bias), {str(k): float(v) for k, v in weights.items()}, str(trained_on))


NAME = "tema.json"


def load(lexicon_path: Path | None) -> TopicModel | None:
    """The model beside the lexicon at ``lexicon_path`` (or the shipped one); None when
    there is none: a house lexicon with no model of its own reads as before, by its cues."""
    try:
        if lexicon_path is not None and lexicon_path.with_name(NAME).exists():
            text = lexicon_path.with_name(NAME).read_text("utf-8")
        else:
            text = resources.files("assistant.lexicon").joinpath(NAME).read_text("utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(say.topic_unreadable(str(e))) from e
    return from_json(data)


def train(
    lines: Iterable[tuple[Sequence[str], bool]], rounds: int = 400, rate: float = 10.0, shrink: float = 5e-6, least: int = 2, keep: float = 0.05
) -> TopicModel:
    """Fit the weights to ``lines`` (words, is it talk) by plain gradient descent on the
    log loss, with an L2 ``shrink``; only features seen in ``least`` lines or more, and
    only weights of ``keep`` or more are kept. Deterministic: the same lines give the same model."""
    import numpy as np  # only the offline trainer needs it

    rows = [(sorted(features(words)), talk) for words, talk in lines]
    seen: dict[str, int] = {}
    for feats, _talk in rows:
        for f in feats:
            seen[f] = seen.get(f, 0) + 1
    names = sorted(f for f, n in seen.items() if n >= least)
    index = {f: i for i, f in enumerate(names)}
    line_of = np.array([i for i, (feats, _t) in enumerate(rows) for f in feats if f in index], dtype=np.int64)
    feature_of = np.array([index[f] for feats, _t in rows for f in feats if f in index], dtype=np.int64)
    y = np.array([1.0 if talk else 0.0 for _f, talk in rows])
    n, d = len(rows), len(names)
    w = np.zeros(d)
    b = 0.0
    for _ in range(rounds):
        z = np.bincount(line_of, weights=w[feature_of], minlength=n) + b
        p = 1.0 / (1.0 + np.exp(-z))
        g = p - y
        w -= rate * (np.bincount(feature_of, weights=g[line_of], minlength=d) / n + shrink * w)
        b -= rate * float(g.mean()) / 20
    return TopicModel(round(b, 4), {f: round(float(v), 4) for f, v in zip(names, w, strict=True) if abs(v) >= keep})
