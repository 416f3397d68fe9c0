"""Every sentence the referee says, in one place, in the register of a Chilean table.

Short on purpose: at a table, silence is golden. Numbers and names are said
as a person says them ("quedan diecisiete dados", "palo para beto, lleva cuatro").
"""

from __future__ import annotations

import errno
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from assistant import messages
from assistant import words as names
from assistant.changes import Notice, Partial, StorageCause, StorageFailed
from assistant.rules import AS, HIDDEN, Action, Bid, Game, Reason
from assistant.rules import events as ev
from assistant.rules import refusals as no
from assistant.rules.actions import Call, Count, Hands, Oblige, Raise, Revive, ShownHand, Start, Verdict
from assistant.rules.figures import Totals

# ---------------------------------------------------------------- helpers


def say(game: Game, bid: Bid) -> str:
    """A bid in words, with this rule set's face names: "cinco quinas", "dos millas"."""
    return names.quantity(bid.quantity, bid.face, game.rules.two_is_milla)


def _face_plural(game: Game, face: int) -> str:
    return names.face_name(face, True, game.rules.two_is_milla)


def _loss_unit(game: Game, n: int) -> str:
    if game.rules.scoring == "dados":
        return "dado" if n == 1 else "dados"
    if game.rules.scoring == "fichas":
        return "ficha" if n == 1 else "fichas"
    return "palo" if n == 1 else "palos"


def _n(n: int, feminine: bool = False) -> str:
    return names.number(n, feminine)


def _said(n: int) -> str:
    """A number standing alone: "lleva uno", not "lleva un"."""
    return names.number(n, before_noun=False)


def _standing(game: Game, name: str) -> str:
    """"cuatro dados", "dos palos", "le queda una ficha" — how a player stands."""
    seat = game.seats[name]
    if game.rules.scoring == "dados":
        extra = ", y uno a favor" if seat.banked else ""
        return f"{_count(seat.dice, 'dado', 'dados')}{extra}"
    if game.rules.scoring == "fichas":
        return _count(game.rules.loss_limit - seat.palos, "ficha", "fichas", feminine=True)
    return _count(seat.palos, "palo", "palos") if seat.palos else "ningún palo"


def _count(n: int, one: str, many: str, feminine: bool = False) -> str:
    """A number and its noun, agreeing: "un dado", "una ficha", "tres palos"."""
    return f"{_n(n, feminine)} {one if n == 1 else many}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _the(game: Game, bid: Bid) -> str:
    """A bid with its article, agreeing with its quantity: "los tres trenes",
    "las dos millas", "el as", "la quina" (never "los un as")."""
    singular, _, feminine = names.face_words(bid.face, game.rules.two_is_milla)
    if bid.face == HIDDEN:
        return "las " + say(game, bid) if bid.quantity > 1 else say(game, bid)
    if bid.quantity == 1:
        return f"{'la' if feminine else 'el'} {singular}"
    return f"{'las' if feminine else 'los'} {say(game, bid)}"


def _of(game: Game, bid: Bid, owner: str) -> str:
    """Whose bid it is: "los tres trenes de ana", "el as de ana"."""
    if bid.face == HIDDEN and bid.quantity == 1:
        return f"la apuesta de {owner}, {say(game, bid)}"
    return f"{_the(game, bid)} de {owner}"


# ---------------------------------------------------------------- set-up

RULES_SAID = {
    "clasico": "Reglas clásicas",
    "caleuchano": "Reglas del Caleuchano",
    "chimbo9": "Reglas Chimbo Nueve",
    "yocacho": "Reglas Yo Cacho",
}
"""The presets as people name them (the files' names are for the terminal)."""


def rules_said(game: Game) -> str:
    """"Reglas clásicas", "Reglas del Caleuchano, con cambios de la casa": never a file's name."""
    rules = game.rules
    base, _, changed = rules.name.partition(" (")  # a house file's default name: "clasico (casa)"
    said = RULES_SAID.get(base)
    if said is None:
        return "Reglas de la casa"
    return said + (", con cambios de la casa" if rules.overrides or changed else "")


def greeting(game: Game) -> str:
    """Only what the table needs to start: who plays in which order, which rules
    (the summary on request: ``rules_summary``) and who starts, with the table's
    own first player as the example."""
    order = names.join_and(list(game.players))
    return f"¡Hola! Juegan {order}, en ese orden por la izquierda. {rules_said(game)}. {ask_starter(game)}"


def greeting_short(game: Game, mode: str | None) -> str:
    """``poco`` (the voice default): who plays, which rules, how it listens and who
    starts, in about six seconds of speech for three players."""
    order = names.join_and(list(game.players))
    listening = f", {mode}" if mode else ""
    said = rules_said(game)
    return f"Hola {order}: {said[:1].lower()}{said[1:]}{listening}. ¿Quién parte?"


def rules_summary(game: Game) -> str:
    """"¿Cuáles son las reglas?": what this table plays by, from the rules
    themselves (so a house's changes are told as what they change, in short sentences)."""
    rules = game.rules
    sentences = [rules_said(game) + "."]
    if rules.scoring == "dados":
        sentences.append(f"Se juega con {_count(rules.dice_per_player, 'dado', 'dados')}: el que pierde deja uno.")
    elif rules.scoring == "fichas":
        sentences.append(f"Cada uno tiene {_count(rules.loss_limit, 'ficha', 'fichas', True)}, y no se pierden dados.")
    else:
        sentences.append(f"Se juega a {_count(rules.loss_limit, 'palo', 'palos')}.")
    if rules.millas:
        sentences.append("Las millas llevan una de regalo.")
    there = [word for word, on in (
        ("calce con dado a favor" if rules.calzo_bank else "calce", rules.calzo), ("mato", rules.mato),
        ("paso", rules.paso), ("picado", rules.picado), ("siciliana", rules.siciliana),
        (_obligo_word(game) + (" a elección" if rules.obligo == "opcional" else ""), rules.obligo != "no"),
        ("partida falsa con ases", rules.opening_aces == "falsa")) if on]
    missing = [word for word, on in (("calce", rules.calzo), ("paso", rules.paso), (_obligo_word(game), rules.obligo != "no")) if not on]
    if there:
        sentences.append(f"Hay {names.join_and(there)}.")
    if missing:
        sentences.append(f"No hay {_join_nor(missing)}.")
    return " ".join(sentences)


def ask_players() -> str:
    return "¿Quiénes juegan? Digan los nombres en orden, separados por comas."


def need_two_players() -> str:
    return "Necesito al menos dos nombres, separados por comas: ana, beto, carla."


def say_yes_or_no() -> str:
    return "Digan sí o no."


def ask_starter(game: Game) -> str:
    return f"¿Quién parte, y para qué lado? Por ejemplo: parte {game.players[0]}, por la {game.rules.default_direction}."


def started(game: Game, still: str | None = None) -> str:
    """Who starts and which way; ``still`` is the obligador when the table named the
    starter of a round already announced as his obligo (the rules were said then)."""
    assert game.starter is not None
    direction = "izquierda" if game.direction == 1 else "derecha"
    text = f"Parte {game.starter}, por la {direction}."
    if still is not None and game.obligo is not None:
        word = _obligo_word(game)
        return text + f" Sigue siendo el {word} de {still}."
    return text + _round_notes(game)


def _round_notes(game: Game) -> str:
    notes = ""
    if game.obligo is not None:
        notes += " " + obligo_rules(game)
    elif game.obligo_offer is not None and game.at_trigger(game.obligo_offer):
        # an offer away from the trigger ("obligar en cualquier etapa") is not announced every round
        notes += " " + obligo_offer(game, game.obligo_offer)
    return notes


def obligo_declined(game: Game, name: str) -> str:
    return f"{capital(name)} parte sin obligar: ya no puede obligar en esta partida."


def obligo_offer(game: Game, name: str) -> str:
    closed = ", u obligo cerrado" if game.rules.obligo_cerrado else ""
    return f"{capital(name)}, puedes obligar antes de partir. Di obligo{closed}."


def _obligo_word(game: Game) -> str:
    """One word per preset for the round: with palos it is the obligado (caleuchano), otherwise the obligo."""
    return "obligado" if game.rules.scoring == "palos" else "obligo"


def obligo_rules(game: Game, whole: bool = False) -> str:
    """What changes in an obligo round, in short sentences: who obliges, then
    what changes. In full the first time in a game (or when ``whole``), in
    two sentences once the table has heard it."""
    ob = game.obligo
    assert ob is not None
    rules = game.rules
    head = f"{capital(_obligo_word(game))}{' cerrado' if ob.closed else ''} de {ob.obligador}."
    revive = f" {capital(ob.obligador)}, también puedes revivir y jugar normal: di revivo." if game.is_legal(Revive(ob.obligador)) else ""
    if not whole and len(game.obligo_used) > 1:
        said = f"{head} Como el anterior: los ases no son comodines."
        return said + (" Vale decir de éstas." if ob.closed else "") + revive
    sentences = [head, "Los ases no son comodines" + (", y valen más que la sena." if rules.obligo_aces_rank_seven else ".")]
    if rules.millas:
        sentences.append("Las millas no llevan regalo.")
    sentences.append({
        "nadie": "Nadie cambia la pinta: solo se sube la cantidad.",
        "obligador_e_iguales": "Cambia la pinta solo el que obliga, o quien esté a un palo de salir.",
        "iguales": "Cambia la pinta solo otro jugador con un dado, subiendo la cantidad.",
    }[rules.obligo_changers])
    banned = [w for w, ok in (("calza", rules.obligo_calzo or not rules.calzo), ("pasa", rules.obligo_paso or not rules.paso)) if not ok]
    if banned:
        sentences.append(capital("no se " + " ni se ".join(banned)) + ".")
    if ob.closed:
        sentences.append("Se puede decir de éstas.")
    return " ".join(sentences) + revive


def duel_rules(game: Game) -> str:
    rules = game.rules
    banned = []
    if rules.calzo and not rules.duel_calzo:
        banned.append("calce")
    if rules.paso and not rules.duel_paso:
        banned.append("paso")
    if rules.obligo != "no" and not rules.duel_obligo:
        banned.append(_obligo_word(game))
    text = "Quedan dos: mano a mano"
    return text + (f", sin {_join_nor(banned)}." if banned else ".")


def _join_nor(items: list[str]) -> str:
    """"calce", "calce ni paso", "calce, paso ni obligo"."""
    return ", ".join(items[:-1]) + " ni " + items[-1] if len(items) > 1 else "".join(items)


# ---------------------------------------------------------------- during a round


def bid_accepted(game: Game, bid: Bid) -> str:
    text = capital(say(game, bid))
    most = game.most_possible(bid.face)
    if bid.quantity > most:
        # legal in every book, and doomed: the table hears how many dice there are
        text += f", y en la mesa hay {_count(game.dice_in_play, 'dado', 'dados')}"
    return f"{text}. Sigue {game.turn}."


def revived(game: Game, e: ev.Revived) -> str:
    if len(e.players) > 1:
        text = "Reviven todos: cada uno devuelve un palo."
    else:
        text = f"{capital(e.players[0])} revive: devuelve el palo y queda con {_said(e.palos[0])}, sin {_obligo_word(game)}."
    return text + f" Parte {game.starter}." + _round_notes(game)


def _may(game: Game, call: str) -> bool:
    """May the player to act make this call now? (A prompt offers only what is legal.)"""
    return game.turn is not None and game.is_legal(Call(game.turn, call))  # type: ignore[arg-type]


def falsa(game: Game, quantity: int) -> str:
    calls = ["duda"] + [word for call, word in (("calzo", "calza"), ("mato", "mata"), ("paso", "pasa")) if _may(game, call)]
    void = "queda anulado el as" if quantity == 1 else f"quedan anulados los {names.quantity(quantity, AS)}"
    return f"Partida falsa: {void}. {capital(str(game.turn))}: {', '.join(calls)} o apuesta lo que quieras."


def passed(game: Game, passer: str) -> str:
    assert game.bid is not None
    options = f"duda el paso, pasa tú también o sube de {say(game, game.bid)}" if _may(game, "paso") else (
        f"duda el paso o sube de {say(game, game.bid)}"
    )
    return f"Pasa {passer}. {capital(str(game.turn))}: {options}."


def picado(game: Game, picador: str) -> str:
    direction = "izquierda" if game.direction == 1 else "derecha"
    return f"Picado de {picador}: ahora va por la {direction}. {capital(str(game.turn))}: duda el picado o sube."


def obligo_declared(game: Game) -> str:
    return obligo_rules(game) + f" Parte {game.starter}."


def ask_count(game: Game) -> str:
    pending = game.pending
    assert pending is not None
    bid = pending.bid
    caller, target = pending.caller, pending.target
    theirs = _of(game, bid, target)
    opener = {
        "dudo": f"{capital(caller)} duda {theirs}.",
        "siciliana": f"{capital(caller)} duda a la siciliana {theirs}. "
        f"Se juegan {_count(game.rules.siciliana_cost, _loss_unit(game, 1), _loss_unit(game, 2), game.rules.scoring == 'fichas')}.",
        "calzo": f"{capital(caller)} calza {theirs}.",
        "mato": f"{capital(caller)} mata {theirs}.",
    }[pending.call]
    return f"{opener} {count_question(game)}"


def _feminine(game: Game, bid: Bid) -> bool:
    return names.face_words(bid.face, game.rules.two_is_milla)[2]


def count_question(game: Game) -> str:
    pending = game.pending
    assert pending is not None
    bid = pending.bid
    if bid.face == 0:
        assert game.obligo is not None
        return f"¿Cuántas hay de la pinta de {game.obligo.obligador}?"
    word = _face_plural(game, bid.face)
    wild = " con los ases" if game.wild_now() and bid.face != AS else ""
    if game.obligo is not None and bid.face != AS:
        wild = ", sin ases"
    many = "Cuántas" if _feminine(game, bid) else "Cuántos"
    return f"¿{many} {word} hay{wild}?"


def ask_judgement(game: Game) -> str:
    pending = game.pending
    assert pending is not None
    what = "el paso" if pending.call == "paso" else "el picado"
    return (
        f"{capital(pending.caller)} duda {what} de {pending.target}. "
        f"¿Valía? Digan sí o no, o díganme la mano de {pending.target}."
    )


def judgement_question(game: Game) -> str:
    pending = game.pending
    assert pending is not None
    what = "el paso" if pending.call == "paso" else "el picado"
    return f"¿Valía {what} de {pending.target}? Sí o no, o díganme su mano."


def count_progress(game: Game, total: int, missing: Sequence[str]) -> str:
    return f"{'Va' if total == 1 else 'Van'} {_said(total)}. {'Falta' if len(missing) == 1 else 'Faltan'} {names.join_and(list(missing))}."


def hand_progress(missing: Sequence[str]) -> str:
    """The next to give a hand (or, with ``--hablar poco``, a count)."""
    return f"¿Y {missing[0]}?"


def hidden_die_needed(obligador: str) -> str:
    """Everyone gave a count or a hand, but «de éstas» counts the obligador's die, and nobody said it."""
    return f"Falta saber qué dado tiene {obligador}: ¿qué le salió?"


# ---------------------------------------------------------------- results


def step(game: Game, events: Sequence[ev.Event]) -> str:
    """What to say after an accepted step, from what it caused."""
    first = events[0]
    if isinstance(first, ev.StarterNamed):
        return started(game, first.obligo if game.round_number > 1 else None)
    if isinstance(first, ev.BidMade):
        falsa_opened = next((e for e in events if isinstance(e, ev.FalsaOpened)), None)
        declined = next((e for e in events if isinstance(e, ev.ObligoDeclined)), None)
        text = falsa(game, falsa_opened.quantity) if falsa_opened is not None else bid_accepted(game, first.bid)
        return (obligo_declined(game, declined.player) + " " if declined is not None else "") + text
    if isinstance(first, ev.ObligoDeclared):
        return obligo_declared(game)
    if isinstance(first, ev.Revived):
        return revived(game, first)
    if isinstance(first, ev.Passed):
        return passed(game, first.player)
    if isinstance(first, ev.PicadoCalled):
        return picado(game, first.player)
    if isinstance(first, ev.Called) and game.phase == "juicio":
        return ask_judgement(game)
    if isinstance(first, ev.Called) and game.phase == "cuenta":
        return ask_count(game)
    return result(game, events)


def brief(game: Game, events: Sequence[ev.Event]) -> str:
    """The short form of a step's reply for ``--hablar poco`` ("" when there is
    none): a plain "dudo" is only the question (the table heard the call), a
    result says who loses but not how they stand. Announcements stay whole."""
    if not events:
        return ""
    first = events[0]
    if isinstance(first, ev.Called) and game.phase == "cuenta" and game.pending is not None and game.pending.call == "dudo":
        return count_question(game)
    if any(isinstance(e, ev.Counted) for e in events):
        return result(game, events, brief=True)
    return ""


def result(game: Game, events: Iterable[ev.Event], brief: bool = False) -> str:
    """One breath: the count, who loses, how they stand, who is out, who starts.
    ``brief`` (``--hablar poco``): who loses, without how they now stand."""
    parts: list[str] = []
    events = list(events)
    someone_out = any(isinstance(e, ev.Eliminated) for e in events)
    for e in events:
        if isinstance(e, ev.Counted):
            parts.append(_count_sentence(game, e))
        elif isinstance(e, ev.PassJudged) and e.short_hand:
            parts.append(f"{capital(e.player)} pasó sin tener los cinco dados: el paso no vale.")
        elif isinstance(e, ev.PassJudged):
            what = "el paso" if e.call == "paso" else "el picado"
            parts.append(f"{capital(what)} de {e.player} {'valía' if e.valid else 'no valía'}.")
        elif isinstance(e, ev.Penalized):
            parts.append("Castigo.")
        elif isinstance(e, (ev.DieLost, ev.PaloTaken)):
            parts.append(_loss_sentence(game, e, brief))
        elif isinstance(e, (ev.DieGained, ev.PaloReturned)):
            parts.append(_gain_sentence(game, e))
        elif isinstance(e, ev.Eliminated):
            parts.append(f"{capital(e.player)} queda fuera.")
        elif isinstance(e, ev.GameOver):
            parts.append(winner(e.winners, e.payers))
        elif isinstance(e, ev.RoundStarted):
            parts.append(new_round(game, e, duel_now=someone_out))
    return " ".join(parts)


def _count_sentence(game: Game, e: ev.Counted) -> str:
    """The count against the bid it judged, in one sentence: "Había tres quinas,
    no cinco.", "Había cinco quinas justas.", "Había seis quinas, bastaban cinco."."""
    face, total, asked = e.bid.face, e.total, e.bid.quantity
    singular, _, feminine = names.face_words(face, game.rules.two_is_milla)
    bid_said = names.number(asked, feminine, before_noun=False)
    if e.bonus:  # the millas' gift (caleuchano): the total is what is judged
        text = f"Con la de regalo había {names.quantity(total, face, game.rules.two_is_milla)}"
    elif total == 0 and asked == 1:
        return f"No había ni {say(game, e.bid)}."
    elif total == 0:
        text = f"No había {'ninguna' if feminine else 'ningún'} {'de esas' if face == HIDDEN else singular}"
    elif face == HIDDEN:
        text = f"Había {_n(total, True)} de esas"
    else:
        text = f"Había {names.quantity(total, face, game.rules.two_is_milla)}"
    if total == asked:
        return f"{text} {'justa' if feminine else 'justo'}{'s' if asked != 1 else ''}."
    if total > asked and e.call in ("dudo", "siciliana"):
        return f"{text}, {'bastaba' if asked == 1 else 'bastaban'} {bid_said}."
    return f"{text}, no {bid_said}."


def _loss_sentence(game: Game, e: ev.DieLost | ev.PaloTaken, brief: bool = False) -> str:
    name, n = e.player, e.count
    if isinstance(e, ev.PaloTaken):
        if game.rules.scoring == "fichas":
            left = game.rules.loss_limit - e.palos
            head = f"{capital(name)} pierde {'una ficha' if n == 1 else _n(n, True) + ' fichas'}"
            return f"{head}, le {'queda' if left == 1 else 'quedan'} {names.number(left, True, False)}." if left and not brief else f"{head}."
        head = f"Palo para {name}" if n == 1 else f"{capital(_n(n))} palos para {name}"
        return f"{head}, lleva {_said(e.palos)}." if e.palos < game.rules.loss_limit and not brief else f"{head}."
    if e.from_bank == n:
        return f"{capital(name)} pierde el dado que tenía a favor y sigue con {_said(e.dice)}."
    head = f"{capital(name)} pierde {'un dado' if n == 1 else _n(n) + ' dados'}"
    if e.dice == 0 or brief:
        return f"{head}."
    rest = f"le {'queda' if e.dice == 1 else 'quedan'} {_said(e.dice)}"
    if e.banked:
        rest += " y uno a favor"
    return f"{head}, {rest}."


def _gain_sentence(game: Game, e: ev.DieGained | ev.PaloReturned) -> str:
    name = capital(e.player)
    if isinstance(e, ev.PaloReturned):
        if not e.changed:
            return f"{name} calzó, y como no tiene palos, queda igual."
        return f"{name} calzó: se le quita un palo, lleva {_said(e.palos)}."
    if not e.changed:
        return f"{name} calzó, pero ya tiene todos sus dados: queda igual."
    if e.banked and e.dice == game.rules.dice_per_player:
        return f"{name} calzó: tiene todos sus dados y queda con uno a favor."
    return f"{name} calzó: recupera un dado, tiene {_said(e.dice)}."


def new_round(game: Game, e: ev.RoundStarted, duel_now: bool = False) -> str:
    """"Parte beto.", with the obligo's or the 1 vs 1 restrictions when they begin."""
    text = f"Parte {e.starter}."
    if e.obligador:
        text += " " + obligo_rules(game)
    elif e.obligo_offer and game.at_trigger(e.obligo_offer):
        text += " " + obligo_offer(game, e.obligo_offer)
    if e.mode == "uno_contra_uno" and duel_now:
        text = duel_rules(game) + " " + text
    return text


def winner(winners: Sequence[str], payers: Sequence[str] = ()) -> str:
    text = f"¡Ganó {winners[0]}!" if len(winners) == 1 else f"¡Ganaron {names.join_and(list(winners))}!"
    if payers:
        text += f" {'Paga' if len(payers) == 1 else 'Pagan'} {names.join_and(list(payers))}."
    return text + " Buena partida."


def payers(game: Game) -> tuple[str, ...]:
    return tuple(game.eliminated[: game.rules.payers]) if game.over else ()


# ---------------------------------------------------------------- queries


def dice_in_play(game: Game) -> str:
    n = game.dice_in_play
    if game.rules.scoring == "dados":
        return f"{'Queda' if n == 1 else 'Quedan'} {_count(n, 'dado', 'dados')} en la mesa."
    return f"Hay {_count(n, 'dado', 'dados')} en la mesa."


def score(game: Game) -> str:
    """"¿Cómo vamos?": each player's standing; with palos, those with none said once at the end."""
    clean = [p for p in game.players if not game.seats[p].out and game.rules.scoring == "palos" and not game.seats[p].palos]
    parts = [f"{name}, {'fuera' if game.seats[name].out else _standing(game, name)}" for name in game.players if name not in clean]
    if clean and parts:
        parts.append(f"{'el resto' if len(clean) > 1 else clean[0]}, ninguno")
    elif clean:
        parts.append("nadie tiene palos todavía")
    return capital("; ".join(parts)) + "."


def player_now(game: Game, name: str) -> str:
    """"¿Cómo va beto?" during a game: how he stands in this one."""
    seat = game.seats[name]
    who = capital(name)
    if seat.out:
        return f"{who} ya quedó fuera."
    if game.rules.scoring == "dados":
        return f"{who} tiene {_standing(game, name)}."
    if game.rules.scoring == "fichas":
        left = game.rules.loss_limit - seat.palos
        return f"A {name} le {'queda' if left == 1 else 'quedan'} {_count(left, 'ficha', 'fichas', True)}."
    return f"{who} lleva {_standing(game, name)}." if seat.palos else f"{who} no lleva ningún palo."


def turn(game: Game) -> str:
    if game.over:
        return winner(game.winners, payers(game))
    if game.phase == "inicio":
        return "Todavía nadie parte. " + ask_starter(game)
    if game.phase == "cuenta":
        return "Estamos contando. " + count_question(game)
    if game.phase == "juicio":
        return judgement_question(game)
    return f"Le toca a {game.turn}."


def current_bid(game: Game) -> str:
    if game.over:
        return winner(game.winners, payers(game))
    if game.bid is None:
        if game.phase == "inicio":
            return "Todavía no hay apuesta. " + ask_starter(game)
        return f"Todavía no hay apuesta: parte {game.starter}."
    if game.phase == "cuenta":
        return ask_count(game)  # what was asked when the call was made, said again
    if game.phase == "juicio":
        return ask_judgement(game)
    return f"{'Va' if game.bid.quantity == 1 else 'Van'} {say(game, game.bid)}, de {game.bidder}. Le toca a {game.turn}."


# ---------------------------------------------------------------- problems


def illegal(game: Game, reason: Reason) -> str:
    """A refusal during play, with whose turn it still is."""
    text = refusal(reason, game)
    if game.phase == "apuestas" and game.turn:
        return f"{text} Otra vez, {game.turn}."
    return text


def illegal_short(game: Game, reason: Reason) -> str:
    """The same at ``poco``, where the table is deaf while the referee talks
    (half duplex): the verdict and the bid on the table; the options, in
    «ayuda» or at ``normal``."""
    milla = game.rules.two_is_milla
    if isinstance(reason, no.NotARaise | no.ObligoNotARaise):
        previous = reason.previous
        return f"No alcanza: {'va' if previous.quantity == 1 else 'van'} {names.quantity(previous.quantity, previous.face, milla)}."
    return refusal(reason, game)


_FEATURE = {
    "dudo": "se duda", "calzo": "se calza", "mato": "se mata", "siciliana": "se duda a la siciliana",
    "paso": "se pasa", "picado": "hay picado", "obligo": "hay obligo", "obligo_cerrado": "hay obligo cerrado",
    "castigo": "hay castigo por error", "revivir": "se revive",
}


def _source(source: str) -> str:
    """Where a rule came from: a preset, a journal, the table's own rules or a file."""
    if source.startswith("preset:"):
        return f"el preset {source.removeprefix('preset:')}"
    if source == "journal:":
        return "el registro"
    return source or "las reglas de la casa"


def _options(game: Game, options: Sequence[Bid | no.AnyFace]) -> str:
    """"cuatro de cualquier pinta, tres cuadras o dos ases"."""
    milla = game.rules.two_is_milla
    return names.join_or([
        f"{_n(o.quantity, True)} de cualquier {'otra ' if o.other else ''}pinta" if isinstance(o, no.AnyFace)
        else names.quantity(o.quantity, o.face, milla) for o in options])


def refusal(reason: Reason, game: Game | None = None) -> str:
    """The sentence for why the rules said no; ``game`` gives the face names."""
    rules = game.rules if game is not None else None
    milla = rules.two_is_milla if rules is not None else False
    obligo = _obligo_word(game) if game is not None else "obligo"
    first = game.players[0] if game is not None else "ana"
    side = rules.default_direction if rules is not None else "izquierda"

    def bid(b: Bid) -> str:
        return names.quantity(b.quantity, b.face, milla)

    def goes(b: Bid) -> str:
        return f"{'Va' if b.quantity == 1 else 'Van'} {bid(b)}"

    def option(o: Bid | no.AnyFace) -> str:
        if isinstance(o, no.AnyFace):
            return f"{_n(o.quantity, True)} de cualquier {'otra ' if o.other else ''}pinta"
        return bid(o)

    match reason:
        case no.TooFewPlayers():
            return "Se necesitan al menos dos jugadores."
        case no.UnnamedPlayer():
            return "Hay un jugador sin nombre."
        case no.DuplicatePlayer(name):
            return f"Hay dos jugadores que se llaman {name}."
        case no.SameSoundingNames(first, second):
            return (f"{capital(first)} y {second} suenan igual: no sabría a cuál le hablan. "
                    "Usen otro nombre o un apodo para uno de ellos.")
        case no.UnsayableName(name):
            return f"{capital(name)} no es un nombre que se pueda decir: usen solo letras."
        case no.TooManyPlayers(players, maximum):
            return f"Son {_n(players)} jugadores y se juega con {_n(maximum)} como mucho."
        case no.TooManyWinners():
            return "Tiene que haber más jugadores que ganadores."
        case no.GameIsOver(winners):
            return f"La partida ya terminó: ganó {names.join_and(list(winners))}."
        case no.NoStarterYet():
            return f"Primero hay que decir quién parte. Por ejemplo: parte {first}, por la {side}."
        case no.NotPlaying(None):
            return "¿Quién? Digan el nombre de un jugador."
        case no.NotPlaying(name):
            return f"{capital(str(name))} no está jugando."
        case no.AlreadyOut(name):
            return f"{capital(name)} ya quedó fuera."
        case no.NotYourTurn(turn_, who):
            return f"Le toca a {turn_}, no a {who}."
        case no.CountPending(pending):
            return f"Primero hay que contar {_the(game, pending) if game is not None else bid(pending)}."
        case no.JudgementPending(call, target):
            return f"Primero hay que ver si el {call} de {target} valía."
        case no.NotInTheseRules("obligo_cerrado"):
            return f"En estas reglas el {obligo} es abierto."
        case no.NotInTheseRules(feature):
            return f"En estas reglas no {_FEATURE[feature].replace('obligo', obligo)}."
        case no.NotInThisMode("obligo", feature):
            return f"En el {obligo} no hay siciliana." if feature == "siciliana" else f"En el {obligo} no {_FEATURE[feature]}."
        case no.NotInThisMode(_, feature):
            return f"Mano a mano no {_FEATURE[feature]}."
        case no.NothingToUndo():
            return nothing_to_undo()
        case no.RoundUnderWay():
            return "La ronda ya partió; el sentido se elige antes de la primera apuesta."
        case no.BadDirection():
            return "El sentido es por la derecha o por la izquierda."
        case no.WhoStarts():
            return f"¿Quién parte? Digan, por ejemplo: parte {first}."
        case no.StarterImposed(starter, True):
            return f"En el {obligo} parte {starter}."
        case no.StarterImposed(starter, _):
            return f"Esta ronda la parte {starter}."
        case no.NoDice():
            return "Una apuesta es de al menos un dado."
        case no.BadFace():
            return "Las pintas van del as a la sena."
        case no.OverDiceInPlay(dice, over):
            return f"En la mesa hay {_count(dice, 'dado', 'dados')}: no se puede apostar {bid(over)}."
        case no.AbsurdQuantity(quantity, _):
            return f"¿{capital(names.number(quantity, False, False))}? No hay tantos dados: repitan la apuesta."
        case no.ReviveUsed():
            return "Ya se revivió una vez en esta partida."
        case no.ReviveUnequal():
            return "Para revivir todos tienen que llevar los mismos palos."
        case no.ReviveNotObligado(None):
            return f"Revive solo el que recibió el penúltimo palo, antes de su {obligo}."
        case no.ReviveNotObligado(obligador):
            return f"El que puede revivir ahora es {obligador}, antes de partir su {obligo}."
        case no.ReviveBlocked(other):
            return f"No se puede revivir: {other} también está a un palo de salir."
        case no.NotARaise(previous, ()):
            return f"No se puede subir más: queda dudar. {goes(previous)}."
        case no.NotARaise(previous, options):
            return f"No alcanza: {names.join_or([option(o) for o in options])}. {goes(previous)}."
        case no.FalsaAces(void):
            voided = "El as quedó anulado" if void == 1 else f"Los {names.quantity(void, AS)} quedaron anulados"
            return f"{voided} por la partida falsa. Hay que decir {names.quantity(void + 1, AS)} o más."
        case no.NoOpeningAces():
            return "No se puede partir con ases, salvo teniendo un solo dado."
        case no.HiddenOnlyClosed():
            return f"Decir de éstas solo vale en un {obligo} cerrado."
        case no.HiddenIsObligadors(obligador):
            return f"Decir de éstas es cosa del obligador, {obligador}: no se puede cambiar a esa pinta."
        case no.ObligoRaiseQuantity(previous, up):
            return f"En el {obligo} se sube la cantidad: después de {bid(previous)} va {bid(up)}."
        case no.ObligoFaceFixed(up):
            return f"En el {obligo} no se cambia la pinta: hay que subir a {bid(up)} o dudar."
        case no.ObligoChangeNeedsMore(quantity):
            return f"Para cambiar la pinta en el {obligo} hay que subir la cantidad: {names.number(quantity, True, False)} o más."
        case no.ObligoNotARaise(previous):
            return f"No alcanza: más dados, o una pinta mayor con la misma cantidad. {goes(previous)}."
        case no.ObligoAfterOpening():
            return f"El {obligo} se declara antes de partir."
        case no.ObligoUsed(player):
            return f"{capital(player)} ya usó su {obligo}."
        case no.ObligoNotNow(_, _, True):
            return "Se obliga antes de abrir una ronda que uno parte, una vez por partida."
        case no.ObligoNotNow("un_dado", _):
            return "Se obliga al quedar con un solo dado, y en la ronda que uno parte."
        case no.ObligoNotNow(_, palo):
            return f"Obliga el que recibe el palo número {names.number(palo, False, False)}, en la ronda siguiente."
        case no.NoBidYet(turn_, "dudo"):
            return "Todavía no hay apuesta que dudar."
        case no.NoBidYet(turn_, _):
            return f"Todavía no hay apuesta: {turn_} tiene que partir."
        case no.AfterPass("calzo", _):
            return "Una apuesta pasada no se puede calzar."
        case no.AfterPass("mato", _):
            return "Después de un paso se duda el paso o se sube; no se mata."
        case no.AfterPass("paso", True):
            return "Después de un picado se duda el picado o se sube."
        case no.AfterPass("paso", _):
            return "No se puede pasar un paso: hay que dudar el paso o subir."
        case no.AfterPass(_, _):
            return "Primero hay que responder al paso: dudarlo o subir."
        case no.CalzoThreshold(dice, need):
            return f"Ya no se puede calzar. Quedan {_count(dice, 'dado', 'dados')}, y hace falta la mitad: {_said(need)}."
        case no.CalzoFullDice():
            return "Con todos tus dados no se calza."
        case no.SicilianaOnlyOpening():
            return "A la siciliana solo se duda la partida. La duda el que sigue al que partió."
        case no.SicilianaOneDie():
            return "No se duda a la siciliana cuando alguno de los dos tiene un solo dado."
        case no.AlreadyPassed(player):
            return f"{capital(player)} ya pasó en esta ronda: hay que subir o dudar."
        case no.PasoMinDice(dice):
            return f"Para pasar hay que tener {'el dado' if dice == 1 else f'los {_n(dice)} dados'}."
        case no.PicadoUsed():
            return "Ya hubo un picado en esta ronda."
        case no.NothingToCount():
            return "No hay nada que contar ahora."
        case no.CountTooBig(total, dice):
            return f"No puede haber {names.number(total, False, False)}: en la mesa hay {_count(dice, 'dado', 'dados')}."
        case no.MissingHand(name):
            return f"Falta la mano de {name}."
        case no.HiddenNeedsTotal():
            return "Cuando se cuenta de éstas, díganme el total: no sé cuál es la pinta del obligador."
        case no.HandSize(name, dice, given):
            return f"{capital(name)} tiene {_count(dice, 'dado', 'dados')}, no {_said(given)}."
        case no.FaceRange():
            return "Las caras de un dado van del uno al seis."
        case no.NothingToJudge():
            return "No hay ningún paso ni picado dudado ahora."
        case no.UnknownRule(key, source, suggestion):
            close = f" ¿Quisiste decir '{suggestion}'?" if suggestion else ""
            return f"Regla desconocida '{key}' en {_source(source)}.{close}"
        case no.RuleErrors(reasons):
            return f"Hay {_n(len(reasons), True)} cosas que arreglar: " + " ".join(refusal(r) for r in reasons)
        case no.BadRuleValue(key, expected, value, choices):
            wanted = {
                "choice": f"uno de: {', '.join(choices)}",
                "bool": "true o false",
                "int": "un número entero",
                "fraction": "un número entre 0 y 1",
                "text": "texto",
                "hands": f"una lista con: {', '.join(choices)}",
            }[expected]
            return f"'{key}' debe ser {wanted} (vino {value!r})."
        case no.RuleOutOfRange(key, minimum, maximum, source):
            return f"'{key}' debe ir de {minimum} a {maximum} en {_source(source)}."
        case no.UnknownPreset(name, presets, True, suggestion) if suggestion:
            return f"No conozco las reglas '{name}'. ¿Quisiste decir '{suggestion}'? Hay: {', '.join(presets)}, o un archivo .toml."
        case no.UnknownPreset(name, presets, True):
            return f"No conozco las reglas '{name}': no es un preset ({', '.join(presets)}) ni un archivo."
        case no.UnknownPreset(name, presets, _, suggestion) if suggestion:
            return f"No conozco las reglas '{name}'. ¿Quisiste decir '{suggestion}'? Hay: {', '.join(presets)}."
        case no.UnknownPreset(name, presets, _):
            return f"No conozco las reglas '{name}'. Hay: {', '.join(presets)}."
        case no.RuleMissing(key, "journal:"):
            return f"Al registro le falta la regla '{key}'."
        case no.RuleMissing(key, source):
            return f"Al {_source(source).removeprefix('el ')} le falta '{key}'."
        case no.BadRulesFile(file, "carpeta"):
            return f"{file} es una carpeta; las reglas de la casa van en un archivo .toml."
        case no.BadRulesFile(file, "no_archivo"):
            return f"{file} no es un archivo común (es una tubería o un dispositivo): nombra un archivo TOML con las reglas."
        case no.BadRulesFile(file, "no_utf8"):
            return f"El archivo {file} no está en UTF-8: guárdalo de nuevo como UTF-8 (texto normal)."
        case no.BadRulesFile(file, "ilegible", detail):
            return f"No pude leer el archivo {file}: {messages.why_not_read(getattr(errno, detail, None) if detail else None)}."
        case no.BadRulesFile(file, _, detail):
            return f"El archivo {file} no es TOML válido: {detail}."
        case no.BadPresetKey(file):
            return f"'preset' debe ser el nombre de un preset en {file}."
    raise TypeError(f"no sentence for {reason!r}")


def not_the_standing_bid(game: Game, said: Bid) -> str:
    standing = game.bid
    if standing is None:
        return "Todavía no hay apuesta."
    return f"La apuesta es {say(game, standing)} de {game.bidder}, no {say(game, said)}. Nada cambió."


def need_the_dice(game: Game) -> str:
    return "Para contar necesito los dados, no el juego. Por ejemplo: tren, tren, quina, as, sena."


def not_understood() -> str:
    return "¿Cómo? Repite, por favor."


def too_long() -> str:
    """A line longer than any move, refused unread."""
    return "Eso es muy largo para ser una jugada, no lo tomo. Dila en pocas palabras."


def too_long_short() -> str:
    return "Muy largo, no lo tomo."


def missing_face(quantity: int) -> str:
    return f"¿{capital(names.number(quantity, False, False))} qué?"


def missing_quantity(game: Game, face: int) -> str:
    many = "Cuántas" if names.face_words(face, game.rules.two_is_milla)[2] else "Cuántos"
    return f"¿{many} {_face_plural(game, face)}?"


def no_bid_to_raise(game: Game) -> str:
    """«Uno más», «diez de lo mismo» with no bid standing to say it against."""
    if game.phase == "apuestas":
        return "Todavía no hay apuesta que subir: digan la cantidad y la pinta."
    ask = {"cuenta": count_question, "juicio": judgement_question}.get(game.phase)
    return f"Ahora no se apuesta. {ask(game)}" if ask else "Ahora no se apuesta."


def who_starts_first(game: Game) -> str:
    return f"Primero digan quién parte. Por ejemplo: parte {game.players[0]}, por la {game.rules.default_direction}."


def count_needs_bid_face(game: Game) -> str:
    return "Esa no es la pinta que se está contando. " + count_question(game)


def only_during_count() -> str:
    return "Eso se dice después de levantar los cachos."


def number_alone(quantity: int) -> str:
    return f"¿{capital(names.number(quantity, False, False))} qué? Digan la cantidad y la pinta."


def unknown_player(name: str | None) -> str:
    return f"No reconozco a {name}." if name else "¿Quién?"


def hand_size_mismatch(name: str, dice: int, said: int) -> str:
    return f"{capital(name)} tiene {_count(dice, 'dado', 'dados')}, y dijeron {_said(said)}."


def count_too_big(name: str, dice: int, said: int) -> str:
    return f"{capital(name)} tiene {_count(dice, 'dado', 'dados')}: no puede tener {_said(said)}."


def wrong_hand(target: str, other: str) -> str:
    return f"Necesito la mano de {target}, no la de {other}."


def nothing_to_confirm() -> str:
    return "No hay nada que confirmar."


def confirm_count(game: Game, total: int, loser: str | None) -> str:
    who = f" y {loser} queda fuera" if loser else ""
    return f"Entendí {names.number(total, False, False)}{who}. ¿Es así? Sí o no."


_ASKED_CALL = {"dudo": "duda", "calzo": "calza", "paso": "pasa", "mato": "mata", "picado": "pica", "siciliana": "duda la partida"}


def confirm_move(game: Game, actions: Sequence[Action], partials: Sequence[Partial] = ()) -> str:
    """A move half-heard, asked back in the fewest words ("¿Ocho cuadras?", "¿Beto duda?"):
    a yes plays it, anything else drops it."""
    if partials:
        kind, player, value = partials[-1]
        if kind == "cuenta" and isinstance(value, int):
            return f"¿{capital(player)} tiene {names.number(value, False, False)}?"
        return f"¿Esa es la mano de {player}?"
    action = actions[-1]
    if isinstance(action, Raise):
        return f"¿{capital(say(game, action.bid))}?"
    if isinstance(action, Call):
        return f"¿{capital(action.player)} {_ASKED_CALL[action.call]}?"
    if isinstance(action, Start):
        way = f" por la {action.direction}" if action.direction else ""
        if action.player or action.direction:
            return f"¿Parte {action.player}{way}?" if action.player else f"¿Por la {action.direction}?"
    if isinstance(action, Count):
        return f"¿Había {names.number(action.total, False, False)}?"
    if isinstance(action, Oblige):
        return f"¿{capital(action.player)} obliga?"
    return f"¿{capital(describe_action(game, action))}?"


def confirm_undo(what: str) -> str:
    return f"¿Borro {what}? Sí o no."


def confirm_penalty(name: str) -> str:
    return f"¿Castigo para {name}? Sí o no."


def cancelled() -> str:
    return "Ya, no hago nada."


def undone(what: str, game: Game) -> str:
    """Said as the table says it: "Ya, borré las seis senas de ana. Le toca a ana."."""
    return f"Ya, borré {what}. {turn(game)}"


def nothing_to_undo() -> str:
    return "No hay nada que deshacer."


def count_collecting_undone(players: Sequence[str]) -> str:
    """The last utterance of counts or hands taken back (it may have named several)."""
    return f"Borré lo de {names.join_and(list(dict.fromkeys(players)))}."


_STORAGE_CAUSES: dict[StorageCause, str] = {
    "lleno": "el disco está lleno",
    "solo_lectura": "el disco quedó en solo lectura",
    "sin_permiso": "no tengo permiso para escribir en la carpeta",
    "sin_carpeta": "la carpeta de las partidas ya no está",
    "falla": "el disco está fallando",
}


def notice(what: Notice) -> str:
    """What the table must hear about the journal."""
    if isinstance(what, StorageFailed):
        return (f"No puedo guardar la partida: {_STORAGE_CAUSES[what.cause]}. Sigo arbitrando, "
                "pero si se corta la luz se pierde lo que venga desde ahora.")
    owed = "la jugada que debía" if what.owed == 1 else f"las {_n(what.owed, True)} jugadas que debía"
    return f"Ya puedo guardar la partida otra vez: guardé {owed}."


def describe_action(game: Game, action: Action) -> str:
    """What an accepted step was, for "ya, borré …": "las seis senas de ana", "el dudo de carla"."""
    if isinstance(action, Raise):
        return _of(game, action.bid, action.player)
    if isinstance(action, Call):
        return f"{'la' if action.call == 'siciliana' else 'el'} {action.call} de {action.player}"
    if isinstance(action, Start):
        return "quién parte"
    if isinstance(action, Oblige):
        return f"el {_obligo_word(game)} de {action.player}"
    if isinstance(action, (Count, Hands)):
        return "la cuenta"
    if isinstance(action, (Verdict, ShownHand)):
        return "lo que se dijo del paso"
    if isinstance(action, Revive):
        return "la revivida" if action.player is None else f"la revivida de {action.player}"
    return f"el castigo de {action.player}"


def resumed(game: Game, given: Sequence[Partial] = ()) -> str:
    where = f"Seguimos la partida: ronda {names.number(game.round_number, False, False)}."
    return f"{where} {pending_now(game, given)}"


def pending_now(game: Game, given: Sequence[Partial] = ()) -> str:
    """Where a game stands, for a resume: the round's mode, the bid and what is missing."""
    parts: list[str] = []
    if game.obligo is not None:
        parts.append(f"Es el {_obligo_word(game)} de {game.obligo.obligador}.")
    elif game.mode == "uno_contra_uno" and len(game.players) > 2:
        parts.append("Quedan dos: mano a mano.")
    if game.phase == "cuenta" and given:
        said = names.join_and([f"{name} {_said(v) if isinstance(v, int) else 'mostró su mano'}" for _k, name, v in given])
        if game.bid:
            parts.append(f"{'Va' if game.bid.quantity == 1 else 'Van'} {say(game, game.bid)}, de {game.bidder}.")
        parts.append(f"Estamos contando: ya dijeron {said}.")
    else:
        parts.append(current_bid(game))
    return " ".join(parts)


def resume_offer(game: Game, given: Sequence[Partial] = ()) -> str:
    """The offer to go on with an unfinished game: rules, round, score and what is pending."""
    who = names.join_and(list(game.players))
    round_said = names.number(game.round_number, False, False)
    return (f"Hay una partida sin terminar de {who}, en la ronda {round_said}. {rules_said(game)}. "
            f"{score(game)} {pending_now(game, given)} ¿La seguimos? Sí o no.")


def journal_damaged(line_number: int) -> str:
    """Said aloud: which line, not which file (the terminal's log names the file)."""
    return (f"Ojo: el registro de la partida está dañado en la línea {names.number(line_number, False, False)}. "
            "Lo que venía antes de esa línea está bien, y desde ahí se sigue.")


def journal_repaired(line_numbers: Sequence[int]) -> str:
    """Lines not as written, every move read from its copy (the terminal's note names the file)."""
    where = (f"la línea {names.number(line_numbers[0], False, False)}" if len(line_numbers) == 1
             else f"las líneas {names.join_and([names.number(n, False, False) for n in line_numbers])}")
    return (f"Ojo: el registro de la partida no estaba como lo escribí, en {where}. "
            "Cada jugada está escrita dos veces: sigo con la copia, y no se perdió nada.")


def journal_garbage_at_the_end() -> str:
    return ("Ojo: la última línea del registro es basura, no la escribí yo. "
            "No la tomo en cuenta, y no se perdió ninguna jugada.")


def journal_last_line_unreadable(line_number: int) -> str:
    return (f"Ojo: la última línea del registro, la {names.number(line_number, True, False)}, no se entiende. "
            "La dejo fuera, y seguimos desde la anterior.")


def unheard_names(unknown: Sequence[str]) -> str:
    quoted = names.join_and(list(unknown))
    if len(unknown) == 1:
        return (f"No voy a poder oír el nombre {quoted}: el modelo de voz no lo conoce. "
                "Para contar, díganme el total, o usen un apodo común.")
    return (f"No voy a poder oír los nombres {quoted}: el modelo de voz no los conoce. "
            "Para contar, díganme el total, o usen apodos comunes.")


def already_finished(file_name: str, game: Game) -> str:
    return f"La partida de {file_name} ya terminó: {winner(game.winners, payers(game))}"


def microphone_lost() -> str:
    return "Perdí el micrófono: lo sigo buscando. La partida sigue guardada."


def microphone_back() -> str:
    return "Volvió el micrófono."


def listening_changed(duplex: bool) -> str:
    """The echo canceller came or went while playing (a sound server restarted)."""
    if duplex:
        return "Ahora los oigo aunque esté hablando."
    return "Ojo: ya no los oigo mientras hablo; hablen cuando me calle."


def listening_mode(duplex: bool, short: bool = False) -> str:
    """Said in the first greeting: whether the table may talk over the referee."""
    if short:
        return "los oigo aunque hable" if duplex else "hablen cuando calle"
    if duplex:
        return "Los escucho aunque esté hablando: si me interrumpen, me callo y escucho."
    return "Mientras hablo no los escucho: hablen cuando me calle."


def journal_dropped_line() -> str:
    return "Ojo: la última línea del registro estaba cortada, y la descarté."


def game_over_already(game: Game) -> str:
    return winner(game.winners, payers(game)) + " Si quieren otra, digan otra."


def _decimal(value: float | None, places: int = 1) -> str:
    return "—" if value is None else f"{value:.{places}f}".replace(".", ",")


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{_decimal(100 * share)} %"


def evaluation(model: str, report: Mapping[str, Any]) -> str:
    """``dudo evaluar``'s report, for a person."""
    chatter = report["charla"]
    lines = [
        f"Modelo: {model}. Frases: {report['frases']} ({report['frases'] - chatter} jugadas, {chatter} de charla).",
        f"Acierto de intención: {_percent(report['acierto_intencion'])} (exacto: {_percent(report['acierto_exacto'])}).",
        f"Charla tomada como jugada: {report['charla_tomada_como_jugada']} de {chatter}.",
        f"Latencia, del fin del audio al comando: mediana {_decimal(report['latencia_ms']['mediana'])} ms, "
        f"p95 {_decimal(report['latencia_ms']['p95'])} ms.",
        f"Audio: {_decimal(report['segundos_de_audio'])} s; factor de tiempo real {_decimal(report['factor_tiempo_real'], 3)}.",
    ]
    if report["confusiones"]:
        lines.append("Confusiones (esperado → entendido):")
        lines += [f"  {pair}: {n}" for pair, n in report["confusiones"].items()]
    return "\n".join(lines)


# ---------------------------------------------------------------- the scoreboard


def board_mode(game: Game) -> str:
    """The round's mode in a few words, for the screen ("" for a plain round)."""
    parts = []
    if game.obligo is not None:
        word = capital(_obligo_word(game))
        parts.append(f"{word} de {game.obligo.obligador}" + (" (cerrado)" if game.obligo.closed else ""))
    elif game.mode == "uno_contra_uno":
        parts.append("Mano a mano")
    pending = game.pending
    if pending is not None and pending.call == "siciliana":
        parts.append("Siciliana")
    if game.r.pass_standing is not None and game.phase == "apuestas":
        parts.append(f"Paso de {game.r.pass_standing}")
    if game.phase == "cuenta":
        parts.append("Contando")
    elif game.phase == "juicio":
        parts.append("Viendo la mano")
    elif game.phase == "inicio":
        parts.append("Falta decir quién parte")
    return " · ".join(parts)


def screen_on(urls: Sequence[str]) -> str:
    """Printed at the terminal: every address the page answers at, the LAN address first."""
    more = "".join(f" o en {u}" for u in urls[1:])
    return f"El marcador está en {urls[0]}{more} (ábranlo en el teléfono o en la tele del bar, o escaneen el código QR)."


def screen_waiting_for_network() -> str:
    return "El marcador está listo, pero este equipo todavía no tiene red. Cuando la tenga, la página muestra su dirección."


def screen_on_spoken(ip: str | None, name: str | None, port: int) -> str:
    """Said once by voice, in words a person can type: "dudo punto local, dos puntos, ocho
    mil ochenta". One address only (the name when there is one: it is the shorter to say
    and stays the same; the number is printed and in the QR code)."""
    host = name or ip
    if not host:
        return ""

    def word(piece: str) -> str:
        return " guion ".join(_said(int(p)) if p.isdigit() else p for p in piece.split("-"))

    typed = " punto ".join(word(p) for p in host.split("."))
    return f"El marcador está en {typed}, dos puntos, {_said(port)}. También pueden escanear el código QR."


SCREEN_HEADINGS = {"jugadores": "Jugadores", "arbitro": "El árbitro dijo", "rondas": "Últimas rondas",
                   "noche": "Partidas de esta noche", "cifras": "La noche"}
"""The page's section titles."""
SCREEN_COLUMNS = ("Jugador", "Ganadas", "Terminadas", "Rondas perdidas", "Dudas bien", "Faroles que aguantaron")
"""The night's table on the screen; "Terminadas": a game still in play is neither won nor lost yet."""
"""The night's table, left to right."""


def screen_title(rules: str, round_number: int) -> str:
    return f"Dudo · reglas {rules} · ronda {round_number}"


def screen_qr_caption() -> str:
    return "Escanéenlo con el teléfono para abrir el marcador:"


def screen_headline(game: Game) -> str:
    """The largest line between bids: who opens the round, or that the table must say it."""
    if game.over:
        return winner(game.winners, payers(game))
    if game.phase == "inicio" or game.turn is None:
        return "¿Quién parte?"
    if game.phase == "apuestas" and game.bid is None:
        return f"Parte {game.turn}"
    return ""


def screen_turn(game: Game) -> str:
    """Who speaks next, once there is a bid ("" while counting or between rounds)."""
    if game.phase == "apuestas" and game.bid is not None and game.turn is not None:
        return f"Le toca a {game.turn}"
    return ""


def screen_bid_by(player: str) -> str:
    return f"de {player}"


def screen_direction(direction: str) -> str:
    return "Se juega por la izquierda ↻" if direction == "izquierda" else "Se juega por la derecha ↺"


def screen_score(scoring: str, dice: int, palos: int, banked: int, out: bool) -> str:
    """How a seat stands, in a few characters ("3 dados +1", "2 palos", "fuera"); fichas are drawn."""
    if out:
        return "fuera"
    if scoring == "palos":
        return f"{palos} {'palo' if palos == 1 else 'palos'}"
    return f"{dice} {'dado' if dice == 1 else 'dados'}" + (f" +{banked}" if banked else "")


def screen_ficha(color: str, lost: bool) -> str:
    return f"{color} (perdida)" if lost else color


def screen_round(number: int, text: str) -> str:
    return f"Ronda {number}: {text}"


def screen_game(hour: str, winners: Sequence[str], rounds: int) -> str:
    """A finished game in tonight's list (who played goes beside it: ``screen_game_players``)."""
    won = f"{'ganaron' if len(winners) > 1 else 'ganó'} {names.join_and(list(winners))}" if winners else "sin ganador"
    return f"{hour} · {won} ({rounds} {'ronda' if rounds == 1 else 'rondas'})"


def screen_game_players(players: Sequence[str]) -> str:
    return f" · {', '.join(players)}"


def screen_more_games(n: int) -> str:
    return f"y {_n(n, True)} {'partida' if n == 1 else 'partidas'} más"


def screen_updated(hour: str) -> str:
    """Under a page that was drawn once (no live updates yet)."""
    return f"foto de las {hour}"


def screen_live() -> str:
    return "en vivo"


def screen_stale(hour: str) -> str:
    return f"Sin conexión con el árbitro desde las {hour}: lo que ven puede estar atrasado."


SCREEN_LOSSES = (("apuesta", "por apostar de más"), ("duda", "por dudar mal"), ("calzo", "por calzar mal"),
                 ("paso", "con el paso pillado"), ("picado", "con el picado pillado"), ("mato", "por un mato"),
                 ("castigo", "por castigo"))


def screen_of(right: int, tried: int) -> str:
    """"2 de 5"; a dash when nothing was tried (as in «dudo estadisticas»)."""
    return f"{right} de {tried}" if tried else "—"


def screen_player_panel(name: str, f: Mapping[str, Any]) -> str:
    """One player's night in a line: how the rounds were lost, calzos, pasos."""
    how = [f"{f['perdidas'][k]} {text}" for k, text in SCREEN_LOSSES if f["perdidas"].get(k)]
    text = f"{name}: " + (f"perdió {', '.join(how)}" if how else "no ha perdido rondas")
    if f.get("calzos"):
        text += f"; calzó bien {f['calzos_acertados']} de {f['calzos']}"
    if f.get("pasos"):
        text += f"; le pillaron {f['pasos_pillados']} de {f['pasos']} pasos"
    return text


_CALLED = {"dudo": "dudó", "calzo": "calzó", "mato": "mató", "siciliana": "dudó a la siciliana"}


def round_summary(game: Game, call: Any, events: Iterable[ev.Event]) -> str:
    """How a round ended, as the table argues about it: whose bid, who doubted or
    calzó, what there was, who paid ("beto dudó los cinco trenes de ana; había
    seis. Palo para beto."). ``call`` is the round's pending call (``caller``,
    ``call``, ``target``, ``bid``) as it stood before the count, or None."""
    parts: list[str] = []
    events = list(events)
    for e in events:
        if isinstance(e, ev.Counted):
            bid = e.bid
            feminine = _feminine(game, bid)
            article = "las" if feminine else "los"
            head = ""
            if call is not None and call.call == e.call:
                head = f"{call.caller} {_CALLED[e.call]} {article} {say(game, bid)} de {call.target}; "
            seen = ("no había ninguna" if feminine else "no había ninguno") if e.total == 0 else f"había {names.number(e.total, feminine, before_noun=False)}"
            if e.bonus:
                seen += " con la de regalo"
            parts.append(capital(head + seen) + "." if not head else head + seen + ".")
        elif isinstance(e, ev.PassJudged):
            what = "el paso" if e.call == "paso" else "el picado"
            doubter = f"{call.caller} dudó {what} de {e.player}" if call is not None else capital(f"{what} de {e.player}")
            verdict = "no valía (sin los cinco dados)" if e.short_hand else ("valía" if e.valid else "no valía")
            parts.append(f"{doubter}: {verdict}.")
        elif isinstance(e, ev.Penalized):
            parts.append(f"Castigo para {e.player}.")
        elif isinstance(e, (ev.DieLost, ev.PaloTaken)):
            parts.append(_loss_sentence(game, e, brief=True))
        elif isinstance(e, (ev.DieGained, ev.PaloReturned)):
            parts.append(_gain_sentence(game, e))
        elif isinstance(e, ev.Eliminated):
            parts.append(f"{capital(e.player)} queda fuera.")
    return " ".join(parts)


def screen_off() -> str:
    """Said aloud; why it failed goes to the terminal (``messages.screen_failed``)."""
    return "No pude abrir el marcador: la pantalla queda apagada y la partida sigue igual."


def history_line(started: str, players: Sequence[str], rules: str, winners: Sequence[str], rounds: int,
                 lost_most: tuple[str, int] | None, unit: str) -> str:
    """One finished game for ``dudo historial``."""
    who = names.join_and(list(players))
    won = f"{'ganaron' if len(winners) > 1 else 'ganó'} {names.join_and(list(winners))}" if winners else "sin ganador"
    line = f"{started} · {who} · {rules} · {won} · {rounds} {'ronda' if rounds == 1 else 'rondas'}"
    if lost_most is not None:
        name, lost = lost_most
        line += f" · perdió más {name} ({lost} {unit})"
    return line


def no_history() -> str:
    return "Todavía no hay partidas terminadas."


# ---------------------------------------------------------------- how much the referee says

LEVELS = ("poco", "normal", "todo")
"""``--hablar``: poco (earcons for what need not be said), normal, todo (teaching)."""


def sound_for(level: str, game: Game, events: Sequence[ev.Event], accepted: bool, understood: bool, doubtful: bool) -> str | None:
    """In ``poco``, the earcon that replaces the words (None: say them). A step
    accepted from a doubtful reading is always said back, so the table can say
    "corrección"; refusals, calls, results and announcements are always said."""
    if level != "poco" or doubtful:
        return None
    if not understood:
        return "repite"
    if not accepted or not events:
        return None
    if len(events) == 1 and isinstance(events[0], ev.BidMade):
        bid = events[0].bid
        return "aceptada" if bid.quantity <= game.most_possible(bid.face) else None
    if all(isinstance(e, ev.StarterNamed) for e in events) and game.obligo is None and not _round_notes(game):
        return "aceptada"
    return None


def teach(game: Game) -> str:
    """``todo``: whose turn it is and what may be said now."""
    if game.over or game.phase != "apuestas" or game.turn is None:
        return ""
    if game.bid is None:
        return f"{capital(game.turn)}, te toca abrir: di una apuesta, como dos trenes."
    may = ["subir"] + [word for call, word in (("dudo", "dudar"), ("calzo", "calzar"), ("paso", "pasar"), ("mato", "matar"))
                       if _may(game, call)]
    return f"{capital(game.turn)}, puedes {names.join_or(may)}."


# ---------------------------------------------------------------- the table's own requests


def help_now(game: Game) -> str:
    """"Ayuda": a few things that can be said now, in plain words, and an offer
    of more (``help_more``, on "sí") — except while a paso is judged, where "sí" is the verdict."""
    more = " ¿Quieres más?"
    if game.over:
        return "Si quieren jugar de nuevo, digan otra. Para cerrar la noche, digan terminamos."
    if game.phase == "inicio":
        return f"Digan quién parte. Por ejemplo: parte {game.players[0]}.{more}"
    if game.phase == "juicio":
        pending = game.pending
        assert pending is not None
        return f"Digan sí si el paso valía, o no si no valía. También sirve la mano de {pending.target}."
    if game.phase == "cuenta":
        pending = game.pending
        assert pending is not None
        if pending.bid.face == HIDDEN:
            return f"Digan cuántas hay de la pinta del obligador. Por ejemplo: hay tres.{more}"
        many = "cuántas" if _feminine(game, pending.bid) else "cuántos"
        return f"Digan {many} {_face_plural(game, pending.bid.face)} hay. Por ejemplo: hay tres.{more}"
    turn = game.turn or ""
    calls = [word for call, word in (("dudo", "dudar"), ("calzo", "calzar"), ("paso", "pasar"), ("mato", "matar")) if _may(game, call)]
    if game.bid is None:
        return f"Te toca abrir, {turn}: di una apuesta, como tres trenes.{more}"
    options = game.raise_options()
    if options:
        up = f"Puedes subir: {_options(game, options)}."
    elif game.r.falsa_free:
        up = "Puedes apostar lo que quieras."
    else:
        up = "Puedes subir la apuesta." if game.obligo is not None else "Ya no se puede subir."
    also = f" También puedes {names.join_or(calls)}." if calls else ""
    return f"Te toca, {turn}. {up}{also}{more}"


def help_more(game: Game) -> str:
    """The rest of the help, after "¿Quieres más?"."""
    if game.phase == "inicio":
        return "También pueden elegir el lado: por la derecha. Y preguntar cuáles son las reglas."
    if game.phase == "cuenta":
        return (f"También sirve que cada uno diga lo suyo, como {game.players[0]} dos. O sus dados: tren, tren, quina. "
                "Si algo quedó mal, digan corrección.")
    return ("En cualquier momento pueden preguntar cómo vamos, o a quién le toca. Si algo quedó mal, digan corrección. "
            "Al terminar, digan otra para jugar de nuevo, o terminamos para cerrar.")


def another_game(joining: Sequence[str] = (), leaving: Sequence[str] = (), seats: Sequence[str] = ()) -> str:
    if not joining and not leaving:
        return "¡Otra! Con los mismos jugadores y las mismas reglas."
    said = []
    if joining:
        said.append(("Entra " if len(joining) == 1 else "Entran ") + names.join_and(list(joining)))
    if leaving:
        said.append(("sale " if len(leaving) == 1 else "salen ") + names.join_and(list(leaving)))
    return f"¡Otra! {capital('; '.join(said))}. Juegan {names.join_and(list(seats))}, con las mismas reglas."


def not_at_the_table(name: str) -> str:
    return f"{capital(name)} no está jugando: no puede salir."


def already_at_the_table(name: str) -> str:
    return f"{capital(name)} ya está en la mesa."


def finish_first() -> str:
    return "Todavía estamos jugando. Para empezar otra, terminen esta o digan terminamos."


def good_night(game: Game) -> str:
    if game.over or not game.history:
        return "¡Buenas noches! Gracias por jugar."
    return "Terminamos. La partida queda guardada para seguirla otro día."


# ---------------------------------------------------------------- the night's figures


def bid_words(bid: Bid) -> str:
    """A bid in words with the common face names: "siete trenes"."""
    return names.quantity(bid.quantity, bid.face, False)


def bid_figures(bid: Bid) -> str:
    """A bid with its quantity in figures, for a table: "3 trenes", "1 as"."""
    return f"{bid.quantity} {names.face_name(bid.face, bid.quantity != 1)}"


def _times(n: int, one: str, many: str, feminine: bool = True) -> str:
    """"una partida", "tres partidas", "ninguna"."""
    if n == 0:
        return "ninguna" if feminine else "ninguno"
    return f"{names.number(n, feminine)} {one if n == 1 else many}"


def _una(n: int) -> str:
    """A feminine number standing alone: "una", "dos", "ninguna"."""
    return "ninguna" if n == 0 else names.number(n, True, before_noun=False)


def night_answer(what: str, totals: Totals, player: str | None = None) -> tuple[str, str]:
    """The answer to a question about the night's figures: (whole, short). The
    short one (``--hablar poco``) is two sentences at most."""
    if not totals.players:
        return NO_NIGHT_YET, NO_NIGHT_YET
    if what == "jugador" or (what == "noche" and player):
        return player_figures(totals, player or "")
    if what == "dudas":
        return best_at(totals, "dudas", "dudas_acertadas")
    if what == "calzos":
        return best_at(totals, "calzos", "calzos_acertados")
    if what == "apuestas":
        return best_bluffer(totals)
    standing_whole, standing_short = night_standing(totals)
    if what == "noche":
        return standing_whole, standing_short
    doubts_whole, doubts_short = best_at(totals, "dudas", "dudas_acertadas")
    bluff_whole, _ = best_bluffer(totals)
    return f"{standing_whole} {doubts_whole} {bluff_whole}", f"{standing_short} {doubts_short}"


NO_NIGHT_YET = "Esta noche todavía no hay jugadas guardadas: parece que recién empezamos."


def night_standing(totals: Totals) -> tuple[str, str]:
    """Who wins the night: games won, then fewer rounds lost."""
    players = totals.players
    finished = max((f["terminadas"] for f in players.values()), default=0)
    order = sorted(players, key=lambda p: (-players[p]["ganadas"], players[p]["rondas_perdidas"]))
    if finished == 0:
        fewest = players[order[0]]["rondas_perdidas"]
        best = [p for p in order if players[p]["rondas_perdidas"] == fewest]
        if fewest == 0:
            lost = "no ha perdido ninguna ronda" if len(best) == 1 else "no han perdido ninguna ronda"
        else:
            lost = f"{'ha' if len(best) == 1 else 'han'} perdido {'solo ' if fewest == 1 else ''}{_times(fewest, 'ronda', 'rondas')}"
        who = f"{'Va' if len(best) == 1 else 'Van'} mejor {names.join_and(best)}"
        return (f"Todavía no termina ninguna partida esta noche. {who}: {lost}.",
                f"Todavía no termina ninguna partida; {who[0].lower()}{who[1:]}: {lost}.")
    winners = [p for p in order if players[p]["ganadas"]]
    wins = [f"{p} {_una(players[p]['ganadas'])}" for p in winners]
    rest = [p for p in order if not players[p]["ganadas"]]
    won_line = names.join_and(wins) + (f"; {'el resto' if len(rest) > 1 else rest[0]}, ninguna" if rest else "")
    top = [p for p in order if players[p]["ganadas"] == players[order[0]]["ganadas"]]
    done = totals.finished or finished  # a game still in play is neither won nor lost yet
    games = _times(done, "partida terminada", "partidas terminadas")
    playing = " y una en juego" if totals.games > done else ""
    if len(top) > 1:
        verdict = f"Van empatados {names.join_and(top)}, con {_times(players[top[0]]['ganadas'], 'partida', 'partidas')} cada uno."
        short = verdict
    else:
        won = players[top[0]]["ganadas"]
        verdict = f"Va ganando {top[0]}."
        short = (f"Va ganando {top[0]}: ganó la única partida terminada." if done == 1
                 else f"Va ganando {top[0]}, con {names.number(won, True)} de {names.number(done, True)}.")
    return f"Esta noche {'va' if done == 1 and not playing else 'van'} {games}{playing}. Ganadas: {won_line}. {verdict}", short


def player_figures(totals: Totals, player: str) -> tuple[str, str]:
    """A player's night, in short sentences; how the rounds were lost says the two
    main ways and counts the rest together."""
    f = totals.players.get(player)
    if f is None or not f["partidas"]:
        text = f"{capital(player)} no ha jugado esta noche."
        return text, text
    how = sorted(((n, label) for label, n in (
        ("por apostar de más", f.lost["apuesta"]), ("por dudar mal", f.lost["duda"]), ("por calzar mal", f.lost["calzo"]),
        ("con un paso pillado", f.lost["paso"]), ("con un picado pillado", f.lost["picado"]), ("matando o muerto", f.lost["mato"]),
        ("por castigo", f.lost["castigo"])) if n), key=lambda pair: -pair[0])
    done = f["terminadas"]  # a game still in play is neither won nor lost yet
    if done == 0:
        head = f"{capital(player)} está en su primera partida de la noche"
    else:
        won = f"ganó {_una(f['ganadas'])}" if f["ganadas"] else "no ganó ninguna"
        head = f"{capital(player)} terminó {_times(done, 'partida', 'partidas')} y {won}"
        if f["partidas"] > done:
            head += ", y va en otra"
    rounds = f"perdió {_times(f['rondas_perdidas'], 'ronda', 'rondas')}" if f["rondas_perdidas"] else "no perdió ninguna ronda"
    ways = [f"{_una(n)} {label}" for n, label in how[:2]]
    others = sum(n for n, _ in how[2:])
    if others:
        ways.append(f"{_una(others)} de otras formas")
    one_way = len(how) == 1 and how[0][0] == f["rondas_perdidas"]
    detail = f", {how[0][1]}" if one_way else f": {names.join_and(ways)}" if how else ""
    parts = [f"{head}.", f"{capital(rounds)}{detail}."]
    if f["dudas"]:
        parts.append(f"Dudó {_times(f['dudas'], 'vez', 'veces')} y {_right(f['dudas'], f['dudas_acertadas'], 'le achuntó')}.")
    if f["calzos"]:
        parts.append(f"Calzó {_times(f['calzos'], 'vez', 'veces')} y {_right(f['calzos'], f['calzos_acertados'], 'acertó')}.")
    if f["pasos"]:
        caught = f"lo pillaron {_times(f['pasos_pillados'], 'vez', 'veces')}" if f["pasos_pillados"] else "nunca lo pillaron"
        parts.append(f"Pasó {_times(f['pasos'], 'vez', 'veces')} y {caught}.")
    if f.biggest is not None:
        parts.append(f"Su mejor bluf aguantado: {bid_words(f.biggest)}.")
    short = f"{head}; {rounds}."
    return " ".join(parts), short


def _right(tried: int, right: int, verb: str) -> str:
    """Of so many veces (feminine): "le achuntó a dos", "acertó todas", "no le achuntó a ninguna"."""
    to = "a " if verb.startswith("le ") else ""
    if right == 0:
        return f"no {verb}" if tried == 1 else f"no {verb} {to}ninguna"
    if right == tried:
        return verb if tried == 1 else f"{verb} {to}todas"
    return f"{verb} {to}{_una(right)}"


def best_at(totals: Totals, tried: str, right: str) -> tuple[str, str]:
    """Who is best at doubting (or calzar): the most right, then the best share."""
    doubting = tried == "dudas"
    players = {p: f for p, f in totals.players.items() if f[tried]}
    if not players:
        text = f"Nadie ha {'dudado' if doubting else 'calzado'} todavía esta noche."
        return text, text
    ranked = sorted(players, key=lambda p: (-players[p][right], -players[p][right] / players[p][tried]))
    verb = "le achuntó" if doubting else "acertó"

    def record(p: str) -> str:
        f = players[p]
        if not f[right]:
            return f"{'dudó' if doubting else 'calzó'} {_times(f[tried], 'vez', 'veces')} sin {'achuntarle' if doubting else 'acertar'}"
        if f[tried] == 1:
            return f"{verb} {'a su única duda' if doubting else 'su único calzo'}"
        return f"{verb} {'a ' if doubting else ''}{_una(f[right])} de {_una(f[tried])}"

    if players[ranked[0]][right] == 0:
        most = max(players[p][tried] for p in ranked)
        top = [p for p in ranked if players[p][tried] == most]
        nobody = "Nadie le ha achuntado a una duda todavía." if doubting else "Nadie ha acertado un calzo todavía."
        did = "dudó" if doubting else "calzó"
        if len(top) == 1:
            text = f"{nobody} Quien más {did}: {top[0]}, {_times(most, 'vez', 'veces')}."
        else:
            text = f"{nobody} Quienes más {did[:-1]}aron: {names.join_and(top)}, {_times(most, 'vez', 'veces')} cada uno."
        return text, nobody
    line = f"{'Duda' if doubting else 'Calza'} mejor {ranked[0]}: {record(ranked[0])}."
    if len(ranked) == 1:
        return line, line
    return f"{line} Le sigue {ranked[1]}: {record(ranked[1])}.", line


def best_bluffer(totals: Totals) -> tuple[str, str]:
    """Whose doubted bids held most (a bluff nobody doubted is never seen)."""
    players = {p: f for p, f in totals.players.items() if f["apuestas_dudadas"]}
    if not players:
        text = "Todavía nadie ha tenido una apuesta dudada esta noche."
        return text, text
    best = max(players, key=lambda p: (players[p]["apuestas_aguantadas"], -players[p]["apuestas_dudadas"]))
    f = players[best]
    held = f["apuestas_aguantadas"]
    if held == 0:
        text = "Ninguna apuesta dudada ha aguantado todavía esta noche: nadie se ha salido con un bluf."
        return text, text
    doubted = f["apuestas_dudadas"]
    if doubted == 1:
        story = "le dudaron una apuesta y aguantó"
    else:
        kept = "aguantaron todas" if held == doubted else "aguantó una" if held == 1 else f"aguantaron {_una(held)}"
        story = f"le dudaron {_times(doubted, 'apuesta', 'apuestas')} y {kept}"
    line = f"Blufea mejor {best}: {story}."
    whole = line + (f" La más grande que aguantó: {bid_words(f.biggest)}." if f.biggest is not None else "")
    return whole, line
