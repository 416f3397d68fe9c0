"""The rules of Dudo as a pure library: no audio, no parsing, no I/O but presets.

>>> from assistant.rules import Game, Raise, Call, Count, Bid, preset
>>> game = Game(preset("yocacho"), ["ana", "beto", "carla"])
>>> _ = game.apply(Start("ana", "izquierda"))
>>> _ = game.apply(Raise("ana", Bid(3, 3)))
>>> game.turn
'beto'
>>> game.violation(Raise("beto", Bid(2, 3))).reason
NotARaise(previous=Bid(3, 3), options=(AnyFace(quantity=4, other=False), Bid(3, 4), Bid(2, 1)))
>>> events = game.apply(Call("beto", "dudo"))
>>> [type(e).__name__ for e in game.apply(Count(2))]
['Counted', 'DieLost', 'RoundStarted']
>>> game.seats["ana"].dice, game.starter
(4, 'ana')
"""

from assistant.rules.actions import (
    Action,
    Call,
    Count,
    Hands,
    Oblige,
    Penalty,
    Raise,
    Revive,
    ShownHand,
    Start,
    Verdict,
    action_from_json,
    action_to_json,
)
from assistant.rules.bid import AS, FACES, HIDDEN, Bid
from assistant.rules.errors import IllegalAction, MalformedBid, RulesError, RuleSetError
from assistant.rules.events import Event, event_from_json, event_to_json
from assistant.rules.game import Game, Pending
from assistant.rules.hands import count_face, hand_kinds, valid_pass
from assistant.rules.refusals import Reason
from assistant.rules.ruleset import DEFAULT_PRESET, PRESETS, RuleSet, load_rules, preset, with_overrides

__all__ = [
    "AS",
    "DEFAULT_PRESET",
    "FACES",
    "HIDDEN",
    "PRESETS",
    "Action",
    "Bid",
    "Call",
    "Count",
    "Event",
    "Game",
    "Hands",
    "IllegalAction",
    "MalformedBid",
    "Oblige",
    "Penalty",
    "Pending",
    "Raise",
    "Reason",
    "Revive",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "ShownHand",
    "Start",
    "Verdict",
    "action_from_json",
    "action_to_json",
    "count_face",
    "event_from_json",
    "event_to_json",
    "hand_kinds",
    "load_rules",
    "preset",
    "valid_pass",
    "with_overrides",
]
