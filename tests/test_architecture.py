"""The house as drawn from the imports (shared/ARCHITECTURE.md).

The three wings know nothing of each other; only the replies speak Spanish
about the game, so only they import the number and face words; nothing below
the referee imports it; and the engine's code holds no Spanish sentence
(its preset data files may).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "assistant"
SPANISH_WORDS = {
    "de", "la", "el", "los", "las", "que", "no", "se", "hay", "en", "por", "un", "una", "con", "es",
    "del", "al", "y", "o", "para", "ya", "tiene", "hace", "falta", "solo", "quien", "parte", "toca",
}
SPANISH_LETTERS = re.compile(r"[áéíóúñ¿¡]", re.IGNORECASE)


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(path: Path) -> set[str]:
    """Every assistant module ``path`` imports (``from assistant import x`` counts as assistant.x)."""
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    known = modules()
    return {n for n in names if n in known}


MODULES = modules()


def importers_of(target: str) -> set[str]:
    return {name for name, path in MODULES.items() if target in imports(path)}


@pytest.mark.parametrize("wing", ["assistant.rules", "assistant.speech", "assistant.voice"])
def test_each_wing_imports_only_itself(wing: str) -> None:
    for name, path in MODULES.items():
        if name == wing or name.startswith(wing + "."):
            outside = {m for m in imports(path) if not (m == wing or m.startswith(wing + "."))}
            assert not outside, f"{name} imports {outside}"


def test_only_the_replies_import_the_words() -> None:
    assert importers_of("assistant.words") == {"assistant.replies"}


def test_nothing_below_the_referee_imports_it() -> None:
    below = {"assistant.rules", "assistant.speech", "assistant.voice", "assistant.replies",
             "assistant.words", "assistant.journal", "assistant.changes"}
    offenders = {m for m in importers_of("assistant.referee") if any(m == b or m.startswith(b + ".") for b in below)}
    assert not offenders


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (modules, classes, functions, fields)."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    ids.add(id(stmt.value))
    return ids


def spanish_sentences(source: str) -> list[str]:
    """String literals (not docstrings) that read as Spanish sentences."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
            words = re.findall(r"\w+", text.lower())
            if len(words) >= 2 and (SPANISH_LETTERS.search(text) or SPANISH_WORDS & set(words)):
                found.append(text)
    return found


def test_the_detector_finds_a_sentence() -> None:
    assert spanish_sentences('raise X("En estas reglas no se calza.")')
    assert spanish_sentences('x = f"Le toca a {turn}, no a {who}."')
    assert not spanish_sentences('"""Módulo: una descripción."""\nx = "izquierda"\ny = "unknown event kind"')


def test_the_engine_holds_no_spanish_sentence() -> None:
    for name, path in MODULES.items():
        if name.startswith("assistant.rules"):
            assert spanish_sentences(path.read_text("utf-8")) == [], name
