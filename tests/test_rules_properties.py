"""Random games over every preset: never a foreign exception, invariants always hold."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.rules import (
    PRESETS,
    Action,
    Bid,
    Call,
    Count,
    Game,
    Hands,
    Oblige,
    Penalty,
    Raise,
    Revive,
    RulesError,
    ShownHand,
    Start,
    Verdict,
    action_from_json,
    action_to_json,
    event_from_json,
    event_to_json,
    preset,
    with_overrides,
)

NAMES = ["ana", "beto", "carla", "dani", "eli"]
ALL_ON = dict(
    siciliana=True, picado=True, mato=True, calzo=True, paso=True, revivir=True, obligo_any_time=True,
    siciliana_with_one_die=True, siciliana_any_doubt=True, payers=1,
)


def check_invariants(game: Game) -> None:
    rules = game.rules
    for seat in game.seats.values():
        assert 0 <= seat.dice <= rules.dice_per_player
        assert 0 <= seat.palos <= rules.loss_limit
        assert seat.banked in (0, 1)
        if rules.scoring == "dados":
            assert seat.out == (seat.dice == 0)
            assert seat.palos == 0
        else:
            assert seat.dice == rules.dice_per_player
            assert seat.out == (seat.palos >= rules.loss_limit)
    assert game.dice_in_play == sum(game.seats[p].dice for p in game.active)
    if game.over:
        assert len(game.winners) == rules.winners
        assert game.winners == game.active
        assert game.turn is None
    else:
        assert len(game.active) > rules.winners
        if game.phase in ("apuestas",):
            assert game.turn in game.active
        if game.phase in ("cuenta", "juicio"):
            assert game.pending is not None
    if game.bid is not None:
        assert 1 <= game.bid.quantity <= game.max_quantity(game.bid.face)


def random_action(rng: random.Random, game: Game) -> Action:
    """Mostly legal actions, with a share of arbitrary ones to hit every refusal."""
    if rng.random() < 0.7:
        legal = list(game.legal_actions())
        if game.phase == "cuenta" and rng.random() < 0.5:
            return Hands.of({p: [rng.randint(1, 6) for _ in range(game.seats[p].dice)] for p in game.active})
        if game.phase == "juicio" and game.pending and rng.random() < 0.5:
            return ShownHand(tuple(rng.randint(1, 6) for _ in range(game.seats[game.pending.target].dice)))
        # castigos end rounds too easily; keep them rare
        legal = [a for a in legal if not isinstance(a, Penalty)] or legal
        if legal:
            return rng.choice(legal)
    player = rng.choice([*NAMES, "zoe"])
    kind = rng.randrange(10)
    if kind == 0:
        return Raise(player, Bid(rng.randint(-1, 30), rng.randint(-1, 8)))
    if kind == 1:
        return Call(player, rng.choice(["dudo", "calzo", "mato", "siciliana", "paso", "picado"]))
    if kind == 2:
        return Count(rng.randint(-2, 30))
    if kind == 3:
        return Hands.of({p: [rng.randint(0, 7) for _ in range(rng.randint(0, 6))] for p in rng.sample(NAMES, 3)})
    if kind == 4:
        return ShownHand(tuple(rng.randint(0, 7) for _ in range(rng.randint(0, 6))))
    if kind == 5:
        return Verdict(rng.random() < 0.5)
    if kind == 6:
        return Oblige(player, rng.random() < 0.5)
    if kind == 7:
        return Start(rng.choice([None, player]), rng.choice([None, "izquierda", "derecha"]))
    if kind == 8:
        return Revive(rng.choice([None, player]))
    return Penalty(player)


def run_random_game(name: str, players: int, seed: int, steps: int, overrides: dict[str, object]) -> Game:
    rng = random.Random(seed)
    rules = preset(name)
    if overrides:
        rules = with_overrides(rules, overrides)
    game = Game(rules, NAMES[:players])
    for _ in range(steps):
        if game.over:
            break
        action = random_action(rng, game)
        before = game.snapshot()
        legal = game.is_legal(action)
        try:
            events = game.apply(action)
        except RulesError:
            assert not legal, f"is_legal said yes but apply refused {action!r}"
            assert game.snapshot() == before, f"refused {action!r} changed the state"
        else:
            assert legal, f"is_legal said no but apply accepted {action!r}"
            as_json = [event_to_json(e) for e in events]
            assert [event_from_json(json.loads(json.dumps(e))) for e in as_json] == events
            assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
        check_invariants(game)
    return game


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(PRESETS),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    variants=st.booleans(),
    winners=st.integers(1, 2),
)
def test_random_games_keep_invariants(name: str, players: int, seed: int, variants: bool, winners: int) -> None:
    overrides: dict[str, object] = dict(ALL_ON) if variants else {}
    if winners < players:
        overrides["winners"] = winners
    game = run_random_game(name, players, seed, 250, overrides)
    rebuilt = Game.replay(game.rules, game.players, game.history)
    assert rebuilt.snapshot() == game.snapshot()


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_undo_restores_the_previous_state(name: str, seed: int) -> None:
    game = run_random_game(name, 3, seed, 60, {})
    if not game.history:
        return
    previous = Game.replay(game.rules, game.players, game.history[:-1]).snapshot()
    game.undo()
    assert game.snapshot() == previous


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(PRESETS), seed=st.integers(0, 2**32), undos=st.integers(1, 30), steps=st.integers(20, 200))
def test_undo_again_and_again_matches_a_replay(name: str, seed: int, undos: int, steps: int) -> None:
    """Undo rebuilds from a round's mark (or the start): any number of undos in
    a row, across round boundaries, equals replaying what is left; and the game
    plays on from there as a replayed one would."""
    game = run_random_game(name, 3, seed, steps, {})
    for _ in range(min(undos, len(game.history))):
        game.undo()
        rebuilt = Game.replay(game.rules, game.players, game.history)
        assert game.snapshot() == rebuilt.snapshot()
    rng = random.Random(seed)
    for _ in range(40):
        if game.over:
            break
        action = random_action(rng, game)
        assert game.is_legal(action) == rebuilt.is_legal(action)
        if game.is_legal(action):
            game.apply(action)
            rebuilt.apply(action)
            if rng.random() < 0.2:
                game.undo()
                rebuilt = Game.replay(game.rules, game.players, rebuilt.history[:-1])
        assert game.snapshot() == rebuilt.snapshot()


@pytest.mark.parametrize("name", PRESETS)
def test_legal_actions_agree_with_is_legal_and_apply(name: str) -> None:
    """The python-chess triangle: legal_actions, is_legal and apply agree."""
    rng = random.Random(7)
    game = run_random_game(name, 4, 11, 40, {})
    for _ in range(30):
        if game.over:
            break
        legal = set(game.legal_actions())
        candidates = list(game._candidates())
        for candidate in rng.sample(candidates, min(60, len(candidates))):
            assert (candidate in legal) == game.is_legal(candidate)
        game.apply(rng.choice(sorted(legal, key=repr)))


@pytest.mark.parametrize("name", PRESETS)
def test_random_games_reach_a_winner(name: str) -> None:
    """Play only legal moves: every game ends with exactly one winner."""
    for seed in range(5):
        game = run_random_game(name, 4, seed, 20000, {})
        # games with only legal moves end; the bound above is generous
        if not game.over:
            pytest.fail(f"{name} seed {seed} did not finish: phase {game.phase}")
        assert len(game.winners) == 1


def test_every_event_type_can_be_read_back() -> None:
    import typing

    from assistant.rules.events import EVENT_TYPES, Event

    assert set(EVENT_TYPES.values()) == set(typing.get_args(Event))


def test_a_round_mark_shares_nothing_mutable_with_the_game() -> None:
    """Marks are copied by hand for speed: a new mutable attribute of Game must
    be copied there too, or an undo would bring back a changed value."""
    game = run_random_game("clasico", 4, 3, 80, dict(ALL_ON))
    state = game._state()
    assert set(state) == set(vars(game)) - {"history", "_marks", "rules"}
    for key, value in state.items():
        if isinstance(value, (int, str, bool, tuple, type(None))):
            continue
        assert value is not vars(game)[key], key
        inner = value.values() if isinstance(value, dict) else [value]
        for item in inner:
            if dataclasses.is_dataclass(item) and not item.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                originals = vars(game)[key].values() if isinstance(value, dict) else [vars(game)[key]]
                assert all(item is not o for o in originals), key
