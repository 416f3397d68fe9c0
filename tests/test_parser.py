"""The parser against the team's labelled corpus, plus properties."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.speech import Parser, grammar
from assistant.speech.commands import CallCommand
from assistant.speech.lexicon import ANY_MARK, GAP_MARK, TemplateError, expand, load
from assistant.speech.normalize import fold
from assistant.speech.parser import ACT_AT, ASK_AT, WRITTEN_PAST_CUE, plays_at_once

CORPUS = Path(__file__).parent / "corpus"
PLAYERS = ["ana", "beto", "carla", "dani", "juan pablo"]
INTENTS = {
    "apuesta", "dudo", "siciliana", "calzo", "paso", "mato", "picado", "obligo", "cuenta",
    "cuenta_jugador", "mano", "parte", "si", "no", "deshacer", "consulta", "castigo", "revivir",
    "ayuda", "otra", "terminar",
}


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text("utf-8").splitlines() if line.strip() and not line.startswith("#")]


def intent_lines() -> list[tuple[str, str, dict[str, object]]]:
    """(file's intent, utterance, expected command) from every per-intent golden file."""
    rows = []
    for path in sorted(CORPUS.glob("*.tsv")):
        for line in _lines(path):
            text, _, expected = line.partition("\t")
            rows.append((path.stem, text, json.loads(expected)))
    return rows


def chatter_lines() -> list[str]:
    """Lines that must never be a move."""
    return _lines(CORPUS / "no_es_jugada.txt")


def corpus() -> list[tuple[str, dict[str, object]]]:
    """Every labelled line: intents with their command, chatter as unknown."""
    return [(t, e) for _, t, e in intent_lines()] + [(t, {"accion": "desconocido"}) for t in chatter_lines()]


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(players=PLAYERS)


def test_every_intent_has_its_golden_file() -> None:
    assert {p.stem for p in CORPUS.glob("*.tsv")} == INTENTS
    assert len(corpus()) >= 300


@pytest.mark.parametrize("intent, text, expected", intent_lines(), ids=lambda v: str(v)[:40] if isinstance(v, str) else "")
def test_intent_line(parser: Parser, intent: str, text: str, expected: dict[str, object]) -> None:
    assert expected["accion"] == intent, f"{text!r} is filed under {intent}"
    assert parser.parse(text).to_json() == expected, text


@pytest.mark.parametrize("text", chatter_lines(), ids=lambda v: v[:40])
def test_must_not_match(parser: Parser, text: str) -> None:
    command = parser.parse(text)
    assert command.action == "desconocido", f"{text!r} became {command.to_json()}"


def test_a_call_keeps_the_bid_it_restates(parser: Parser) -> None:
    """"dudo esas cuatro quinas" is a dudo (the JSON says only the call), and the
    referee still gets the bid to check it is the one on the table."""
    command = parser.parse("dudo esas cuatro quinas")
    assert isinstance(command, CallCommand) and command.bid == (4, 5)
    assert command.to_json() == {"accion": "dudo"}
    assert parser.parse("mato los seis trenes").bid == (6, 3)


def test_nothing_said_is_nothing(parser: Parser) -> None:
    for text in ["", "   ", "\t"]:
        assert parser.parse(text).action == "desconocido"


def test_partial_hints(parser: Parser) -> None:
    missing_face = parser.parse("subo a cinco")
    assert missing_face.action == "desconocido" and missing_face.hint == "falta_pinta"
    assert missing_face.quantity == 5
    missing_quantity = parser.parse("trenes")
    assert missing_quantity.hint == "falta_cantidad" and missing_quantity.face == 3
    assert parser.parse("dudo que llueva").hint is None


def test_names_are_matched_loosely_but_not_ambiguously() -> None:
    parser = Parser(players=["ana", "anabel", "beto"])
    assert parser.parse("anabel tiene dos").to_json()["jugador"] == "anabel"
    assert parser.parse("ana tiene dos").to_json()["jugador"] == "ana"
    assert parser.parse("zzz tiene dos").action == "desconocido"


GRAMMAR_SHARDS = 4
"""The grammar's phrases are parsed in this many parts, so the cores share them (``-n auto``)."""


@pytest.fixture(scope="module")
def grammar_phrases() -> list[str]:
    """Every phrase given to the recognizer, less the ``[unk]`` it ends with."""
    phrases = grammar.phrases(players=PLAYERS)
    assert phrases[-1] == "[unk]"
    return phrases[:-1]


def talk_words() -> set[str]:
    """The grammar's words for talk that is not the game (``grammar.chatter``)."""
    lex = load()
    return set(grammar.chatter(lex, grammar.game_phrases(lex, PLAYERS)))


@pytest.mark.parametrize("shard", range(GRAMMAR_SHARDS))
def test_every_grammar_phrase_parses(grammar_phrases: list[str], shard: int) -> None:
    """Every game phrase is a move; the talk words are talk (each part of the phrases, one by one)."""
    parser = Parser(players=PLAYERS)
    talk = talk_words()
    parsed = {p: parser.parse(p).action for p in grammar_phrases[shard::GRAMMAR_SHARDS]}
    failures = [p for p, action in parsed.items() if action == "desconocido" and p not in talk]
    assert not failures, str(failures[:10])
    moves = [p for p, action in parsed.items() if p in talk and action != "desconocido"]
    assert not moves, str(moves[:10])


def test_the_grammar_hears_talk_as_talk(grammar_phrases: list[str]) -> None:
    """Thousands of everyday words are listed, so speech that is not the game comes back
    as itself ("tengo sed", not "tengo cedo"); none is a game word said twice."""
    words = talk_words()
    talk = {p for p in grammar_phrases if p in words}
    assert len(talk) > 5000
    assert {"sed", "casa", "temprano", "sillas", "perros"} <= talk


def test_grammar_has_phrases_for_every_shape(grammar_phrases: list[str]) -> None:
    """Some phrase of the grammar reads as each kind of move (its phrases read in a shuffled order until all are met)."""
    import random

    wanted = {
        "apuesta", "dudo", "siciliana", "calzo", "paso", "mato", "picado", "obligo", "cuenta",
        "cuenta_jugador", "mano", "parte", "si", "no", "deshacer", "consulta", "castigo", "revivir",
    }
    parser = Parser(players=PLAYERS)
    talk = talk_words()
    for phrase in random.Random(34).sample(grammar_phrases, len(grammar_phrases)):
        if phrase not in talk:
            wanted.discard(parser.parse(phrase).action)
            if not wanted:
                break
    assert not wanted


def test_the_grammar_kept_on_disk_is_the_grammar_and_follows_the_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A launch reads the phrases back instead of building them; other players,
    another lexicon or a torn file build them again, and one file is kept."""
    built = grammar.cached_phrases(["ana", "beto"], folder=tmp_path)
    assert built == grammar.phrases(players=["ana", "beto"])
    [kept] = list(tmp_path.glob("*.json"))
    assert json.loads(kept.read_text("utf-8")) == built
    kept.write_text(json.dumps(["solo esto", "[unk]"]), "utf-8")  # what is on disk is what a launch uses
    assert grammar.cached_phrases(["ana", "beto"], folder=tmp_path) == ["solo esto", "[unk]"]
    other = grammar.cached_phrases(["ana", "carla"], folder=tmp_path)
    assert "carla" in grammar.vocabulary(other) and "beto" not in grammar.vocabulary(other)
    assert len(list(tmp_path.glob("*.json"))) == 1
    [kept] = list(tmp_path.glob("*.json"))
    kept.write_text('["cortado a la mit', "utf-8")
    assert grammar.cached_phrases(["ana", "carla"], folder=tmp_path) == other
    lexicon = tmp_path / "lexico"
    lexicon.mkdir()
    shipped = Path(__file__).parents[1] / "lexicon"
    for name in ("formas.txt", "comunes.txt", "nombres.txt"):
        (lexicon / name).write_text((shipped / name).read_text("utf-8"), "utf-8")
    (lexicon / "es.toml").write_text((shipped / "es.toml").read_text("utf-8").replace('"wena", ', '"wenaaa", '), "utf-8")
    monkeypatch.setenv("DUDO_LEXICO", str(lexicon / "es.toml"))
    from assistant.speech import lexicon as lexicon_module

    lexicon_module.default.cache_clear()
    try:
        changed = grammar.cached_phrases(["ana", "carla"], folder=tmp_path)
        assert "wenaaa" in grammar.vocabulary(changed) and "wenaaa" not in grammar.vocabulary(other)
    finally:
        monkeypatch.delenv("DUDO_LEXICO")
        lexicon_module.default.cache_clear()


def test_grammar_keeps_accents_and_names() -> None:
    phrases = grammar.phrases(players=["José"])
    words = grammar.vocabulary(phrases)
    assert {"cuántos", "dieciséis", "corrección", "josé"} <= words
    assert "cuantos" not in words
    print(f"\ngrammar: {len(phrases)} phrases, {len(words)} words")


def test_grammar_without_players_has_no_name_slots() -> None:
    assert not any("{" in p for p in grammar.phrases())


def test_template_expansion_and_errors() -> None:
    assert expand("(a|b) [c]") == [("a",), ("a", "c"), ("b",), ("b", "c")]
    with pytest.raises(TemplateError):
        expand("(a|b")
    with pytest.raises(TemplateError):
        expand("a ] b")


def test_lexicon_words_are_data(tmp_path: Path) -> None:
    """A regional word added to the lexicon file is understood with no code change."""
    source = (Path(__file__).parents[1] / "lexicon" / "es.toml").read_text("utf-8")
    extended = source.replace('"samba", "sambas",', '"samba", "sambas", "chancho", "chanchos",')
    path = tmp_path / "es.toml"
    path.write_text(extended, "utf-8")
    assert Parser(load(path)).parse("tres chanchos").to_json() == {"accion": "apuesta", "cantidad": 3, "pinta": 6}
    assert Parser().parse("tres chanchos").action == "desconocido"


@cache
def table_parser(players: tuple[str, ...] = tuple(PLAYERS)) -> Parser:
    """One parser per table for every example of a property (here and in tests/test_readings.py):
    building one reads the whole lexicon (a quarter of a second), and a parser is used line after
    line at the table, its caches kept."""
    return Parser(players=list(players))


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_parser_never_raises_on_arbitrary_text(text: str) -> None:
    table_parser().parse(text).to_json()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(load().vocabulary) + PLAYERS + ["3", "99", "123"]), max_size=8))
def test_parser_never_raises_on_lexicon_word_salad(words: list[str]) -> None:
    command = table_parser().parse(" ".join(words))
    json.dumps(command.to_json())


# ---------------------------------------------------------------- understanding, as issue 10 measures it


@pytest.mark.corpus
def test_understanding_typed_on_the_voice_path_and_with_a_word_unheard_at_either_end() -> None:
    """Every corpus typed and on the voice path (every word outside the grammar as "[unk]"), and
    every command read right in its moment still taken with "[unk]" said before or after it (vosk's
    word for what its grammar does not list), chatter staying chatter. (Each line with the word at
    one end, by turns; ``scripts/understanding.py --edges`` reads every line both ways, for the
    figures in docs/entender.md.) The three share one parser per corpus (a line heard as typed is read
    once), and the outside batches are measured by halves, one on each core."""
    from scripts.understanding import every_path, merged

    with ProcessPoolExecutor(max_workers=2) as pool:
        # the outside batches by halves, one on each core; the smaller corpora after the first half done
        parts = [pool.submit(every_path, {"ajenos"}, (0, 2)), pool.submit(every_path, {"ajenos"}, (1, 2)),
                 pool.submit(every_path, {"equipo", "familias", "de_afuera"})]
        typed, measured_edges, voice = (merged(list(by_path)) for by_path in zip(*(part.result() for part in parts), strict=True))
        results = [typed, voice]
    for result in results:
        path = result["camino"]
        for name, figures in result["corpus"].items():
            print(f"\n{result['camino']} · {name}: {figures['entendidas']:.1%} de {figures['ordenes']} órdenes, "
                  f"{figures['charla_como_jugada']:.1%} de {figures['charla']} frases de charla como jugada, "
                  f"{figures['charla_en_partida']:.1%} en partida")
            if name == "ajenos":  # written by people who never saw the parser: measured, then kept (docs/entender.md)
                assert figures["en_su_momento"] >= 0.95, (name, figures["fallas"])
                assert figures["charla_como_jugada"] <= (0.01 if path == "texto" else 0.015), (name, figures["charla_aceptada"])
            else:
                assert figures["entendidas"] >= 0.97, (name, figures["fallas"])
                assert figures["charla_como_jugada"] <= 0.01, (name, figures["charla_aceptada"])
            assert figures["charla_en_partida"] <= 0.01, (name, figures["charla_tomada_en_partida"])
    assert {"equipo", "familias", "ajenos"} <= set(measured_edges["corpus"])
    for name, figures in measured_edges["corpus"].items():
        print(f"\nbordes · {name}: {figures['siguen_igual']:.1%} de {figures['ordenes_bien_leidas']}, charla {figures['charla_como_jugada']:.1%}")
        assert figures["siguen_igual"] >= 0.97, (name, figures["fallas"][:20])
        assert figures["charla_como_jugada"] <= 0.015, (name, figures["charla_aceptada"])


def test_lexicon_word_salad_is_rarely_a_move() -> None:
    """Random strings of the lexicon's own words (what a grammar-bound recognizer could
    make of chatter): a move may be read inside them, as inside real speech, but it is
    rarely sure enough to act on, and rarely even asked about."""
    import random

    from assistant.speech.parser import ACT_AT

    parser = Parser(players=PLAYERS)
    words = sorted(load().vocabulary) + PLAYERS
    rng = random.Random(20261123)
    # (enough of them that the share, not the luck of a few salads, decides: a word added to the
    # lexicon reshuffles every salad after it. On 20 000 salads of four other seeds, 27 November:
    # 5.1 % asked and 1.8 % acted; the parser of the stop before, 5.4 % and 2.0 %. Half the asked
    # are an undo read among the undo verbs' many forms, which a referee asks before taking back.
    # 28 November: 5.30 % asked, 1.74 % acted, against 5.36 % and 1.77 % before the day's words;
    # this seed's 10 000 went from 1.82 % to 2.01 % acted, a reshuffle: on the other 20 000 it fell (one standard
    # error is 0.13 points), so the bound on acting stands at about three of them above the mean.
    # 29 November, the words of b156-b164 ("caramba", "compañera", a debate's "a favor de"): on 20 000 salads
    # of four other seeds, asked 5.38 -> 5.47 % (one standard error 0.16 points), acted 1.94 -> 1.85 %; this
    # seed's 10 000, 5.09 % asked and 1.70 % acted. Later on 29 November, the words of b166-b181 ("brother", "cabo",
    # "chef", "recibido", "para variar"): on 40 000 salads of eight other seeds, asked 5.28 -> 5.45 % (one standard
    # error 0.11 points), acted 1.81 -> 1.83 %; this seed's 10 000, 5.33 % asked and 1.88 % acted. Six address
    # words that each taught one line ("ladino", "tramposo", "marchando"...) were left out: they raised both.
    # Then the third round's words: on those 40 000, 5.37 % asked and 1.74 % acted, both lower, while this seed's
    # first 10 000 went to 5.52 % asked, over the bound by the luck of one reshuffle (one standard error of 10 000
    # is 0.23 points). So the test reads 20 000 of this seed now (0.16): 5.28 % asked, 1.89 % acted, 29 November.)
    salads = [" ".join(rng.choice(words) for _ in range(rng.randint(4, 8))) for _ in range(20000)]
    asked = [s for s in salads if parser.parse(s).action != "desconocido"]
    acted = [s for s in asked if next(r for r in parser.readings(s) if not r.weak).certainty >= ACT_AT]
    assert len(acted) / len(salads) <= 0.022, acted[:20]
    assert len(asked) / len(salads) <= 0.055, asked[:20]


@pytest.mark.parametrize(
    "text",
    ["trajeron seis sillas", "inexacto", "pasado", "obligada", "errores", "reviso", "seis sillas"],
)
def test_ordinary_words_are_never_repaired_into_game_words(parser: Parser, text: str) -> None:
    assert parser.parse(text).action == "desconocido"


def test_fillers_survive_snapping_and_typos_are_still_repaired(parser: Parser) -> None:
    assert parser.clean("altiro huevón tres trens") == ["tres", "trenes"]
    assert Parser(players=["fran", "carla"]).parse("franco dudo").to_json() == {"accion": "dudo"}  # "franco" is no "fran"
    assert Parser(players=["carla"]).parse("karla dudo").to_json() == {"accion": "dudo", "jugador": "carla"}


def test_words_the_parser_cannot_read_are_unknown_words(parser: Parser) -> None:
    assert parser.parse("의 [3] 대").action == "desconocido"
    # a word nobody could place lowers the certainty of the move around it, never erases it
    readings = parser.readings("[unk] dudo")
    assert readings[0].command == CallCommand("dudo") and ACT_AT <= readings[0].certainty < 1.0
    assert readings[0].unexplained == ("<?>",)
    assert parser.parse("tres [unk] trenes").to_json() == {"accion": "apuesta", "cantidad": 3, "pinta": 3}
    assert parser.parse("[unk] [unk] [unk]").action == "desconocido"


def test_every_parser_word_is_in_the_recognizer_grammar() -> None:
    heard = {fold(w) for w in grammar.vocabulary(grammar.phrases(players=PLAYERS))}
    lexicon = load()
    missing = {w for w in lexicon.vocabulary if w not in heard}
    # tens above the grammar's largest quantity are the only words left out
    assert missing <= {w for w, v in lexicon.tens.items() if v > lexicon.grammar_max}, sorted(missing)
    phrases = grammar.phrases(players=PLAYERS)
    assert "tren tren" in phrases and "cuadra quina" in phrases  # hands dictated die by die


VETO_FAMILIES = {
    # family: (chatter that holds a move's words, the move said plainly)
    "otro_sentido": (["dudo que venga el diego", "mi cabra dice que van a cerrar la feria yo lo dudo", "dudo colega que venga",
                      "el niño ya calza el treinta y dos",
                      "paso a buscarte a las nueve", "me pasé dos paradas en la micro",
                      "esos zapatos te calzan bacán", "tengo una duda",
                      # a threat, "calza" that fits, people counted as "us"
                      "te voy a matar weón si me dudái otra vez", "lo mato al diego si vuelve a quemar el arroz", "si [unk] ahora te mato",
                      "eso calza justo con lo que te dije", "cuatro tontos éramos en la oficina y nos echaron a todos",
                      # the game by its name, a call others made on somebody, a named player threatened
                      "en el sesenta y ocho tu abuelo le ganó un capón al capataz jugando al dudo",
                      "la abuela quedó picada porque le dudaron los trenes", "mato a la carla si vuelve a poner reggaetón",
                      # things pointed at, two players left
                      "estos dos tontos se han dejado el protector solar en la furgo", "mano a mano diego y yo al final tío qué tensión",
                      # a threat with a long condition, a shoe size, people who are aces, a penalty kick, a place
                      "si el juez no cobra ese penal lo mato", "yo calzo cuarenta y dos préstame tus chuteadores",
                      "somos unos ases pa perder partidos ganados", "ese penal fue picadito a lo panenka",
                      # somebody's habit, the dice of somebody not at the table
                      "el diego calza todo el rato, por eso pierde", "le pasamos dos litros de suero y sigue hipotenso",
                      "dos tontos nos gritaban desde la reja", "en la tocata éramos como cinco tontos headbangeando adelante",
                      "¿cuántos dados le quedan a tu hijo? se los comió el perro",
                      "dudo harto que la directiva arregle las duchas", "la farmacia queda a dos cuadras no más",
                      "yo toma dos tren y una micro para llegar a casa",
                      # one's own doubted, a dig, a chore imposed, a wheel chocked, a dish refused, a distance
                      "dudo de mi vida weón", "uy le tiraste un palo a la carla", "obligo al diego a lavar los platos si pierde",
                      "calzá bien la rueda que el camión se va pa atrás", "yo paso, no como nada de eso, gracias",
                      "la fila de camiones ocupa como diez cuadras",
                      # a snack cut or passed, a chore that is your turn, a gift named, a dish, how often, who hesitates
                      "quién quiere torta ya la voy a picar", "pasame la picada", "la diego el diego te toca cantar en dos temas",
                      "ese chorizo es para la ana", "cuántos somos para la cena seis", "dos por tres te equivocás vo",
                      "la carla está dudando si ir al matrimonio", "calza justo la mesa pa seis", "luego te digo si dudo",
                      # a hot pepper, a rough sea, a man upset
                      "pica mucho este ají frè", "miren cómo está el mar esta tarde todo picado", "estoy picado con el diego",
                      # the mate, a metro's frequency, trains taken, a shoe size asked, a chorus sung again, nothing said
                      "aguyje por el mate che ra'a", "el metro en [unk] pasa cada cinco minutos", "tomé tres trenes pa llegar desde limache",
                      "usted calza cuánto cuarenta ya", "en el montuno repetimos cuatro veces el coro", "y si digo ocho trenes no mejor no digo nada",
                      # "piko", Guaraní's question, is no picado; a thing that is carla's is no palo
                      "quiere un poco de tereré piko alguien", "nahániri che ra'a ese café es de la carla",
                      # people who got in a car, a fare dropped short
                      "tres tontos me subieron curados en la esquina de portales", "ese pasajero me dejó cinco cuadras antes para no pagar",
                      # the cup handed over, a chore whose turn it is
                      "le paso el cacho vecina", "le toca a la eli cocinar hoy",
                      # a distance, a move done to us, something that slipped by
                      "el estacionamiento quedó a tres cuadras qué lata", "cuatro cuadras tengo que caminar hasta el paradero",
                      "si el capataz nos pilla jugando nos mata", "hoy me levanté con la presión alta pero ya se me pasó",
                      # a thing handed over, a review, a reminder, another's mistake
                      "el judas priest me lo pasó mi viejo era fanático", "a ver repasemos primero se dice la cantidad",
                      "no olviden cerrar la llave del gas de la cocina", "si dudai y te equivocai perdí un dado así de simple",
                      # what is the matter, a star
                      "qué te pasa hoy que estás tan callado", "el diego es un as pateando penales"], "dudo"),
    # a bid judged, where its words are, and never the doubt it is the reason of
    "juicio": (["seis senas son demasiadas pa esta mesa si somos poquitos", "nueve cuadras es una locura"], "dudo pues nueve senas es demasiado"),
    "regla": (["el calzo es cuando hay justas", "en mi casa le decíamos quina al cinco", "la carla me explicó la siciliana y quedé igual",
               "what does picado mean", "si dices seis senas y no hay te dudan", "las senas son los seis",
               "tres trenes es lo mismo que tres treses", "miren niños si yo digo cinco quinas y hay seis pierde el que dudó",
               # a name asked about, a lesson asked for
               "por qué se llaman trenes los treses", "eli me explicas otra vez lo de la mitad más uno con los ases",
               # a bid supposed, to ask what another would do
               "si digo siete senas vos dudás",
               # what happens when one die is left, what the siciliana costs
               "cómo era cuando te queda un dado solo obligás", "en la siciliana se pierden dos dados ojo",
               # a rule said as a truth
               "con cinco ases cualquiera gana caballeros",
               # a rule read out, a newcomer asking
               "a ver la regla dice que si hay seis trenes y uno dudó seis trenes pierde el que dudó", "no sé jugar picado explíquenme",
               # the sum when the bid goes to aces
               "si subes a ases tienes que dividir por dos más uno", "si cambiai a ases dividí por dos y le sumai uno"], "calzo"),
    "sobre_la_jugada": (["eso de la siciliana lo inventaron en santiago", "y si yo calzo que haces ah",
                         "si dudas y pierdes pierdes un dado", "si alguien te mata el paso y tenías la mano pierde el que mató",
                         "dudarías tú con cinco trenes en la mesa", "y si subo a siete trenes qué pasa",
                         "en la obra mi personaje grita seis senas y le pegan un balazo", "me pagaron con una gamba y dos quinas",
                         "me vi obligao a ir al cumpleaños de mi suegra", "me obligo a no llorar en los saludos",
                         "hay que calzar justo", "mi hermano dice sena en vez de seis",
                         "ni el fran se cree eso de los cinco ases", "eso de dudar la partida lo inventó un italiano dice el tata",
                         # what a call would bring, asked
                         "oye chat pregunta si dudo ahora pierdo un dado o no", "si calzo y pego me devuelven un dado cierto",
                         # a bid imagined and asked about, a call weighed with what would follow it
                         "si digo ocho quinas me van a dudar", "y si calzo y no están justas qué pasa",
                         # a call asked about by its name, somebody's habit
                         "la siciliana se puede hacer siempre o solo al principio", "oye ana tú calzai siempre como loca",
                         # a call supposed of others
                         "si me dicen dudo y hay más yo gano cierto"], "seis senas"),
    "pasado": (["ayer dudé y perdí", "el otro domingo quedaban tres dados y el beto igual dudó", "paso paso paso así marcaba el coreógrafo",
                "la otra vez calzó el beto", "el boludo de beto siempre dice cinco trenes",
                # a call reported, a game remembered or named as over, a call not made
                "el beto dijo dudo y se fue al chancho", "se acuerdan cuando el tío calzó con diez quinas y ganó",
                "en la final pasada salieron once senas justas",
                "le pregunté al gonzalo cuántos dados le quedan", "con dos ases yo hubiera dudado",
                # whose turn it was, a habit of a start, a year remembered
                "le tocaba a fran no a mí pero da igual", "el diego siempre parte con dos trenes fíjese",
                "el año que murió mi compadre ganamos el campeonato con siete quinas",
                # a call that worked, told
                "esa mano fue de locos el diego calzó y le salió justo",
                # a habit of somebody's ("abres" unheard)
                "tú siempre [unk] con tres trenes chamo eres [unk] de [unk]",
                # a bid told of somebody, trains gone by, a palo judged
                "él dijo cinco trenes no cuatro yo escuché", "pasaron tres trenes llenos antes de que pudiéramos subir",
                "el palo del beto fue merecido igual",
                # a childhood, a bid told of a player after it, another's move called like a match
                "tío cuántos palos tenía usted cuando era chico", "cinco trenes decía el diego y había cero jajaja",
                "el beto subió a nueve cuadras y nadie le cree", "y la carla se la juega con cinco quinas qué valentía",
                "el diego dice dudo y la mesa enmudece",
                # what one did all the same, a plan for when one is left with a die
                "tenía tres quinas y aun así dudé qué leso", "cuando quede con un dado voy a obligar cerrado ya verán"], "cinco trenes"),
    "definicion": (["el picado es con dos ases no con uno", "la siciliana no se juega en este torneo",
                    "en chile el calzo es con las justas", "a ver qué pasa si hay justo cuatro cuadras y alguien calzó",
                    "oye cacho la siciliana se juega aquí o no", "en mi casa jugamos que los tontos suman uno más",
                    # a call asked to be taught
                    "¿tú sabes jugar picado? yo nunca he entendido esa wea", "no cacho la siciliana, explícame después",
                    # a word of the game taught as a word
                    "profe, ¿dudo viene de dudar?", "quién inventó la siciliana", "se me olvidó, ¿cómo era la siciliana?"], "siete quinas"),
    "supuesto": (["me tinca que la carla tiene puros ases", "sospecho que el beto tiene tres ases",
                  "apuesto que la carla tiene dos trenes", "usted dudaría con cinco quinas ahí yo no sé",
                  "fran tiene cara de que tiene puros ases"], "me tinca que hay ocho quinas"),
    "hora": (["paso a las diez", "eran como las once", "nos vemos a las ocho", "qué hora es ya las doce",
              "doña fran nos hace seis cenas para las nueve"], "paso"),
    "numerado": (["paso a ver a la cama cuatro", "che mozo la cuenta de la mesa 4", "la micro doscientos diez no pasa nunca",
                  "la pregunta seis era de los pares craneales doce pares doce", "salud por el cinco coma cinco de la ana"], "paso"),
    "charla": (["cinco quinas seguidas no se ven nunca", "uno más y nos vamos", "esos zapatos tiene cara de tres",
                "cuadra es femenino, la cuadra, dos cuadras", "no es la tren, es el tren, masculino", "pirandello era siciliano cierto",
                "el ñublense va ganando dos a uno", "va ganando el beto pero la ana lo sigue de cerca",
                # a score said first, a hand somebody had or says he has, what is left of something
                "cuatro a dos terminó el partido", "el fran dijo seis senas y tenía puros ases el sinvergüenza",
                "el beto dice que tiene cinco quinas pero yo lo conozco", "compramos doce cervezas y ya quedan tres",
                "paso paso no quiero más choripán", "paso paso déjenme pasar con la bandeja",
                # a football score said bare
                "tres a uno y el uno fue autogol", "ganamos dos a cero",
                # a bid only supposed, people called aces
                "yo apostaría seis cuadras si no fuera porque la probabilidad no me acompaña", "esos surfistas de tahai son unos ases",
                # a turn complained of, a song's clave
                "el eli dijo seis senas pero era mi turno", "la clave es dos tres no tres dos asere",
                # a bingo's call, something offered
                "el número veintidós los dos patitos", "sírvase un tecito don diego",
                # what a player is like, a game of old, dice bought, an outing, the other match
                "la carla calza todas las veces es medio bruja", "la fran dice cinco quinas cada vez que no tiene nada",
                "el diego cantó siete quinas y no había ni cuatro", "el diego apostó ocho cuadras sin tener ninguna",
                "la siciliana yo la jugaba con mi viejo en la caleta", "cuántos dados hay que comprar pa la fiesta",
                "quién va a ir al paseo", "cómo va el otro partido",
                # how a player is, a guess at a hand
                "la carla calza demasiado es su vicio", "la ana dice dudo a todo como los niños",
                "yo creo que la tía ana tiene puros tontitos", "seguro la fran tiene tres senas se le nota en la cara"], "cinco quinas"),
    "reto": (["a que no te atreves a dudar", "vas a dudar o no", "y ahora qué hacemos tata dudamos o no",
              "estoy seguro que el fran calza", "no te voy a dudar a ti",
              "si hay siete senas yo me como el cacho", "si dudas te mato", "te apuesto un chicle que pierde el beto",
              # a bid supposed of somebody named by what he is, a call one was about to make
              "si el colega dice seis quinas yo dudo altiro", "iba a decir paso pero no tengo full", "si dice seis senas yo dudo altiro",
              "si me lo dice a mí yo dudo altiro",
              # a bet on a player's cup, a raise refused in the conditional
              "si el diego tiene tres senas yo me como el cacho", "apuesto cinco lucas a que el beto tiene dos ases",
              "yo apuesto que el diego tiene puros tontos", "yo no subiría a diez trenes ni cagando",
              # raising or calling, weighed aloud
              "chat qué hago subo o calzo",
              # advice asked, a dare in usted
              "qué harías tú dudarías o subirías a siete trenes", "dale atrévase a dudar hermano"], "dudo"),
    "desafio": (["te animas a calzar", "a ver si me dudas", "dale calza [unk]"], "calzo"),
    # (and a dare in usted, advice asked, a call supposed of others, a rule read: reto, sobre_la_jugada, regla)
    # what is left to one is one's hand (read as such while hands are told), never a bid nor a count
    "mano_propia": (["me quedan dos", "ya me quedaban tres no más"], "dos trenes"),
    "irreal": (["yo dudaría", "habría calzado", "mi abuelo partía por la derecha", "ya va a perder el beto, miren su carita"], "calzo"),
    # a bid asked back, and the same words said before it
    "eco": (["dijiste seis senas", "el tío dijo cinco trenes abuela cinco trenes",
             "seis senas en serio dijiste seis senas", "cuatro quinas o cinco quinas dijo no le escuché"], "seis senas"),
}
"""Each family of cues that keeps chatter out, with lines it must keep out and the plain move
it must not touch (a cue vetoes what is talk about a move, never the move)."""


@pytest.mark.parametrize("family", sorted(VETO_FAMILIES))
def test_each_veto_family_keeps_its_chatter_out_and_the_move_in(family: str) -> None:
    parser = Parser(players=[*PLAYERS, "diego", "fran"])
    lines, move = VETO_FAMILIES[family]
    for line in lines:
        assert parser.parse(line).action == "desconocido", (family, line, parser.parse(line).to_json())
    assert parser.parse(move).action != "desconocido", move
    for line in lines:  # and the words the recognizer could not place change nothing
        assert parser.parse(f"[unk] {line}").action == "desconocido", (family, line)


def test_the_recognizer_can_hear_every_word_of_every_veto_cue() -> None:
    """A cue made of words the grammar lacks would come back as "[unk]" and never veto:
    every word of every cue, every form of its verbs among them, is in the grammar, but
    those the parser reads alone as a move ("dudaré": a call all the same)."""
    lexicon = load()
    parser = Parser(players=PLAYERS)
    vocabulary = grammar.vocabulary(grammar.phrases(players=PLAYERS))
    heard = {fold(v) for v in vocabulary}
    cue_words = {w for _family, seq in lexicon.veto_cues for w in seq if not w.startswith("{") and w not in (GAP_MARK, ANY_MARK)}
    unheard = {w for w in cue_words if w not in heard}
    assert cue_words and not {w for w in unheard if parser.parse(w).action == "desconocido"}
    assert {"dudado", "calzaba", "hubiera", "ganando", "pregunté"} <= vocabulary


def test_what_a_player_has_that_was_not_heard_is_asked_not_taken() -> None:
    """"el diego tiene dos [unk]" (two of something the grammar lacks: pololas, láminas) is
    his count only when asked and confirmed; a count with noise after it is still a count."""
    parser = Parser(players=[*PLAYERS, "diego"])
    for line in ("el diego tiene dos [unk] weón", "la señora carla tiene cuatro [unk]"):
        readings = parser.readings(line)
        assert parser.parse(line).action == "desconocido" and readings and all(r.weak for r in readings), line
        assert readings[0].command.to_json()["accion"] == "cuenta_jugador"  # the count the moment may ask about
    assert parser.parse("ana dos [unk]").to_json() == {"accion": "cuenta_jugador", "jugador": "ana", "cantidad": 2}
    assert parser.parse("hay tres [unk]").to_json() == {"accion": "cuenta", "cantidad": 3}
    assert parser.parse("beto tiene cuatro").to_json() == {"accion": "cuenta_jugador", "jugador": "beto", "cantidad": 4}


def test_the_threats_cue_leaves_the_call_said_with_a_pronoun() -> None:
    """"la voy a matar" kills the bid, "te voy a matar" the player: only the second is talk."""
    parser = Parser(players=[*PLAYERS, "diego"])
    for line in ("la voy a matar", "lo mato al diego", "la mato", "te mato weón jajaja mato", "oye cacho hay doce"):
        assert parser.parse(line).action != "desconocido", line


def test_the_lexicon_has_every_veto_family_tested() -> None:
    families = {family for family, _cue in load().veto_cues}
    assert families - {"cosas", "cosas_oidas"} <= set(VETO_FAMILIES), families - set(VETO_FAMILIES)


STRUCTURES: dict[str, list[tuple[str, dict[str, object] | None]]] = {
    # how a move sits in a longer line: the line, what it is (None: no move), and why
    "a learner's table: a correction in English, the face said as its number, an honorific on a name, a turn asked, a win no palo": [
        ("cuatro tonto, sorry, cuatro trenes", {"accion": "apuesta", "cantidad": 4, "pinta": 3}),
        ("tres número seis", {"accion": "apuesta", "cantidad": 3, "pinta": 6}),
        ("ana-ssi tiene uno", {"accion": "cuenta_jugador", "jugador": "ana", "cantidad": 1}),
        ("son nueve, increíble", {"accion": "cuenta", "cantidad": 9}),
        ("¿ahora yo? ¿es mi turno?", {"accion": "consulta", "que": "turno"}),
        ("sugoi, la ana ganó otra vez", None),
        ("la ana pierde otra vez", {"accion": "castigo", "jugador": "ana"}),
    ],
    "a pass killed with its reason heard whole, a hunch, a round proposed, a radio's yes, a comrade, a Sicilian woman, a story of a win, trains a day": [
        ("mato no te creo el paso", {"accion": "mato"}),  # heard: no comma between the call and its reason
        ("mato no le creo ese paso diego", {"accion": "mato"}),
        ("pucha, la tincada me dice que calzo", {"accion": "calzo"}),
        ("oiga, ¿y si hacemos un picado?", {"accion": "picado"}),
        ("¿y si jugamos una siciliana?", {"accion": "siciliana"}),
        ("esta va a la siciliana, cambio", {"accion": "siciliana"}),
        ("dele por la derecha nomás", {"accion": "parte", "jugador": None, "sentido": "derecha"}),
        ("el palo es pal diego sin discusion", {"accion": "castigo", "jugador": "diego"}),
        ("qsl", {"accion": "si"}),
        ("paso, compadre, y no me pregunte", {"accion": "paso"}),  # an imperative, not "me pregunté"
        ("le canto siciliana a la ana", {"accion": "siciliana"}),  # "le canto": a bid, not "le cantó"
        ("la señora del italiano, la siciliana, hacía unas empanadas de otro mundo", None),
        ("la eli le dudo al beto y le gano pucha que se rio", None),  # heard: "dudó" and "ganó" lose their accents
        ("le apostaron siete quinas y el diego calzó, increíble", None),
        ("el diego mata todos los pasos, es su estilo", None),
        ("vivo con dos tontos que no lavan la loza", None),
        ("son ocho, compañero", {"accion": "cuenta", "cantidad": 8}),
        ("caramba, hay dos", {"accion": "cuenta", "cantidad": 2}),
        ("a la fran le toca perder uno", {"accion": "castigo", "jugador": "fran"}),
        ("vamos pa' la derecha esta vuelta, compañeros", {"accion": "parte", "jugador": None, "sentido": "derecha"}),
        ("seis trenes diarios paraban en san bernardo, compañero", None),
        ("¿se fijó que el diego apuesta puros trenes? le tiene cariño", None),
        ("el diego vigila las cámaras como vigila los dados, o sea nada", None),  # nothing of a move corrected
        ("¿cuántos vasos hay? falta uno pal diego", None),
        ("¿cómo vamos de dados cada uno?", {"accion": "consulta", "que": "marcador"}),
        ("pierde uno el diego", {"accion": "castigo", "jugador": "diego"}),
        ("weona, casi me muero en el último pique", None),  # a sprint, not "que pique"
        ("a la fran siempre le salen tres ases, es bruja", None),
        ("el diego dijo cuatro tontos y se rio solo", None),
        ("dudo a lo que salga", {"accion": "dudo"}),  # heard: no comma before whatever comes
        ("calzo, pase lo que pase", {"accion": "calzo"}),
    ],
    "a Brazilian's past in portuñol is no move (the moves of a table in Portuguese are not taught)": [
        ("cara, meu cartão não passou no supermercado", None),
        ("o beto perdeu três dados seguidos, tá amaldiçoado", None),
    ],
    "a debate's formulas: a motion, a stance, a correction of one's intervention, the turn to speak": [
        ("me pronuncio a favor de dos ases", {"accion": "apuesta", "cantidad": 2, "pinta": 1}),
        ("sostengo la moción de tres senas", {"accion": "apuesta", "cantidad": 3, "pinta": 6}),
        ("siete tontos... no, corrijo mi intervención, ocho tontos", {"accion": "apuesta", "cantidad": 8, "pinta": 2}),
        ("seis quinas, no no, permítanme reformular: siete quinas", {"accion": "apuesta", "cantidad": 7, "pinta": 5}),
        ("fran contribuye con dos", {"accion": "cuenta_jugador", "jugador": "fran", "cantidad": 2}),
        ("¿a quién le corresponde intervenir?", {"accion": "consulta", "que": "turno"}),
        ("¿cuál es la moción vigente?", {"accion": "consulta", "que": "apuesta"}),
        ("el biotren venía lleno, cinco trenes pasaron y no me subí a ninguno", None),  # no bid is of none
        ("¿quién explica la siciliana? yo nunca la entendí", None),
        ("¿ustedes calzan seguido o solo cuando están seguros?", None),
    ],
    "the Andes' extra on top of a bid, a siciliana asked with no article, a turn that is over": [
        ("seis trenes y uno de yapa, siete trenes", {"accion": "apuesta", "cantidad": 7, "pinta": 3}),
        ("ocho quinas, con yapa nueve quinas", {"accion": "apuesta", "cantidad": 9, "pinta": 5}),
        ("hagamos siciliana esta vuelta", {"accion": "siciliana"}),
        ("tu turno ya pasó, lentito eres", None),
        ("tu turno ya paso [unk] eres", None),
        ("compré tres docenas de cierres y me dieron uno de yapa", None),
    ],
    "the way said later in the line": [
        ("parte la fran porque es la cumpleañera para la derecha", {"accion": "parte", "jugador": "fran", "sentido": "derecha"}),
        ("sale la ana saque del medio hacia la izquierda", {"accion": "parte", "jugador": "ana", "sentido": "izquierda"}),
        ("el fran parte, ha upéi por la derecha", {"accion": "parte", "jugador": "fran", "sentido": "derecha"}),
        ("parte beto el que está a la derecha de la ana", {"accion": "parte", "jugador": "beto", "sentido": None}),  # a seat, not a way
    ],
    "a wait before the move said again, the player told to give a die up, the score, the bid and a siciliana asked for": [
        ("pidamos siciliana, que estamos muy serios", {"accion": "siciliana"}),
        ("seis quinas, espera, siete quinas", {"accion": "apuesta", "cantidad": 7, "pinta": 5}),
        ("dos ases... espérense... tres ases", {"accion": "apuesta", "cantidad": 3, "pinta": 1}),
        ("fran, pierdes un dado", {"accion": "castigo", "jugador": "fran"}),
        ("fran, pa' fuera un dado", {"accion": "castigo", "jugador": "fran"}),
        ("el diego pasó con una mano horrible", None),
        ("¿cómo vamos de puntos, patrullas?", {"accion": "consulta", "que": "marcador"}),
        ("¿cuánto habían cantado?", {"accion": "consulta", "que": "apuesta"}),
    ],
    "a hand listed face by face, no part of it a bid": [
        ("tengo un tonto y dos cuadras", {"accion": "mano", "caras": [2, 4, 4]}),
        ("yo tengo do ase, un tren y do sena", {"accion": "mano", "caras": [1, 1, 3, 6, 6]}),
        ("tengo tres trenes", None),  # said of the bid as often: no hand out of a count
    ],
    "the s breathed out, Guaraní, Cuba": [
        ("do quina", {"accion": "apuesta", "cantidad": 2, "pinta": 5}),
        ("el fran tiene do", {"accion": "cuenta_jugador", "jugador": "fran", "cantidad": 2}),
        ("du do", {"accion": "dudo"}),
        ("vamo pa la derecha", {"accion": "parte", "jugador": None, "sentido": "derecha"}),
        ("cuántos dao hay en juego", {"accion": "consulta", "que": "dados"}),
        ("mokõi senas", {"accion": "apuesta", "cantidad": 2, "pinta": 6}),
        ("heẽ katu", {"accion": "si"}),
        ("nahániri, ndaipóri", {"accion": "no"}),
        ("la carla ndaipóri, cero", {"accion": "cuenta_jugador", "jugador": "carla", "cantidad": 0}),
        ("máva piko sigue", {"accion": "consulta", "que": "turno"}),
        ("pa' la izquierda, asere", {"accion": "parte", "jugador": None, "sentido": "izquierda"}),
        ("hay cuatro na' má", {"accion": "cuenta", "cantidad": 4}),
    ],
    "a court's formulas": [
        ("vengo en dudar", {"accion": "dudo"}),
        ("el suscrito viene en ofrecer diez trenes", {"accion": "apuesta", "cantidad": 10, "pinta": 3}),
        ("téngase por calzada la apuesta", {"accion": "calzo"}),
        ("afirmativo su señoría", {"accion": "si"}),
        ("no ha lugar", {"accion": "no"}),
        ("retrotráigase al estado anterior", {"accion": "deshacer"}),
        ("certifico que hay exactamente siete", {"accion": "cuenta", "cantidad": 7}),
        ("me allano a la apuesta calzo", {"accion": "calzo"}),
        ("quién tiene la palabra", {"accion": "consulta", "que": "turno"}),
    ],
    "a radio's habits": [
        ("cuál es la apuesta cambio", {"accion": "consulta", "que": "apuesta"}),
        ("negativo cambio", {"accion": "no"}),
        ("diez cuatro central", {"accion": "si"}),
        ("copiado subo a seis trenes cambio", {"accion": "apuesta", "cantidad": 6, "pinta": 3}),
        ("quince quinas uno cinco cambio", {"accion": "apuesta", "cantidad": 15, "pinta": 5}),
        ("trece tontos uno tres trece cambio", {"accion": "apuesta", "cantidad": 13, "pinta": 2}),
        ("cinco trenes uno dos", None),  # digits that are not the bid's
        ("cambio de sentido", {"accion": "picado"}),
    ],
    "a call center's and a rodeo's": [
        ("le confirmo que sí", {"accion": "si"}),
        ("me confirma la apuesta vigente", {"accion": "consulta", "que": "apuesta"}),
        ("dudo a la chilena", {"accion": "dudo"}),
        ("dudo con perdón de la señora", {"accion": "dudo"}),
        ("no patrón no fue así", {"accion": "no"}),
        ("échele pa atrás lo último", {"accion": "deshacer"}),
        ("yo tenía tres senas y dos cuadras", {"accion": "mano", "caras": [4, 4, 6, 6, 6]}),
    ],
    "a match called around one's own move": [
        ("ocho tontos colega ocho tontos al ángulo", {"accion": "apuesta", "cantidad": 8, "pinta": 2}),
        ("dudo tarjeta roja pa esa apuesta", {"accion": "dudo"}),
        ("a la fran le toca el palo", {"accion": "castigo", "jugador": "fran"}),
    ],
    "total said last": [
        ("tres de la ana dos del beto y uno mío seis en total", {"accion": "cuenta", "cantidad": 6}),
        ("dos más dos cuatro más uno cinco", {"accion": "cuenta", "cantidad": 5}),
        ("contando todo suman once", {"accion": "cuenta", "cantidad": 11}),
        ("beto tiene un par y otro par o sea cuatro", {"accion": "cuenta_jugador", "jugador": "beto", "cantidad": 4}),
        ("tres más dos siete", None),  # a sum said wrong is no count
    ],
    "the bid answered or corrected before the move": [
        ("el beto cantó seis quinas y yo le pongo siete quinas", {"accion": "apuesta", "cantidad": 7, "pinta": 5}),
        ("nueve trenes mmm espérate diez trenes", {"accion": "apuesta", "cantidad": 10, "pinta": 3}),
        ("ocho quinas ocho trenes", None),  # two bids said back to back: neither is the move
    ],
    "a doubt said last after its reason": [
        ("ni en tus sueños hay tantas con esos dados dudo", {"accion": "dudo"}),
        ("yo creo que están justitas calzo", {"accion": "calzo"}),
    ],
    "what a bid or a doubt is for": [
        ("cuatro sambas pa calentar la mano", {"accion": "apuesta", "cantidad": 4, "pinta": 6}),
        ("dudo pa salir de dudas", {"accion": "dudo"}),
        ("paso pa buscar a la carla", None),  # "paso" has other senses
    ],
    "a story of another night only where the move is": [
        ("once senas y no me pillan como la vez pasada", {"accion": "apuesta", "cantidad": 11, "pinta": 6}),
        ("la vez pasada dudé con once senas", None),
    ],
    "the table spoken to after the move": [
        ("calzo mi loco destapen", {"accion": "calzo"}),
        ("nueve quinas mi niño", {"accion": "apuesta", "cantidad": 9, "pinta": 5}),
        # a word nobody knows, said last after a call, is the one spoken to, as "[unk]" would be
        ("yo paso peñi", {"accion": "paso"}),
        ("dudo feley", {"accion": "dudo"}),
        # titles of a club and a barracks, the north's and Bolivia's, Mapudungun's, a Haitian's, a market's
        ("paso, mi comandante", {"accion": "paso"}),
        ("once trenes mi comandante", {"accion": "apuesta", "cantidad": 11, "pinta": 3}),
        ("yo paso chango", {"accion": "paso"}),
        ("siciliana chango", {"accion": "siciliana"}),
        ("obligo cerrado frè", {"accion": "obligo", "modo": "cerrado"}),
        ("non frè", {"accion": "no"}),
        ("yo dudo, bacán", {"accion": "dudo"}),
        ("dudo siempre", {"accion": "dudo"}),  # Cochabamba's "siempre" after the move
        ("oye chango seis senas siempre", {"accion": "apuesta", "cantidad": 6, "pinta": 6}),
    ],
    "a formal table's courtesies and leave asked": [
        ("me permito dudar estimado", {"accion": "dudo"}),
        ("me permito pasar, caballeros", {"accion": "paso"}),
        ("me permito cantar siciliana", {"accion": "siciliana"}),
        ("me permito proponer cinco senas", {"accion": "apuesta", "cantidad": 5, "pinta": 6}),
        ("once quinas a la orden", {"accion": "apuesta", "cantidad": 11, "pinta": 5}),
        ("calzo, con su permiso", {"accion": "calzo"}),
        ("con el debido respeto a la mesa nueve quinas", {"accion": "apuesta", "cantidad": 9, "pinta": 5}),
        ("humildemente y sin ánimo de ofender siete trenes", {"accion": "apuesta", "cantidad": 7, "pinta": 3}),
        ("deje sin efecto lo anterior", {"accion": "deshacer"}),
        ("recuérdeme la apuesta por favor", {"accion": "consulta", "que": "apuesta"}),
        ("parte la fran, rumbo a babor", {"accion": "parte", "jugador": "fran", "sentido": "izquierda"}),
    ],
    "a bid left where it stands": [
        ("dejémoslo en cinco quinas", {"accion": "apuesta", "cantidad": 5, "pinta": 5}),
        ("lo dejo en nueve quinas", {"accion": "apuesta", "cantidad": 9, "pinta": 5}),
    ],
    "a final s breathed out, a monosyllable said small, a learner's singular": [
        ("tre quina nomá", {"accion": "apuesta", "cantidad": 3, "pinta": 5}),
        ("sei trene", {"accion": "apuesta", "cantidad": 6, "pinta": 3}),
        ("cinco trenecitos", {"accion": "apuesta", "cantidad": 5, "pinta": 3}),
        ("dos dado de as", {"accion": "apuesta", "cantidad": 2, "pinta": 1}),
        ("dose trenes", {"accion": "apuesta", "cantidad": 12, "pinta": 3}),  # spelt by ear first
    ],
    "an r said as l, by a Chinese shopkeeper or in the Caribbean": [
        ("cuatlo tlen", {"accion": "apuesta", "cantidad": 4, "pinta": 3}),
        ("obligo celado", {"accion": "obligo", "modo": "cerrado"}),
        ("la ana tenel tles", {"accion": "cuenta_jugador", "jugador": "ana", "cantidad": 3}),
        ("diego plimelo", {"accion": "parte", "jugador": "diego"}),
        ("ahola yo, ocho tlen, pelo ocho", {"accion": "apuesta", "cantidad": 8, "pinta": 3}),
        ("se me cayó el pelo", None),  # a Spanish word stays itself
    ],
    "yes, no and fillers of a Chinese shop and a German-Chilean family": [
        ("dui dui", {"accion": "si"}),
        ("bu dui, no", {"accion": "no"}),
        ("diego mei you", {"accion": "cuenta_jugador", "jugador": "diego", "cantidad": 0}),
        ("ja doch", {"accion": "si"}),
        ("nein nein", {"accion": "no"}),
        ("calzo no más, oma", {"accion": "calzo"}),
        ("na ja, warte mal, cinco ases", {"accion": "apuesta", "cantidad": 5, "pinta": 1}),
        ("ja ja ja qué risa", None),  # laughter
    ],
    "a church youth group's and Rapa Nui's blessings and names around the move": [
        ("cinco tontos amén", {"accion": "apuesta", "cantidad": 5, "pinta": 2}),
        ("cuatro ases varón", {"accion": "apuesta", "cantidad": 4, "pinta": 1}),
        ("dudo gloria a Dios", {"accion": "dudo"}),
        ("castigo pal hermano diego", {"accion": "castigo", "jugador": "diego"}),
        ("parte la hermana carla", {"accion": "parte", "jugador": "carla"}),
        ("dudo de ti conti", {"accion": "dudo"}),
        ("hay diez aleluya", {"accion": "cuenta", "cantidad": 10}),
        ("ya dudo a levantar los cachos", {"accion": "dudo"}),
    ],
    "the bid said before, then the one made": [
        ("de seis trenes me bajo a cuatro balas", {"accion": "apuesta", "cantidad": 4, "pinta": 1}),
        ("la ana dijo cinco senas, yo le subo a seis senas", {"accion": "apuesta", "cantidad": 6, "pinta": 6}),
        ("ocho trenes... mejor que sean nueve", {"accion": "apuesta", "cantidad": 9, "pinta": 3}),
    ],
    "what a bid is said to be, after a copula": [
        ("quince senas amiga es la final", {"accion": "apuesta", "cantidad": 15, "pinta": 6}),
        ("trece trenes, estamos locos", {"accion": "apuesta", "cantidad": 13, "pinta": 3}),  # trains are no people
        ("cuánto era la cuenta", None),  # a question's copula has its subject after it
    ],
    "dismay said over and over before a doubt": [
        ("ay no, no, dudo", {"accion": "dudo"}),
        ("qué va dudo y levantamos", {"accion": "dudo"}),
    ],
    "yes and no of a market, a Haitian, the Andes and the south": [
        ("de más", {"accion": "si"}),
        ("oui oui", {"accion": "si"}),
        ("arí, sí", {"accion": "si"}),
        ("may, sí", {"accion": "si"}),
        ("sí sí, confirmado", {"accion": "si"}),
        ("qué va, no", {"accion": "no"}),
        ("no, está malo", {"accion": "no"}),
        ("está mal", {"accion": "deshacer"}),
    ],
    "a call with its reason after 'que'": [
        ("calzo que las veo clarito", {"accion": "calzo"}),
        ("dudo que haya tantas", {"accion": "dudo"}),
        ("dudo que venga el diego mañana", None),
        ("ese calzo que hizo el diego fue increíble", None),  # a call told of, with a clause of its own
    ],
    "a call denied does not compete with the move": [
        ("no pienso dudar nada subo a ocho quinas", {"accion": "apuesta", "cantidad": 8, "pinta": 5}),
        ("dudar yo ni en pedo once trenes", {"accion": "apuesta", "cantidad": 11, "pinta": 3}),
        ("dudar yo", None),
    ],
    "the turn taken after talk about the dice one has": [
        ("no sé ni qué tengo ya once cuadras", {"accion": "apuesta", "cantidad": 11, "pinta": 4}),
        ("no me la vendes dudo", {"accion": "dudo"}),
    ],
    "pairs counted": [
        ("tres pares de senas", {"accion": "apuesta", "cantidad": 6, "pinta": 6}),
    ],
    "a number right after a call is what it is about": [
        ("calzo treinta y ocho", None),
        ("veinte trenes pasaron por la estación hoy", None),
    ],
    "the move's clause opens at the opener nearest its last word": [
        ("somos cinco con cuatro dados cada uno veinte así que yo diría seis quinas", {"accion": "apuesta", "cantidad": 6, "pinta": 5}),
        ("así que el beto apostó cinco trenes anoche", None),
    ],
    "verbs far from a bid are talk before the turn": [
        ("pucha me toca a mí estaba mirando el partido eh siete cuadras", {"accion": "apuesta", "cantidad": 7, "pinta": 4}),
        ("ayer estaba mirando el partido y metieron siete goles", None),
    ],
    "dice counted aloud before the number said": [
        ("a ver uno dos tres cuatro cinco seis ya seis senas", {"accion": "apuesta", "cantidad": 6, "pinta": 6}),
        ("el beto uno dos tres tiene tres", {"accion": "cuenta_jugador", "jugador": "beto", "cantidad": 3}),
        ("uno dos tres cuatro", None),  # a count said alone is only a count the moment asks for
    ],
    "a question among words nobody placed": [
        ("oiga me podría decir cuántos palos lleva cada uno por favor", {"accion": "consulta", "que": "marcador"}),
        ("cuántos dados compraste en la feria", None),
    ],
    "a call named with its article, said to a player": [
        ("le hago la siciliana a la ana", {"accion": "siciliana"}),
        ("la siciliana de la esquina cierra temprano", None),
    ],
    "a paso with the hand it claims": [
        ("paso compadre tengo la escalera", {"accion": "paso"}),
        ("paso de esa película", None),
    ],
    "the turn handed on after a paso or a bid": [
        ("paso ana te toca", {"accion": "paso"}),
        ("cinco cuadras fran te toca después", {"accion": "apuesta", "cantidad": 5, "pinta": 4}),
        ("paso por la ana a las nueve", None),
    ],
    "the table spoken to inside the move": [
        ("fran parte mijita por la derecha", {"accion": "parte", "jugador": "fran", "sentido": "derecha"}),
        ("hay cinco cabros", None),  # after a number the word is what is counted
    ],
    "a call said last after the bid it doubts": [
        ("doce quinas demasiadas dudo", {"accion": "dudo"}),
        ("nueve trenes y que me duden", {"accion": "apuesta", "cantidad": 9, "pinta": 3}),
    ],
    "the palo given with its article": [
        ("le toca el palo a la carla", {"accion": "castigo", "jugador": "carla"}),
        ("se come el palo la carla", {"accion": "castigo", "jugador": "carla"}),
        ("ese chorizo es para la ana", None),
    ],
    "a die that goes, or that the player gives up": [
        ("se va un dado de la carla", {"accion": "castigo", "jugador": "carla"}),
        ("la fran saca un dado", {"accion": "castigo", "jugador": "fran"}),
        ("diego suelta un dado", {"accion": "castigo", "jugador": "diego"}),
        ("la ana pierde uno pobrecita", {"accion": "castigo", "jugador": "ana"}),
        ("el beto saca un dado del vaso", None),
        ("uno nunca sabe con este lago", None),  # "uno" first in a line is anyone
    ],
    "the way said, then corrected": [
        ("sale la ana por la derecha no por la izquierda", {"accion": "parte", "jugador": "ana", "sentido": "izquierda"}),
        ("la ana parte pa la derecha no pa la izquierda", {"accion": "parte", "jugador": "ana", "sentido": "izquierda"}),
    ],
    "an obligo's way said later, or corrected": [
        ("obligo y es abierto", {"accion": "obligo", "modo": "abierto"}),
        ("obligo digamos en su modalidad abierta", {"accion": "obligo", "modo": "abierto"}),
        ("obligo che abierto no cerrado", {"accion": "obligo", "modo": "cerrado"}),
    ],
    "one die, said to be the only one": [
        ("yo tengo una quina una sola", {"accion": "mano", "caras": [5]}),
        ("tengo una sola quina hermano", {"accion": "mano", "caras": [5]}),
    ],
    "the dice left, named one by one": [
        ("me quedan tres quina quina sena", {"accion": "mano", "caras": [5, 5, 6]}),
        ("me quedan dos tren y sena", {"accion": "mano", "caras": [3, 6]}),
    ],
    "pity for the one who has none": [
        ("el beto no tiene ni una pobrecito", {"accion": "cuenta_jugador", "jugador": "beto", "cantidad": 0}),
        ("la fran perdió tres dados seguidos pobre reina", None),
    ],
    "a picado asked for": [
        ("pidamos picado como antes", {"accion": "picado"}),
        ("y si hacemos una ronda de picado", {"accion": "picado"}),
        ("juguemos un picado", None),  # a pickup match
    ],
    "the referee spoken to after mí": [
        ("me toca a mí árbitro", {"accion": "consulta", "que": "turno"}),
        ("obligo a mi hermano", None),
    ],
    "a bid supposed, then made": [
        ("y si digo ocho senas ya ocho senas", {"accion": "apuesta", "cantidad": 8, "pinta": 6}),
        ("y si digo cinco quinas qué pasa", None),
        ("y si digo dudo", None),
    ],
    "a yes after a move is its emphasis": [
        ("mato o sea de una", {"accion": "mato"}),
    ],
    "things listed, unheard, after a count's word": [
        ("hay seis [unk] y cuatro [unk]", None),
        ("hay tres [unk]", {"accion": "cuenta", "cantidad": 3}),
    ],
    "a count corrected keeps the player named with his article": [
        ("el fran tenía dos trenes y un as o sea tres", {"accion": "cuenta_jugador", "jugador": "fran", "cantidad": 3}),
    ],
    "the last die counted said again is the total": [
        ("uno dos tres cuatro cinco cinco", {"accion": "cuenta", "cantidad": 5}),
        ("a ver uno dos tres cuatro cuatro", {"accion": "cuenta", "cantidad": 4}),
        ("uno dos tres tres cuatro", {"accion": "mano", "caras": [1, 2, 3, 3, 4]}),
    ],
    "a doubt of a claim reported is a doubt only when the claim is a bid": [
        ("el beto dice que hay ocho trenes yo lo dudo", {"accion": "dudo"}),
        ("la profe dijo que dudara así que dudo", {"accion": "dudo"}),
        ("mi cabra dice que van a cerrar la feria yo lo dudo", None),
    ],
    "a word of another tongue or register for a move": [
        ("nica dudo", {"accion": "dudo"}),
        ("jisa pues", {"accion": "si"}),
        ("janiwa", {"accion": "no"}),
        ("dudísimo carla dudísimo", {"accion": "dudo"}),
        ("roger subo a seis tontos", {"accion": "apuesta", "cantidad": 6, "pinta": 2}),
        ("torre de control cuál es la última apuesta", {"accion": "consulta", "que": "apuesta"}),
        ("qué había cantado la ana", {"accion": "consulta", "que": "apuesta"}),
        ("cuántos dadítos hay en total", {"accion": "consulta", "que": "dados"}),
        ("dos ases pa bajarla", {"accion": "apuesta", "cantidad": 2, "pinta": 1}),
        ("paso con lo que tengo hermanito", {"accion": "paso"}),
    ],
    "the one spoken to after a call, the cup lifted, a manner": [
        ("empiezo yo vecino", {"accion": "parte"}),
        ("dudo levante el cacho vecino", {"accion": "dudo"}),
        ("seis tontos mis queridos colegas", {"accion": "apuesta", "cantidad": 6, "pinta": 2}),
        ("cuatro ases a la antigua", {"accion": "apuesta", "cantidad": 4, "pinta": 1}),
        ("dudo po qué va a haber tanta cuadra", {"accion": "dudo"}),
        ("el fran parte pal lado izquierdo", {"accion": "parte", "jugador": "fran", "sentido": "izquierda"}),
    ],
    "a clause joined after the move's own words is not the move's": [
        ("pongo seis senas y me voy a ver la cama doce", {"accion": "apuesta", "cantidad": 6, "pinta": 6}),
        ("me toca la cama doce y la seis", None),
    ],
    "a move said again, louder, is one move; one asked back or relayed is none": [
        ("tres ases tres ases tres ases escucharon tres ases", {"accion": "apuesta", "cantidad": 3, "pinta": 1}),
        ("seis cuadras tío seis cuadras seis", {"accion": "apuesta", "cantidad": 6, "pinta": 4}),
        ("dudo que dudo dije", {"accion": "dudo"}),
        ("dudo po qué más", {"accion": "dudo"}),
        ("que sí po", {"accion": "si"}),
        ("sí po ya te dije que sí", {"accion": "si"}),
        ("no po te dije que no", {"accion": "no"}),
        ("en serio dijiste seis senas", None),
        ("seis senas en serio dijiste seis senas", None),
        ("cinco trenes dijiste dudo", {"accion": "dudo"}),
        ("paso dijo la abuela paso", None),
        ("calculo que sí", None),
    ],
    "a move said again, then what it is not, is no correction": [
        ("tres quinas dije tres quinas no cuatro", {"accion": "apuesta", "cantidad": 3, "pinta": 5}),
        ("yo dije ocho tontos ocho tontos dije yo no ocho trenes", {"accion": "apuesta", "cantidad": 8, "pinta": 2}),
        ("ocho cuadras dije ocho no siete", {"accion": "apuesta", "cantidad": 8, "pinta": 4}),
        ("cinco trenes no perdón seis trenes", {"accion": "apuesta", "cantidad": 6, "pinta": 3}),
        ("cinco trenes no seis trenes", {"accion": "apuesta", "cantidad": 6, "pinta": 3}),
    ],
    "a game word in a phrase of its own": [
        ("no te voy a dejar pasar eso", None),
        ("me tomé dos piscolas no más dos", None),
        ("tres señores hay tres", {"accion": "cuenta", "cantidad": 3}),
        ("si usted dice cinco quinas yo le dudo al tiro", None),
        ("si sacas cinco ases de una te pago la cuota de la sala", None),
        ("la siciliana era una señora que vendía lana en la vega", None),
        ("dudo dudas duda dudamos presente de indicativo", None),
        ("cómo iba el partido el marcador iba dos a uno", None),
        ("dudé harto pero al final compré la lana gris", None),
        ("dudo mucho", {"accion": "dudo"}),
        ("no gracias mijita del queque yo paso estoy a dieta", None),
        ("con voz de cantante de bolero yo paaaaso", {"accion": "paso"}),
        ("dudo que haya propina hoy día", None),
        ("dudo que haya tantas", {"accion": "dudo"}),
        ("dudo que haya ocho trenes", {"accion": "dudo"}),
    ],
    "a hand told after how many dice it is": [
        ("me quedan dos una sena y un tonto", {"accion": "mano", "caras": [2, 6]}),
        ("me quedan tres y son tres senas", {"accion": "mano", "caras": [6, 6, 6]}),
        ("tengo un tonto otro tonto y una quina", {"accion": "mano", "caras": [2, 2, 5]}),
        ("me quedan dos trenes", {"accion": "mano", "caras": [3, 3]}),
        ("me quedan tres una sena", None),
    ],
    "a call, then a thing pointed at and what it is": [
        ("calzo esto es un siete de precisión", {"accion": "calzo"}),
    ],
    "the line checked, a move said kindly": [
        ("dudo me escucharon dije dudo", {"accion": "dudo"}),
        ("hay seis se me cortó seis", {"accion": "cuenta", "cantidad": 6}),
        ("fíjese que mato", {"accion": "mato"}),
        ("dudo con cariño se lo digo", {"accion": "dudo"}),
        ("beto tienes lag dije seis quinas no cinco", {"accion": "apuesta", "cantidad": 6, "pinta": 5}),
        ("nop está mal", {"accion": "no"}),
        ("no mal wn", None),
    ],
    "a bid likened to things of its number, no hour": [
        ("nueve trenes como las nueve vidas de la gata", {"accion": "apuesta", "cantidad": 9, "pinta": 3}),
        ("nos vemos como las nueve y media", None),
    ],
    "the bid refused, then the call": [
        ("ah no eso sí que no dudo", {"accion": "dudo"}),
        ("no esa no dudo", {"accion": "dudo"}),
        ("yo sí que no dudo", None),
        ("eso no lo dudo", None),
    ],
    "a call said again, then why": [
        ("dudo dudo dudo que me suena la diadema", {"accion": "dudo"}),
        ("dudo que venga el diego", None),
    ],
    "the table spoken to after an obligo": [
        ("obligo cerrado mis amores", {"accion": "obligo", "modo": "cerrado"}),
        ("obligo a mi perro a salir", None),
    ],
    "how the move was made is no phrase it belongs to": [
        ("ocho tontos sin pensarlo", {"accion": "apuesta", "cantidad": 8, "pinta": 2}),
        ("tres patos sin agua", None),
    ],
}
"""How a move sits inside a longer line (loose readings), with the chatter each rule must keep out."""


def test_one_word_said_after_a_call_is_asked_about() -> None:
    """A call said as one's own with one word of Spanish after it and nothing else: the one spoken
    to as often as what the call's word is done to ("dudo pelusa", "paso hambre"), so the referee asks
    ("¿Dudas?") and only a yes plays it; a word the lexicon knows as a title plays at once, and the
    call's noun with its adjective ("duda razonable") is no call at all."""
    parser = Parser(players=[*PLAYERS, "diego", "fran"])
    for line, call in (("dudo pelusa", "dudo"), ("paso hambre", "paso"), ("mato zancudos", "mato"), ("yo paso tortuga", "paso")):
        best = parser.readings(line)[0]
        assert best.command.action == call and best.certainty >= ASK_AT and not plays_at_once(best), (line, best)
    assert plays_at_once(parser.readings("paso chango")[0])
    assert parser.parse("duda razonable").action == "desconocido"
    assert parser.parse("el jefe dudó harto").action == "desconocido"


TAILS_ASKED: dict[str, dict[str, Any]] = {
    "cuatro trenes calentando motores": {"accion": "apuesta", "cantidad": 4, "pinta": 3},
    "diez trenes sin miedo al toro": {"accion": "apuesta", "cantidad": 10, "pinta": 3},
    "ya nueve quinas la marea está a mi favor": {"accion": "apuesta", "cantidad": 9, "pinta": 5},
    "dudo colega esa pelota venía afuera": {"accion": "dudo"},
    "dudo fran muéstrame esos dados": {"accion": "dudo"},
    "dudo ese novillo no lo ataja nadie": {"accion": "dudo"},
    # what the bid is sold at or for, the table asked to do something, a remark after a call or an obligo
    "nueve quinas nueve quinas a la rica quina": {"accion": "apuesta", "cantidad": 9, "pinta": 5},
    "siete cuadras pa la novia": {"accion": "apuesta", "cantidad": 7, "pinta": 4},
    "seis senas like a boss": {"accion": "apuesta", "cantidad": 6, "pinta": 6},
    "diez tontos hagan lo que quieran": {"accion": "apuesta", "cantidad": 10, "pinta": 2},
    "calzo carajo vamos colo colo": {"accion": "calzo"},
    "dudo alerta roja levanten los cachos": {"accion": "dudo"},
    "paso paso se me cortó el audio": {"accion": "paso"},
    "obligo cerrado vuestras mercedes": {"accion": "obligo", "modo": "cerrado"},
    "paso sin observaciones": {"accion": "paso"},
    # a doubt or a calzo in what spirit, by what reason, granted or held long; a thing and what it does not do
    "dudo con fundamento estadístico": {"accion": "dudo"},
    "dudo por reducción al absurdo": {"accion": "dudo"},
    "calzo con error cero": {"accion": "calzo"},
    "calzo está justo en la media": {"accion": "calzo"},
    "dudo aunque después me arrepienta": {"accion": "dudo"},
    "calzoo hype train": {"accion": "calzo"},
    "dudo la binomial no te da ni cagando": {"accion": "dudo"},
}
TAILS_KEPT_OUT = [
    "ocho cuadras caminé para llegar", "tres patos en la laguna", "dos ases de la baraja", "seis cenas esta semana",
    "cuatro cuadras hasta el metro", "mato el tiempo jugando cacho", "paso colega a buscarte", "dudo colega que venga",
    "mata ese mosquito", "calzo la polera roja", "el beto dijo ocho tontos con cara de nada",
    "tres trenes pasaban antes por victoria", "dudo entre el salmón y la centolla", "dudo es como mwen pa kwè cierto",
    "dudo de los trenes chilenos", "cuatro quinas de carbón trajimos",
    "paso por tu casa a las nueve", "mato por un completo", "paso con cuidado por el puente", "mato la araña no más",
    "pasamos parral paso a dormir un rato", "calcé justo con la micro", "en esta cuadra no pasan taxis",
]


def test_a_move_said_first_is_asked_about_when_only_its_tail_says_otherwise() -> None:
    """A bid or a call said first whose tail may be a clause of its own (a line heard has no comma)
    is asked about in the moment that expects it, never played at once; a tail that makes the move's
    words a thing (a distance walked, a place, an owner, what the call's word is done to) still does."""
    from scripts.understanding import understood

    parser = Parser(players=[*PLAYERS, "diego", "fran"])
    for line, expected in TAILS_ASKED.items():
        asked = [r for r in parser.readings(line) if r.certainty >= ASK_AT]
        assert asked and understood(asked[0].command.to_json(), expected), (line, asked)
        assert asked[0].weak and not plays_at_once(asked[0]) and parser.parse(line).action == "desconocido", (line, asked[0])
    for line in TAILS_KEPT_OUT:
        assert all(r.certainty < ASK_AT for r in parser.readings(line)), (line, parser.readings(line))


CLAUSE_MOVES: dict[str, dict[str, Any]] = {
    "diez trenes, confíen en el proceso": {"accion": "apuesta", "cantidad": 10, "pinta": 3},
    "ocho cuadras, con garantía extendida incluida": {"accion": "apuesta", "cantidad": 8, "pinta": 4},
    "cuatro quinas, en tierra todo es más fácil": {"accion": "apuesta", "cantidad": 4, "pinta": 5},
    "tres cuadras, antes que suene el anexo": {"accion": "apuesta", "cantidad": 3, "pinta": 4},
    "dudo, la luna no te acompaña esta noche": {"accion": "dudo"},
    "uy, no, eso está inflado, dudo": {"accion": "dudo"},
    "no, dudo": {"accion": "dudo"},
    "mmm... no sé... sí, dudo": {"accion": "dudo"},
    "dudo, que se vean los dados": {"accion": "dudo"},
    "calzo, cuadratura perfecta": {"accion": "calzo"},
    "paso, mis dados están bendecidos": {"accion": "paso"},
    "último dado, obligo cerrado, información confidencial": {"accion": "obligo", "modo": "cerrado"},
    "¿de quién es el turno? se me olvidó": {"accion": "consulta", "que": "turno"},
    # the call, then why; the one die left, then the obligo
    "mato, ese paso es puro cuento": {"accion": "mato"},
    "me queda uno, obligo, y que sea lo que dios quiera": {"accion": "obligo"},
    "obligo, cerrado, cata a ciegas pa' todos": {"accion": "obligo", "modo": "cerrado"},
    "esa la calzo, maridaje perfecto": {"accion": "calzo"},
}
"""A move said whole in a clause of its own, the talk around it set apart by the writing (a comma,
a colon, the marks of a question) or, heard, by a pause (``Alternative.phrased``)."""
WRITTEN_PAST_KEPT = {
    "yo pasé, digo paso": "paso", "dudé": "dudo", "calzó": "calzo", "dudo, como dudé del penal que nos cobraron": "dudo",
    "el diego cantó cuatro, yo le pongo seis cuadras": "apuesta", "carla dudo": "dudo", "beto dudó": "dudo",
    "carla apostó nueve cuadras": "apuesta", "ocho ases? no, me pasé, cinco ases": "apuesta",
}
"""Lines with a move's verb written in the past that still hold a move: a correction, a learner's one word,
a story told beside the call, another's bid told before one's own, a player naming the caller, the move alone."""


def test_a_move_written_in_the_past_is_a_story_of_one() -> None:
    parser = Parser(players=[*PLAYERS, "diego", "fran"])
    for line in ("el diego dudó sin mirar, valiente", "la carla calzó cinco quinas y ganó el dado", "no abuela, el beto no dudó, dijo dos",
                 "cuatro coma cero raspando pero pasé", "el fran apostó cuatro ases de entrada, qué valiente",
                 "la carla partió por la derecha y nadie se dio cuenta", "yo pasé con trío de cuatros y me ganaron"):
        assert parser.parse(line).action == "desconocido", (line, parser.parse(line))
        assert any(WRITTEN_PAST_CUE in r.cues for r in parser.readings(line)), (line, parser.readings(line))
        # with no accent the words alone decide (a recognizer's "dudo" may lose or gain one it never said)
        assert not any(WRITTEN_PAST_CUE in r.cues for r in parser.readings(fold(line))), line
    # (so these lines are no part of the team's chatter file, which is measured on the voice path too)
    for line, action in WRITTEN_PAST_KEPT.items():
        assert parser.parse(line).action == action, (line, parser.parse(line))


CLAUSE_KEPT_OUT = [
    "no, paso, gracias, no fumo", "yo paso, no como nada de eso, gracias", "¿querés fernet? nah, paso, ya tomé un montón",
    "dale, calzá, cagón", "dudo, dijo el escéptico, y se quedó callado para siempre",
    "seis senas, esa fue la mano del año pasado, se acuerdan?",
    "la tabla, primeras las de la u con treinta puntos", "suena el timbre de la cuatro, quién va",
    "cállate, piure, que no estás ni en la ronda",
    "dudé de ti, perdón compadre", "la otra vez perdí, ahora van cinco cuadras",
]
"""Lines a clause does not make a move: a pass that turns down an offer, a dare, a call reported, a
past game, a bid asked back, a question too short to be the referee's, a word only near a move's."""


def test_a_move_said_whole_in_a_clause_of_its_own_is_played_with_its_echo() -> None:
    from scripts.understanding import understood

    parser = Parser(players=[*PLAYERS, "diego", "fran"])
    for line, expected in CLAUSE_MOVES.items():
        reading = parser.readings(line)[0]
        assert reading.how == "cláusula" and understood(reading.command.to_json(), expected), (line, reading)
        assert plays_at_once(reading) and reading.certainty < 1.0 and reading.unexplained, (line, reading)
        assert understood(parser.parse(line).to_json(), expected), line
        # the same words with no break in them: no clause of its own, none of this reading
        assert all(r.how != "cláusula" for r in parser.readings(fold(line).replace(",", " ").replace("¿", "").replace("?", ""))), line
    for line in CLAUSE_KEPT_OUT:
        assert all(r.how != "cláusula" for r in parser.readings(line)), (line, parser.readings(line))
        assert parser.parse(line).action == "desconocido", (line, parser.parse(line))
    assert all(r.how != "cláusula" for r in parser.readings("¿seis senas? no creo nada"))  # a bid asked back is no clause of its own
    # a yes or a no said first, then talk, and a way with no one named: for the moment that waits for it only
    for line, answer in (("sí po, trato hecho", "si"), ("no, gracias, no me interesa", "no"), ("afirmativo, que así sea", "si"),
                         ("partimos por la izquierda, como el circle pit", "parte"), ("el baño está a la derecha tío, a la derecha", "parte")):
        reading = parser.readings(line)[0]
        assert reading.how == "cláusula" and reading.command.action == answer and reading.weak and plays_at_once(reading), (line, reading)
        assert parser.parse(line).action == "desconocido", line
    # who starts, then which way, in two clauses: one start
    start = parser.readings("parto yo, hacia la izquierda, como el circle pit")[0]
    assert start.how == "cláusula" and start.weak and start.command.to_json() == {"accion": "parte", "jugador": None, "sentido": "izquierda"}, start
    assert all(r.how != "cláusula" for r in parser.readings("parto yo, qué nervios"))
    assert all(r.how != "cláusula" for r in parser.readings("¿sí? no creo"))  # asked back


@given(st.lists(st.sampled_from(["dudo", "tres", "trenes", "no", "sí", "paso", "casa", "la", "que", "[unk]", "ana", "de", "quién", "turno"]),
                min_size=1, max_size=8),
       st.lists(st.sampled_from([" ", ", ", "... ", "? ¿", ": "]), min_size=8, max_size=8))
@settings(max_examples=300, deadline=None)
def test_breaks_anywhere_never_crash_and_a_clause_reading_is_one_move_said_whole(words: list[str], joins: list[str]) -> None:
    """Wherever the breaks fall, reading never fails; a clause reading is a move that stands alone,
    played with its echo, and leaves out exactly the words of the other clauses."""
    parser = _PARSER
    line = words[0] + "".join(j + w for j, w in zip(joins, words[1:], strict=False))
    readings = parser.readings(line)
    parser.parse(line)
    for reading in readings:
        if reading.how == "cláusula":
            assert reading is readings[0] and plays_at_once(reading) and reading.certainty < 1.0
            assert 0 < reading.explained < 1 and len(reading.unexplained) == round(len(parser.lexicon.said(line)) * (1 - reading.explained))


_PARSER = Parser(players=PLAYERS)


@pytest.mark.parametrize("rule", sorted(STRUCTURES))
def test_a_move_inside_a_longer_line(rule: str) -> None:
    from scripts.understanding import understood

    parser = Parser(players=[*PLAYERS, "diego", "fran"])
    for line, expected in STRUCTURES[rule]:
        readings = [r for r in parser.readings(line) if r.certainty >= ASK_AT]
        if expected is None:
            assert all(r.weak for r in readings), (rule, line, [r.command.to_json() for r in readings])
        else:
            assert readings and understood(readings[0].command.to_json(), expected), (rule, line, [r.command.to_json() for r in readings])
