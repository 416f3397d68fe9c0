"""The phrase list given to the recognizer, sampled from the lexicon.

Vosk turns the list into a bigram model over its words, so what matters is
that every word and every word pair a command can contain appears in some
phrase. Each template is filled so that every value of each slot appears at
least once, and bids get the full quantity x face product (the pair the
recognizer must get right most often). Words keep their accents: the Spanish
model spells "cuántos" and "dieciséis" that way, and a word it does not know
is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import cycle, islice

from assistant.speech import lexicon as lexicon_module
from assistant.speech.lexicon import Lexicon, expand

UNKNOWN = "[unk]"


def _number_words(lex: Lexicon, low: int, high: int) -> list[str]:
    words: list[str] = []
    for n in range(low, high + 1):
        words += lex.number_words(n)
    return words


def _raw_words(lex: Lexicon) -> dict[str, list[str]]:
    """Slot fillers spelled as in the lexicon file (accents kept)."""
    return {
        "{pinta}": [w for names in lex.face_names.values() for w in names],
        "{sentido}": sorted(set(lex.directions)),
    }


def phrases(lexicon: Lexicon | None = None, players: Iterable[str] = ()) -> list[str]:
    """Every phrase for the recognizer, players' names included, plus "[unk]"."""
    lex = lexicon or lexicon_module.default()
    names = [" ".join(p.lower().split()) for p in players if p.strip()]
    quantities = _number_words(lex, 1, lex.grammar_max)
    counts = _number_words(lex, 0, lex.grammar_max)
    fillers = _raw_words(lex) | {"{jugador}": names}
    faces = fillers["{pinta}"]
    hand_words = faces + [w for w in lex.hand_faces]
    # hands: five face words, walking through every name
    fillers["{caras}"] = [" ".join(islice(cycle(hand_words), i, i + 5)) for i in range(0, len(hand_words), 5)]
    out: list[str] = []
    for intent, templates in lex.raw_templates.items():
        slot_values = dict(fillers)
        slot_values["{cantidad}"] = counts if intent.startswith("cuenta") else quantities
        for template in templates:
            for seq in expand(template, keep_accents=True):
                out += _fill(seq, slot_values)
    # every quantity with every face: the bigram a bid lives on
    out += [f"{q} {f}" for q in quantities for f in faces]
    return [*list(dict.fromkeys(out)), UNKNOWN]


def _fill(seq: tuple[str, ...], values: dict[str, list[str]]) -> list[str]:
    slots = [part for part in seq if part in values]
    if any(not values[s] for s in slots):
        return []  # e.g. {jugador} with no players yet
    if not slots:
        return [" ".join(seq)]
    rounds = max(len(values[s]) for s in slots)
    filled = []
    for i in range(rounds):
        words = [values[part][i % len(values[part])] if part in values else part for part in seq]
        filled.append(" ".join(words))
    return filled


def vocabulary(phrase_list: Iterable[str]) -> set[str]:
    """The distinct words of a phrase list (what the model must know)."""
    return {w for phrase in phrase_list if phrase != UNKNOWN for w in phrase.split()}
