"""The README's console examples run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.test_cli import dudo

README = Path(__file__).resolve().parents[1] / "README.md"


def console_blocks() -> list[tuple[str, list[str]]]:
    blocks = re.findall(r"```console\n(.*?)```", README.read_text("utf-8"), re.S)
    examples = []
    for block in blocks:
        lines = block.strip().splitlines()
        assert lines[0].startswith("$ dudo ")
        examples.append((lines[0][2:], lines[1:]))
    return examples


def test_readme_examples() -> None:
    examples = console_blocks()
    assert examples
    for command, expected in examples:
        result = dudo(*shlex.split(command)[1:])
        assert result.stdout.splitlines() == expected, command


def test_readme_names_the_two_commands_ci_uses() -> None:
    text = README.read_text("utf-8")
    assert "bash scripts/test.sh" in text and "bash scripts/jugar.sh" in text
    ci = (README.parent / ".ci" / "run").read_text("utf-8")
    assert "bash scripts/test.sh" in ci


def test_readme_session_transcript_is_what_the_referee_says() -> None:
    """The example game in the README is replayed through the referee."""
    from assistant.referee import Referee
    from assistant.rules import Game, preset
    from assistant.speech import Parser

    block = README.read_text("utf-8").split("## Cómo se juega")[1].split("```")[1]
    lines = block.strip().splitlines()[1:]
    game = Game(preset("caleuchano"), ["ana", "beto", "carla"])
    referee, parser = Referee(game), Parser(players=game.players)
    for said, answer in zip(lines[0::2], lines[1::2], strict=True):
        assert said.startswith("> ")
        assert referee.handle(parser.parse(said[2:])).text == answer, said
