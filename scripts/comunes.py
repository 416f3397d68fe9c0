"""Regenerate the lexicon's word lists from outside sources:

- ``lexicon/comunes.txt``: common Spanish words the parser must never "repair"
  into a game word ("sillas" is not "millas", "incorrecto" is not "correcto",
  "pasado" is not "paso");
- ``lexicon/verbos.txt``: those of them that are verb forms ("compré", "caminando",
  "debe"): a verb said right against a bid's words makes them a thing talked about
  ("compré tres trenes"), a word simplemma's Spanish dictionary lemmatizes to a verb;
- ``lexicon/charla.txt``: the most used Spanish words, as a recognizer spells them
  (accents kept), most used first: the recognizer grammar's vocabulary for talk
  that is not the game, so "tengo sed" comes back as itself and not as "tengo cedo".

    pip install wordfreq simplemma && .venv/bin/python scripts/comunes.py

wordfreq and simplemma are needed only to regenerate the lists, not to run the
referee: the lists ship as data (simplemma's dictionary alone takes 100 MB of
memory, too much to keep on a Pi beside the recognizer). Words already in the
lexicon are left out of the first two (they are game words), and so are players'
names, which are checked at the table.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.speech import lexicon  # noqa: E402
from assistant.speech.normalize import fold  # noqa: E402

MIN_ZIPF = 2.5
"""About the 65,000 most used words (zipf 2.5: once in three million words)."""
CHATTER_WORDS = 12000
"""How many of the most used words ``charla.txt`` keeps (the grammar takes as many as the lexicon says)."""
PARTICIPLES = ("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas")
"""Left out of the verb forms: as often adjectives ("re jugado", "cansada")."""


def main() -> None:
    import wordfreq

    known = lexicon.load(ROOT / "lexicon" / "es.toml").vocabulary
    words = set()
    for word in wordfreq.top_n_list("es", 120_000):
        if wordfreq.zipf_frequency(word, "es") < MIN_ZIPF:
            break
        folded = fold(word)
        if folded.isalpha() and len(folded) >= 3 and folded not in known:
            words.add(folded)
    out = ROOT / "lexicon" / "comunes.txt"
    header = f"# Common Spanish words never snapped to a game word (scripts/comunes.py, wordfreq zipf >= {MIN_ZIPF}).\n"
    out.write_text(header + "\n".join(sorted(words)) + "\n", "utf-8")
    print(f"{len(words)} palabras -> {out}")
    verbs(words)
    chatter(known)


def verbs(words: set[str]) -> None:
    from simplemma import lemmatize

    found = sorted(
        w for w in words
        if not w.endswith(PARTICIPLES) and (lemma := fold(lemmatize(w, lang="es"))) != w and lemma.endswith(("ar", "er", "ir"))
    )
    out = ROOT / "lexicon" / "verbos.txt"
    header = "# Common Spanish words that are verb forms (scripts/comunes.py, simplemma's Spanish dictionary).\n"
    out.write_text(header + "\n".join(found) + "\n", "utf-8")
    print(f"{len(found)} formas verbales -> {out}")


def chatter(known: frozenset[str]) -> None:
    import wordfreq

    from assistant.speech.parser import Parser

    parser = Parser()
    words: list[str] = []
    for word in wordfreq.top_n_list("es", 3 * CHATTER_WORDS):
        if not (word.isalpha() and word == word.lower() and (len(word) > 1 or word in ("a", "e", "o", "y", "u"))):
            continue
        if parser.parse(word).action != "desconocido":
            continue  # a move said alone ("cincuenta", "retirarse"): a game word, not talk
        words.append(word)
        if len(words) == CHATTER_WORDS:
            break
    out = ROOT / "lexicon" / "charla.txt"
    header = (
        "# The most used Spanish words, most used first, accents kept (scripts/comunes.py, wordfreq):"
        " talk that is not the game, for the recognizer grammar.\n"
    )
    out.write_text(header + "\n".join(words) + "\n", "utf-8")
    print(f"{len(words)} palabras de charla -> {out}")


if __name__ == "__main__":
    main()
