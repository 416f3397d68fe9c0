"""Every rule and worked example of the rulebooks, preset by preset."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.replies import refusal
from assistant.rules import (
    AS,
    HIDDEN,
    Bid,
    Call,
    Count,
    Game,
    Hands,
    IllegalAction,
    MalformedBid,
    Oblige,
    Penalty,
    Raise,
    RuleSetError,
    ShownHand,
    Start,
    Verdict,
    hand_kinds,
    load_rules,
    preset,
    valid_pass,
    with_overrides,
)
from assistant.rules import refusals as no
from assistant.rules.errors import RulesError
from assistant.rules.events import GameOver, PassJudged, Penalized

PLAYERS = ["ana", "beto", "carla", "dani"]


def said(err: RulesError | None) -> str:
    """What the table hears for a refusal (the engine only gives the reason)."""
    assert err is not None
    return refusal(err.reason)


def new(name: str, players: list[str] | None = None, **overrides: object) -> Game:
    rules = preset(name)
    if overrides:
        rules = with_overrides(rules, dict(overrides))
    game = Game(rules, players or PLAYERS)
    game.apply(Start("ana", "izquierda"))
    return game


def bids(game: Game, *spec: tuple[int, int]) -> None:
    """Each player in turn bids the given (quantity, face)."""
    for q, f in spec:
        assert game.turn is not None
        game.apply(Raise(game.turn, Bid(q, f)))


def legal_after(game: Game, prev: tuple[int, int], new_bid: tuple[int, int]) -> bool:
    g = game.copy()
    bids(g, (1, 2), prev)  # open plainly first: an ace opening would be a partida falsa
    assert g.turn is not None
    return g.is_legal(Raise(g.turn, Bid(*new_bid)))


# ---------------------------------------------------------------- aces conversions

@pytest.mark.parametrize(
    "name, prev, new_bid, ok",
    [
        # yocacho: "mitad redondeado hacia arriba"
        ("yocacho", (4, 5), (2, AS), True),  # 4 quinas -> 2 ases
        ("yocacho", (5, 3), (3, AS), True),  # 5 trenes -> 3 ases
        ("yocacho", (5, 3), (2, AS), False),
        ("yocacho", (8, 4), (4, AS), True),  # 8 cuadras -> 4 ases
        ("yocacho", (7, 6), (4, AS), True),  # 7 senas -> 4 ases
        ("yocacho", (7, 6), (3, AS), False),
        ("yocacho", (2, AS), (5, 4), True),  # 2 ases -> 5 cuadras
        ("yocacho", (2, AS), (4, 6), False),
        ("yocacho", (3, AS), (7, 2), True),  # 3 ases -> 7 tontos
        ("yocacho", (3, AS), (6, 6), False),
        ("yocacho", (3, AS), (4, AS), True),
        ("yocacho", (3, AS), (3, AS), False),
        # caleuchano: "la mitad o mayor que la mitad", "doblo mas uno"
        ("caleuchano", (4, 5), (2, AS), True),
        ("caleuchano", (5, 3), (3, AS), True),
        ("caleuchano", (5, 3), (2, AS), False),
        ("caleuchano", (2, AS), (5, 4), True),
        ("caleuchano", (3, AS), (7, 2), True),
        # clasico: n//2 + 1 ("siete trenes" -> cuatro ases, "ocho" -> cinco)
        ("clasico", (7, 3), (4, AS), True),
        ("clasico", (8, 3), (4, AS), False),
        ("clasico", (8, 3), (5, AS), True),
        ("clasico", (4, 5), (3, AS), True),
        ("clasico", (4, 5), (2, AS), False),
        ("clasico", (2, AS), (5, 3), True),
        # chimbo9: la mitad más uno, never the same quantity, aces lowest
        ("chimbo9", (2, 2), (2, AS), False),  # "dos tontos" -> "dos ases" is forbidden
        ("chimbo9", (2, 2), (3, AS), True),
        ("chimbo9", (1, 4), (1, AS), False),
        ("chimbo9", (1, 4), (2, AS), True),
        ("chimbo9", (6, 4), (4, AS), True),
        ("chimbo9", (6, 4), (3, AS), False),
        ("chimbo9", (3, AS), (7, 2), True),
        ("chimbo9", (3, AS), (6, 2), False),
        # ordinary raises
        ("chimbo9", (2, 2), (3, 2), True),  # "dos tontos" -> "tres tontos"
        ("chimbo9", (2, 2), (2, 3), True),  # -> "dos trenes"
        ("clasico", (2, 3), (2, 2), False),  # "no podrá decir dos tontos"
        ("clasico", (2, 3), (2, 4), True),
        ("clasico", (2, 3), (3, 2), True),
        ("caleuchano", (5, 5), (5, 5), False),
    ],
)
def test_raise_table(name: str, prev: tuple[int, int], new_bid: tuple[int, int], ok: bool) -> None:
    game = new(name)
    assert legal_after(game, prev, new_bid) is ok


def test_illegal_raise_explains_what_is_allowed() -> None:
    game = new("yocacho")
    bids(game, (5, 5))
    err = game.violation(Raise("beto", Bid(4, 6)))
    assert err is not None
    assert said(err) == "No alcanza: seis de cualquier pinta, cinco senas o tres ases. Van cinco quinas."
    bids(game, (2 * 3, 6))
    err = game.violation(Raise("carla", Bid(6, 2)))
    assert err is not None and "seis senas" in said(err) and "siete de cualquier pinta" in said(err)


def test_after_aces_the_hint_names_aces_and_double_plus_one() -> None:
    game = new("caleuchano")
    bids(game, (2, AS))
    err = game.violation(Raise("beto", Bid(4, 4)))
    assert err is not None
    assert said(err) == "No alcanza: tres ases o cinco de cualquier otra pinta. Van dos ases."


def test_illegal_action_leaves_state_unchanged() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.apply(Raise("beto", Bid(2, 3)))
    with pytest.raises(IllegalAction):
        game.apply(Raise("carla", Bid(9, 3)))  # not her turn
    assert game.snapshot() == before


def test_malformed_bids() -> None:
    game = new("clasico")
    with pytest.raises(MalformedBid):
        game.apply(Raise("ana", Bid(0, 3)))
    with pytest.raises(MalformedBid):
        game.apply(Raise("ana", Bid(3, 9)))


# ---------------------------------------------------------------- dudo and counts

def test_dudo_count_reaching_the_bid_costs_the_doubter() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    assert game.phase == "cuenta"
    events = game.apply(Count(3))
    assert game.seats["beto"].dice == 4
    assert game.starter == "beto" and game.turn == "beto"
    assert events[0].total == 3


def test_dudo_count_short_costs_the_bidder() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(2))
    assert game.seats["ana"].dice == 4 and game.starter == "ana"


def test_hands_are_counted_with_wildcards() -> None:
    game = new("yocacho", players=["ana", "beto"])
    bids(game, (4, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Hands.of({"ana": [1, 3, 5, 6, 2], "beto": [3, 3, 4, 4, 4]}))
    assert game.seats["beto"].dice == 4  # one ace + three trenes = 4


def test_aces_bid_counts_only_aces() -> None:
    game = new("yocacho", players=["ana", "beto"])
    bids(game, (5, 4), (3, AS))
    game.apply(Call("ana", "dudo"))
    game.apply(Hands.of({"ana": [1, 4, 4, 4, 4], "beto": [1, 4, 4, 2, 2]}))
    assert game.seats["beto"].dice == 4  # two aces < three


def test_hands_must_match_each_players_dice() -> None:
    game = new("yocacho", players=["ana", "beto"])
    bids(game, (4, 3))
    game.apply(Call("beto", "dudo"))
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=re.escape(repr(no.MissingHand("beto")))):
        game.apply(Hands.of({"ana": [1, 3, 5, 6, 2]}))
    with pytest.raises(IllegalAction, match=re.escape(repr(no.HandSize("ana", 5, 4)))):
        game.apply(Hands.of({"ana": [1, 3, 5, 6], "beto": [3, 3, 4, 4, 4]}))
    with pytest.raises(IllegalAction, match=re.escape(repr(no.CountTooBig(11, 10)))):
        game.apply(Count(11))
    assert game.snapshot() == before


def test_millas_bonus_in_caleuchano() -> None:
    game = new("caleuchano")
    bids(game, (6, 2))
    game.apply(Call("beto", "dudo"))
    events = game.apply(Count(5))
    assert events[0].bonus == 1 and events[0].total == 6
    assert game.seats["beto"].palos == 1


def test_no_millas_bonus_outside_caleuchano() -> None:
    game = new("yocacho")
    bids(game, (6, 2))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(5))
    assert game.seats["ana"].dice == 4


def test_millas_allow_bidding_one_above_the_dice() -> None:
    game = new("caleuchano", players=["ana", "beto"])
    assert game.most_possible(2) == 11 and game.most_possible(3) == 10
    capped = new("caleuchano", players=["ana", "beto"], bid_over_dice_refused=True)
    assert capped.is_legal(Raise("ana", Bid(11, 2)))
    assert not capped.is_legal(Raise("ana", Bid(11, 3)))


# ---------------------------------------------------------------- calzo

def test_calzo_exact_gains_a_die_capped_at_five_in_yocacho() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "calzo"))
    game.apply(Count(3))
    assert game.seats["beto"].dice == 5 and game.seats["beto"].banked == 0
    assert game.starter == "beto"


def test_calzo_wrong_loses_a_die() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "calzo"))
    game.apply(Count(4))
    assert game.seats["beto"].dice == 4


def test_calzo_exact_at_five_banks_a_die_in_clasico_and_it_is_spent_first() -> None:
    game = new("clasico")
    bids(game, (3, 3))
    game.apply(Call("beto", "calzo"))
    game.apply(Count(3))
    assert game.seats["beto"].banked == 1 and game.seats["beto"].dice == 5
    # beto starts; he bids, carla doubts and beto was wrong: the banked die goes
    bids(game, (9, 4))
    game.apply(Call("carla", "dudo"))
    game.apply(Count(2))
    assert game.seats["beto"].banked == 0 and game.seats["beto"].dice == 5


def test_calzo_only_with_half_the_dice_in_play_yocacho() -> None:
    game = new("yocacho", players=["ana", "beto", "carla"])
    for name in ("ana", "beto"):
        game.seats[name].dice = 2
    game.seats["carla"].dice = 3  # 7 of 15 < half
    bids(game, (2, 3))
    err = game.violation(Call("beto", "calzo"))
    assert err is not None and "hace falta la mitad: ocho" in said(err)
    game.seats["carla"].dice = 4  # 8 of 15 >= half
    assert game.is_legal(Call("beto", "calzo"))


def test_calzo_refused_where_the_rules_have_none() -> None:
    for name in ("caleuchano", "chimbo9"):
        game = new(name)
        bids(game, (3, 3))
        err = game.violation(Call("beto", "calzo"))
        assert err is not None and said(err) == "En estas reglas no se calza."


def test_clasico_variant_no_calzo_with_all_dice() -> None:
    game = new("clasico", calzo_max_dice_forbidden=True)
    bids(game, (3, 3))
    assert not game.is_legal(Call("beto", "calzo"))
    game.seats["beto"].dice = 4
    assert game.is_legal(Call("beto", "calzo"))


# ---------------------------------------------------------------- mato

def test_mato_exact_kills_the_bidder() -> None:
    game = new("clasico")
    bids(game, (6, 4))
    game.apply(Call("beto", "mato"))
    game.apply(Count(6))
    assert game.seats["ana"].dice == 4


def test_mato_not_exact_costs_the_killer() -> None:
    game = new("clasico")
    bids(game, (6, 4))
    game.apply(Call("beto", "mato"))
    game.apply(Count(7))
    assert game.seats["beto"].dice == 4


def test_mato_only_in_clasico() -> None:
    game = new("yocacho")
    bids(game, (6, 4))
    assert not game.is_legal(Call("beto", "mato"))


# ---------------------------------------------------------------- partida falsa

def test_partida_falsa_yocacho_example() -> None:
    game = new("yocacho")
    bids(game, (3, AS))  # ana opens with 3 aces: a falsa
    bids(game, (2, 2))  # beto bids freely as if opening
    bids(game, (6, 2))  # ... later, six tontos
    err = game.violation(Raise("dani", Bid(3, AS)))
    assert err is not None and "anulados por la partida falsa" in said(err)
    assert game.is_legal(Raise("dani", Bid(4, AS)))
    assert game.is_legal(Raise("dani", Bid(7, 2)))


def test_partida_falsa_can_be_doubted() -> None:
    game = new("yocacho")
    bids(game, (3, AS))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(2))
    assert game.seats["ana"].dice == 4


def test_falsa_aces_at_or_below_remain_illegal_after_a_free_bid() -> None:
    game = new("yocacho")
    bids(game, (2, AS), (3, 5))
    # from 3 quinas, 2 aces would do by the halving rule but 2 aces are disabled
    assert not game.is_legal(Raise("carla", Bid(2, AS)))
    assert game.is_legal(Raise("carla", Bid(3, AS)))


def test_clasico_no_opening_with_aces_unless_one_die() -> None:
    game = new("clasico")
    err = game.violation(Raise("ana", Bid(2, AS)))
    assert err is not None and "un solo dado" in said(err)
    game.seats["ana"].dice = 1
    assert game.is_legal(Raise("ana", Bid(2, AS)))


def test_caleuchano_ace_opening_is_accepted() -> None:
    assert new("caleuchano").is_legal(Raise("ana", Bid(2, AS)))


# ---------------------------------------------------------------- paso

@pytest.mark.parametrize(
    "faces, kinds",
    [
        ([1, 2, 3, 4, 5], {"distintas", "pichanga"}),
        ([6, 6, 6, 6, 6], {"iguales", "poker"}),
        ([3, 3, 3, 5, 5], {"full"}),
        ([4, 4, 4, 4, 2], {"poker"}),
        ([1, 1, 2, 3, 4], set()),
        ([2, 2, 3, 3, 4], set()),
        ([1, 2, 3, 4], set()),
    ],
)
def test_hand_kinds(faces: list[int], kinds: set[str]) -> None:
    assert hand_kinds(faces) == kinds


def test_pass_hands_per_preset() -> None:
    # caleuchano: poker, full, pichanga (five equal holds a poker)
    cal = preset("caleuchano").paso_hands
    assert valid_pass([4, 4, 4, 4, 2], cal) and valid_pass([5, 5, 5, 5, 5], cal)
    # yocacho: all different, all equal, full; a poker is no pass
    yo = preset("yocacho").paso_hands
    assert not valid_pass([4, 4, 4, 4, 2], yo)
    assert valid_pass([1, 3, 4, 5, 6], yo) and valid_pass([2, 2, 6, 6, 6], yo)
    # wildcards do not count: an ace does not complete a full
    assert not valid_pass([1, 3, 3, 5, 5], yo)


def test_doubted_valid_pass_costs_the_doubter() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "paso"))
    assert game.turn == "carla"
    game.apply(Call("carla", "dudo"))
    assert game.phase == "juicio"
    game.apply(ShownHand((2, 2, 5, 5, 5)))
    assert game.seats["carla"].dice == 4 and game.seats["beto"].dice == 5


def test_doubted_invalid_pass_costs_the_passer() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "paso"))
    game.apply(Call("carla", "dudo"))
    game.apply(Verdict(False))
    assert game.seats["beto"].dice == 4


def test_pass_with_fewer_than_five_dice_is_invalid_when_doubted_yocacho() -> None:
    game = new("yocacho")
    game.seats["beto"].dice = 4
    bids(game, (3, 3))
    game.apply(Call("beto", "paso"))
    events = game.apply(Call("carla", "dudo"))  # no hand of four dice can be valid: settled at once
    assert game.seats["beto"].dice == 3 and game.phase == "apuestas" and game.starter == "beto"
    assert events[1] == PassJudged("paso", "beto", valid=False, short_hand=True)


def test_yocacho_no_pass_after_pass_no_calzo_of_passed_bid() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    game.apply(Call("beto", "paso"))
    err = game.violation(Call("carla", "paso"))
    assert err is not None and "No se puede pasar un paso" in said(err)
    err = game.violation(Call("carla", "calzo"))
    assert err is not None and "pasada" in said(err)
    # carla must raise over ana's bid (the bid received by the passer)
    assert not game.is_legal(Raise("carla", Bid(3, 2)))
    assert game.is_legal(Raise("carla", Bid(3, 4)))
    assert game.is_legal(Raise("carla", Bid(2, AS)))


def test_once_per_round_pass() -> None:
    game = new("caleuchano", players=["ana", "beto"])
    bids(game, (3, 3))
    game.apply(Call("beto", "paso"))
    bids(game, (4, 3))  # ana raises
    err = game.violation(Call("beto", "paso"))
    assert err is not None and "ya pasó" in said(err)


def test_caleuchano_pass_after_pass_and_doubt_hits_the_last_passer() -> None:
    game = new("caleuchano")
    bids(game, (3, 3))
    game.apply(Call("beto", "paso"))
    game.apply(Call("carla", "paso"))
    game.apply(Call("dani", "dudo"))
    assert game.pending is not None and game.pending.target == "carla"
    game.apply(ShownHand((2, 3, 4, 5, 6)))  # pichanga
    assert game.seats["dani"].palos == 1


def test_clasico_pass_needs_five_dice() -> None:
    game = new("clasico")
    game.seats["beto"].dice = 4
    bids(game, (3, 3))
    err = game.violation(Call("beto", "paso"))
    assert err is not None and "cinco dados" in said(err)


def test_cannot_pass_without_a_bid() -> None:
    game = new("caleuchano")
    assert not game.is_legal(Call("ana", "paso"))


# ---------------------------------------------------------------- siciliana

def test_siciliana_costs_two_and_only_on_the_opening() -> None:
    game = new("yocacho", siciliana=True)
    bids(game, (6, 5))
    game.apply(Call("beto", "siciliana"))
    game.apply(Count(3))
    assert game.seats["ana"].dice == 3
    # next round: siciliana only by the player after the opener on the opening bid
    bids(game, (3, 2), (4, 2))
    assert not game.is_legal(Call("carla", "siciliana"))


def test_siciliana_without_wildcards_counts_hands_plainly() -> None:
    game = new("yocacho", siciliana=True, siciliana_wild=False, players=["ana", "beto", "carla"])
    bids(game, (3, 4))
    game.apply(Call("beto", "siciliana"))
    game.apply(Hands.of({"ana": [1, 1, 4, 4, 2], "beto": [2, 3, 5, 6, 6], "carla": [2, 2, 3, 3, 5]}))
    assert game.seats["ana"].dice == 3  # two cuadras without aces < three


def test_siciliana_not_with_a_single_die() -> None:
    game = new("yocacho", siciliana=True)
    game.seats["beto"].dice = 1
    bids(game, (3, 3))
    err = game.violation(Call("beto", "siciliana"))
    assert err is not None and "un solo dado" in said(err)


def test_siciliana_off_by_default() -> None:
    game = new("yocacho")
    bids(game, (3, 3))
    assert not game.is_legal(Call("beto", "siciliana"))


# ---------------------------------------------------------------- picado

def test_picado_reverses_direction_and_can_be_doubted() -> None:
    game = new("clasico", picado=True)
    bids(game, (3, 3))
    game.apply(Call("beto", "picado"))
    assert game.turn == "ana"  # direction reversed
    assert not game.is_legal(Call("ana", "picado"))  # once per round
    game.apply(Call("ana", "dudo"))
    assert game.phase == "juicio"
    game.apply(ShownHand((1, 1, 3, 4, 5)))
    assert game.seats["ana"].dice == 4


def test_picado_invalid_costs_the_picador() -> None:
    game = new("clasico", picado=True)
    bids(game, (3, 3))
    game.apply(Call("beto", "picado"))
    game.apply(Call("ana", "dudo"))
    game.apply(ShownHand((1, 2, 3, 4, 5)))
    assert game.seats["beto"].dice == 4


def test_picado_then_raise_goes_on_in_the_new_direction() -> None:
    game = new("clasico", picado=True)
    bids(game, (3, 3))
    game.apply(Call("beto", "picado"))
    bids(game, (4, 3))
    assert game.turn == "dani"


# ---------------------------------------------------------------- obligo

def lose_dice(game: Game, name: str, dice_left: int) -> None:
    game.seats[name].dice = dice_left


def test_yocacho_obligo_is_mandatory_at_one_die() -> None:
    game = new("yocacho")
    lose_dice(game, "beto", 2)
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    events = game.apply(Count(5))  # beto loses: one die left
    assert game.seats["beto"].dice == 1
    assert game.mode == "obligo" and game.starter == "beto"
    assert events[-1].obligador == "beto"
    # the obligador may open with aces: they are not wild here
    bids(game, (2, AS))
    err = game.violation(Raise("carla", Bid(2, 4)))
    assert err is not None and "no se cambia la pinta" in said(err)
    assert not game.is_legal(Raise("carla", Bid(2, AS)))
    assert game.is_legal(Raise("carla", Bid(3, AS)))
    assert not game.is_legal(Call("carla", "calzo"))
    assert not game.is_legal(Call("carla", "paso"))


def test_obligo_counts_without_wildcards_and_ends_at_first_loss() -> None:
    game = new("yocacho", players=["ana", "beto", "carla"])
    lose_dice(game, "beto", 1)
    game.obligo_used.clear()
    game._offer_obligo("ana")  # ana is not at the trigger: normal round
    assert game.mode == "normal"
    lose_dice(game, "ana", 2)
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(2))  # ana: 1 die, obligo
    assert game.mode == "obligo"
    bids(game, (2, 4), (3, 4))
    game.apply(Call("carla", "dudo"))
    game.apply(Hands.of({"ana": [4], "beto": [1], "carla": [4, 1, 1, 2, 3]}))  # two cuadras, aces do not count
    assert game.seats["beto"].dice == 0 and "beto" in game.eliminated
    assert game.mode == "uno_contra_uno"


def test_obligo_once_per_game() -> None:
    game = new("yocacho")
    lose_dice(game, "beto", 2)
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(5))
    assert game.mode == "obligo"
    bids(game, (1, 4))
    game.apply(Call("carla", "calzo") if False else Call("carla", "dudo"))
    game.apply(Count(0))  # beto wrong... he loses his last die
    assert game.seats["beto"].out
    # a second player at one die later, whose obligo was used, plays normal
    game2 = new("yocacho")
    game2.obligo_used.add("beto")
    lose_dice(game2, "beto", 2)
    bids(game2, (3, 3))
    game2.apply(Call("beto", "dudo"))
    game2.apply(Count(5))
    assert game2.mode == "normal"


def test_obligo_cerrado_de_estas() -> None:
    game = new("yocacho")
    lose_dice(game, "beto", 2)
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(5))
    assert not game.is_legal(Raise("beto", Bid(2, HIDDEN)))  # open obligo: no "de éstas"
    game.apply(Oblige("beto", closed=True))
    bids(game, (2, HIDDEN))
    assert game.is_legal(Raise("carla", Bid(3, HIDDEN)))
    assert not game.is_legal(Raise("carla", Bid(3, 4)))
    bids(game, (3, HIDDEN))
    game.apply(Call("dani", "dudo"))
    game.apply(Hands.of({"ana": [6, 6, 2, 3, 4], "beto": [6], "carla": [1, 6, 2, 2, 2], "dani": [3, 3, 3, 3, 3]}))
    assert game.seats["dani"].dice == 4  # four senas (beto's face) >= three


def test_de_estas_outside_obligo_cerrado_is_refused() -> None:
    game = new("yocacho")
    err = game.violation(Raise("ana", Bid(2, HIDDEN)))
    assert err is not None and "obligo cerrado" in said(err)


def test_no_obligo_one_vs_one_yocacho() -> None:
    game = new("yocacho", players=["ana", "beto"])
    lose_dice(game, "beto", 2)
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(5))
    assert game.seats["beto"].dice == 1 and game.mode == "uno_contra_uno"
    bids(game, (2, 2))
    assert not game.is_legal(Call("ana", "calzo"))
    assert not game.is_legal(Call("ana", "paso"))


def test_caleuchano_obligado_at_fourth_palo() -> None:
    game = new("caleuchano")
    game.seats["beto"].palos = 3
    game.seats["dani"].palos = 4
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(4))
    assert game.seats["beto"].palos == 4 and game.mode == "obligo" and game.starter == "beto"
    bids(game, (3, 6))  # beto obliges senas
    # carla (no four palos) may only raise the quantity of senas
    assert not game.is_legal(Raise("carla", Bid(3, AS)))
    bids(game, (4, 6))
    # dani has four palos: may change the face, aces rank above senas
    assert game.is_legal(Raise("dani", Bid(4, AS)))
    assert not game.is_legal(Raise("dani", Bid(4, 5)))
    bids(game, (4, AS))
    game.apply(Call("ana", "dudo"))
    events = game.apply(Count(2))  # no millas, no wildcards
    assert events[0].bonus == 0
    assert game.seats["dani"].out
    assert game.mode == "normal"


def test_caleuchano_no_millas_bonus_in_obligado() -> None:
    game = new("caleuchano")
    game.seats["ana"].palos = 4
    game._offer_obligo("ana")
    assert game.mode == "obligo"
    bids(game, (4, 2))
    game.apply(Call("beto", "dudo"))
    events = game.apply(Count(3))
    assert events[0].bonus == 0 and game.seats["beto"].palos == 0 and game.seats["ana"].out


def test_clasico_obligo_is_optional_and_declined_by_bidding() -> None:
    game = new("clasico")
    lose_dice(game, "beto", 2)
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    events = game.apply(Count(5))
    assert game.mode == "normal" and events[-1].obligo_offer == "beto"
    bids(game, (2, 3))  # beto opens normally: gives up his obligo
    assert "beto" in game.obligo_used


def test_clasico_obligo_called_fixes_face_other_one_die_player_changes_with_more() -> None:
    game = new("clasico")
    lose_dice(game, "beto", 2)
    lose_dice(game, "dani", 1)
    game.obligo_used.add("dani")
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(5))
    game.apply(Oblige("beto"))
    assert game.mode == "obligo"
    bids(game, (2, AS))  # aces may be opened
    assert not game.is_legal(Raise("carla", Bid(3, 4)))
    bids(game, (3, AS))
    assert not game.is_legal(Raise("dani", Bid(3, 4)))  # change needs a greater quantity
    assert game.is_legal(Raise("dani", Bid(4, 4)))


def test_obligo_refused_when_not_at_trigger() -> None:
    game = new("clasico")
    err = game.violation(Oblige("ana"))
    assert err is not None and "un solo dado" in said(err)
    err = new("chimbo9").violation(Oblige("ana"))
    assert err is not None and said(err) == "En estas reglas no hay obligo."


# ---------------------------------------------------------------- turns, starters, elimination

def test_turn_order_and_direction() -> None:
    game = Game(preset("caleuchano"), PLAYERS)
    assert game.phase == "inicio"
    with pytest.raises(IllegalAction):
        game.apply(Raise("ana", Bid(2, 3)))
    game.apply(Start("carla", "derecha"))
    bids(game, (2, 3))
    assert game.turn == "beto"
    bids(game, (2, 4))
    assert game.turn == "ana"
    err = game.violation(Raise("dani", Bid(3, 4)))
    assert err is not None and said(err) == "Le toca a ana, no a dani."


def test_direction_is_chosen_before_the_first_bid_only() -> None:
    game = new("caleuchano")
    game.apply(Start(None, "derecha"))
    assert game.next_player("ana") == "dani"
    bids(game, (2, 3))
    assert not game.is_legal(Start(None, "izquierda"))


def test_starter_after_elimination_caleuchano_is_the_preceding_player() -> None:
    game = new("caleuchano")
    game.seats["beto"].palos = 4
    game.obligo_used.add("beto")
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(3))
    assert game.seats["beto"].out
    assert game.starter == "ana"  # preceded beto going left


def test_starter_after_elimination_yocacho_is_the_next_player() -> None:
    game = new("yocacho")
    game.seats["beto"].dice = 1
    game.obligo_used.add("beto")
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(3))
    assert game.seats["beto"].out and game.starter == "carla"


def test_eliminated_players_are_skipped() -> None:
    game = new("chimbo9", players=["ana", "beto", "carla"])
    game.seats["beto"].palos = 2
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    game.apply(Count(3))
    assert game.seats["beto"].out
    assert game.starter == "carla"
    bids(game, (2, 2))
    assert game.turn == "ana"
    err = game.violation(Raise("beto", Bid(3, 3)))
    assert err is not None and "quedó fuera" in said(err)


def test_castigo_gives_a_loss_and_restarts_from_the_punished() -> None:
    game = new("caleuchano")
    bids(game, (3, 3), (4, 3))
    events = game.apply(Penalty("beto"))
    assert game.seats["beto"].palos == 1 and game.starter == "beto" and game.bid is None
    assert events[0] == Penalized("beto")


def test_game_ends_with_one_winner() -> None:
    game = new("chimbo9", players=["ana", "beto"])
    game.seats["beto"].palos = 2
    bids(game, (3, 3))
    game.apply(Call("beto", "dudo"))
    events = game.apply(Count(3))
    assert game.over and game.winners == ["ana"]
    assert events[-1] == GameOver(("ana",))
    err = game.violation(Raise("ana", Bid(3, 3)))
    assert err is not None and "terminó" in said(err)


def test_replay_and_undo() -> None:
    game = new("yocacho")
    bids(game, (3, 3), (4, 3))
    game.apply(Call("carla", "dudo"))
    snapshot = game.snapshot()
    game.apply(Count(1))
    undone = game.undo()
    assert undone == Count(1)
    assert game.snapshot() == snapshot
    rebuilt = Game.replay(game.rules, game.players, game.history)
    assert rebuilt.snapshot() == snapshot


# ---------------------------------------------------------------- rule sets as data

def test_presets_load_and_differ() -> None:
    rules = {name: preset(name) for name in ("caleuchano", "yocacho", "chimbo9", "clasico")}
    assert rules["caleuchano"].scoring == "palos" and rules["caleuchano"].loss_limit == 5
    assert rules["chimbo9"].scoring == "fichas" and rules["chimbo9"].loss_limit == 3
    assert rules["yocacho"].opening_aces == "falsa"
    assert rules["clasico"].calzo_bank and rules["clasico"].mato


def test_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "casa.toml"
    path.write_text('preset = "clasico"\npicado = true\nloss_limit = 3\n', "utf-8")
    rules = load_rules(path)
    assert rules.picado and rules.mato and rules.overrides == ("picado", "loss_limit")


def test_house_rules_unknown_key_is_named(tmp_path: Path) -> None:
    path = tmp_path / "casa.toml"
    path.write_text('preset = "clasico"\npicadoo = true\n', "utf-8")
    with pytest.raises(RuleSetError, match="picadoo"):
        load_rules(path)


@pytest.mark.parametrize(
    "line, key",
    [
        ("picado = 3", "picado"),
        ('scoring = "vidas"', "scoring"),
        ("loss_limit = -1", "loss_limit"),
        ('paso_hands = ["escalera"]', "paso_hands"),
        ("calzo_min_fraction = 2", "calzo_min_fraction"),
    ],
)
def test_house_rules_bad_value_is_named(tmp_path: Path, line: str, key: str) -> None:
    path = tmp_path / "casa.toml"
    path.write_text(line + "\n", "utf-8")
    with pytest.raises(RuleSetError, match=key):
        load_rules(path)


def test_unknown_preset_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(RuleSetError, match="UnknownPreset"):
        load_rules("truco")
    path = tmp_path / "roto.toml"
    path.write_text("preset = \n", "utf-8")
    with pytest.raises(RuleSetError, match="BadRulesFile"):
        load_rules(path)


def test_players_must_be_distinct_and_at_least_two() -> None:
    with pytest.raises(IllegalAction):
        Game(preset("yocacho"), ["ana"])
    with pytest.raises(IllegalAction, match="DuplicatePlayer"):
        Game(preset("yocacho"), ["ana", "ana"])
    # every "ana" said at the table would go to one of them
    for pair in (["ana", "Ana"], ["ana", "aná"], ["ana", "Ana."], ["José", "jose"]):
        with pytest.raises(IllegalAction, match="SameSoundingNames"):
            Game(preset("yocacho"), pair)


def test_names_must_be_sayable_and_tables_sensible() -> None:
    for bad in ("b2", "7", "beto!", "@"):
        with pytest.raises(IllegalAction, match="UnsayableName"):
            Game(preset("yocacho"), ["ana", bad])
    assert Game(preset("yocacho"), ["Ana María", "José-Luis", "O'Neill", "Ñuñoa"]).players[3] == "Ñuñoa"
    Game(preset("yocacho"), [f"jugador {chr(97 + i)}" for i in range(10)])
    with pytest.raises(IllegalAction, match="TooManyPlayers"):
        Game(preset("yocacho"), [f"jugador {chr(97 + i)}" for i in range(11)])


def test_house_rules_report_every_problem_at_once(tmp_path: Path) -> None:


    house = tmp_path / "casa.toml"
    house.write_text('preset = "yocacho"\nwinners = 0\ndice_per_playr = 3\nsiciliana_cost = 9\nmillas = "si"\n', "utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(house)
    said = refusal(caught.value.reason)
    assert said.startswith("Hay cuatro cosas que arreglar:")
    for part in ("'winners' debe ir de 1 a 9", "¿Quisiste decir 'dice_per_player'?", "'siciliana_cost' debe ir de 1 a 5",
                 "'millas' debe ser true o false"):
        assert part in said
    for key, value in (("dice_per_player", 0), ("dice_per_player", 11), ("loss_limit", 0), ("loss_limit", 50), ("payers", -1)):
        house.write_text(f'preset = "caleuchano"\n{key} = {value}\n', "utf-8")
        with pytest.raises(RulesError, match="RuleOutOfRange"):
            load_rules(house)


def test_a_rules_path_that_is_a_folder_not_utf8_or_with_a_bom(tmp_path: Path) -> None:


    with pytest.raises(RulesError) as caught:
        load_rules(tmp_path)
    assert "es una carpeta" in refusal(caught.value.reason)
    latin = tmp_path / "latin.toml"
    latin.write_bytes('preset = "yocacho"\nname = "café"\n'.encode("latin-1"))
    with pytest.raises(RulesError) as caught:
        load_rules(latin)
    assert "no está en UTF-8" in refusal(caught.value.reason)
    bom = tmp_path / "bom.toml"
    bom.write_bytes('\ufeffpreset = "yocacho"\nmillas = true\n'.encode())
    assert load_rules(bom).millas
