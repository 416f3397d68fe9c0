"""The hands-free table: utterances from the microphone, replies from the speaker.

Only the source of utterances and the sink of replies change; the referee,
the journal and the session are the ones the keyboard uses.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from assistant import messages, replies
from assistant.config import TableConfig
from assistant.problems import CannotServe, SetupError, default_dir
from assistant.session import TableIO
from assistant.speech import grammar
from assistant.voice.heard import Heard
from assistant.voice.listener import listen
from assistant.voice.microphone import LOST, Microphone, MicrophoneError, device_name, pick_device
from assistant.voice.recognizer import RecognizerError, VoskRecognizer, load_in_background
from assistant.voice.room import sound_room
from assistant.voice.speaker import Speaker

ALTERNATIVES = 4
"""Readings asked of vosk per utterance: the session picks the first the game accepts."""
log = logging.getLogger("dudo")

GOODBYE_SECONDS = 15.0
"""At the end, what the referee is still saying is waited for this long."""


def table_io(table: TableConfig) -> TableIO:
    """The microphone and the voice, or the keyboard when there is no model or no
    audio (said why). Under systemd nobody can type: what stops voice play stops
    the service, with the reason (``CannotServe`` when restarting cannot help)."""
    from assistant.voice import models

    service = bool(os.environ.get("INVOCATION_ID"))
    try:
        model_path = models.find_model(table.model)
    except models.DownloadError as err:
        raise SetupError(str(err)) from err
    if model_path is None:
        if service:
            raise CannotServe(messages.SERVICE_WITHOUT_MODEL)
        print(messages.PLAYING_BY_KEYBOARD, file=sys.stderr)
        return TableIO()
    from assistant.voice import stderr

    stderr.libraries_to(default_dir() / "dudo.log")  # PortAudio's and ALSA's own lines, never on the table's terminal
    try:
        return VoiceIO(model_path, table)  # a model that cannot be used is said at the first listen
    except Exception as err:  # no microphone, no audio stack: the game goes on by keyboard
        log.exception("voice unavailable")
        if service:
            raise SetupError(messages.audio_failed(err)) from err
        print(messages.audio_failed(err), file=sys.stderr)
    return TableIO()


class VoiceIO(TableIO):
    """The microphone, the recognizer with the table's grammar, and the voice, as ``table`` names them.

    The model loads (seconds, most of a start) while the referee greets: the
    microphone is open from the start and keeps what is said meanwhile
    (``QUEUE_SECONDS``), and the recognizer takes it once it is ready, at the
    first listen. A model that cannot be used is said then, over the greeting."""

    def __init__(self, model: Path, table: TableConfig) -> None:
        super().__init__()
        self.voice = True
        self.keep_audio = table.record_audio
        self.model = model
        self.service = bool(os.environ.get("INVOCATION_ID"))
        loading = load_in_background(model)  # the slowest part: the microphone, voice, room and grammar meanwhile
        try:
            self.microphone = Microphone(pick_device(table.microphone), report=self._microphone)
        except MicrophoneError as err:
            raise SetupError(str(err)) from err
        output = pick_device(table.speaker, "output")
        self.speaker = Speaker(table.voice, table.rate, device=output, fallback_print=lambda text: None)
        self.output = output
        room = sound_room(device_name(self.microphone.device), device_name(output))
        self.duplex = room.duplex
        self.players = list(table.players)
        phrases = grammar.cached_phrases(self.players)
        builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vosk-grammar")
        self._building: Future[VoskRecognizer] = builder.submit(self._build, loading, phrases)
        builder.shutdown(wait=False)
        self._recognizer: VoskRecognizer | None = None
        self._heard_for: list[str] = list(self.players)
        """The players whose names the recognizer was built with."""
        self.note(messages.room(room.duplex, room.why))
        self.listening = (room.duplex,)  # said in the greeting

    def _build(self, loading: Future[Any], phrases: list[str]) -> VoskRecognizer:
        return VoskRecognizer(self.model, phrases, sample_rate=self.microphone.rate, alternatives=ALTERNATIVES, model=loading.result())

    @property
    def recognizer(self) -> VoskRecognizer:
        """The recognizer, waited for the first time (``RecognizerError`` if the model cannot be used)."""
        if self._recognizer is None:
            self._recognizer = self._building.result()
            self.note(messages.listening(self.microphone.rate, self.speaker.voice_id, len(self._recognizer.phrases)))
            if not self._recognizer.phrases:
                self.note(messages.model_knows_no_word(self.model))
            self._heard_for_players()
        return self._recognizer

    def _heard_for_players(self) -> None:
        """The grammar and the names for the players now at the table, once the recognizer is there."""
        assert self._recognizer is not None
        if self.players != self._heard_for:  # a resumed game may seat other players
            self._heard_for = list(self.players)
            self._recognizer.set_phrases(grammar.cached_phrases(self.players))
        unknown = self._recognizer.unknown_names(self.players)
        if unknown:
            self.tell(replies.unheard_names(unknown))

    def _microphone(self, what: str) -> None:
        """The microphone went away or came back: the table hears it once each time,
        and whether it may still talk over the referee when that changed with it
        (a sound server restarted without its echo canceller)."""
        if what == LOST:
            self.tell(replies.microphone_lost())
            return
        self.tell(" ".join(filter(None, (replies.microphone_back(), self.recheck_room()))))

    def recheck_room(self) -> str | None:
        """Look at the sound server again; the sentence to say if listening changed."""
        room = sound_room(device_name(self.microphone.device), device_name(self.output))
        if room.duplex == self.duplex:
            return None
        self.duplex = room.duplex
        self.note(messages.room(room.duplex, room.why))
        return replies.listening_changed(room.duplex)

    def tell(self, text: str) -> None:
        print(text, flush=True)
        self.speaker.say(text)

    def announce(self, printed: str, spoken: str) -> None:
        print(printed, flush=True)
        if spoken:
            self.speaker.say(spoken)

    def earcon(self, name: str) -> None:
        self.speaker.earcon(name)

    def heard(self) -> Iterator[Heard]:
        if not self.voice:  # the model could not be used: by keyboard
            yield from super().heard()
            return
        try:
            recognizer = self.recognizer
        except RecognizerError as err:
            self._without_recognizer(err)
            yield from super().heard()
            return
        for heard in listen(
            self.microphone, recognizer, self.speaker.busy_at, keep_audio=self.keep_audio,
            duplex=lambda: self.duplex, barge_in=self._barge_in, complete=self.complete, output_level=self.speaker.level_at,
        ):
            if self.duplex:
                self.speaker.stop()  # what it was still saying answered the table before this
            self.note(messages.heard(heard.text, heard.confidence or 0.0))
            yield heard

    def _barge_in(self) -> None:
        if self.speaker.stop():
            self.note(messages.INTERRUPTED)

    def _without_recognizer(self, err: RecognizerError) -> None:
        """The model cannot be used: the table hears why, over the greeting, once; a
        service stops (restarting cannot help), a terminal goes on by keyboard."""
        self.voice = False
        self.microphone.close()
        self.speaker.stop()
        self.speaker.say(err.spoken)
        if self.service:
            raise CannotServe(str(err)) from err
        print(messages.no_recognizer(str(err)), file=sys.stderr)

    def rebuild_for(self, players: list[str]) -> None:
        self.players = list(players)
        if self._recognizer is not None:  # else: when it is ready (the greeting is not held for it)
            self._heard_for_players()

    def ask_players(self) -> list[str]:
        if sys.stdin.isatty():
            return super().ask_players()
        raise SetupError(messages.PLAYERS_NEEDED)

    def close(self) -> None:
        self.speaker.wait(GOODBYE_SECONDS)  # the last words are heard before the program ends
        self.microphone.close()
        self.speaker.close()
