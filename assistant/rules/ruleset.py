"""Rule sets as data: four presets shipped as TOML, plus a table's house rules.

A house-rules file names a preset and overrides some keys::

    preset = "clasico"
    picado = true
    calzo_max_dice_forbidden = true

Every key is a field of ``RuleSet``; an unknown key or a value of the wrong
kind raises ``RuleSetError`` whose reason names the key.
"""

from __future__ import annotations

import dataclasses
import difflib
import errno
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from assistant.rules import refusals as no
from assistant.rules.errors import RulesError, refuse

PRESETS = ("caleuchano", "yocacho", "chimbo9", "clasico")
DEFAULT_PRESET = "caleuchano"
PASS_HANDS = ("distintas", "iguales", "full", "poker", "pichanga")


@dataclass(frozen=True)
class RuleSet:
    """Every rule a table may change. Field comments cite the rulebook reading."""

    name: str
    summary: str = ""
    """One Spanish sentence the referee says when the game starts."""

    # --- scoring
    scoring: Literal["dados", "palos", "fichas"] = "dados"
    """dados: a loss costs a die; palos/fichas: a loss adds a palo (a lost ficha)."""
    dice_per_player: int = 5
    loss_limit: int = 5
    """Palos (or fichas) that eliminate a player; ignored when scoring by dice."""
    winners: int = 1
    """The game ends when this many players remain (caleuchano: "uno o más")."""
    payers: int = 0
    """How many losers pay the round, announced at the end: the first players out
    (caleuchano: "la cantidad de perdedores que tendrían que cumplir"); 0: nobody."""
    default_direction: Literal["izquierda", "derecha"] = "izquierda"
    """The way play goes unless the table says otherwise (chimbo9: to the right)."""
    bid_over_dice_refused: bool = False
    """House rule (no book has it): refuse a bid above the dice in play."""
    starter_after_elimination: Literal["anterior", "siguiente"] = "siguiente"
    """anterior: the player who preceded the eliminated one (caleuchano);
    siguiente: the next active player in the round's direction."""
    two_is_milla: bool = False
    """Say "millas" for the two (caleuchano's name)."""

    # --- aces
    aces_wild: bool = True
    to_aces: Literal["mitad_arriba", "mitad_mas_uno"] = "mitad_arriba"
    """From n of a face down to aces: ceil(n/2) or n//2 + 1."""
    same_quantity_to_aces: bool = True
    """chimbo9: aces are the lowest face, so "dos tontos" -> "dos ases" is never legal."""
    opening_aces: Literal["libre", "un_dado", "falsa"] = "libre"
    """libre: any opener may bid aces; un_dado: only an opener with one die
    (clasico); falsa: partida falsa, the opened aces are disabled (yocacho)."""
    millas: bool = False
    """caleuchano: a bid on twos counts one extra die (not in obligado)."""

    # --- calzo
    calzo: bool = False
    calzo_min_fraction: float = 0.5
    """Calzar only while dice in play >= this fraction of the dice at the start."""
    calzo_bank: bool = False
    """clasico: an exact calzo at full dice banks one die "a favor"."""
    calzo_max_dice_forbidden: bool = False
    """clasico variant: no calzar while holding all your dice."""

    # --- other calls
    mato: bool = False
    """clasico: exact count -> the bidder loses; otherwise the killer loses."""
    picado: bool = False
    """clasico variant: with two aces a player reverses the direction once a round."""
    siciliana: bool = False
    """Doubting the opening bid: the loser loses ``siciliana_cost``."""
    siciliana_wild: bool = False
    """Do aces count in the siciliana's count? (yocacho: "los aces no cuentan como comodín")."""
    siciliana_cost: int = 2
    siciliana_any_doubt: bool = False
    """clasico: any doubt of the opening bid by the next player is the siciliana."""
    siciliana_with_one_die: bool = False
    """May it be played when the opener or the doubter has one die? (yocacho: no)."""

    # --- paso
    paso: bool = False
    paso_once_per_round: bool = True
    paso_after_paso: bool = False
    """May the player after a passer pass too (caleuchano yes, yocacho no)?"""
    paso_hands: tuple[str, ...] = ("distintas", "iguales", "full")
    paso_min_dice: int = 0
    """Fewest dice to pass at all (clasico 5); below the full hand a pass may be
    made but is invalid if doubted (yocacho)."""

    # --- obligo / obligado
    obligo: Literal["no", "obligatorio", "opcional"] = "no"
    obligo_trigger: Literal["un_dado", "penultimo"] = "un_dado"
    """un_dado: left with one die; penultimo: one palo from elimination."""
    obligo_cerrado: bool = False
    """The obligador may play closed, and bid "N de éstas"."""
    obligo_changers: Literal["nadie", "obligador_e_iguales", "iguales"] = "nadie"
    """Who may change the face: nobody (yocacho), the obligador and any other
    player at the trigger (caleuchano), the other players at the trigger (clasico)."""
    obligo_change_more_quantity: bool = False
    """clasico: a face change needs a greater quantity."""
    obligo_aces_rank_seven: bool = False
    """caleuchano: in obligado the aces rank above the sena."""
    obligo_calzo: bool = False
    obligo_paso: bool = False
    obligo_any_time: bool = False
    """clasico variant, "obligar en cualquier etapa": a player may call his one
    obligo at the start of any round he opens, not only at the trigger."""
    revivir: bool = False
    """caleuchano, not regulation: once per game, "revivimos" (all on the same
    palos, each returns one) or "revivo" (instead of the obligado, back one palo)."""

    # --- two players left
    duel_calzo: bool = True
    duel_paso: bool = True
    duel_obligo: bool = True

    castigo: bool = True
    """The table may punish a procedural error with a loss."""

    overrides: tuple[str, ...] = field(default=(), compare=False)
    """Keys a house-rules file changed from its preset (for the greeting)."""

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["paso_hands"] = list(self.paso_hands)
        data["overrides"] = list(self.overrides)
        return data


_HINTS = get_type_hints(RuleSet)
_KEYS = {f.name for f in fields(RuleSet)} - {"overrides"}


BOUNDS: dict[str, tuple[int, int]] = {
    "dice_per_player": (1, 10),
    "loss_limit": (1, 20),
    "winners": (1, 9),
    "payers": (0, 9),
    "siciliana_cost": (1, 5),
    "paso_min_dice": (0, 10),
}
"""The sensible range of each number a table may set (a cacho holds five dice;
no book plays to more than a dozen palos)."""


def _check_value(key: str, value: Any, source: str = "") -> Any:
    hint = _HINTS[key]
    origin = get_origin(hint)
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices:
            raise refuse(no.BadRuleValue(key, "choice", value, tuple(map(str, choices))))
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise refuse(no.BadRuleValue(key, "bool", value))
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise refuse(no.BadRuleValue(key, "int", value))
        low, high = BOUNDS.get(key, (0, 1_000))
        if not low <= value <= high:
            raise refuse(no.RuleOutOfRange(key, low, high, source))
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise refuse(no.BadRuleValue(key, "fraction", value))
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise refuse(no.BadRuleValue(key, "text", value))
        return value
    # tuple[str, ...]: the pass hands
    if not isinstance(value, list) or any(v not in PASS_HANDS for v in value):
        raise refuse(no.BadRuleValue(key, "hands", value, PASS_HANDS))
    return tuple(value)


def _build(data: dict[str, Any], source: str) -> dict[str, Any]:
    """The keys checked; every problem is reported at once."""
    checked: dict[str, Any] = {}
    problems: list[no.Reason] = []
    for key, value in data.items():
        if key not in _KEYS:
            close = difflib.get_close_matches(key, sorted(_KEYS), n=1, cutoff=0.6)
            problems.append(no.UnknownRule(key, source, close[0] if close else None))
            continue
        try:
            checked[key] = _check_value(key, value, source)
        except RulesError as err:
            problems.append(err.reason)
    if len(problems) == 1:
        raise refuse(problems[0])
    if problems:
        raise refuse(no.RuleErrors(tuple(problems)))
    return checked


def _closest_preset(name: str) -> str | None:
    """The preset a misspelt name most likely meant ("calechano", "Clásico"), if any."""
    close = difflib.get_close_matches(name.strip().lower(), PRESETS, n=1, cutoff=0.6)
    return close[0] if close else None


def preset(name: str) -> RuleSet:
    """One of the shipped presets by name."""
    if name not in PRESETS:
        raise refuse(no.UnknownPreset(name, PRESETS, suggestion=_closest_preset(name)))
    text = resources.files("assistant.rules.presets").joinpath(f"{name}.toml").read_text("utf-8")
    data = _build(tomllib.loads(text), f"preset:{name}")
    missing = _KEYS - set(data)
    if missing:  # presets spell out every rule, so a new field cannot slip by unset
        raise refuse(no.RuleMissing(sorted(missing)[0], f"preset:{name}"))
    return RuleSet(**data)


def with_overrides(base: RuleSet, overrides: dict[str, Any], source: str = "") -> RuleSet:
    """``base`` with some keys changed; keys are checked like a house file.

    ``source`` names where they came from (a file's name; "" for the table's own)."""
    checked = _build(overrides, source)
    changed = tuple(k for k in checked if k not in ("name", "summary"))
    return dataclasses.replace(base, **checked, overrides=base.overrides + changed)


LEGACY = {
    "payers": 0,
    "default_direction": "izquierda",
    "bid_over_dice_refused": True,
    "siciliana_any_doubt": False,
    "siciliana_with_one_die": False,
    "obligo_any_time": False,
    "revivir": False,
}
"""Keys added after journals were first written, with the value the referee
played by before them, so an older game resumes under the rules it began with."""


def rules_from_json(data: dict[str, Any]) -> RuleSet:
    """The inverse of ``RuleSet.to_json`` (a journal's header), every key checked."""
    fields_ = {**LEGACY, **data}
    overrides = fields_.pop("overrides", [])
    checked = _build(fields_, "journal:")
    missing = _KEYS - set(checked)
    if missing:
        raise refuse(no.RuleMissing(sorted(missing)[0], "journal:"))
    return RuleSet(**checked, overrides=tuple(overrides))


def load_rules(spec: str | Path) -> RuleSet:
    """A preset name, or the path of a house-rules TOML file."""
    text_spec = str(spec)
    if text_spec in PRESETS:
        return preset(text_spec)
    path = Path(spec)
    if not path.exists():
        raise refuse(no.UnknownPreset(text_spec, PRESETS, file_missing=True, suggestion=_closest_preset(text_spec)))
    if path.is_dir():
        raise refuse(no.BadRulesFile(path.name, "carpeta"))
    if not path.is_file():  # a pipe or a device: reading it could wait forever
        raise refuse(no.BadRulesFile(path.name, "no_archivo"))
    try:
        data = tomllib.loads(path.read_text("utf-8-sig"))  # a BOM from a Windows editor is fine
    except UnicodeDecodeError as err:
        raise refuse(no.BadRulesFile(path.name, "no_utf8")) from err
    except OSError as err:  # the error's name (EACCES), never the system's English words
        raise refuse(no.BadRulesFile(path.name, "ilegible", errno.errorcode.get(err.errno or 0, ""))) from err
    except tomllib.TOMLDecodeError as err:
        raise refuse(no.BadRulesFile(path.name, "toml", str(err))) from err
    base_name = data.pop("preset", DEFAULT_PRESET)
    if not isinstance(base_name, str):
        raise refuse(no.BadPresetKey(path.name))
    base = preset(base_name)
    data.setdefault("name", f"{base_name} ({path.stem})")
    return with_overrides(base, data, path.name)
