"""Cues that a line is about something other than a move (lexicon ``[vetos]``).

"dudo que venga el diego", "ayer dudé y perdí", "¿vas a dudar?", "cinco cervezas":
the words of a move are there, the move is not. A cue is found where it was said
(its first and last word), so the reader can tell whether it touches the move it
read: "quince senas y el que duda paga" is a bid, only its "duda" is no call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from assistant.speech.lexicon import ANY_MARK, GAP_MARK, Lexicon
from assistant.speech.normalize import UNREADABLE

LINE_WIDE = frozenset({"pasado", "hora", "numerado", "charla", "regla", "definicion", "reto", "supuesto"})
"""Families about the whole line wherever they are said ("ayer", "a las nueve", "la cama cuatro", "mis zapatos")."""
BIDS_ONLY = frozenset({"juicio"})
"""Families that say nothing of a call: a bid judged is a doubt's reason ("dudo, nueve senas es demasiado")."""
HANDS_KEPT = frozenset({"mano_propia"})
"""Families that veto every reading of their words but the hand they tell: "me quedan dos trenes" is no bid."""
AFTER_THE_MOVE = frozenset({"reto"})
"""Line-wide families that, said after the move, are about it: a dare that backs the bid."""
CLAUSE_BOUND = frozenset({"pasado", "hora", "numerado", "definicion", "supuesto"})
"""Line-wide families that veto a move only in its own clause: a story of another night told
around the move is no part of it; an hour ("siete y media") or talk ("…y dame la mano") is.
They veto every move of their clause, a bid too, even when they name a call: "el beto dudó
con cinco senas", "el picado es con dos ases, no con uno"."""
PARTICIPLES = frozenset({"pasado", "pasada", "pasados", "pasadas"})
"""A participle said as an adjective names no call: "el año pasado", "la vez pasada"."""
UNHEARD_THINGS = "cosas_oidas"
"""A number before a word heard outside the grammar: it may be taken only as the count the game waits for."""
HAVE = frozenset({"tiene", "tenia"})
"""Between a player's name and a number: what the player has, dice or anything else."""
GAP = 3
NEAR_FACE = 4
"""A number before a counted thing still bids when a face follows this close ("cinco dados con quina")."""
HOW_MANY = frozenset({"cuantos", "cuantas"})
"""Before a word the lexicon does not know, these ask how many of a thing: "¿cuántos viewers hay?"."""
SHOWING = frozenset({"dados", "dado", "cachos", "vasos"})
"""The counted things that show a face; palos, fichas or pesos never do."""


@dataclass(frozen=True)
class Cue:
    family: str
    """The [vetos] family: otro_sentido, juicio, regla, definicion, sobre_la_jugada, eco, pasado, hora, numerado, charla, reto, desafio, irreal, or cosas."""
    start: int
    end: int
    """The words it covers, ``words[start:end]``."""
    calls: bool = False
    """It names a call ("¿quién duda?", "si dudas y pierdes"): it says nothing of a bid or a question."""

    def touches(self, start: int, end: int, call: bool = True, clause: tuple[int, int] | None = None, hand: bool = False) -> bool:
        """Does it veto a move read from ``words[start:end]`` (``call``: a call, an obligo)?
        A line-wide cue does anywhere in the move's clause (``clause``: ``words[a:b]``, the
        whole line when None: "ayer dudé y perdí"; not "doce senas, y a mí no me pillan como
        la otra vez"); another, where it holds some of the move's words ("dudo que venga"),
        never beside it ("quince senas, y el que duda paga"); a cue that names a call, only a
        call ("¿quién duda mejor?" is a question); one that tells a hand, never that hand (``hand``)."""
        if hand and self.family in HANDS_KEPT:
            return False
        if self.calls and not call and self.family not in CLAUSE_BOUND:
            return False  # (a past story of a call is a story all through its clause: "el beto dudó con cinco senas y cagó")
        if call and self.family in BIDS_ONLY:
            return False
        if self.family in AFTER_THE_MOVE and self.start >= end:
            return False  # "catorce senas, y si pierdo pago la ronda": a dare about the move just made
        # (a clause-bound cue said right after the move is about it: "siete y media")
        within = clause is None or self.family not in CLAUSE_BOUND or (self.start < clause[1] and clause[0] < self.end) or self.start == end
        return (self.family in LINE_WIDE and within) or (self.start < end and start < self.end)


class Cues:
    """Finds the lexicon's cues in a line; built once per parser."""

    def __init__(
        self, lexicon: Lexicon, number_at: Callable[[list[str], int], tuple[int, int]], is_name: Callable[[str], bool],
        is_thing: Callable[[str], bool],
    ) -> None:
        """``number_at(words, i)``: how many words a number starting at i takes (0: none) and its
        value; ``is_name``: is this word a player's name; ``is_thing``: may it name things counted."""
        self.lex = lexicon
        self.number_at = number_at
        self.is_name = is_name
        self.is_thing = is_thing
        self._by_first: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        self._slot_first: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        """Cues that begin with a slot, by that slot."""
        for family, seq in lexicon.veto_cues:
            if seq[0].startswith("{"):
                self._slot_first.setdefault(seq[0], []).append((family, seq))
            else:
                self._by_first.setdefault(seq[0], []).append((family, seq))
        self._except_by_first: dict[str, list[tuple[str, ...]]] = {}
        """The phrases that are a move after all, by their first word (none begins with a slot)."""
        for seq in lexicon.veto_except:
            self._except_by_first.setdefault(seq[0], []).append(seq)
        self._literals = {seq: frozenset(p for p in seq if p not in (ANY_MARK, GAP_MARK) and not p.startswith("{")) for _f, seq in lexicon.veto_cues}
        """The words a cue must find in a line, whatever its slots take: a cue with one missing is not tried."""

    def find(self, words: list[str]) -> list[Cue]:
        """Every cue in ``words`` (folded tokens as said), but those inside a phrase that
        is a move after all ("dudo que haya tantas", "dudo la partía")."""
        moves = [(i, end) for i, word in enumerate(words) for seq in self._except_by_first.get(word, ())
                 if (end := self._match(seq, words, i)) is not None]
        said = set(words)
        found = [cue for i in range(len(words)) if not any(a <= i < b for a, b in moves) for cue in self._at(words, i, said)]
        return found + list(self._counted(words))

    def _at(self, words: list[str], i: int, said: set[str]) -> Iterator[Cue]:
        # (a slot tried once here, not once per cue that begins with it)
        fitting = [c for slot, group in self._slot_first.items() if self._match((slot,), words, i) is not None for c in group]
        literals = self._literals
        for family, seq in (*self._by_first.get(words[i], ()), *fitting):
            if not literals[seq] <= said:
                continue
            end = self._match(seq, words, i)
            if end is not None:
                yield Cue(family, i, end, calls=self._names_a_call(seq))

    def _names_a_call(self, seq: tuple[str, ...]) -> bool:
        forms = self.lex.move_forms
        # a participle said as an adjective names no call: "el año pasado", "la vez pasada"
        return any(part in forms or (part in forms.get("{jugada}", ()) and part not in PARTICIPLES) for part in seq)

    def _match(self, seq: tuple[str, ...], words: list[str], i: int) -> int | None:
        """Where ``seq`` said from ``words[i]`` ends, or None. "…" stands for up to
        ``GAP`` words of any kind ("cuando … {jugada}": "cuando el abuelo dice dudo"),
        "+" for one word of any kind."""
        if not seq:
            return i
        part, rest = seq[0], seq[1:]
        if part == ANY_MARK:
            return self._match(rest, words, i + 1) if i < len(words) else None
        if part == GAP_MARK:
            for skip in range(GAP + 1):
                end = self._match(rest, words, i + skip)
                if end is not None:
                    return end
            return None
        if i >= len(words):
            return None
        word = words[i]
        used = 1
        forms = self.lex.move_forms
        if part in forms:
            ok = word in forms[part]
        elif part == "{cantidad}":
            used, _value = self.number_at(words, i)
            ok = used > 0
        elif part == "{jugador}":
            ok = self.is_name(word)
        elif part == "{pinta}":
            ok = word in self.lex.faces
        else:
            ok = word == part
        return self._match(rest, words, i + used) if ok else None

    def _owned(self, words: list[str], i: int) -> bool:
        """Is the number at ``words[i]`` what a player has ("beto tiene cuatro")?"""
        return i > 1 and words[i - 1] in HAVE and self.is_name(words[i - 2])

    def _unheard_after(self, words: list[str], i: int) -> bool:
        """Is a number said at ``words[i]`` of a word nobody heard or of a thing ("… y cuatro [unk]")?"""
        used, _value = self.number_at(words, i)
        after = i + used
        return bool(used) and after < len(words) and self._unheard_or_thing(words[after])

    def _unheard_or_thing(self, word: str) -> bool:
        """A word nobody heard, or one that may name things counted (and no player)."""
        return word == UNREADABLE or (self.is_thing(word) and not self.is_name(word))

    def _counted(self, words: list[str]) -> Iterator[Cue]:
        """A number said of things that are not dice: "cinco cervezas", "tengo cinco dados",
        "dos hijos", "un fernet"; not when a face follows close ("hay cinco dados con quina"),
        nor "un dado" ("un dado menos pa beto" takes one of his dice)."""
        lex = self.lex
        i = 0
        while i < len(words):
            asked = words[i + 1] if words[i] in HOW_MANY and i + 1 < len(words) else None
            if asked is not None and self._unheard_or_thing(asked):
                yield Cue("cosas", i, i + 2)  # "¿cuántos viewers hay ahora?" asks of things ("dados" is in the grammar)
            used, value = self.number_at(words, i)
            if not used:
                i += 1
                continue
            after = i + used
            if after < len(words):
                thing = words[after]
                # "un", "una" before a word the lexicon does not know are an article: "tiene un hijo", "un fernet"
                counted = (thing in lex.counted_things and value != 1) or (self.is_thing(thing) and not self.is_name(thing))
                # "uno" after a word stands alone, it counts nothing said after it: "la ana pierde uno, pobrecita" ("un"
                # and "una" do; "uno" first in a line is anyone, "uno nunca sabe"; after a number, a digit read out)
                counted = counted and (words[i] != "uno" or i == 0 or self.number_at(words, i - 1)[0] > 0)
                counted = counted or (thing in lex.address_words and thing.endswith("s") and value != 1)  # "hay cinco cabros" counts people
                # (only dice show a face: "la eli tiene dos palos y el beto uno" counts palos, whatever "uno" is)
                showing = thing not in lex.counted_things or thing in SHOWING
                near = words[after + 1 : after + 1 + NEAR_FACE] if showing else []
                counting = i > 0 and (words[i - 1] in lex.count_words or self.is_name(words[i - 1]))
                # (the same number said again is no die of the things: "me tomé dos piscolas no más, dos"; but dice
                # show it, "hay cinco dados con el 5", and the table spoken to may be counted then: "tres señores, hay tres")
                again = thing not in lex.address_words and thing not in SHOWING
                if counted and not any(w in lex.faces or (w in lex.hand_faces and not (again and self.number_at([w], 0)[1] == value)) for w in near):
                    yield Cue("cosas", i, after + 1)
                elif thing == UNREADABLE and after + 1 < len(words) and words[after + 1] in ("y", "e") and (
                    not counting or self._unheard_after(words, after + 2)
                ):
                    # "vimos cinco [unk] y dos patos": things listed, whatever comes after; after a count's word
                    # only when the next is one more of them ("hay seis [unk] y cuatro [unk]": chorizos, morcillas)
                    yield Cue("cosas", i, after + 2)
                elif thing == UNREADABLE and not (counting and not self._owned(words, i)):
                    # a word the recognizer heard outside its grammar (every face is in it): things counted, or a
                    # count and noise ("tres [unk]"); not after a count's word ("hay tres [unk]", "ana dos [unk]"),
                    # but what a player has ("el diego tiene dos [unk]": two of something, asked first)
                    yield Cue(UNHEARD_THINGS, i, after + 1)
            i = after
