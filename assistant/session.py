"""The loop: utterances in, replies out, for voice, keyboard or a script.

Every source yields ``Heard`` values (a typed line is one too) and every sink takes reply text, so
the same referee serves a hands-free table, a laptop and the test suite.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from assistant import messages, replies
from assistant.changes import Answered, Observer
from assistant.problems import SetupError
from assistant.referee import Referee, Reply
from assistant.rules import Game
from assistant.speech import Parser
from assistant.speech.commands import BidCommand, Command, CountCommand, RaiseCommand, Reading, SimpleCommand, Unknown
from assistant.speech.parser import ASK_AT, plays_at_once
from assistant.voice.heard import Heard, from_vosk

LOW_CONFIDENCE = 0.55
"""Below this mean word confidence a recognized utterance is not acted on
(single-best results; n-best ones are judged by ``MARGIN``)."""
MARGIN = 5.0
"""How far below the best n-best score an alternative may be and still be
chosen because the game accepts it (vosk's scores are log-likelihoods: 5 is
odds of about 150 to 1 against it). Further down, the acoustics have spoken."""
SURE_CONFIDENCE = 0.85
"""Below this, a destructive step (a count that puts a player out, an undo,
a castigo) is confirmed with a "sí" first."""
MAX_CHARS = 300
"""The longest utterance the referee reads, typed or heard: longer than any
move (the longest a table says is under 100 characters). A longer one is
refused at once, before the parser sees it, so no line can hold the table."""
MAX_LINE_CHARS = 20_000
"""The longest input line kept whole: a recognizer result as JSON (every
alternative and word timing) fits. The rest of a longer line is read and dropped."""


def too_long(text: str) -> bool:
    return len(text) > MAX_CHARS


@dataclass
class Step:
    """One line of a session, as ``dudo simular`` reports it."""

    text: str
    reply: Reply
    chosen: int = 0
    """Which alternative of what was heard was acted on (0: the best)."""


@dataclass
class Session:
    """One utterance at a time: choose what to act on, referee it, tell the
    observers, say the reply. What spans games (the evening's run, «otra»,
    «terminamos») is ``night.Night``'s."""

    referee: Referee
    parser: Parser
    say: Callable[[str], None] = print
    steps: list[Step] = field(default_factory=list)
    ignore_chatter: bool = False
    """Voice mode: say nothing to an utterance with no word of the game in it."""
    level: str = "normal"
    """How much is said: ``replies.LEVELS``."""
    earcon: Callable[[str], None] | None = None
    """Plays an earcon (``voice.earcons.NAMES``); without it every reply is said in words."""
    last: Command | None = None
    """What the last utterance was acted on as, when it was accepted."""

    def start(self, listening: tuple[bool, ...] = ()) -> str:
        """The opening words; ``listening``: (duplex,) when the table must be told,
        once, whether it may talk over the referee (voice), folded into the greeting."""
        game = self.referee.game
        if self.level == "poco" and not game.history:
            text = replies.greeting_short(game, replies.listening_mode(listening[0], short=True) if listening else None)
        else:
            text = self.referee.opening()
            if listening:
                text = f"{text} {replies.listening_mode(listening[0])}"
        self.say(text)
        return text

    def choose(self, heard: Heard) -> tuple[int, Command]:
        """The alternative and reading to act on: among the alternatives within
        ``MARGIN`` of the best, and each one's readings in order, the first the
        game accepts now ("ana dos trenes" after a reveal is ana's count); if
        none, the best reading of the best alternative (so a player who really
        made an illegal bid hears why). A reading that places every word is
        preferred in any alternative to one read among words it does not place
        ("tres cerveza trenes" heard first, "tres trenes" close behind)."""
        i, reading = self.choose_reading(heard)
        return i, reading.command if reading is not None else self.parser.parse(heard.best.phrased)

    def choose_reading(self, heard: Heard) -> tuple[int, Reading | None]:
        """``choose``, with the reading itself (None: nothing the game takes now)."""
        top = heard.best.score
        within: list[tuple[int, list[Reading]]] = []
        for i, alternative in enumerate(heard.alternatives):
            if i > 0 and (top is None or alternative.score is None or top - alternative.score > MARGIN):
                break
            if too_long(alternative.text):
                continue
            within.append((i, self.parser.readings(alternative.phrased)))  # (a pause sets a clause apart, as a comma)
        for sure in (True, False):
            if not sure and any(r.certainty == 1.0 and not r.weak for _i, readings in within for r in readings):
                break  # a whole reading the game refused: the player hears why, no part of it is guessed at
            for i, readings in within:
                heard_as = [r for r in readings if (r.certainty == 1.0) == sure and r.certainty >= ASK_AT]
                for reading in heard_as:
                    if sure and reading.explained < heard_as[0].explained:
                        break  # never a reading that explains less of the line than one the game refused
                    # (the moves found among words nobody placed come surest first: each is tried in turn)
                    if not sure and not self._expected(reading):
                        continue
                    if self.referee.accepts(reading.command):
                        return i, reading
        return 0, None

    def _expected(self, reading: Reading) -> bool:
        """May a loose reading be taken now? A bare number or a yes read among other words
        only when the game waits for exactly that: a count, an answer ("uno más y me voy"
        is no raise)."""
        if not reading.weak:
            return True
        return self.referee.expects(reading.command)

    def complete(self, text: str) -> bool:
        """Is ``text`` (what the recognizer has so far) a whole call? One the
        game would take now, or any parsed call but a bare number (during the
        bids "tres" may be the start of "tres trenes"). A whole call is ended by
        a shorter silence. A line too long to be a move is whole: it is refused."""
        if too_long(text):
            return True
        readings = self.parser.readings(text)
        if any(self.referee.accepts(r.command) for r in readings if r.explained == readings[0].explained):
            return True
        command = self.parser.parse(text)
        return not isinstance(command, Unknown | CountCommand)

    def hear(self, heard: Heard) -> Reply:
        if too_long(heard.text):
            return self._refuse_long(heard)
        started = time.perf_counter()
        chosen, reading = self.choose_reading(heard)
        command = reading.command if reading is not None else self.parser.parse(heard.best.phrased)
        half_heard = reading is not None and not plays_at_once(reading)
        said = heard.alternatives[chosen].text
        confidence = heard.confidence
        # a lower alternative, or a low share of the best: steps with no way back are confirmed first
        certain = chosen == 0 and (confidence is None or confidence >= SURE_CONFIDENCE)
        chatter = isinstance(command, Unknown) and command.hint is None
        unsure = heard.best.score is None and confidence is not None and confidence < LOW_CONFIDENCE
        unsure = unsure and not isinstance(command, Unknown)  # a move heard too faintly to act on
        corrected = self._corrected(heard) if heard.follows and not unsure else None
        if corrected is not None:
            said, command = corrected
            self.referee.handle(SimpleCommand("deshacer"))  # the bid it corrects, taken back; the table hears the new one
            reply = self.referee.handle(command)
            chatter = False
        else:
            if unsure:
                reply = Reply(replies.not_understood(), False)
            elif half_heard:
                reply = self.referee.ask_about(command)  # "¿Ocho cuadras?": a yes plays it
            else:
                reply = self.referee.handle(command, certain=certain)
        self.last = command if reply.accepted and not (half_heard and corrected is None) else None
        step = Step(said, reply, chosen)
        self.steps.append(step)
        ms = (time.perf_counter() - started) * 1000
        self.referee.answered(Answered(heard, step.text, chosen, reply.text, reply.accepted, ms))
        silent = self.ignore_chatter and chatter
        if reply.text and not silent:
            self._speak(reply, understood=not (unsure or chatter), doubtful=not certain)
        return reply

    def _refuse_long(self, heard: Heard) -> Reply:
        """A line longer than any move: a short answer at once, the game untouched, the parser never called."""
        started = time.perf_counter()
        reply = Reply(replies.too_long(), False, short=replies.too_long_short())
        self.last = None
        step = Step(heard.text[:MAX_CHARS] + "…", reply)
        self.steps.append(step)
        self.referee.answered(Answered(heard, step.text, 0, reply.text, False, (time.perf_counter() - started) * 1000))
        self._speak(reply, understood=True, doubtful=False)
        return reply

    def _corrected(self, heard: Heard) -> tuple[str, Command] | None:
        """"cinco cuadras… no, seis cuadras": the bid just taken, and what the same
        speaker said on after the short silence, read as one line. When that line is a
        self-correction the game takes in place of the bid, it is the bid (and the line)."""
        if not self.steps or not isinstance(self.last, BidCommand | RaiseCommand):
            return None
        line = f"{self.steps[-1].text} {heard.text}"
        if too_long(line):
            return None
        reading = next((r for r in self.parser.readings(line) if not r.weak), None)
        if reading is None or reading.how != "corrección" or reading.explained < 1.0 or reading.command == self.last:
            return None
        return (line, reading.command) if self.referee.replaces(reading.command) else None

    def follow(self, referee: Referee) -> None:
        """A new game at the table: its referee, and a parser for its players."""
        self.referee = referee
        self.last = None
        if tuple(referee.game.players) != tuple(self.parser.players):
            self.parser = Parser(players=referee.game.players)

    def _speak(self, reply: Reply, understood: bool, doubtful: bool) -> None:
        game = self.referee.game
        sound = replies.sound_for(self.level, game, reply.events, reply.accepted, understood, doubtful)
        if sound is not None and self.earcon is not None:
            self.earcon(sound)
            return
        if self.level == "poco" and understood and not reply.accepted and self.earcon is not None:
            self.earcon("rechazada")  # the verdict at once; the reason follows in words
        text = reply.short if self.level == "poco" and reply.short and not doubtful else reply.text
        if self.level == "todo" and reply.accepted:
            text = f"{text} {replies.teach(game)}".strip()
        self.say(text)



def heard_from_line(line: str) -> Heard | None:
    """A typed or scripted line: text, or a JSON object exactly as vosk's
    ``Result()`` returns it (single best or n-best), or a line of the
    recognizer log (``{"vosk": …}``). None for a vosk result of silence. A
    line longer than any move is kept only as far as shows it is too long."""
    text = line.strip()
    if text.startswith("{") and len(text) <= MAX_LINE_CHARS:
        try:
            data = json.loads(text)
            follows = isinstance(data, dict) and data.get("sigue") is True
            if isinstance(data, dict) and isinstance(data.get("vosk"), dict):
                data = data["vosk"]
            heard = from_vosk(data)
            return dataclasses.replace(heard, follows=True) if heard is not None and follows else heard
        except ValueError:
            pass  # not a recognizer result: it is what was typed
    return Heard.from_text(text[: MAX_CHARS + 1])


def script_lines(path: Path) -> Iterator[Heard]:
    """A script: one utterance per line (text or a recognizer result); blank
    lines and ``#`` comments skipped."""
    for line in path.read_text("utf-8").splitlines():
        text = line.strip()
        if text and not text.startswith("#"):
            heard = heard_from_line(text)
            if heard is not None:
                yield heard


def keyboard(stream: TextIO, prompt: Callable[[], None] | None = None) -> Iterator[Heard]:
    """Lines typed at the terminal (or piped in) until end of input."""
    while True:
        if prompt is not None:
            prompt()
        line = bounded_line(stream)
        if line is None:
            return
        heard = heard_from_line(line) if line.strip() else None
        if heard is not None:
            yield heard


def bounded_line(stream: TextIO) -> str | None:
    """The next line (None at the end of input), at most ``MAX_LINE_CHARS`` of it:
    the rest of a longer one is read in blocks and dropped, so a line without
    end never fills the memory nor waits for the parser."""
    line = stream.readline(MAX_LINE_CHARS + 1)
    if not line:
        return None
    if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
        while True:
            rest = stream.readline(65536)
            if not rest or rest.endswith("\n"):
                break
    return line


def simulate(
    game: Game, source: Iterable[Heard], say: Callable[[str], None] | None = None, trace: Callable[[Game], object] | None = None,
    observers: Iterable[Observer] = (),
) -> dict[str, Any]:
    """Play a script through a fresh referee; the `dudo simular --json` result.

    With ``trace``, every step also carries ``"estado": trace(game)`` taken
    right after it (the golden playthroughs). ``observers`` hear it as at a
    table (``dudo simular`` keeps a journal of the simulated game).
    """
    session = Session(Referee(game, observers), Parser(players=game.players), say=say or (lambda _text: None))
    session.start()
    steps: list[dict[str, Any]] = []
    for heard in source:
        reply = session.hear(heard)
        step: dict[str, Any] = {"entrada": session.steps[-1].text, "aceptada": reply.accepted, "respuesta": reply.text}
        if trace is not None:
            step["estado"] = trace(game)
        steps.append(step)
    return {"pasos": steps, "estado": game.picture()}


class TableIO:
    """Where utterances come from and where replies go: keyboard + print, or voice."""

    def __init__(self) -> None:
        self.voice = False
        self.pushed_back: list[Heard] = []
        """Lines heard while asking something else, to be played first."""
        self.complete: Callable[[str], bool] | None = None
        """Is what the recognizer has so far a whole call? (``Session.complete``: voice ends it sooner)"""
        self.listening: tuple[bool, ...] = ()
        """(duplex,) until the table has been told how it is heard (voice: in the first greeting)."""

    def tell(self, text: str) -> None:
        print(text, flush=True)

    def announce(self, printed: str, spoken: str) -> None:
        """Something the table must be able to type (an address): printed as
        ``printed``; the voice says ``spoken`` instead, once."""
        print(printed, flush=True)

    def picture(self, caption: str, drawing: str) -> None:
        """A drawing for whoever looks at the terminal (a QR code): only on a
        terminal, where it can be seen; a pipe or a log gets nothing."""
        if sys.stdout.isatty():
            print(caption + "\n" + drawing, flush=True)

    def earcon(self, name: str) -> None:
        """Text mode names the sound the voice would play."""
        print(f"[sonido: {name}]", flush=True)

    def note(self, text: str) -> None:
        """Something for the person at the terminal, not for the table."""
        print(f"[{text}]", file=sys.stderr, flush=True)

    def utterances(self) -> Iterator[Heard]:
        while self.pushed_back:
            yield self.pushed_back.pop(0)
        yield from self.heard()

    def heard(self) -> Iterator[Heard]:
        """What the table says, from the source itself."""
        interactive = sys.stdin.isatty()
        prompt: Callable[[], None] | None = (lambda: print("> ", end="", flush=True)) if interactive else None
        return keyboard(sys.stdin, prompt)

    def ask_yes_no(self, question: str, players: Iterable[str] = ()) -> bool:
        """A yes or a no; a line of the game (a bid, a call, a question) also
        means yes, and is kept to be played first."""
        self.tell(question)
        parser = Parser(players=tuple(players))
        for utterance in self.heard():
            if too_long(utterance.text):
                self.tell(replies.too_long())
                continue
            command = parser.parse(utterance.text)
            if command.action in ("si", "no"):
                return command.action == "si"
            if not isinstance(command, Unknown):
                self.pushed_back.append(utterance)
                return True
            self.tell(replies.say_yes_or_no())
        return False

    def ask_players(self) -> list[str]:
        self.tell(replies.ask_players())
        for utterance in self.utterances():
            if too_long(utterance.text):
                self.tell(replies.too_long())
                continue
            names = [p.strip() for p in utterance.text.split(",") if p.strip()]
            if len(names) >= 2:
                return names
            self.tell(replies.need_two_players())
        raise SetupError(messages.NO_PLAYERS_SAID)

    def rebuild_for(self, players: list[str]) -> None:
        """Voice rebuilds its grammar with the players' names."""

    def close(self) -> None:
        pass
