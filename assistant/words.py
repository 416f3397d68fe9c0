"""How the game's values are said in Spanish: face names and quantities.

Only the replies speak, so only ``replies`` imports this: "cinco quinas" or
"un tren" said the way a table says it. Number words come from num2words;
only gender agreement is ours.
"""

from __future__ import annotations

from functools import lru_cache

from num2words import num2words

# face -> (singular, plural, feminine?)
FACE_WORDS: dict[int, tuple[str, str, bool]] = {
    1: ("as", "ases", False),
    2: ("tonto", "tontos", False),
    3: ("tren", "trenes", False),
    4: ("cuadra", "cuadras", True),
    5: ("quina", "quinas", True),
    6: ("sena", "senas", True),
}
# Caleuchano calls the two "milla" (and gives millas a bonus).
MILLA_WORDS = ("milla", "millas", True)
HIDDEN_WORDS = ("de éstas", "de éstas", True)


@lru_cache(maxsize=512)
def number(n: int, feminine: bool = False, before_noun: bool = True) -> str:
    """The Spanish word for ``n`` agreeing with the noun it counts.

    >>> number(21), number(21, feminine=True), number(31, before_noun=False)
    ('veintiún', 'veintiuna', 'treinta y uno')
    """
    words = str(num2words(n, lang="es"))
    if words.endswith("uno"):
        if feminine:
            return words[:-1] + "a"
        if before_noun:
            return "veintiún" if words == "veintiuno" else words[:-1]
    return words


def face_words(face: int, two_is_milla: bool = False) -> tuple[str, str, bool]:
    """(singular, plural, feminine) for a face; 0 is the hidden face "de éstas"."""
    if face == 0:
        return HIDDEN_WORDS
    if face == 2 and two_is_milla:
        return MILLA_WORDS
    return FACE_WORDS[face]


def face_name(face: int, plural: bool = True, two_is_milla: bool = False) -> str:
    singular, plural_word, _ = face_words(face, two_is_milla)
    return plural_word if plural else singular


def quantity(n: int, face: int, two_is_milla: bool = False) -> str:
    """A bid or a count said aloud: "un tren", "cinco quinas", "tres de éstas"."""
    singular, plural, feminine = face_words(face, two_is_milla)
    if face == 0:
        return f"{number(n, feminine=True)} de éstas"
    return f"{number(n, feminine)} {singular if n == 1 else plural}"


def _sounds(word: str, *starts: str) -> bool:
    """Does ``word`` begin with one of these sounds (a silent h ignored)?"""
    plain = word.lower().removeprefix("h")
    return plain.startswith(starts)


def join_or(items: list[str]) -> str:
    """"a", "a o b", "a, b o c"; "u" before an o sound ("siete u ocho")."""
    if len(items) <= 1:
        return "".join(items)
    word = " u " if _sounds(items[-1], "o", "ó") else " o "
    return ", ".join(items[:-1]) + word + items[-1]


def join_and(items: list[str]) -> str:
    """"a y b"; "e" before an i sound ("beto e ignacio"), not before a diphthong ("y hielo")."""
    if len(items) <= 1:
        return "".join(items)
    last = items[-1]
    word = " e " if _sounds(last, "i", "í") and not _sounds(last, "ia", "ie", "io", "iu") else " y "
    return ", ".join(items[:-1]) + word + last
