"""Regenerate ``lexicon/comunes.txt``: common Spanish words the parser must never
"repair" into a game word ("sillas" is not "millas", "incorrecto" is not
"correcto", "pasado" is not "paso").

    pip install wordfreq && .venv/bin/python scripts/comunes.py

wordfreq is needed only to regenerate the list, not to run the referee: the
list ships as data. Words already in the lexicon are left out (they are game
words), and so are players' names, which are checked at the table.
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


if __name__ == "__main__":
    main()
