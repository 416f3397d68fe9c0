"""What the speech wing says to people, in Spanish: the problems of a lexicon
file (a house lexicon is edited by people who never open the code)."""

from __future__ import annotations


def misplaced(part: str, template: str) -> str:
    return f"'{part}' fuera de lugar en la frase «{template}»"


def missing(closing: str, template: str) -> str:
    return f"falta '{closing}' en la frase «{template}»"


def not_a_word_list(where: str) -> str:
    return f"{where} debe ser una lista de palabras"


def verb_not_conjugated(where: str, infinitive: str) -> str:
    return f"{where}: «{infinitive}» no está en formas.txt (scripts/formas.py lo escribe)"


def two_families(form: str, one: str, other: str) -> str:
    return f"«{form}» es de dos familias: {one} y {other}"


def topic_unreadable(problem: str) -> str:
    return f"tema.json no se puede leer ({problem}); entrénelo de nuevo con scripts/entrenar_tema.py"


def topic_malformed() -> str:
    return "tema.json: se esperaban «sesgo» (un número) y «pesos» (palabra: número); entrénelo de nuevo con scripts/entrenar_tema.py"
