"""The referee between words and moves: dialogue, confirmations, corrections."""

from __future__ import annotations

import pytest

from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.speech import Parser


class Table:
    def __init__(self, rules: str = "yocacho", players: tuple[str, ...] = ("ana", "beto", "carla")) -> None:
        self.game = Game(preset(rules), players)
        self.referee = Referee(self.game)
        self.parser = Parser(players=players)

    def say(self, text: str, certain: bool = True) -> tuple[bool, str]:
        reply = self.referee.handle(self.parser.parse(text), certain=certain)
        return reply.accepted, reply.text

    def play(self, *lines: str) -> None:
        for line in lines:
            accepted, text = self.say(line)
            assert accepted, f"{line!r} was refused: {text}"


def test_greeting_says_only_what_the_table_needs_and_the_rules_on_request() -> None:
    table = Table("caleuchano")
    text = table.referee.opening()
    assert text == ("¡Hola! Juegan ana, beto y carla, en ese orden por la izquierda. Reglas del Caleuchano. "
                    "¿Quién parte, y para qué lado? Por ejemplo: parte ana, por la izquierda.")
    accepted, rules = table.say("cuáles son las reglas")
    assert accepted and "cinco palos" in rules
    other = Game(preset("yocacho"), ["pedro", "ana"])
    assert "parte pedro, por la izquierda." in Referee(other).opening()  # the table's own first player


def test_illegal_bid_is_explained_and_changes_nothing() -> None:
    table = Table()
    table.play("parte ana", "tres trenes")
    before = table.game.snapshot()
    accepted, text = table.say("dos trenes")
    assert not accepted
    assert text == "No alcanza: cuatro de cualquier pinta, tres cuadras o dos ases. Van tres trenes. Otra vez, beto."
    assert table.game.snapshot() == before


def test_bid_with_direction_is_atomic() -> None:
    table = Table()
    table.play("parte beto")
    before = table.game.snapshot()
    accepted, _ = table.say("cero trenes por la derecha")
    assert not accepted and table.game.snapshot() == before
    table.play("tres trenes por la derecha")
    assert table.game.turn == "ana"  # beto -> right -> ana


def test_per_player_counts_are_summed_when_everyone_has_spoken() -> None:
    table = Table()
    table.play("parte ana", "tres trenes", "dudo")
    accepted, text = table.say("ana dos")
    assert accepted and text == "Van dos. Faltan beto y carla."
    accepted, text = table.say("carla tiene uno beto cero")
    assert accepted and text.startswith("Había tres trenes justos. Beto pierde un dado")


def test_a_total_overrides_partial_counts() -> None:
    table = Table()
    table.play("parte ana", "tres trenes", "dudo", "ana dos", "hay cuatro")
    assert table.game.seats["beto"].dice == 4


def test_count_over_a_players_dice_is_refused() -> None:
    table = Table()
    table.play("parte ana", "tres trenes", "dudo")
    accepted, text = table.say("ana tiene seis")
    assert not accepted and text == "Ana tiene cinco dados: no puede tener seis."


def test_dictated_hands_in_reveal_order() -> None:
    table = Table(players=("ana", "beto"))
    table.play("parte ana", "tres trenes", "dudo")
    accepted, text = table.say("as tren cuadra cuadra sena")
    assert accepted and text == "¿Y beto?"
    accepted, text = table.say("tren tren quina quina quina")
    assert accepted and "Había cuatro trenes" in text  # ace + tren, and two trenes


def test_undo_of_a_partial_count_then_of_a_step() -> None:
    table = Table()
    table.play("parte ana", "tres trenes", "dudo", "ana dos")
    accepted, text = table.say("corrección")
    assert accepted and text == "Borré lo de ana."
    accepted, text = table.say("corrección")
    assert accepted and text.startswith("Ya, borré el dudo de beto.")
    assert table.game.phase == "apuestas" and table.game.turn == "beto"


def test_uncertain_count_that_eliminates_asks_first() -> None:
    table = Table(players=("ana", "beto"))
    table.play("parte ana")
    table.game.seats["beto"].dice = 1
    table.play("tres trenes", "dudo")
    before = table.game.snapshot()
    accepted, text = table.say("hay cuatro", certain=False)
    assert accepted and text == "Entendí cuatro y beto queda fuera. ¿Es así? Sí o no."
    assert table.game.snapshot() == before
    accepted, text = table.say("no")
    assert text == "Ya, no hago nada." and table.game.snapshot() == before
    table.say("hay cuatro", certain=False)
    accepted, text = table.say("sí")
    assert accepted and "¡Ganó ana!" in text


def test_uncertain_undo_and_castigo_ask_first() -> None:
    table = Table()
    table.play("parte ana", "tres trenes")
    _, text = table.say("corrección", certain=False)
    assert text == "¿Borro los tres trenes de ana? Sí o no."
    table.play("sí")
    assert table.game.bid is None
    _accepted, text = table.say("palo para beto", certain=False)
    assert text == "¿Castigo para beto? Sí o no."
    table.play("sí")
    assert table.game.seats["beto"].dice == 4


def test_an_undo_word_said_to_a_question_drops_the_question_and_undoes_nothing() -> None:
    """"cancela", "borra eso" answering "¿Castigo para beto?" cancel the castigo;
    the bid before it stays."""
    table = Table()
    table.play("parte ana", "tres trenes")
    before = table.game.snapshot()
    for word in ("cancela", "borra eso"):
        assert table.say("palo para beto", certain=False)[1] == "¿Castigo para beto? Sí o no."
        assert table.say(word) == (True, "Ya, no hago nada.")
        assert table.game.snapshot() == before and table.referee.awaiting is None


def test_queries() -> None:
    table = Table("caleuchano")
    assert table.say("a quién le toca")[1].startswith("Todavía nadie parte")
    table.play("parte beto", "tres trenes")
    assert table.say("cuántos dados hay") == (True, "Hay quince dados en la mesa.")
    assert table.say("repite") == (True, "Van tres trenes, de beto. Le toca a carla.")
    assert table.say("a quién le toca") == (True, "Le toca a carla.")
    assert table.say("cómo vamos") == (True, "Nadie tiene palos todavía.")


def test_dice_query_counts_dice_in_play() -> None:
    table = Table("yocacho")
    table.play("parte ana", "tres trenes", "dudo", "hay uno")
    assert table.say("cuántos dados hay") == (True, "Quedan catorce dados en la mesa.")


def test_not_understood_and_partial_answers() -> None:
    table = Table()
    table.play("parte ana")
    assert table.say("tengo sed") == (False, "¿Cómo? Repite, por favor.")
    assert table.say("subo a cinco") == (False, "¿Cinco qué?")
    assert table.say("trenes") == (False, "¿Cuántos trenes?")
    assert table.say("cuatro") == (False, "¿Cuatro qué? Digan la cantidad y la pinta.")


def test_calls_out_of_place_get_a_reason() -> None:
    table = Table("caleuchano", players=("ana", "beto"))
    table.play("parte ana", "tres trenes")
    assert table.say("calzo") == (False, "En estas reglas no se calza. Otra vez, beto.")
    assert table.say("mato") == (False, "En estas reglas no se mata. Otra vez, beto.")
    assert table.say("ana tiene dos")[1] == "Eso se dice después de levantar los cachos."
    assert table.say("sí")[1] == "No hay nada que confirmar."


def test_during_the_count_a_bid_of_the_counted_face_is_a_count() -> None:
    table = Table()
    table.play("parte ana", "tres trenes", "dudo")
    assert table.say("hay tres cuadras")[1].startswith("Esa no es la pinta")
    table.play("hay tres trenes")
    assert table.game.seats["beto"].dice == 4


def test_game_over_answers_but_accepts_nothing() -> None:
    table = Table(players=("ana", "beto"))
    table.game.seats["beto"].dice = 1
    table.play("parte ana", "tres trenes", "dudo", "hay tres")
    accepted, text = table.say("dos quinas")
    assert not accepted and "Ganó ana" in text
    assert table.say("cómo vamos")[0]


@pytest.mark.parametrize("rules", ["caleuchano", "yocacho", "chimbo9", "clasico"])
def test_every_reply_is_spanish_text_without_placeholders(rules: str) -> None:
    table = Table(rules)
    for line in ["parte carla por la derecha", "dos tontos", "dos ases", "paso", "dudo", "no", "cómo vamos"]:
        _, text = table.say(line)
        assert text and "{" not in text and "None" not in text, text


def test_calzo_at_full_dice_says_nothing_was_gained() -> None:
    table = Table("yocacho")
    table.play("parte beto", "dos trenes", "tres ases", "calzo")
    accepted, text = table.say("hay tres")
    assert accepted and text == "Había tres ases justos. Ana calzó, pero ya tiene todos sus dados: queda igual. Parte ana."
    assert table.game.seats["ana"].dice == 5 and table.game.seats["ana"].banked == 0


def test_session_uses_confidence_and_stays_quiet_on_chatter() -> None:
    from assistant.session import Session
    from assistant.voice.heard import Heard, from_vosk

    def spoken(text: str, conf: float) -> Heard:
        words = [{"word": w, "conf": conf, "start": i * 0.4, "end": i * 0.4 + 0.3} for i, w in enumerate(text.split())]
        heard = from_vosk({"text": text, "result": words})
        assert heard is not None
        return heard

    game = Game(preset("yocacho"), ["ana", "beto"])
    said: list[str] = []
    session = Session(Referee(game), Parser(players=game.players), say=said.append, ignore_chatter=True)
    session.hear(spoken("parte ana", 0.95))
    before = game.snapshot()
    reply = session.hear(spoken("tres trenes", 0.3))  # too unsure to act on
    assert not reply.accepted and said[-1] == "¿Cómo? Repite, por favor." and game.snapshot() == before
    session.hear(spoken("tres trenes", 0.9))
    game.seats["beto"].dice = 1
    session.hear(spoken("dudo", 0.9))
    session.hear(spoken("hay tres", 0.7))  # would put beto out: confirm first
    assert said[-1].startswith("Entendí tres y beto queda fuera") and not game.over
    count = len(said)
    session.hear(spoken("tengo sed", 0.99))  # chatter: silence in voice mode, question still open
    assert len(said) == count
    session.hear(spoken("sí", 0.9))
    assert game.over and "¡Ganó ana!" in said[-1]


def test_a_named_caller_out_of_turn_gets_a_reason() -> None:
    table = Table()
    table.play("parte ana", "tres trenes")
    before = table.game.snapshot()
    assert table.say("carla dudo") == (False, "Le toca a beto, no a carla. Otra vez, beto.")
    assert table.say("carla cuatro trenes") == (False, "Le toca a beto, no a carla. Otra vez, beto.")
    assert table.game.snapshot() == before
    table.play("beto duda")
    assert table.game.phase == "cuenta"


def test_a_named_first_bid_says_who_starts() -> None:
    table = Table()
    accepted, text = table.say("beto tres trenes")
    assert accepted and text == "Tres trenes. Sigue carla." and table.game.starter == "beto"


def test_pass_verdict_in_words() -> None:
    table = Table("caleuchano")
    table.play("parte ana", "tres trenes", "paso", "dudo")
    accepted, text = table.say("tenía full")
    assert accepted and text.startswith("El paso de beto valía. Palo para carla")


# ---------------------------------------------------------------- natural phrasing reaches the game (issue 10)


def test_a_bare_raise_keeps_the_face_on_the_table() -> None:
    table = Table()
    table.play("parte ana", "cuatro trenes")
    assert table.say("subo a cinco") == (True, "Cinco trenes. Sigue carla.")
    assert table.say("pongámosle seis") == (True, "Seis trenes. Sigue ana.")
    assert table.say("siete") == (True, "Siete trenes. Sigue beto.")
    before = table.game.snapshot()
    assert table.say("seis")[0] is False and table.game.snapshot() == before  # not a raise: refused with the reason


def test_a_call_restating_another_bid_changes_nothing() -> None:
    table = Table()
    table.play("parte ana", "cuatro trenes")
    before = table.game.snapshot()
    accepted, text = table.say("dudo cinco trenes")
    assert not accepted and text == "La apuesta es cuatro trenes de ana, no cinco trenes. Nada cambió."
    assert table.game.snapshot() == before
    accepted, text = table.say("dudo esos cuatro trenes")
    assert accepted and text.startswith("Beto duda los cuatro trenes de ana.")


def test_a_hand_named_by_its_kind_is_judged_by_the_preset() -> None:
    yocacho = Table("yocacho")
    yocacho.play("parte ana", "tres quinas", "paso", "dudo")
    accepted, text = yocacho.say("tenía póker")  # no poker among yocacho's pass hands
    assert accepted and "no valía" in text
    caleuchano = Table("caleuchano")
    caleuchano.play("parte ana", "tres quinas", "paso", "dudo")
    accepted, text = caleuchano.say("tenía póker")
    assert accepted and "valía" in text and "no valía" not in text


def test_a_kind_is_not_a_count() -> None:
    table = Table()
    table.play("parte ana", "tres quinas", "dudo")
    before = table.game.snapshot()
    accepted, text = table.say("pichanga")
    assert not accepted and "necesito los dados" in text and table.game.snapshot() == before


def test_natural_counts_and_articles() -> None:
    table = Table()
    table.play("parte ana", "tres quinas", "dudo")
    assert table.say("la ana tiene uno con el as") == (True, "Va uno. Faltan beto y carla.")
    assert table.say("el beto no tiene")[0]
    accepted, text = table.say("carla dos nomás")
    assert accepted and text.startswith("Había tres quinas justas.")


def test_a_count_said_with_its_face_must_name_the_face_counted() -> None:
    table = Table()
    table.play("parte ana", "tres cuadras", "dudo")
    before = table.game.snapshot()
    accepted, text = table.say("habían tres quinas")
    assert not accepted and text.startswith("Esa no es la pinta que se está contando.") and table.game.snapshot() == before
    accepted, text = table.say("habían tres cuadras")
    assert accepted and text.startswith("Había tres cuadras justas.")
