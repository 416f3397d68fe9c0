"""Text to comparable tokens: lower case, no accents, no punctuation.

Anything that is not a Spanish word or a number (another script, a bracketed
digit, a recognizer's ``[unk]``) becomes the token ``UNREADABLE``, so the
parser counts it as an unknown word instead of silently dropping it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

UNREADABLE = "<?>"
"""A token the parser can never place."""

_PUNCTUATION = re.compile(r"[\s,.;:!?¡¿\"“”«»()…]+")
_WORD = re.compile(r"[a-z0-9ñ]+")
_DIGIT_WORD = re.compile(r"^(\d+)([a-zñ]+)$")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case without accents (ñ kept): "Éstas" -> "estas"."""
    text = text.lower().replace("ñ", "\0")
    text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    return text.replace("\0", "ñ")


_BREAKS = re.compile(r"([,;:.?!¡¿()…]+|\s[-–—]+\s)")


def clauses(text: str) -> list[tuple[str, bool]]:
    """The line cut where the writing (or a pause, written as a comma) sets a clause
    apart, each piece with whether it is asked: "diez trenes, confíen en el proceso" ->
    [("diez trenes", False), ("confíen en el proceso", False)]; "¿seis senas? no creo" ->
    [("seis senas", True), ("no creo", False)]."""
    pieces = _BREAKS.split(text)
    out: list[tuple[str, bool]] = []
    for i in range(0, len(pieces), 2):
        before = pieces[i - 1] if i else ""
        after = pieces[i + 1] if i + 1 < len(pieces) else ""
        if pieces[i].strip():
            out.append((pieces[i], "¿" in before or "?" in after))
    return out


def tokens(text: str) -> list[str]:
    """Words of an utterance: "¡Dudo, po!" -> ["dudo", "po"]; "3trenes" -> ["3", "trenes"];
    "pa'l" -> ["pal"]; "의 [3]" -> ["<?>", "<?>"]."""
    out: list[str] = []
    for piece in _PUNCTUATION.split(fold(text)):
        piece = piece.replace("'", "").replace("’", "").strip("-")
        if not piece:
            continue
        if _WORD.fullmatch(piece):
            split = _DIGIT_WORD.match(piece)
            out += [split.group(1), split.group(2)] if split else [piece]
        elif all(_WORD.fullmatch(p) for p in piece.split("-") if p):
            out += [p for p in piece.split("-") if p]  # "veinti-dos", "sí-sí"
        else:
            out.append(UNREADABLE)
    return out


def tokens_as_written(text: str) -> list[str]:
    """The line's pieces between spaces and punctuation, lower case with their accents
    ("¡Dudó, po!" -> ["dudó", "po"]): each is one or more of its ``tokens``."""
    return [p for p in _PUNCTUATION.split(text.lower()) if p.replace("'", "").replace("’", "").strip("-")]


_SOUNDS = [
    (re.compile(r"h"), ""),
    (re.compile(r"qu"), "k"),
    (re.compile(r"c(?=[ei])"), "s"),
    (re.compile(r"c"), "k"),
    (re.compile(r"z"), "s"),
    (re.compile(r"v"), "b"),
    (re.compile(r"ll"), "y"),
    (re.compile(r"(.)\1+"), r"\1"),
]


def _rewrite(word: str, rules: list[tuple[re.Pattern[str], str]]) -> str:
    key = fold(word)
    for pattern, repl in rules:
        key = pattern.sub(repl, key)
    return key


@lru_cache(maxsize=65536)
def sounds(word: str) -> str:
    """How a Spanish word sounds, roughly: "Karla" and "carla", "Anna" and "ana" agree."""
    return _rewrite(word, _SOUNDS)


_BY_EAR = [
    (re.compile(r"z"), "s"),
    (re.compile(r"c(?=[ei])"), "s"),
    (re.compile(r"k(?=[ei])"), "qu"),
    (re.compile(r"k"), "c"),
    (re.compile(r"v"), "b"),
]


@lru_cache(maxsize=65536)
def by_ear(word: str) -> str:
    """A word as it is spelled by ear, where Chilean Spanish says letters alike:
    s, z and c before e or i; k for c and qu; b and v ("dies" and "diez",
    "onze" and "once", "calso" and "calzo", "kinas" and "quinas" agree).
    Narrower than ``sounds``: "charla" is not "carla", "cayo" not "callo"."""
    return _rewrite(word, _BY_EAR)


_ALIKE = [("b", "v"), ("v", "b"), ("ca", "ka"), ("co", "ko"), ("cu", "ku"), ("ka", "ca"), ("ko", "co"), ("s", "z"), ("z", "s"), ("ll", "y"), ("y", "ll")]


def spelled_alike(name: str) -> list[str]:
    """Other ways a recognizer may spell a name that sounds the same: one letter
    swapped ("beto" -> "veto", "carla" -> "karla") or a consonant doubled ("ana" -> "anna").

    >>> spelled_alike("beto"), spelled_alike("ana")
    (['veto'], ['anna'])
    """
    found: dict[str, None] = {}
    for i in range(len(name)):
        for old, new in _ALIKE:
            if name.startswith(old, i):
                found[name[:i] + new + name[i + len(old) :]] = None
    for i, c in enumerate(name):
        if c in "nm" and 0 < i < len(name) - 1 and name[i - 1] in "aeiou" and name[i + 1] in "aeiou":
            found[name[:i] + c + name[i:]] = None
    return [v for v in found if v != name and sounds(v) == sounds(name)]
