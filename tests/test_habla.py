"""The referee speaks like the table: right, short, and heard the first time (issue 38).

Two nets. Scripted games in the four presets, played through the parser and
the referee as a table plays them (a bid of one on every face, every call the
preset has, «repite» after every verdict, help, questions, corrections), with
every reply checked (``tests/spoken.py``). And every template of ``replies``
rendered with representative values — quantity one, every face, every preset,
every state a reply is said in — so a new reply that is too long, carries a
mark the synthesizer cannot voice or breaks agreement fails here, and a new
function of ``replies`` that is in neither list fails too.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from assistant import replies
from assistant import words as names
from assistant.changes import Partial, StorageFailed, StorageRecovered
from assistant.referee import Referee, Reply
from assistant.rules import AS, HIDDEN, Bid, Game, RulesError, preset, with_overrides
from assistant.rules import events as ev
from assistant.rules.actions import Action, Call, Count, Oblige, Raise, Start
from assistant.rules.figures import Figures, Totals
from assistant.session import script_lines, simulate
from assistant.speech import Parser
from tests.spoken import MAX_WORDS, problems, says_number, sentences
from tests.test_golden import GOLDEN, header
from tests.test_replies_cover import REASONS, _instance

PRESETS = ("clasico", "caleuchano", "chimbo9", "yocacho")
PLAYERS = ("ana", "beto", "carla")


def _figures(lost: dict[str, int] | None = None, biggest: Bid | None = None, **counts: int) -> Figures:
    f = Figures()
    f.counts.update(counts)
    f.lost.update(lost or {})
    f.biggest = biggest
    return f


NIGHT = Totals(3, finished=3, players={
    "ana": _figures({"apuesta": 2, "duda": 1, "calzo": 1, "castigo": 1}, Bid(7, 3), partidas=3, ganadas=2, terminadas=3,
                    rondas_perdidas=5, dudas=3, dudas_acertadas=1, calzos=1, pasos=2, pasos_pillados=1,
                    apuestas_dudadas=3, apuestas_aguantadas=1),
    "beto": _figures({"duda": 1}, partidas=3, ganadas=1, terminadas=3, rondas_perdidas=1, dudas=1, calzos=2,
                     calzos_acertados=1, apuestas_dudadas=1, apuestas_aguantadas=1),
    "carla": _figures({"apuesta": 1}, partidas=3, terminadas=3, rondas_perdidas=1, calzos=1),
    "dani": _figures(partidas=1, terminadas=1),
})


# ---------------------------------------------------------------- a table, by voice


class Table:
    """A game played through the parser and the referee, every reply kept."""

    def __init__(self, rules: str, players: tuple[str, ...] = PLAYERS) -> None:
        self.game = Game(preset(rules), list(players))
        self.referee = Referee(self.game, night=lambda: NIGHT)
        self.parser = Parser(players=players)
        self.said: list[tuple[str, Reply]] = [("", Reply(self.referee.opening(), True))]

    def say(self, line: str) -> Reply:
        reply = self.referee.handle(self.parser.parse(line))
        self.said.append((line, reply))
        return reply

    def takes(self, line: str) -> bool:
        return self.referee.accepts(self.parser.parse(line))


def scripted_game(rules: str) -> Table:
    """A whole game, round after round: a bid of one on the next face (on a bid
    the preset allows to be raised to it when it cannot open), the next call the
    preset has, a count of none, one or two, then «repite»; around it the
    questions, the help and the corrections a table says."""
    table = Table(rules)
    game = table.game
    table.say("ayuda")
    table.say("sí")
    table.say("cómo va beto")  # no game yet: the night
    table.say("parte ana")
    for round_ in range(40):
        if game.over:
            break
        face = 1 + round_ % 6
        one = replies.say(game, Bid(1, face))
        if not table.say(one).accepted:
            table.say(replies.say(game, Bid(1, 3)))
            if not table.say(one).accepted:
                table.say(replies.say(game, Bid(2, face)))
        if round_ % 3 == 1:
            table.say("ayuda")
            table.say("sí" if round_ % 2 else "no")
            table.say("cómo va beto")
            table.say("cómo va carla esta noche")
        calls = ["calzo", "dudo", "mato"]
        calls = calls[round_ % 3:] + calls[: round_ % 3]
        table.say(next((c for c in calls if table.takes(c)), "dudo"))
        table.say("repite")
        count = f"hay {names.number(round_ % 3, False, False)}"
        if round_ % 4 == 2:
            table.say(count)
            table.say("corrección")
        table.say(count)
        table.say("repite")
        if round_ % 2 == 0:
            table.say("cómo vamos")
    table.say("quién va ganando la noche")
    table.say("cuáles son las reglas")
    table.say("terminamos")
    return table


GAMES = {rules: scripted_game(rules) for rules in PRESETS}


def _spoken(rules: str) -> Iterator[tuple[str, Reply]]:
    yield from GAMES[rules].said


@pytest.mark.parametrize("rules", PRESETS)
def test_every_reply_of_a_scripted_game_is_short_voiceable_and_agrees(rules: str) -> None:
    bad = [(line, reply.text, problems(reply.text)) for line, reply in _spoken(rules) if problems(reply.text)]
    assert not bad, bad


@pytest.mark.parametrize("rules", PRESETS)
def test_the_scripted_game_has_a_verdict_on_a_bid_of_one_of_every_face(rules: str) -> None:
    """The net is cast: each face bid at one was counted, and the game reached its winner."""
    ones = {e.bid.face for _line, reply in _spoken(rules) for e in reply.events if isinstance(e, ev.Counted) and e.bid.quantity == 1}
    assert ones == {1, 2, 3, 4, 5, 6}
    assert GAMES[rules].game.over


@pytest.mark.parametrize("rules", PRESETS)
def test_each_verdicts_first_sentence_names_the_count_and_the_bids_quantity(rules: str) -> None:
    verdicts = 0
    for _line, reply in _spoken(rules):
        for e in reply.events:
            if isinstance(e, ev.Counted):
                first = sentences(reply.text)[0]
                assert says_number(first, e.total) and says_number(first, e.bid.quantity), (e, first)
                verdicts += 1
    assert verdicts >= 6


@pytest.mark.parametrize("rules", PRESETS)
def test_repite_after_a_verdict_says_the_verdict_again(rules: str) -> None:
    said = list(_spoken(rules))
    repeated = 0
    for (_line, before), (line, reply) in itertools.pairwise(said):
        if line == "repite" and any(isinstance(e, ev.Counted) for e in before.events):
            assert reply.accepted and reply.text == before.text
            repeated += 1
        elif line == "repite" and any(isinstance(e, ev.Called) for e in before.events):
            assert reply.text == before.text  # the question pending, as it was asked
    assert repeated >= 6


@pytest.mark.parametrize("rules", PRESETS)
def test_a_call_names_whose_bid_it_is(rules: str) -> None:
    calls = 0
    for _line, reply in _spoken(rules):
        for e in reply.events:
            if isinstance(e, ev.Called) and e.doubted is None:
                assert f" de {e.target}" in sentences(reply.text)[0], reply.text
                calls += e.call == "calzo"
    if preset(rules).calzo:
        assert calls >= 1


@pytest.mark.parametrize("script", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_every_reply_of_the_golden_games_is_short_voiceable_and_agrees(script: Path) -> None:
    spec, players = header(script)
    from assistant.rules import load_rules

    game = Game(load_rules(str(GOLDEN / spec) if spec.endswith(".toml") else spec), players)
    opening: list[str] = []
    result = simulate(game, script_lines(script), say=opening.append)
    bad = [(step["entrada"], step["respuesta"], problems(step["respuesta"])) for step in result["pasos"] if problems(step["respuesta"])]
    assert not bad and not problems(opening[0]), bad or opening[0]


# ---------------------------------------------------------------- what the table argues about


def test_the_greeting_names_the_rules_as_people_say_them() -> None:
    said = {rules: Referee(Game(preset(rules), list(PLAYERS))).opening() for rules in PRESETS}
    assert "Reglas clásicas." in said["clasico"]
    assert "Reglas del Caleuchano." in said["caleuchano"]
    assert "Reglas Chimbo Nueve." in said["chimbo9"]
    assert "Reglas Yo Cacho." in said["yocacho"]
    assert "por la derecha" in said["chimbo9"]  # the example takes the preset's own way
    house = Game(with_overrides(preset("clasico"), {"mato": False}, "casa.toml"), list(PLAYERS))
    assert "Reglas clásicas, con cambios de la casa." in Referee(house).opening()
    named = Game(with_overrides(preset("clasico"), {"name": "clasico (casa)"}, "casa.toml"), list(PLAYERS))
    assert "clasico" not in Referee(named).opening()
    for text in [*said.values(), *(replies.greeting_short(Game(preset(r), list(PLAYERS)), "hablen cuando calle") for r in PRESETS)]:
        assert not problems(text) and "clasico" not in text and "chimbo9" not in text and "yocacho" not in text, text


def test_a_verdict_says_the_bid_it_judged() -> None:
    table = Table("yocacho")
    for line in ("parte ana", "cinco quinas", "dudo"):
        table.say(line)
    assert table.say("hay tres").text.startswith("Había tres quinas, no cinco. Ana pierde un dado")
    for line in ("dos trenes", "dudo"):
        table.say(line)
    assert table.say("hay cuatro").text.startswith("Había cuatro trenes, bastaban dos. Beto pierde")
    for line in ("una sena", "dudo"):
        table.say(line)
    assert table.say("hay cero").text.startswith("No había ni una sena.")


def test_a_calzo_and_a_doubt_of_one_name_whose_bid_with_the_right_article() -> None:
    table = Table("clasico")
    for line in ("parte ana", "una quina"):
        table.say(line)
    assert table.say("calzo").text.startswith("Beto calza la quina de ana. ")
    table.say("corrección")
    assert table.say("dudo").text.startswith("Beto duda la quina de ana. ")
    caleuchano = Table("caleuchano")
    for line in ("parte ana", "una milla"):
        caleuchano.say(line)
    assert caleuchano.say("dudo").text.startswith("Beto duda la milla de ana. ")
    chimbo = Table("chimbo9")
    for line in ("parte ana", "un as"):
        chimbo.say(line)
    assert chimbo.say("dudo").text.startswith("Carla duda el as de ana. ")


def test_repite_says_the_question_pending_and_the_bid_standing() -> None:
    table = Table("yocacho")
    table.say("parte ana")
    asked = table.say("un tren").text
    assert table.say("repite").text == "Va un tren, de ana. Le toca a beto."  # "va", not "van un tren"
    assert asked == "Un tren. Sigue beto."
    question = table.say("dudo").text
    assert table.say("repite").text == question
    verdict = table.say("hay dos").text
    assert table.say("repite").text == verdict and table.say("repite").text == verdict
    table.say("tres quinas")
    assert table.say("repite").text == "Van tres quinas, de beto. Le toca a carla."  # a new step: the verdict is past


def test_undo_is_said_as_the_table_says_it() -> None:
    table = Table("yocacho")
    for line in ("parte beto", "cuatro trenes", "seis senas"):
        table.say(line)
    assert table.say("corrección").text == "Ya, borré las seis senas de carla. Le toca a carla."
    table.say("dudo")
    assert table.say("corrección").text == "Ya, borré el dudo de carla. Le toca a carla."
    reply = table.referee.handle(table.parser.parse("corrección"), certain=False)
    assert reply.text == "¿Borro los cuatro trenes de beto? Sí o no."


def test_how_is_beto_is_this_game_mid_game_and_the_night_when_asked() -> None:
    table = Table("caleuchano")
    assert table.say("cómo va beto").text.startswith("Beto terminó tres partidas")  # before the game: the night
    for line in ("parte ana", "cinco quinas", "dudo", "hay uno"):
        table.say(line)
    assert table.say("cómo va beto").text == "Beto no lleva ningún palo."
    assert table.say("cómo va ana").text == "Ana lleva un palo."
    assert table.say("¿cómo va beto esta noche?").text.startswith("Beto terminó tres partidas")
    assert table.say("cifras de carla").text.startswith("Carla terminó tres partidas")
    dice = Table("yocacho")
    for line in ("parte ana", "cinco quinas", "dudo", "hay uno"):
        dice.say(line)
    assert dice.say("cómo va ana").text == "Ana tiene cuatro dados."
    # a question about the standings that names a player is answered about him alone
    assert dice.say("cuántos dados le quedan a la ana").text == "Ana tiene cuatro dados."
    assert dice.say("cuántos dados tiene el beto").text == "Beto tiene cinco dados."
    assert table.say("cuántos palos tiene la ana").text == "Ana lleva un palo."
    fichas = Table("chimbo9")
    for line in ("parte ana", "cinco quinas", "dudo", "hay uno"):
        fichas.say(line)
    assert fichas.say("cómo va ana").text == "A ana le quedan dos fichas."


def test_lists_say_the_leaders_and_the_rest_once() -> None:
    whole, _ = replies.night_answer("noche", NIGHT)
    assert "Ganadas: ana dos y beto una; el resto, ninguna." in whole
    one_zero = Totals(2, {"ana": _figures(partidas=2, ganadas=2, terminadas=2), "beto": _figures(partidas=2, terminadas=2)}, finished=2)
    assert "Ganadas: ana dos; beto, ninguna." in replies.night_answer("noche", one_zero)[0]
    table = Table("caleuchano", ("ana", "beto", "carla", "dani"))
    for line in ("parte ana", "cinco quinas", "dudo", "hay uno"):
        table.say(line)
    assert table.say("cómo vamos").text == "Ana, un palo; el resto, ninguno."


def test_help_says_a_few_options_and_offers_more() -> None:
    table = Table("clasico")
    table.say("parte ana")
    table.say("tres trenes")
    first = table.say("ayuda").text
    assert first == ("Te toca, beto. Puedes subir: cuatro de cualquier pinta, tres cuadras o dos ases. "
                     "También puedes dudar, calzar, pasar o matar. ¿Quieres más?")
    more = table.say("sí")
    assert more.accepted and "corrección" in more.text and "cómo vamos" in more.text
    assert table.game.bid == Bid(3, 3)  # the "sí" was the help's, not a move
    table.say("ayuda")
    assert table.say("no").text == replies.cancelled()
    table.say("ayuda")
    assert table.say("cuatro trenes").text == "Cuatro trenes. Sigue carla."  # the offer lapses with the next move
    paso = Table("caleuchano")
    for line in ("parte ana", "tres trenes", "paso", "dudo"):
        paso.say(line)
    assert "¿Quieres más?" not in paso.say("ayuda").text  # while a paso is judged, "sí" is the verdict
    assert paso.referee.awaiting is None


def test_one_word_per_thing_per_preset_and_the_tables_words() -> None:
    for rules, word, other in (("caleuchano", "obligado", "obligo"), ("yocacho", "obligo", "obligado"), ("chimbo9", "obligo", "obligado")):
        said = " ".join(reply.text for _line, reply in _spoken(rules))
        said += " " + replies.rules_summary(GAMES[rules].game)
        said += " " + " ".join(replies.refusal(_instance(r), GAMES[rules].game) for r in REASONS if r not in TERMINAL_REASONS)
        plain = said.replace(".", " ").replace(",", " ").lower()
        assert f" {other} " not in plain and f" {word} " in plain, (rules, word, other)
    assert "bluf" in replies.player_figures(NIGHT, "ana")[0] and "farol" not in replies.best_bluffer(Totals(1, {
        "ana": _figures(partidas=1, apuestas_dudadas=1)}))[0]


def test_nothing_said_dictates_a_terminal_command() -> None:
    game = Game(preset("yocacho"), ["ana", "beto"])
    for text in (replies.good_night(_in_play(game)), replies.game_over_already(_over("yocacho"))):
        assert not problems(text) and "dudo " not in text, text


# ---------------------------------------------------------------- every template, rendered


def _apply(game: Game, *actions: Action) -> list[ev.Event]:
    caused: list[ev.Event] = []
    for action in actions:
        caused += game.apply(action)
    return caused


def _in_play(game: Game) -> Game:
    played = game.copy()
    _apply(played, Start("ana"), Raise("ana", Bid(2, 3)))
    return played


def _lose(game: Game) -> list[ev.Event]:
    """The player to act bids every die in quinas, is doubted, and none show: he loses (and starts again)."""
    bidder = game.turn
    assert bidder is not None
    events = _apply(game, Raise(bidder, Bid(game.dice_in_play, 5)))
    return events + _apply(game, Call(str(game.turn), "dudo"), Count(0))


def _over(rules: str) -> Game:
    game = Game(preset(rules), ["ana", "beto"])
    game.apply(Start("ana"))
    while not game.over:
        _lose(game)
    return game


def _obligo(rules: str, closed: bool = False) -> Game | None:
    """A game whose next round is ana's obligo (declared when the preset lets her choose)."""
    game = Game(preset(rules), list(PLAYERS))
    if game.rules.obligo == "no":
        return None
    game.apply(Start("ana"))
    for _ in range(30):
        obligador = game.obligo.obligador if game.obligo is not None else game.obligo_offer
        if obligador is not None and game.is_legal(Oblige(obligador, closed)):
            game.apply(Oblige(obligador, closed))
            return game
        if game.obligo is not None:
            return game
        _lose(game)
    raise AssertionError(f"no obligo in {rules}")


def _one_bid(game: Game, face: int) -> Game | None:
    """A game whose standing bid is one of ``face`` (None if the preset never lets it stand)."""
    for opening in ([Bid(1, face)], [Bid(1, 3), Bid(1, face)]):
        trial = game.copy()
        try:
            trial.apply(Start("ana"))
            for bid in opening:
                trial.apply(Raise(str(trial.turn), bid))
        except RulesError:
            continue
        return trial
    return None


def states(rules: str) -> Iterator[tuple[str, Game]]:
    """The moments a reply is said in, for one preset."""
    fresh = Game(preset(rules), list(PLAYERS))
    yield "inicio", fresh
    opened = fresh.copy()
    opened.apply(Start("ana"))
    yield "abierta", opened
    for face in range(1, 7):
        one = _one_bid(fresh, face)
        if one is None:
            continue
        yield f"uno de {face}", one
        for call in ("dudo", "calzo", "mato", "siciliana"):
            counting = one.copy()
            if counting.is_legal(Call(str(counting.turn), call)):  # type: ignore[arg-type]
                counting.apply(Call(str(counting.turn), call))  # type: ignore[arg-type]
                yield f"{call} de uno de {face}", counting
    if fresh.rules.paso:
        judging = fresh.copy()
        _apply(judging, Start("ana"), Raise("ana", Bid(1, 4)), Call("beto", "paso"), Call("carla", "dudo"))
        yield "juicio", judging
    for closed in (False, True):
        obligo = _obligo(rules, closed)
        if obligo is not None and (not closed or (obligo.obligo is not None and obligo.obligo.closed)):
            yield f"obligo{' cerrado' if closed else ''}", obligo
            if obligo.obligo is not None and obligo.obligo.closed:
                hidden = obligo.copy()
                hidden.apply(Raise(str(hidden.turn), Bid(1, HIDDEN)))
                yield "uno de éstas", hidden
                hidden.apply(Call(str(hidden.turn), "dudo"))
                yield "dudo de uno de éstas", hidden
    duel = Game(preset(rules), ["ana", "beto"])
    duel.apply(Start("ana"))
    yield "mano a mano", duel
    yield "terminada", _over(rules)


STATES = {rules: list(states(rules)) for rules in PRESETS}


def _counted(game: Game) -> Iterator[list[ev.Event]]:
    """Every count sentence: each face (and «de éstas»), bids of one to three, counts of none to four."""
    milla = game.rules.millas
    for face, quantity, total, call in itertools.product(range(7), (1, 2, 3), range(5), ("dudo", "calzo", "mato", "siciliana")):
        bonus = 1 if milla and face == 2 and total > 0 else 0
        yield [ev.Counted(call, Bid(quantity, face), total - bonus, bonus, total)]  # type: ignore[arg-type]


def _losses(game: Game) -> Iterator[list[ev.Event]]:
    for n, left in itertools.product((1, 2), range(6)):
        yield [ev.DieLost("beto", n, left), ev.DieLost("beto", n, left, banked=1), ev.PaloTaken("beto", n, left)]
        yield [ev.DieLost("beto", n, left, from_bank=n)]
        yield [ev.DieGained("beto", left, 1, True), ev.DieGained("beto", left, 0, True), ev.PaloReturned("beto", left, True)]
        yield [ev.DieGained("beto", left, 0, False), ev.PaloReturned("beto", left, False)]
    yield [ev.Eliminated("beto"), ev.GameOver(("ana",), ("beto",)), ev.GameOver(("ana", "carla"), ())]
    yield [ev.Penalized("beto"), ev.PassJudged("paso", "beto", True), ev.PassJudged("picado", "beto", False),
           ev.PassJudged("paso", "beto", False, True)]


def _events(game: Game) -> Iterator[list[ev.Event]]:
    yield from _counted(game)
    yield from _losses(game)


Render = Callable[[str, Game], Iterator[str]]


def _always(*texts: Callable[[Game], str]) -> Render:
    def render(_moment: str, game: Game) -> Iterator[str]:
        for text in texts:
            yield text(game)
    return render


def _when(test: Callable[[str, Game], bool], render: Callable[[Game], str]) -> Render:
    def rendered(moment: str, game: Game) -> Iterator[str]:
        if test(moment, game):
            yield render(game)
    return rendered


def _phase(*phases: str) -> Callable[[str, Game], bool]:
    return lambda _moment, game: game.phase in phases and not game.over


def _pending(*calls: str) -> Callable[[str, Game], bool]:
    return lambda _moment, game: game.pending is not None and game.pending.call in calls


def _results(_moment: str, game: Game) -> Iterator[str]:
    if _moment in ("abierta", "obligo", "obligo cerrado", "mano a mano", "terminada"):
        for events in _events(game):
            yield replies.result(game, events)
            yield replies.result(game, events, brief=True)


def _steps(_moment: str, game: Game) -> Iterator[str]:
    """What a real step says from here, for every action the rules would take now."""
    for action in itertools.islice(game.legal_actions(), 40):
        trial = game.copy()
        events = trial.apply(action)
        yield replies.step(trial, events)
        short = replies.brief(trial, events)
        if short:
            yield short
        if trial.history:
            yield replies.undone(replies.describe_action(game, action), game)
            yield replies.confirm_undo(replies.describe_action(game, action))


def _refusals(_moment: str, game: Game) -> Iterator[str]:
    if _moment in ("abierta", "uno de 1", "obligo", "terminada", "uno de éstas"):
        for reason in REASONS:
            if reason not in TERMINAL_REASONS:
                yield replies.refusal(_instance(reason), game)
                yield replies.illegal(game, _instance(reason))
                yield replies.illegal_short(game, _instance(reason))
        for previous in (Bid(1, 1), Bid(1, 5), Bid(3, 2)):
            from assistant.rules import refusals as no

            yield replies.illegal_short(game, no.NotARaise(previous, ()))
            yield replies.refusal(no.NotARaise(previous, (no.AnyFace(1), Bid(1, 6), Bid(1, AS))), game)
            yield replies.refusal(no.CountPending(previous), game)
            yield replies.refusal(no.FalsaAces(previous.quantity), game)


def _night(_moment: str, _game: Game) -> Iterator[str]:
    if _moment != "inicio":
        return
    empty = Totals()
    clean = Totals(1, {p: _figures(partidas=1) for p in PLAYERS})
    one = Totals(1, finished=1, players={"ana": _figures(partidas=1, ganadas=1, terminadas=1, rondas_perdidas=1, dudas=1, dudas_acertadas=1,
                                     calzos=1, calzos_acertados=1, pasos=1, apuestas_dudadas=1, apuestas_aguantadas=1),
                     "beto": _figures({"duda": 1}, partidas=1, terminadas=1, rondas_perdidas=1, dudas=1, calzos=1, pasos=1,
                                      pasos_pillados=1, apuestas_dudadas=1)})
    misses = Totals(1, {"ana": _figures(partidas=1, dudas=2, calzos=2, apuestas_dudadas=2),
                        "beto": _figures(partidas=1, dudas=2, calzos=2)})
    for totals in (empty, clean, one, misses, NIGHT):
        for what in ("noche", "jugador", "dudas", "apuestas", "calzos", "estadisticas"):
            for player in ("ana", "beto", "dani", "eva"):
                yield from replies.night_answer(what, totals, player)
    yield replies.NO_NIGHT_YET


def _hands(_moment: str, game: Game) -> Iterator[str]:
    if game.phase != "cuenta":
        return
    counts: list[Partial] = [("cuenta", "ana", 1), ("mano", "beto", [1, 1, 3, 4, 5])]
    yield replies.count_progress(game, 1, ["beto"])
    yield replies.count_progress(game, 2, ["beto", "carla"])
    yield replies.pending_now(game, counts)
    yield replies.resumed(game, counts)
    yield replies.resume_offer(game, counts)


def _confirmations(_moment: str, game: Game) -> Iterator[str]:
    """Every half-heard move the referee may ask about, said as it would ask it now."""
    from assistant.rules.actions import Call, Count, Oblige, Raise, Start

    for face in range(1, 7):
        for quantity in (1, 2, 8, 21):
            yield replies.confirm_move(game, [Raise("beto", Bid(quantity, face))])
    for call in ("dudo", "calzo", "paso", "mato", "picado", "siciliana"):
        yield replies.confirm_move(game, [Call("beto", call)])  # type: ignore[arg-type]
    yield replies.confirm_move(game, [Start("carla", "derecha")])
    yield replies.confirm_move(game, [Start(None, "izquierda")])
    yield replies.confirm_move(game, [Count(0)]) + " " + replies.confirm_move(game, [Count(9)])
    yield replies.confirm_move(game, [Oblige("ana", False)])
    yield replies.confirm_move(game, [], [("cuenta", "ana", 1)]) + " " + replies.confirm_move(game, [], [("mano", "ana", [1, 2, 3, 4, 5])])


SPOKEN: dict[str, Render] = {
    "greeting": _when(_phase("inicio"), replies.greeting),
    "greeting_short": _when(_phase("inicio"), lambda g: replies.greeting_short(g, replies.listening_mode(False, short=True))),
    "rules_summary": _always(replies.rules_summary),
    "ask_players": _always(lambda _g: replies.ask_players()),
    "need_two_players": _always(lambda _g: replies.need_two_players()),
    "say_yes_or_no": _always(lambda _g: replies.say_yes_or_no()),
    "ask_starter": _always(replies.ask_starter),
    "started": _when(lambda _m, g: g.starter is not None and not g.over, replies.started),
    "obligo_declined": _always(lambda g: replies.obligo_declined(g, "ana")),
    "obligo_offer": _always(lambda g: replies.obligo_offer(g, "ana")),
    "obligo_rules": lambda _m, g: iter([replies.obligo_rules(g), replies.obligo_rules(g, whole=True)] if g.obligo else []),
    "obligo_declared": _when(lambda _m, g: g.obligo is not None and g.starter is not None, replies.obligo_declared),
    "duel_rules": _always(replies.duel_rules),
    "bid_accepted": _when(lambda _m, g: g.bid is not None and g.turn is not None, lambda g: replies.bid_accepted(g, g.bid or Bid(1, 1))),
    "revived": _when(lambda _m, g: g.rules.revivir and g.starter is not None, lambda g: replies.revived(g, ev.Revived(("ana",), (1,)))),
    "falsa": _when(_phase("apuestas"), lambda g: replies.falsa(g, 1) + " " + replies.falsa(g, 2)),
    "passed": _when(lambda _m, g: g.bid is not None and g.turn is not None and g.phase == "apuestas", lambda g: replies.passed(g, "ana")),
    "picado": _when(_phase("apuestas"), lambda g: replies.picado(g, "ana")),
    "ask_count": _when(_phase("cuenta"), replies.ask_count),
    "count_question": _when(_phase("cuenta"), replies.count_question),
    "ask_judgement": _when(_phase("juicio"), replies.ask_judgement),
    "judgement_question": _when(_phase("juicio"), replies.judgement_question),
    "count_progress": _hands,
    "hand_progress": _always(lambda _g: replies.hand_progress(["beto", "carla"])),
    "hidden_die_needed": _always(lambda _g: replies.hidden_die_needed("ana")),
    "step": _steps,
    "brief": _steps,
    "result": _results,
    "new_round": _when(lambda m, g: m.startswith("obligo") or m == "abierta",
                       lambda g: replies.new_round(g, ev.RoundStarted(2, "ana", "izquierda", g.mode, g.obligo.obligador if g.obligo else None))),
    "winner": _always(lambda _g: replies.winner(["ana"], ["beto", "carla"]) + " " + replies.winner(["ana", "beto"])),
    "dice_in_play": _always(replies.dice_in_play),
    "score": _always(replies.score),
    "player_now": lambda _m, g: (replies.player_now(g, p) for p in g.players),
    "turn": _always(replies.turn),
    "current_bid": _always(replies.current_bid),
    "illegal": _refusals,
    "illegal_short": _refusals,
    "refusal": _refusals,
    "not_the_standing_bid": _when(lambda _m, g: g.bid is not None, lambda g: replies.not_the_standing_bid(g, Bid(1, 6))),
    "need_the_dice": _always(replies.need_the_dice),
    "not_understood": _always(lambda _g: replies.not_understood()),
    "missing_face": _always(lambda _g: replies.missing_face(1) + " " + replies.missing_face(2)),
    "missing_quantity": lambda _m, g: (replies.missing_quantity(g, face) for face in range(1, 7)),
    "no_bid_to_raise": _always(replies.no_bid_to_raise),
    "who_starts_first": _always(replies.who_starts_first),
    "count_needs_bid_face": _when(_phase("cuenta"), replies.count_needs_bid_face),
    "only_during_count": _always(lambda _g: replies.only_during_count()),
    "number_alone": _always(lambda _g: replies.number_alone(1) + " " + replies.number_alone(21)),
    "unknown_player": _always(lambda _g: replies.unknown_player("eva") + " " + replies.unknown_player(None)),
    "hand_size_mismatch": lambda _m, _g: (replies.hand_size_mismatch("ana", d, s) for d, s in ((1, 2), (2, 1), (5, 1))),
    "count_too_big": lambda _m, _g: (replies.count_too_big("ana", d, s) for d, s in ((1, 2), (2, 3))),
    "wrong_hand": _always(lambda _g: replies.wrong_hand("ana", "beto")),
    "nothing_to_confirm": _always(lambda _g: replies.nothing_to_confirm()),
    "confirm_count": _always(lambda g: replies.confirm_count(g, 1, "beto") + " " + replies.confirm_count(g, 0, None)),
    "confirm_undo": _steps,
    "confirm_move": _confirmations,
    "confirm_penalty": _always(lambda _g: replies.confirm_penalty("ana")),
    "cancelled": _always(lambda _g: replies.cancelled()),
    "undone": _steps,
    "nothing_to_undo": _always(lambda _g: replies.nothing_to_undo()),
    "count_collecting_undone": _always(lambda _g: replies.count_collecting_undone(["ana", "ana", "beto"])),
    "notice": lambda _m, _g: iter([replies.notice(StorageFailed("lleno")), replies.notice(StorageRecovered(1)),
                                   replies.notice(StorageRecovered(3))]),
    "resumed": _when(lambda _m, g: bool(g.history), lambda g: replies.resumed(g)),
    "pending_now": _always(lambda g: replies.pending_now(g)),
    "resume_offer": _when(lambda _m, g: not g.over, lambda g: replies.resume_offer(g)),
    "journal_damaged": _always(lambda _g: replies.journal_damaged(12)),
    "too_long": _always(lambda _g: replies.too_long()),
    "too_long_short": _always(lambda _g: replies.too_long_short()),
    "journal_repaired": _always(lambda _g: replies.journal_repaired([4]) + " " + replies.journal_repaired([4, 9, 21])),
    "journal_garbage_at_the_end": _always(lambda _g: replies.journal_garbage_at_the_end()),
    "journal_last_line_unreadable": _always(lambda _g: replies.journal_last_line_unreadable(31)),
    "unheard_names": _always(lambda _g: replies.unheard_names(["xóchitl"]) + " " + replies.unheard_names(["xóchitl", "ñuke"])),
    "microphone_lost": _always(lambda _g: replies.microphone_lost()),
    "microphone_back": _always(lambda _g: replies.microphone_back()),
    "listening_changed": _always(lambda _g: replies.listening_changed(True) + " " + replies.listening_changed(False)),
    "listening_mode": _always(lambda _g: replies.listening_mode(True) + " " + replies.listening_mode(False)),
    "journal_dropped_line": _always(lambda _g: replies.journal_dropped_line()),
    "game_over_already": _when(lambda _m, g: g.over, replies.game_over_already),
    "screen_on_spoken": _always(lambda _g: " ".join([replies.screen_on_spoken("192.168.1.20", "dudo.local", 8080),
                                                      replies.screen_on_spoken(None, "dudo-2.local", 80)])),
    "screen_waiting_for_network": _always(lambda _g: replies.screen_waiting_for_network()),
    "screen_off": _always(lambda _g: replies.screen_off()),
    "teach": _always(replies.teach),
    "help_now": _always(replies.help_now),
    "help_more": _always(replies.help_more),
    "another_game": _always(lambda _g: " ".join([replies.another_game(), replies.another_game(["isabel"], [], ["ana", "isabel"]),
                                                 replies.another_game(["eva", "olga"], ["ana"], ["beto", "eva", "olga"])])),
    "not_at_the_table": _always(lambda _g: replies.not_at_the_table("eva")),
    "already_at_the_table": _always(lambda _g: replies.already_at_the_table("ana")),
    "finish_first": _always(lambda _g: replies.finish_first()),
    "good_night": _always(replies.good_night),
    "night_answer": _night,
    "night_standing": _night,
    "player_figures": _night,
    "best_at": _night,
    "best_bluffer": _night,
}
"""Every reply the table hears, and how to render it from a moment of a game."""

FRAGMENTS = {"say", "capital", "rules_said", "describe_action", "payers", "bid_words"}
"""Pieces of sentences (checked inside the sentences that use them)."""

NOT_SPOKEN = {"evaluation", "history_line", "no_history", "board_mode", "bid_figures", "already_finished", "sound_for",
              "screen_on", "round_summary"} | {name for name in vars(replies) if name.startswith("screen_") and name not in (
                  "screen_on_spoken", "screen_waiting_for_network", "screen_off")}
"""For the terminal or the screen, never said aloud (the address is said by ``screen_on_spoken``)."""

TERMINAL_REASONS = {r for r in REASONS if r.__name__ in (
    "UnknownRule", "RuleErrors", "BadRuleValue", "RuleOutOfRange", "UnknownPreset", "RuleMissing", "BadRulesFile", "BadPresetKey")}
"""A house-rules file's problems: shown in the terminal when the rules are loaded, with their keys."""


def test_every_function_of_replies_is_rendered_or_declared_unspoken() -> None:
    public = {name for name, value in vars(replies).items()
              if inspect.isfunction(value) and not name.startswith("_") and value.__module__ == replies.__name__}
    assert public - set(SPOKEN) - FRAGMENTS - NOT_SPOKEN == set(), "a new reply: render it in SPOKEN (or say why it is not spoken)"
    assert set(SPOKEN) - public == set()


@pytest.mark.parametrize("rules", PRESETS)
def test_every_template_rendered_in_every_moment_is_short_voiceable_and_agrees(rules: str) -> None:
    bad: dict[str, list[tuple[str, list[str]]]] = {}
    rendered = 0
    for name, render in SPOKEN.items():
        for moment, game in STATES[rules]:
            for text in render(moment, game):
                rendered += 1
                found = problems(text)
                if found:
                    bad.setdefault(name, []).append((f"{moment}: {text}", found))
    assert not bad, bad
    assert rendered > 2000


@pytest.mark.parametrize("rules", PRESETS)
def test_the_moments_rendered_cover_quantity_one_of_every_face_and_every_call(rules: str) -> None:
    moments = {moment for moment, _game in STATES[rules]}
    faces = {m for m in moments if m.startswith("uno de ")}
    assert len(faces) >= 5, faces  # chimbo9 never lets one as stand after a bid; the count sentences have every face
    game = Game(preset(rules), list(PLAYERS))
    for call, on in (("calzo", game.rules.calzo), ("mato", game.rules.mato), ("dudo", True)):
        assert any(m.startswith(call) for m in moments) == on, call
    if game.rules.obligo_cerrado:
        assert "dudo de uno de éstas" in moments


def test_a_count_sentence_agrees_for_every_face_quantity_and_total() -> None:
    game = Game(preset("caleuchano"), list(PLAYERS))
    assert replies.result(game, [ev.Counted("dudo", Bid(1, 1), 0, 0, 0)]) == "No había ni un as."
    assert replies.result(game, [ev.Counted("dudo", Bid(1, 2), 1, 1, 2)]) == "Con la de regalo había dos millas, bastaba una."
    assert replies.result(game, [ev.Counted("calzo", Bid(2, 3), 1, 0, 1)]) == "Había un tren, no dos."
    assert replies.result(game, [ev.Counted("dudo", Bid(1, 5), 1, 0, 1)]) == "Había una quina justa."
    assert replies.result(game, [ev.Counted("dudo", Bid(3, 0), 0, 0, 0)]) == "No había ninguna de esas, no tres."
    for events in _counted(game):
        (counted,) = events
        text = replies.result(game, events)
        assert says_number(text, counted.total) and says_number(text, counted.bid.quantity), text
        assert len(sentences(text)) == 1 and not problems(text), text


def test_the_words_checks_catch_the_slips_the_issue_heard() -> None:
    """The net itself: each slip the issue names is caught."""
    for slip in ("Beto duda los un as de ana.", "Beto duda las una quina de ana.", "Calzó tres veces y no acertó ninguno.",
                 "Deshecho: el dudo de carla.", "Para seguirla, «dudo reanudar».", "Ganadas: ana dos, beto ninguna, carla ninguna.",
                 "Su mejor farol aguantado: siete trenes.", "Le toca a beto: puede decir dudo.", "Van un as, de ana.",
                 "Siete trenes o ocho cuadras.", "Juegan beto y isabel.", "Había cuatro quinas justos.", "Ana tiene un dados.",
                 "Obligado de beto: " + " ".join(["uno"] * MAX_WORDS) + "."):
        assert problems(slip), slip
    for fine in ("Beto duda el as de ana.", "Había una quina, no cinco.", "Siete trenes u ocho cuadras.", "Ana y hielo.",
                 "Calzó tres veces y no acertó ninguna.", "Le queda un dado y uno a favor.", "Una milla. Sigue beto."):
        assert not problems(fine), fine


# ---------------------------------------------------------------- heard


MAX_BREATH = 6.0
"""Seconds of speech a listener holds between two sentence pauses (measured:
5.2 s at most over the golden games' replies, where the one-sentence obligado
announcements took 11 s before issue 38)."""


def test_every_reply_of_the_scripted_games_said_aloud_keeps_each_breath_short(tmp_path: Path) -> None:
    """Real espeak-ng audio (voice roa/es-419): every distinct reply, and the
    longest stretch of speech between two sentence pauses in it."""
    from assistant.voice.speaker import Speaker
    from scripts import escuchar

    speaker = Speaker(play=False, voice="roa/es-419", engine="espeak")
    texts = list(dict.fromkeys(reply.text for rules in PRESETS for _line, reply in _spoken(rules) if reply.text))
    heard = [escuchar.hear(speaker, text, tmp_path, n) for n, text in enumerate(texts)]
    assert all(h.seconds > 0.3 for h in heard)  # each one was said
    worst = max(heard, key=lambda h: h.longest)
    assert worst.longest <= MAX_BREATH, (worst.longest, worst.text)
    assert len(heard) > 100
