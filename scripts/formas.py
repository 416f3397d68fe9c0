"""Regenerate ``lexicon/formas.txt``: every form of the verbs the lexicon lists once.

    python3 -m venv /tmp/formas && /tmp/formas/bin/pip install verbecc
    /tmp/formas/bin/python scripts/formas.py

The lexicon names a verb once, by its infinitive (``[familias]`` and
``[colas].verbos`` in ``lexicon/es.toml``); a table says it in any person and
tense ("partimos", "parta", "partiendo", "dudó", "anulen"). verbecc, a
maintained conjugation library with complete Spanish tables (irregular verbs
included), writes those forms once, here; the referee reads the file and never
imports verbecc (it pulls scikit-learn and lxml, too heavy for a Raspberry Pi).

Each line: infinitive, tense[.person], form (accents kept, as a recognizer spells
it). Persons are 1s 2s 3s 1p 3p: "vosotros" is not said at a Chilean table, and
of the Rioplatense "vos" only the imperative is kept (``imperativo.vos``:
"tirá", "mostrá", "volvé"), the form a visitor at the table orders with; its
present ("dudás") is not the Chilean one ("dudái") and would read a question to
someone else as one's own call.
"""

from __future__ import annotations

import logging
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "lexicon" / "formas.txt"

TENSES = {
    ("indicativo", "presente"): "presente",
    ("indicativo", "pretérito-perfecto-simple"): "preterito",
    ("indicativo", "pretérito-imperfecto"): "imperfecto",
    ("indicativo", "futuro"): "futuro",
    ("condicional", "presente"): "condicional",
    ("subjuntivo", "presente"): "subjuntivo",
    ("imperativo", "afirmativo"): "imperativo",
    ("infinitivo", "infinitivo"): "infinitivo",
    ("gerundio", "gerundio"): "gerundio",
    ("participo", "participo"): "participio",
}
"""verbecc's (mood, tense) -> the name the lexicon uses."""
PRONOUNS = {"yo": "1s", "tú": "2s", "él": "3s", "usted": "3s", "nosotros": "1p", "ellos": "3p", "ustedes": "3p"}
"""Whose form it is; "ella"/"ellas" repeat "él"/"ellos", and vosotros is left out."""
VOS_TENSES = {"imperativo"}
"""The tenses whose "vos" form is kept (as person ``vos``)."""


def infinitives(lexicon: dict[str, Any]) -> list[str]:
    """Every verb the lexicon lists, once, in the order it lists them."""
    verbs: list[str] = []
    for entries in lexicon.get("familias", {}).values():
        verbs += [entry.split(":")[0].strip() for entry in entries]
    verbs += list(lexicon.get("colas", {}).get("verbos", []))
    return list(dict.fromkeys(verbs))


REGULAR_MODELS = {"ar": "cortar", "er": "temer", "ir": "vivir"}
"""Regular verbs conjugated like these when verbecc fails on one (it raises
IndexError on "pasar", a plain regular -ar verb)."""


MISCONJUGATED = {"atrever"}
"""Regular verbs verbecc conjugates wrong ("atrever": "atreveo", "que se atrevean"),
conjugated like their model instead."""


def forms(conjugator: Any, infinitive: str) -> list[tuple[str, str]]:
    """(tense.person, form) for one verb, in verbecc's order, without repeats."""
    try:
        if infinitive in MISCONJUGATED:
            raise IndexError(infinitive)
        data = conjugator.conjugate(infinitive).get_data()
    except IndexError:
        model = REGULAR_MODELS[infinitive[-2:]]
        stem, model_stem = infinitive[:-2], model[:-2]
        return [(tag, stem + form[len(model_stem):]) for tag, form in forms(conjugator, model) if form.startswith(model_stem)]
    found: dict[tuple[str, str], None] = {}
    for mood, tenses in data["moods"].items():
        for tense, rows in tenses.items():
            name = TENSES.get((mood, tense))
            if name is None:
                continue
            for row in rows:
                pronoun = getattr(row.get("pr"), "value", row.get("pr"))
                person = PRONOUNS.get(str(pronoun)) if pronoun is not None else ""
                if str(pronoun) == "vos" and name in VOS_TENSES:
                    person = "vos"
                if person is None:
                    continue
                for said in row["c"]:
                    form = said.split()[-1]  # "yo parto" -> "parto"; the imperative has no pronoun
                    tag = f"{name}.{person}" if person else name
                    found[(tag, form.lower())] = None
    return list(found)


def main() -> None:
    logging.disable(logging.WARNING)  # verbecc logs its configuration at INFO
    from verbecc import CompleteConjugator, LangCodeISO639_1

    lexicon = tomllib.loads((ROOT / "lexicon" / "es.toml").read_text("utf-8"))
    conjugator = CompleteConjugator(LangCodeISO639_1.es)
    lines = [
        "# Verb forms for lexicon/es.toml's [familias] and [colas] (scripts/formas.py, from verbecc's tables).",
        "# infinitive <TAB> tense[.person] <TAB> form",
    ]
    verbs = infinitives(lexicon)
    for infinitive in verbs:
        lines += [f"{infinitive}\t{tag}\t{form}" for tag, form in forms(conjugator, infinitive)]
    OUT.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"{len(verbs)} verbos, {len(lines) - 2} formas -> {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
