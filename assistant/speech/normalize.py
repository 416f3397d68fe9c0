"""Text to comparable tokens: lower case, no accents, no punctuation."""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9ñ]+")
_DIGIT_WORD = re.compile(r"(\d+)([a-zñ]+)")


def fold(text: str) -> str:
    """Lower case without accents (ñ kept): "Éstas" -> "estas"."""
    text = text.lower().replace("ñ", "\0")
    text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    return text.replace("\0", "ñ")


def tokens(text: str) -> list[str]:
    """Words of an utterance: "¡Dudo, po!" -> ["dudo", "po"]; "3trenes" -> ["3", "trenes"]."""
    folded = _DIGIT_WORD.sub(r"\1 \2", fold(text))
    return [t for t in _NON_WORD.split(folded) if t]
