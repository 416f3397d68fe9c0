"""The lexicon (``lexicon/es.toml``, installed as ``assistant.lexicon``) loaded
and its phrase templates expanded.

Template syntax: ``[a b]`` optional, ``(a|b)`` alternatives, ``{slot}`` a slot.
Each template expands into every token sequence it admits; slots stay as
``{name}`` tokens for the matcher (parser) or the sampler (grammar) to fill.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from assistant.speech.normalize import fold, tokens

SLOTS = ("{cantidad}", "{pinta}", "{jugador}", "{caras}", "{sentido}", "{cara}")


def default_path() -> Path | None:
    """``$DUDO_LEXICO``, or None for the lexicon shipped with the package."""
    env = os.environ.get("DUDO_LEXICO")
    return Path(env) if env else None


def _read(path: Path | None, name: str = "es.toml") -> str:
    if path is not None:
        return (path if name == "es.toml" else path.with_name(name)).read_text("utf-8")
    return resources.files("assistant.lexicon").joinpath(name).read_text("utf-8")


def _common(path: Path | None) -> frozenset[str]:
    """Common Spanish words (``comunes.txt`` beside the lexicon); none if it is missing."""
    try:
        text = _read(path, "comunes.txt")
    except FileNotFoundError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _names(path: Path | None) -> tuple[str, ...]:
    """Names a table may add to a new game (``nombres.txt`` beside the lexicon)."""
    try:
        text = _read(path, "nombres.txt")
    except FileNotFoundError:
        return ()
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


class TemplateError(ValueError):
    pass


def expand(template: str, keep_accents: bool = False) -> list[tuple[str, ...]]:
    """All token sequences a template admits (words folded unless ``keep_accents``).

    >>> expand("[lo] dudo (po|ya)")
    [('dudo', 'po'), ('dudo', 'ya'), ('lo', 'dudo', 'po'), ('lo', 'dudo', 'ya')]
    """
    text = template.replace("(", " ( ").replace(")", " ) ").replace("[", " [ ").replace("]", " ] ")
    text = text.replace("|", " | ")
    parts = text.split()
    pos = 0

    def sequence(stop: set[str]) -> list[tuple[str, ...]]:
        nonlocal pos
        results: list[tuple[str, ...]] = [()]
        while pos < len(parts) and parts[pos] not in stop:
            part = parts[pos]
            pos += 1
            if part in ("(", "["):
                closing = ")" if part == "(" else "]"
                options = alternatives(closing)
                if part == "[":
                    options = [(), *options]
            elif part in (")", "]", "|"):
                raise TemplateError(f"'{part}' fuera de lugar en la frase «{template}»")
            else:
                word = part if part in SLOTS else (part.lower() if keep_accents else fold(part))
                options = [(word,)]
            results = [r + o for r in results for o in options]
        return results

    def alternatives(closing: str) -> list[tuple[str, ...]]:
        nonlocal pos
        options = sequence({"|", closing})
        while pos < len(parts) and parts[pos] == "|":
            pos += 1
            options += sequence({"|", closing})
        if pos >= len(parts) or parts[pos] != closing:
            raise TemplateError(f"falta '{closing}' en la frase «{template}»")
        pos += 1
        return options

    result = sequence(set())
    if pos != len(parts):
        raise TemplateError(f"'{parts[pos]}' fuera de lugar en la frase «{template}»")
    # order-preserving de-duplication
    return list(dict.fromkeys(result))


@dataclass(frozen=True)
class Lexicon:
    numbers: dict[str, int]
    tens: dict[str, int]
    tens_with_y: dict[str, int]
    """"diez y siete", "veinte y dos"."""
    prefixes: dict[str, int]
    """"dieci siete", "veinti dos", as a recognizer may split them."""
    connector: str
    grammar_max: int
    faces: dict[str, int]
    """Every face name (folded) -> face 1..6."""
    face_names: dict[int, tuple[str, ...]]
    hand_faces: dict[str, int]
    """Extra names a die goes by inside a dictated hand ("uno", "tres")."""
    directions: dict[str, str]
    filler_words: frozenset[str]
    filler_phrases: tuple[tuple[str, ...], ...]
    vocatives: frozenset[str]
    articles: frozenset[str]
    correction_words: frozenset[str]
    correction_phrases: tuple[tuple[str, ...], ...]
    frames: dict[str, frozenset[str]]
    """intent -> words that may surround its core without changing it."""
    hand_kinds: dict[tuple[str, ...], str]
    """"pichanga" -> "distintas", "full" -> "full"..."""
    hand_joins: dict[str, frozenset[str]]
    """"de", "y", "uno" and "antes": the small words of a hand named by its kind."""
    common: frozenset[str]
    newcomers: tuple[str, ...]
    """Names the recognizer may hear in «otra con …» (``nombres.txt``)."""
    """Common Spanish words never snapped to a game word."""
    templates: dict[str, tuple[tuple[str, ...], ...]]
    """intent -> expanded token sequences, in the file's order."""
    spellings: dict[str, str]
    """Folded word -> as written in the file (accents kept), for the recognizer."""
    raw_templates: dict[str, tuple[str, ...]]

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every literal word the lexicon knows (for near-miss correction and the grammar)."""
        words = set(self.numbers) | set(self.tens) | set(self.tens_with_y) | set(self.prefixes) | {self.connector} | set(self.faces)
        words |= set(self.hand_faces) | set(self.directions) | self.filler_words
        for phrase in self.filler_phrases:
            words |= set(phrase)
        for sequences in self.templates.values():
            for seq in sequences:
                words |= {t for t in seq if t not in SLOTS}
        words |= self.vocatives | self.articles | self.correction_words
        for phrase in self.correction_phrases:
            words |= set(phrase)
        for frame in self.frames.values():
            words |= frame
        for kind in self.hand_kinds:
            words |= set(kind)
        for joins in self.hand_joins.values():
            words |= joins
        return frozenset(words)

    def number_words(self, n: int) -> list[str]:
        """Every way the lexicon writes n (0..99), accents kept: "dieciséis", "treinta y uno"."""
        said = [self.spellings.get(w, w) for w, v in self.numbers.items() if v == n]
        if not said and n >= 30:
            tens = [w for w, v in self.tens.items() if v == n - n % 10]
            if tens and n % 10 == 0:
                said = tens
            elif tens:
                units = [self.spellings.get(w, w) for w, v in self.numbers.items() if v == n % 10]
                said = [f"{t} {self.connector} {u}" for t in tens for u in units]
        return said


def _fold_list(values: Any, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TemplateError(f"{where} debe ser una lista de palabras")
    return [" ".join(tokens(v)) for v in values]


def _spellings(data: Any) -> dict[str, str]:
    """Every word of the file as written (accents kept), by its folded form:
    the recognizer's model spells "tenía", "póquer", "conté" with their accents."""
    found: dict[str, str] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            found.update(_spellings(key))
            found.update(_spellings(value))
    elif isinstance(data, list):
        for value in data:
            found.update(_spellings(value))
    elif isinstance(data, str):
        for word in re.findall(r"[a-záéíóúüñ]+", data.lower()):
            if fold(word) != word:
                found.setdefault(fold(word), word)
    return found


def load(path: Path | None = None) -> Lexicon:
    data = tomllib.loads(_read(path or default_path()))
    nums = data["numeros"]
    faces: dict[str, int] = {}
    face_names: dict[int, tuple[str, ...]] = {}
    for key, words in data["pintas"].items():
        folded = _fold_list(words, f"pintas.{key}")
        face_names[int(key)] = tuple(folded)
        for w in folded:
            faces[w] = int(key)
    hand_faces = {w: int(k) for k, ws in data.get("pintas_en_mano", {}).items() for w in _fold_list(ws, "pintas_en_mano")}
    directions = {w: k for k, ws in data["sentidos"].items() for w in _fold_list(ws, f"sentidos.{k}")}
    filler = data["relleno"]
    templates: dict[str, tuple[tuple[str, ...], ...]] = {}
    raw: dict[str, tuple[str, ...]] = {}
    for intent, phrases in data["frases"].items():
        raw[intent] = tuple(phrases)
        expanded: list[tuple[str, ...]] = []
        for phrase in phrases:
            expanded += expand(phrase)
        templates[intent] = tuple(dict.fromkeys(expanded))
    spellings = _spellings(data)
    spellings.update({fold(k): k.lower() for k in list(nums["simples"]) + list(nums["decenas"])})
    hands = data.get("manos", {})
    hand_kinds: dict[tuple[str, ...], str] = {}
    for kind in ("full", "poker", "distintas", "iguales"):
        for phrase in _fold_list(hands.get(kind, []), f"manos.{kind}"):
            hand_kinds[tuple(phrase.split())] = kind
    corrections = data.get("correcciones", {})
    return Lexicon(
        tens_with_y={fold(k): int(v) for k, v in nums.get("decenas_con_y", {}).items()},
        prefixes={fold(k): int(v) for k, v in nums.get("prefijos", {}).items()},
        vocatives=frozenset(_fold_list(data.get("vocativos", {}).get("palabras", []), "vocativos.palabras")),
        articles=frozenset(_fold_list(data.get("articulos", {}).get("palabras", []), "articulos.palabras")),
        correction_words=frozenset(_fold_list(corrections.get("palabras", []), "correcciones.palabras")),
        correction_phrases=tuple(tuple(p.split()) for p in _fold_list(corrections.get("frases", []), "correcciones.frases")),
        frames={k: frozenset(_fold_list(v, f"marcos.{k}")) for k, v in data.get("marcos", {}).items()},
        hand_kinds=hand_kinds,
        hand_joins={k: frozenset(_fold_list(hands.get(k, []), f"manos.{k}")) for k in ("de", "y", "uno", "antes")},
        common=_common(path or default_path()),
        newcomers=_names(path or default_path()),
        spellings=spellings,
        numbers={fold(k): int(v) for k, v in nums["simples"].items()},
        tens={fold(k): int(v) for k, v in nums["decenas"].items()},
        connector=fold(nums["conector"]),
        grammar_max=int(nums.get("maximo_gramatica", 40)),
        faces=faces,
        face_names=face_names,
        hand_faces=hand_faces,
        directions=directions,
        filler_words=frozenset(_fold_list(filler["palabras"], "relleno.palabras")),
        filler_phrases=tuple(tuple(p.split()) for p in _fold_list(filler["frases"], "relleno.frases")),
        templates=templates,
        raw_templates=raw,
    )


@lru_cache(maxsize=4)
def default() -> Lexicon:
    return load()
