"""The topic model: a loose move said among talk about something else is vetoed, a move said
whole never asks it, and the model shipped is the one the lexicon and corpora train today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.speech import Parser, topic
from assistant.speech.parser import TALK_AT, TOPIC_CUE
from scripts.entrenar_tema import digest

PLAYERS = ["ana", "beto", "carla", "diego", "eli", "fran"]




@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(players=PLAYERS)


@pytest.fixture(scope="module")
def blind() -> Parser:
    return Parser(players=PLAYERS, topic=False)


def test_the_shipped_model_is_trained_on_todays_lexicon_and_corpora() -> None:
    """Any change to a corpus line, to the lexicon or to how the parser sorts words changes what
    the model should be: train it again (``scripts/entrenar_tema.py``) and ship the new ``lexicon/tema.json``."""
    model = topic.load(None)
    assert model is not None, "lexicon/tema.json falta: córrelo con scripts/entrenar_tema.py"
    assert model.trained_on == digest(), "el modelo de tema está viejo: córrelo de nuevo con scripts/entrenar_tema.py"


def test_the_digest_sees_how_the_parser_sorts_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only the lexicon and the lines: a change to ``Parser.topic_words`` makes the model stale too."""
    before = digest()
    monkeypatch.setattr(Parser, "topic_words", lambda self, raw: ["<ruido>" for _ in raw])
    assert digest() != before


# Talk around a move-shaped stretch, from batches written after the model was trained
# (b190-b205, measured on arrival before anything was taught from them).
TALK = [
    "la señora marta hizo cena pa' seis y llegamos doce, jaja",
    "el día que el metro llegue a tiempo yo calzo siempre",
    "hay que confirmar las citas por instagram, que la gente se olvida",
    "yo no juego más si el diego sigue pasando cada dos rondas",
]


@pytest.mark.parametrize("line", TALK)
def test_talk_around_a_loose_move_is_vetoed_by_its_topic(line: str, parser: Parser, blind: Parser) -> None:
    assert parser._topic is not None and parser._topic.chatter_odds(parser.topic_words(parser.lexicon.said(line))) >= TALK_AT
    assert blind.parse(line).to_json()["accion"] != "desconocido"  # read loose without the model
    assert parser.parse(line).to_json()["accion"] == "desconocido"
    assert any(TOPIC_CUE in r.cues for r in parser.readings(line))


@pytest.mark.parametrize(
    "line, expected",
    [
        ("tres trenes", {"accion": "apuesta", "cantidad": 3, "pinta": 3}),
        ("dudo", {"accion": "dudo"}),
        ("calzo", {"accion": "calzo"}),
        ("la ana tenía dos", {"accion": "cuenta_jugador", "jugador": "ana", "cantidad": 2}),
    ],
)
def test_a_move_said_whole_never_asks_the_model(line: str, expected: dict[str, object], parser: Parser) -> None:
    assert parser.parse(line).to_json() == expected


@pytest.mark.parametrize(
    "line, accion",
    [
        ("dudo, como cuando el jefe dice que el tren viene en dos minutos", "dudo"),
        ("obligo, igual que el jefe cuando nos manda de noche", "obligo"),
        ("ya, calzo, y si no, hago la cocina mañana", "calzo"),
    ],
)
def test_a_call_of_ones_own_that_opens_the_line_stands_whatever_the_remark_after_it(line: str, accion: str, parser: Parser) -> None:
    """Set apart by a comma (a pause) or heard run together, as the recognizer returns it."""
    assert parser._topic is not None and parser._topic.chatter_odds(parser.topic_words(parser.lexicon.said(line))) >= TALK_AT
    assert parser.parse(line).to_json()["accion"] == accion
    assert parser.parse(line.replace(",", "")).to_json()["accion"] == accion


def test_any_other_move_said_first_stands_only_set_apart(parser: Parser) -> None:
    line = "hagamos siciliana, que los de la mañana no llegan hasta las seis"
    assert parser.parse(line).to_json() == {"accion": "siciliana"}
    run_together = parser.readings(line.replace(",", ""))
    assert parser.parse(line.replace(",", "")).to_json()["accion"] == "desconocido" and TOPIC_CUE in run_together[-1].cues


@pytest.mark.parametrize(
    "line, accion",
    [
        ("dudo, hermano, no hay tantas", "dudo"),
        ("jugale siete trenes", "apuesta"),
        ("ya po, ocho quinas y que me duden", "apuesta"),
        ("[unk] dudo", "dudo"),
        ("dudo [unk]", "dudo"),
    ],
)
def test_a_move_with_a_little_talk_around_it_stands(line: str, accion: str, parser: Parser) -> None:
    assert parser.parse(line).to_json()["accion"] == accion


def test_the_model_weighs_kinds_not_values(parser: Parser) -> None:
    """A number, a face and a name stand for their kind: "cuatro hijos" and "seis hijos" are one pair."""
    words = parser.topic_words(parser.lexicon.said("el diego tiene cuatro hijos y seis ases"))
    assert words == ["el", "<nombre>", "tiene", "<n>", "hijos", "y", "<n>", "<cara>"]
    assert parser.topic_words(parser.lexicon.said("[unk] dudo")) == ["<ruido>", "dudo"]


def test_training_is_deterministic_and_learns_which_words_are_talk() -> None:
    lines = [(["<n>", "<cara>"], False), (["dudo"], False), (["calzo"], False), (["<s>", "<n>", "<cara>", "y", "listo"], False),
             (["tome", "<n>", "micros"], True), (["ayer", "fui", "al", "medico"], True), (["el", "perro", "ladra"], True)] * 5
    one, two = topic.train(lines), topic.train(lines)
    assert one == two
    assert one.chatter_odds(["ayer", "tome", "micros"]) > 0.5 > one.chatter_odds(["<n>", "<cara>"])


def test_a_damaged_model_file_says_so_in_spanish(tmp_path: Path) -> None:
    (tmp_path / "es.toml").write_text("", "utf-8")
    (tmp_path / "tema.json").write_text(json.dumps({"sesgo": "x"}), "utf-8")
    with pytest.raises(ValueError, match=r"tema\.json"):
        topic.load(tmp_path / "es.toml")
    (tmp_path / "tema.json").write_text("{no es json", "utf-8")
    with pytest.raises(ValueError, match=r"tema\.json"):
        topic.load(tmp_path / "es.toml")


def test_a_house_lexicon_without_a_model_reads_the_shipped_one(tmp_path: Path) -> None:
    assert topic.load(tmp_path / "es.toml") == topic.load(None)
