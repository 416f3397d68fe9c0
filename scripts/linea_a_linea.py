"""What the parser makes of every corpus line, one by one, and what a change did to each.

    .venv/bin/python scripts/linea_a_linea.py foto OUT.json [--root DIR] [--voice] [FILE ...]
    .venv/bin/python scripts/linea_a_linea.py diff BEFORE.json AFTER.json

``foto`` reads every line of the given corpora (by default the team's families and every
outside batch, ``tests/corpus/ajenos/*.jsonl``) with the parser of ``--root`` (a worktree of
another commit: the baseline) and writes each line's status: a command is "ok" (read right
by ``dudo interpretar``), "momento" (taken in its moment only) or "perdida"; chatter is
"fuera" or the move it was taken for. ``--voice`` reads each line as the recognizer would
return it (every word outside the grammar as ``[unk]``). ``diff`` lists the lines whose status
changed, gained (+), lost (-) or changed among wrong ones (~), and counts them: the check every
change to the lexicon or the parser gets before it lands, over every line ever kept.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def _measuring(root: Path) -> ModuleType:
    """``scripts/understanding.py`` of ``root``, which puts ``root``'s package first on the path."""
    spec = importlib.util.spec_from_file_location("understanding_at_root", root / "scripts" / "understanding.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _statuses(job: tuple[str, str, bool]) -> dict[str, str]:
    root, file, voice = job
    os.environ["DUDO_LEXICO"] = str(Path(root) / "lexicon" / "es.toml")  # the lexicon of ``root``, not the installed one
    u = _measuring(Path(root))
    path = Path(file)
    (commands, chatter, players), = u.corpora([path]).values()
    parser = u.Parser(players=players, cache_size=u.MEASURED)
    known = u.grammar_words(tuple(players)) if voice else frozenset()

    def heard(text: str) -> str:
        return u.as_heard(text, known, None, parser.lexicon.said) if voice else text

    out: dict[str, str] = {}
    for i, (text, expected, _family) in enumerate(commands):
        if voice and u.typed_only(text, parser, players):
            continue
        said = heard(text)
        if u.understood(parser.parse(said).to_json(), expected):
            status = "ok"
        else:
            status = "momento" if u.in_its_moment(parser, said, expected) != "perdida" else "perdida"
        out[f"{path.name}\tc{i}\t{text}"] = status
    for i, text in enumerate(chatter):
        got = parser.parse(heard(text)).to_json()
        out[f"{path.name}\tx{i}\t{text}"] = "fuera" if got["accion"] == "desconocido" else json.dumps(got, ensure_ascii=False)
    return out


def foto(args: list[str]) -> None:
    out = Path(args[0])
    root = Path(args[args.index("--root") + 1]).resolve() if "--root" in args else HERE
    skip = {args.index("--root") + 1} if "--root" in args else set()
    files = [a for i, a in enumerate(args[1:], 1) if not a.startswith("--") and i not in skip]
    if not files:
        files = [str(HERE / "tests" / "corpus" / "familias.jsonl"), *map(str, sorted((HERE / "tests" / "corpus" / "ajenos").glob("*.jsonl")))]
    statuses: dict[str, str] = {}
    with ProcessPoolExecutor() as pool:
        for part in pool.map(_statuses, [(str(root), f, "--voice" in args) for f in files]):
            statuses.update(part)
    out.write_text(json.dumps(statuses, ensure_ascii=False, indent=0), "utf-8")
    print(f"{len(statuses)} lines -> {out}")


def _rank(status: str) -> int:
    return {"ok": 2, "momento": 1, "fuera": 2}.get(status, 0)


def diff(before_path: str, after_path: str) -> None:
    before: dict[str, Any] = json.loads(Path(before_path).read_text("utf-8"))
    after: dict[str, Any] = json.loads(Path(after_path).read_text("utf-8"))
    counts = {"+": 0, "-": 0, "~": 0}
    for key in sorted(before.keys() & after.keys()):
        old, new = before[key], after[key]
        if old == new:
            continue
        mark = "+" if _rank(new) > _rank(old) else "-" if _rank(new) < _rank(old) else "~"
        counts[mark] += 1
        file, _i, text = key.split("\t", 2)
        print(f"{mark} {file}: {text!r}: {old} -> {new}")
    print(f"gained {counts['+']}, lost {counts['-']}, changed {counts['~']}; {len(before.keys() ^ after.keys())} lines in one only")


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["foto"]:
        foto(argv[1:])
    elif argv[:1] == ["diff"] and len(argv) == 3:
        diff(argv[1], argv[2])
    else:
        print(__doc__)
        raise SystemExit(2)
