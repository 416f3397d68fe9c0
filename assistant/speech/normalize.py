"""Text to comparable tokens: lower case, no accents, no punctuation.

Anything that is not a Spanish word or a number (another script, a bracketed
digit, a recognizer's ``[unk]``) becomes the token ``UNREADABLE``, so the
parser counts it as an unknown word instead of silently dropping it.
"""

from __future__ import annotations

import re
import unicodedata

UNREADABLE = "<?>"
"""A token the parser can never place."""

_PUNCTUATION = re.compile(r"[\s,.;:!?¡¿\"“”«»()…]+")
_WORD = re.compile(r"[a-z0-9ñ]+")
_DIGIT_WORD = re.compile(r"^(\d+)([a-zñ]+)$")


def fold(text: str) -> str:
    """Lower case without accents (ñ kept): "Éstas" -> "estas"."""
    text = text.lower().replace("ñ", "\0")
    text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    return text.replace("\0", "ñ")


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


def sounds(word: str) -> str:
    """How a Spanish word sounds, roughly: "Karla" and "carla", "Anna" and "ana" agree."""
    key = fold(word)
    for pattern, repl in _SOUNDS:
        key = pattern.sub(repl, key)
    return key
