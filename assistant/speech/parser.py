"""Text as a recognizer writes it -> a ``Command``.

The parser knows Spanish, not the rules: "dos ases" after "cinco trenes" is a
bid here, and only the rules engine says whether it is legal.

Every word must be placed: an utterance with a word that fits no phrase of the
lexicon is not understood at all (table chatter such as "dudo que llueva
mañana" never becomes a call). The readings tried, in order:

1. the words as said, then without fillers ("po", "nomás", "weón"), against the
   phrase templates; a vocative ("oye beto, …") and an article before a name
   ("la carla", "pa'l beto") are dropped first;
2. an intent's *frame* words skipped ("voy a dudar", "me la juego con siete
   tontos"), each intent with its own list, so only words that cannot change
   the meaning are skipped;
3. a self-correction: what follows the last "no" / "digo" ("cuatro, no, cinco
   quinas").

Near misses a recognizer or a typist makes ("trens", "cuadrass") are snapped to
the closest lexicon word, but a common Spanish word never is ("sillas" stays
"sillas", not "millas").
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
from assistant.speech.normalize import fold, sounds, tokens

NEAR_MISS_CUTOFF = 80.0
"""rapidfuzz ratio (0-100) above which an unknown word is taken for a lexicon word."""
SHORT_NEAR_MISS_CUTOFF = 85.0
"""Stricter for words of three or four letters, where one letter weighs more."""
NAME_CUTOFF = 72.0
"""Looser ratio for player names, which recognizers mangle most."""
CALLS = {"dudo", "siciliana", "calzo", "paso", "mato", "picado"}
HAND = 5
_SAMPLE_HANDS = {
    # one hand of each kind, for judging a paso named only by its kind
    "distintas": (1, 2, 3, 4, 5),
    "iguales": (6, 6, 6, 6, 6),
    "full": (3, 3, 3, 6, 6),
    "poker": (4, 4, 4, 4, 1),
}


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
        self._sounds = {sounds(name): full for name, full in self._names.items() if " " not in name}
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
        # each intent's templates with its frame words taken out, as the frame reading compares them
        self._frame_templates: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for key, frame in self.lexicon.frames.items():
            found: dict[tuple[str, tuple[str, ...]], None] = {}
            for intent, sequences in self.lexicon.templates.items():
                if intent == key or intent.startswith(key + "_"):
                    for seq in sequences:
                        core = tuple(t for t in seq if t not in frame)
                        # a core worn down to one plain word ("no hay" -> "no") would read too much
                        if core and (core == seq or len(core) > 1 or core[0] in SLOTS):
                            found[(intent, core)] = None
            self._frame_templates[key] = list(found)

    # ----------------------------------------------------------------- public

    def parse(self, text: str) -> Command:
        raw = tokens(text)
        if not raw:
            return Unknown(heard=())
        another = self._another_with(raw)
        if another is not None:
            return another
        snapped = [self._snap(w) for w in raw]
        said = self._drop_vocative_and_articles(snapped)
        words = self._drop_fillers(said)
        for reading in dict.fromkeys(tuple(r) for r in (snapped, said, words)):
            command = self._templates(list(reading))
            if command is not None:
                return command
        if not words:
            return Unknown(heard=tuple(raw))
        command = self._framed(words) or self._corrected(words)
        if command is not None:
            return command
        return self._partial(words)

    def _another_with(self, raw: list[str]) -> SimpleCommand | None:
        """«otra con pedro», «revancha sin ana», «otra con pedro y juan sin carla»:
        a new game with players joining or leaving. Names are taken as said (a new
        name is nobody the lexicon knows); leaving ones are the table's players."""
        cut = next((i for i, w in enumerate(raw) if w in ("con", "sin")), None)
        if not cut:
            return None
        head = self._templates(self._drop_fillers([self._snap(w) for w in raw[:cut] if w != "pero"]))  # «otra, pero con pedro»
        if not (isinstance(head, SimpleCommand) and head.action == "otra"):
            return None
        joining: list[str] = []
        leaving: list[str] = []
        into = joining
        tail = raw[cut:]
        i = 0
        while i < len(tail):
            word, size = tail[i], 1
            if word in ("con", "sin"):
                into = joining if word == "con" else leaving
            elif word in ("y", "e") or word in self.lexicon.articles or word in self.lexicon.filler_words:
                pass  # «con el pedro y la cata, po»
            elif into is leaving:
                found = next(self._find_player(tail, i), None)  # a player's name may have two words
                name, size = found if found is not None else (word, 1)
                leaving.append(name)
            else:
                joining.append(word)
            i += size
        if not joining and not leaving:
            return None
        return SimpleCommand("otra", tuple(joining), tuple(leaving))

    def clean(self, text: str) -> list[str]:
        """Tokens without fillers, vocatives or articles, near misses snapped to lexicon words."""
        return self._drop_fillers(self._drop_vocative_and_articles([self._snap(w) for w in tokens(text)]))

    # ----------------------------------------------------------------- readings

    def _drop_fillers(self, words: list[str]) -> list[str]:
        for phrase in self.lexicon.filler_phrases:
            words = _drop_phrase(words, phrase)
        return [w for w in words if w not in self.lexicon.filler_words]

    def _drop_vocative_and_articles(self, words: list[str]) -> list[str]:
        """"oye beto, cinco quinas" -> "cinco quinas"; "la carla no tiene" -> "carla no tiene"."""
        lex = self.lexicon
        if len(words) > 2 and words[0] in lex.vocatives:
            named = next(self._find_player(words, 1), None)
            if named is not None:
                words = words[1 + named[1] :]
        out: list[str] = []
        for i, w in enumerate(words):
            if w in lex.articles and i + 1 < len(words) and next(self._find_player(words, i + 1), None) is not None:
                continue
            out.append(w)
        return out

    def _templates(self, words: list[str]) -> Command | None:
        """The first phrase template (or per-player count, or hand by kind) that covers every word."""
        self._names_at = {}  # names found per position, for this word list only
        if not words:
            return None
        multi = self._player_counts(words)
        if multi is not None:
            return multi
        hand = self._hand_by_kind(words)
        if hand is not None:
            return hand
        fits = {slot for slot in SLOTS if self._slot_fits_first(slot, words)}
        candidates = self._by_first.get(words[0], []) + [c for c in self._slot_first if c[1][0] in fits]
        for intent, seq in candidates:
            for slots in self._match(seq, 0, words, 0, _Slots()):
                command = self._build(intent, slots, seq)
                if command is not None:
                    return command
        return None

    def _framed(self, words: list[str]) -> Command | None:
        """Each intent with its frame words skipped, in the lexicon's order."""
        bare: Unknown | None = None
        for key, frame in self.lexicon.frames.items():
            core = [w for w in words if w not in frame]
            restated: tuple[int, int] | None = None
            if key in CALLS:
                core, restated = self._take_bid(core)
            if not core or len(core) == len(words):
                continue
            self._names_at = {}
            for intent, seq in self._frame_templates[key]:
                for slots in self._match(seq, 0, core, 0, _Slots()):
                    command = self._build(intent, slots, seq)
                    if isinstance(command, CallCommand) and restated is not None:
                        command = CallCommand(command.call, command.player, restated)
                    if command is not None:
                        return command
            if key == "apuesta" and len(core) == 1 and bare is None:
                quantity = next(self._numbers_at(core, 0), None)
                if quantity is not None and quantity[0] > 0:
                    bare = Unknown("falta_pinta", quantity=quantity[0], heard=tuple(words))
        return bare  # "pongámosle ocho": a quantity alone, if nothing else read it

    def _take_bid(self, words: list[str]) -> tuple[list[str], tuple[int, int] | None]:
        """A call's restated bid ("dudo esas cuatro quinas"), taken out of the words."""
        for i in range(len(words)):
            for value, used in self._numbers_at(words, i):
                j = i + used
                if j < len(words) and words[j] in self.lexicon.faces:
                    return words[:i] + words[j + 1 :], (value, self.lexicon.faces[words[j]])
        return words, None

    def _corrected(self, words: list[str]) -> Command | None:
        """"cuatro, no, cinco quinas": what follows the last correction word, when what
        came before it was a game word (a number, a face or a call)."""
        lex = self.lexicon
        for i in range(len(words) - 1, 0, -1):
            size = next((len(p) for p in lex.correction_phrases if tuple(words[i : i + len(p)]) == p), 0)
            if not size and words[i] not in lex.correction_words:
                continue
            size = size or 1
            before, after = words[:i], words[i + size :]
            if not after or not any(self._is_game_word(before, k) for k in range(len(before))):
                continue
            command = self._templates(after) or self._framed(after)
            if isinstance(command, (BidCommand, CountCommand)):  # a number corrected by a number
                return command
        return None

    def _is_game_word(self, words: list[str], i: int) -> bool:
        w = words[i]
        return w in self.lexicon.faces or w in CALLS or any(True for _ in self._numbers_at(words, i))

    def _hand_by_kind(self, words: list[str]) -> HandCommand | None:
        """Hands in poker words: "pichanga", "tenía full", "full de trenes con senas",
        "póquer de cuadras y un as", "tengo dos trenes y tres quinas"."""
        lex = self.lexicon
        joins = lex.hand_joins
        if words[0] in joins["antes"]:
            words = words[1:]
        if not words:
            return None
        kind = lex.hand_kinds.get(tuple(words))
        if kind is not None:
            return HandCommand(_SAMPLE_HANDS[kind], kind=kind)
        head = lex.hand_kinds.get((words[0],))
        faces = lex.faces
        if head in ("full", "poker") and len(words) >= 3 and words[1] in joins["de"] and words[2] in faces:
            main = faces[words[2]]
            rest = words[3:]
            if rest and rest[0] in joins["y"]:
                rest = rest[1:]
            if len(rest) == 2 and rest[0] in joins["uno"]:
                rest = rest[1:]
            if len(rest) == 1 and rest[0] in faces and faces[rest[0]] != main:
                other = faces[rest[0]]
                return HandCommand((main,) * 3 + (other,) * 2 if head == "full" else (main,) * 4 + (other,))
            if not rest:
                sample = (main,) * 3 + (main % 6 + 1,) * 2 if head == "full" else (main,) * 4 + (main % 6 + 1,)
                return HandCommand(sample, kind=head)
            return None
        # "dos trenes y tres quinas": groups of one face that make a whole hand
        groups: list[tuple[int, int]] = []
        i = 0
        while i < len(words):
            reading = next(self._numbers_at(words, i), None)
            if reading is None or i + reading[1] >= len(words) or words[i + reading[1]] not in faces:
                return None
            groups.append((reading[0], faces[words[i + reading[1]]]))
            i += reading[1] + 1
            if i < len(words):
                if words[i] not in joins["y"]:
                    return None
                i += 1
        if len(groups) < 2 or sum(n for n, _ in groups) != HAND:
            return None
        return HandCommand(tuple(f for n, f in groups for _ in range(n)))

    # ----------------------------------------------------------------- pieces

    def _snap(self, word: str) -> str:
        if word in self._known or word in self.lexicon.common or not word.isalpha() or len(word) < 3:
            return word
        cutoff = NEAR_MISS_CUTOFF if len(word) >= 5 else SHORT_NEAR_MISS_CUTOFF
        found = process.extractOne(word, self._vocabulary, scorer=fuzz.ratio, score_cutoff=cutoff)
        return str(found[0]) if found else word

    def _numbers_at(self, words: list[str], i: int) -> Iterator[tuple[int, int]]:
        """(value, words used) readings of a number starting at words[i]."""
        word = words[i]
        lex = self.lexicon
        nxt = words[i + 1] if i + 1 < len(words) else None
        if word in lex.prefixes and nxt in lex.numbers and 1 <= lex.numbers[nxt] <= 9:
            yield lex.prefixes[word] + lex.numbers[nxt], 2  # "dieci siete", "veinti dos"
            return
        if word in lex.tens_with_y and nxt == lex.connector and i + 2 < len(words) and words[i + 2] in lex.numbers:
            unit = lex.numbers[words[i + 2]]
            if 1 <= unit <= 9:
                yield lex.tens_with_y[word] + unit, 3  # "diez y siete", "veinte y dos"
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
        if slot == "{cara}":
            return self._face_word(words[0], in_hand=True) is not None
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
        if said in self.lexicon.common:
            # an ordinary word is a name only if it sounds the same ("karla", "anna"; not "franco")
            same = [name for key, name in self._sounds.items() if key == sounds(said)]
            if len(same) == 1:
                yield same[0], 1
            return
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
        elif part == "{cara}":
            face = self._face_word(words[wi], in_hand=True)
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
        if intent == "cuenta_jugador_cero":  # "carla no tiene"
            return PlayerCountCommand(s.player, 0) if s.player else None
        if intent == "mano":
            # A hand needs two dice or more ("tengo tres", "beto tiene as" are not
            # one-die hands), and number words only in a full hand of five:
            # "dos tres" or "tengo tres trenes" is more likely a bid or a count.
            if len(s.faces) < 2 or (s.numeric_faces and len(s.faces) < 5):
                return None
            return HandCommand(tuple(sorted(s.faces)), s.player)
        if intent == "parte":
            return StartCommand(s.player, s.direction)  # type: ignore[arg-type]
        if intent in ("si", "no", "deshacer", "ayuda", "otra", "terminar"):
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
