"""How much the parser understands, per corpus and per family of phrasing.

    .venv/bin/python scripts/understanding.py [--voice] [--misses] [--corpus FILE.jsonl ...]

Corpora: the team's (``tests/corpus/*.tsv`` and ``no_es_jugada.txt``), the
families the team wrote for each way of talking (``tests/corpus/familias.jsonl``),
and the one written outside the team (``../shared/corpus/``) when it is there;
``--corpus`` measures other files of that shape instead (``{"text", "expect"}``
per line, plus ``"familia"`` or ``"tags"``; a ``.txt`` file is chatter, one line
each). A line is understood when every key its label gives matches what
``dudo interpretar`` prints.

``--voice`` first turns every word outside the recognizer grammar into
``[unk]``, as vosk does with a grammar (the voice path), and leaves out the
lines only a keyboard writes (digits, misspellings). Chatter is also played
inside a game, as vosk results, in the middle of the bids and of a count: it
must be refused and leave the game as it was. Prints one JSON object.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.referee import Referee  # noqa: E402
from assistant.rules import Game, preset  # noqa: E402
from assistant.session import Session, heard_from_line  # noqa: E402
from assistant.speech import Parser, grammar  # noqa: E402
from assistant.speech.normalize import fold, tokens  # noqa: E402

TEAM_PLAYERS = ["ana", "beto", "carla", "dani", "juan pablo"]
OUTSIDE_PLAYERS = ["ana", "beto", "carla", "diego", "eli", "fran"]
SHARED = ROOT.parent / "shared" / "corpus"

Line = tuple[str, dict[str, Any], str]
"""(text, expected, family)."""


def team() -> tuple[list[Line], list[str]]:
    commands: list[Line] = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.tsv")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                text, _, expected = line.partition("\t")
                commands.append((text, json.loads(expected), path.stem))
    return commands, _chatter(ROOT / "tests" / "corpus" / "no_es_jugada.txt")


def labelled(path: Path) -> tuple[list[Line], list[str]]:
    """A JSON-lines corpus: commands and chatter (``"accion": "desconocido"``), by family or first tag."""
    commands: list[Line] = []
    chatter: list[str] = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        expected = row["expect"]
        if expected["accion"] == "desconocido":
            chatter.append(row["text"])
            continue
        family = row.get("familia") or _family_from_tags(row.get("tags", []), expected)
        commands.append((row["text"], expected, family))
    return commands, chatter


def _family_from_tags(tags: list[str], expected: dict[str, Any]) -> str:
    for tag in ("asr_error", "noise", "regional", "digits", "ambiguous"):
        if tag in tags:
            return tag
    return str(expected["accion"])


def _chatter(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text("utf-8").splitlines() if line.strip() and not line.startswith("#")]


def corpora(paths: list[Path]) -> dict[str, tuple[list[Line], list[str], list[str]]]:
    """name -> (commands, chatter, players)."""
    if paths:
        found: dict[str, tuple[list[Line], list[str], list[str]]] = {}
        for path in paths:
            commands, chatter = ([], _chatter(path)) if path.suffix == ".txt" else labelled(path)
            found[path.stem] = (commands, chatter, OUTSIDE_PLAYERS)
        return found
    commands, chatter = team()
    found = {"equipo": (commands, chatter, TEAM_PLAYERS)}
    commands, chatter = labelled(ROOT / "tests" / "corpus" / "familias.jsonl")
    found["familias"] = (commands, chatter, OUTSIDE_PLAYERS)
    if (SHARED / "utterances.jsonl").exists():
        commands, chatter = labelled(SHARED / "utterances.jsonl")
        found["de_afuera"] = (commands, chatter + _chatter(SHARED / "chatter.txt"), OUTSIDE_PLAYERS)
    return found


def as_heard(text: str, known: set[str]) -> str:
    """The line as a grammar-bound recognizer would return it: unknown words become [unk]."""
    return " ".join(w if w in known else "[unk]" for w in tokens(text))


def typed_only(text: str, parser: Parser, players: list[str]) -> bool:
    """Digits, misspellings ("trens", "dies") and words drawn out ("eeeh") are typed,
    never heard: a recognizer writes dictionary words ("eh", "diez")."""
    lex = parser.lexicon
    names = {w for p in players for w in p.split()}
    return any(
        w.isdigit() or parser.drawn_out(w) or parser.spelled_by_ear(w) is not None
        or not (w in lex.vocabulary or w in lex.common or w in names) for w in tokens(text)
    )


def understood(got: dict[str, Any], expected: dict[str, Any]) -> bool:
    return all(got.get(key) == value for key, value in expected.items())


def in_game(lines: list[str], players: list[str], known: set[str] | None) -> list[str]:
    """Chatter said during the bids and during a count, as a recognizer result:
    the lines the game took as a move or that changed it."""
    parser = Parser(players=players)
    lines = [t for t in lines if getattr(parser.parse(t), "hint", None) is None]  # "subo a cinco" is half a move, not chatter
    taken: list[str] = []
    for setup in (["parte ana por la izquierda", "tres trenes"], ["parte ana por la izquierda", "tres trenes", "dudo"]):
        for text in lines:
            game = Game(preset("yocacho"), players)
            session = Session(Referee(game), parser, say=lambda _t: None)  # one parser: its cache keeps the setup lines read
            for line in setup:
                heard = heard_from_line(line)
                assert heard is not None
                session.hear(heard)
            before = game.snapshot()
            said = as_heard(text, known) if known is not None else text
            heard = heard_from_line(json.dumps({"text": said}, ensure_ascii=False))
            if heard is None:
                continue  # only [unk]: vosk reports silence
            reply = session.hear(heard)
            if reply.accepted or game.snapshot() != before:
                taken.append(text)
    return taken


def measure(voice: bool = False, paths: list[Path] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"camino": "voz" if voice else "texto", "corpus": {}}
    for name, (commands, chatter, players) in corpora(paths or []).items():
        parser = Parser(players=players)
        known = {fold(w) for w in grammar.vocabulary(grammar.phrases(players=players))}
        if voice:
            commands = [c for c in commands if not typed_only(c[0], parser, players)]
        misses = []
        per_family: Counter[str] = Counter()
        missed_family: Counter[str] = Counter()
        for text, expected, family in commands:
            said = as_heard(text, known) if voice else text
            got = parser.parse(said).to_json()
            per_family[family] += 1
            if not understood(got, expected):
                misses.append((text, expected, got))
                missed_family[family] += 1
        accepted = []
        for text in chatter:
            said = as_heard(text, known) if voice else text
            got = parser.parse(said).to_json()
            if got["accion"] != "desconocido":
                accepted.append((text, got))
        taken = in_game(chatter, players, known if voice else None)
        result["corpus"][name] = {
            "ordenes": len(commands),
            "entendidas": round(1 - len(misses) / len(commands), 4) if commands else None,
            "charla": len(chatter),
            "charla_como_jugada": round(len(accepted) / len(chatter), 4) if chatter else None,
            "charla_en_partida": round(len(taken) / (2 * len(chatter)), 4) if chatter else None,
            "familias": {f: round(1 - missed_family[f] / n, 3) for f, n in sorted(per_family.items())},
            "fallas": misses,
            "charla_aceptada": accepted,
            "charla_tomada_en_partida": taken,
        }
    return result


if __name__ == "__main__":
    args = sys.argv[1:]
    files = [Path(a) for a in args if not a.startswith("--")]
    result = measure("--voice" in args, files)
    if "--misses" not in args:
        for figures in result["corpus"].values():
            for key in ("fallas", "charla_aceptada", "charla_tomada_en_partida"):
                figures.pop(key)
    print(json.dumps(result, ensure_ascii=False, indent=1))
