"""The lexicon (``lexicon/es.toml``, installed as ``assistant.lexicon``) loaded
and its phrase templates expanded.

Template syntax: ``[a b]`` optional, ``(a|b)`` alternatives, ``{slot}`` a slot.
Each template expands into every token sequence it admits; slots stay as
``{name}`` tokens for the matcher (parser) or the sampler (grammar) to fill.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from assistant.speech import messages as say
from assistant.speech.normalize import fold, tokens

HAND = 5
"""Dice in a cup: the most a hand holds."""
SLOTS = ("{cantidad}", "{pinta}", "{jugador}", "{caras}", "{sentido}", "{cara}")
GAP_MARK = "…"
"""In a [vetos] cue, up to ``cues.GAP`` words of any kind."""
ANY_MARK = "+"
"""In a [vetos] cue, one word of any kind ("dudo que +": a clause follows, "¿dudo qué?" is none)."""
ESSENTIAL = "="
"""Marks a template word that is never skipped as framing: in "(salgo|parto) =con
{cantidad} {pinta}" the "con" is what makes it an opening bid ("me salió un as" is not)."""


def default_path() -> Path | None:
    """``$DUDO_LEXICO``, or None for the lexicon shipped with the package."""
    env = os.environ.get("DUDO_LEXICO")
    return Path(env) if env else None


def _read(path: Path | None, name: str = "es.toml") -> str:
    if path is not None:
        return (path if name == "es.toml" else path.with_name(name)).read_text("utf-8")
    return resources.files("assistant.lexicon").joinpath(name).read_text("utf-8")


def _common(path: Path | None, name: str = "comunes.txt") -> frozenset[str]:
    """Common Spanish words (``comunes.txt`` beside the lexicon, or another list); none if it is missing."""
    return frozenset(_listed(path, name))


def _listed(path: Path | None, name: str) -> tuple[str, ...]:
    """The words of a list beside the lexicon, one a line, in order; none if it is missing
    (a house lexicon without its own reads the one shipped: Spanish is the same at every table)."""
    try:
        text = _read(path, name)
    except FileNotFoundError:
        try:
            text = _read(None, name)
        except FileNotFoundError:
            return ()
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _names(path: Path | None) -> tuple[str, ...]:
    """Names a table may add to a new game (``nombres.txt`` beside the lexicon)."""
    try:
        text = _read(path, "nombres.txt")
    except FileNotFoundError:
        return ()
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


class TemplateError(ValueError):
    pass


def expand(template: str, keep_accents: bool = False) -> list[tuple[str, ...]]:
    """All token sequences a template admits (words folded unless ``keep_accents``).

    >>> expand("[lo] dudo (po|ya)")
    [('dudo', 'po'), ('dudo', 'ya'), ('lo', 'dudo', 'po'), ('lo', 'dudo', 'ya')]
    """
    text = template.replace("(", " ( ").replace(")", " ) ").replace("[", " [ ").replace("]", " ] ")
    text = text.replace("|", " | ")
    parts = text.split()
    pos = 0

    def sequence(stop: set[str]) -> list[tuple[str, ...]]:
        nonlocal pos
        results: list[tuple[str, ...]] = [()]
        while pos < len(parts) and parts[pos] not in stop:
            part = parts[pos]
            pos += 1
            if part in ("(", "["):
                closing = ")" if part == "(" else "]"
                options = alternatives(closing)
                if part == "[":
                    options = [(), *options]
            elif part in (")", "]", "|"):
                raise TemplateError(say.misplaced(part, template))
            else:
                word = part if part in SLOTS else (part.lower() if keep_accents else fold(part))
                options = [(word,)]
            results = [r + o for r in results for o in options]
        return results

    def alternatives(closing: str) -> list[tuple[str, ...]]:
        nonlocal pos
        options = sequence({"|", closing})
        while pos < len(parts) and parts[pos] == "|":
            pos += 1
            options += sequence({"|", closing})
        if pos >= len(parts) or parts[pos] != closing:
            raise TemplateError(say.missing(closing, template))
        pos += 1
        return options

    result = sequence(set())
    if pos != len(parts):
        raise TemplateError(say.misplaced(parts[pos], template))
    # order-preserving de-duplication
    return list(dict.fromkeys(result))


DEFAULT_TENSES = (
    "presente.1s", "presente.3s", "presente.1p", "presente.3p", "preterito.1s", "preterito.3s", "preterito.1p", "preterito.3p",
    "subjuntivo", "imperativo", "infinitivo", "gerundio",
)
"""The forms a verb family reads when the lexicon names none: what a table says
of a move ("dudo", "duda", "dudamos", "dudó", "que dude", "duden", "dudar",
"dudando"), not what it says of the past or the future ("dudabas", "dudaría")."""


@dataclass(frozen=True)
class Lexicon:
    numbers: dict[str, int]
    tens: dict[str, int]
    tens_with_y: dict[str, int]
    """"diez y siete", "veinte y dos"."""
    prefixes: dict[str, int]
    """"dieci siete", "veinti dos", as a recognizer may split them."""
    connector: str
    grammar_max: int
    hour_articles: frozenset[str]
    """An article before a bare number makes it an hour ("me voy a las once")."""
    sum_words: frozenset[str]
    """"cuatro más un as son cinco": the word that adds."""
    result_words: frozenset[str]
    """"… son cinco": the words before a sum's result."""
    total_phrases: tuple[tuple[str, ...], ...]
    """"…seis en total", "sumando todo da trece": the words that give a count worked out aloud."""
    faces: dict[str, int]
    """Every face name (folded) -> face 1..6."""
    face_names: dict[int, tuple[str, ...]]
    hand_faces: dict[str, int]
    """Extra names a die goes by inside a dictated hand ("uno", "tres", "3")."""
    directions: dict[str, str]
    filler_words: frozenset[str]
    address_words: frozenset[str]
    filler_phrases: tuple[tuple[str, ...], ...]
    hesitation_words: frozenset[str]
    """What may open a line before the move ("no no cuatro trenes", "perdón, …")."""
    hesitation_phrases: tuple[tuple[str, ...], ...]
    vocatives: frozenset[str]
    articles: frozenset[str]
    correction_words: frozenset[str]
    correction_phrases: tuple[tuple[str, ...], ...]
    closed: frozenset[str]
    """The closed classes of Spanish: may stand around any move but an exact one."""
    exact: frozenset[str]
    """Intents said exactly: no closed-class word around them ("sí", "no")."""
    closed_except: dict[str, frozenset[str]]
    """Closed-class words that change an intent's meaning: around a count, "me" makes it one player's."""
    tail_starts: frozenset[str]
    tail_words: frozenset[str]
    """Words a dropped tail may hold, besides closed classes, fillers and ``tail_verbs``."""
    tail_verbs: frozenset[str]
    """Every form of the tail's verbs ("vean", "sepan", "duden")."""
    lead_calls: frozenset[str]
    """Calls a reason may come before, in a tail's words ("ná que ver, dudo")."""
    negators: frozenset[str]
    """Words that deny a call said right after them ("no lo dudo", "nadie dudó")."""
    questions: frozenset[str]
    """Words that make a reason before a call a question ("¿quién dudó?")."""
    handover: tuple[tuple[str, ...], ...]
    """The turn handed on after a bid ("te toca", "tu turno"), perhaps with a name after it."""
    handover_spellings: tuple[str, ...]
    """The same as written in the file, for the recognizer ("pasa", not the family's "paso")."""
    frames: dict[str, frozenset[str]]
    """intent -> words that may surround its core without changing it."""
    frame_keys: dict[str, frozenset[str]]
    """intent -> the frame words one of which must be said when only a slot is left ("palo", not "dale")."""
    hand_kinds: dict[tuple[str, ...], str]
    """"pichanga" -> "distintas", "full" -> "full"..."""
    hand_joins: dict[str, frozenset[str]]
    """"de", "y", "uno", "antes", "escalera" and "hasta": the small words of a hand named by its kind."""
    new_game: dict[str, frozenset[str]]
    """«otra con pedro y juan sin carla»: "con", "sin" and the words that join names."""
    count_between: frozenset[str]
    """Between a name and its number in a per-player count: "ana tiene dos"."""
    locutions: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    """Set phrases read as other words, longest first: "sentido del reloj" -> "izquierda"."""
    misheard: dict[str, tuple[str, ...]]
    """A common word a recognizer writes for a lexicon word: "cuadros" -> "cuadras"."""
    families: dict[str, str]
    """Every form of a family's verbs (folded) -> the lexicon word that heads it: "partimos" -> "parte"."""
    family_spellings: dict[str, tuple[str, ...]]
    """Family head -> its forms as a recognizer spells them (accents kept), for the grammar."""
    family_tags: dict[str, tuple[tuple[str, str], ...]]
    """Family head -> (tense.person, form as spelled): which forms take a pronoun written on."""
    reflexive: frozenset[str]
    """Pronouns that, right before a call's verb, make it about oneself ("se mató")."""
    reflexive_calls: frozenset[tuple[str, ...]]
    """Such pairs that are calls all the same ("me paso")."""
    enclitic: frozenset[str]
    """Family heads read with a pronoun written on ("olvídalo"); no other ("pásame" is not a paso)."""
    clitics: frozenset[str]
    """Pronouns said before a verb ("no lo dudo")."""
    enclitics: tuple[str, ...]
    """Pronouns written onto a verb, longest first."""
    diminutives: tuple[tuple[str, str], ...]
    """(ending, what stands in its place): ("itas", "as")."""
    dropped_d: tuple[tuple[str, str], ...]
    """(ending, full ending): ("ao", "ado")."""
    tail_spellings: tuple[str, ...]
    common: frozenset[str]
    """Common Spanish words never snapped to a game word."""
    newcomers: tuple[str, ...]
    """Names the recognizer may hear in «otra con …» (``nombres.txt``)."""
    templates: dict[str, tuple[tuple[str, ...], ...]]
    """intent -> expanded token sequences, in the file's order, family forms read as their head."""
    spellings: dict[str, str]
    """Folded word -> as written in the file (accents kept), for the recognizer."""
    raw_templates: dict[str, tuple[str, ...]]
    veto_cues: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(family, words) of [vetos]: a line that holds one is about something else than its move.
    A cue that names a call ("el que duda paga", "{jugada} y perdí") is about that call only."""
    veto_except: tuple[tuple[str, ...], ...] = ()
    """Cues that are moves after all ("dudo que haya tantas")."""
    move_forms: dict[str, frozenset[str]] = field(default_factory=dict)
    """{jugada}, {jugada_irreal}, {jugada_tu} -> the folded verb forms each stands for in a cue."""
    shorthand: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A word written short on a phone, as said: "q" -> "que", "tmb" -> "también" (typed text only)."""
    verb_forms: frozenset[str] = frozenset()
    """Common Spanish verb forms (``verbos.txt``): said right against a bid's words, they make them a thing ("compré tres trenes")."""
    chatter_words: tuple[str, ...] = ()
    """The most used Spanish words, most used first, as spelled (``charla.txt``): the grammar's vocabulary for talk."""
    chatter_in_grammar: int = 0
    """How many of ``chatter_words`` the recognizer grammar lists."""
    veto_words: tuple[str, ...] = ()
    """Every word the [vetos] cues are made of, as spelled (accents kept), every form of
    their verbs among them ("dudado", "calzaba"): the recognizer grammar lists them, or a
    cue could never be heard ("con dos ases yo hubiera dudado")."""
    counted_things: frozenset[str] = frozenset()
    """A number right before one of these counts things, not dice ("cinco dados")."""
    complement_words: frozenset[str] = frozenset()
    """Before one of these a move's words belong to a phrase about something else ("tres patos en la laguna")."""
    determiners: frozenset[str] = frozenset()
    """Before a word the lexicon does not know, right after a move's words, these make it their object ("anula la reserva")."""
    count_words: frozenset[str] = frozenset()
    """Before a number these make it a count ("hay tres [unk]"), not things counted."""
    inside_words: frozenset[str] = frozenset()
    """After one of these a move's word names a thing ("me voy a la calza"): a move read among unknown words is not taken."""

    def canonical(self, word: str) -> str:
        """The word that heads ``word``'s family ("partimos" -> "parte"), or the word itself."""
        return self.families.get(word, word)

    def said(self, text: str) -> list[str]:
        """The line's tokens, words written short read as said ("dudo q venga" -> "dudo que venga")."""
        return [w for t in tokens(text) for w in self.shorthand.get(t, (t,))]

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every literal word the lexicon knows (for near-miss correction and the grammar)."""
        words = set(self.numbers) | set(self.tens) | set(self.tens_with_y) | set(self.prefixes) | {self.connector} | set(self.faces)
        words |= set(self.hand_faces) | set(self.directions) | self.filler_words | self.hesitation_words
        for phrase in (*self.filler_phrases, *self.hesitation_phrases, *self.correction_phrases, *self.total_phrases):
            words |= set(phrase)
        for sequences in self.templates.values():
            for seq in sequences:
                words |= {t.lstrip(ESSENTIAL) for t in seq if t not in SLOTS}
        words |= self.vocatives | self.address_words | self.articles | self.correction_words | self.closed | self.tail_starts | self.tail_words
        for phrase in self.handover:
            words |= set(phrase)
        words |= self.tail_verbs | set(self.families) | self.sum_words | self.result_words | self.count_between
        for frame in self.frames.values():
            words |= frame
        for kind in self.hand_kinds:
            words |= set(kind)
        for group in (*self.hand_joins.values(), *self.new_game.values()):
            words |= group
        for said, _meant in self.locutions:
            words |= set(said)
        words |= set(self.misheard) | self.reflexive
        return frozenset(w for w in words if not w.isdigit())

    def small_faces(self) -> dict[str, str]:
        """Face names said small and the name each stands for: "quinita(s)" ->
        "quina(s)", "tontito(s)" -> "tonto(s)", "trencito" -> "tren", "ascitos" ->
        "ases" (the parser reads them by the endings in [ortografia]; the
        recognizer grammar lists them). Faces named by a number ("cincos") have none."""
        out: dict[str, str] = {}
        for face in self.faces:
            bare = face[:-2] if face.endswith("es") else face[:-1] if face.endswith("s") else face
            if not face.isalpha() or bare in self.numbers or face.rstrip("s") in self.numbers or bare.endswith("c"):
                continue
            if face.endswith(("as", "os")) and face != "as":
                out[face[:-2] + "it" + face[-2:]] = face  # quinitas, tontitos
            elif face.endswith(("a", "o")):
                out[face[:-1] + "it" + face[-1]] = face  # quinita, tontito
            elif face.endswith("es"):
                out[face[:-2] + "citos"] = face  # trencitos, ascitos
                out[face[:-2] + "itos"] = face  # asitos
            else:
                out[face + "cito"] = face  # trencito, ascito
        return out

    def small_numbers(self) -> dict[str, str]:
        """Numbers said small at a family table and the word each stands for: "tresito" ->
        "tres", "cuatrito" -> "cuatro", "cinquito" -> "cinco" (the parser reads them by
        the endings in [ortografia]; the recognizer grammar lists them)."""
        out: dict[str, str] = {}
        for word, value in self.numbers.items():
            if not 2 <= value <= 12 or not word.isalpha():
                continue
            if word.endswith("o"):
                stem = word[:-1]
                out[(stem[:-1] + "qu" if stem.endswith("c") else stem) + "ito"] = word  # cuatrito, cinquito
            elif word.endswith("s"):
                out[word + "ito"] = word  # tresito, dosito
        return out

    def number_words(self, n: int) -> list[str]:
        """Every way the lexicon writes n (0..99), accents kept: "dieciséis", "treinta y uno"."""
        said = [self.spellings.get(w, w) for w, v in self.numbers.items() if v == n]
        if not said and n >= 30:
            tens = [w for w, v in self.tens.items() if v == n - n % 10]
            if tens and n % 10 == 0:
                said = tens
            elif tens:
                units = [self.spellings.get(w, w) for w, v in self.numbers.items() if v == n % 10]
                said = [f"{t} {self.connector} {u}" for t in tens for u in units]
        return said


def _fold_list(values: Any, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TemplateError(say.not_a_word_list(where))
    return [" ".join(tokens(v)) for v in values]


def _spellings(data: Any) -> dict[str, str]:
    """Every word of the file as written (accents kept), by its folded form:
    the recognizer's model spells "tenía", "póquer", "conté" with their accents."""
    found: dict[str, str] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            found.update(_spellings(key))
            found.update(_spellings(value))
    elif isinstance(data, list):
        for value in data:
            found.update(_spellings(value))
    elif isinstance(data, str):
        for word in re.findall(r"[a-záéíóúüñ]+", data.lower()):
            if fold(word) != word:
                found.setdefault(fold(word), word)
    return found


def _conjugations(path: Path | None) -> dict[str, list[tuple[str, str]]]:
    """``formas.txt``: infinitive -> (tense[.person], form) rows; a house lexicon
    without its own reads the one shipped with the package (Spanish verbs are
    the same at every table)."""
    try:
        text = _read(path, "formas.txt")
    except FileNotFoundError:
        text = _read(None, "formas.txt")
    table: dict[str, list[tuple[str, str]]] = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            infinitive, tag, form = line.split("\t")
            table.setdefault(infinitive, []).append((tag, form))
    return table


def _selected(rows: list[tuple[str, str]], tenses: tuple[str, ...]) -> list[str]:
    """Forms whose tag is one of ``tenses`` ("presente" takes every person, "presente.1p" one)."""
    return [form for tag, form in rows if tag in tenses or tag.partition(".")[0] in tenses]


def _families(
    data: dict[str, Any], table: dict[str, list[tuple[str, str]]]
) -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, tuple[tuple[str, str], ...]]]:
    """[familias]: every form -> its head, each head's forms as spelled, and with their tags."""
    heads: dict[str, str] = {}
    spelled: dict[str, tuple[str, ...]] = {}
    tagged: dict[str, tuple[tuple[str, str], ...]] = {}
    for head, entries in data.get("familias", {}).items():
        rows: list[tuple[str, str]] = []
        for entry in _strings(entries, f"familias.{head}"):
            infinitive, _, which = entry.partition(":")
            infinitive = infinitive.strip()
            if infinitive not in table:
                raise TemplateError(say.verb_not_conjugated(f"familias.{head}", infinitive))
            tenses = tuple(which.split()) or DEFAULT_TENSES
            if tenses[0] == "+":  # "apostar: + condicional": the default and more
                tenses = DEFAULT_TENSES + tenses[1:]
            rows += [(tag, form) for tag, form in table[infinitive] if tag in tenses or tag.partition(".")[0] in tenses]
        forms = [form for _tag, form in rows]
        folded_head = fold(head)
        spelled[folded_head] = tuple(dict.fromkeys(forms))
        tagged[folded_head] = tuple(dict.fromkeys(rows))
        for form in forms:
            other = heads.setdefault(fold(form), folded_head)
            if other != folded_head:
                raise TemplateError(say.two_families(form, other, folded_head))
    return heads, spelled, tagged


_UNREAL = ("imperfecto", "condicional")
"""Not the future: "dudaré" is a call all the same."""
_TO_YOU = ("presente.2s", "presente.2p", "subjuntivo.2s")
"""Not the vos imperative: without its accent "dudá" is "duda", the third person ("carla duda")."""


def _veto_words(vetos: dict[str, Any], table: dict[str, list[tuple[str, str]]]) -> tuple[str, ...]:
    """The words of every cue in [vetos], as spelled, and every form of its verbs."""
    words: dict[str, None] = {}
    for family, phrases in vetos.items():
        if family == "verbos":
            for verb in _strings(phrases, "vetos.verbos"):
                words.update((form, None) for _tag, form in table.get(verb, []))
            continue
        for phrase in _strings(phrases, f"vetos.{family}"):
            for seq in expand(phrase, keep_accents=True):
                words.update((w, None) for w in seq if not w.startswith("{") and w not in (GAP_MARK, ANY_MARK))  # no slot, no mark
    return tuple(words)


def _move_forms(verbs: list[str], table: dict[str, list[tuple[str, str]]]) -> dict[str, frozenset[str]]:
    """The forms the cue slots stand for: every form of ``verbs``; those of the
    imperfect, conditional and future; those said to "tú", "vos" and "vosotros", with
    the Chilean "-ái" ("dudái", "calzái") and the vosotros imperative ("dudad")."""
    every: set[str] = set()
    unreal: set[str] = set()
    you: set[str] = set()
    for verb in verbs:
        if verb not in table:
            raise TemplateError(say.verb_not_conjugated("vetos.verbos", verb))
        for tag, form in table[verb]:
            folded = fold(form)
            every.add(folded)
            if tag.partition(".")[0] in _UNREAL:
                unreal.add(folded)
            if tag in _TO_YOU:
                you.add(folded)
        stem = fold(verb)[:-2]
        you |= {stem + "ai", stem + "ais", fold(verb)[:-1] + "d"}  # "dudái", "dudáis", "dudad"
    every |= you
    return {"{jugada}": frozenset(every), "{jugada_irreal}": frozenset(unreal), "{jugada_tu}": frozenset(you)}


def _really_unreal(forms: dict[str, frozenset[str]], families: dict[str, str]) -> dict[str, frozenset[str]]:
    """The imagined forms less those a family reads as its move ("picaba", "obligaba": the lexicon's own picado and obligo)."""
    return {**forms, "{jugada_irreal}": forms["{jugada_irreal}"] - set(families)} if forms else forms


_ACCENTED = str.maketrans("aeiou", "áéíóú")


def with_pronoun(form: str, pronoun: str) -> str:
    """A verb form with a pronoun written on, accented as Spanish writes it:
    "olvida" + "lo" -> "olvídalo", "anulen" + "lo" -> "anúlenlo", "anular" + "lo" -> "anularlo"."""
    if any(c in "áéíóú" for c in form) or form[-1] not in "aeiouns":
        return form + pronoun  # stressed on the last syllable, or already marked: "deshazlo", "anularlo"
    nuclei = _nuclei(form)
    if len(nuclei) < 2:
        return form + pronoun
    start, end = nuclei[-2]
    group = form[start : end + 1]
    strong = [i for i, c in enumerate(group) if c in "aeo"]
    at = start + (strong[0] if strong else len(group) - 1)
    return form[:at] + form[at].translate(_ACCENTED) + form[at + 1 :] + pronoun


def _nuclei(word: str) -> list[tuple[int, int]]:
    """The vowel groups of a word (a diphthong is one), as (first, last) indexes;
    the silent u of "que", "gui" is not a vowel."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(word):
        silent = word[i] == "u" and i > 0 and word[i - 1] in "qg" and i + 1 < len(word) and word[i + 1] in "ei"
        if word[i] in "aeiou" and not silent:
            j = i
            while j + 1 < len(word) and word[j + 1] in "aeiou" and not (word[j] in "aeo" and word[j + 1] in "aeo"):
                j += 1
            spans.append((i, j))
            i = j + 1
        else:
            i += 1
    return spans


def _strings(values: Any, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TemplateError(say.not_a_word_list(where))
    return list(values)


def _phrases(values: Any, where: str) -> tuple[tuple[str, ...], ...]:
    """Set phrases, each perhaps a template: "(levanten|muestren) los (cachos|dados)"."""
    return tuple(dict.fromkeys(tuple(" ".join(seq).split()) for v in _strings(values, where) for seq in expand(v)))


def load(path: Path | None = None) -> Lexicon:
    path = path or default_path()
    data = tomllib.loads(_read(path))
    table = _conjugations(path)
    families, family_spellings, family_tags = _families(data, table)

    def canon(words: list[str] | tuple[str, ...]) -> frozenset[str]:
        return frozenset(families.get(w, w) for w in words)

    def canon_seq(seq: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(ESSENTIAL + families.get(w[1:], w[1:]) if w.startswith(ESSENTIAL) else families.get(w, w) for w in seq)

    nums = data["numeros"]
    faces: dict[str, int] = {}
    face_names: dict[int, tuple[str, ...]] = {}
    for key, words in data["pintas"].items():
        folded = _fold_list(words, f"pintas.{key}")
        face_names[int(key)] = tuple(folded)
        for w in folded:
            faces[w] = int(key)
    hand_faces = {w: int(k) for k, ws in data.get("pintas_en_mano", {}).items() for w in _fold_list(ws, "pintas_en_mano")}
    directions = {w: k for k, ws in data["sentidos"].items() for w in _fold_list(ws, f"sentidos.{k}")}
    filler = data["relleno"]
    templates: dict[str, tuple[tuple[str, ...], ...]] = {}
    raw: dict[str, tuple[str, ...]] = {}
    for intent, phrases in data["frases"].items():
        raw[intent] = tuple(phrases)
        expanded: list[tuple[str, ...]] = []
        for phrase in phrases:
            expanded += [canon_seq(seq) for seq in expand(phrase)]
        templates[intent] = tuple(dict.fromkeys(expanded))
    spellings = _spellings(data)
    spellings.update({fold(k): k.lower() for k in list(nums["simples"]) + list(nums["decenas"])})
    hands = data.get("manos", {})
    hand_kinds: dict[tuple[str, ...], str] = {}
    for kind in ("full", "poker", "distintas", "iguales"):
        for phrase in _fold_list(hands.get(kind, []), f"manos.{kind}"):
            hand_kinds[tuple(phrase.split())] = kind
    corrections = data.get("correcciones", {})
    hesitations = data.get("titubeos", {})
    closed = data.get("cerradas", {})
    tails = data.get("colas", {})
    tail_forms = [form for verb in _strings(tails.get("verbos", []), "colas.verbos") for _tag, form in table.get(verb, [])]
    locutions = sorted(
        ((tuple(fold(k).split()), tuple(fold(v).split())) for k, v in data.get("locuciones", {}).items()),
        key=lambda pair: -len(pair[0]),
    )
    new_game = data.get("nueva_partida", {})
    spelling = data.get("ortografia", {})
    vetos = data.get("vetos", {})
    return Lexicon(
        veto_cues=tuple(
            (family, tuple(" ".join(seq).split()))
            for family, phrases in vetos.items() if family not in ("verbos", "cosas", "salvo", "dentro", "despues", "objeto", "cuentan")
            for phrase in _strings(phrases, f"vetos.{family}") for seq in expand(phrase)
        ),
        veto_except=_phrases(vetos.get("salvo", []), "vetos.salvo"),
        move_forms=_really_unreal(_move_forms(_strings(vetos.get("verbos", []), "vetos.verbos"), table), families),
        counted_things=frozenset(_fold_list(vetos.get("cosas", []), "vetos.cosas")),
        inside_words=frozenset(_fold_list(vetos.get("dentro", []), "vetos.dentro")),
        complement_words=frozenset(_fold_list(vetos.get("despues", []), "vetos.despues")),
        count_words=frozenset(_fold_list(vetos.get("cuentan", []), "vetos.cuentan")),
        determiners=frozenset(_fold_list(vetos.get("objeto", []), "vetos.objeto")),
        tens_with_y={fold(k): int(v) for k, v in nums.get("decenas_con_y", {}).items()},
        prefixes={fold(k): int(v) for k, v in nums.get("prefijos", {}).items()},
        hour_articles=frozenset(_fold_list(nums.get("articulos_de_hora", []), "numeros.articulos_de_hora")),
        sum_words=frozenset(_fold_list(nums.get("suma", []), "numeros.suma")),
        result_words=frozenset(_fold_list(nums.get("resultado", []), "numeros.resultado")),
        total_phrases=_phrases(nums.get("total", []), "numeros.total"),
        vocatives=frozenset(_fold_list(data.get("vocativos", {}).get("palabras", []), "vocativos.palabras")),
        articles=frozenset(_fold_list(data.get("articulos", {}).get("palabras", []), "articulos.palabras")),
        correction_words=canon(_fold_list(corrections.get("palabras", []), "correcciones.palabras")),
        correction_phrases=_phrases(corrections.get("frases", []), "correcciones.frases"),
        hesitation_words=canon(_fold_list(hesitations.get("palabras", []), "titubeos.palabras")),
        hesitation_phrases=_phrases(hesitations.get("frases", []), "titubeos.frases"),
        closed=frozenset(_fold_list(closed.get("palabras", []), "cerradas.palabras")),
        exact=frozenset(closed.get("exactas", [])),
        closed_except={k: frozenset(_fold_list(v, f"cerradas.excepto.{k}")) for k, v in closed.get("excepto", {}).items()},
        tail_starts=frozenset(_fold_list(tails.get("empieza", []), "colas.empieza")),
        tail_words=frozenset(_fold_list(tails.get("palabras", []), "colas.palabras")),
        tail_verbs=frozenset(fold(f) for f in tail_forms),
        tail_spellings=tuple(dict.fromkeys(tail_forms)),
        lead_calls=frozenset(_fold_list(tails.get("antes", []), "colas.antes")),
        negators=frozenset(_fold_list(tails.get("niegan", []), "colas.niegan")),
        questions=frozenset(_fold_list(tails.get("preguntan", []), "colas.preguntan")),
        handover=tuple(sorted((canon_seq(p) for p in _phrases(tails.get("entrega", []), "colas.entrega")), key=lambda p: -len(p))),
        handover_spellings=tuple(" ".join(seq) for v in _strings(tails.get("entrega", []), "colas.entrega") for seq in expand(v, keep_accents=True)),
        frames={k: canon(_fold_list(v, f"marcos.{k}")) for k, v in data.get("marcos", {}).items() if isinstance(v, list)},
        frame_keys={k: canon(_fold_list(v, f"marcos.claves.{k}")) for k, v in data.get("marcos", {}).get("claves", {}).items()},
        hand_kinds=hand_kinds,
        hand_joins={k: canon(_fold_list(hands.get(k, []), f"manos.{k}")) for k in ("de", "y", "uno", "antes", "escalera", "hasta", "reclamo")},
        clitics=frozenset(_fold_list(spelling.get("cliticos", []), "ortografia.cliticos")),
        enclitics=tuple(_fold_list(spelling.get("encliticos", []), "ortografia.encliticos")),
        diminutives=tuple((fold(k), fold(v)) for k, v in spelling.get("diminutivos", {}).items()),
        dropped_d=tuple((fold(k), fold(v)) for k, v in spelling.get("d_caida", {}).items()),
        new_game={k: frozenset(_fold_list(new_game.get(k, []), f"nueva_partida.{k}")) for k in ("con", "sin", "juntas")},
        count_between=canon(_fold_list(data.get("cuenta_por_jugador", {}).get("entre", []), "cuenta_por_jugador.entre")),
        locutions=tuple(locutions),
        misheard={fold(k): tuple(fold(v).split()) for k, v in data.get("oidas", {}).items()},
        families=families,
        family_spellings=family_spellings,
        family_tags=family_tags,
        reflexive=frozenset(_fold_list(data.get("reflexivos", {}).get("antes", []), "reflexivos.antes")),
        reflexive_calls=frozenset(tuple(canon_seq(p)) for p in _phrases(data.get("reflexivos", {}).get("salvo", []), "reflexivos.salvo")),
        enclitic=frozenset(fold(h) for h in _strings(data.get("encliticos", {}).get("familias", []), "encliticos.familias")),
        common=_common(path),
        shorthand={fold(k): tuple(fold(v).split()) for k, v in spelling.get("abreviaturas", {}).items()},
        verb_forms=_common(path, "verbos.txt"),
        chatter_words=_listed(path, "charla.txt"),
        veto_words=_veto_words(vetos, table),
        chatter_in_grammar=int(data.get("charla", {}).get("en_gramatica", 0)),
        newcomers=_names(path),
        spellings=spellings,
        numbers={fold(k): int(v) for k, v in nums["simples"].items()},
        tens={fold(k): int(v) for k, v in nums["decenas"].items()},
        connector=fold(nums["conector"]),
        grammar_max=int(nums.get("maximo_gramatica", 40)),
        faces=faces,
        face_names=face_names,
        hand_faces=hand_faces,
        directions=directions,
        filler_words=frozenset(_fold_list(filler["palabras"], "relleno.palabras")),
        address_words=frozenset(_fold_list(filler.get("apelativos", []), "relleno.apelativos")),
        filler_phrases=_phrases(filler["frases"], "relleno.frases"),
        templates=templates,
        raw_templates=raw,
    )


@lru_cache(maxsize=4)
def default() -> Lexicon:
    return load()


def fingerprint(path: Path | None = None) -> str:
    """A digest of every file the lexicon at ``path`` (default: ``$DUDO_LEXICO`` or
    the shipped one) is read from: what is built from it is stale when this changes."""
    path = path or default_path()
    digest = hashlib.sha256()
    for name in ("es.toml", "formas.txt", "comunes.txt", "nombres.txt", "verbos.txt", "charla.txt"):
        try:
            digest.update(name.encode() + b"\0" + _read(path, name).encode("utf-8") + b"\0")
        except FileNotFoundError:
            digest.update(name.encode() + b"\0-\0")
    return digest.hexdigest()
