"""Rule sets as data: four presets shipped as TOML, plus a table's house rules.

A house-rules file names a preset and overrides some keys::

    preset = "clasico"
    picado = true
    calzo_max_dice_forbidden = true

Every key is a field of ``RuleSet``; an unknown key or a value of the wrong
kind raises ``RuleSetError`` naming the key.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from assistant.rules.errors import RuleSetError

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
    siciliana_wild: bool = True
    siciliana_cost: int = 2

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


def _check_value(key: str, value: Any) -> Any:
    hint = _HINTS[key]
    origin = get_origin(hint)
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices:
            raise RuleSetError(f"'{key}' debe ser uno de: {', '.join(map(str, choices))} (vino {value!r}).")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleSetError(f"'{key}' debe ser true o false (vino {value!r}).")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleSetError(f"'{key}' debe ser un número entero (vino {value!r}).")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise RuleSetError(f"'{key}' debe ser un número entre 0 y 1 (vino {value!r}).")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise RuleSetError(f"'{key}' debe ser texto (vino {value!r}).")
        return value
    # tuple[str, ...]: the pass hands
    if not isinstance(value, list) or any(v not in PASS_HANDS for v in value):
        raise RuleSetError(f"'{key}' debe ser una lista con: {', '.join(PASS_HANDS)} (vino {value!r}).")
    return tuple(value)


def _build(data: dict[str, Any], source: str) -> dict[str, Any]:
    checked: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _KEYS:
            raise RuleSetError(f"Regla desconocida '{key}' en {source}.")
        checked[key] = _check_value(key, value)
    return checked


def preset(name: str) -> RuleSet:
    """One of the shipped presets by name."""
    if name not in PRESETS:
        raise RuleSetError(f"No conozco las reglas '{name}'. Hay: {', '.join(PRESETS)}.")
    text = resources.files("assistant.rules.presets").joinpath(f"{name}.toml").read_text("utf-8")
    data = _build(tomllib.loads(text), f"el preset {name}")
    missing = _KEYS - set(data)
    if missing:  # presets spell out every rule, so a new field cannot slip by unset
        raise RuleSetError(f"Al preset {name} le falta '{sorted(missing)[0]}'.")
    return RuleSet(**data)


def with_overrides(base: RuleSet, overrides: dict[str, Any], source: str = "las reglas de la casa") -> RuleSet:
    """``base`` with some keys changed; keys are checked like a house file."""
    checked = _build(overrides, source)
    changed = tuple(k for k in checked if k not in ("name", "summary"))
    result = dataclasses.replace(base, **checked, overrides=base.overrides + changed)
    if result.scoring != "dados" and result.loss_limit < 1:
        raise RuleSetError(f"'loss_limit' debe ser al menos 1 en {source}.")
    if result.dice_per_player < 1:
        raise RuleSetError(f"'dice_per_player' debe ser al menos 1 en {source}.")
    return result


def rules_from_json(data: dict[str, Any]) -> RuleSet:
    """The inverse of ``RuleSet.to_json`` (a journal's header), every key checked."""
    fields_ = dict(data)
    overrides = fields_.pop("overrides", [])
    checked = _build(fields_, "el registro")
    missing = _KEYS - set(checked)
    if missing:
        raise RuleSetError(f"Al registro le falta la regla '{sorted(missing)[0]}'.")
    return RuleSet(**checked, overrides=tuple(overrides))


def load_rules(spec: str | Path) -> RuleSet:
    """A preset name, or the path of a house-rules TOML file."""
    text_spec = str(spec)
    if text_spec in PRESETS:
        return preset(text_spec)
    path = Path(spec)
    if not path.exists():
        raise RuleSetError(f"No conozco las reglas '{text_spec}': no es un preset ({', '.join(PRESETS)}) ni un archivo.")
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise RuleSetError(f"El archivo {path.name} no es TOML válido: {err}.") from err
    base_name = data.pop("preset", DEFAULT_PRESET)
    if not isinstance(base_name, str):
        raise RuleSetError(f"'preset' debe ser el nombre de un preset en {path.name}.")
    base = preset(base_name)
    data.setdefault("name", f"{base_name} ({path.stem})")
    return with_overrides(base, data, path.name)
