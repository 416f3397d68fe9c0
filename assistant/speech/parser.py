"""Text as a recognizer writes it -> every reading it can have, best first.

The parser knows Spanish, not the rules: "dos ases" after "cinco trenes" is a
bid here, and only the rules engine says whether it is legal. A line that the
game could take two ways ("ana dos trenes": ana's bid, or ana's count after a
reveal) gets both readings; the referee takes the first the game accepts now
(``Parser.readings``), and ``Parser.parse`` gives the best one out of context.

Every word must be placed: a line with a content word that fits no intent is
not understood at all (table chatter such as "dudo que llueva mañana" never
becomes a call). Words are first read as families (lexicon ``[familias]``,
``[locuciones]``, ``[oidas]``): "partimos" is "parte", "picao" is "picado",
"olvídalo" is "olvida lo", "sentido del reloj" is "izquierda". Then several
views of the line are matched against the phrase templates:

1. the words as said, then without a vocative ("oye beto, …"), the article
   before a name ("la carla"), fillers ("po", "nomás"), repeated words
   ("corrección corrección") and an opening hesitation ("no no …", "perdón,
   quise decir …");
2. an intent's *frame* words and the closed classes of Spanish skipped ("voy a
   dudar", "obligo pero abierto", "me la juego con siete tontos");
3. a dropped tail after a whole move ("doce quinas y listo", "once senas pa que
   vean"): it may hold only closed-class words, fillers and the lexicon's tail
   words, and after a call it may not start with "que";
4. a self-correction: what follows the last "no" / "digo" ("cuatro, no, cinco quinas").

Near misses a recognizer or a typist makes ("trens", "cuadrass") are snapped to
the closest lexicon word, but a common Spanish word never is ("sillas" stays
"sillas", not "millas").
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate, pairwise
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from rapidfuzz import fuzz, process

from assistant.speech import lexicon as lexicon_module
from assistant.speech import topic as topic_module
from assistant.speech.commands import (
    BidCommand,
    CallCommand,
    Command,
    CountCommand,
    Direction,
    HandCommand,
    ObligoCommand,
    PenaltyCommand,
    PlayerCountCommand,
    QueryCommand,
    RaiseCommand,
    Reading,
    ReviveCommand,
    SimpleCommand,
    StartCommand,
    Unknown,
)
from assistant.speech.cues import CLAUSE_BOUND, UNHEARD_THINGS, Cue, Cues
from assistant.speech.lexicon import ESSENTIAL, HAND, SLOTS, Lexicon
from assistant.speech.normalize import UNREADABLE, by_ear, clauses, fold, sounds, tokens, tokens_as_written

NEAR_MISS_CUTOFF = 80.0
"""rapidfuzz ratio (0-100) above which an unknown word is taken for a lexicon word."""
SHORT_NEAR_MISS_CUTOFF = 85.0
"""Stricter for words of three or four letters, where one letter weighs more."""
REGULAR_ENDINGS = {
    "ar": ("amos", "aron", "aste", "abamos", "aban", "aba", "ando", "emos", "ado", "ada", "ados", "adas", "aria", "arian"),
    "er": ("emos", "ieron", "iste", "iamos", "ian", "iendo", "amos", "ido", "ida", "idos", "idas", "eria", "erian"),
    "ir": ("imos", "ieron", "iste", "iamos", "ian", "iendo", "amos", "ido", "ida", "idos", "idas", "iria", "irian"),
}
"""Endings a regular verb takes, for each infinitive: a form of a common verb is a common word
too, though the word list holds only some of them ("descargamos" is no "deshagamos")."""
NAME_CUTOFF = 72.0
"""Looser ratio for player names, which recognizers mangle most."""
CALLS = {"dudo", "siciliana", "calzo", "paso", "mato", "picado"}
CALL_HEADS = CALLS | {"obligo"}
"""Words that say a call: a "no" right before one denies it ("no lo dudo")."""
CACHE_SIZE = 4096
"""Lines whose readings are kept (a night says a few thousand)."""
RANKS = {"frase": 0, "repetición": 1, "marco": 2, "titubeo": 3, "corrección": 4, "suma": 4, "cola": 5}
"""Among readings that explain as much of the line, the plainest rule first."""
TAIL_MAX = 8
"""The longest tail dropped after a move, in words."""
REPEAT_MAX = 4
"""The longest stretch said twice that is read once ("seis trenes seis trenes")."""
HALVES_MAX = 10
"""The longest line tried as one move said twice in other words ("no te creo, dudo")."""
_HELD = re.compile(r"(.)\1\1")
"""A letter said three times or more: a word held long ("dudoooo")."""
_DOUBLED_VOWEL = re.compile(r"([aeiou])\1+")
"""A vowel written twice or more in a row: a vowel held ("uuy")."""
_INTERJECTION = re.compile(r"^[aeiouhmf]+$")
"""A word made only of the sounds of a hesitation ("eeeh", "mmm", "uff")."""
POINTED = frozenset({"esto", "eso", "esta", "esa", "este", "ese"})
"""A thing pointed at, opening a clause of its own after a call (``Parser._clause``)."""
NAME_WORDS = 3
"""The most words a player's name is said in (``Parser._find_player`` tries 3, 2, then 1)."""
HEAD_WORDS = 4
"""The words at the start of a line that decide whether a slot may begin there (a number is said in three at most)."""
RESTATED = "dije"
"""Said with a move, the move said again: a "no" after it says what the move is not ("…dije yo, no ocho trenes")."""
CORRECTED_REMARKS = frozenset({("me", "equivoque"), ("me", "confundi"), ("no", "mas"), ("lo", "siento")})
"""Said last of a move made after a correction: "…no, cinco cuadras, me equivoqué" (``Parser._without_own_remark``)."""
ANOTHER = frozenset({"otro", "otra"})
"""One more die in a hand told: "un tonto, otro tonto y una quina"."""
SAID_AGAIN = frozenset({"cosas", "pasado", "hora", "numerado", "eco"})
"""Cue families whose words, said again after them, are the same things, hour, story or question (``Parser._said_again``)."""
ASKED_BACK = "eco"
"""The cue family of a bid asked back ("¿dijiste seis senas?"): the same words said before it are asked back too."""
ASK_AT = 0.55
"""Below this certainty a reading is not taken for a move at all (chosen by measurement: README)."""
ACT_AT = 0.65
"""From this certainty a loose reading acts, said back as always; between ``ASK_AT`` and this, the
referee asks first ("¿Ocho cuadras?")."""
COMPETING_CAP = 0.55
"""A move with another one said around it is asked about, never acted on at once, and only when
the game could take it now: out of a game it is no move ("ocho quinas, ocho trenes")."""
LOOSE_SPAN = 12
"""The longest stretch of a line tried as the move inside it, in words."""
MAX_WORDS = 60
"""Words of a line read at all (no move is longer; a torrent of words is cut, not read for a second)."""
LEFT_WEIGHTS = {"suave": 0.15, "ruido": 0.35, "palabra": 0.6, "verbo": 1.0, "juego": 1.0}
"""How much a word left around a loose move counts against it, by its kind (``Parser._kind``)."""
NEGATION_REACH = 3
"""A call is denied by a "no", "nadie", "nunca" this many words before it ("no, yo no lo dudo")."""
ADVERB_ENDINGS = ("mente", "isimo", "isima")
"""A word after a call that only says how: "dudo fuertísimo", "calzo tranquilamente"."""
VERB_ENDINGS = ("ar", "er", "ir", "ando", "iendo", "aron", "ieron")
"""After a bid or a count, a verb the lexicon does not know makes its words a thing talked about ("seis cuadras caminando")."""
INFINITIVE_ENDINGS = ("ar", "er", "ir")
"""Before it, an infinitive does ("cara de tener tres ases"); a participle may be praise ("re jugado, once senas")."""
CALL_INSIDE = frozenset({"con", "sin", "por", "para"})
PURPOSE = frozenset({"a", "pa", "para"})
UNHEARD_TAKERS = frozenset(
    {"a", "al", "de", "del", "en", "con", "por", "para", "pa", "pal", "hacia", "hasta", "desde", "sin", "sobre", "entre", "el", "los", "las"}
)
"""Before a word the recognizer could not place, these make it what the line is about ("paso a [unk]");
not a word that may end a move ("dudo esa [unk]", "ni una [unk]", "ana no tiene [unk]": noise after it)."""
POSSESSIVES = frozenset({"mi", "tu", "su", "mis", "tus", "sus"})
"""Before one of the table's own words ("tu hermano", "su mamá"), these make it someone talked about."""
MANNER = frozenset({"sin"})
"""Before an infinitive, how the move was made ("sin pensarlo"), no phrase it belongs to."""
WAGERS = frozenset({"juego", "apuesto"})
"""After "me" with a move, what follows is the stake, not an object: "dudo y me juego el pisco"."""
TOWARDS = frozenset({"a", "pa", "pal", "para", "hacia"})
"""After a bid's words and before a place, these make them a thing that goes there: "tres trenes a santiago"."""
"""After a move's words and before an infinitive, these say what for: "quién va a pagar"."""
"""Before a call's word, these make it a noun ("jugamos con calzo", "sin siciliana")."""
DISBELIEF = frozenset({"nica", "nicagando"})
"""Right before a doubt, these say the bid is not believed: "nica, dudo" ("no way, I doubt")."""
EXCLAMATIONS = frozenset({"uy", "ay", "ah", "oh", "uf", "uff", "chuta", "pucha", "puta", "chucha", "hostia", "ostia", "mierda"})
"""Before a "no", these make it dismay, not a denial: "uy no, dudo nomás"."""
TURN_TAKEN = frozenset({"ya", "bueno", "entonces", "listo", "dale"})
"""Before a move, these close what was said before it: the player turns to the game."""
OTHER_INTENTS = frozenset({"parte", "deshacer", "castigo", "revivo", "revivimos"})
"""Heads of families that, said around a loose move of another kind, compete with it."""
QUESTION_HEADS = frozenset(
    {"cuantos", "cuantas", "cuanto", "quien", "cual", "apuesta", "marcador", "puntaje", "repite", "repites", "repitelo", "reglas", "estadisticas"}
)
"""Words a question about the game is asked around: a line holding one is searched for a question among
words nobody placed, as for a move ("me podría decir cuántos dados hay en juego, por favor")."""
COUNTED_ALOUD = 3
"""Dice counted aloud one by one ("uno, dos, tres…") up to at least this many, before the number said."""
CLAUSES = 2
"""This many verbs left around a loose move make it one clause among others: asked about, and only in a game."""
NEAR = 4
"""Words further than this from a loose move weigh as little as a filler: a story told around it."""
FIRST_PERSON_CALLS = frozenset({"dudo", "calzo", "mato"})
AROUND = frozenset({"dentro_de_frase", "objeto", "negada", "de_la_jugada", "verbo", "salida", "otro_jugador", "mano"})
"""Why a loose move is refused for the words around it (``Parser._about_something_else``), not for a cue."""
REPORTED = frozenset(
    {"dijo", "dijiste", "dijeron", "decia", "decias", "puso", "pusiste", "pusieron", "aposto", "apostaste", "apostaron", "canto", "cantaste", "cantaron"}
    | {"tuve", "tuvo", "tuvimos", "tuvieron"}  # "tres trenes tuve que tomar pa llegar acá"
)
"""Right after a bid, these make it one somebody said ("ocho tontos dijo el loco ese")."""
WRITTEN_PAST = {
    "dudé": "dudo", "pasé": "paso", "calcé": "calzo", "maté": "mato", "obligué": "obligo",
    "dudó": "dudo", "pasó": "paso", "calzó": "calzo", "mató": "mato", "obligó": "obligo",
    "partió": "parte", "apostó": "apuesta", "cantó": "apuesta",
}
"""A move's verb written in the past ("la carla dudó", "yo pasé con trío"): the accent, which folding drops,
tells a story of a move from the move ("dudo", "paso"). The first person's ("dudé") sounds apart from the
call; the third's ("dudó") only by its stress, which a recognizer may miss, so it is a story only when a
player's name is said just before it ("el diego dudó sin mirar", "el eli apostó cuatro ases")."""
_WRITTEN_PAST_SAID = re.compile(r"\b(?:" + "|".join(WRITTEN_PAST) + r")\b", re.IGNORECASE)
"""Finds a line that holds one of them at all: most lines (every one heard, folded) hold none."""
WRITTEN_PAST_CUE = "pasado_escrito"
"""The cue a reading vetoed for its move's verb written in the past carries."""
PAST_SUBJECT_REACH = 3
"""How far before a verb written in the third person's past the player it tells of may be named."""
RADIO_OVER = frozenset({("cambio",), ("cambio", "fuera"), ("fuera",)})
"""A radio's "over" and "out", said after anything: a tail that carries nothing."""
WAY_BEFORE = frozenset({"la", "por", "pa", "para", "hacia", "a", "lado"})
"""Words right before a way said as the way the turn goes ("por la derecha", "hacia la izquierda")."""
WAY_AFTER = frozenset({"de", "del"})
"""...and right after a way said as a place ("a la derecha de la ana")."""
COPULAS = frozenset({"esta", "estan", "es", "son", "era", "eran", "hay", "habia"})
"""After a call, these say how things stand, never what it is done to: "calzo, está exacto"."""
AGAIN = frozenset({"otra", "vez", "nuevo"})
"""Said after a name, these say nothing of what the name is for: "la ana ganó otra vez" is no palo."""
HAVING = frozenset({"tiene", "tienen", "tenia", "tenian", "tengo"})
"""A number of things had after one of these, and a word that is no die: "tiene tres vacas"."""
ARTICLED = frozenset({"la", "una"})
"""Said before the call that is named with an article: "hago la siciliana"."""
HAND_LEADS = frozenset({"yo", "aca", "aqui", "ahora"})
"""Before a hand told: who has it and where ("acá tengo dos tontos y dos trenes")."""
HAND_TAILS = frozenset({"solo", "sola", "solito", "solita", "nomas"})
"""After a hand told: that it is all ("tengo un as solo")."""
ONE_DIE = frozenset({"un", "una", "uno"})
"""One die said as such: "una quina, una sola", "un as, uno solo", "una sola quina"."""
ALONE_BEFORE = frozenset({"solo", "sola", "puro", "pura"})
"""Between "un"/"una" and a face, that it is the only one: "una sola quina", "un puro as"."""
HAND_OWNED_AFTER = frozenset({("me", "queda"), ("me", "quedan"), ("me", "quedaba"), ("me", "quedaban")})
"""What is left to one, said before or after a hand: "me quedan dos trenes no más", "un tonto solito me queda"."""
HAND_OWNED = frozenset({("mis", "dados", "son"), ("mis", "dados", "eran"), ("mi", "mano", "es"), ("mi", "mano", "era")}) | HAND_OWNED_AFTER
"""Before a hand told of fewer than five dice, these make it the speaker's ("mis dados son tres ases y una cuadra",
"me quedan dos trenes no más"); "hay" after where it is ("aquí hay una cuadra, una quina y un as")."""
UNDONE = frozenset({"eso", "esto", "lo", "todo"})
"""After an undo's word, what it undoes ("borra eso"), never a yes said after a hesitation."""
PEOPLE_FACES = frozenset({1, 2})
"""The faces whose names say people too: aces and fools ("tres tontos me pagaron")."""
DONE_BY_THEM = ("aron", "ieron")
"""A verb in the past, said of them: after a bid's words and a pronoun, what people did ("tres tontos me pagaron")."""
PENALTY_ARTICLES = frozenset({"el", "un", "ese", "este"})
"""Before the palo a castigo gives: "le toca el palo a la carla"."""
ABOUT = frozenset({"unos", "unas"})
"""Before a number, these say about so many ("unas seis trifilas"), never a thing."""
CUADRAS = 4
"""The face whose name is a measure of distance too: "cuatro cuadras pa la casa" is a walk."""
TRENES = 3
"""The face whose name is a way to travel too."""
JOURNEYS = frozenset({"ir", "irme", "irse", "irnos", "llegar", "volver", "venir", "viajar", "subir", "bajar"})
"""After trains or blocks and "para", and before a place, these make them a journey: "cogía cuatro trenes para ir al
curro" (not "cuatro trenes pa ir calentando")."""
SLOT_WORDS = {"{cantidad}": 3, "{jugador}": 3, "{caras}": 5}
"""The most words a slot takes ("veinte y dos", "juan pablo", five dice); any other takes one."""
DOUBTED = frozenset({"haya", "hayan", "hay", "tengan", "tenga", "existan", "exista", "esten", "sean", "alcance", "alcancen", "tantas", "tantos"})
"""After "dudo que", these make it a doubt of the bid, not of something else ("dudo que haya tantas")."""
CLAIMED = frozenset({"dice", "dicen", "dijo", "dijeron", "decia", "decian", "asegura", "aseguran", "jura", "juran", "cree", "creen", "piensa", "piensan"})
"""Before "que", these report somebody's claim (``Parser._about_something_else``)."""
REASONS = {
    "dudo": frozenset({"no", "ni", "mentira", "nunca", "tantas", "tantos", "imposible", "cuento", "creo"}),
    "calzo": frozenset({"justas", "justos", "justo", "justa", "exactas", "exactos", "exacto", "seguro", "segura", "clavadas"}),
}
"""Words of a doubt's or a calzo's reason said before it: with one of these, the words before a call said
last weigh as talk before the turn ("ah no, esa sí que no me la creo, dudo")."""
CLAUSE_JOINS = frozenset({"y", "que", "pero", "porque", "pa", "para", "como"})
"""Between two calls, these start a clause of its own: the first call is the move."""
"""After a bid, these call it: "doce senas, dudo" is a doubt of those twelve."""
ARTICLE_ONE = frozenset({"un", "una"})
ARTICLE_BID = 0.6
"""× this for a loose bid of one said with "un"/"una": asked about, never acted on at once."""
BACK = frozenset({"atras", "para", "pa"})
"""Said alone among other words, a way back ("para atrás") with no one asked to go back: no undo."""
ASKED_FIRST = frozenset({"deshacer"})
"""Read among words nobody placed, these are asked about, never played at once: they take back what the table said."""
REQUEST_TAGS = ("imperativo", "infinitivo", "presente.1", "preterito.1", "subjuntivo.1")
"""The forms in which a player asks to take a move back: "borra", "deshacer", "me equivoco", "me equivoqué", "anulemos"."""
UNHEARD_CAP = 0.6
"""The most a number said before a word nobody heard may be: asked about, never acted on at once."""
OWN_CALL_WORDS = frozenset({"yo", *FIRST_PERSON_CALLS, "paso", "siciliana", "picado", "obligo", "abierto", "cerrado"})
"""A call said as one's own ends in one of these ("yo paso", "dudo", "obligo cerrado"; not "duda razonable")."""
ONE_WORD_CAP = 0.6
"""The most a call may be with one word of Spanish said after it and nothing else: the one spoken to as
often as what the call's word is done to ("dudo pelusa", "paso hambre"): asked about. A word the lexicon
knows as one spoken to ("paso chango", "dudo regia") plays at once."""
TAIL_CAP = 0.6
"""The most a move said first in its line may be when only what is said after it makes it part of a
phrase about something else ("cuatro trenes calentando motores", "dudo colega, esa pelota venía afuera"):
asked about, and only in the moment that expects it ("¿Cuatro trenes?")."""
WHAT_ELSE = frozenset({("mas",), ("mas", "voy", "a", "hacer"), ("mas", "le", "voy", "a", "hacer"), ("mas", "queda"), ("mas", "me", "queda")})
"""After a call and "qué", asked what else there was to do: "dudo po, ¿qué más voy a hacer?", "paso, ¿qué más me queda?"."""
DOUBTFUL = "dudosa"
"""A call read among words that may deny it or dismiss something else: asked, never vetoed ("no, no, dudo")."""
TAIL_KINDS = frozenset({"dentro_de_frase", "objeto", "verbo"})
"""What the words after a move may say it is part of (``Parser._about_something_else``) and still be asked about."""
GERUND_ENDINGS = ("ando", "iendo", "yendo")
ARTICLES_ONLY = frozenset({"el", "la", "los", "las"})
MANNER_TAILS = frozenset({"con", "sin", "like"})
"""After a bid said first, what opens a clause of its own rather than a phrase the bid is part of: a gerund
(how it is said), a noun with its article (a remark: "la marea está a mi favor"), "con"/"sin" (in what spirit:
"sin miedo al toro"); not a verb done to the dice named ("ocho cuadras caminé"), a place or an owner ("en la tele",
"de la baraja", "al norte"), a demonstrative ("esta semana")."""
REFUSED_POINTED = frozenset({"esa", "eso", "esta", "esto", "ahi"})
"""Said before a "no" right before a call, the bid refused, not the call denied: "no, esa no, dudo", "ahí sí que no, dudo"."""
CALL_COMPLEMENTS = frozenset({"que", "de", "del", "a", "al", "pa", "para", "por", "en", "con", "entre"})
"""After a call said first, what makes what follows the call word's own complement ("dudo de ti", "paso a buscarte")."""
DEDICATED_TAILS = frozenset({"a", "pa", "pal", "para", "por", "como"})
"""After a bid said first, besides ``MANNER_TAILS``, what opens a remark on it rather than a phrase it is part of:
"a la rica quina", "pa la novia", "por el presupuesto", "como las nueve vidas de la gata" (asked, in its moment)."""
_T = TypeVar("_T")
OBLIGO_MODES: dict[str, Literal["abierto", "cerrado"]] = {"abierto": "abierto", "abierta": "abierto", "cerrado": "cerrado", "cerrada": "cerrado"}
"""An obligo's way, as said after it ("obligo, y es abierto", "en su modalidad abierta")."""
REFEREE_CALLED = frozenset({"arbitro", "arbitra", "juez", "jueza"})
"""The referee spoken to: a form of address after "mi" too ("¿me toca a mí, árbitro?", "mi árbitro")."""
WEIGHED_CALLS = frozenset({"dudo", "calzo"})
"""The calls that mean little else said first in a line: what follows may say in what spirit they are made."""
WEIGHED_TAILS = frozenset({"con", "sin", "por", "aunque", "esta"})
"""After a call of ``WEIGHED_CALLS`` said first, what opens a remark on it rather than its object."""
SAID_FIRST_CALLS = frozenset({"dudo", "calzo", "paso", "mato"})
"""The calls said first in a line whose tail may be a clause of their own (``Parser._tail_only``)."""
OWN_FORMS = frozenset({*SAID_FIRST_CALLS, "obligo"})
"""A call's forms said as one's own, after another's: "la abuela duda, ¡dudo!" (``Parser._about_something_else``)."""
OWN_CALLS_FIRST = frozenset({*FIRST_PERSON_CALLS, "obligo"})
"""Calls said in the first person that a line of talk never opens with (``Parser._opens_with_own_call``)."""
ASKED_OF_ONE = ("ame", "eme", "ime", "anos", "enos")
"""The end of an imperative asking something for oneself: "muéstrame", "créeme", "perdóname", "enséñanos"."""
PAST_ENDINGS = ("ia", "ian", "aba", "aban")
"""A verb's past said of a thing: "esa pelota venía afuera"."""
CLAUSE_CERTAINTY = 0.75
"""A move said whole in a clause of its own among talk: played with its echo (``ACT_AT``)."""
SAID_WHOLE = frozenset({"frase", "repetición"})
"""The readings that place every word of a clause as the lexicon says it (no frame word left out)."""
ANSWERS = frozenset({"si", "no"})
"""A yes or a no in a clause of its own: talk beside a move, an answer alone."""
BROKEN_BY_WRITING = frozenset({"otro_sentido"})
"""The cues a clause break undoes when they cross it (``Parser._clause_move``)."""
KEPT_TO_THEIR_CLAUSE = frozenset({"hora"})
"""Cues that say nothing of a move said whole in another clause: an hour is the talk's
("rápido que a las doce hay asamblea, seis quinas"); a story is not ("seis senas, esa fue
la mano del año pasado")."""
REFUSALS = frozenset({"paso", "mato"})
"""Calls that as often turn something down: a break does not undo their other sense."""
QUESTION_WORDS = 3
"""The fewest words of a question read from a clause of its own ("de quién es el turno"; not "la tabla", "quién va")."""
WEAK_ACT_AT = 0.85
"""A weak reading (a bare number, a yes among words) the moment expects acts from this certainty; under it, asked."""
UNHEARD_AROUND_AN_ANSWER = 2
"""A yes or a no among this many words nobody heard needs its question ("ya, [unk] [unk]"; not "ok ok [unk]")."""
LOOSE_TOP = 0.95
"""The certainty of a loose move with nothing against it (a move whose every word is placed is 1.0)."""
LEFT_SCALE = 0.1
"""How fast the words left around a loose move wear its certainty down: × 1 / (1 + LEFT_SCALE × their weight)."""
AGAINST = 0.8
"""× this for each known word said right against the move, before or after it."""
TALK_AT = 0.9
"""How likely talk (``TopicModel.chatter_odds``) a line must be for its loose move to be vetoed:
chosen on the 24 batches of stop 57 as they arrived (``docs/entender.md``, "Parada 58")."""
TOPIC_CUE = "tema"
"""The veto the topic model puts on a loose move (``Reading.cues``)."""


def _stands_alone(command: Command) -> bool:
    """May ``command`` be read from a clause of its own among talk (``Parser._clause_move``)?
    A bid, a call, an obligo, a palo given, a question, a start (with no player, only in its
    moment); a yes, a no, a count or a hand only in their moment."""
    if isinstance(command, StartCommand):
        return True  # (one with neither who nor which way only beside the way: "parto yo, hacia la izquierda")
    return isinstance(command, BidCommand | RaiseCommand | CallCommand | ObligoCommand | PenaltyCommand | QueryCommand)


def _said_together(before: Command, then: Command) -> Command | None:
    """Who starts and which way, or an obligo and its way, said in two clauses one after the
    other ("parto yo, hacia la izquierda"; "obligo, cerrado, cata a ciegas"), as one move; None
    when they are not that."""
    if isinstance(before, ObligoCommand) and isinstance(then, ObligoCommand) and before.mode is None:
        return then
    if not (isinstance(before, StartCommand) and isinstance(then, StartCommand)) or then.player is not None or then.direction is None:
        return None
    return StartCommand(before.player, then.direction) if before.direction is None else None


def _disbelief(command: Command) -> bool:
    """A doubt or a pass killed: said first, a disbelief said after it is its reason."""
    return isinstance(command, CallCommand) and command.call in ("dudo", "mato")


def _listed_hand(command: Command) -> bool:
    """Is ``command`` a hand the speaker lists as his own, face by face ("tengo dos trenes y una quina")?"""
    return isinstance(command, HandCommand) and command.player is None and len(set(command.faces)) > 1


@lru_cache(maxsize=4)
def _topic_model_at(path: str | None) -> topic_module.TopicModel | None:
    return topic_module.load(Path(path) if path else None)


def _topic_model() -> topic_module.TopicModel | None:
    """The topic model beside the lexicon in use (``$DUDO_LEXICO`` or the shipped one), read once."""
    path = lexicon_module.default_path()
    return _topic_model_at(str(path) if path else None)


def _vetoed_last(readings: list[Reading]) -> list[Reading]:
    """``readings`` in their order, those a cue vetoed (certainty 0) after the rest."""
    return [r for r in readings if r.certainty > 0] + [r for r in readings if r.certainty == 0]


def plays_at_once(reading: Reading, act_at: float = ACT_AT) -> bool:
    """Is ``reading`` sure enough to be played at once (with its echo)? Under it, the
    referee asks first ("¿Ocho cuadras?"); a weak reading needs ``WEAK_ACT_AT`` too."""
    return reading.certainty >= (max(WEAK_ACT_AT, act_at) if reading.weak else act_at)


def loose_certainty(around: Counter[str], against: int, competing: bool) -> float:
    """How sure a move read among words it does not explain is: worn down by what is
    left around it (``around``: how many words of each kind), more by a known word said
    right against it (``against``: 0-2), and capped when another move competes."""
    weight = sum(LEFT_WEIGHTS[kind] * n for kind, n in around.items())
    certainty = LOOSE_TOP / (1 + LEFT_SCALE * weight) * AGAINST**against
    return min(certainty, COMPETING_CAP) if competing else certainty
"""How much a word left around a loose move counts against it, by its kind (``Parser._kind``)."""
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

    def __init__(self, lexicon: Lexicon | None = None, players: Iterable[str] = (), cache_size: int = CACHE_SIZE, topic: bool = True) -> None:
        """``cache_size``: lines whose readings are kept (a measurement of tens of thousands keeps more);
        ``topic``: ask the topic model (``assistant.speech.topic``) of a move read loose."""
        self.lexicon = lexicon or lexicon_module.default()
        self._topic = _topic_model() if topic else None
        self._cache_size = cache_size
        lex = self.lexicon
        self.players = list(players)
        self._names = {fold(" ".join(tokens(p))): p for p in self.players}
        name_words = {w for name in self._names for w in name.split()}
        self._sounds = {sounds(name): full for name, full in self._names.items() if " " not in name}
        self._name_words = {sounds(w): w for name in self._names for w in name.split()}
        self._long_sounds = {" ".join(sounds(w) for w in name.split()): full for name, full in self._names.items() if " " in name}
        self._vocabulary = sorted(lex.vocabulary | name_words)
        self._known = frozenset(self._vocabulary)
        self._squeezed_fillers = frozenset(_squeeze(w) for w in lex.filler_words)
        self._filler_phrases = tuple(sorted((tuple(lex.canonical(w) for w in p) for p in lex.filler_phrases), key=lambda p: -len(p)))
        """As the words of a line are compared ("al toque" is "al toca" once "toque" is read
        as tocar), longest first: "destapen los cachos" before "destapen"."""
        self._fillers_by_first = _by_first(self._filler_phrases)
        self._tail_allowed = lex.closed | lex.filler_words | lex.tail_words | lex.tail_starts | lex.tail_verbs
        """What a tail after a move (or a reason before a call) may be made of."""
        self._face_sounds = {_sound_key(w): w for w in lex.faces if w not in lex.common}
        self._total_markers = sorted(lex.total_phrases, key=len, reverse=True)
        """The words that give a count's total, longest first: "en total" before "total"."""
        undo = [(tag, fold(form)) for tag, form in lex.family_tags.get("deshacer", ())]
        self._undo_forms = frozenset(form for _tag, form in undo)
        self._undo_asked = frozenset(form for tag, form in undo if tag.startswith(REQUEST_TAGS))
        """The forms of taking a move back, and those that ask for it ("borra", "me equivoqué", "anulemos";
        not "se equivocan", "deshizo", "no anules")."""
        self._players_by_words: dict[tuple[str, ...], list[tuple[str, int]]] = {}
        """``_find_player`` by the words it looks at (``NAME_WORDS`` from where a name may start)."""
        self._cues = Cues(lex, self._number_size, self._is_name, self._is_thing)
        self._kinds: dict[str, str] = {}
        """``_kind`` by word, for this table."""
        numbers = set(lex.numbers) | set(lex.tens) | set(lex.tens_with_y) | set(lex.prefixes)
        self._game_words = frozenset(numbers | set(lex.faces) | CALL_HEADS | set(lex.directions) | {w for keys in lex.frame_keys.values() for w in keys}
                                     | {"parte", "deshacer", "atras", "repite", "castigo", "revivo", "revivimos", "siciliana", "si", "no"}) - lex.closed
        """Words that carry a move of their own: a number, a face, a call, a direction, an intent's key word."""
        self._soft_words = lex.filler_words | lex.address_words | lex.closed | lex.articles | lex.hesitation_words | lex.vocatives
        firsts = [seq[0] for seqs in lex.templates.values() for seq in seqs if seq]
        lasts = [seq[-1] for seqs in lex.templates.values() for seq in seqs if seq]
        frame_words = {w for frame in lex.frames.values() for w in frame}
        self._frame_words = frozenset(frame_words)
        self._starts = frozenset(t.lstrip(ESSENTIAL) for t in firsts) | frame_words | self._game_words | lex.hesitation_words
        self._ends = frozenset(t.lstrip(ESSENTIAL) for t in lasts) | self._game_words
        """Words a move may begin or end with, for the stretches tried as a loose move."""
        self._cache: dict[tuple[str, ...], tuple[Reading, ...]] = {}
        """Readings by line: the session asks again for the same text (choosing, an
        utterance's end, a trial on a copy of the game)."""
        self._read_cache: dict[tuple[tuple[str, ...], bool], tuple[Reading, ...]] = {}
        """The strict readings of word sequences already read: a line read with "[unk]" at either
        end, or less the words nobody placed, is read again without them."""
        self._locutions: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        """The lexicon's set phrases by first word, in its order."""
        for said, meant in lex.locutions:
            self._locutions.setdefault(said[0], []).append((said, meant))
        self._hesitations = _by_first(lex.hesitation_phrases)
        self._corrections_by_first = _by_first(lex.correction_phrases)
        """The lexicon's hesitation phrases by first word, in its order."""
        self._commands: dict[tuple[str, ...], tuple[Command, ...]] = {}
        """The commands that templates, or templates less their frame words, make of a word list (``_templates``)."""
        self._by_first: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        self._slot_first: list[tuple[str, tuple[str, ...]]] = []
        self._slot_first_fitting: dict[frozenset[str], list[tuple[str, tuple[str, ...]]]] = {}
        """The templates that begin with one of these slots, in the lexicon's order (``_templated``)."""
        for intent, sequences in lex.templates.items():
            for seq in sequences:
                seq = tuple(t.lstrip(ESSENTIAL) for t in seq)
                if seq and seq[0] in SLOTS:
                    self._slot_first.append((intent, seq))
                elif seq:
                    self._by_first.setdefault(seq[0], []).append((intent, seq))
        # each intent's templates with its frame words (and the closed classes) taken out, as the frame reading compares them
        self._frames: dict[str, frozenset[str]] = {}
        self._frame_templates: dict[str, dict[str, list[tuple[str, tuple[str, ...]]]]] = {}
        """intent -> first word (or slot) of a frame-stripped template -> (intent, template)."""
        keys = list(dict.fromkeys([*lex.frames, *(i.partition("_")[0] for i in lex.templates)]))
        self._template_order: dict[tuple[str, tuple[str, ...]], int] = {}
        """The lexicon's order among frame-stripped templates: the first that fits wins, as in the file."""
        for key in keys:
            frame = lex.frames.get(key, frozenset())
            if key not in lex.exact:
                frame = frame | (lex.closed - lex.closed_except.get(key, frozenset()))
            self._frames[key] = frame
            found: dict[tuple[str, tuple[str, ...]], None] = {}
            for intent, sequences in lex.templates.items():
                if _frame_key(intent, keys) == key:
                    for seq in sequences:
                        core = tuple(t.lstrip(ESSENTIAL) for t in seq if t.startswith(ESSENTIAL) or t not in frame)
                        plain = tuple(t.lstrip(ESSENTIAL) for t in seq)
                        # a core worn down to one plain word ("no hay" -> "no") would read too much
                        if core and (core == plain or len(core) > 1 or core[0] in SLOTS):
                            found[(intent, core)] = None
                            self._template_order.setdefault((intent, core), len(self._template_order))
            index: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
            for intent, core in found:
                index.setdefault(core[0], []).append((intent, core))
            self._frame_templates[key] = index
        self._shapes: dict[tuple[str, ...], tuple[int, int, frozenset[str]]] = {}
        self._candidates_by_head: dict[tuple[str, str, tuple[str, ...], int], list[tuple[str, tuple[str, ...], frozenset[str]]]] = {}
        """``_frame_candidates``: per frame, first word of a core, slots it fits and its length."""
        self._templates_by_head: dict[tuple[str, frozenset[str], int], list[tuple[str, tuple[str, ...], frozenset[str]]]] = {}
        """``_templated``'s candidates: per first word, slots it fits and length of the line."""
        """Per template: the fewest and most words it can cover, and its plain words (``_may_cover``)."""

    # ----------------------------------------------------------------- public

    def parse(self, text: str) -> Command:
        """The best reading out of context that is sure enough to be acted on or
        asked about (``ASK_AT``); when there is none, a hand the speaker lists as his own ("tengo
        dos trenes y una quina") or says is all he has ("tengo una quina sola", "me quedan dos
        trenes no más"; not "tengo tres trenes", said of the bid as often, nor "beto tiene as"),
        which only a count takes (the referee says so at any other moment); or what was heard of a
        move (``Unknown``)."""
        readings = self.readings(text)
        told = [r.command for r in readings
                if r.how == "contexto" and isinstance(r.command, HandCommand) and r.command.player is None and r.certainty >= ASK_AT]
        said = self.lexicon.said(text) if told else []
        if told and set(pairwise(said)) & HAND_OWNED_AFTER:
            return told[0]  # "me quedan dos trenes no más": what is left to one is a hand, never a bid
        for reading in readings:
            if not reading.weak and reading.certainty >= ASK_AT:
                return reading.command
        said = said or self.lexicon.said(text)
        for hand in told:
            if _listed_hand(hand) or self._all_one_has(said):
                return hand
        return self._partial(self._views(said))

    def readings(self, text: str) -> list[Reading]:
        """Every reading the line can have, best first: the readings that place every
        word (or drop only a tail the lexicon knows), most of the line explained and
        the plainest rule first; when none stands, the moves found inside the line
        among words it cannot place, surest first (``Reading.certainty``); last, the
        readings a cue vetoes (certainty 0: "ayer dudé y perdí"). Empty when nothing
        in it is a move."""
        raw = self.lexicon.said(text)[:MAX_WORDS]
        found = self._said_readings(raw)
        if len(raw) > 1 and not any(not r.weak and r.certainty >= ASK_AT for r in found):
            clause = self._clause_move(text, raw)
            if clause is not None:
                clause = self._mode_said_later(self._way_said_later(clause, raw), raw)  # "obligo, cerrado, cata a ciegas"
                found = [clause, *(r for r in found if r.command != clause.command)]
        found = self._on_topic(found, raw, text)
        past = self._written_past(text, raw)
        if not past:
            return list(found)
        return _vetoed_last([self._told_of(r, raw, past) for r in found])

    def _on_topic(self, found: list[Reading], raw: list[str], text: str) -> list[Reading]:
        """``found`` less the loose moves of a line the topic model takes for talk
        (``TALK_AT``): a move said among words the parser cannot place has only those
        words to go by, and "camino tres cuadras pa' llegar acá, con este frío" is about
        a walk. Not a move said first and whole in a clause of its own, the remark after
        it set apart ("dudo, como cuando el jefe dice que llega temprano"), nor a call
        of one's own that opens the line, heard with no pause ("mato esa cara de pillada
        no engaña a nadie"; never "paso", as often a way: "paso yo a buscar el helado").
        The vetoed readings go last, as a cue's do."""
        def standing_loose(r: Reading) -> bool:
            return r.how == "suelta" and r.certainty > 0

        if self._topic is None or not any(standing_loose(r) for r in found):
            return found
        if self._topic.chatter_odds(self.topic_words(raw)) < TALK_AT:
            return found
        first = self._said_first(text)
        return _vetoed_last([dataclasses.replace(r, certainty=0.0, cues=(*r.cues, TOPIC_CUE))
                             if standing_loose(r) and r.command != first and not self._opens_with_own_call(r, raw) else r for r in found])

    def _opens_with_own_call(self, reading: Reading, raw: list[str]) -> bool:
        """Does the line open with ``reading``'s call in the speaker's own first person
        ("dudo", "calzo", "mato", "obligo"), after fillers only?"""
        if not isinstance(reading.command, CallCommand | ObligoCommand) or not 0 <= reading.lead < len(raw):
            return False
        before, word = raw[: reading.lead], raw[reading.lead]
        return all(w in self._soft_words for w in before) and self.lexicon.canonical(word) in OWN_CALLS_FIRST

    def _said_first(self, text: str) -> Command | None:
        """The move the line opens with, said whole as a clause of its own (after clauses
        of fillers only: "ya, calzo, y si no…"), when the line goes on in other clauses."""
        parts = clauses(text)
        for piece, _asked in parts[:-1]:
            words = self.lexicon.said(piece)
            if all(w in self._soft_words for w in words):
                continue
            whole = next((r for r in self._read(words) if r.explained == 1.0 and not r.weak), None)
            return whole.command if whole is not None else None
        return None

    def topic_words(self, raw: list[str]) -> list[str]:
        """The words of a line as the topic model weighs them: a number, a face and a
        player's name by their kind ("<n>", "<cara>", "<nombre>"), a word nobody knows as
        "<ruido>", any other game word by the lexicon's own spelling, the rest as said."""
        out = []
        lex = self.lexicon
        for i, word in enumerate(raw):
            kind = self._kind(word)
            if word.isdigit() or (kind == "juego" and self._number_size(raw, i)[0]):
                out.append("<n>")
            elif kind == "juego":
                read = [lex.canonical(w) for w in self._variant(word)]
                out.append("<nombre>" if any(w in self._names for w in read) or self._is_name(word)
                           else "<cara>" if any(w in lex.faces for w in read) else read[0])
            else:
                out.append("<ruido>" if kind == "ruido" else word)
        return out

    def _written_past(self, text: str, raw: list[str]) -> dict[int, str]:
        """Where ``raw`` (the words of ``text`` as said) holds a move's verb written in the past
        (``WRITTEN_PAST``), by position, with the move it names; none in a line of that word alone
        ("dudé": a learner's call)."""
        if len(raw) < 2 or not _WRITTEN_PAST_SAID.search(text):
            return {}
        found: dict[int, str] = {}
        at = 0
        for piece in tokens_as_written(text):
            words = self.lexicon.said(piece)
            move = WRITTEN_PAST.get(piece)
            if move is not None and len(words) == 1:
                found[at] = move
            at += len(words)
        return {} if at != len(self.lexicon.said(text)) else {i: m for i, m in found.items() if i < len(raw)}

    def _told_of(self, reading: Reading, raw: list[str], past: dict[int, str]) -> Reading:
        """``reading`` vetoed (certainty 0) when the move it reads is only a story of one: every word
        of its move in it is written in the past, and talk it does not explain is told with it ("la
        carla calzó cinco quinas y ganó", "yo pasé con trío"); not "yo pasé, digo paso", nor "dudo,
        como dudé del penal", nor the move said alone ("beto dudó": the referee told who called)."""
        command = reading.command
        move: str
        if isinstance(command, CallCommand):
            move = command.call
        elif isinstance(command, ObligoCommand):
            move = "obligo"
        elif isinstance(command, StartCommand):
            move = "parte"
        elif isinstance(command, BidCommand) and command.player is not None:
            move = "apuesta"  # "el eli apostó cuatro ases": the bid a player made, told
        else:
            return reading
        if not reading.unexplained:
            return reading  # the move alone ("beto dudó", "carla apostó nueve cuadras"): the referee told of it, or a typo
        span = range(reading.lead, len(raw) - reading.tail)
        told = [i for i in span if past.get(i) == move]
        if not told or any(raw[i] == fold(move) for i in span if i not in past):
            return reading
        if not any(self._first_person_past(raw[i]) or self._subject_before(raw, i) for i in told):
            return reading
        return dataclasses.replace(reading, certainty=0.0, cues=(*reading.cues, WRITTEN_PAST_CUE))

    @staticmethod
    def _first_person_past(word: str) -> bool:
        return word.endswith("e")  # "dude", "pase", "calce", "mate", "obligue" (folded)

    def _subject_before(self, raw: list[str], i: int) -> bool:
        """A player named just before ``raw[i]``: "el diego dudó", "la carla no dudó"."""
        return any(self._is_name(w) for w in raw[max(0, i - PAST_SUBJECT_REACH) : i])

    def _clause_move(self, text: str, raw: list[str]) -> Reading | None:
        """A move said whole in a clause of its own, set apart from talk that holds no
        move ("diez trenes, confíen en el proceso"; "dudo, la luna no te acompaña esta
        noche"; "uy, no, eso está inflado, dudo"): the talk is a remark about it, so it
        is read with its echo (``CLAUSE_CERTAINTY``). Not a move asked ("¿seis senas?
        no creo"), nor one a cue of the whole line vetoes ("seis senas, esa fue la mano
        del año pasado"), nor a yes, a no, a count or a hand, which only their moment
        takes (``Session``), nor a way with no one to start it."""
        parts = [(self.lexicon.said(piece), asked) for piece, asked in clauses(text)]
        parts = [(words, asked) for words, asked in parts if words]
        if len(parts) < 2 or [w for words, _ in parts for w in words] != raw:
            return None
        moves: list[tuple[int, int, list[str], bool, Reading]] = []  # (clause, first word, words, asked, reading)
        half_heard: list[Command] = []
        answer = None
        own_die = False
        at = 0
        for k, (words, asked) in enumerate(parts):
            at += len(words)
            readings = self._said_readings(words)
            if not any(not r.weak and r.certainty >= ASK_AT for r in readings):
                half_heard += [r.command for r in readings if r.certainty >= ASK_AT]
                continue  # talk: no move in it (a move only its moment takes is weighed below)
            best = readings[0]
            if isinstance(best.command, SimpleCommand) and best.command.action in ANSWERS:
                # "no, dudo", "mmm, no sé, sí, dudo": a yes or a no said apart answers nobody when a move follows;
                # said first with talk only ("sí, cerramos", "no, gracias, no me interesa"), it answers a question
                answer = best if at == len(words) and not asked else answer
                continue
            if moves and _disbelief(moves[-1][4].command) and isinstance(best.command, CallCommand) and best.command.call == "dudo":
                continue  # "mato, no te creo ese paso", "dudo, no te creo nada": the call, then why
            if not asked and isinstance(best.command, HandCommand | CountCommand) and not own_die:
                own_die = True  # "me queda uno, obligo": the one die left, said before an obligo (checked below)
                continue
            if best.certainty < 1.0 or best.weak or best.how not in SAID_WHOLE or best.explained < 1.0:
                return None  # a move only half said in it, or one of another kind
            if (asked and not isinstance(best.command, QueryCommand)) or not _stands_alone(best.command):
                return None
            if not all(w in self.lexicon.vocabulary or self._is_name(w) or w.isdigit() or self.drawn_out(w) or self.spelled_by_ear(w) for w in words):
                return None  # a word taken for one it is near to ("piure" for "picado") is no move said whole
            joined = _said_together(moves[-1][4].command, best.command) if moves and moves[-1][0] == k - 1 else None
            if joined is not None:  # "parto yo, hacia la izquierda": who starts, then which way
                last = moves.pop()
                moves.append((k, last[1], [*last[2], *words], asked, dataclasses.replace(best, command=joined)))
            elif not (moves and isinstance(best.command, QueryCommand) and moves[0][4].command == best.command):
                moves.append((k, at - len(words), words, asked, best))  # (a question asked again is one: "¿qué cantaron? no escuché")
        if not moves and answer is not None:
            moves.append((0, 0, parts[0][0], False, answer))
        if len(moves) != 1 or (own_die and not isinstance(moves[0][4].command, ObligoCommand)):
            return None
        k, first, words, asked, move = moves[0]
        if isinstance(move.command, StartCommand) and move.command.player is None and move.command.direction is None:
            return None  # "parto yo, qué nervios": who is the speaker, the referee cannot tell
        if any(type(other) is type(move.command) and other != move.command for other in half_heard):
            return None  # another of its kind in the talk: "pa' la derecha esta vuelta, como el reloj"
        if isinstance(move.command, QueryCommand) and not asked and len(words) < QUESTION_WORDS:
            return None  # a question asked ("¿qué cantaron? no escuché con la bulla") or said whole ("de quién es el
            # turno, se me olvidó"); not "la tabla, primeras las de la u", "suena el timbre de la cuatro, quién va"
        refusal = isinstance(move.command, CallCommand) and move.command.call in REFUSALS
        if refusal and any(a for _words, a in parts[:k]):
            return None  # "¿querés fernet? nah, paso": an offer turned down
        lined = Reading(move.command, len(words) / len(raw), how="cláusula", certainty=CLAUSE_CERTAINTY,
                        unexplained=tuple(raw[:first] + raw[first + len(words):]))
        if move is answer or (isinstance(move.command, StartCommand) and move.command.player is None):
            # only the moment that waits for an answer, or for who starts, takes it, and at once
            # ("sí po, trato hecho"; "partimos por la izquierda, como el circle pit")
            lined = dataclasses.replace(lined, weak=True, certainty=WEAK_ACT_AT)
        # no cue of the whole line says it is about something else ("seis senas, esa fue la mano del año pasado");
        # what the move seemed to be inside of, or denied by, is across the break: the clause alone is sure.
        # (a word's other sense read across a break is no phrase: "dudo, que se vean los dados" is no "dudo
        # que…"; but a pass is as often a refusal ("no, paso, gracias, no fumo"), and a dare, a call reported
        # or a wager are written with their comma: "dale, calzá", "dudo, dijo el escéptico")
        breaks = list(accumulate(len(words) for words, _ in parts[:-1]))
        cues = [c for c in self._cues.find(raw)
                if (refusal or c.family not in BROKEN_BY_WRITING or not any(c.start < b < c.end for b in breaks))
                and (c.family not in KEPT_TO_THEIR_CLAUSE or (c.start < first + len(words) and first < c.end))]
        if self._vetoed(lined, cues, first, first + len(words)).certainty == 0:
            return None
        return dataclasses.replace(lined, lead=first, tail=len(raw) - first - len(words))

    def _said_readings(self, raw: list[str]) -> list[Reading]:
        """``readings`` of the words as said (cached by them: "Dudo." and "dudo" are read once)."""
        key = tuple(raw)
        cached = self._cache.get(key)
        if cached is not None:
            return list(cached)
        cues = self._cues.find(raw)
        strict = [self._vetoed(r, cues, 0, len(raw)) for r in self._read(raw)]
        found = [r for r in strict if r.certainty > 0]
        if not any(not r.weak for r in found):
            listed = any(_listed_hand(r.command) for r in found)
            # "tengo un tonto y dos cuadras": a hand listed face by face, whole; no part of it is a bid
            found += [r for r in self._loose(raw, cues) if not (listed and isinstance(r.command, BidCommand))]
        found += [r for r in strict if r.certainty == 0 and all(r.command != f.command for f in found)]
        found = [self._mode_said_later(self._way_said_later(r, raw), raw) for r in found]
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[key] = tuple(found)
        return found

    def _mode_said_later(self, reading: Reading, raw: list[str]) -> Reading:
        """An obligo read without its way, the way said later in the line among other words: "obligo,
        y es abierto", "obligo, digamos, en su modalidad abierta", "obligo che, abierto no, cerrado"
        (one way said, or the last after a correction)."""
        command = reading.command
        if not isinstance(command, ObligoCommand) or reading.certainty == 0:
            return reading
        said = [(i, OBLIGO_MODES[w]) for i, w in enumerate(raw) if w in OBLIGO_MODES]
        corrected = self._corrected_to(said, raw)  # "obligo che, abierto no, cerrado"
        modes = {mode for _i, mode in said}
        if corrected is not None:
            return dataclasses.replace(reading, command=ObligoCommand(corrected))
        if command.mode is not None or len(modes) != 1:
            return reading
        return dataclasses.replace(reading, command=ObligoCommand(modes.pop()))

    def _corrected_to(self, said: list[tuple[int, _T]], raw: list[str]) -> _T | None:
        """Of two different things said at ``raw`` positions (the way of a start, of an obligo), the
        second when a correction is said between them ("por la derecha no, por la izquierda")."""
        if len(said) != 2 or said[0][1] == said[1][1]:
            return None
        between = raw[said[0][0] + 1 : said[1][0]]
        return said[1][1] if any(w in self.lexicon.correction_words for w in between) else None

    def _way_said_later(self, reading: Reading, raw: list[str]) -> Reading:
        """A start read without its way, the way said later in the line among other words: "parte la
        fran porque es la cumpleañera, para la derecha", "sale la ana, saque del medio, hacia la
        izquierda". Only one way, said as one ("hacia la derecha"; not "a la derecha de la ana", a seat)."""
        command = reading.command
        if not isinstance(command, StartCommand) or reading.certainty == 0:
            return reading
        said = [
            (i, cast(Direction, self.lexicon.directions[w])) for i, w in enumerate(raw)
            if w in self.lexicon.directions and i > 0 and raw[i - 1] in WAY_BEFORE and (i + 1 == len(raw) or raw[i + 1] not in WAY_AFTER)
        ]
        if command.direction is not None:
            # the way said, then corrected: "sale la ana, por la derecha no, por la izquierda"
            corrected = self._corrected_to(said, raw)
            if corrected is not None and said[0][1] == command.direction:
                return dataclasses.replace(reading, command=dataclasses.replace(command, direction=corrected))
            return reading
        ways = {way for _i, way in said}
        if len(ways) != 1:
            return reading
        return dataclasses.replace(reading, command=dataclasses.replace(command, direction=ways.pop()))

    def _vetoed(self, reading: Reading, cues: list[Cue], start: int, end: int, clause: tuple[int, int] | None = None) -> Reading:
        """``reading`` with certainty 0 when a cue touches the words it was read from
        (``words[start:end]`` less its lead and tail), or a line-wide one is said in its
        ``clause`` (``Cue.touches``)."""
        call = isinstance(reading.command, CallCommand | ObligoCommand)
        hand = isinstance(reading.command, HandCommand)
        hit = [c for c in cues if c.touches(start + reading.lead, end - reading.tail, call, clause, hand)]
        if _bare_number(reading.command):
            # a number after things counted is one more of them: "beto tiene tres hijos y ana dos"
            hit += [c for c in cues if c.family == "cosas" and c.end <= start + reading.lead]
        touching = tuple(dict.fromkeys(c.family for c in hit))
        if touching == (UNHEARD_THINGS,):
            if len(hit) >= 2:
                # "tres [unk] y dos [unk]": each number said of something unheard, things listed, no bid
                return dataclasses.replace(reading, certainty=0.0, cues=touching)
            if not _bare_number(reading.command):
                return reading  # "hay tres dados que muestran un dos [unk]": the bid is whole before the noise
            # "tres [unk]": three of something the recognizer could not place, or a count and noise: only a
            # count now, and asked first ("¿Había tres?"): "dos [unk]" is as often "dos piscolas" for the waiter
            return dataclasses.replace(reading, weak=True, cues=touching, certainty=min(reading.certainty, UNHEARD_CAP))
        return dataclasses.replace(reading, certainty=0.0, cues=touching) if touching else reading

    # ----------------------------------------------------------------- loose readings

    def _loose(self, raw: list[str], cues: list[Cue]) -> list[Reading]:
        """Moves said among words the parser cannot place: "jugale siete trenes",
        "[unk] dudo", "hostia tío, que ya no sé, ocho ases". A correction or a total said
        last decides first; then the line less what nobody placed; then every stretch
        of the line that reads whole (longest and last said first, none inside or
        against one found) is a move, surest first. Words it could not place (``[unk]``
        and words unknown to the lexicon) may sit inside it. Its certainty falls with
        what is left around it: a filler or a small word little, an unknown word more,
        a known word more still, little what is far or in another clause; another
        number, face or call said around it competes ("nueve cuadras pero ocho"), and
        caps it below acting."""
        kinds = [self._kind(w) for w in raw]
        corrected = self._corrected_loose(raw, kinds, cues)
        if corrected is not None:
            return [corrected]
        total = self._stated_total(raw, cues)
        if total is not None:
            return [total]
        kept = [i for i, kind in enumerate(kinds) if kind != "ruido"]
        refused: list[Reading] = []
        if 0 < len(kept) < len(raw):
            # the line less the words nobody could place: "[unk] en la mesa hay dos trenes", "ocho [unk] cuadras", "[unk] sipo"
            whole = next((r for r in self._read([raw[i] for i in kept]) if not r.weak), None)
            if whole is not None:
                # the move's own words, less what its reading left before and after it ("diez quinas, y que me [unk] si pierdo")
                loose = self._loose_reading(raw, kinds, cues, kept[whole.lead], kept[len(kept) - 1 - whole.tail], whole)
                if loose.certainty > 0:
                    return [loose]
                refused.append(loose)
        questioned = [raw[i] in QUESTION_HEADS for i in range(len(raw))]
        if "juego" not in kinds and not any(questioned):
            return refused[:1]
        found: list[Reading] = []
        for size in range(min(len(kept), LOOSE_SPAN), 0, -1):
            for a in range(len(kept) - size, -1, -1):  # later first: what was said last counts ("…no, ocho cuadras")
                span = kept[a : a + size]
                if not any(kinds[i] == "juego" or questioned[i] for i in span) or not (self._may_start(raw[span[0]]) and self._may_end(raw[span[-1]])):
                    continue
                if any(self._opens_a_clause(raw, i) for i in span[1:-1]):
                    continue  # two clauses are no move: "…son quince, así que yo diría cuatro cuadras", "don beto, pero dudo"
                if any(r.lead <= span[0] and span[-1] <= len(raw) - 1 - r.tail and not self._beside_a_call(r, raw, span) for r in refused):
                    continue  # inside a move refused for what is around it: "borra eso del grupo" is no "borra"
                if any(r.lead - 1 <= span[-1] and span[0] <= len(raw) - r.tail for r in found):
                    continue  # inside or against a move found: "veinte trenes pasaron hoy" is no "pasaron"
                if self._said_again(raw, span, cues):
                    continue  # "me tomé dos piscolas no más, dos": the things, hour or story said again
                whole = next((r for r in self._read([raw[i] for i in span], halves=False) if r.explained == 1.0 and not r.weak), None)
                if whole is None or (isinstance(whole.command, BidCommand) and self._called_after(raw, span[-1])):
                    continue  # "doce senas, dudo fuertísimo": the bid is the one called
                loose = self._loose_reading(raw, kinds, cues, span[0], span[-1], whole)
                # "no dudo, yo calzo": the denied call gives way to the next move found
                (found if loose.certainty > 0 else refused).append(loose)
        if not found:
            return refused[:1]
        # the surest move of the line first, one that needs no moment before one that does; at
        # a tie, the longest and the last said ("ocho trenes no hay ni en osorno, dudo": the doubt)
        found.sort(key=lambda r: (r.weak, -r.certainty))
        surest: dict[Command, Reading] = {}
        for reading in found:
            surest.setdefault(reading.command, reading)  # each move once, at its surest
        return list(surest.values())

    def _said_again(self, raw: list[str], span: list[int], cues: list[Cue]) -> bool:
        """Is ``raw[span]`` only words said before inside a cue of things counted, an hour or a story
        (or before a bid asked back): the same thing said again ("me tomé dos piscolas no más, dos",
        "¿seis senas? ¿en serio dijiste seis senas?"), no move of its own?"""
        # (not past the turn taken: "y si digo ocho senas… ya, ocho senas" makes the bid supposed)
        elsewhere = {
            raw[i] for c in cues if ((c.family in SAID_AGAIN and c.end <= span[0]) or (c.family == ASKED_BACK and c.start > span[-1]))
            and not any(self._opens_a_clause(raw, k) for k in range(min(c.end, span[-1] + 1), max(c.start, span[0])))
            for i in range(c.start, c.end)
        }
        return bool(elsewhere) and all(raw[i] in elsewhere for i in span)

    def _beside_a_call(self, refused: Reading, raw: list[str], span: list[int]) -> bool:
        """Is ``span`` a bid said beside a call a cue refused, that the bid may stand without:
        "¿qué voy a dudar?, cinco trenes" (the doubt dismissed, the bid made)?"""
        if not (isinstance(refused.command, CallCommand) and refused.cues and not set(refused.cues) & AROUND):
            return False
        return not any(w in CALL_HEADS for i in span for w in self._read_word(raw[i])) and any(
            raw[i] in self.lexicon.faces for i in span
        )

    def _stated_total(self, raw: list[str], cues: list[Cue]) -> Reading | None:
        """A count worked out aloud, its total said last after a word that gives it: "dos de
        ana, tres de beto y uno de carla, seis en total", "cuatro más tres siete, más dos
        nueve", "sumando todo da trece", "uno dos tres cuatro cinco seis, hay seis", "fran
        tiene dos pares, o sea cuatro". Whatever the working is, the total is the count (a
        player's, when the line opens with "<player> tiene"). Taken without the count's
        moment only when the working holds another number or the word is a total's own
        ("en total", "suman", "o sea"): "en mi casa hay dos" is a count only after a reveal."""
        lex = self.lexicon
        end = len(raw)
        while end > 0 and (self._passed_over(raw[end - 1]) or raw[end - 1] in ("vale", "nomas", "mas", "na")):
            end -= 1
        said = tuple(raw[:end])
        markers = self._total_markers
        marker = next((m for m in markers if said[len(said) - len(m) :] == m and len(said) > len(m)), None)
        number_end = end - len(marker) if marker is not None else end  # "…seis en total"
        for start in range(max(0, number_end - 3), number_end):
            number = next((n for n in self._numbers_at(raw, start) if start + n[1] == number_end), None)
            if number is not None:
                break
        else:
            return None
        if self._said_again(raw, list(range(start, number_end)), cues):
            return None  # "me tomé dos piscolas no más, dos": the things counted, said again
        before = tuple(w for w in raw[:start] if not self._passed_over(w))
        if marker is None:
            marker = next((m for m in markers if before[len(before) - len(m) :] == m), None)
            before = before[: len(before) - len(marker)] if marker is not None else before
        working = any(next(self._numbers_at(list(before), i), None) is not None for i in range(len(before)))
        if marker is None and not (working and any(w in lex.sum_words or w in ("par", "pares") for w in before)):
            return None  # no word gives the total, and no sum before it: "cuatro más tres, siete, más dos, nueve" is one
        if any(w in lex.sum_words for w in before) and not self._adds_up(list(before), number[0]):
            return None  # "cuatro más uno, seis": a sum said wrong is no count
        plain = (("hay",), ("son",), ("da",), ("dan",), ("entonces",), None)
        own = marker not in plain or any(m not in plain and tuple(before[i : i + len(m)]) == m for m in markers for i in range(len(before)))
        if not before and not own:
            return None  # "hay seis" alone is read whole
        # one player's: "fran tiene dos pares, o sea cuatro", "de ana son dos"
        named = before[0] if before and len(before) > 1 and before[1] in ("tiene", "tenia") else before[1] if before[:1] == ("de",) and len(before) == 2 else ""
        player = self._names.get(named) if self._is_name(named) else None
        command: Command = PlayerCountCommand(player, number[0]) if player else CountCommand(number[0])
        reading = Reading(
            command, (end - start) / len(raw), how="suelta", certainty=0.9 if marker else 0.8, unexplained=tuple(raw[:start]), lead=start,
            tail=len(raw) - end, weak=not (working or own),
        )
        return self._vetoed(reading, cues, 0, len(raw))

    def _adds_up(self, words: list[str], total: int) -> bool:
        """Do the sums said in ``words`` come to ``total``: "cuatro más tres, siete, más dos"
        and nine? A number after "más" adds to what went before; one without it is a result
        said on the way, and must be right."""
        running: int | None = None
        adding = False
        i = 0
        while i < len(words):
            number = next(self._numbers_at(words, i), None)
            if number is None:
                adding = adding or words[i] in self.lexicon.sum_words
                i += 1
                continue
            if running is None or adding:
                running = number[0] + (running or 0) if adding else number[0]
            elif number[0] != running:
                return False
            adding = False
            i += number[1]
        return running == total

    def _corrected_loose(self, raw: list[str], kinds: list[str], cues: list[Cue]) -> Reading | None:
        """A player who corrects himself among words nobody placed: "dudo, no, no, perdón,
        quise decir calzo", "son siete, no, perdón, ocho, me salté el vaso de fran",
        "carla tiene dos, no, perdón, tres". What follows the last correction is the move,
        read on its own; a bare number there corrects the number said before it (the
        player and the face kept). None when the line holds no correction between game words."""
        lex = self.lexicon

        def game(k: int) -> bool:  # a word of a move, not a yes or a no ("no, no paso" corrects nothing)
            return kinds[k] == "juego" and raw[k] not in lex.negators and raw[k] not in ("si", "no")

        for i in range(len(raw) - 1, 0, -1):
            size = _phrase_at(raw, i, self._corrections_by_first)
            if not size and raw[i] in lex.correction_words and raw[i] not in ("no", "mejor", "deshacer"):
                size = 1
            if not size and raw[i] == "no" and game(i - 1) and i + 1 < len(raw) and game(i + 1):
                size = 1  # "dos, no, tres"
            if not size:
                continue
            if not any(game(k) for k in range(i)):
                return None
            if raw[i] == "no" and RESTATED in raw[:i]:
                return self._meant_before(raw, i, cues)  # "…tienes lag, dije seis quinas, no cinco": what the move is not
            if not any(game(k) for k in range(i + size, len(raw))):
                # the correction said last points back: "seis doses, eh, seis tontos, quiero decir"
                return self._meant_before(raw, i, cues) if i + size == len(raw) else None
            after = self._without_own_remark(raw[i + size :])
            tail = self.readings(" ".join(after))
            best = next((r for r in tail if r.certainty > 0), None)
            if best is None or _answer(best.command):
                return None  # (a yes after a move is its emphasis: "mato, o sea, de una")
            command = best.command
            weak = best.weak
            if isinstance(command, CountCommand) and command.face is None:
                before = next((r.command for r in self.readings(" ".join(raw[:i])) if r.certainty > 0), None)
                if (isinstance(before, PlayerCountCommand) and not before.more) or (isinstance(before, BidCommand) and command.quantity > 0):
                    command, weak = dataclasses.replace(before, quantity=command.quantity), False
                elif before is None:
                    weak = True  # nothing of a move corrected: a count only in its moment ("…vigila los dados, o sea nada")
            lead = i + size + best.lead
            reading = Reading(
                command, (len(after) - best.lead - best.tail) / len(raw), how="corrección", certainty=round(min(best.certainty, LOOSE_TOP), 3),
                unexplained=tuple(raw[:lead]) + best.unexplained, lead=lead, tail=best.tail, weak=weak,
            )
            # the move said again starts anew: what was said of the game before the correction is no veto ("cuatro patos,
            # así se llaman los dos, no, cuatro patos"), but a story or an hour holds the whole line ("ayer dudé, no, calcé")
            # (not after a "digo", as often the verb of a rule told: "cuando dudo se dice dudo o digo que dudo")
            anew = raw[i] != "digo"
            # (and a bare number said for things counted is one more of them: "…tiene seis quillas, no, tres")
            kept = [c for c in cues if not anew or c.end > i or c.family in CLAUSE_BOUND or (c.family == "cosas" and _bare_number(command))]
            return self._vetoed(reading, kept, 0, len(raw))
        return None

    def _without_own_remark(self, after: list[str]) -> list[str]:
        """The move said after a correction, without what the player says of it last: that the
        first was the mistake, or which was meant ("cinco trenes no, cinco cuadras, me equivoqué",
        "seis cuadras no, seis senas, senas dije", "…no, siete cuadras mejor"), while a word of
        the game is left."""
        end = len(after)
        while end > 1:
            if tuple(after[end - 2 : end]) in CORRECTED_REMARKS:
                cut = end - 2
            elif end > 3 and tuple(after[end - 4 : end - 2]) in CORRECTED_REMARKS and after[end - 2] == "de":
                cut = end - 4  # and of what: "…diez tontos, me equivoqué de pinta", "…me confundí de fila"
            elif after[end - 1] in self.lexicon.correction_words or after[end - 1] in (RESTATED, "nomas"):
                cut = end - 1
            else:
                break
            if not any(self._kind(w) == "juego" for w in after[:cut]):
                break
            end = cut
        return after[:end]

    def _meant_before(self, raw: list[str], at: int, cues: list[Cue]) -> Reading | None:
        """The move said right before a correction that ends the line ("nueve senas, eh, no, nueve
        quinas, quise decir"): the longest stretch before ``raw[at]`` that reads whole as one move;
        None when none does."""
        meant: Reading | None = None
        begins = at
        for j in range(at - 1, -1, -1):
            whole = next((r for r in self._read(raw[j:at]) if r.certainty == 1.0 and not r.weak and r.lead == 0), None)
            if whole is None or (meant is not None and whole.command != meant.command):
                if meant is not None:
                    break
                continue
            meant, begins = whole, j
        if meant is None:
            return None
        reading = Reading(
            meant.command, (at - begins) / len(raw), how="corrección", certainty=LOOSE_TOP,
            unexplained=tuple(raw[:begins]) + tuple(raw[at:]), lead=begins, tail=len(raw) - at,
        )
        return self._vetoed(reading, cues, 0, len(raw))

    def _loose_reading(self, raw: list[str], kinds: list[str], cues: list[Cue], first: int, last: int, reading: Reading) -> Reading:
        """The move read from ``raw[first:last + 1]``, with its certainty among the rest."""
        inside = set(range(first, last + 1))
        left = [i for i in range(len(raw)) if i not in inside or kinds[i] == "ruido"]
        explained = len(raw) - len(left)
        start, end = self._own_clause(raw, first, last)
        clause_start = start
        # a doubt or a calzo said last, after its reasons: the reasons weigh as talk before the turn
        # is taken ("ah no, esa sí que no me la creo, dudo"; "ocho trenes no hay ni en osorno, dudo")
        if self._said_last(raw, reading.command, first, last):
            start = first
        # what is said in a clause of its own weighs less against the move: talk before the turn is taken
        # and so do words far from it ("mire, cuando yo era cabro chico mi taita me enseñó… así que ocho trenes")
        # and the move's own words said again weigh as little, with the words that say it again or check the line:
        # "tres ases, tres ases, ¿escucharon? tres ases", "dudo, ¿me escucharon? dije dudo"
        own = set(raw[first : last + 1])
        checked = self._in_set_phrases(raw)
        around = Counter(
            kinds[i] if start <= i <= end and (first - i if i < first else i - last) <= NEAR
            and not (kinds[i] == "juego" and raw[i] in own) and raw[i] != RESTATED and i not in checked else "suave"
            for i in left
        )
        # a word said right against the move: it may be what the move's words belong to ("perdí dos trenes")
        against = sum(1 for i in (first - 1, last + 1) if 0 <= i < len(raw) and kinds[i] in ("palabra", "verbo"))
        # another move said in a clause of its own does not compete: "once tontos, y me tomo el mate"
        # a number right after a call is what it is about: "calzo cuarenta y dos"
        number_after = last + 1 < len(raw) and next(self._numbers_at(raw, last + 1), None) is not None
        said_before = self._bids_said_before(raw, first, reading.command)
        competing = self._competes(reading.command, self._around(raw, first, last, cues, reading.command, start, end, said_before), number_after)
        # two verbs left around it: more clauses than the move ("retiramos, pasamos, sabían, mandan");
        # not those of a clause of their own, set off by "ya" before the move or "y"/"que" after it
        # ("…se tomó la botella entera, ya, ya, doce senas", "seis senas y que conste que no miento")
        # and, for a bid (a number and a face: no word that chatter says by chance), not those far from it
        # ("uy, me toca, perdone, estaba pensando en otra cosa, eh, cinco diucas")
        reach = NEAR if isinstance(reading.command, BidCommand) else len(raw)
        verbs = sum(
            1 for i in range(start, end + 1)
            if (i < first or i > last) and kinds[i] == "verbo" and (first - i if i < first else i - last) <= reach and raw[i] != RESTATED and i not in checked
        )
        competing = competing or verbs >= CLAUSES
        certainty = loose_certainty(around, against, competing)
        if isinstance(reading.command, BidCommand) and reading.command.quantity == 1 and any(raw[i] in ARTICLE_ONE for i in range(first, last + 1)):
            certainty *= ARTICLE_BID  # "pongan una samba", "un tonto me chocó": an article as often as a bid of one
        one_word = self._one_word_after(raw, first, last, reading.command)
        if one_word:
            certainty = min(certainty, ONE_WORD_CAP)  # "dudo pelusa": asked, "¿Dudas?"
        if reading.command.action in ASKED_FIRST:
            certainty = min(certainty, UNHEARD_CAP)  # "me equivoqué en la pega, qué lata": taking back a move is asked first
            said = {raw[i] for i in inside} & self._undo_forms
            if said and not said & self._undo_asked:
                certainty = 0.0  # told, not asked for: "los cabros se equivocan", "el beto deshizo la jugada"
            if all(raw[i] in BACK for i in inside):
                certainty = 0.0  # "atrás" with no one asked to go back: "no mires para atrás", "quedó atrás el beto"
        loose = Reading(
            reading.command, explained / len(raw), how="suelta", certainty=round(certainty, 3),
            unexplained=tuple(raw[i] for i in left), lead=first, tail=len(raw) - 1 - last,
            weak=competing or self._needs_the_moment(reading.command, [kinds[i] for i in left]),
        )
        vetoed = self._vetoed(loose, cues, 0, len(raw), (start, end + 1))
        phrase = self._about_something_else(raw, first, last, reading.command, clause_start, one_word) if vetoed.certainty > 0 else None
        if phrase == DOUBTFUL or (phrase is not None and self._tail_only(raw, first, last, reading.command, phrase, one_word)):
            # the move, said first, is whole without what follows, or a "no" before it may dismiss something
            # else: asked about when the moment expects it
            vetoed = dataclasses.replace(vetoed, certainty=min(vetoed.certainty, TAIL_CAP), weak=True, cues=(phrase,))
        elif phrase is not None:
            vetoed = dataclasses.replace(vetoed, certainty=0.0, cues=(phrase,))
        return vetoed

    def _tail_only(self, raw: list[str], first: int, last: int, command: Command, phrase: str, one_word: bool) -> bool:
        """Is the move at ``raw[first:last + 1]`` said first in its line and whole, and only the words
        after it make it part of a phrase about something else? What follows may be a clause of its
        own, which a line heard has no comma to show: after a bid of a number and a face, a gerund,
        a remark opened by an article, "con" or "sin" ("ya, cinco senas, la cuenta regresiva empieza",
        "diez trenes sin miedo al toro"); after a call in the first person, the one it is said to
        ("dudo colega, esa pelota venía afuera") or a thing said to do something ("calzo, la cuenta
        cierra", "dudo, ese novillo no lo ataja nadie"). Nothing may come before it but fillers, "ya", "yo",
        the table spoken to and words nobody heard ("[unk] diez trenes sin miedo al toro")."""
        if phrase not in TAIL_KINDS or last + 1 >= len(raw):
            return False
        lex = self.lexicon
        if not all(self._passed_over(w) or w in TURN_TAKEN or w in ("yo", UNREADABLE) or w in lex.address_words for w in raw[:first]):
            return False
        if isinstance(command, CallCommand | ObligoCommand):
            if isinstance(command, ObligoCommand):  # "obligo cerrado, vuestras mercedes": its way said, the call is whole
                said = last if command.mode is not None and raw[last] in ("abierto", "cerrado") else None
            else:
                # (a call held long is the call: "calzoo, hype train")
                said = next((i for i in range(first, last + 1) if raw[i] in SAID_FIRST_CALLS or _squeeze(raw[i]) == command.call), None)
                said = None if command.player is not None or command.call not in SAID_FIRST_CALLS else said
            if said is None:
                return False
            rest = [w for w in raw[said + 1 :] if not self._passed_over(w)]
            spoken_to = 2 if rest[:1] in (["mi"], ["mis"]) and rest[1:2] and rest[1] in lex.address_words else int(bool(rest) and self._spoken_to(rest[0]))
            rest = rest[spoken_to:]
            # a thing and what it does, or the one spoken to asked for something ("dudo fran, muéstrame esos dados")
            asked = bool(spoken_to and rest) and len(rest[0]) > 6 and rest[0].endswith(ASKED_OF_ONE) and self._foreign(rest[0])
            # or a remark of any kind, when nothing after the call says what its word is done to: no article, no
            # preposition, no pronoun, no "que" and no copula ("calzo, carajo, vamos colo colo", "dudo, alerta roja,
            # levanten los cachos", "paso paso, se me cortó el audio"; not "dudo de los trenes", "dudo entre el salmón
            # y la centolla", "dudo que venga", "dudo es como…")
            remark = bool(rest) and not (
                rest[0] in lex.determiners or rest[0] in lex.inside_words or rest[0] in lex.clitics or rest[0] in CALL_COMPLEMENTS or rest[0] in COPULAS
            )
            # a doubt or a calzo said in what spirit, by what reason, or granted: "dudo con fundamento estadístico",
            # "dudo, por reducción al absurdo", "calzo, sin miedo", "dudo, aunque después me arrepienta", "calzo, está
            # justo" (not a paso or a mato: "paso por tu casa", "mato por un completo")
            remark = remark or (isinstance(command, CallCommand) and command.call in WEIGHED_CALLS and bool(rest) and rest[0] in WEIGHED_TAILS)
            if not (asked or remark or (spoken_to and not rest) or self._clause(rest)):
                return False
            return self._about_something_else(raw[: said + 1], first, said, command, 0, one_word) is None
        if not (isinstance(command, BidCommand) and command.quantity > 1 and command.player is None and command.to is None):
            return False
        after = next((w for w in raw[last + 1 :] if not self._passed_over(w)), "")
        if phrase == "verbo":
            # how it is said ("cuatro trenes calentando motores"; not "ocho cuadras caminé"), or the table asked to do
            # something ("diez tontos, hagan lo que quieran", "siete quinas, pásame el café"; not what somebody did:
            # "tres trenes pasaban por victoria")
            clause = (len(after) > 5 and after.endswith(GERUND_ENDINGS)) or (
                len(after) > 4 and after.endswith((*ASKED_OF_ONE, "en", "an")) and not after.endswith(PAST_ENDINGS) and self._foreign(after)
            )
        elif phrase == "objeto":
            clause = after in ARTICLES_ONLY  # "doce senas, la cuenta regresiva empieza" (not "seis cenas esta semana")
        else:
            # in what spirit, or what it is sold at, for, by or like: "diez trenes sin miedo al toro", "nueve quinas, a la
            # rica quina", "siete cuadras pa la novia" (not "tres patos en la laguna", "dos ases de la baraja")
            clause = after in MANNER_TAILS or after in DEDICATED_TAILS
        return clause and self._about_something_else(raw[: last + 1], first, last, command, 0, one_word) is None

    def _spoken_to(self, word: str) -> bool:
        """Is ``word`` one the table is spoken to with: a player's name or a word of address ("colega", "hermanos")?"""
        return self._is_name(word) or word in self.lexicon.address_words

    def _clause(self, words: list[str]) -> bool:
        """Do ``words`` open with a clause of their own: a thing and what it does ("esa pelota venía
        afuera", "la cuenta cierra", "ese novillo no lo ataja nadie"; not "ese mosquito", "la sal que
        está sosa", "el tiempo jugando cacho")?"""
        lex = self.lexicon
        pointed = len(words) >= 2 and words[0] in POINTED
        if pointed and (words[1] in COPULAS or (words[1] in lex.clitics and len(words) > 2 and self._kind(words[2]) == "verbo")):
            return True  # a thing pointed at and what it is or what was done to it: "esto es un siete", "esa la cocinaste tú"
        if len(words) < 3 or words[0] not in lex.determiners or not self._object(words[1]):
            return False
        k = 2
        while k < len(words) and (words[k] in lex.negators or words[k] in lex.clitics):
            k += 1  # "…no lo ataja"
        verb = words[k] if k < len(words) else ""
        if words[2] in lex.negators and verb and verb != "mas" and self._kind(verb) != "juego":
            return True  # a thing and what it does not do, whatever the verb: "la binomial no te da" (not "…no más")
        if verb.endswith(GERUND_ENDINGS):
            return False  # "mato el tiempo jugando cacho": what the call's word is done to, and how
        return self._kind(verb) == "verbo" or verb in lex.verb_forms or verb in COPULAS or (len(verb) > 4 and verb.endswith(PAST_ENDINGS))

    def _one_word_after(self, raw: list[str], first: int, last: int, command: Command) -> bool:
        """Is the call at ``raw[first:last + 1]`` the whole line but for one word of Spanish said
        after it, the call said as one's own ("dudo", "paso", "siciliana"; not "duda razonable")
        with nothing before it but "yo" and fillers: "dudo pelusa", "yo paso tortuga", "paso hambre"?"""
        if not isinstance(command, CallCommand | ObligoCommand):
            return False
        if raw[last] not in OWN_CALL_WORDS or any(w != "yo" and not self._passed_over(w) for w in raw[:first]):
            return False
        behind = [w for w in raw[last + 1 :] if not self._passed_over(w)]
        return len(behind) == 1 and behind[0] != UNREADABLE and self._foreign(behind[0]) and not behind[0].isdigit()

    def _opens_a_clause(self, raw: list[str], i: int) -> bool:
        """Does ``raw[i]`` open the clause of the move that follows: "ya", "pero", "así que"?"""
        return raw[i] in TURN_TAKEN or raw[i] == "pero" or (raw[i] == "que" and i > 0 and raw[i - 1] == "asi")

    def _own_clause(self, raw: list[str], first: int, last: int) -> tuple[int, int]:
        """The stretch of the line that is the move's own clause: from after the last "ya"
        (the turn taken: "…no sé qué tienen ustedes, pero ya, ocho quinas") and up to a
        clause joined after it ("…y que conste", "…que me estoy quedando dormido")."""
        start = 0
        # the opener nearest before the move's last word: a frame read with the move may hold it ("…así que yo
        # diría siete cuadras"), and so may a number said twice ("…son nueve, entonces nueve cuadras")
        for i in range(last - 1, -1, -1):
            if self._opens_a_clause(raw, i):
                start = i + 1  # "…así que ocho trenes", "…ni me acuerdo qué tengo, pero diré ocho quinas"
                break
        end = len(raw) - 1
        # (the move's own words end at its last number, face, call or name: a tail read with it may hold the
        # join, "pongo seis senas y me voy a ver la cama doce")
        core = next((i for i in range(last, first - 1, -1) if self._kind(raw[i]) == "juego"), last)
        for join in dict.fromkeys((last + 1, core + 1)):
            if join < len(raw) and raw[join] in CLAUSE_JOINS:
                end = join - 1
                break
        if raw[last] in SAID_FIRST_CALLS and self._clause([w for w in raw[last + 1 :] if not self._passed_over(w)]):
            end = last  # a call, then a thing pointed at and what it is: "calzo, esto es un siete de precisión"
        return start, end

    def _about_something_else(self, raw: list[str], first: int, last: int, command: Command, taken: int, one_word: bool = False) -> str | None:
        """Are the move's words, read among words the parser cannot place, part of a
        phrase about something else? Which kind of phrase, or None:

        - dentro_de_frase: after a preposition or an article ("vivo a seis cuadras", "en
          uruguay no jugamos con calzo", "me voy a la calza"), before a complement ("tres
          patos en la laguna", "dos trenes al día");
        - objeto: the word has an object of its own that is no word of the game ("anula la
          reserva", "mata ese mosquito", "lo mato a besos"), or a subject ("el jefe dudó");
        - negada: a call denied a few words before it ("no lo dudo", "nadie te obliga");
        - de_la_jugada: a call named rather than made ("a veces conviene dudar");
        - verbo: a verb said right against a bid or a count ("tres trenes tuve que tomar",
          "seis cuadras caminando");
        - salida: a start that goes somewhere ("beto sale a fumar", "por la derecha se llega antes")."""
        lex = self.lexicon
        for i in range(max(1, first), min(len(raw), last + 2)):
            if raw[i] == UNREADABLE and (raw[i - 1] in UNHEARD_TAKERS or (raw[i - 1] == "la" and i > 1 and raw[i - 2] in UNHEARD_TAKERS)):
                return "dentro_de_frase"  # "paso a [unk]", "tres patos en la [unk]", "revivimos el [unk]": the word not heard is what it is about
        # the words around the move, fillers and the table spoken to passed over ("calzo justo con la mesa"),
        # from where the turn is taken (``taken``, the move's own clause: "no sé ni qué tengo, ya, diez cuadras": no hand had)
        set_phrases = self._in_set_phrases(raw)  # "diez senas, la dura, no estoy bluffeando"
        ahead = [w for i, w in enumerate(raw[:first]) if i >= taken and i not in set_phrases and not self._passed_over(w)]
        behind = [w for i, w in enumerate(raw[last + 1 :], last + 1) if i not in set_phrases and not self._passed_over(w)]
        before = ahead[-1] if ahead else ""
        two_before = ahead[-2] if len(ahead) > 1 else ""
        call = isinstance(command, CallCommand | ObligoCommand)
        after = behind[0] if behind else ""
        then = behind[1] if len(behind) > 1 else ""
        beyond = behind[2] if len(behind) > 2 else ""
        # the clause a call opens, the one spoken to set aside: "paso colega a buscarte", "dudo colega que venga"
        # (what is done to the call's word is not looked for past him: "mato abuela, perdona")
        spoken = behind
        while call and spoken and (spoken[0] in lex.address_words or (spoken[0] == "mi" and spoken[1:2] and spoken[1] in lex.address_words)):
            spoken = spoken[1 + (spoken[0] == "mi") :]
        opens, opens_then = [*spoken, "", ""][:2]
        # (a "ni" that denies another move denies only that one: "ni calzo ni dudo, subo a nueve trenes"; and
        # "nadie" denies a call, never a bid: "a mí no me asusta nadie, nueve sextas")
        denied_move = self._kind(before) == "juego" or before in lex.families
        # ("nadie" is the subject of a call in the third person: "nadie lo duda", not "…no se lo cree nadie, lo dudo")
        own_call = any(w in FIRST_PERSON_CALLS for w in raw[first : last + 1])
        # ("ni" before words nobody knows read with a doubt denies them: "no le creo ni el padrenuestro, dudo")
        not_even = before == "ni" and command.action == "dudo" and self._kind(raw[first]) != "juego" and raw[first] not in lex.clitics
        if (before in ("ni", "nunca", "jamas", "tampoco") and not not_even) or (before == "nadie" and call and not own_call) or (
            two_before == "ni" and (not call or command.action != "dudo") and not denied_move
        ):
            # "ni una más para mí", "nunca dudo", "ni cagando hay ocho", "ni cagando calzo yo" (but "ni cagando, dudo" doubts)
            return "negada"
        named = self._is_name(raw[first])  # "el diego cinco": the article belongs to the name
        # the call whose name takes an article ("hago la siciliana"), and a number said about so many ("unas seis
        # trifilas") are no thing inside a phrase
        placed = named or (command.action == "siciliana" and before in ARTICLED) or (before in ABOUT and not call)
        # (nor the palo given, which takes its article: "le toca el palo a la carla", "se come el palo la carla")
        placed = placed or (isinstance(command, PenaltyCommand) and before in PENALTY_ARTICLES)
        # (nor a call said to a player: "le hago la siciliana al beto")
        # (how it was said is no complement: "ocho tontos sin pensarlo", "dudo sin pensarlo dos veces")
        manner = after in MANNER and self._infinitive(then)
        # (nor whom or why it is made for: "ocho senas por mi abuelita", "calzo por la cumpleañera", "dudo nomás por molestar";
        # not a way walked, "cinco cuadras por la alameda", "paso por la casa", nor a craving: "mato por una empanada")
        dedicated = after == "por" and command.action not in ("paso", "mato") and not (isinstance(command, BidCommand) and command.face == CUADRAS) and (
            then in POSSESSIVES or then in ("el", "la", "los", "las") or self._infinitive(then)
        )
        complement = after in lex.complement_words and not (call and self._is_name(then)) and not manner and not dedicated
        if (before in lex.inside_words and not placed) or complement:
            return "dentro_de_frase"
        # "yo del fútbol paso, tío", "del queque yo paso": not interested, no call
        of, thing = (ahead[-3] if len(ahead) > 2 else "", two_before) if before == "yo" else (two_before, before)
        if call and command.action == "paso" and (of == "del" or (of == "de" and before != "yo")) and self._foreign(thing):
            return "otro_sentido"
        article = first < last and raw[first] in lex.inside_words and raw[first] not in lex.clitics
        if call and article and any(w in CALL_HEADS for w in self._read_word(raw[first + 1])):
            return "dentro_de_frase"  # "[unk] el mate [unk]": an article makes the word a thing
        if call and before in CALL_INSIDE:
            return "dentro_de_frase"  # "en uruguay no jugamos con calzo"
        if call and raw[first] == "en":
            return "dentro_de_frase"  # "en la duda, abstente": the call's word after "en" is a thing
        if before in lex.clitics and two_before in lex.inside_words and not placed:
            return "dentro_de_frase"  # "la", "lo": a pronoun before a verb ("la calzo"), an article after a preposition ("a la calza")
        # "cuatro balas, mi amigo": the table spoken to; "dos tontos pa calentar": what the opening bid is for
        vocative = after in ("mi", "mis") and (then in lex.address_words or beyond in lex.address_words)  # "dudo mi loco", "mis queridos colegas"
        opening = self._purpose(command, after, then)
        # (the object of what the move is for belongs to it: "dos senas pa empezar la noche")
        purpose = isinstance(command, BidCommand) and last > 0 and raw[last - 1] in PURPOSE
        staked = last > 0 and raw[last] in WAGERS and raw[last - 1] in ("me", "la")  # "…y me (la) juego el pisco"
        spoken_to = after in POSSESSIVES and then in lex.address_words
        # (after a copula it is what the move is said to be, no object: "quince senas, amiga, es la final")
        predicate = isinstance(command, BidCommand) and raw[last] in COPULAS
        if after in lex.determiners and not vocative and not purpose and not staked and not predicate and (self._object(then) or spoken_to):
            return "objeto"  # "repite el trago", "borra el mensaje", "seis cenas esta semana", "cómo va tu hermano"
        # (a bid of trains or quadras goes somewhere; one "pa la casa" is a bid dedicated: "once trenes pa la casa")
        somewhere = after in ("a", "hacia") or not isinstance(command, BidCommand) or command.face == CUADRAS
        if after in TOWARDS and somewhere and not opening and (self._foreign(then) or (then in lex.determiners and self._foreign(beyond))):
            return "dentro_de_frase"  # "tres trenes a santiago", "cuatro cuadras pa la casa", "compré tres trenes pal niño"
        if call:
            said = [w for w in raw[first : last + 1] if w not in lex.clitics]
            k = first - 1
            while k >= 0 and raw[k] in lex.clitics:
                k -= 1
            run = k
            while run > 0 and raw[run - 1] == "no":
                run -= 1  # the "no"s said one after the other: "ay no, no, dudo"
            # "uy no, dudo nomás", "uuy no, dudo": dismay, no denial
            exclaimed = raw[k] == "no" and run > 0 and any(w in EXCLAMATIONS for w in (raw[run - 1], *self._read_word(raw[run - 1])))
            exclaimed = exclaimed or raw[max(0, k - 2) : k + 1] == ["no", "no", "no"]  # "no no no, dudo": disbelief ("no, no dudo" denies)
            exclaimed = exclaimed or (raw[k] in DISBELIEF and k == first - 1 and command.action == "dudo")  # "nica, dudo"
            # the bid pointed at and refused, then the call: "eso sí que no, dudo", "no, esa no, dudo" (not "yo sí que
            # no dudo", one's own denial, nor "eso no lo dudo")
            refused = raw[k] == "no" and k > 2 and raw[k - 3] in REFUSED_POINTED and raw[k - 2 : k] == ["si", "que"]
            refused = refused or (raw[k] == "no" and k == first - 1 and k > 0 and raw[k - 1] in REFUSED_POINTED and not behind)
            exclaimed = exclaimed or refused
            if k >= 0 and raw[k] in lex.negators and not exclaimed and not not_even:
                # a "no" said again or after thinking aloud, right before a call that ends the line, is as often
                # the call's dismissal as the call denied: "no, no, dudo", "mmm… no, dudo" (not "no, no dudo"):
                # asked when the moment expects it, never made at once
                alone = not behind and k == first - 1 and k > 0 and raw[k] == "no"
                alone = alone and (raw[k - 1] == "no" or raw[k - 1] in lex.hesitation_words or bool(_INTERJECTION.match(raw[k - 1])))
                # "no lo dudo", "nadie te obliga", "ni (lo) dudo" (not "ni cagando, dudo": that is disbelief)
                return DOUBTFUL if alone and not (k > 1 and raw[k - 2] == "no") else "negada"
            # a paso's hand claimed after it is its reason, whether read with it or after it: "paso, weón, tengo la
            # mano perfecta" (what follows is said of the hand, not of the call's own word)
            claim = command.action == "paso" and (
                after in HAVING or (self._kind(raw[last]) == "juego" and not any(w in CALL_HEADS for w in self._read_word(raw[last])))
            )
            # (a word nobody knows said last is heard as the recognizer hears it, a word outside the grammar: the
            # one spoken to, as "dudo [unk]" is noise: "yo paso peñi", "dudo, feley")
            unheard_last = self._kind(after) == "ruido" and not then
            spoken_to = unheard_last or one_word  # (``one_word``: ``_one_word_after``, asked about, not vetoed)
            if after != UNREADABLE and self._foreign(after) and not after.endswith(ADVERB_ENDINGS) and after not in COPULAS and not claim and not spoken_to:
                return "objeto"  # "duda razonable", "mata esa mosca", "dudo de los trenes chilenos" ("dudo [unk]" is noise)
            noun = raw[first] in lex.determiners or before in lex.determiners  # "ese mato que hizo tu abuelo": a thing told of
            # "dudo que haya tantas", "dudo, qué va a haber tanta cuadra": the bid doubted
            doubted = command.action == "dudo" and (opens_then in DOUBTED or spoken[1:4] == ["va", "a", "haber"])
            what_else = tuple(spoken[1:]) in WHAT_ELSE  # "dudo po, ¿qué más?": asked what else there was to do
            # ("dudo dudo dudo, que me suena la diadema", "ya paso paso que me estoy quedando dormido": a call said again
            # first in its line is made, and what follows is why; not "el fran calzó calzó justo, qué jugador")
            run_start = last
            while run_start > 0 and raw[run_start - 1] == raw[last]:
                run_start -= 1
            again = run_start < last and raw[last] in SAID_FIRST_CALLS and all(
                self._passed_over(w) or w in TURN_TAKEN or w == "yo" for w in raw[:run_start]
            )
            if opens == "que" and (command.action in ("dudo", "paso") or noun) and not doubted and not what_else and not again:
                return "otro_sentido"  # "paso que voy", "dudo que venga": a clause, as the whole-line reading holds too
            # a claim reported, with no bid in it, then doubted: "mi cabra dice que van a cerrar la feria, yo lo dudo"
            # (not "el beto dice que hay ocho trenes, yo lo dudo", nor "dicen que no hay tantas, dudo")
            # (nor "la profe dijo que dudara, así que dudo": the doubt in a clause of its own)
            reported = next((j for j in range(first - 2, -1, -1) if raw[j] in CLAIMED and raw[j + 1] == "que"), None)
            claimed = raw[reported + 2 : first] if reported is not None else []
            if command.action == "dudo" and claimed and not any(self._opens_a_clause(raw, i) for i in range(first - len(claimed), first + 1)) and not any(
                (self._kind(w) == "juego" and not self._is_name(w)) or any(r in CALL_HEADS for r in self._read_word(w)) for w in claimed
            ):
                return "otro_sentido"
            # ("calzo, que lo tengo clarísimo", "mato, que está justita": the reason why)
            if before == "que" and len(ahead) == 1:
                return "otro_sentido"  # "¿qué pasó?"
            # what another does, then one's own call: "la abuela duda, ¡dudo!", "el beto pasa, paso yo" (not
            # "la carla dudó, ¡dudó!", told twice: a past folds into the first person)
            own_after = raw[first] not in OWN_FORMS and any(w in OWN_FORMS for w in raw[first + 1 : last + 1])
            if self._is_name(before) and not own_after:
                return "otro_jugador"  # "el fran dudó de la carla": somebody tells what a player did
            if before in lex.reflexive and (before, self.lexicon.canonical(raw[first])) not in lex.reflexive_calls:
                return "objeto"  # "se pasó tres pueblos", "me mato": about oneself
            subject = len(ahead) - 1 - (before in lex.clitics)
            adjacent = k >= 0 and raw[k] == ahead[subject] if subject >= 0 else False  # "…un mensaje, ya, ya, dudo": a pause between
            # ("no me la cuelas, dudo"; and, before "dudo", "calzo", "mato", no subject either after a verb or a preposition:
            # "tengo el presentimiento, calzo", "no hay tantos seises ni en la aduana, dudo"; not "en el talca la pasamos bien")
            governing = ahead[subject - 2] if subject >= 2 else ""
            governed = raw[last] in FIRST_PERSON_CALLS and (governing in lex.inside_words or self._kind(governing) == "verbo")
            pronoun = subject >= 2 and (governing in lex.clitics or governing in lex.negators or governed)
            # (or something: "esa bala pasó cerca")
            someone = subject >= 1 and (self._foreign(ahead[subject]) or ahead[subject] in lex.address_words or ahead[subject] in lex.faces)
            if someone and adjacent and not pronoun and ahead[subject - 1] in lex.determiners and not own_after:
                return "objeto"  # "el jefe dudó", "esa chaqueta te calza": somebody else's (a player is named by name)
            if len(said) == 1 and said[0] in lex.move_forms.get("{jugada}", ()) and said[0].endswith(("ar", "er", "ir")):
                return "de_la_jugada"  # "a veces conviene dudar", "abuelito qué es calzar"
        # (a bid of faces that go nowhere is made for something, whatever it is: "tres quinas pa [unk] motores")
        made_for = isinstance(command, BidCommand) and command.face not in (TRENES, CUADRAS) and after in ("pa", "para")
        for went, to in ((after, then), (opens, opens_then)):  # (and past the one spoken to: "paso colega a buscarte")
            if went in PURPOSE and not opening and not made_for and (to == UNREADABLE or (self._infinitive(to) and self._kind(to) != "juego")):
                return "salida"  # "quién va a pagar", "beto sale a fumar", "voy a obligar a mi hijo a estudiar"
        if call and after == "a" and (self._foreign(then) or (then in lex.determiners and not self._is_name(beyond))):
            return "objeto"  # "obligo a mi perro", "lo mato a besos"
        counted = isinstance(command, BidCommand | CountCommand | PlayerCountCommand)
        journey = after in ("pa", "para") and then in JOURNEYS and (beyond in TOWARDS or beyond == "al")
        if isinstance(command, BidCommand) and command.face in (TRENES, CUADRAS) and journey:
            return "dentro_de_frase"  # "en madrid cogía cuatro trenes para ir al curro": a journey, not a bid
        if isinstance(command, BidCommand) and command.face == CUADRAS and after == UNREADABLE and then and not self._passed_over(then):
            return "verbo"  # "ocho cuadras [unk] para llegar aquí" ("caminé"): a distance walked
        had = any(w in HAVING for w in raw[max(0, first - 1) : last + 1])
        if isinstance(command, CountCommand | PlayerCountCommand) and command.face is None and after != UNREADABLE and self._foreign(after) and had:
            return "objeto"  # "el beto tiene tres vacas": things had, not dice counted
        verb_alone = raw[last] in HAVING and all(self._passed_over(w) or w in lex.address_words for w in raw[first:last])
        had_next = after or (raw[last + 1] if last + 1 < len(raw) else "")  # (a word nobody heard too: "vecino, tiene [unk] [unk]")
        if _answer(command) and verb_alone and had_next and self._foreign(had_next):
            return "objeto"  # "literal tengo tilt", "tengo [unk]": something had, no yes ("sí, tenía" answers)
        if isinstance(command, BidCommand) and after in REPORTED:
            return "verbo"  # "ocho tontos dijo el loco ese": somebody's bid told, not made
        if counted and (self._verb(after, VERB_ENDINGS, listed=True) or self._verb(before, INFINITIVE_ENDINGS)):
            return "verbo"
        people = isinstance(command, BidCommand) and command.face in PEOPLE_FACES
        if people and after in lex.clitics and self._foreign(then) and then.endswith(DONE_BY_THEM):
            return "verbo"  # "tres tontos me pagaron el all in": people who did something, no bid
        if counted and after == "que" and self._foreign(then) and (then.endswith(("n", "ar", "er", "ir")) or then in lex.verb_forms):
            return "verbo"  # "hay dos tontos que siguen sin pagar" (not "son tres nomás, qué vergüenza")
        had_before = before in lex.determiners and lex.canonical(two_before) in lex.hand_joins["antes"] and two_before not in lex.closed
        if isinstance(command, BidCommand) and ((lex.canonical(before) in lex.hand_joins["antes"] and before not in lex.closed) or had_before):
            return "mano"  # "tengo tres ases", "sí, tenía los dos ases": dice had, not bid
        if isinstance(command, StartCommand) and (after in ("a", "al", "pa", "para") or before in ("se", "me")):
            return "salida"
        if isinstance(command, StartCommand) and any(
            raw[i - 1] in lex.determiners and lex.canonical(raw[i]) == "parte" for i in range(max(1, first), last + 1)
        ):
            return "objeto"  # "beto, pásame la sal": "la sal" is a thing, no "sal" (start)
        if isinstance(command, QueryCommand) and raw[last] in ("dados", "palos") and (after == UNREADABLE or self._verb(after, VERB_ENDINGS, listed=True)):
            return "objeto"  # "¿cuántos dados [unk]?", "¿cuántos dados compraste?": a question about something else
        return None

    def _purpose(self, command: Command, after: str, then: str) -> bool:
        """Is what follows a bid, a doubt or a calzo what it is made for: "tres trenes pa
        arrancar", "calzo pa recuperar mi dadito", "cinco sambas pa alegrar la mesa"? Not
        after another call, whose word has other senses ("paso pa buscarte", "mato pa comer")."""
        made = isinstance(command, BidCommand) or (isinstance(command, CallCommand) and command.call in ("dudo", "calzo"))
        return made and after in ("pa", "para") and self._infinitive(then) and self._kind(then) != "juego"  # "dos ases pa bajarla"

    def _in_set_phrases(self, raw: list[str]) -> set[int]:
        """Where the line says a filler phrase, looked past around a move ("la dura", "se me cortó")."""
        return {i for at, size in _phrases_at(raw, self._fillers_by_first) for i in range(at, at + size)}

    def _passed_over(self, word: str) -> bool:
        """A filler, looked past when reading what is around a move ("calzo, justo, con la mesa")."""
        lex = self.lexicon
        return word in lex.filler_words or self.drawn_out(word)

    def _object(self, word: str) -> bool:
        """Can ``word``, after an article, be the object of a move's word without being a word
        of the game ("el trago", "la reserva", "el [unk]"; not "la apuesta", "esa jugada", "la carla")?"""
        if word == UNREADABLE:
            return True
        return bool(word) and word.isalpha() and not self._is_name(word) and self._kind(word) in ("palabra", "verbo", "ruido") and word not in self._frame_words

    def _foreign(self, word: str) -> bool:
        """A word of Spanish (or unknown) that is no word of the game, no filler, no name: "trago",
        "mosquito"; or a word the recognizer heard outside its grammar (``[unk]``), which no word of
        the game is ("mata ese [unk]", "paso a [unk]")."""
        return word == UNREADABLE or (self._is_thing(word) and not self._is_name(word))

    def _verb(self, word: str, endings: tuple[str, ...], listed: bool = False) -> bool:
        """A verb form the lexicon does not know, by one of these endings ("caminando",
        "tomar", "pasaron"), or ``listed`` a common one ("caminé", "tuve"; not one ending in
        "a", as often an adjective: "me la juego entera")."""
        if not self._foreign(word):
            return False
        return (len(word) > 4 and word.endswith(endings)) or (listed and word in self.lexicon.verb_forms and not word.endswith(("a", "as")))

    def _needs_the_moment(self, command: Command, around: list[str]) -> bool:
        """A bare number ("uno más y me voy", "había cuatro pues perdió el joven"), a yes
        or a no ("no sé si pasar") or a way round without a player ("mi abuelo partía por la
        derecha") read among other words is taken only when the game expects it now: a
        count after the reveal, an answer to a question, who starts."""
        bare = isinstance(command, RaiseCommand) or (isinstance(command, CountCommand) and command.face is None)
        answer = _answer(command)
        way = isinstance(command, StartCommand) and command.player is None  # "por la derecha se llega antes"
        if isinstance(command, SimpleCommand) and command.action in ("otra", "terminar", "ayuda"):
            # "sírvanme otra", "otra chela por favor"; "ayuda [unk]" (help hurts nobody)
            harmless = ("suave", "ruido") if command.action == "ayuda" else ("suave",)
            return any(kind not in harmless for kind in around)
        if answer and around.count("ruido") >= UNHEARD_AROUND_AN_ANSWER:
            return True  # "ya, [unk] [unk]", "jawohl [unk] [unk]": a word of assent among talk nobody heard answers only a question
        return (bare or answer or way) and any(kind in ("palabra", "verbo", "juego") for kind in around)

    def _infinitive(self, word: str) -> bool:
        """An infinitive, perhaps with its pronoun written on: "pensar", "pensarlo"."""
        bare = next((word[: -len(p)] for p in self.lexicon.enclitics if word.endswith(p) and len(word) > len(p) + 3), word)
        return len(bare) > 3 and bare.endswith(INFINITIVE_ENDINGS)

    def _kind(self, word: str) -> str:
        """What a word left around a move weighs: "juego" (a number, a face, a call, a
        name: a move of its own), "suave" (a filler, a small word), "verbo" (a verb form:
        a clause of its own), "palabra" (another word the lexicon or Spanish knows),
        "ruido" (``[unk]``, a word nobody knows)."""
        if word.isdigit():
            return "juego"
        if word not in self._kinds:
            lex = self.lexicon
            read = [lex.canonical(w) for w in self._variant(word)] if word.isalpha() else []
            if not read:
                kind = "ruido"
            elif any(w in self._game_words or w in self._names for w in read):
                kind = "juego"
            elif all(w in self._soft_words for w in read):
                kind = "suave"
            elif word in lex.families or word in lex.tail_verbs or word in lex.verb_forms or any(w in lex.verb_forms for w in read):
                kind = "verbo"  # another verb: a clause of its own ("tengo sed", "se fue a dormir")
            elif all(w in self._known or w in lex.common for w in read):
                kind = "palabra"
            else:
                kind = "ruido"
            self._kinds[word] = kind
        return self._kinds[word]

    def _may_start(self, word: str) -> bool:
        """Can a loose move begin with this word (read as the lexicon reads it)? Never a
        small word ("de obligar cerrado": the "de" makes it a thing) nor one that denies
        ("no jugamos con calzo")."""
        lex = self.lexicon
        if (word in lex.closed or word in lex.negators or word in self._soft_words) and word not in lex.faces:
            return False
        return any(w in self._starts or w in self._names or w.isdigit() for w in self._read_word(word))

    def _may_end(self, word: str) -> bool:
        """Can a loose move end with this word? Never a small word ("la siciliana en…"), nor
        a word that only frames a move ("catorce senas y me voy | al baño")."""
        if (word in self.lexicon.closed or word in self._soft_words) and word not in self.lexicon.faces:
            return False
        return any(w in self._ends or w in self._names or w.isdigit() for w in self._read_word(word))

    def _read_word(self, word: str) -> list[str]:
        return [self.lexicon.canonical(w) for w in self._variant(word)] if word.isalpha() else [word]

    def _called_after(self, raw: list[str], last: int) -> bool:
        """Is a call said right after ``raw[last]`` (fillers passed over), in the first person ("… dudo", "… lo calzo")?"""
        rest = [w for w in raw[last + 1 :] if not self._passed_over(w) and w not in self.lexicon.clitics]
        return bool(rest) and rest[0] in FIRST_PERSON_CALLS

    def _said_last(self, raw: list[str], command: Command, first: int, last: int) -> bool:
        """Is ``command`` "dudo" or "calzo" said last, in the first person, after its reason: disbelief
        ("no", "ni", "mentira": "ocho trenes no hay ni en osorno, dudo") or sureness ("están justas…
        calzo"), with nothing after it but fillers and the table spoken to?"""
        if not (isinstance(command, CallCommand) and command.call in ("dudo", "calzo") and raw[last] in FIRST_PERSON_CALLS):
            return False
        reasons = REASONS["dudo" if command.call == "dudo" else "calzo"]
        if not any(w in reasons for w in raw[:first]):
            return False
        return all(self._passed_over(w) or w in self.lexicon.address_words for w in raw[last + 1 :])

    def _bids_said_before(self, raw: list[str], first: int, command: Command) -> set[int]:
        """Where the whole bids said before a loose bid are, when words stand between: the
        bid the player answers or corrects, not one that competes with the move ("la carla
        dijo cinco trenes y yo le subo a seis trenes", "ocho cuadras, pérate, siete cuadras",
        "cuatro quinas, eh, cinco quinas mejor"; not "ocho quinas ocho trenes")."""
        if not isinstance(command, BidCommand):
            return set()
        found: set[int] = set()
        for i in range(first):
            for value, size in self._numbers_at(raw, i):
                k = i + size
                if value and k < first - 1 and raw[k] in self.lexicon.faces:
                    found |= set(range(i, k + 1))
        return found

    def _around(
        self, raw: list[str], first: int, last: int, cues: list[Cue], command: Command, start: int = 0, end: int = MAX_WORDS,
        said_before: set[int] | None = None,
    ) -> list[str]:
        """The words said around a loose move that could be a move of their own: not those
        inside a cue ("quince senas, y el que duda paga": that "duda" is no call), nor, for a
        call, the bid said right before it ("doce senas, dudo": the bid it calls)."""
        covered = {i for c in cues for i in range(c.start, c.end)} | set(range(start)) | set(range(end + 1, len(raw))) | (said_before or set())
        start = first
        if isinstance(command, CallCommand):
            k = start
            while k > 0 and self._passed_over(raw[k - 1]):
                k -= 1
            if k > 1 and raw[k - 1] in self.lexicon.faces and any(True for _ in self._numbers_at(raw, k - 2)):
                start = k - 2  # a number and a face: the bid called
        lex = self.lexicon
        # a call denied is no move of its own: "no voy a dudar nada, subo a nueve cuadras"
        denied = {
            i for i in range(len(raw))
            if any(w in CALL_HEADS for w in self._read_word(raw[i])) and any(raw[j] in lex.negators for j in range(max(0, i - NEGATION_REACH), i))
        }
        return [raw[i] for i in range(len(raw)) if (i < start or i > last) and i not in covered | denied]

    def _competes(self, command: Command, around: list[str], right_after: bool = False) -> bool:
        """Is another move said around this one: a number, a face or a call it does not hold?"""
        lex = self.lexicon
        values = {getattr(command, a, None) for a in ("quantity", "face", "call", "action")}
        # a doubt or a calzo gives its reasons in numbers and faces: "ocho trenes no hay ni en osorno, dudo"
        # and a paso in the hand it claims: "paso paso, tengo los cinco iguales"
        reasons = isinstance(command, CallCommand) and command.call in ("dudo", "calzo", "paso") and not right_after
        for i, word in enumerate(around):
            read = self._read_word(word)
            number = next(self._numbers_at(around, i), None)
            article = word in ARTICLE_ONE and not (i + 1 < len(around) and around[i + 1] in lex.faces)  # "un poquito", "una cosa"
            if not (reasons or article) and (
                (number is not None and number[0] not in values and number[0] != 0) or any(w in lex.faces and lex.faces[w] not in values for w in read)
            ):
                return True
            if any(w in CALL_HEADS and w not in values for w in read):
                return True
            if any(w in OTHER_INTENTS and w != command.action for w in read):
                return True  # "retiramos… pasamos": two things asked for at once
        return False

    def _read(self, raw: list[str], halves: bool = True) -> list[Reading]:
        if not raw:
            return []
        key = (tuple(raw), halves)
        cached = self._read_cache.get(key)
        if cached is None:
            if len(self._read_cache) >= self._cache_size:
                self._read_cache.clear()
            cached = self._read_cache[key] = tuple(self._read_afresh(raw, halves))
        return list(cached)

    def _read_afresh(self, raw: list[str], halves: bool) -> list[Reading]:
        another = self._another_with(raw)
        if another is not None:
            return [Reading(another)]
        found: dict[Command, tuple[float, int, int, Reading]] = {}
        for view, how in self._views(raw):
            rank = 0
            for reading in self._readings_of(view, how):
                if reading.how != "contexto":
                    rank = RANKS.get(reading.how, len(RANKS))  # a reading in context ranks with the one it comes from
                key = (-reading.explained, rank, len(found), reading)
                if reading.command not in found or key[:2] < found[reading.command][:2]:
                    found[reading.command] = key
        readings = [r for *_key, r in sorted(found.values(), key=lambda item: item[:3])]
        if halves and all(r.weak or r.explained < 1.0 for r in readings) and 2 <= len(raw) <= HALVES_MAX:
            twice = self._said_twice(raw)
            if twice is not None:  # explains the whole line: before any reading of part of it
                readings = [Reading(twice, 1.0, how="repetición"), *(r for r in readings if r.command != twice)]
        return readings

    def _said_twice(self, raw: list[str]) -> Command | None:
        """One move said twice in other words: "no te creo, dudo", "mentira, la dudo"."""
        for k in range(1, len(raw)):
            first = self._whole_reading(raw[:k])
            if first is not None and first == self._whole_reading(raw[k:]):
                return first
        return None

    def _whole_reading(self, raw: list[str]) -> Command | None:
        best = next((r for r in self._read(raw, halves=False) if not r.weak), None)
        return best.command if best is not None and best.explained == 1.0 and best.how != "contexto" else None

    def clean(self, text: str) -> list[str]:
        """Tokens without fillers, vocatives or articles, families read, near misses snapped."""
        return self._drop_fillers(self._drop_vocative_and_articles(self._words(self.lexicon.said(text))))

    # ----------------------------------------------------------------- words

    def _words(self, raw: list[str]) -> list[str]:
        """The line's words read as the lexicon knows them: set phrases, misheard
        words, spelling variants, pronouns written onto a verb, near misses; each
        family form as the word that heads it ("partimos" -> "parte")."""
        lex = self.lexicon
        words = _replace_phrases(raw, self._locutions)
        out: list[str] = []
        for w in words:
            out += [lex.canonical(x) for x in self._variant(w)]
        return out

    def _variant(self, word: str) -> list[str]:
        lex = self.lexicon
        if word in lex.misheard:
            return list(lex.misheard[word])
        if word in self._known or not word.isalpha():
            return [word]
        if sounds(word) in self._name_words:
            return [self._name_words[sounds(word)]]  # "veto", "karla", "pavlo": a name as a recognizer spells it
        for end, full in lex.dropped_d:
            if word.endswith(end) and word[: -len(end)] + full in self._known:
                return [word[: -len(end)] + full]
        if _HELD.search(word) and _squeeze(word) in self._known:
            return [_squeeze(word)]  # "dudoooo", "calzooo": a word held long, not a new one
        if len(word) > 2 and word[-1] == word[-2] and word[-1] in "aeiou" and word[:-1] in self._known and (len(word) == 3 or word not in lex.common):
            return [word[:-1]]  # "sii", "yaa", "noo", "dudoo": its last vowel held, written twice
        single = _DOUBLED_VOWEL.sub(r"\1", word)
        if single != word and single in self._known and word not in lex.common:
            return [single]  # "uuy", "nooo ya": a vowel held, written twice inside the word too
        if "ñ" in word and word.replace("ñ", "n") in lex.faces:
            return [word.replace("ñ", "n")]
        for end, full in lex.diminutives:
            if word.endswith(end) and len(word) > len(end) + 1:
                stem = word[: -len(end)]
                # "quinitas" -> "quinas", "trencitos" -> "trenes", "asitos" -> "ases", "ascito" -> "as";
                # a number or a palo said small too: "unos cuatrito", "tresito ases", "un palito pa la eli";
                # and a player's name: "parte la anita", "dieguito, dudo", "juancito"
                for base in (stem + full, stem + "es" if end.endswith("s") else stem, stem, _hard_c(stem) + full):
                    if base in self._small or base in self._names:
                        return [base]
        enclitic = self._enclitic(word)
        if enclitic is not None:
            return enclitic
        if any(word.endswith(p) and word[: -len(p)] in lex.families for p in lex.enclitics):
            return [word]  # "mátalo", "pásame": a verb said to someone, never snapped to a call
        face = self._face_sounds.get(_sound_key(word))
        if face is not None:
            return [face]  # "señas", "haces", "cestas": a face heard as a word that sounds the same
        heard = self.spelled_by_ear(word)
        if heard is not None:
            return [heard]  # "dies", "onze", "calso", "pazo": typed by ear
        if word + "s" in self._small:
            return [word + "s"]  # "tre quina", "ya pue do bala", "sei trene": a final s breathed out, as the Caribbean and the east of Bolivia say it
        if len(word) > 2 and word.endswith("h") and word[:-1] + "s" in self._known:
            return [word[:-1] + "s"]  # "seih senah", "doh ase": the breathed-out s written as it sounds, an h
        trilled = self._trilled(word)
        if trilled is not None:
            return [trilled]  # "cuatlo tlen", "izquielda", "celado", "tenel": an r said as l, by a Chinese shopkeeper or in the Caribbean
        return [self._snap(word)]

    def _trilled(self, word: str) -> str | None:
        """The lexicon word that ``word`` is with its l said for an r, if it is no Spanish
        word itself ("pelo", "abril" stay): every l, then each one, then as a double r
        ("celado" -> "cerrado")."""
        if "l" not in word or self._common(word) or len(word) < 3:
            return None
        spots = [i for i, c in enumerate(word) if c == "l"]
        tries = [word.replace("l", "r"), *(word[:i] + "r" + word[i + 1 :] for i in spots), *(word[:i] + "rr" + word[i + 1 :] for i in spots)]
        return next((w for w in tries if w in self._known), None)

    @cached_property
    def _small(self) -> frozenset[str]:
        """Words said small ("-ito", "-cito"): the faces, the numbers that are one word, and
        what a castigo gives ("palito")."""
        lex = self.lexicon
        return frozenset(lex.faces) | {w for w in lex.numbers if len(w) > 2} | lex.frame_keys.get("castigo", frozenset())

    def spelled_by_ear(self, word: str) -> str | None:
        """The lexicon word ``word`` is a spelling by ear of ("dies" -> "diez"), if any."""
        if word in self._known or len(word) < 4 or sounds(word) in self._name_words:
            return None  # a name as a recognizer spells it ("veto", "karla") is read as the name
        return self._by_ear.get(by_ear(word))

    @cached_property
    def _by_ear(self) -> dict[str, str]:
        """Words typed as they sound ("dies", "onze", "calso"), by the one lexicon word
        spelled so; built at the first word the lexicon does not know."""
        spelled: dict[str, set[str]] = {}
        for w in self._vocabulary:
            spelled.setdefault(by_ear(w), set()).add(w)
        return {key: next(iter(words)) for key, words in spelled.items() if len(words) == 1}

    def _enclitic(self, word: str) -> list[str] | None:
        """"olvídalo" -> ["olvida", "lo"]: a verb of a family said so, with its pronoun written on."""
        lex = self.lexicon
        for pronoun in lex.enclitics:
            if word.endswith(pronoun) and len(word) > len(pronoun) + 2:
                stem = word[: -len(pronoun)]
                if lex.families.get(stem) in lex.enclitic:
                    return [stem, *_split_pronouns(pronoun, lex.clitics)]
        return None

    def _snap(self, word: str) -> str:
        if word in self._known or self._common(word) or not word.isalpha() or len(word) < 3:
            return word
        cutoff = NEAR_MISS_CUTOFF if len(word) >= 5 else SHORT_NEAR_MISS_CUTOFF
        found = process.extractOne(word, self._vocabulary, scorer=fuzz.ratio, score_cutoff=cutoff)
        return str(found[0]) if found else word

    def _common(self, word: str) -> bool:
        """Is ``word`` a common Spanish word, the plural of one ("piscos", "empanadas") or a
        regular form of a common verb ("descargamos")? A common word is never snapped onto a
        word of the game ("dos piscos" is no "pico")."""
        common = self.lexicon.common
        if word in common or (word.endswith("s") and (word[:-1] in common or (word.endswith("es") and word[:-2] in common))):
            return True
        return any(
            word.endswith(ending) and len(word) - len(ending) >= 3 and word[: -len(ending)] + infinitive in common
            for infinitive, endings in REGULAR_ENDINGS.items() for ending in endings
        )

    # ----------------------------------------------------------------- views

    def _views(self, raw: list[str]) -> list[tuple[list[str], str]]:
        """The line as said, then with what carries nothing taken out, each once."""
        said = self._words(raw)
        named = self._drop_vocative_and_articles(said)
        plain = self._drop_fillers(named)
        addressed = self._drop_address(named)
        views: list[tuple[list[str], str]] = [(said, "frase"), (named, "frase"), (addressed, "frase"), (plain, "frase")]
        collapsed = _collapse(plain, self.lexicon.sum_words, self.lexicon.faces)
        views.append((collapsed, "repetición"))
        counted, recounted = self._after_counting(plain)
        if recounted and counted is not None:
            # the last die counted said again is the total: "uno, dos, tres, cuatro, cinco… cinco" (no hand of 1-5)
            views.insert(0, (counted, "frase"))
        for words in (plain, collapsed, *([counted] if counted else [])):
            rest = self._after_hesitation(words)
            if rest is not None:
                views.append((rest, "titubeo"))
        if counted:
            views.append((counted, "titubeo"))
        seen: set[tuple[str, ...]] = set()
        unique = []
        for words, how in views:
            if words and tuple(words) not in seen:
                seen.add(tuple(words))
                unique.append((words, how))
        return unique

    def _after_counting(self, words: list[str]) -> tuple[list[str] | None, bool]:
        """The line less the dice counted aloud one by one ("uno, dos, tres, cuatro, cinco: ya, cinco
        senas"; "el beto: uno, dos, tres, tiene tres"), when a number is said after the counting:
        the counting is how the player got there, the number after it what is said. None when
        there is no such counting (from one, at least to three). And whether what is said after
        it is only the last number counted, said again: a total ("…cuatro, cinco, cinco")."""
        for start in range(len(words)):
            if next((v for v, _ in self._numbers_at(words, start)), None) == 1:
                break
        else:
            return None, False
        i, expect = start, 1
        while i < len(words):
            size = next((n for v, n in self._numbers_at(words, i) if v == expect), 0)
            if not size:
                break
            i, expect = i + size, expect + 1
        rest = words[i:]
        if expect <= COUNTED_ALOUD or not any(next(self._numbers_at(rest, k), None) for k in range(len(rest))):
            return None, False
        again = next(self._numbers_at(rest, 0), None)
        return words[:start] + rest, start == 0 and again is not None and again == (expect - 1, len(rest))

    def _drop_fillers(self, words: list[str]) -> list[str]:
        """Fillers anywhere, then the table spoken to at the ends they leave ("seis trenes, cabros, po")."""
        while True:  # one pass drops what it finds, longest first; another, what that joined
            shorter = _drop_phrases(words, self._fillers_by_first)
            if shorter == words:
                break
            words = shorter
        return self._drop_address([w for w in words if w not in self.lexicon.filler_words and not self.drawn_out(w)])

    def _drop_address(self, words: list[str]) -> list[str]:
        """The table spoken to at either end of the line: "dale, cabros", "señores,
        dudo". Never after a number or a closed-class word: "hay cinco cabros"
        counts people, "obligo a mi hermano" is chatter."""
        address = self.lexicon.address_words
        start, end = 0, len(words)
        while start < end and words[start] in address:
            start += 1
        while end > start and words[end - 1] in address:
            if self._talked_about(words, end - 1):
                break  # "obligo a mi hermano", "hay cinco cabros": the word is what is talked about
            end -= 1
        # and inside the move, after a word of the game: "picado, abuelito, tengo dos unos", "fran parte, mijita, por la derecha"
        inner = [i for i in range(start + 1, end - 1) if words[i] in address and not self._talked_about(words, i)
                 and (words[i - 1] in CALL_HEADS or self._kind(words[i - 1]) == "juego")]
        return [w for i, w in enumerate(words[start:end], start) if i not in inner]

    def _talked_about(self, words: list[str], i: int) -> bool:
        """Is the address word at ``words[i]`` what is talked about, after a small word or a number?"""
        before = words[i - 1] if i >= 1 else ""
        if before == "yo" or (before == "mi" and words[i] in REFEREE_CALLED):
            return False  # "empiezo yo, vecino": the one who speaks, then the one spoken to ("¿me toca a mí, árbitro?", "mi árbitro")
        return before in self.lexicon.closed or (bool(before) and any(True for _ in self._numbers_at(words, i - 1)))

    def drawn_out(self, word: str) -> bool:
        """A filler said long: "eeeh", "mmmm", "yaaa", "pooo" (not a word of its own)."""
        squeezed = _squeeze(word)
        return squeezed != word and squeezed in self._squeezed_fillers and (word not in self.lexicon.common or _INTERJECTION.match(word) is not None)

    def _drop_vocative_and_articles(self, words: list[str]) -> list[str]:
        """"oye beto, cinco quinas" -> "cinco quinas"; "la carla no tiene" -> "carla no tiene"."""
        lex = self.lexicon
        if len(words) > 2 and words[0] in lex.vocatives:
            named = next(self._find_player(words, 1), None)
            if named is not None:
                words = words[1 + named[1] :]
        out: list[str] = []
        for i, w in enumerate(words):
            if w in lex.articles:
                j = i + 1
                while j < len(words) and words[j] in lex.articles:
                    j += 1  # a title after the article: "la señora ana", "el don beto"
                if j < len(words) and next(self._find_player(words, j), None) is not None:
                    continue
            out.append(w)
        return out

    def _after_hesitation(self, words: list[str]) -> list[str] | None:
        """"no no cuatro trenes", "perdón quise decir cuatro trenes": the move after
        an opening hesitation. A "no" right before a call's verb denies the call
        ("no lo dudo", "no, no paso"): then there is no such view."""
        lex = self.lexicon
        i = 0
        last = ""
        while i < len(words) - 1:  # the last word is the move: "creo que no"
            size = _phrase_at(words, i, self._hesitations)
            if size:
                i, last = i + size, "frase"
            elif words[i] in lex.hesitation_words:
                i, last = i + 1, words[i]
            else:
                break
        if i == 0 or i >= len(words):
            return None
        rest = words[i:]
        if last == "deshacer" and rest[0] in UNDONE:
            return None  # "wait, borra eso": what is undone, no yes after a hesitation
        if last == "no":
            k = 0
            while k < len(rest) and rest[k] in lex.clitics:
                k += 1
            if k < len(rest) and (rest[k] in CALL_HEADS or rest[k] in lex.hand_joins["antes"] - lex.closed):
                return None  # "no lo dudo", "no, no tenía full" (a hand claimed: "tenía", "es"): denied, not said
        return rest

    # ----------------------------------------------------------------- readings

    def _readings_of(self, words: list[str], how: str) -> Iterator[Reading]:
        hour = self._hour(words)
        # the hour is the only number said: "el tren de las ocho" is no bid of eight
        only_hour = hour is not None and sum(1 for i in range(len(words)) if next(self._numbers_at(words, i), None)) == 1
        reflexive = self._reflexive(words)
        for reading in self._whole(words, how):
            if hour is not None and (not _names_a_face(reading.command) or (only_hour and getattr(reading.command, "quantity", None) is not None)):
                continue  # "me voy a las once", "son las dos": an hour, not a count
            if reflexive and isinstance(reading.command, CallCommand | ObligoCommand):
                continue  # "se mató", "me calzo": about oneself, not a call
            yield reading
            yield from self._in_context(reading)
        if hour is None:
            yield from self._weak(words)

    def _whole(self, words: list[str], how: str) -> Iterator[Reading]:
        """Readings that explain all of ``words``, then those that drop a tail."""
        for command in self._templates(words):
            yield Reading(command, 1.0, how=how)
        for command in self._framed(words):
            yield Reading(command, 1.0, how="marco" if how == "frase" else how)
        total = self._sum(words)
        if total is not None:
            yield Reading(total, 1.0, how="suma")
        corrected = self._corrected(words)
        if corrected is not None:
            yield Reading(corrected, 1.0, how="corrección")
        yield from self._tailed(words)
        yield from self._led(words)

    def _in_context(self, reading: Reading) -> Iterator[Reading]:
        """What else the same words say in another moment of the game: a named
        player's bid is that player's count after a reveal ("ana dos trenes")."""
        command = reading.command
        if isinstance(command, BidCommand) and command.player is not None and command.face != "estas":
            count = PlayerCountCommand(command.player, command.quantity, face=command.face)
            yield Reading(count, reading.explained, how="contexto", lead=reading.lead, tail=reading.tail)

    def _weak(self, words: list[str]) -> Iterator[Reading]:
        """Readings only the game can confirm, while hands are being told: a named
        player's one-die hand ("carla quina", "carla tiene quina"), and a hand of
        fewer than five dice said as had, by its owner or of a named player ("tengo
        tres ases", "beto tiene un par de quinas"): out of a count, chatter."""
        # who has them and where, said before; that they are all, after: "yo tenía dos trenes y un as",
        # "acá tengo dos tontos y dos trenes", "tengo un as solo"
        placed = False
        while words and words[0] in HAND_LEADS:
            placed = placed or words[0] in ("aqui", "aca")
            words = words[1:]
        said_after = False
        while words and (words[-1] in HAND_TAILS or tuple(words[-2:]) in HAND_OWNED_AFTER):
            said_after = said_after or words[-1] not in HAND_TAILS
            alone = words[-1] in HAND_TAILS and len(words) > 2 and words[-2] in ONE_DIE  # "…una quina, una sola"
            words = words[:-2] if alone or words[-1] not in HAND_TAILS else words[:-1]
        # one die said alone before its face: "tengo una sola quina", "yo tengo un puro as"
        faces = self.lexicon.faces
        words = [w for i, w in enumerate(words) if not (w in ALONE_BEFORE and 0 < i < len(words) - 1 and words[i - 1] in ONE_DIE and words[i + 1] in faces)]
        if not words:
            return
        player, used = next(self._find_player(words, 0), (None, 0))
        rest = words[used:]
        owned = bool(rest) and rest[0] in self.lexicon.hand_joins["antes"]
        owner = next((len(lead) for lead in HAND_OWNED if tuple(rest[: len(lead)]) == lead), 0) if player is None else 0
        if owned:
            rest = rest[1:]
        elif owner:  # "mis dados son tres ases y una cuadra", "me quedan dos trenes"
            owned, rest = True, rest[owner:]
        elif said_after and player is None:  # "un tonto solito me queda"
            owned = True
        elif placed and player is None and rest[:1] == ["hay"]:  # "aquí hay una cuadra, una quina y un as"
            owned, rest = True, rest[1:]
        if owned and len(rest) > 2 and rest[1] in ("dados", "dado") and next(self._numbers_at(rest, 0), None) is not None:
            rest = rest[2:]  # "me quedan dos dados, un as y una cuadra": how many first, then which
        elif owned:
            rest = self._told_after_how_many(rest)
        if player is not None and len(rest) == 1 and rest[0] in self.lexicon.faces:
            yield Reading(HandCommand((self.lexicon.faces[rest[0]],), player), 1.0, weak=True, how="contexto")
        elif rest and owned:  # "ana dos trenes" is her count: a hand is had ("tengo", "beto tiene")
            hand = self._hand_in_poker_words(rest, owned=True, partial=True)
            if hand is not None and len(hand.faces) < HAND:
                yield Reading(dataclasses.replace(hand, player=player), 1.0, weak=True, how="contexto")

    def _told_after_how_many(self, rest: list[str]) -> list[str]:
        """The dice of a hand told after how many they are, when they are that many: "me quedan dos,
        una sena y un tonto", "me quedan tres y son tres senas" (``rest`` as it was otherwise: "me
        quedan dos trenes" is two trains)."""
        number = next(self._numbers_at(rest, 0), None) if rest else None
        if number is None or number[1] >= len(rest):
            return rest
        if rest[number[1]] in self.lexicon.faces:
            # the dice named one by one, as many as said: "me quedan tres: quina, quina, sena" (not "tres quinas")
            named = [w for w in rest[number[1] :] if w not in ("y", "e")]
            one_each = all(w in self.lexicon.faces and (w == "as" or not w.endswith("s")) for w in named)
            return rest[number[1] :] if one_each and len(named) == number[0] > 1 else rest
        told = rest[number[1] :]
        while told and told[0] in ("y", "son"):
            told = told[1:]
        hand = self._hand_in_poker_words(told, owned=True, partial=True) if told else None
        return told if hand is not None and len(hand.faces) == number[0] else rest

    def _all_one_has(self, words: list[str]) -> bool:
        """Do these words say a hand is all one has: "solo", "nomás", "no más", "me queda"?"""
        pairs = set(pairwise(words))
        return any(w in HAND_TAILS for w in words) or ("no", "mas") in pairs or bool(pairs & HAND_OWNED_AFTER)

    def _reflexive(self, words: list[str]) -> bool:
        """A call's verb right after "se" or "me" ("se picó", "me calzo"), but "me paso"."""
        lex = self.lexicon
        return any(
            a in lex.reflexive and b in CALL_HEADS and (a, b) not in lex.reflexive_calls for a, b in pairwise(words)
        )

    def _hour(self, words: list[str]) -> int | None:
        """An article right before a number with no face after it: "a las once" (the hour)."""
        lex = self.lexicon
        for i in range(len(words) - 1):
            if words[i] in lex.hour_articles:
                for value, used in self._numbers_at(words, i + 1):
                    after = i + 1 + used
                    if after >= len(words) or (words[after] not in lex.faces and words[after] not in lex.hand_joins["de"]):
                        return value
        return None

    def _templates(self, words: list[str]) -> Iterator[Command]:
        """``_templated``, each word list worked out once: a line is read whole, less its
        tail, less its lead and in stretches, so the same words come back often."""
        return iter(self._remembered(("plantilla", *words), self._templated, words))

    def _framed(self, words: list[str]) -> Iterator[Command]:
        """``_frames_read``, each word list worked out once (see ``_templates``)."""
        return iter(self._remembered(("marco", *words), self._frames_read, words))

    def _remembered(self, key: tuple[str, ...], work: Callable[[list[str]], Iterator[Command]], words: list[str]) -> tuple[Command, ...]:
        """All that ``work`` makes of ``words``, worked out whole the first time ``key`` is asked for."""
        found = self._commands.get(key)
        if found is None:
            if len(self._commands) >= 4 * CACHE_SIZE:
                self._commands.clear()
            found = self._commands[key] = tuple(work(words))
        return found

    def _templated(self, words: list[str]) -> Iterator[Command]:
        """Every phrase template (or per-player count, or hand by kind) that covers
        every word, the first command of each intent."""
        if not words:
            return
        multi = self._player_counts(words)
        if multi is not None:
            yield multi
        hand = self._hand_by_kind(words)
        if hand is not None:
            yield hand
        fits = frozenset(slot for slot in SLOTS if self._slot_fits_first(slot, words))
        head = (words[0], fits, len(words))
        candidates = self._templates_by_head.get(head)
        if candidates is None:
            fitting = self._slot_first_fitting.get(fits)
            if fitting is None:
                fitting = self._slot_first_fitting[fits] = [c for c in self._slot_first if c[1][0] in fits]
            if len(self._templates_by_head) >= 4 * CACHE_SIZE:
                self._templates_by_head.clear()
            candidates = self._templates_by_head[head] = self._sized(self._by_first.get(words[0], []) + fitting, len(words))
        done: set[str] = set()
        present = frozenset(words)
        for intent, seq, plain in candidates:
            if intent in done or not plain <= present:
                continue  # (``_may_cover``)
            for slots in self._match(seq, 0, words, 0, _Slots()):
                command = self._build(intent, slots, seq)
                if command is not None:
                    done.add(intent)
                    yield command
                    break

    def _frames_read(self, words: list[str]) -> Iterator[Command]:
        """Each intent with its frame words (and the closed classes) skipped, in the lexicon's order."""
        lex = self.lexicon
        # the "y" of a number said in two words stays: "no cabían treinta y cuatro" is no bid of thirty fours
        joined = {
            i for i in range(1, len(words) - 1)
            if words[i] == lex.connector and words[i - 1] in lex.tens and lex.numbers.get(words[i + 1], 10) < 10
        }
        heads: dict[tuple[str, tuple[str, ...]], bool] = {}
        """``_slot_fits_first`` by slot and the first words of a core: many frames leave the same core."""
        said = set(words)
        for key, frame in self._frames.items():
            if key not in CALLS and frame.isdisjoint(said):
                continue  # none of its frame words said: what is left is the line itself, read whole elsewhere
            core = [w for i, w in enumerate(words) if w not in frame or i in joined]
            restated: tuple[int, int] | None = None
            if key in CALLS:
                if key in words and self._called_before(words, words.index(key), key):
                    continue  # "paso, y que dude quien quiera": the first call said is the move ("te dudo ese paso" doubts a paso)
                core, restated = self._take_bid(core)
            if not core or len(core) == len(words):
                continue
            index = self._frame_templates[key]
            head = tuple(core[:HEAD_WORDS])
            fits = []
            for slot in SLOTS:
                if slot in index:
                    fit = heads.get((slot, head))
                    if fit is None:
                        fit = heads[(slot, head)] = self._slot_fits_first(slot, core)
                    if fit:
                        fits.append(slot)
            present = frozenset(core)
            for intent, seq, plain in self._frame_candidates(key, core[0], tuple(fits), len(core)):
                if not plain <= present:
                    continue  # (``_may_cover``)
                if self._names_only(seq) and not self._says_intent(key, [w for w in words if w in frame]):
                    continue  # "y beto", "dale beto", "que el eli se": a name and small words say no castigo and no start
                command = next((c for s in self._match(seq, 0, core, 0, _Slots()) if (c := self._build(intent, s, seq))), None)
                if isinstance(command, HandCommand) and len(command.faces) < HAND and any((w,) in self.lexicon.hand_kinds for w in words):
                    break  # "full de trenes con quinas" is no hand of two dice: read by its kind or not at all
                if command is not None:
                    if isinstance(command, CallCommand) and restated is not None:
                        command = CallCommand(command.call, command.player, restated)
                    yield command
                    break

    def _frame_candidates(self, key: str, first: str, fits: tuple[str, ...], size: int) -> list[tuple[str, tuple[str, ...], frozenset[str]]]:
        """The frame-stripped templates of ``key`` a core of ``size`` words beginning with ``first``
        (and fitting the slots ``fits``) may match, in the lexicon's order, each with the plain words
        it needs (``_may_cover``)."""
        found = self._candidates_by_head.get((key, first, fits, size))
        if found is None:
            index = self._frame_templates[key]
            candidates = index.get(first, []) + [c for slot in fits for c in index[slot]]
            found = self._sized(sorted(candidates, key=self._template_order.__getitem__), size)
            if len(self._candidates_by_head) >= 4 * CACHE_SIZE:
                self._candidates_by_head.clear()
            self._candidates_by_head[(key, first, fits, size)] = found
        return found

    def _sized(self, candidates: list[tuple[str, tuple[str, ...]]], size: int) -> list[tuple[str, tuple[str, ...], frozenset[str]]]:
        """Of ``candidates``, in their order, those whose slots can take ``size`` words, with their plain words."""
        found = []
        for intent, seq in candidates:
            shape = self._shapes.get(seq)
            if shape is None:
                self._may_cover(seq, [], frozenset())  # (its shape worked out once)
                shape = self._shapes[seq]
            if shape[0] <= size <= shape[1]:
                found.append((intent, seq, shape[2]))
        return found

    def _called_before(self, words: list[str], at: int, key: str) -> bool:
        """Is another call said before ``words[at]``, in a clause of its own ("paso, y que dude")?"""
        first = next((i for i, w in enumerate(words[:at]) if w in CALL_HEADS and w != key), None)
        return first is not None and any(w in CLAUSE_JOINS for w in words[first + 1 : at])

    def _names_only(self, seq: tuple[str, ...]) -> bool:
        """Is a frame-stripped template only a player's name among small words ("{jugador}", "que {jugador}",
        "es {jugador}": "ese café es de la carla" is no palo once "palo" is dropped)?"""
        return "{jugador}" in seq and all(t == "{jugador}" or t in self.lexicon.closed or t == "que" or t in COPULAS or t in AGAIN for t in seq)

    def _says_intent(self, key: str, dropped: list[str]) -> bool:
        """Do the frame words dropped from a line say its intent, when all that is
        left is a player's name ("palo pal beto", "le toca a la ana")? Its key words must
        be among them, or for an intent without any, a word that is no closed class."""
        keys = self.lexicon.frame_keys.get(key)
        if keys is not None:
            return any(w in keys for w in dropped)
        return any(w not in self.lexicon.closed for w in dropped)

    def _tailed(self, words: list[str]) -> Iterator[Reading]:
        """A whole move, then a tail that carries nothing ("doce quinas y listo",
        "once senas pa que vean", "castigo al diego por destapar")."""
        for k in range(len(words) - 1, max(0, len(words) - 1 - TAIL_MAX), -1):
            head, tail = words[:k], words[k:]
            for command in (*self._templates(head), *self._framed(head)):
                if isinstance(command, BidCommand) or (isinstance(command, CallCommand) and command.call == "paso"):
                    handed, to = self._handed_on(tail)
                    if handed:  # the turn handed on, perhaps to a player by name: the bid was said to him ("paso, ana te toca")
                        said_to = dataclasses.replace(command, to=to) if isinstance(command, BidCommand) else command
                        yield Reading(said_to, k / len(words), how="cola", tail=len(tail))
                        continue
                if self._tail_fits(command, tail) or set(tail) <= set(head):  # "cinco quinas, cinco": said again
                    yield Reading(command, k / len(words), how="cola", tail=len(tail))

    def _led(self, words: list[str]) -> Iterator[Reading]:
        """A reason said before a call, in a tail's words: "ná que ver, dudo",
        "eso no se lo cree nadie, dudo", "mentira, no hay tantas". Never when the
        last word before the call denies it ("no lo dudo", "nadie dudó") or the
        reason asks ("¿quién dudó?")."""
        lex = self.lexicon
        if lex.lead_calls.isdisjoint(words[1:]):
            return  # no call to lead to: most lines
        for k in range(1, min(TAIL_MAX, len(words) - 1) + 1):
            lead, rest = words[:k], words[k:]
            if not all(w in self._tail_allowed and w not in lex.questions and w not in CALL_HEADS for w in lead):
                break  # a reason holds no call of its own: "paso, y que dude quien quiera" is a paso
            said = [w for w in lead if w not in lex.clitics]
            if said and said[-1] in lex.negators:
                continue
            for command in (*self._templates(rest), *self._framed(rest)):
                if isinstance(command, CallCommand) and command.call in lex.lead_calls:
                    yield Reading(command, len(rest) / len(words), how="cola", lead=k)
                    break

    def _tail_fits(self, command: Command, tail: list[str]) -> bool:
        lex = self.lexicon
        if isinstance(command, PenaltyCommand):
            return tail[0] == "por"  # the reason for a castigo: "por destapar", "por montado"
        if isinstance(command, CallCommand) and command.call == "paso" and lex.questions.isdisjoint(tail):
            # the hand the passer claims: "paso tengo cinco iguales", "paso porque tengo full"
            # (not a rule explained: "paso es cuando tienes escalera")
            joins = lex.hand_joins
            claim = tuple(w for w in tail if w not in lex.closed and w not in joins["antes"] and w not in joins["reclamo"])
            if claim in lex.hand_kinds:
                return True
            start = next((i for i, w in enumerate(tail) if (w,) in lex.hand_kinds), None)
            if start is not None and self._hand_in_poker_words(tail[start:]) is not None:
                return True  # "paso con full de trenes", "paso, tengo póquer de cuadras y un as"
        if tuple(tail) in RADIO_OVER:
            return True  # a radio's "over" after any line: "cuál es la apuesta, cambio", "negativo, cambio"
        if self._spelled_again(command, tail):
            return True  # the number read again digit by digit, as on a radio: "quince quinas, uno cinco, cambio"
        if tail[0] not in lex.tail_starts:
            return False
        if tail[0] == "no" and len(tail) == 1:
            return False  # "dudo, no": taken back, not a tail ("dudo, no hay tantas" is one)
        if isinstance(command, SimpleCommand | QueryCommand | Unknown):
            return False
        if isinstance(command, CallCommand | ObligoCommand) and any(
            w == "que" and (i == 0 or tail[i - 1] not in ("pa", "para", "tiene", "hay")) for i, w in enumerate(tail)
        ):
            return False  # "dudo que llueva", "dudo mucho que gane": a clause, not a tail ("dudo, pa que vean", "calzo, tienen que estar" are)
        if isinstance(command, RaiseCommand) or (isinstance(command, CountCommand | PlayerCountCommand) and command.face is None):
            # a bare number with a tail is too often something else ("uno más y nos vamos")
            return all(w in lex.filler_words or w in lex.tail_starts for w in tail)
        allowed = self._tail_allowed
        if isinstance(command, BidCommand):
            if tail[-1] in FIRST_PERSON_CALLS and (len(tail) < 2 or (tail[-2] not in ("que", "si") and tail[-2] not in lex.clitics)):
                return False  # "doce quinas, demasiadas, dudo": a call said last is the move, the bid its object
            allowed = allowed | CALL_HEADS  # "nueve trenes y que me duden": the call is the others'
        return all(w in allowed for w in tail)

    def _spelled_again(self, command: Command, tail: list[str]) -> bool:
        """Is ``tail`` the move's number of two digits or more read again digit by digit, perhaps with its
        face and a radio's "over" ("trece tontos, uno tres, trece", "dieciséis senas, uno seis", "doce
        cuadras, uno dos cuadras, cambio")?"""
        lex = self.lexicon
        if not isinstance(command, BidCommand | CountCommand) or command.quantity < 10:
            return False
        rest = list(tail)
        while rest and ((rest[-1],) in RADIO_OVER or (rest[-1] in lex.faces and lex.faces[rest[-1]] == command.face)):
            rest.pop()
        if rest and lex.numbers.get(rest[-1]) == command.quantity:
            rest.pop()  # "trece tontos, uno tres, trece": and the number said whole once more
        digits = [lex.numbers.get(w) for w in rest]
        return len(digits) >= 2 and all(d is not None and d < 10 for d in digits) and "".join(map(str, digits)) == str(command.quantity)

    def _handed_on(self, tail: list[str]) -> tuple[bool, str | None]:
        """Is ``tail`` the turn handed on after a bid, and to whom by name: "te toca",
        "tu turno beto", "dale carla", "le toca a la ana", "para el fran", or the
        name alone, perhaps with the hand-over after it ("nueve cuadras, diego";
        "seis ases, carla, te toca")."""
        handover = self._after_handover(tail)
        rest = tail if handover is None else handover
        while rest and (rest[0] in self.lexicon.articles or rest[0] in self.lexicon.filler_words):
            rest = rest[1:]
        if not rest:
            return handover is not None, None
        found = next(self._find_player(rest, 0), None)
        if found is None:
            return False, None
        after = rest[found[1] :]
        if not after or (handover is None and self._after_handover(after) == []):
            return True, found[0]
        return False, None

    def _after_handover(self, words: list[str]) -> list[str] | None:
        """What follows a hand-over phrase at the start of ``words`` ("te toca", "para"), if one is there."""
        return next((words[len(p) :] for p in self.lexicon.handover if tuple(words[: len(p)]) == p), None)

    def _take_bid(self, words: list[str]) -> tuple[list[str], tuple[int, int] | None]:
        """A call's restated bid ("dudo esas cuatro quinas"), taken out of the words:
        it follows the call ("nueve trenes y que me duden" is a bid, not a dudo)."""
        call = next((i for i, w in enumerate(words) if w in CALL_HEADS), len(words))
        for i in range(call + 1, len(words)):
            for value, used in self._numbers_at(words, i):
                j = i + used
                if j < len(words) and words[j] in self.lexicon.faces:
                    return words[:i] + words[j + 1 :], (value, self.lexicon.faces[words[j]])
        # the bid named by its face alone: "dudo esas quinas", "mato tus trenes", "calzo las cuadras"
        face = next((i for i in range(call + 1, len(words)) if words[i] in self.lexicon.faces), None)
        if face is not None:
            return words[:face] + words[face + 1 :], None
        return words, None

    def _corrected(self, words: list[str]) -> Command | None:
        """"cuatro, no, cinco quinas": what follows the last correction word, when what
        came before it was a game word (a number, a face or a call)."""
        lex = self.lexicon
        for i in range(len(words) - 1, 0, -1):
            size = _phrase_at(words, i, self._corrections_by_first)
            if not size and words[i] not in lex.correction_words:
                continue
            size = size or 1
            before, after = words[:i], words[i + size :]
            if not after or not any(self._is_game_word(before, k) for k in range(len(before))):
                continue
            if words[i] == "no" and RESTATED in before:
                # the move said again, then what it is not: "ocho tontos dije yo, no ocho trenes", "dije ocho, no siete"
                meant = next((r.command for r in self._read(before) if r.certainty == 1.0 and not r.weak), None)
                return meant if isinstance(meant, BidCommand | CountCommand | CallCommand) else None
            if size == 1 and words[i] == "no" and not self._is_game_word(before, len(before) - 1):
                continue  # "tení que dudar ahora si no cachai nada": a "no" corrects the word said right before it
            command = next(self._templates(after), None) or next(self._framed(after), None)
            if isinstance(command, CountCommand) and command.face is None:
                # "carla tiene dos, no, perdón, tres": the number corrected, the player kept
                said = before[1:] if before[0] in ("y", "e", "ya") else before  # "y carla tiene dos"
                if len(said) > 1 and said[0] in lex.articles and self._is_name(said[1]):
                    said = said[1:]  # "el fran tenía dos trenes y un as, o sea tres"
                head = next(self._templates(said), None) or next(self._framed(said), None)
                if isinstance(head, PlayerCountCommand) and not head.more:
                    return dataclasses.replace(head, quantity=command.quantity)
                if len(said) > 2 and self._is_name(said[0]) and said[1] in ("tiene", "tenia"):  # "fran tiene dos pares, o sea cuatro"
                    return PlayerCountCommand(self._names[said[0]], command.quantity)
                # "once trenes, no, doce": the number corrected, the face said before it kept
                face = next((lex.faces[w] for w in reversed(before) if w in lex.faces), None)
                if face is not None and command.quantity > 0:  # (no bid is of none: "cinco trenes pasaron y no me subí a ninguno")
                    return BidCommand(command.quantity, face)
                if not isinstance(head, CountCommand | PlayerCountCommand | BidCommand):
                    return None  # a number said of something else, corrected: "la tabla del beto tiene seis quillas, no, tres"
            if isinstance(command, BidCommand | CountCommand):  # a number corrected by a number
                return command
        return None

    def _sum(self, words: list[str]) -> CountCommand | None:
        """"cuatro más un as son cinco": the result said, or the sum of the numbers."""
        lex = self.lexicon
        if not any(w in lex.sum_words for w in words):
            return None
        numbers: list[int] = []
        result: int | None = None
        added = False  # a "más" since the last number
        i = 0
        while i < len(words):
            w = words[i]
            reading = next(self._numbers_at(words, i), None)
            if reading is not None and numbers and not added:
                # "cuatro más uno, cinco": a number with no "más" before it is the result, said last
                if i + reading[1] != len(words) or reading[0] != sum(numbers):
                    return None
                result = reading[0]
                break
            if reading is not None:
                numbers.append(reading[0])
                added = False
                i += reading[1]
            elif w in lex.sum_words:
                added = True
                i += 1
            elif w in lex.result_words and i + 1 < len(words):
                reading = next(self._numbers_at(words, i + 1), None)
                if reading is None or i + 1 + reading[1] != len(words):
                    return None
                result = reading[0]
                break
            elif w in lex.faces or w in self._frames["cuenta"]:
                i += 1
            else:
                return None
        if len(numbers) < 2:
            return None
        return CountCommand(result if result is not None else sum(numbers))

    def _is_game_word(self, words: list[str], i: int) -> bool:
        w = words[i]
        return w in self.lexicon.faces or w in CALLS or any(True for _ in self._numbers_at(words, i))

    def _hand_by_kind(self, words: list[str]) -> HandCommand | None:
        """Hands in poker words, said by their owner or of a player named first:
        "carla tiene full de trenes con quinas", "beto, dos trenes y tres quinas"."""
        named = next(self._find_player(words, 0), None)
        if named is not None and named[1] < len(words):
            hand = self._hand_in_poker_words(words[named[1] :])
            if hand is not None and (hand.kind is not None or len(set(hand.faces)) > 1):
                # "ana (tiene) cinco quinas" is her count or her bid, read by the templates
                return dataclasses.replace(hand, player=named[0])
        return self._hand_in_poker_words(words)

    def _hand_in_poker_words(self, words: list[str], owned: bool = False, partial: bool = False) -> HandCommand | None:
        """Hands in poker words: "pichanga", "tenía full", "full de trenes con senas",
        "póquer de cuadras y un as", "escalera del dos al seis", "tengo dos trenes y tres quinas"."""
        lex = self.lexicon
        joins = lex.hand_joins
        if words[0] in joins["antes"]:  # "tengo …", "tenía …"
            owned = True
            words = words[1:]
        if not words:
            return None
        half = len(words) // 2
        if len(words) % 2 == 0 and words[:half] == words[half:] and any(n[0] > 1 for i in range(half) for n in self._numbers_at(words, i)):
            words = words[:half]  # the hand said again: "tengo dos trenes no más, dos trenes" (but "un as, un as" are two)
        kind = lex.hand_kinds.get(tuple(words))
        if kind is not None:
            return HandCommand(_SAMPLE_HANDS[kind], kind=kind)
        if any(w in ABOUT and next(self._numbers_at(words, i + 1), None) is not None for i, w in enumerate(words[:-1])):
            return None  # "unos cuatrito tontos": about so many is a bid, never dice told (but "full de unos con tontos")
        faces = lex.faces
        if words[0] in joins["escalera"] and len(words) >= 4 and words[1] in joins["de"]:
            low, high = self._die_at(words, 2), self._die_at(words, 4) if len(words) == 5 and words[3] in joins["hasta"] else None
            if low is not None and high is not None and high - low == HAND - 1:
                return HandCommand(tuple(range(low, high + 1)))
            return None
        head = lex.hand_kinds.get((words[0],))
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
        # "dos trenes y tres quinas", "tengo cinco quinas", "dos ases, un tonto y dos senas",
        # "sena sena sena sena y un as": groups of one face that make a whole hand
        groups: list[tuple[int, int]] = []
        i = 0
        while i < len(words):
            if words[i] in faces:
                groups.append((1, faces[words[i]]))  # a die named alone
                i += 1
            elif words[i] in ANOTHER and i + 1 < len(words) and words[i + 1] in faces:
                groups.append((1, faces[words[i + 1]]))  # "un tonto, otro tonto y una quina"
                i += 2
            else:
                reading = next(self._numbers_at(words, i), None)
                if reading is None or i + reading[1] >= len(words) or words[i + reading[1]] not in faces:
                    return None
                groups.append((reading[0], faces[words[i + reading[1]]]))
                i += reading[1] + 1
            if i < len(words) and words[i] in joins["y"]:
                i += 1
                if i == len(words):
                    return None
        # one group is a hand only when owned: "cinco quinas" alone is a bid; fewer
        # dice only where the game confirms it (``partial``): "tengo tres ases"
        dice = sum(n for n, _ in groups)
        if (dice != HAND and not partial) or not 1 <= dice <= HAND or (len(groups) < 2 and not owned):
            return None
        return HandCommand(tuple(f for n, f in groups for _ in range(n)))

    def _die_at(self, words: list[str], i: int) -> int | None:
        if i >= len(words):
            return None
        return self._face_word(words[i], in_hand=True)

    # ----------------------------------------------------------------- pieces

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
        if slot in ("{cara}", "{caras}"):
            return self._face_word(words[0], in_hand=True) is not None
        if slot == "{sentido}":
            return words[0] in self.lexicon.directions
        return any(True for _ in self._player_at(words, 0))

    def _number_size(self, words: list[str], i: int) -> tuple[int, int]:
        """How many words the number said at ``words[i]`` takes, and its value: (0, 0) for none."""
        return next(((used, value) for value, used in self._numbers_at(words, i)), (0, 0))

    def _is_thing(self, word: str) -> bool:
        """A word that may name a thing counted: one the lexicon does not know ("cervezas", "lucas")."""
        # (an oath is no thing: "la fran tiene cinco, puta la suerte")
        return word.isalpha() and word not in self._known and word not in EXCLAMATIONS and self._kind(word) in ("palabra", "verbo", "ruido")

    def _is_name(self, word: str) -> bool:
        return word in self._names or sounds(word) in self._name_words

    def _player_at(self, words: list[str], i: int) -> Iterator[tuple[str, int]]:
        """Names starting at words[i] (memoised by the words that may say one)."""
        said = tuple(words[i : i + NAME_WORDS])
        found = self._players_by_words.get(said)
        if found is None:
            if len(self._players_by_words) >= 4 * CACHE_SIZE:
                self._players_by_words.clear()
            found = self._players_by_words[said] = list(self._find_player(words, i))
        yield from found

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
            if size > 1 and self._long_sounds and (alike := self._long_sounds.get(" ".join(sounds(w) for w in words[i : i + size]))):
                yield alike, size  # "juan pavlo"
                return
        said = words[i]
        if said in self.lexicon.vocabulary or said.isdigit():
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

    def _may_cover(self, seq: tuple[str, ...], words: list[str], present: frozenset[str]) -> bool:
        """Could ``seq`` cover ``words`` at all: as many words as its slots can take, and each
        plain word of it among them? A cheap test before ``_match`` tries it word by word."""
        shape = self._shapes.get(seq)
        if shape is None:
            most = sum(SLOT_WORDS.get(t, 1) for t in seq)
            shape = self._shapes[seq] = (len(seq), most, frozenset(t for t in seq if t not in SLOTS))
        return shape[0] <= len(words) <= shape[1] and shape[2] <= present

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
            if face is not None and slots.face in (None, face):  # (said twice, the same: "puros tontos, tres tontos")
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
                if numeric and any(self._counts_a_face(words[k], words[k + 1]) for k in range(wi, wi + n - 1)):
                    continue  # "seis cuadras, tío, seis cuadras, seis": a number before faces counts them, no die of its own
                found = _replace(slots, faces=tuple(faces[:n]), numeric_faces=numeric)
                yield from self._match(seq, si + 1, words, wi + n, found)

    def _counts_a_face(self, word: str, following: str) -> bool:
        """Is ``word`` a number word said before a face named in the plural ("seis cuadras"): so
        many of that face, never two dice of a hand?"""
        return word not in self.lexicon.faces and following in self.lexicon.faces and following.endswith("s") and following != "as"

    def _player_counts(self, words: list[str]) -> PlayerCountCommand | None:
        """"ana dos beto uno carla tiene tres": several per-player counts at once."""
        between = self.lexicon.count_between
        pairs: list[tuple[str, int]] = []
        i = 0
        while i < len(words):
            players = list(self._player_at(words, i))
            if not players:
                return None
            name, used = players[0]
            i += used
            if i < len(words) and words[i] in between:
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
        if intent == "apuesta_mas":  # "uno más", "subo dos": the template's own number word
            more = next((v for w in seq if (v := self.lexicon.numbers.get(w)) is not None), 0)
            return RaiseCommand(more=more) if more else None
        if intent == "apuesta_misma":
            return RaiseCommand(quantity=s.quantity) if s.quantity else None
        if intent == "apuesta_estas":
            return BidCommand(s.quantity, "estas") if s.quantity else None
        if intent in CALLS:
            return CallCommand(intent, s.player)  # type: ignore[arg-type]
        if intent.endswith("_a") and intent[:-2] in CALLS:
            return CallCommand(intent[:-2], None)  # type: ignore[arg-type]  # "le dudo al beto": said to the bidder
        if intent.startswith("obligo"):
            mode = intent.partition("_")[2] or None
            return ObligoCommand(mode)  # type: ignore[arg-type]
        if intent == "cuenta":
            return CountCommand(s.quantity or 0, s.face)
        if intent == "cuenta_jugador":
            return PlayerCountCommand(s.player, s.quantity, face=s.face) if s.player and s.quantity is not None else None
        if intent == "cuenta_jugador_cero":  # "carla no tiene"
            return PlayerCountCommand(s.player, 0) if s.player else None
        if intent == "mano":
            # A hand needs two dice or more ("tengo tres", "beto tiene as" are not
            # one-die hands: those are weak readings), and number words only in a
            # full hand of five: "dos tres" or "tengo tres trenes" is more likely a bid or a count.
            if len(s.faces) < 2 or (s.numeric_faces and len(s.faces) < 5):
                return None
            return HandCommand(tuple(sorted(s.faces)), s.player)
        if intent == "mano_iguales":  # "puras quinas, las cinco"; "puros tontos, tres tontos"
            many = HAND if s.quantity is None else s.quantity
            return HandCommand((s.face,) * many, s.player) if s.face and 1 <= many <= HAND else None
        if intent == "parte":
            return StartCommand(s.player, s.direction)  # type: ignore[arg-type]
        if intent in ("si", "no", "deshacer", "ayuda", "otra", "terminar"):
            return SimpleCommand(intent)  # type: ignore[arg-type]
        if intent.startswith("consulta_"):
            what = intent.partition("_")[2]
            if what in ("jugador", "noche_jugador") and s.player is None:
                return None
            if what == "noche_jugador":  # «cifras de beto», «¿cómo va beto esta noche?»: his night, named
                return QueryCommand("noche", s.player)
            # (a player named in a question about the standings or the dice is whose: «¿cuántos dados le quedan a la ana?»)
            return QueryCommand(what, s.player if what in ("jugador", "marcador", "dados") else None)  # type: ignore[arg-type]
        if intent == "castigo":
            return PenaltyCommand(s.player) if s.player else None
        if intent in ("revivo", "revivimos"):
            return ReviveCommand(intent == "revivimos", s.player)
        return None

    def _partial(self, views: list[tuple[list[str], str]]) -> Unknown:
        """What was heard, when every word is known but no phrase fits."""
        words = views[-1][0] if views else []
        plain = next((w for w, how in views if how == "repetición"), words)
        heard = tuple(plain)
        if not plain or any(w not in self._known and not w.isdigit() for w in plain) or self._hour(plain) is not None:
            return Unknown(heard=heard)
        quantity = next((v for i in range(len(plain)) for v, _ in self._numbers_at(plain, i)), None)
        face = next((self.lexicon.faces[w] for w in plain if w in self.lexicon.faces), None)
        if quantity and face is None and not any(w in self._names for w in plain):
            if all(w in self._frames["apuesta"] or any(True for _ in self._numbers_at([w], 0)) for w in plain):
                return Unknown("falta_pinta", quantity=quantity, heard=heard)
            return Unknown(heard=heard)
        if face is not None and quantity is None:
            return Unknown("falta_cantidad", face=face, heard=heard)
        return Unknown(heard=heard)

    # ----------------------------------------------------------------- a new game

    def _another_with(self, raw: list[str]) -> SimpleCommand | None:
        """«otra con pedro», «revancha sin ana», «otra con pedro y juan sin carla»:
        a new game with players joining or leaving. Names are taken as said (a new
        name is nobody the lexicon knows); leaving ones are the table's players."""
        lex = self.lexicon
        into_words = lex.new_game["con"] | lex.new_game["sin"]
        cut = next((i for i, w in enumerate(raw) if w in into_words), None)
        if not cut:
            return None
        head_words = [w for w in self._words(raw[:cut]) if w not in lex.new_game["juntas"]]  # «otra, pero con pedro»
        head = next(self._templates(self._drop_fillers(head_words)), None)
        if not (isinstance(head, SimpleCommand) and head.action == "otra"):
            return None
        joining: list[str] = []
        leaving: list[str] = []
        into = joining
        tail = raw[cut:]
        i = 0
        while i < len(tail):
            word, size = tail[i], 1
            if word in into_words:
                into = joining if word in lex.new_game["con"] else leaving
            elif word in lex.new_game["juntas"] or word in lex.articles or word in lex.filler_words:
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
        if any(w in lex.vocabulary for w in joining):
            return None  # words the game knows are no new player's name: "otra vez con el caleuche, si eso es puro cuento"
        return SimpleCommand("otra", tuple(joining), tuple(leaving))


def _frame_key(intent: str, keys: list[str]) -> str | None:
    """The most specific frame an intent is read with: "cuenta_jugador_cero" -> "cuenta_jugador", not "cuenta"."""
    fitting = [k for k in keys if intent == k or intent.startswith(k + "_")]
    return max(fitting, key=len) if fitting else None


def _sound_key(word: str) -> str:
    """How a face word sounds, loosely: ñ as n, x as s ("señas" ~ "senas", "cestas" ~ "sextas", "haces" ~ "aces")."""
    return sounds(word.replace("ñ", "n").replace("x", "s"))


def _bare_number(command: Command) -> bool:
    """A number and nothing else: a count or a raise without a face ("tres", "uno más", "ana dos")."""
    return isinstance(command, RaiseCommand) or (isinstance(command, CountCommand | PlayerCountCommand) and command.face is None)


def _answer(command: Command) -> bool:
    """A yes or a no."""
    return isinstance(command, SimpleCommand) and command.action in ("si", "no")


def _names_a_face(command: Command) -> bool:
    face = getattr(command, "face", None)
    return face is not None or isinstance(command, CallCommand | StartCommand | HandCommand | PenaltyCommand)


def _split_pronouns(pronoun: str, clitics: frozenset[str]) -> list[str]:
    """"melo" -> ["me", "lo"]: two pronouns written as one."""
    for first in sorted(clitics, key=len):
        if pronoun.startswith(first) and pronoun != first and pronoun[len(first) :] in clitics:
            return [first, pronoun[len(first) :]]
    return [pronoun]


def _collapse(words: list[str], kept: frozenset[str] = frozenset(), dice: Container[str] = frozenset()) -> list[str]:
    """What was said twice in a row said once: "corrección corrección", "no no no",
    "cinco cinco quinas", "seis trenes seis trenes"; never a stretch holding one of
    ``kept`` ("dos más dos más uno" is a sum), nor one of ``dice`` said alone twice
    (a hand: "mi mano es tren tren quina quina sena")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        size = next(
            (
                n
                for n in range(REPEAT_MAX, 0, -1)
                if len(out) >= n and words[i : i + n] == out[-n:] and not kept.intersection(out[-n:]) and not (n == 1 and out[-1] in dice)
            ),
            0,
        )
        if size:
            i += size
        else:
            out.append(words[i])
            i += 1
    return out


def _hard_c(stem: str) -> str:
    """The stem of a small word as the plain word spells it: "cinqu" (cinquito) -> "cinc", "diegu" (dieguito) -> "dieg"."""
    return stem[:-2] + "c" if stem.endswith("qu") else stem[:-1] if stem.endswith("gu") else stem


def _squeeze(word: str) -> str:
    """Letters held long said once: "eeeh" -> "eh", "yaaa" -> "ya"."""
    return "".join(c for i, c in enumerate(word) if i == 0 or c != word[i - 1])


def _replace_phrases(words: list[str], phrases: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]]) -> list[str]:
    """``words`` with each phrase said (``phrases``: first word -> (said, meant), first match wins) put as meant."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for said, meant in phrases.get(words[i], ()):
            if tuple(words[i : i + len(said)]) == said:
                out += meant
                i += len(said)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _replace(slots: _Slots, **changes: Any) -> _Slots:
    return _Slots(**{**slots.__dict__, **changes})


def _by_first(phrases: Iterable[tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    """``phrases`` by their first word, each word's in the order given."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        index.setdefault(phrase[0], []).append(phrase)
    return index


def _phrase_at(words: list[str], i: int, by_first: dict[str, list[tuple[str, ...]]]) -> int:
    """How many words the first phrase of ``by_first`` said at ``words[i]`` takes; 0 for none."""
    return next((len(p) for p in by_first.get(words[i], ()) if tuple(words[i : i + len(p)]) == p), 0)


def _phrases_at(words: list[str], by_first: dict[str, list[tuple[str, ...]]]) -> Iterator[tuple[int, int]]:
    """Where the phrases of ``by_first`` (first word -> phrases, longest first) are in ``words``,
    left to right, none inside another: (start, size)."""
    i = 0
    while i < len(words):
        size = _phrase_at(words, i, by_first)
        if size:
            yield i, size
        i += size or 1


def _drop_phrases(words: list[str], by_first: dict[str, list[tuple[str, ...]]]) -> list[str]:
    """``words`` without the phrases of ``by_first`` (first word -> phrases, longest first)."""
    inside = {i for at, size in _phrases_at(words, by_first) for i in range(at, at + size)}
    return [w for i, w in enumerate(words) if i not in inside]
