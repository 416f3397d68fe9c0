"""Why the rules refuse something, as values that carry the data to explain it.

The engine raises ``RulesError(reason)`` with one of these; the replies turn a
reason into the sentence a table hears. Two families, as before: a bid that is
never a bid (``malformed``), and an action the rules do not allow now
(``illegal``). Rule-set problems (``ruleset``) come from loading the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from assistant.rules.bid import Bid

Family = Literal["malformed", "illegal", "ruleset"]
Feature = Literal["dudo", "calzo", "mato", "siciliana", "paso", "picado", "obligo", "obligo_cerrado", "castigo", "revivir"]


@dataclass(frozen=True, slots=True)
class Reason:
    family: ClassVar[Family] = "illegal"


# ---------------------------------------------------------------- setting up


@dataclass(frozen=True, slots=True)
class TooFewPlayers(Reason):
    pass


@dataclass(frozen=True, slots=True)
class UnnamedPlayer(Reason):
    pass


@dataclass(frozen=True, slots=True)
class DuplicatePlayer(Reason):
    name: str


@dataclass(frozen=True, slots=True)
class TooManyWinners(Reason):
    winners: int
    players: int


@dataclass(frozen=True, slots=True)
class TooManyPlayers(Reason):
    players: int
    maximum: int


@dataclass(frozen=True, slots=True)
class UnsayableName(Reason):
    """A name the table could never say: no letters, or digits and symbols in it."""

    name: str


@dataclass(frozen=True, slots=True)
class SameSoundingNames(Reason):
    """Two names that are one once accents, case and punctuation are dropped."""

    first: str
    second: str


# ---------------------------------------------------------------- any time


@dataclass(frozen=True, slots=True)
class GameIsOver(Reason):
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoStarterYet(Reason):
    """Nothing can be played before the table says who opens."""


@dataclass(frozen=True, slots=True)
class NotPlaying(Reason):
    name: str | None


@dataclass(frozen=True, slots=True)
class AlreadyOut(Reason):
    name: str


@dataclass(frozen=True, slots=True)
class NotYourTurn(Reason):
    turn: str | None
    who: str


@dataclass(frozen=True, slots=True)
class CountPending(Reason):
    """A call is waiting for the table's count."""

    bid: Bid


@dataclass(frozen=True, slots=True)
class JudgementPending(Reason):
    """A doubted pass or picado is waiting for its verdict."""

    call: str
    target: str


@dataclass(frozen=True, slots=True)
class NotInTheseRules(Reason):
    feature: Feature


@dataclass(frozen=True, slots=True)
class NotInThisMode(Reason):
    """A call the round's mode forbids (the obligo, or the last two players)."""

    mode: Literal["obligo", "uno_contra_uno"]
    feature: Feature


@dataclass(frozen=True, slots=True)
class NothingToUndo(Reason):
    pass


# ---------------------------------------------------------------- who starts


@dataclass(frozen=True, slots=True)
class RoundUnderWay(Reason):
    """Starter and direction are chosen before the first bid."""


@dataclass(frozen=True, slots=True)
class BadDirection(Reason):
    pass


@dataclass(frozen=True, slots=True)
class WhoStarts(Reason):
    """A direction was said, but nobody has been named to open yet."""


@dataclass(frozen=True, slots=True)
class StarterImposed(Reason):
    """The rules named this round's starter; in an obligo it is the obligador."""

    starter: str
    obligo: bool = False


# ---------------------------------------------------------------- bids


@dataclass(frozen=True, slots=True)
class NoDice(Reason):
    family: ClassVar[Family] = "malformed"


@dataclass(frozen=True, slots=True)
class BadFace(Reason):
    family: ClassVar[Family] = "malformed"


@dataclass(frozen=True, slots=True)
class OverDiceInPlay(Reason):
    """A quantity above every die on the table (plus the millas' extra one)."""

    dice: int
    bid: Bid


@dataclass(frozen=True, slots=True)
class AbsurdQuantity(Reason):
    """More dice than any table could mean (twice the dice the game began with):
    a slip of the tongue or of the recognizer, not a bid."""

    family: ClassVar[Family] = "malformed"
    quantity: int
    limit: int


@dataclass(frozen=True, slots=True)
class AnyFace:
    """An option of a raise hint: "seis de cualquier pinta" (``other``: "…otra pinta")."""

    quantity: int
    other: bool = False


@dataclass(frozen=True, slots=True)
class NotARaise(Reason):
    """The bid does not follow ``previous``; ``options`` are the smallest that do
    (none left: only doubting remains)."""

    previous: Bid
    options: tuple[Bid | AnyFace, ...]


@dataclass(frozen=True, slots=True)
class FalsaAces(Reason):
    """Aces at or below the ones a partida falsa made void."""

    void: int


@dataclass(frozen=True, slots=True)
class NoOpeningAces(Reason):
    """Only an opener with a single die may open on aces (clásico)."""


@dataclass(frozen=True, slots=True)
class HiddenOnlyClosed(Reason):
    """"De éstas" exists only in a closed obligo."""


@dataclass(frozen=True, slots=True)
class HiddenIsObligadors(Reason):
    obligador: str


@dataclass(frozen=True, slots=True)
class ObligoRaiseQuantity(Reason):
    """In the obligo the same face goes up in quantity."""

    previous: Bid
    next: Bid


@dataclass(frozen=True, slots=True)
class ObligoFaceFixed(Reason):
    next: Bid


@dataclass(frozen=True, slots=True)
class ObligoChangeNeedsMore(Reason):
    quantity: int


@dataclass(frozen=True, slots=True)
class ObligoNotARaise(Reason):
    previous: Bid


# ---------------------------------------------------------------- obligo


@dataclass(frozen=True, slots=True)
class ObligoAfterOpening(Reason):
    pass


@dataclass(frozen=True, slots=True)
class ObligoUsed(Reason):
    player: str


@dataclass(frozen=True, slots=True)
class ObligoNotNow(Reason):
    """Not at the trigger: one die (``un_dado``) or one palo from out."""

    trigger: Literal["un_dado", "penultimo"]
    palo: int
    """Which palo gives the obligado (the penultimate one)."""
    any_time: bool = False
    """"Obligar en cualquier etapa": any round one opens, once per game."""


# ---------------------------------------------------------------- calls


@dataclass(frozen=True, slots=True)
class NoBidYet(Reason):
    turn: str | None
    call: str


@dataclass(frozen=True, slots=True)
class AfterPass(Reason):
    """A call that a standing pass (or picado) does not allow."""

    feature: Feature
    picado: bool = False


@dataclass(frozen=True, slots=True)
class CalzoThreshold(Reason):
    dice: int
    need: int


@dataclass(frozen=True, slots=True)
class CalzoFullDice(Reason):
    pass


@dataclass(frozen=True, slots=True)
class SicilianaOnlyOpening(Reason):
    pass


@dataclass(frozen=True, slots=True)
class SicilianaOneDie(Reason):
    pass


@dataclass(frozen=True, slots=True)
class AlreadyPassed(Reason):
    player: str


@dataclass(frozen=True, slots=True)
class PasoMinDice(Reason):
    dice: int


@dataclass(frozen=True, slots=True)
class PicadoUsed(Reason):
    pass


# ---------------------------------------------------------------- revivir


@dataclass(frozen=True, slots=True)
class ReviveUsed(Reason):
    """Once per game."""


@dataclass(frozen=True, slots=True)
class ReviveUnequal(Reason):
    """"Revivimos" needs every player on the same palos, at least one."""


@dataclass(frozen=True, slots=True)
class ReviveNotObligado(Reason):
    """"Revivo" is said by the player whose obligado this round is, before it opens."""

    obligador: str | None


@dataclass(frozen=True, slots=True)
class ReviveBlocked(Reason):
    """Nobody revives while another player is one palo from out."""

    other: str


# ---------------------------------------------------------------- counts and hands


@dataclass(frozen=True, slots=True)
class NothingToCount(Reason):
    pass


@dataclass(frozen=True, slots=True)
class CountTooBig(Reason):
    total: int
    dice: int


@dataclass(frozen=True, slots=True)
class MissingHand(Reason):
    name: str


@dataclass(frozen=True, slots=True)
class HiddenNeedsTotal(Reason):
    """With "de éstas" nobody knows the obligador's face: the table gives a total."""


@dataclass(frozen=True, slots=True)
class HandSize(Reason):
    name: str
    dice: int
    given: int


@dataclass(frozen=True, slots=True)
class FaceRange(Reason):
    pass


@dataclass(frozen=True, slots=True)
class NothingToJudge(Reason):
    pass


# ---------------------------------------------------------------- rule sets


@dataclass(frozen=True, slots=True)
class UnknownRule(Reason):
    key: str
    source: str
    suggestion: str | None = None
    """The known key closest to the misspelled one, if any is close."""
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class BadRuleValue(Reason):
    key: str
    expected: Literal["choice", "bool", "int", "fraction", "text", "hands"]
    value: object
    choices: tuple[str, ...] = ()
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class RuleOutOfRange(Reason):
    key: str
    minimum: int
    maximum: int
    source: str
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class RuleErrors(Reason):
    """Every problem of a house-rules file, reported at once."""

    reasons: tuple[Reason, ...]
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class UnknownPreset(Reason):
    name: str
    presets: tuple[str, ...]
    file_missing: bool = False
    """The name was not a preset and no such file exists either."""
    suggestion: str | None = None
    """The closest preset, when the name looks like a misspelt one."""
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class RuleMissing(Reason):
    key: str
    source: str
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class BadRulesFile(Reason):
    file: str
    problem: Literal["carpeta", "no_archivo", "no_utf8", "ilegible", "toml"]
    detail: str = ""
    """For "ilegible", the system error's name (``EACCES``); for "toml", the parser's message."""
    family: ClassVar[Family] = "ruleset"


@dataclass(frozen=True, slots=True)
class BadPresetKey(Reason):
    file: str
    family: ClassVar[Family] = "ruleset"
