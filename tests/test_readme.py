"""The README is a guide that runs as written: its console examples (and those
in docs/), its example game through a real ``dudo jugar --texto``, its links,
and a shape a newcomer can find things in."""

from __future__ import annotations

import re
import shlex
import unicodedata
from pathlib import Path

from tests.test_cli import dudo

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))

MAX_LINES = 400
"""The guide stays short: history and measurements live in docs/."""
SCREEN_BY = 250
"""The screen's section begins within this many lines (the issue's check)."""
FIRST_SCREENFUL = 40
"""Every task of the guide is named, as a link, within the first screenful."""


def console_blocks(path: Path) -> list[tuple[str, list[str]]]:
    blocks = re.findall(r"```console\n(.*?)```", path.read_text("utf-8"), re.S)
    examples = []
    for block in blocks:
        lines = block.strip().splitlines()
        assert lines[0].startswith("$ dudo "), path.name
        examples.append((lines[0][2:], lines[1:]))
    return examples


def test_readme_and_docs_examples() -> None:
    assert console_blocks(README)
    for path in [README, *DOCS]:
        for command, expected in console_blocks(path):
            result = dudo(*shlex.split(command)[1:])
            assert result.stdout.splitlines() == expected, (path.name, command)


def test_readme_names_the_two_commands_ci_uses() -> None:
    text = README.read_text("utf-8")
    assert "bash scripts/test.sh" in text and "bash scripts/jugar.sh" in text
    ci = (README.parent / ".ci" / "run").read_text("utf-8")
    assert "bash scripts/test.sh" in ci


def test_the_example_game_is_what_dudo_jugar_prints_greeting_included(tmp_path: Path) -> None:
    """The README's game, typed into a real ``dudo jugar --texto`` with the players
    its caption names: the greeting and every answer, line for line."""
    text = README.read_text("utf-8")
    section = text.split("## Cómo se juega")[1]
    command = re.search(r"`(dudo jugar --texto [^`]+)`", section)
    assert command is not None
    block = section.split("```")[1]
    lines = block.strip().splitlines()
    typed = [line[2:] for line in lines[1::2]]
    assert all(line.startswith("> ") for line in lines[1::2])
    played = dudo(*shlex.split(command[1])[1:], "--nueva", stdin="".join(f"{line}\n" for line in typed),
                  env={"DUDO_DATOS": str(tmp_path / "datos")})
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines() == [lines[0], *lines[2::2]]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def test_a_newcomer_finds_every_task_in_the_first_screenful() -> None:
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= MAX_LINES
    sections = [(i, line[3:]) for i, line in enumerate(lines) if line.startswith("## ")]
    screen = next(i for i, title in sections if title.startswith("La pantalla"))
    assert screen < SCREEN_BY, screen
    first = "\n".join(lines[:FIRST_SCREENFUL])
    for _, title in sections:
        if title != "In English":
            assert f"(#{slug(title)})" in first, title
    for wanted in ("Voz sin internet", "Las cifras de la noche", "Raspberry Pi", "Problemas comunes", "Cómo se juega"):
        assert any(title.startswith(wanted) for _, title in sections), wanted


def test_links_in_the_readme_and_docs_lead_somewhere() -> None:
    for path in [README, *DOCS]:
        text = path.read_text("utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://")):
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            assert linked.is_file(), (path.name, target)
            if anchor and linked.suffix == ".md":
                headings = [slug(h) for h in re.findall(r"^#+ (.+)$", linked.read_text("utf-8"), re.M)]
                assert anchor in headings, (path.name, target)


def test_measurement_history_lives_in_docs() -> None:
    readme = README.read_text("utf-8")
    assert "docs/entender.md" in readme and "docs/bench.md" in readme
    assert "vigesimoprimera" not in readme and "vigesimoprimera" in (ROOT / "docs" / "entender.md").read_text("utf-8")
    assert "scripts/bench.py" in (ROOT / "docs" / "bench.md").read_text("utf-8")
