"""Judging dice: counting a face on the table and classifying a pass hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from assistant.rules.bid import AS

HAND_SIZE = 5
"""Every pass hand (pichanga, full, poker…) is made of five dice."""


def count_face(dice: Iterable[int], face: int, wild: bool) -> int:
    """How many dice show ``face``; with ``wild`` aces count for any other face."""
    return sum(1 for d in dice if d == face or (wild and face != AS and d == AS))


def hand_kinds(faces: Iterable[int]) -> set[str]:
    """The pass hands a five-die hand makes, without wildcards.

    distintas / pichanga: all different; iguales: all equal; full: three and
    two; poker: four equal (five equal holds a poker too, RULES.md caleuchano).
    Fewer than five dice make no hand.
    """
    faces = list(faces)
    if len(faces) != HAND_SIZE:
        return set()
    shape = sorted(Counter(faces).values(), reverse=True)
    kinds: set[str] = set()
    if shape == [1, 1, 1, 1, 1]:
        kinds |= {"distintas", "pichanga"}
    if shape == [5]:
        kinds |= {"iguales", "poker"}
    if shape == [4, 1]:
        kinds.add("poker")
    if shape == [3, 2]:
        kinds.add("full")
    return kinds


def valid_pass(faces: Iterable[int], allowed: Iterable[str]) -> bool:
    return bool(hand_kinds(faces) & set(allowed))
