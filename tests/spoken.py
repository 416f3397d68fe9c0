"""What a spoken reply must be, as checks the tests share: short sentences,
nothing a synthesizer cannot voice, no program talk, and Spanish agreement
where a quantity can be one (issue 38: "heard the first time").

``problems(text)`` lists what is wrong with one reply, each with the words
that show it, so a failing test names the sentence and the slip.
"""

from __future__ import annotations

import re

from assistant import words

MAX_WORDS = 20
"""The longest sentence a table hears in one go (issue 38)."""

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)

FEMININE = r"(?:quinas?|cuadras?|senas?|millas?|fichas?|partidas?|rondas?|veces|vez|apuestas?|jugadas?)"
MASCULINE = r"(?:trenes|tren|tontos?|ases|as|dados?|palos?)"
FEMININE_FACES = r"(?:quinas?|cuadras?|senas?|millas?)"
MASCULINE_FACES = r"(?:trenes|tren|tontos?|ases|as)"

CHECKS: list[tuple[re.Pattern[str], str]] = [
    # what a synthesizer cannot voice, or voices as noise
    (re.compile(r"[«»()\[\]{}<>\"]|'"), "comillas o paréntesis"),
    (re.compile(r"\d"), "cifras en vez de palabras"),
    # program talk
    (re.compile(r"\bdudo (?:jugar|reanudar|modelo|simular|historial|estadisticas)\b|--\w|\.toml\b|\.jsonl\b"), "comando de terminal"),
    (re.compile(r"\b(?:deshecho|deshago|preset)\b", re.I), "palabra de programa"),
    # Spain's words, and usted
    (re.compile(r"\bfarol(?:es)?\b", re.I), "farol (en Chile: bluf)"),
    (re.compile(r"\b(?:usted|le toca a usted)\b|(?<!se )\bpuede decir\b", re.I), "usted (es tú)"),
    # agreement where a quantity can be one
    (re.compile(r"\b(?:los|las) (?:un|una|uno)\b", re.I), "artículo plural ante uno"),
    (re.compile(rf"\b(?:un|\w+ún|ningún|algún) {FEMININE}\b", re.I), "un ante femenino"),
    (re.compile(rf"\b(?:una|\w+iuna|ninguna) {MASCULINE}\b", re.I), "una ante masculino"),
    # "veintiún ases", "treinta y una quinas" are right: only one alone wants the singular
    (re.compile(r"(?<!\by )\b(?:un|una|ningún|ninguna) (?!as\b|más\b|dos\b|tres\b)(?:\w+[^aeiouáéíóú\W]es|\w+[aeo]s)\b", re.I),
     "uno ante plural"),
    (re.compile(rf"\b(?:los|el|cuántos|ningún) {FEMININE_FACES}\b", re.I), "artículo masculino ante pinta femenina"),
    (re.compile(rf"\b(?:las|la|cuántas|ninguna) {MASCULINE_FACES}\b", re.I), "artículo femenino ante pinta masculina"),
    (re.compile(r"\b(?:trenes|tontos|ases) justas\b|\b(?:quinas|cuadras|senas|millas) justos\b|\b(?:tren|tonto|as) justa\b"
                r"|\b(?:quina|cuadra|sena|milla) justo\b", re.I), "justo/justa no concuerda"),
    (re.compile(r"\bvan (?:un|una) ", re.I), "van ante uno"),
    (re.compile(r"\bveces\b[^.?!]*\b(?:ninguno|todos)\b", re.I), "ninguno/todos de veces (femenino)"),
    (re.compile(r"\bningun[ao], \w+,? ningun[ao]\b", re.I), "una lista de ceros"),
    # o/y before the same sound
    (re.compile(r"\b[oO] h?[oó]\w"), "o ante o (es u)"),
    (re.compile(r"\b[yY] h?[ií](?![aeiouáéíóú])\w"), "y ante i (es e)"),
]


def sentences(text: str) -> list[str]:
    """The sentences of a reply, as a listener hears them (a question or an exclamation is one)."""
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


def word_count(sentence: str) -> int:
    return len(_WORD.findall(sentence))


def problems(text: str, digits_ok: bool = False) -> list[str]:
    """What is wrong with a spoken reply ([] when nothing is)."""
    found = []
    for pattern, what in CHECKS:
        if digits_ok and what.startswith("cifras"):
            continue
        match = pattern.search(text)
        if match:
            found.append(f"{what}: «{match.group(0)}»")
    for sentence in sentences(text):
        if word_count(sentence) > MAX_WORDS:
            found.append(f"{word_count(sentence)} palabras: «{sentence}»")
    return found


def number_forms(n: int) -> set[str]:
    """Every way ``n`` is said before or after a noun, in either gender (0: how none is said)."""
    if n == 0:
        return {"ninguna", "ningún", "ninguno", "ni"}
    return {words.number(n, feminine, before) for feminine in (False, True) for before in (False, True)}


def says_number(sentence: str, n: int) -> bool:
    said = {w.lower() for w in _WORD.findall(sentence)}
    phrase = sentence.lower()
    return any((form in said) if " " not in form else (form in phrase) for form in number_forms(n))
