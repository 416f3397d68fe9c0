"""The hands-free table: utterances from the microphone, replies from the speaker.

Only the source of utterances and the sink of replies change; the referee,
the journal and the session are the ones the keyboard uses.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

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
        return VoiceIO(model_path, table)
    except RecognizerError as err:  # already said aloud: a missing library, a broken model
        if service:
            raise CannotServe(str(err)) from err
        print(messages.no_recognizer(str(err)), file=sys.stderr)
    except Exception as err:  # no microphone, no audio stack: the game goes on by keyboard
        log.exception("voice unavailable")
        if service:
            raise SetupError(messages.audio_failed(err)) from err
        print(messages.audio_failed(err), file=sys.stderr)
    return TableIO()


class VoiceIO(TableIO):
    """The microphone, the recognizer with the table's grammar, and the voice, as ``table`` names them."""

    def __init__(self, model: Path, table: TableConfig) -> None:
        super().__init__()
        self.voice = True
        self.keep_audio = table.record_audio
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
        try:
            phrases = grammar.cached_phrases(self.players)
            self.recognizer = VoskRecognizer(
                model, phrases, sample_rate=self.microphone.rate, alternatives=ALTERNATIVES, model=loading.result()
            )
        except RecognizerError as err:
            self.microphone.close()
            self.speaker.say(err.spoken)  # the table hears why nobody is listening, once
            self.speaker.wait(GOODBYE_SECONDS)
            self.speaker.close()
            raise
        self.note(messages.listening(self.microphone.rate, self.speaker.voice_id, len(self.recognizer.phrases)))
        if not self.recognizer.phrases:
            self.note(messages.model_knows_no_word(model))
        self.note(messages.room(room.duplex, room.why))
        self.listening = (room.duplex,)  # said in the greeting

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

    def earcon(self, name: str) -> None:
        self.speaker.earcon(name)

    def heard(self) -> Iterator[Heard]:
        for heard in listen(
            self.microphone, self.recognizer, self.speaker.busy_at, keep_audio=self.keep_audio,
            duplex=lambda: self.duplex, barge_in=self._barge_in, complete=self.complete, output_level=self.speaker.level_at,
        ):
            if self.duplex:
                self.speaker.stop()  # what it was still saying answered the table before this
            self.note(messages.heard(heard.text, heard.confidence or 0.0))
            yield heard

    def _barge_in(self) -> None:
        if self.speaker.stop():
            self.note(messages.INTERRUPTED)

    def rebuild_for(self, players: list[str]) -> None:
        if players != self.players:  # a resumed game may seat other players
            self.players = list(players)
            self.recognizer.set_phrases(grammar.cached_phrases(players))
        unknown = self.recognizer.unknown_names(players)
        if unknown:
            self.tell(replies.unheard_names(unknown))

    def ask_players(self) -> list[str]:
        if sys.stdin.isatty():
            return super().ask_players()
        raise SetupError(messages.PLAYERS_NEEDED)

    def close(self) -> None:
        self.speaker.wait(GOODBYE_SECONDS)  # the last words are heard before the program ends
        self.microphone.close()
        self.speaker.close()
