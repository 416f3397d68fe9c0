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


# ---------------------------------------------------------------- the floors of the house

FLOORS = [
    {"assistant.rules", "assistant.speech", "assistant.voice", "assistant.words", "assistant.messages", "assistant.problems", "assistant.cli_es"},
    {"assistant.changes"},
    {"assistant.replies"},
    {"assistant.referee", "assistant.journal", "assistant.heardlog", "assistant.scoreboard", "assistant.screen_server", "assistant.fieldkit",
     "assistant.stats", "assistant.report"},
    {"assistant.session"},
    {"assistant.voice_io", "assistant.config", "assistant.night"},
    {"assistant.cli", "assistant.cli_modelo", "assistant.__main__"},
]
"""From the ground up: the three wings and the leaves that only hold words; what
is published of a step; how it is said; who keeps and shows the game; one
utterance; the evening; the command line."""


def floor(module: str) -> int:
    for level, names in enumerate(FLOORS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return level
    raise AssertionError(f"{module} is on no floor: add it to FLOORS")


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != "assistant"))
def test_no_module_imports_one_above_it(name: str) -> None:
    above = {m for m in imports(MODULES[name]) if m != "assistant" and floor(m) > floor(name)}
    assert not above, f"{name} (floor {floor(name)}) imports {above}"


def test_no_import_cycle() -> None:
    graph = {name: {m for m in imports(path) if m not in (name, "assistant")} for name, path in MODULES.items()}

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("cycle: " + " -> ".join([*path[path.index(name):], name]))
        for dep in graph.get(name, ()):
            if not (dep == name or name.startswith(dep + ".")):  # a package's __init__ re-exports its own modules
                visit(dep, [*path, name])

    for name in graph:
        visit(name, [])


def test_the_evening_has_a_room_and_the_screen_does_not_import_the_loop() -> None:
    assert "assistant.night" in MODULES
    assert "assistant.session" not in imports(MODULES["assistant.scoreboard"])
    assert len(MODULES["assistant.cli"].read_text("utf-8").splitlines()) <= 550


ROOMS_FOR_SPANISH = ("replies.py", "words.py", "cli")
"""Where sentences for people live, besides any ``messages*.py``."""


def test_spanish_for_people_lives_in_the_rooms_made_for_it() -> None:
    """String literals of three words or more that read as Spanish, docstrings aside,
    outside replies.py, words.py, the messages modules and the command line."""
    found = []
    for name, path in MODULES.items():
        if path.name.startswith(ROOMS_FOR_SPANISH) or path.name.startswith("messages"):
            continue
        found += [(name, s) for s in spanish_sentences(path.read_text("utf-8")) if len(s.split()) >= 3]
    assert len(found) <= 5, found
