"""The phrase list given to the recognizer, sampled from the lexicon.

Vosk turns the list into a bigram model over its words, so what matters is
that every word and every word pair a command can contain appears in some
phrase. Each template is filled so that every value of each slot appears at
least once, and bids get the full quantity x face product (the pair the
recognizer must get right most often). Words keep their accents: the Spanish
model spells "cuántos" and "dieciséis" that way, and a word it does not know
is silently dropped.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from functools import lru_cache
from itertools import cycle, islice
from pathlib import Path

from platformdirs import user_cache_dir

from assistant.speech import lexicon as lexicon_module
from assistant.speech.lexicon import ESSENTIAL, HAND, Lexicon, expand, with_pronoun
from assistant.speech.normalize import fold as _fold
from assistant.speech.normalize import spelled_alike
from assistant.speech.parser import Parser


@lru_cache(maxsize=8192)
def fold(word: str) -> str:
    return _fold(word)

UNKNOWN = "[unk]"


def _number_words(lex: Lexicon, low: int, high: int) -> list[str]:
    words: list[str] = []
    for n in range(low, high + 1):
        words += lex.number_words(n)
    return words


def _raw_words(lex: Lexicon) -> dict[str, list[str]]:
    """Slot fillers spelled as in the lexicon file (accents kept)."""
    return {
        "{pinta}": [w for names in lex.face_names.values() for w in names],
        "{sentido}": sorted(set(lex.directions)),
    }


def phrases(lexicon: Lexicon | None = None, players: Iterable[str] = ()) -> list[str]:
    """Every phrase for the recognizer: the game's, players' names included, then the
    words of talk (``chatter``), then "[unk]"."""
    lex = lexicon or lexicon_module.default()
    game = game_phrases(lex, players)
    return [*game, *chatter(lex, game), UNKNOWN]


def game_phrases(lexicon: Lexicon | None = None, players: Iterable[str] = ()) -> list[str]:
    """The phrases of the game, players' names included."""
    lex = lexicon or lexicon_module.default()
    said_names = [" ".join(p.lower().split()) for p in players if p.strip()]
    # each name also as a recognizer may spell it ("veto", "karla", "anna"): the
    # model may know one spelling and not the other, and the parser reads them all
    names = said_names + [v for n in said_names for v in spelled_alike(n) if v not in said_names]
    quantities = _number_words(lex, 1, lex.grammar_max)
    counts = _number_words(lex, 0, lex.grammar_max)
    in_hand = _number_words(lex, 1, HAND)  # "puros tontos, tres tontos": one's own dice, five at most
    fillers = _raw_words(lex) | {"{jugador}": names}
    faces = fillers["{pinta}"]
    hand_words = faces + [w for w in lex.hand_faces]
    # hands: five face words, walking through every name
    fillers["{cara}"] = hand_words
    fillers["{caras}"] = [" ".join(islice(cycle(hand_words), i, i + 5)) for i in range(0, len(hand_words), 5)]
    out: list[str] = []
    for intent, templates in lex.raw_templates.items():
        slot_values = dict(fillers)
        slot_values["{cantidad}"] = counts if intent.startswith("cuenta") else in_hand if intent.startswith("mano") else quantities
        for template in templates:
            filled = [p for seq in expand(template, keep_accents=True) for p in _fill(seq, slot_values)]
            out += filled + _family_forms(lex, filled)
    # every quantity with every face: the bigram a bid lives on
    out += [f"{q} {f}" for q in quantities for f in faces]
    # faces said small: "tres quinitas", "un ascito"
    out += [f"{quantities[i % len(quantities)]} {small}" for i, small in enumerate(lex.small_faces())]
    # and numbers: "unos cuatrito trenes", "tresito ases"
    out += [f"{small} {faces[i % len(faces)]}" for i, small in enumerate(lex.small_numbers())]
    # any two dice next to each other, as a hand is dictated ("tren tren", "cuadra quina")
    out += [f"{a} {b}" for a in faces for b in faces]
    # number words a recognizer may split: "dieci siete", "veinti dos", "diez y siete"
    units = [w for w, v in lex.numbers.items() if 1 <= v <= 9]
    out += [f"{lex.spellings.get(p, p)} {lex.spellings.get(u, u)}" for p in lex.prefixes for u in units]
    out += [f"{t} {lex.connector} {lex.spellings.get(u, u)}" for t in lex.tens_with_y for u in units]
    # every other word the parser accepts, where people say it, so the bigram
    # model can return it: fillers and frame words around their intents,
    # vocatives and articles before names, corrections between two bids, hand kinds
    out += _around_words(lex, slot_values | {"{cantidad}": quantities}, names, faces)
    out += _said_otherwise(lex, out)
    # a pronoun written onto the verb, where the family's shortest phrases say it: one
    # that names what it is done to ("quitale un dado beto", "olvídalo", "castíguenlo ana"),
    # and one where the pronoun stands for the object said after the verb ("quita eso" -> "quítalo")
    for head, rows in lex.family_tags.items():
        if head not in lex.enclitic:
            continue
        said = [p.split() for p in out if head in {fold(w) for w in p.split()}]
        for objected in (False, True):
            # with an article or a pronoun right after the verb ("repite la apuesta", "quita lo último") neither
            kind = [p for p in said if (_after(p, head) in OBJECTS) == objected and _after(p, head) not in lex.clitics]
            if not kind:
                continue
            shortest = min(kind, key=len)
            pronouns: tuple[str, ...] = ("lo", "la", "le")  # "olvídalo", "bórrala", "quítale"
            if objected:
                at = next(i for i, w in enumerate(shortest) if fold(w) == head)
                shortest, pronouns = shortest[: at + 1] + shortest[at + 2 :], ("lo", "la")
            for tag, form in rows:
                if tag in ("imperativo.2s", "imperativo.3p", "infinitivo"):
                    for pronoun in pronouns:
                        written = with_pronoun(form, pronoun)
                        out.append(" ".join(written if fold(w) == head else w for w in shortest))
    # «otra con pedro», «revancha sin ana»: a new game with players joining or leaving
    out += [f"{head} con {n}" for head in ("otra", "otra partida", "revancha") for n in lex.newcomers]
    out += [f"{head} sin {n}" for head in ("otra", "otra partida", "revancha") for n in names]
    return list(dict.fromkeys(out))


def chatter(lex: Lexicon, phrases: list[str]) -> list[str]:
    """Talk that is not the game: the lexicon's most used Spanish words, each a phrase of
    its own. The Spanish model in grammar mode forces any word it hears onto a word of
    the list ("tengo sed" comes back as "tengo cedo", a paso); with these listed, talk
    comes back as itself and the parser sees it is talk. Each once, not already in a
    game phrase (so no game phrase loses weight to a duplicate); then every word of the
    cues that a line is talk (``Lexicon.veto_words``), so the recognizer can hear them."""
    said = {fold(w) for p in phrases for w in p.split()}
    out: list[str] = []
    for word in lex.chatter_words[: lex.chatter_in_grammar]:
        if fold(word) not in said:
            said.add(fold(word))
            out.append(word)
    # and every word of a cue that the line is talk ("con dos ases yo hubiera dudado"), but one
    # the parser reads as a move said alone ("dudaré", "calzái"): that one is no talk
    reader = Parser(lex)
    for word in lex.veto_words:
        if fold(word) not in said and reader.parse(word).action == "desconocido":
            said.add(fold(word))
            out.append(word)
    return out


JUDGING = frozenset({"son", "es", "era", "eran", "fueron", "fue"})
"""Tail starts that, before a tail word, judge the bid rather than follow it ("son demasiadas")."""
SUPPOSING = frozenset({"si", "asi", "siempre", "nunca"})
"""Tail starts that, before a tail verb, suppose or tell rather than follow: "un as, si dices…" explains a
rule, "un as, así decían" tells how it was, "un as, siempre dices" a habit."""
OBJECTS = frozenset({"eso", "esto"})
"""What a pronoun written onto a verb stands for when the phrase says it after the verb
("quita eso" -> "quítalo"); never an article ("repite la apuesta" is no "repítela apuesta")."""


def _after(words: list[str], head: str) -> str:
    """The word right after ``head`` in ``words`` (folded), or "" at the end."""
    at = next(i for i, w in enumerate(words) if fold(w) == head)
    return fold(words[at + 1]) if at + 1 < len(words) else ""


def cached_phrases(players: Iterable[str] = (), folder: Path | None = None) -> list[str]:
    """``phrases`` for the table's lexicon (``$DUDO_LEXICO`` or the shipped one),
    kept on disk under a key made of what they are built from: the lexicon's files,
    this package's code and the players. A launch reads them back in milliseconds
    instead of building them again (0.6-0.8 s here, seconds on a Pi, on the way to
    listening); any change makes a new key. A cache that cannot be read or written
    is only slower."""
    players = list(players)
    folder = folder or Path(os.environ.get("DUDO_CACHE") or user_cache_dir("dudo", appauthor=False)) / "gramatica"
    digest = hashlib.sha256(lexicon_module.fingerprint().encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    digest.update("\n".join(players).encode("utf-8"))
    path = folder / f"{digest.hexdigest()[:20]}.json"
    try:
        kept = json.loads(path.read_text("utf-8"))
        if isinstance(kept, list) and kept and kept[-1] == UNKNOWN and all(isinstance(p, str) for p in kept):
            return kept
    except (OSError, ValueError):
        pass  # not built yet, or torn: build it
    built = phrases(players=players)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.json"):
            old.unlink(missing_ok=True)  # one table, one grammar: never a folder that grows
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(built, ensure_ascii=False), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return built


def _family_forms(lex: Lexicon, phrases: list[str]) -> list[str]:
    """Every form of a family where its head is said ("dudo" -> "dudó", "dudamos",
    "duden"…): each form once, in the phrases of the template, in turn."""
    out: list[str] = []
    said = [(p, {fold(w) for w in p.split()}) for p in phrases]
    for head, forms in lex.family_spellings.items():
        carrying = [p for p, words in said if head in words]
        if not carrying:
            continue
        for i, form in enumerate(forms):
            phrase = carrying[i % len(carrying)]
            out.append(" ".join(form if fold(w) == head else w for w in phrase.split()))
    return out


def _said_otherwise(lex: Lexicon, phrases: list[str]) -> list[str]:
    """Set phrases and misheard words where the words they stand for are said:
    "parte ana en el sentido del reloj", "cuatro quintas", "un par de tontos"."""
    out: list[str] = []
    folded = [" " + fold(p) + " " for p in phrases]
    spell = lex.spellings.get
    pairs = [(" ".join(said), " ".join(meant)) for said, meant in lex.locutions]
    pairs += [(said, " ".join(meant)) for said, meant in lex.misheard.items()]
    for said, meant in pairs:
        i = next((k for k, p in enumerate(folded) if f" {meant} " in p), None)
        if i is not None:
            phrase = folded[i].strip().replace(meant, said, 1)
            out.append(" ".join(spell(w, w) for w in phrase.split()))
        else:
            out.append(" ".join(spell(w, w) for w in said.split()))
    return out


def _around_words(lex: Lexicon, values: dict[str, list[str]], names: list[str], faces: list[str]) -> list[str]:
    spell = lex.spellings.get
    bid, other_bid = f"{values['{cantidad}'][2]} {faces[0]}", f"{values['{cantidad}'][3]} {faces[1]}"
    call = " ".join(expand(lex.raw_templates["dudo"][0], keep_accents=True)[0])  # the plainest call
    out: list[str] = []
    fillers = [" ".join(spell(w, w) for w in p) for p in lex.filler_phrases] + [spell(w, w) for w in sorted(lex.filler_words)]
    for w in fillers:
        out += [f"{w} {bid}", f"{bid} {w}", f"{w} {call}", f"{call} {w}"]
    for w in sorted(lex.address_words):  # the table spoken to: "cinco quinas, cabros", "señores, dudo"
        w = spell(w, w)
        out += [f"{w} {bid}", f"{bid} {w}", f"{w} {call}", f"{call} {w}"]
    plain = values | {"{cantidad}": lex.number_words(3)}  # "hay tres", not "hay un"
    keys = dict.fromkeys([*lex.frames, *(i.partition("_")[0] for i in lex.raw_templates)])
    for key in keys:
        intent = next(i for i in lex.raw_templates if i == key or i.startswith(key + "_"))
        core = next((f for seq in expand(lex.raw_templates[intent][0], keep_accents=True) for f in _fill(seq, plain)), None)
        if core is None:
            continue
        frame = lex.frames.get(key, frozenset()) | (frozenset() if key in lex.exact else lex.closed - lex.closed_except.get(key, frozenset()))
        for w in sorted(frame):
            # a closed-class word as the list writes it ("se", not "sé"); "se"/"me" only after a call ("se picó" is no call)
            forms = lex.family_spellings.get(w, (w if w in lex.closed else spell(w, w),))
            before = [] if w in lex.reflexive else [f"{forms[0]} {core}"]
            out += [*before, f"{core} {forms[0]}"] + [f"{form} {core}" for form in forms[1:]]
    # tails after a whole move: "doce quinas y listo", "once senas pa que vean"
    starts = [spell(w, w) for w in sorted(lex.tail_starts)]
    out += [f"{bid} {start} {spell(w, w)}" for start in starts for w in sorted(lex.tail_words)[:2]]
    # (each tail word after a start taken in turn; never a copula, which would make the tail a judgement of
    # the bid, talk and no move: "un as son demasiado"; nor "si", "así", "siempre": "una as si dices", "una as así decían")
    turns = [s for s in starts if fold(s) not in JUDGING | SUPPOSING]
    for w in [spell(w, w) for w in sorted(lex.tail_words)] + list(lex.tail_spellings):
        out += [f"{bid} {turns[len(out) % len(turns)]} {w}", f"{bid} y que {w}", f"{call} pa que {w}"]
    # the turn handed on after a bid: "siete quinas, te toca", "ocho senas, tu turno beto"
    for i, said in enumerate(lex.handover_spellings):
        out += [f"{bid} {said}"] + ([f"{other_bid} {said} {names[i % len(names)]}"] if names else [])
    # a count said as a sum: "cuatro más un as son cinco"
    three, two, five = lex.number_words(3)[0], lex.number_words(2)[0], lex.number_words(5)[0]
    out += [f"{three} {spell(m, m)} {two} {faces[0]} {spell(r, r)} {five}" for m in sorted(lex.sum_words) for r in sorted(lex.result_words)]
    # hesitations before a move: "no no cuatro trenes", "perdón quise decir tres trenes"
    hesitations = [spell(w, w) for w in sorted(lex.hesitation_words)] + [" ".join(spell(w, w) for w in p) for p in lex.hesitation_phrases]
    out += [f"{h} {bid}" for h in hesitations] + [f"{h} {h} {bid}" for h in hesitations[:2]]
    for name in names[:1]:
        out += [f"{spell(v, v)} {name} {bid}" for v in sorted(lex.vocatives)]
        out += [f"{spell(a, a)} {name} {call}" for a in sorted(lex.articles)]
    corrections = [spell(w, w) for w in sorted(lex.correction_words)] + [" ".join(spell(w, w) for w in p) for p in lex.correction_phrases]
    out += [f"{bid} {c} {other_bid}" for c in corrections]
    before = [spell(w, w) for w in sorted(lex.hand_joins["antes"])]
    for kind in lex.hand_kinds:
        said = " ".join(spell(w, w) for w in kind)
        out += [said] + [f"{b} {said}" for b in before]
    de, y = sorted(lex.hand_joins["de"])[0], sorted(lex.hand_joins["y"])
    heads = [" ".join(spell(w, w) for w in k) for k, v in lex.hand_kinds.items() if v in ("full", "poker") and len(k) == 1]
    named = [(w, lex.faces[fold(w)]) for w in faces]
    pairs = [(a, b) for a, fa in named for b, fb in named if fb == fa % 6 + 1]
    out += [f"{h} {de} {a} {j} {b}" for h in heads for j in y for a, b in pairs]
    return out


def _fill(seq: tuple[str, ...], values: dict[str, list[str]]) -> list[str]:
    slots = [part for part in seq if part in values]
    if any(not values[s] for s in slots):
        return []  # e.g. {jugador} with no players yet
    seq = tuple(part.lstrip(ESSENTIAL) for part in seq)
    if not slots:
        return [" ".join(seq)]
    rounds = max(len(values[s]) for s in slots)
    filled = []
    for i in range(rounds):
        words = [values[part][i % len(values[part])] if part in values else part for part in seq]
        filled.append(" ".join(words))
    return filled


def vocabulary(phrase_list: Iterable[str]) -> set[str]:
    """The distinct words of a phrase list (what the model must know)."""
    return {w for phrase in phrase_list if phrase != UNKNOWN for w in phrase.split()}
