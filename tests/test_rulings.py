"""Rulings checked against the books: imposed rounds, the siciliana, direction,
bids above the table, prompts, and the variants the rulebooks name."""

from __future__ import annotations

import pytest

from assistant import replies
from assistant.rules import AS, Bid, Call, Count, Game, Hands, Oblige, Raise, Revive, Start, preset, with_overrides
from assistant.rules import refusals as no
from assistant.rules.errors import MalformedBid, RulesError
from assistant.rules.events import Called, GameOver, Revived, StarterNamed
from assistant.rules.game import LEFT, RIGHT


def game_of(name: str, players: list[str], **overrides: object) -> Game:
    rules = preset(name)
    if overrides:
        rules = with_overrides(rules, dict(overrides))
    return Game(rules, players)


def refused(game: Game, action: object) -> no.Reason:
    before = game.snapshot()
    with pytest.raises(RulesError) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert game.snapshot() == before
    return info.value.reason


def opener_loses(game: Game, quantity: int = 5, face: int = 3) -> None:
    """The player to act opens, the next doubts, nothing is there: the opener loses."""
    assert game.turn is not None
    game.apply(Raise(game.turn, Bid(quantity, face)))
    assert game.turn is not None
    game.apply(Call(game.turn, "dudo"))
    game.apply(Count(0))


# ---------------------------------------------------------------- an imposed round survives naming its starter


def yocacho_obligo_of_carla() -> Game:
    game = game_of("yocacho", ["ana", "beto", "carla"])
    game.apply(Start("carla", "izquierda"))
    for _ in range(4):  # the loser starts the next round: carla loses four in a row
        opener_loses(game)
    assert game.seats["carla"].dice == 1 and game.obligo is not None and game.obligo.obligador == "carla"
    return game


def test_naming_the_obligador_and_a_direction_keeps_the_obligo() -> None:
    game = yocacho_obligo_of_carla()
    events = game.apply(Start("carla", "derecha"))
    assert events == [StarterNamed("carla", "derecha", "carla")]
    assert game.obligo is not None and game.obligo.obligador == "carla" and game.direction == RIGHT
    assert replies.step(game, events) == "Parte carla, por la derecha. Sigue siendo el obligo de carla."
    game.apply(Raise("carla", Bid(2, 3)))
    assert game.turn == "beto"  # to the right of carla
    assert isinstance(refused(game, Raise("beto", Bid(2, 4))), no.ObligoFaceFixed)
    game.apply(Raise("beto", Bid(3, 3)))


def test_naming_another_starter_in_an_obligo_is_refused_with_the_reason() -> None:
    game = yocacho_obligo_of_carla()
    reason = refused(game, Start("beto", "derecha"))
    assert reason == no.StarterImposed("carla", obligo=True)
    assert replies.refusal(reason) == "En el obligo parte carla."
    # a direction alone is fine, and the obligo stays
    game.apply(Start(None, "derecha"))
    assert game.obligo is not None and game.direction == RIGHT


def test_caleuchano_obligado_survives_naming_its_starter() -> None:
    game = game_of("caleuchano", ["ana", "beto", "carla"])
    game.seats["carla"].palos = 3
    game.apply(Start("carla", "izquierda"))
    opener_loses(game, face=4)
    assert game.seats["carla"].palos == 4 and game.obligo is not None
    game.apply(Start("carla", "derecha"))
    assert game.obligo is not None and game.obligo.obligador == "carla"
    game.apply(Raise("carla", Bid(2, 3)))
    assert isinstance(refused(game, Raise("beto", Bid(2, 4))), no.ObligoFaceFixed)  # beto has no palos


def test_undo_and_replay_across_the_obligo_boundary_give_the_same_round() -> None:
    game = yocacho_obligo_of_carla()
    game.apply(Start("carla", "derecha"))
    live = game.snapshot()
    game.undo()
    assert game.obligo is not None and game.direction == LEFT
    game.apply(Start("carla", "derecha"))
    assert game.snapshot() == live


def test_a_changed_first_starter_does_not_keep_anothers_obligo() -> None:
    game = game_of("yocacho", ["ana", "beto", "carla"], dice_per_player=1)
    game.apply(Start("ana"))
    assert game.obligo is not None and game.obligo.obligador == "ana"
    game.apply(Start("beto"))  # the table changed its mind before the first bid
    assert game.obligo is not None and game.obligo.obligador == "beto"
    assert game.obligo_used == {"beto"}


# ---------------------------------------------------------------- the siciliana


def test_yocacho_siciliana_does_not_count_aces() -> None:
    game = game_of("yocacho", ["ana", "beto", "carla"], siciliana=True)
    game.apply(Start("ana", "izquierda"))
    game.apply(Raise("ana", Bid(6, 3)))
    game.apply(Call("beto", "siciliana"))
    assert not game.wild_now()
    game.apply(Hands.of({"ana": [3, 3, 3, 3, AS], "beto": [AS, AS, 2, 4, 5], "carla": [2, 2, 4, 5, 6]}))
    assert game.seats["ana"].dice == 3 and game.seats["beto"].dice == 5  # four trenes, not seven


def test_yocacho_siciliana_aces_wild_when_the_table_says_so() -> None:
    game = game_of("yocacho", ["ana", "beto", "carla"], siciliana=True, siciliana_wild=True)
    game.apply(Start("ana", "izquierda"))
    game.apply(Raise("ana", Bid(6, 3)))
    game.apply(Call("beto", "siciliana"))
    game.apply(Hands.of({"ana": [3, 3, 3, 3, AS], "beto": [AS, AS, 2, 4, 5], "carla": [2, 2, 4, 5, 6]}))
    assert game.seats["beto"].dice == 3 and game.seats["ana"].dice == 5


def test_clasico_any_doubt_of_the_opening_is_the_siciliana() -> None:
    game = game_of("clasico", ["ana", "beto", "carla"], siciliana=True)
    game.apply(Start("ana", "izquierda"))
    game.apply(Raise("ana", Bid(6, 3)))
    events = game.apply(Call("beto", "dudo"))
    assert isinstance(events[0], Called) and events[0].call == "siciliana"
    assert replies.step(game, events).startswith("Beto duda a la siciliana los seis trenes de ana")
    game.apply(Count(2))
    assert game.seats["ana"].dice == 3


def test_clasico_siciliana_with_one_die_and_later_doubts_are_plain() -> None:
    game = game_of("clasico", ["ana", "beto", "carla"], siciliana=True)
    game.seats["ana"].dice = 1
    game.apply(Start("ana", "izquierda"))
    game.apply(Raise("ana", Bid(2, 3)))
    events = game.apply(Call("beto", "dudo"))
    assert isinstance(events[0], Called) and events[0].call == "siciliana"  # no one-die exclusion in the wiki
    plain = game_of("clasico", ["ana", "beto", "carla"], siciliana=True)
    plain.apply(Start("ana", "izquierda"))
    plain.apply(Raise("ana", Bid(2, 3)))
    plain.apply(Raise("beto", Bid(3, 3)))
    events = plain.apply(Call("carla", "dudo"))
    assert isinstance(events[0], Called) and events[0].call == "dudo"
    off = game_of("clasico", ["ana", "beto", "carla"])
    off.apply(Start("ana", "izquierda"))
    off.apply(Raise("ana", Bid(2, 3)))
    events = off.apply(Call("beto", "dudo"))
    assert isinstance(events[0], Called) and events[0].call == "dudo"


# ---------------------------------------------------------------- direction, bids above the table


def test_chimbo9_plays_to_the_right_by_default() -> None:
    game = game_of("chimbo9", ["ana", "beto", "carla", "dani"])
    assert game.direction == RIGHT
    events = game.apply(Start("ana"))
    assert events == [StarterNamed("ana", "derecha")]
    game.apply(Raise("ana", Bid(2, 3)))
    assert game.turn == "dani"
    assert game_of("yocacho", ["ana", "beto"]).direction == LEFT


def test_a_bid_above_the_dice_in_play_is_legal_and_doomed() -> None:
    game = game_of("clasico", ["ana", "beto"])
    game.apply(Start("ana", "izquierda"))
    events = game.apply(Raise("ana", Bid(11, 3)))
    assert replies.step(game, events) == "Once trenes, y en la mesa hay diez dados. Sigue beto."
    game.apply(Call("beto", "dudo"))
    game.apply(Count(10))
    assert game.seats["ana"].dice == 4


def test_the_house_may_refuse_bids_above_the_table() -> None:
    game = game_of("clasico", ["ana", "beto"], bid_over_dice_refused=True)
    game.apply(Start("ana", "izquierda"))
    reason = refused(game, Raise("ana", Bid(11, 3)))
    assert replies.refusal(reason) == "En la mesa hay diez dados: no se puede apostar once trenes."
    assert game.is_legal(Raise("ana", Bid(10, 3)))


def test_a_quantity_no_table_could_mean_is_a_slip() -> None:
    game = game_of("clasico", ["ana", "beto"])
    game.apply(Start("ana", "izquierda"))
    assert game.is_legal(Raise("ana", Bid(20, 3)))
    with pytest.raises(MalformedBid) as info:
        game.apply(Raise("ana", Bid(21, 3)))
    assert replies.refusal(info.value.reason) == "¿Veintiuno? No hay tantos dados: repitan la apuesta."


# ---------------------------------------------------------------- prompts offer only what is legal


def test_partida_falsa_prompt_in_one_vs_one_does_not_offer_calzo() -> None:
    game = game_of("yocacho", ["ana", "beto"])
    game.apply(Start("ana", "izquierda"))
    events = game.apply(Raise("ana", Bid(2, AS)))
    text = replies.step(game, events)
    assert "calza" not in text and text.endswith("Beto: duda o apuesta lo que quieras.")
    full = game_of("yocacho", ["ana", "beto", "carla"])
    full.apply(Start("ana", "izquierda"))
    assert replies.step(full, full.apply(Raise("ana", Bid(2, AS)))).endswith("Beto: duda, calza, pasa o apuesta lo que quieras.")


def test_caleuchano_paso_prompt_says_the_next_may_pass_too() -> None:
    game = game_of("caleuchano", ["ana", "beto", "carla"])
    game.apply(Start("ana", "izquierda"))
    game.apply(Raise("ana", Bid(3, 5)))
    text = replies.step(game, game.apply(Call("beto", "paso")))
    assert text == "Pasa beto. Carla: duda el paso, pasa tú también o sube de tres quinas."
    yo = game_of("yocacho", ["ana", "beto", "carla"])
    yo.apply(Start("ana", "izquierda"))
    yo.apply(Raise("ana", Bid(3, 5)))
    assert replies.step(yo, yo.apply(Call("beto", "paso"))) == "Pasa beto. Carla: duda el paso o sube de tres quinas."


# ---------------------------------------------------------------- variants the books name


def test_clasico_obligar_en_cualquier_etapa() -> None:
    game = game_of("clasico", ["ana", "beto", "carla"], obligo_any_time=True)
    game.apply(Start("ana", "izquierda"))
    assert replies.step(game, [StarterNamed("ana", "izquierda")]) == "Parte ana, por la izquierda."  # not announced
    assert isinstance(refused(game, Oblige("beto")), no.NotYourTurn)
    game.apply(Raise("ana", Bid(2, 3)))  # opening normally keeps the obligo for a later round
    assert "ana" not in game.obligo_used
    game.apply(Call("beto", "dudo"))
    game.apply(Count(0))  # ana loses and starts
    events = game.apply(Oblige("ana", closed=False))
    assert game.obligo is not None and game.obligo.obligador == "ana" and events
    game.apply(Raise("ana", Bid(2, AS)))  # aces are not wild in the obligo, and may open
    game.apply(Call("beto", "dudo"))
    game.apply(Count(5))  # beto loses and starts
    game.apply(Raise("beto", Bid(2, 3)))
    game.apply(Call("carla", "dudo"))
    game.apply(Count(0))  # beto loses; ana's obligo is spent
    assert game.starter == "beto"
    assert game.obligo_offer == "beto" and game.is_legal(Oblige("beto", False))  # his is still unused
    assert "ana" in game.obligo_used
    without = game_of("clasico", ["ana", "beto", "carla"])
    without.apply(Start("ana", "izquierda"))
    assert replies.refusal(refused(without, Oblige("ana"))) == "Se obliga al quedar con un solo dado, y en la ronda que uno parte."


def test_caleuchano_revivimos_when_all_have_the_same_palos() -> None:
    game = game_of("caleuchano", ["ana", "beto", "carla"], revivir=True)
    for p in game.players:
        game.seats[p].palos = 2
    game.apply(Start("ana", "izquierda"))
    events = game.apply(Revive(None))
    assert events == [Revived(("ana", "beto", "carla"), (1, 1, 1))]
    assert replies.step(game, events) == "Reviven todos: cada uno devuelve un palo. Parte ana."
    assert replies.refusal(refused(game, Revive(None))) == "Ya se revivió una vez en esta partida."
    unequal = game_of("caleuchano", ["ana", "beto", "carla"], revivir=True)
    unequal.seats["ana"].palos = 1
    unequal.apply(Start("ana", "izquierda"))
    assert isinstance(refused(unequal, Revive(None)), no.ReviveUnequal)
    off = game_of("caleuchano", ["ana", "beto", "carla"])
    off.apply(Start("ana", "izquierda"))
    assert replies.refusal(refused(off, Revive(None))) == "En estas reglas no se revive."


def test_caleuchano_revivo_instead_of_the_obligado() -> None:
    game = game_of("caleuchano", ["ana", "beto", "carla"], revivir=True)
    game.seats["carla"].palos = 3
    game.apply(Start("carla", "izquierda"))
    events = game.apply(Raise("carla", Bid(5, 4)))
    game.apply(Call("ana", "dudo"))
    result = replies.result(game, game.apply(Count(0)))
    assert result.endswith("Carla, también puedes revivir y jugar normal: di revivo.")
    assert isinstance(refused(game, Revive("ana")), no.ReviveNotObligado)
    events = game.apply(Revive("carla"))
    assert game.seats["carla"].palos == 3 and game.obligo is None and "carla" not in game.obligo_used
    assert replies.step(game, events) == "Carla revive: devuelve el palo y queda con tres, sin obligado. Parte carla."
    game.apply(Raise("carla", Bid(2, 3)))
    game.apply(Raise("ana", Bid(2, 4)))  # a normal round: faces change


def test_revivo_is_closed_while_another_has_four_palos() -> None:
    game = game_of("caleuchano", ["ana", "beto", "carla"], revivir=True)
    game.seats["carla"].palos = 3
    game.seats["beto"].palos = 4
    game.apply(Start("carla", "izquierda"))
    opener_loses(game, face=4)
    reason = refused(game, Revive("carla"))
    assert replies.refusal(reason) == "No se puede revivir: beto también está a un palo de salir."


def test_caleuchano_winners_and_payers_are_announced() -> None:
    game = game_of("caleuchano", ["ana", "beto", "carla", "dani"], winners=2, payers=1, loss_limit=1)
    game.apply(Start("ana", "izquierda"))
    opener_loses(game, face=4)  # ana out
    assert game.starter is not None
    opener_loses(game, face=4)  # the next opener out: two remain, the game ends
    assert game.over and len(game.winners) == 2
    text = replies.game_over_already(game)
    assert text.startswith(f"¡Ganaron {game.winners[0]} y {game.winners[1]}! Paga ana.")


def test_clasico_variant_refusals_are_spoken() -> None:
    game = game_of("clasico", ["ana", "beto", "carla"], paso_after_paso=False)
    game.apply(Start("ana", "izquierda"))
    game.apply(Raise("ana", Bid(2, 3)))
    game.apply(Call("beto", "paso"))
    assert replies.refusal(refused(game, Call("carla", "paso"))) == "No se puede pasar un paso: hay que dudar el paso o subir."
    full = game_of("clasico", ["ana", "beto", "carla"], calzo_max_dice_forbidden=True)
    full.apply(Start("ana", "izquierda"))
    full.apply(Raise("ana", Bid(2, 3)))
    assert replies.refusal(refused(full, Call("beto", "calzo"))) == "Con todos tus dados no se calza."


def test_game_over_event_names_the_payers() -> None:
    game = game_of("chimbo9", ["ana", "beto", "carla"], payers=1, loss_limit=1)
    game.apply(Start("ana"))
    opener_loses(game)
    assert game.starter is not None
    game.apply(Raise(game.starter, Bid(5, 3)))
    assert game.turn is not None
    game.apply(Call(game.turn, "dudo"))
    events = list(game.apply(Count(0)))
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].payers == ("ana",)
    assert replies.result(game, events).endswith("Paga ana. Buena partida.")
