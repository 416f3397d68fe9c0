"""Every sentence the referee says, in one place, in the register of a Chilean table.

Short on purpose: at a table, silence is golden. Numbers and names are said
as a person says them ("quedan diecisiete dados", "palo para beto, lleva cuatro").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from assistant.rules import AS, Bid, Event, Game, names

# ---------------------------------------------------------------- helpers


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
        return f"{_n(seat.dice)} {'dado' if seat.dice == 1 else 'dados'}{extra}"
    if game.rules.scoring == "fichas":
        left = game.rules.loss_limit - seat.palos
        return f"{_n(left, True)} {'ficha' if left == 1 else 'fichas'}"
    return f"{_n(seat.palos)} {'palo' if seat.palos == 1 else 'palos'}" if seat.palos else "ningún palo"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------- set-up


def greeting(game: Game) -> str:
    order = names.join_and(list(game.players))
    rules = game.rules
    summary = rules.summary or f"Reglas {rules.name}."
    if rules.overrides:
        summary += f" Con cambios de la casa en: {', '.join(rules.overrides)}."
    return (
        f"¡Hola! Juegan {order}, en ese orden por la izquierda; por la derecha es al revés. "
        f"{summary} {ask_starter()}"
    )


def ask_players() -> str:
    return "¿Quiénes juegan? Digan los nombres en orden, separados por comas."


def need_two_players() -> str:
    return "Necesito al menos dos nombres, separados por comas: ana, beto, carla."


def say_yes_or_no() -> str:
    return "Digan sí o no."


def ask_starter() -> str:
    return "¿Quién parte, y para qué lado? Por ejemplo: «parte ana por la izquierda»."


def started(game: Game) -> str:
    assert game.starter is not None
    direction = "izquierda" if game.direction == 1 else "derecha"
    text = f"Parte {game.starter}, por la {direction}."
    return text + _round_notes(game)


def _round_notes(game: Game) -> str:
    notes = ""
    if game.obligo is not None:
        notes += " " + obligo_rules(game)
    elif game.obligo_offer is not None:
        notes += " " + obligo_offer(game.obligo_offer)
    return notes


def obligo_offer(name: str) -> str:
    return f"{capital(name)}, puedes obligar: di «obligo» o «obligo cerrado» antes de partir."


def obligo_rules(game: Game) -> str:
    ob = game.obligo
    assert ob is not None
    rules = game.rules
    word = "Obligado" if rules.scoring != "dados" else "Obligo"
    parts = [f"{word} de {ob.obligador}{' cerrado' if ob.closed else ''}: los ases no son comodines"]
    if rules.obligo_aces_rank_seven:
        parts[0] += " y valen más que la sena"
    if rules.millas:
        parts.append("las millas no llevan regalo")
    changers = {
        "nadie": "nadie cambia la pinta, solo se sube la cantidad",
        "obligador_e_iguales": "solo el que obliga, o quien esté a un palo de salir, cambia la pinta",
        "iguales": "solo otro jugador con un dado puede cambiar la pinta, subiendo la cantidad",
    }[rules.obligo_changers]
    parts.append(changers)
    banned = [w for w, ok in (("calza", rules.obligo_calzo or not rules.calzo), ("pasa", rules.obligo_paso or not rules.paso)) if not ok]
    if banned:
        parts.append("no se " + " ni se ".join(banned))
    if ob.closed:
        parts.append("se puede decir «de éstas»")
    return capital(", ".join(parts)) + "."


def duel_rules(game: Game) -> str:
    rules = game.rules
    banned = []
    if rules.calzo and not rules.duel_calzo:
        banned.append("calce")
    if rules.paso and not rules.duel_paso:
        banned.append("paso")
    if rules.obligo != "no" and not rules.duel_obligo:
        banned.append("obligado" if rules.scoring != "dados" else "obligo")
    text = "Quedan dos: mano a mano"
    return text + (f", sin {names.join_or(banned).replace(' o ', ' ni ')}." if banned else ".")


# ---------------------------------------------------------------- during a round


def bid_accepted(game: Game, bid: Bid) -> str:
    text = f"{capital(game.say(bid))}. Sigue {game.turn}."
    return text


def falsa(game: Game, quantity: int) -> str:
    return (
        f"Partida falsa: quedan anulados los {names.quantity(quantity, AS)}. "
        f"{capital(str(game.turn))}: duda, calza o apuesta lo que quieras."
    )


def passed(game: Game, passer: str) -> str:
    assert game.bid is not None
    return f"Pasa {passer}. {capital(str(game.turn))}: duda el paso o sube de {game.say(game.bid)}."


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
    said = game.say(bid)
    opener = {
        "dudo": f"{capital(caller)} duda {'las' if _feminine(game, bid) else 'los'} {said} de {target}.",
        "siciliana": f"{capital(caller)} duda a la siciliana {'las' if _feminine(game, bid) else 'los'} {said} de {target}: "
        f"se juegan {_n(game.rules.siciliana_cost)} {_loss_unit(game, game.rules.siciliana_cost)}.",
        "calzo": f"{capital(caller)} calza {said}.",
        "mato": f"{capital(caller)} mata {'las' if _feminine(game, bid) else 'los'} {said} de {target}.",
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
    return f"¿Y {missing[0]}?"


# ---------------------------------------------------------------- results


def result(game: Game, events: Iterable[Event]) -> str:
    """One breath: the count, who loses, how they stand, who is out, who starts."""
    parts: list[str] = []
    events = list(events)
    someone_out = any(e["tipo"] == "eliminado" for e in events)
    for e in events:
        kind = e["tipo"]
        if kind == "cuenta":
            parts.append(_count_sentence(game, e))
        elif kind == "juicio" and e.get("sin_cinco_dados"):
            parts.append(f"{capital(e['jugador'])} pasó sin tener los cinco dados: el paso no vale.")
        elif kind == "juicio":
            what = "el paso" if e["llamada"] == "paso" else "el picado"
            parts.append(f"{capital(what)} de {e['jugador']} {'valía' if e['valido'] else 'no valía'}.")
        elif kind == "castigo":
            parts.append("Castigo.")
        elif kind == "pierde":
            parts.append(_loss_sentence(game, e))
        elif kind == "gana":
            parts.append(_gain_sentence(game, e))
        elif kind == "eliminado":
            parts.append(f"{capital(e['jugador'])} queda fuera.")
        elif kind == "fin":
            parts.append(winner(e["ganadores"]))
        elif kind == "ronda":
            parts.append(new_round(game, e, duel_now=someone_out))
    return " ".join(parts)


def _count_sentence(game: Game, e: Event) -> str:
    face = 0 if e["pinta"] == "estas" else int(e["pinta"])
    seen = e["vistos"]
    singular, _, feminine = names.face_words(face, game.rules.two_is_milla)
    if seen == 0:
        text = f"No había {'ninguna' if feminine else 'ningún'} {'de esas' if face == 0 else singular}"
    elif face == 0:
        text = f"Había {_n(seen, True)} de esas"
    else:
        text = f"Había {names.quantity(seen, face, game.rules.two_is_milla)}"
    if e["bono"]:
        text += f", más la de regalo: {names.number(e['total'], True, False)}"
    exact = e["llamada"] in ("calzo", "mato") and e["total"] == e["cantidad"]
    just = ("justa" if feminine else "justo") + ("s" if e["total"] != 1 else "")
    return text + (f" {just}" if exact else "") + "."


def _loss_sentence(game: Game, e: Event) -> str:
    name, n = e["jugador"], e["cantidad"]
    if game.rules.scoring == "palos":
        head = f"Palo para {name}" if n == 1 else f"{capital(_n(n))} palos para {name}"
        return f"{head}, lleva {_said(e['palos'])}." if e["palos"] < game.rules.loss_limit else f"{head}."
    if game.rules.scoring == "fichas":
        left = game.rules.loss_limit - e["palos"]
        head = f"{capital(name)} pierde {'una ficha' if n == 1 else _n(n, True) + ' fichas'}"
        return f"{head}, le {'queda' if left == 1 else 'quedan'} {_n(left, True)}." if left else f"{head}."
    if e.get("usa_a_favor") == n:
        return f"{capital(name)} pierde el dado que tenía a favor y sigue con {_said(e['dados'])}."
    head = f"{capital(name)} pierde {'un dado' if n == 1 else _n(n) + ' dados'}"
    if e["dados"] == 0:
        return f"{head}."
    left = f"le {'queda' if e['dados'] == 1 else 'quedan'} {_said(e['dados'])}"
    if e.get("a_favor"):
        left += " y uno a favor"
    return f"{head}, {left}."


def _gain_sentence(game: Game, e: Event) -> str:
    name = e["jugador"]
    if not e.get("cambia", True):
        if game.rules.scoring != "dados":
            return f"{capital(name)} calzó, y como no tiene palos, queda igual."
        return f"{capital(name)} calzó, pero ya tiene sus {_n(e['dados'])} dados: queda igual."
    if game.rules.scoring != "dados":
        return f"{capital(name)} calzó: se le quita un palo, lleva {_said(e['palos'])}."
    if e["a_favor"] and e["dados"] == game.rules.dice_per_player:
        return f"{capital(name)} calzó: tiene todos sus dados y queda con uno a favor."
    return f"{capital(name)} calzó: recupera un dado, tiene {_n(e['dados'])}."


def new_round(game: Game, e: Event, duel_now: bool = False) -> str:
    """"Parte beto.", with the obligo's or the 1 vs 1 restrictions when they begin."""
    text = f"Parte {e['parte']}."
    if e.get("obligador"):
        text += " " + obligo_rules(game)
    elif e.get("puede_obligar"):
        text += " " + obligo_offer(e["puede_obligar"])
    if e["modo"] == "uno_contra_uno" and duel_now:
        text = duel_rules(game) + " " + text
    return text


def winner(winners: Sequence[str]) -> str:
    if len(winners) == 1:
        return f"¡Ganó {winners[0]}! Buena partida."
    return f"¡Ganaron {names.join_and(list(winners))}! Buena partida."


# ---------------------------------------------------------------- queries


def dice_in_play(game: Game) -> str:
    n = game.dice_in_play
    if game.rules.scoring == "dados":
        return f"{'Queda' if n == 1 else 'Quedan'} {_n(n)} {'dado' if n == 1 else 'dados'} en la mesa."
    return f"Hay {_n(n)} dados en la mesa."


def score(game: Game) -> str:
    parts = [f"{name}, {'fuera' if game.seats[name].out else _standing(game, name)}" for name in game.players]
    return capital("; ".join(parts)) + "."


def turn(game: Game) -> str:
    if game.over:
        return winner(game.winners)
    if game.phase == "inicio":
        return "Todavía nadie parte. " + ask_starter()
    if game.phase == "cuenta":
        return "Estamos contando. " + count_question(game)
    if game.phase == "juicio":
        return judgement_question(game)
    return f"Le toca a {game.turn}."


def current_bid(game: Game) -> str:
    if game.over:
        return winner(game.winners)
    if game.bid is None:
        if game.phase == "inicio":
            return "Todavía no hay apuesta. " + ask_starter()
        return f"Todavía no hay apuesta: parte {game.starter}."
    text = f"Van {game.say(game.bid)}, de {game.bidder}."
    if game.phase == "cuenta":
        return text + " " + count_question(game)
    if game.phase == "juicio":
        return text + " " + judgement_question(game)
    return text + f" Le toca a {game.turn}."


# ---------------------------------------------------------------- problems


def illegal(game: Game, reason: str) -> str:
    if game.phase == "apuestas" and game.turn:
        return f"{reason} Otra vez, {game.turn}."
    return reason


def not_understood() -> str:
    return "¿Cómo? Repite, por favor."


def missing_face(quantity: int) -> str:
    return f"¿{capital(names.number(quantity, False, False))} qué?"


def missing_quantity(game: Game, face: int) -> str:
    many = "Cuántas" if names.face_words(face, game.rules.two_is_milla)[2] else "Cuántos"
    return f"¿{many} {_face_plural(game, face)}?"


def who_starts_first() -> str:
    return "Primero digan quién parte: por ejemplo, «parte ana por la izquierda»."


def count_needs_bid_face(game: Game) -> str:
    return "Esa no es la pinta que se está contando. " + count_question(game)


def only_during_count() -> str:
    return "Eso se dice después de levantar los cachos."


def number_alone(quantity: int) -> str:
    return f"¿{capital(names.number(quantity, False, False))} qué? Digan la cantidad y la pinta."


def unknown_player(name: str | None) -> str:
    return f"No reconozco a {name}." if name else "¿Quién?"


def hand_size_mismatch(name: str, dice: int, said: int) -> str:
    return f"{capital(name)} tiene {_n(dice)} {'dado' if dice == 1 else 'dados'}, y dijeron {_said(said)}."


def count_too_big(name: str, dice: int, said: int) -> str:
    return f"{capital(name)} tiene {_n(dice)} {'dado' if dice == 1 else 'dados'}: no puede tener {_said(said)}."


def wrong_hand(target: str, other: str) -> str:
    return f"Necesito la mano de {target}, no la de {other}."


def nothing_to_confirm() -> str:
    return "No hay nada que confirmar."


def confirm_count(game: Game, total: int, loser: str | None) -> str:
    who = f" y {loser} queda fuera" if loser else ""
    return f"Entendí {names.number(total, False, False)}{who}. ¿Es así? Sí o no."


def confirm_undo(what: str) -> str:
    return f"¿Deshago {what}? Sí o no."


def confirm_penalty(name: str) -> str:
    return f"¿Castigo para {name}? Sí o no."


def cancelled() -> str:
    return "Ya, no hago nada."


def undone(what: str, game: Game) -> str:
    return f"Deshecho: {what}. {turn(game)}"


def nothing_to_undo() -> str:
    return "No hay nada que deshacer."


def count_collecting_undone(name: str) -> str:
    return f"Borré lo de {name}."


def describe_action(game: Game, action_json: dict[str, object]) -> str:
    """What an accepted step was, for "deshecho: …"."""
    kind = action_json["tipo"]
    player = action_json.get("jugador")
    if kind == "apuesta":
        face = action_json["pinta"]
        bid = Bid(int(action_json["cantidad"]), 0 if face == "estas" else int(face))  # type: ignore[call-overload]
        return f"la apuesta de {player}, {game.say(bid)}"
    if kind == "llamada":
        return f"el {action_json['llamada']} de {player}"
    if kind == "parte":
        return "quién parte"
    if kind == "obligo":
        return f"el obligo de {player}"
    if kind in ("cuenta", "manos"):
        return "la cuenta"
    if kind in ("juicio", "mano"):
        return "el juicio del paso"
    return f"el castigo de {player}"


def resumed(game: Game) -> str:
    where = f"Seguimos la partida: ronda {names.number(game.round_number, False, False)}."
    return f"{where} {current_bid(game)}"


def resume_offer(players: Sequence[str]) -> str:
    return f"Hay una partida sin terminar con {names.join_and(list(players))}. ¿La seguimos? Sí o no."


def unheard_names(unknown: Sequence[str]) -> str:
    quoted = names.join_and([f"«{n}»" for n in unknown])
    if len(unknown) == 1:
        return (f"No voy a poder oír el nombre {quoted}: el modelo de voz no lo conoce. "
                "Para contar, díganme el total, o usen un apodo común.")
    return (f"No voy a poder oír los nombres {quoted}: el modelo de voz no los conoce. "
            "Para contar, díganme el total, o usen apodos comunes.")


def journal_dropped_line(line_number: int) -> str:
    return f"Ojo: la última línea del registro (la {line_number}) estaba cortada y la descarté."


def game_over_already(game: Game) -> str:
    return winner(game.winners) + " Para otra, partan una nueva con «dudo jugar»."
