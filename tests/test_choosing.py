"""Choosing among the recognizer's readings with what the game knows, and
replaying recognizer results typed as JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.session import MARGIN, Session, heard_from_line, script_lines, simulate
from assistant.speech import Parser
from assistant.voice.heard import Heard, from_vosk
from tests.test_cli import dudo


def nbest(*readings: tuple[str, float]) -> Heard:
    heard = from_vosk({"alternatives": [{"text": text, "confidence": score} for text, score in readings]})
    assert heard is not None
    return heard


def table(players: tuple[str, ...] = ("ana", "beto", "carla")) -> Session:
    game = Game(preset("yocacho"), list(players))
    return Session(Referee(game), Parser(players=game.players), say=lambda _t: None)


def test_a_legal_reading_close_to_an_illegal_best_is_taken() -> None:
    session = table()
    for line in ("parte ana", "tres trenes"):
        session.hear(Heard.from_text(line))
    reply = session.hear(nbest(("dos trenes", 210.0), ("cuatro trenes", 208.0)))
    assert reply.accepted and reply.text == "Cuatro trenes. Sigue carla."
    assert session.steps[-1].chosen == 1 and session.steps[-1].text == "cuatro trenes"


def test_a_legal_reading_far_below_is_not_taken_and_the_best_is_explained() -> None:
    session = table()
    for line in ("parte ana", "tres trenes"):
        session.hear(Heard.from_text(line))
    before = session.referee.game.snapshot()
    reply = session.hear(nbest(("dos trenes", 210.0), ("cuatro trenes", 210.0 - MARGIN - 0.5)))
    assert not reply.accepted and reply.text.startswith("No alcanza: cuatro de cualquier pinta")
    assert session.referee.game.snapshot() == before and session.steps[-1].chosen == 0


def test_an_acceptable_best_is_taken_even_with_rivals_and_chatter_is_skipped() -> None:
    session = table()
    session.hear(Heard.from_text("parte ana"))
    reply = session.hear(nbest(("tres trenes", 100.0), ("tres quinas", 99.9)))
    assert reply.text == "Tres trenes. Sigue beto." and session.steps[-1].chosen == 0
    reply = session.hear(nbest(("tengo sed", 100.0), ("dudo", 98.0)))
    assert reply.accepted and reply.text.startswith("Beto duda los tres trenes de ana.")


def test_a_step_with_no_way_back_chosen_from_a_lower_reading_is_confirmed_first() -> None:
    session = table(("ana", "beto"))
    session.hear(Heard.from_text("parte ana"))
    session.referee.game.seats["beto"].dice = 1
    for line in ("tres trenes", "dudo"):
        session.hear(Heard.from_text(line))
    before = session.referee.game.snapshot()
    # "hay siete" cannot be (six dice on the table); "hay cuatro" can, and puts beto out
    reply = session.hear(nbest(("hay siete", 50.0), ("hay cuatro", 49.0)))
    assert reply.text == "Entendí cuatro y beto queda fuera. ¿Es así? Sí o no."
    assert session.referee.game.snapshot() == before
    assert session.hear(Heard.from_text("sí")).text.startswith("Había cuatro trenes, bastaban tres.")


def test_a_yes_is_chosen_when_a_question_waits_for_it() -> None:
    session = table(("ana", "beto"))
    session.hear(Heard.from_text("parte ana"))
    session.referee.awaiting = lambda: session.referee.handle(session.parser.parse("dos trenes"))
    reply = session.hear(nbest(("tres", 10.0), ("sí", 9.0)))
    assert session.steps[-1].chosen == 1 and reply.text == "Dos trenes. Sigue beto."


def test_json_lines_are_recognizer_results_and_anything_else_is_text() -> None:
    single = heard_from_line('{"text": "dudo", "result": [{"word": "dudo", "conf": 0.4, "start": 1.0, "end": 1.3}]}')
    assert single is not None and not single.typed and single.confidence == 0.4
    many = heard_from_line('{"alternatives": [{"text": "calzo", "confidence": 3.5}]}')
    assert many is not None and many.text == "calzo" and many.confidence == 1.0
    logged = heard_from_line(json.dumps({"vosk": {"alternatives": [{"text": "paso", "confidence": 1.0}]}, "respuesta": "x"}))
    assert logged is not None and logged.text == "paso"
    assert heard_from_line('{"text": ""}') is None  # vosk heard silence
    for typed in ('{"hola": 1}', "{tres trenes", "tres trenes"):
        heard = heard_from_line(typed)
        assert heard is not None and heard.typed and heard.text == typed


def test_simular_and_jugar_texto_take_vosk_results_through_the_same_path(tmp_path: Path) -> None:
    script = tmp_path / "noche.txt"
    lines = [
        "parte ana",
        "tres trenes",
        json.dumps({"alternatives": [{"text": "dos trenes", "confidence": 210.0}, {"text": "cuatro trenes", "confidence": 208.0}]}),
        json.dumps({"text": "dudo", "result": [{"word": "dudo", "conf": 0.3, "start": 0.0, "end": 0.4}]}),
        json.dumps({"text": "dudo", "result": [{"word": "dudo", "conf": 0.95, "start": 0.0, "end": 0.4}]}),
    ]
    script.write_text("\n".join(lines) + "\n", "utf-8")
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    steps = simulate(game, script_lines(script))["pasos"]
    assert [s["entrada"] for s in steps] == ["parte ana", "tres trenes", "cuatro trenes", "dudo", "dudo"]
    assert [s["aceptada"] for s in steps] == [True, True, True, False, True]
    assert steps[3]["respuesta"] == "¿Cómo? Repite, por favor."  # a low-confidence single best is not acted on
    result = dudo("simular", str(script), "--reglas", "yocacho", "--jugadores", "ana,beto,carla", "--json")
    assert [s["respuesta"] for s in json.loads(result.stdout)["pasos"]] == [s["respuesta"] for s in steps]
    played = dudo("jugar", "--texto", "--jugadores", "ana,beto,carla", "--reglas", "yocacho", stdin="\n".join(lines) + "\n",
                  env={"DUDO_DATOS": str(tmp_path / "datos")})
    assert played.stdout.splitlines()[1:] == [s["respuesta"] for s in steps]


def said_on(text: str) -> Heard:
    """What the listener gives when a speaker goes on right after a call it ended early."""
    heard = nbest((text, 100.0))
    return Heard(heard.alternatives, follows=True, raw=heard.raw)


def test_a_self_correction_said_on_after_the_short_silence_replaces_the_bid() -> None:
    """"cinco cuadras… no, seis cuadras": the first part was taken at the short
    silence; what the same speaker said on was the next player's bid of six."""
    session = table()
    for line in ("parte ana", "cinco cuadras"):
        session.hear(Heard.from_text(line))
    reply = session.hear(said_on("no seis cuadras"))
    game = session.referee.game
    assert reply.accepted and reply.text == "Seis cuadras. Sigue beto."
    assert game.bid is not None and (game.bid.quantity, game.bid.face) == (6, 4) and game.turn == "beto"
    assert [type(a).__name__ for a in game.history] == ["Start", "Raise"] and session.steps[-1].text == "cinco cuadras no seis cuadras"
    # not said on, the same words are the next player's bid, as before
    session = table()
    for line in ("parte ana", "cinco cuadras", "no seis cuadras"):
        session.hear(Heard.from_text(line))
    assert session.referee.game.turn == "carla"


def test_what_follows_but_corrects_nothing_is_its_own_line() -> None:
    """A call said on is the next player's call; a correction the game would refuse changes nothing."""
    session = table()
    for line in ("parte ana", "cinco cuadras"):
        session.hear(Heard.from_text(line))
    reply = session.hear(said_on("dudo"))
    assert reply.accepted and reply.text.startswith("Beto duda las cinco cuadras de ana")
    session = table()
    for line in ("parte ana", "cinco cuadras"):
        session.hear(Heard.from_text(line))
    reply = session.hear(said_on("no dos cuadras"))  # ana corrects her opening down: any opening is legal
    game = session.referee.game
    assert reply.accepted and game.bid is not None and game.bid.quantity == 2 and game.turn == "beto"
    session = table()
    for line in ("parte ana", "tres trenes", "cinco cuadras"):
        session.hear(Heard.from_text(line))
    before = session.referee.game.snapshot()
    reply = session.hear(said_on("no dos trenes"))  # "cuatro… no, dos trenes" from beto: too low either way
    assert not reply.accepted and session.referee.game.snapshot() == before


def test_a_line_said_on_is_logged_as_such_and_replays_the_same(tmp_path: Path) -> None:
    from assistant.heardlog import HeardLog

    session = table()
    log = tmp_path / "p.reconocedor.jsonl"
    session.referee.observers.append(HeardLog(log))
    for heard in (nbest(("parte ana", 100.0)), nbest(("cinco cuadras", 100.0)), said_on("no seis cuadras")):
        session.hear(heard)
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert [line.get("sigue", False) for line in lines] == [False, False, True]
    replayed = simulate(Game(preset("yocacho"), ["ana", "beto", "carla"]), script_lines(log))
    assert [p["respuesta"] for p in replayed["pasos"]] == [s.reply.text for s in session.steps]


def test_a_move_said_first_with_a_clause_of_its_own_after_it_is_asked_in_its_moment() -> None:
    """A line heard has no comma: "cuatro trenes calentando motores" may be a bid and a remark, or
    one phrase. During the bids the referee asks ("¿Cuatro trenes?") and a yes plays it; after a
    reveal it is no count; said of a thing done to the dice named ("ocho cuadras caminé"), nothing."""
    session = table()
    session.hear(Heard.from_text("parte ana"))
    before = session.referee.game.snapshot()
    reply = session.hear(Heard.from_text("cuatro trenes calentando motores"))
    assert reply.text == "¿Cuatro trenes?" and session.referee.game.snapshot() == before
    assert session.hear(Heard.from_text("sí")).text == "Cuatro trenes. Sigue beto."
    reply = session.hear(Heard.from_text("dudo colega esa pelota venía afuera"))
    assert reply.text == "¿Beto duda?"
    assert session.hear(Heard.from_text("sí")).text.startswith("Beto duda los cuatro trenes de ana.")
    counting = session.referee.game.snapshot()
    for line in ("cinco trenes calentando motores", "ocho cuadras caminé para llegar"):
        session.hear(Heard.from_text(line))
        assert session.referee.game.snapshot() == counting, line


def test_the_measure_in_its_moment_takes_what_the_session_takes() -> None:
    """``scripts/understanding.chosen`` stands in for the session when it measures a corpus line "in its
    moment": a reading of a kind the moment refuses (a calzo during a count, a count during the bids)
    is passed over for the next, as the session's trial on the referee does."""
    from scripts.understanding import EXPECTING, chosen

    session = table()
    session.hear(Heard.from_text("parte ana"))
    session.hear(Heard.from_text("tres trenes"))
    # (whose turn it is the measure cannot know: the lines here are said by anyone, or of the count)
    common = ("cuatro trenes", "hay cuatro", "carla tiene dos", "cinco ases señorita carla", "dudo colega esa pelota venía afuera")
    for moment, step, lines in (("apuestas", None, common), ("cuenta", "dudo", (*common, "la carla calza todas las veces"))):
        if step is not None:
            session.hear(Heard.from_text(step))
            assert session.referee.game.phase == "cuenta"
        for line in lines:
            measured = chosen(session.parser, line, EXPECTING[moment])
            _i, taken = session.choose_reading(Heard.from_text(line))
            assert (measured and measured.command) == (taken and taken.command), (moment, line, measured, taken)
