"""Text as a recognizer writes it -> a ``Command``.

The parser knows Spanish, not the rules: "dos ases" after "cinco trenes" is a
bid here, and only the rules engine says whether it is legal.

Every word must be placed: an utterance with a word that fits no phrase of the
lexicon is not understood at all (table chatter such as "dudo que llueva
mañana" never becomes a call). Before matching, fillers are dropped and near
misses a recognizer makes ("trens", "cuadrass") are snapped to the closest
lexicon word when they are close enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from assistant.speech import lexicon as lexicon_module
from assistant.speech.commands import (
    BidCommand,
    CallCommand,
    Command,
    CountCommand,
    HandCommand,
    ObligoCommand,
    PenaltyCommand,
    PlayerCountCommand,
    QueryCommand,
    ReviveCommand,
    SimpleCommand,
    StartCommand,
    Unknown,
)
from assistant.speech.lexicon import SLOTS, Lexicon
from assistant.speech.normalize import fold, tokens

NEAR_MISS_CUTOFF = 80.0
"""rapidfuzz ratio (0-100) above which an unknown word is taken for a lexicon word."""
SHORT_NEAR_MISS_CUTOFF = 85.0
"""Stricter for words of three or four letters, where one letter weighs more."""
NAME_CUTOFF = 72.0
"""Looser ratio for player names, which recognizers mangle most."""
CALLS = {"dudo", "siciliana", "calzo", "paso", "mato", "picado"}


@dataclass
class _Slots:
    quantity: int | None = None
    face: int | None = None
    player: str | None = None
    faces: tuple[int, ...] = ()
    numeric_faces: bool = False
    """Some die of the hand was named by a number word ("uno tres tres...")."""
    direction: str | None = None


class Parser:
    """Parses utterances for a table with the given players."""

    def __init__(self, lexicon: Lexicon | None = None, players: Iterable[str] = ()) -> None:
        self.lexicon = lexicon or lexicon_module.default()
        self.players = list(players)
        self._names = {fold(" ".join(tokens(p))): p for p in self.players}
        name_words = {w for name in self._names for w in name.split()}
        self._vocabulary = sorted(self.lexicon.vocabulary | name_words)
        self._known = frozenset(self._vocabulary)
        self._names_at: dict[int, list[tuple[str, int]]] = {}
        self._by_first: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        self._slot_first: list[tuple[str, tuple[str, ...]]] = []
        for intent, sequences in self.lexicon.templates.items():
            for seq in sequences:
                if seq and seq[0] in SLOTS:
                    self._slot_first.append((intent, seq))
                elif seq:
                    self._by_first.setdefault(seq[0], []).append((intent, seq))

    # ----------------------------------------------------------------- public

    def parse(self, text: str) -> Command:
        words = self.clean(text)
        self._names_at = {}  # names found per position, for this utterance only
        if not words:
            return Unknown(heard=tuple(tokens(text)))
        multi = self._player_counts(words)
        if multi is not None:
            return multi
        fits = {slot for slot in SLOTS if self._slot_fits_first(slot, words)}
        candidates = self._by_first.get(words[0], []) + [c for c in self._slot_first if c[1][0] in fits]
        for intent, seq in candidates:
            for slots in self._match(seq, 0, words, 0, _Slots()):
                command = self._build(intent, slots, seq)
                if command is not None:
                    return command
        return self._partial(words)

    def clean(self, text: str) -> list[str]:
        """Tokens without fillers, near misses snapped to lexicon words."""
        words = tokens(text)
        for phrase in self.lexicon.filler_phrases:
            words = _drop_phrase(words, phrase)
        words = [w for w in words if w not in self.lexicon.filler_words]
        return [self._snap(w) for w in words]

    # ----------------------------------------------------------------- pieces

    def _snap(self, word: str) -> str:
        if word in self._known or word.isdigit() or len(word) < 3:
            return word
        cutoff = NEAR_MISS_CUTOFF if len(word) >= 5 else SHORT_NEAR_MISS_CUTOFF
        found = process.extractOne(word, self._vocabulary, scorer=fuzz.ratio, score_cutoff=cutoff)
        return str(found[0]) if found else word

    def _numbers_at(self, words: list[str], i: int) -> Iterator[tuple[int, int]]:
        """(value, words used) readings of a number starting at words[i]."""
        word = words[i]
        lex = self.lexicon
        if word.isdigit() and len(word) <= 2:
            yield int(word), 1
        elif word in lex.tens:
            if i + 2 < len(words) and words[i + 1] == lex.connector and words[i + 2] in lex.numbers:
                unit = lex.numbers[words[i + 2]]
                if 1 <= unit <= 9:
                    yield lex.tens[word] + unit, 3
            yield lex.tens[word], 1
        elif word in lex.numbers:
            yield lex.numbers[word], 1

    def _slot_fits_first(self, slot: str, words: list[str]) -> bool:
        """Can ``words[0]`` begin ``slot``? Checked once per utterance, so whole
        groups of templates are skipped instead of failing one by one."""
        if slot == "{cantidad}":
            return any(True for _ in self._numbers_at(words, 0))
        if slot == "{pinta}":
            return words[0] in self.lexicon.faces
        if slot == "{caras}":
            return self._face_word(words[0], in_hand=True) is not None
        if slot == "{sentido}":
            return words[0] in self.lexicon.directions
        return any(True for _ in self._player_at(words, 0))

    def _player_at(self, words: list[str], i: int) -> Iterator[tuple[str, int]]:
        """Names starting at words[i] (memoised for the utterance being parsed)."""
        cache = self._names_at
        if i not in cache:
            cache[i] = list(self._find_player(words, i))
        yield from cache[i]

    def _find_player(self, words: list[str], i: int) -> Iterator[tuple[str, int]]:
        if not self._names:
            return
        for size in (3, 2, 1):
            if i + size > len(words):
                continue
            said = " ".join(words[i : i + size])
            if said in self._names:
                yield self._names[said], size
                return
        said = words[i]
        if said in self.lexicon.vocabulary:
            return  # a lexicon word is not a mangled name
        found = process.extract(said, list(self._names), scorer=fuzz.ratio, limit=2)
        if found and found[0][1] >= NAME_CUTOFF and (len(found) == 1 or found[0][1] - found[1][1] >= 10):
            yield self._names[found[0][0]], 1

    def _face_word(self, word: str, in_hand: bool) -> int | None:
        face = self.lexicon.faces.get(word)
        if face is None and in_hand:
            face = self.lexicon.hand_faces.get(word)
        return face

    def _match(self, seq: tuple[str, ...], si: int, words: list[str], wi: int, slots: _Slots) -> Iterator[_Slots]:
        """Every way ``seq[si:]`` covers exactly ``words[wi:]``."""
        if si == len(seq):
            if wi == len(words):
                yield slots
            return
        if wi >= len(words):
            return
        part = seq[si]
        if part not in SLOTS:
            if words[wi] == part:
                yield from self._match(seq, si + 1, words, wi + 1, slots)
            return
        if part == "{cantidad}":
            for value, used in self._numbers_at(words, wi):
                yield from self._match(seq, si + 1, words, wi + used, _replace(slots, quantity=value))
        elif part == "{pinta}":
            face = self._face_word(words[wi], in_hand=False)
            if face is not None:
                yield from self._match(seq, si + 1, words, wi + 1, _replace(slots, face=face))
        elif part == "{sentido}":
            direction = self.lexicon.directions.get(words[wi])
            if direction is not None:
                yield from self._match(seq, si + 1, words, wi + 1, _replace(slots, direction=direction))
        elif part == "{jugador}":
            for name, used in self._player_at(words, wi):
                yield from self._match(seq, si + 1, words, wi + used, _replace(slots, player=name))
        elif part == "{caras}":
            faces: list[int] = []
            for k in range(wi, min(len(words), wi + 5)):
                face = self._face_word(words[k], in_hand=True)
                if face is None:
                    break
                faces.append(face)
            for n in range(len(faces), 0, -1):
                numeric = any(w not in self.lexicon.faces for w in words[wi : wi + n])
                found = _replace(slots, faces=tuple(faces[:n]), numeric_faces=numeric)
                yield from self._match(seq, si + 1, words, wi + n, found)

    def _player_counts(self, words: list[str]) -> PlayerCountCommand | None:
        """"ana dos beto uno carla tiene tres": several per-player counts at once."""
        pairs: list[tuple[str, int]] = []
        i = 0
        while i < len(words):
            players = list(self._player_at(words, i))
            if not players:
                return None
            name, used = players[0]
            i += used
            if i < len(words) and words[i] in ("tiene", "tenia", "con"):
                i += 1
            numbers = list(self._numbers_at(words, i)) if i < len(words) else []
            if not numbers:
                return None
            value, used = numbers[0]
            i += used
            if i < len(words) and words[i] == self.lexicon.connector:
                i += 1
            pairs.append((name, value))
        if len(pairs) < 2:
            return None
        return PlayerCountCommand(pairs[0][0], pairs[0][1], tuple(pairs[1:]))

    def _build(self, intent: str, s: _Slots, seq: tuple[str, ...]) -> Command | None:
        if intent in ("apuesta", "apuesta_jugador"):
            if not s.quantity or s.face is None:
                return None
            return BidCommand(s.quantity, s.face, s.direction, s.player)  # type: ignore[arg-type]
        if intent == "apuesta_estas":
            return BidCommand(s.quantity, "estas") if s.quantity else None
        if intent in CALLS:
            return CallCommand(intent, s.player)  # type: ignore[arg-type]
        if intent.startswith("obligo"):
            mode = intent.partition("_")[2] or None
            return ObligoCommand(mode)  # type: ignore[arg-type]
        if intent == "cuenta":
            return CountCommand(s.quantity or 0)
        if intent == "cuenta_jugador":
            return PlayerCountCommand(s.player, s.quantity) if s.player and s.quantity is not None else None
        if intent == "mano":
            # A bare hand needs two dice or more, and number words only in a
            # full hand of five: "dos tres" is more likely a mangled bid.
            if len(seq) == 1 and (len(s.faces) < 2 or (s.numeric_faces and len(s.faces) < 5)):
                return None
            return HandCommand(tuple(sorted(s.faces)), s.player)
        if intent == "parte":
            return StartCommand(s.player, s.direction)  # type: ignore[arg-type]
        if intent in ("si", "no", "deshacer"):
            return SimpleCommand(intent)  # type: ignore[arg-type]
        if intent.startswith("consulta_"):
            return QueryCommand(intent.partition("_")[2])  # type: ignore[arg-type]
        if intent == "castigo":
            return PenaltyCommand(s.player) if s.player else None
        if intent in ("revivo", "revivimos"):
            return ReviveCommand(intent == "revivimos", s.player)
        return None

    def _partial(self, words: list[str]) -> Unknown:
        """What was heard, when every word is known but no phrase fits."""
        heard = tuple(words)
        if any(w not in self._known and not w.isdigit() for w in words):
            return Unknown(heard=heard)
        quantity = next((v for i in range(len(words)) for v, _ in self._numbers_at(words, i)), None)
        face = next((self.lexicon.faces[w] for w in words if w in self.lexicon.faces), None)
        if quantity and face is None and not any(w in self._names for w in words):
            return Unknown("falta_pinta", quantity=quantity, heard=heard)
        if face is not None and quantity is None:
            return Unknown("falta_cantidad", face=face, heard=heard)
        return Unknown(heard=heard)


def _replace(slots: _Slots, **changes: Any) -> _Slots:
    return _Slots(**{**slots.__dict__, **changes})


def _drop_phrase(words: list[str], phrase: tuple[str, ...]) -> list[str]:
    n = len(phrase)
    out: list[str] = []
    i = 0
    while i < len(words):
        if tuple(words[i : i + n]) == phrase:
            i += n
        else:
            out.append(words[i])
            i += 1
    return out
