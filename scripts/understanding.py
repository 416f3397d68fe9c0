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
lines only a keyboard writes (digits, misspellings). ``--forced`` instead puts
in its place the grammar word that sounds most like it, as vosk's Spanish model
does in grammar mode (it hardly ever says ``[unk]``). Chatter is also played
inside a game, as vosk results, in the middle of the bids and of a count: it
must be refused and leave the game as it was. ``--edges`` measures something
else: of the commands read right as typed, how many are still read the same
with ``[unk]`` said before or after them, and how much chatter stays chatter so.
Prints one JSON object.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import cache
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.referee import Referee, expectation  # noqa: E402
from assistant.rules import Game, preset  # noqa: E402
from assistant.session import Session, heard_from_line  # noqa: E402
from assistant.speech import Parser, grammar  # noqa: E402
from assistant.speech.commands import BidCommand, Command, CountCommand, Reading, Unknown  # noqa: E402
from assistant.speech.normalize import clauses, fold, sounds, tokens  # noqa: E402
from assistant.speech.parser import ACT_AT, ASK_AT, plays_at_once  # noqa: E402

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


Share = tuple[int, int]
"""Of the outside batches, the files ``i::n`` for (i, n): a measurement split over cores (``merged``)."""


def corpora(paths: list[Path], names: set[str] | None = None, share: Share = (0, 1)) -> dict[str, tuple[list[Line], list[str], list[str]]]:
    """name -> (commands, chatter, players); of the default corpora, only ``names`` when given; of the
    outside batches, the ``share`` of their files."""
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
    ajenos: tuple[list[Line], list[str]] = ([], [])
    for path in sorted((ROOT / "tests" / "corpus" / "ajenos").glob("*.jsonl"))[share[0] :: share[1]]:
        commands, chatter = labelled(path)
        ajenos[0].extend(commands)
        ajenos[1].extend(chatter)
    found["ajenos"] = (*ajenos, OUTSIDE_PLAYERS)
    if (SHARED / "utterances.jsonl").exists():
        commands, chatter = labelled(SHARED / "utterances.jsonl")
        found["de_afuera"] = (commands, chatter + _chatter(SHARED / "chatter.txt"), OUTSIDE_PLAYERS)
    return {name: corpus for name, corpus in found.items() if names is None or name in names}


def as_heard(
    text: str, known: AbstractSet[str], forced: dict[str, str] | None = None, said_as: Callable[[str], list[str]] = tokens, pauses: bool = False
) -> str:
    """The line as a grammar-bound recognizer would return it: a word outside the
    grammar becomes [unk], or with ``forced`` the grammar word that sounds most like it;
    ``said_as`` says its words (``Lexicon.said``: a word written short is said whole, "dudo q venga").
    With ``pauses``, the speaker pauses where the writer set a clause apart, and the session
    hears the pause as a comma (``Alternative.phrased``); without, no clause is set apart."""
    if pauses:
        return ", ".join(heard for piece, _asked in clauses(text) if (heard := as_heard(piece, known, forced, said_as)))
    said = said_as(text)
    if forced is None:
        return " ".join(w if w in known else "[unk]" for w in said)
    return " ".join(w if w in known else nearest_by_sound(w, forced) for w in said)


@cache
def grammar_words(players: tuple[str, ...]) -> frozenset[str]:
    """The words the recognizer grammar lists for these players (built once per table: the
    batches written outside share one, and building the grammar is most of a measurement)."""
    return frozenset(fold(w) for w in grammar.vocabulary(grammar.phrases(players=list(players))))


@cache
def sound_index(known: frozenset[str]) -> dict[str, str]:
    """How each grammar word sounds -> the word (the first, alphabetically, of those that sound alike)."""
    index: dict[str, str] = {}
    for word in sorted(known):
        if word.isalpha():
            index.setdefault(sounds(word), word)
    return index


def nearest_by_sound(word: str, index: dict[str, str]) -> str:
    """The grammar word that sounds most like ``word`` (a digit or a word of no letters stays)."""
    if not word.isalpha():
        return word
    found = process.extractOne(sounds(word), list(index), scorer=fuzz.ratio)
    return index[found[0]] if found else word


def typed_only(text: str, parser: Parser, players: list[str]) -> bool:
    """Digits, misspellings ("trens", "dies") and words drawn out ("eeeh") are typed,
    never heard: a recognizer writes dictionary words ("eh", "diez")."""
    lex = parser.lexicon
    names = {w for p in players for w in p.split()}
    return any(
        w.isdigit() or parser.drawn_out(w) or parser.spelled_by_ear(w) is not None
        or not (w in lex.vocabulary or w in lex.common or w in names) for w in tokens(text)
    )


STANDING = frozenset({"dados", "marcador"})
"""A question about one named player's dice or standing ("¿cuántos dados le quedan a la
ana?") is answered the same way whichever of the two it is labelled (Referee._query: her
standing), so either label is right for it."""


def understood(got: dict[str, Any], expected: dict[str, Any]) -> bool:
    if got.get("accion") == "consulta" and got.get("jugador") and got.get("que") in STANDING and expected.get("que") in STANDING:
        expected = {**expected, "que": got["que"]}
    return all(got.get(key) == value for key, value in expected.items())


def in_game(lines: list[str], players: list[str], heard_as: Callable[[str], str], parser: Parser | None = None) -> list[str]:
    """Chatter said during the bids and during a count, as a recognizer result:
    the lines the game took as a move or that changed it. A question the referee
    asks back ("¿Ocho cuadras?") changes nothing; the line is taken only if the
    game changed or the line was accepted as a move. ``parser``: one that has read
    the lines already (its cache saves reading them again), for these players."""
    parser = parser or Parser(players=players, cache_size=MEASURED)
    lines = [t for t in lines if getattr(parser.parse(t), "hint", None) is None]  # "subo a cinco" is half a move, not chatter
    # A line with nothing in it the session could take (no reading sure enough to act on or to ask
    # about, and parse() finds no move) cannot change a game: a game is played for every line that
    # has one, and for one in INERT_SAMPLE of the rest, which checks that premise on every run.
    played = [t for i, t in enumerate(lines) if i % INERT_SAMPLE == 0 or not _inert(parser, heard_as(t))]
    taken: list[str] = []
    for setup in (["parte ana por la izquierda", "tres trenes"], ["parte ana por la izquierda", "tres trenes", "dudo"]):
        for text in played:
            game = Game(preset("yocacho"), players)
            session = Session(Referee(game), parser, say=lambda _t: None)  # one parser: its cache keeps the setup lines read
            for line in setup:
                heard = heard_from_line(line)
                assert heard is not None
                session.hear(heard)
            before = game.snapshot()
            heard = heard_from_line(json.dumps(as_vosk_result(heard_as(text)), ensure_ascii=False))
            if heard is None:
                continue  # only [unk]: vosk reports silence
            reply = session.hear(heard)
            if game.snapshot() != before or (reply.accepted and reply.events):
                taken.append(text)
    return taken


MEASURED = 1 << 16
"""Lines a measuring parser keeps the readings of: every line of a measurement is read more than once."""
INERT_SAMPLE = 8
"""Of the chatter lines the parser finds nothing in, one in this many is still played in a game."""


def _inert(parser: Parser, text: str) -> bool:
    """Is there nothing in ``text`` a session could take: no reading at ``ASK_AT`` or above, and no move parsed?"""
    return isinstance(parser.parse(text), Unknown) and all(r.certainty < ASK_AT for r in parser.readings(text))


MOMENT = {"cuenta": "cuenta", "cuenta_jugador": "cuenta", "mano": "cuenta", "si": "si_no", "no": "si_no", "parte": "inicio",
          "otra": "fin", "terminar": "fin"}
"""The moment a command is said in, by its label (the rest: during the bids)."""
EXPECTING = {"apuestas": {"jugada"}, "cuenta": {"cuenta", "mano"}, "si_no": {"si_no"}, "inicio": {"parte", "jugada"}, "fin": {"fin"}}
"""What the referee waits for in each moment (``Referee.expecting``)."""


def chosen(parser: Parser, text: str, waiting: set[str]) -> Reading | None:
    """The reading the session takes in a moment waiting for ``waiting`` (``Session.choose_reading``,
    with what the moment expects standing in for the game's legality): the whole readings first,
    a weak one ("tengo un as y una quina": a hand, not a bid) only when the moment expects its kind;
    a loose reading only when no whole one stands, a weak one again only in its moment."""
    readings = [r for r in parser.readings(text) if r.certainty >= ASK_AT]
    for sure in (True, False):
        if not sure and any(r.certainty == 1.0 and not r.weak for r in readings):
            break
        heard_as = [r for r in readings if (r.certainty == 1.0) == sure]
        for reading in heard_as:
            if sure and reading.explained < heard_as[0].explained:
                break  # never a reading that explains less of the line than one the game refused
            if reading.weak and expectation(reading.command) not in waiting:
                continue
            if not _taken_in(reading.command, waiting):
                continue  # the game refuses it now, and the session tries the next reading ("cinco ases, señorita eli")
            return reading
    return None


def _taken_in(command: Command, waiting: AbstractSet[str]) -> bool:
    """Would a moment waiting for ``waiting`` take a move of ``command``'s kind (standing in for
    ``Referee.accepts``)? Questions, undos and penalties at any moment; a bid during a count, as
    the count it says ("había cuatro trenes"); a bare number during the bids, as the bid's face
    raised to it ("hay cuatro": "Cuatro trenes")."""
    kind = expectation(command)
    if "jugada" in waiting and isinstance(command, CountCommand):
        return True
    return kind == "otra" or kind in waiting or ("cuenta" in waiting and isinstance(command, BidCommand))


def in_its_moment(parser: Parser, text: str, expected: dict[str, Any]) -> str:
    """How the referee takes a command said in the moment it belongs to: "actuada" (played,
    with its echo), "preguntada" (asked back: "¿Ocho cuadras?"), or "perdida" (missed or
    read as something else)."""
    waiting = EXPECTING[MOMENT.get(expected["accion"], "apuestas")]
    reading = chosen(parser, text, waiting)
    if reading is None:
        return "perdida"
    got = reading.command.to_json()
    if "cuenta" in waiting and isinstance(reading.command, BidCommand):  # "había cuatro trenes" after a reveal: a count
        named = reading.command.player or reading.command.to
        got = {"accion": "cuenta_jugador", "jugador": named, "cantidad": got["cantidad"]} if named else {"accion": "cuenta", "cantidad": got["cantidad"]}
    if "si_no" in waiting and got == {"accion": "deshacer"}:
        got = {"accion": "no"}  # "no, no era eso" asked: the referee drops the question, as a no does (``Referee._handle``)
    if not understood(got, expected):
        return "perdida"
    return "actuada" if plays_at_once(reading) else "preguntada"


def thresholds(paths: list[Path] | None = None, path: str = "texto") -> dict[str, Any]:
    """The trade-off behind ``ACT_AT``: for each threshold, of the commands written outside
    the team (``ajenos``), the share played at once and the share played or asked about;
    of their chatter, said during the bids and during a count, the share played and the
    share asked about (a nuisance, never a change)."""
    commands, chatter, players = corpora(paths or [])["ajenos"] if not paths else next(iter(corpora(paths).values()))
    parser = Parser(players=players, cache_size=MEASURED)
    known = grammar_words(tuple(players)) if path != "texto" else frozenset()
    index = sound_index(known) if path == "forzada" else None
    heard = (lambda t: t) if path == "texto" else (lambda t: as_heard(t, known, index, parser.lexicon.said))
    if path != "texto":
        commands = [c for c in commands if not typed_only(c[0], parser, players)]
    rows = []
    for act_at in (ASK_AT, 0.6, ACT_AT, 0.7, 0.75, 0.8, 0.9, 0.95, 1.0):
        played = asked = 0
        for text, expected, _family in commands:
            waiting = EXPECTING[MOMENT.get(expected["accion"], "apuestas")]
            reading = chosen(parser, heard(text), waiting)
            if reading is not None and in_its_moment(parser, heard(text), expected) != "perdida":
                played += plays_at_once(reading, act_at)
                asked += not plays_at_once(reading, act_at)
        moved = queried = 0
        for text in chatter:
            for waiting in (EXPECTING["apuestas"], EXPECTING["cuenta"]):
                reading = chosen(parser, heard(text), waiting)
                if reading is not None:
                    moved += plays_at_once(reading, act_at)
                    queried += not plays_at_once(reading, act_at)
        rows.append({
            "actuar_desde": act_at, "ordenes_al_tiro": round(played / len(commands), 4),
            "ordenes_al_tiro_o_preguntadas": round((played + asked) / len(commands), 4),
            "charla_jugada": round(moved / (2 * len(chatter)), 4), "charla_preguntada": round(queried / (2 * len(chatter)), 4),
        })
    return {"camino": path, "ordenes": len(commands), "charla": len(chatter), "umbrales": rows}


def as_vosk_result(text: str) -> dict[str, Any]:
    """``text`` as vosk's ``Result()`` gives it in grammar mode: every word at full
    confidence (vosk #1339: a word forced onto the grammar is as sure as a right one),
    so the session's doubts about a faint reading never hide a chatter line taken."""
    words = [w for w in text.split() if w != "[unk]"] if text.replace("[unk]", "").strip() else []
    # (a comma is a pause, longer than the silence between words and shorter than the one that ends the utterance)
    found: list[dict[str, Any]] = []
    said: list[str] = []
    at = 0.0
    for w in text.split():
        if w.rstrip(","):
            said.append(w.rstrip(","))
            found.append({"word": said[-1], "conf": 1.0, "start": round(at, 2), "end": round(at + 0.3, 2)})
            at += 0.4
        at += SIMULATED_PAUSE if w.endswith(",") else 0.0
    return {"result": found, "text": " ".join(said)} if words else {"text": ""}


SIMULATED_PAUSE = 0.2
"""Seconds a comma adds to the silence between two words in a simulated vosk result (0.3 s in all: a pause, ``PAUSE``)."""


PATHS = ("texto", "voz", "forzada")
"""Typed; heard with words outside the grammar as [unk]; heard with them forced onto the nearest grammar word."""


def _parser(name: str, players: list[str], parsers: dict[str, Parser] | None) -> Parser:
    """A parser for corpus ``name``: the one in ``parsers`` when given (its cache keeps what was read for
    another measurement of the same lines), else a new one."""
    if parsers is None:
        return Parser(players=players, cache_size=MEASURED)
    if name not in parsers:
        parsers[name] = Parser(players=players, cache_size=MEASURED)
    return parsers[name]


def measure(
    path: str = "texto", paths: list[Path] | None = None, names: set[str] | None = None, parsers: dict[str, Parser] | None = None, share: Share = (0, 1),
    pauses: bool = False,
) -> dict[str, Any]:
    result: dict[str, Any] = {"camino": path, "corpus": {}}
    for name, (commands, chatter, players) in corpora(paths or [], names, share).items():
        parser = _parser(name, players, parsers)
        known = grammar_words(tuple(players)) if path != "texto" else frozenset()
        index = sound_index(known) if path == "forzada" else None

        def heard_as(
            text: str, known: AbstractSet[str] = known, index: dict[str, str] | None = index, said_as: Callable[[str], list[str]] = parser.lexicon.said
        ) -> str:
            return text if path == "texto" else as_heard(text, known, index, said_as, pauses)

        if path != "texto":
            commands = [c for c in commands if not typed_only(c[0], parser, players)]
        misses = []
        per_family: Counter[str] = Counter()
        missed_family: Counter[str] = Counter()
        moment: Counter[str] = Counter()
        for text, expected, family in commands:
            moment[in_its_moment(parser, heard_as(text), expected)] += 1
            got = parser.parse(heard_as(text)).to_json()
            per_family[family] += 1
            if not understood(got, expected):
                misses.append((text, heard_as(text), expected, got))
                missed_family[family] += 1
        accepted = []
        for text in chatter:
            got = parser.parse(heard_as(text)).to_json()
            if got["accion"] != "desconocido":
                accepted.append((text, heard_as(text), got))
        taken = in_game(chatter, players, heard_as, parser)
        result["corpus"][name] = {
            "ordenes": len(commands),
            "entendidas": round(1 - len(misses) / len(commands), 4) if commands else None,
            "en_su_momento": round((moment["actuada"] + moment["preguntada"]) / len(commands), 4) if commands else None,
            "actuadas_al_tiro": round(moment["actuada"] / len(commands), 4) if commands else None,
            "charla": len(chatter),
            "charla_como_jugada": round(len(accepted) / len(chatter), 4) if chatter else None,
            "charla_en_partida": round(len(taken) / (2 * len(chatter)), 4) if chatter else None,
            "familias": {f: round(1 - missed_family[f] / n, 3) for f, n in sorted(per_family.items())},
            "fallas": misses,
            "charla_aceptada": accepted,
            "charla_tomada_en_partida": taken,
        }
    return result


def _at_the_ends(i: int, text: str, alternate: bool) -> tuple[str, ...]:
    """``text`` with "[unk]" said before it and after it; ``alternate``: at one end only, before for even ``i``."""
    both = (f"[unk] {text}", f"{text} [unk]")
    return (both[i % 2],) if alternate else both


def edges(
    paths: list[Path] | None = None, names: set[str] | None = None, alternate: bool = False, parsers: dict[str, Parser] | None = None, share: Share = (0, 1)
) -> dict[str, Any]:
    """Commands read right as typed in their moment, read again with "[unk]" said before
    and after them: the share still taken (played or asked about) the same (both ways);
    chatter with "[unk]" at either end that stays chatter. ``alternate``: each line read
    with "[unk]" at one end only, before and after by turns (every line once, half the reading)."""
    result: dict[str, Any] = {"camino": "bordes", "corpus": {}}
    ends = 1 if alternate else 2  # how many times each line is read
    for name, (commands, chatter, players) in corpora(paths or [], names, share).items():
        parser = _parser(name, players, parsers)
        right = [(t, e) for t, e, _f in commands if in_its_moment(parser, t, e) != "perdida"]
        lost = []
        for i, (text, expected) in enumerate(right):
            for said in _at_the_ends(i, text, alternate):
                if in_its_moment(parser, said, expected) == "perdida":
                    lost.append((said, expected, parser.parse(said).to_json()))
        moved = []
        for i, text in enumerate(chatter):
            for said in _at_the_ends(i, text, alternate):
                got = parser.parse(said).to_json()
                if got["accion"] != "desconocido":
                    moved.append((said, got))
        result["corpus"][name] = {
            "ordenes_bien_leidas": len(right),
            "charla": len(chatter),
            "siguen_igual": round(1 - len(lost) / (ends * len(right)), 4) if right else None,
            "charla_como_jugada": round(len(moved) / (ends * len(chatter)), 4) if chatter else None,
            "fallas": lost,
            "charla_aceptada": moved,
        }
    return result


def every_path(names: set[str], share: Share = (0, 1)) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """``measure("texto")``, ``edges`` (each line with "[unk]" at one end) and the voice path, one parser
    per corpus for all three: the edges begin by reading every command as typed, which the typed path
    has just read, and most lines are heard as typed (every word in the grammar), so the voice path
    finds them read (the outside batches' voice path: 144 s alone, 49 s after the typed path)."""
    parsers: dict[str, Parser] = {}
    typed, edged = measure("texto", None, names, parsers, share), edges(None, names, True, parsers, share)
    return typed, edged, measure("voz", None, names, parsers, share)


def merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Measurements of one path over shares of the same corpora (``every_path`` on each core), as one:
    counts added, shares worked out again from the lines missed and taken, the share in their moment
    weighted by each part's commands."""
    out: dict[str, Any] = {"camino": results[0]["camino"], "corpus": {}}
    for name in dict.fromkeys(n for r in results for n in r["corpus"]):
        parts = [r["corpus"][name] for r in results if name in r["corpus"]]
        lists = {key: [x for p in parts for x in p[key]] for key in parts[0] if isinstance(parts[0][key], list)}
        chatter = sum(p["charla"] for p in parts)
        if "siguen_igual" in parts[0]:  # the edges: each line read once (``alternate``)
            right = sum(p["ordenes_bien_leidas"] for p in parts)
            out["corpus"][name] = {
                "ordenes_bien_leidas": right, "charla": chatter, **lists,
                "siguen_igual": round(1 - len(lists["fallas"]) / right, 4) if right else None,
                "charla_como_jugada": round(len(lists["charla_aceptada"]) / chatter, 4) if chatter else None,
            }
            continue
        commands = sum(p["ordenes"] for p in parts)
        out["corpus"][name] = {
            "ordenes": commands, "charla": chatter, **lists,
            "entendidas": round(1 - len(lists["fallas"]) / commands, 4) if commands else None,
            **{key: round(sum(p[key] * p["ordenes"] for p in parts) / commands, 4) if commands else None for key in ("en_su_momento", "actuadas_al_tiro")},
            "charla_como_jugada": round(len(lists["charla_aceptada"]) / chatter, 4) if chatter else None,
            "charla_en_partida": round(len(lists["charla_tomada_en_partida"]) / (2 * chatter), 4) if chatter else None,
            # (a family's share is kept from a single part: its lines may lie in both halves, counts not kept)
            **({"familias": parts[0]["familias"]} if len(parts) == 1 else {}),
        }
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    files = [Path(a) for a in args if not a.startswith("--")]
    path = "forzada" if "--forced" in args else "voz" if "--voice" in args else "texto"
    if "--umbrales" in args:
        print(json.dumps(thresholds(files, path), ensure_ascii=False, indent=1))
        raise SystemExit(0)
    result = edges(files) if "--edges" in args else measure(path, files, pauses="--pausas" in args)
    if "--misses" not in args:
        for figures in result["corpus"].values():
            for key in ("fallas", "charla_aceptada", "charla_tomada_en_partida"):
                figures.pop(key, None)
    print(json.dumps(result, ensure_ascii=False, indent=1))
