"""The hands-free table: utterances from the microphone, replies from the speaker.

Only the source of utterances and the sink of replies change; the referee,
the journal and the session are the ones the keyboard uses.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from assistant import replies
from assistant.problems import SetupError
from assistant.session import TableIO
from assistant.speech import grammar
from assistant.voice.heard import Heard
from assistant.voice.listener import listen
from assistant.voice.microphone import Microphone, MicrophoneError, pick_device
from assistant.voice.recognizer import VoskRecognizer
from assistant.voice.speaker import Speaker

ALTERNATIVES = 4
"""Readings asked of vosk per utterance: the session picks the first the game accepts."""


class VoiceIO(TableIO):
    def __init__(
        self, model: Path, mic: str | None, voice: str | None, rate: int, players: list[str], speaker: str | None = None,
        keep_audio: bool = False,
    ) -> None:
        super().__init__()
        self.voice = True
        self.keep_audio = keep_audio
        try:
            self.microphone = Microphone(pick_device(mic), report=self.tell)
        except MicrophoneError as err:
            raise SetupError(str(err)) from err
        self.speaker = Speaker(voice, rate, device=pick_device(speaker, "output"), fallback_print=lambda text: None)
        self.players = list(players)
        self.recognizer = VoskRecognizer(
            model, grammar.phrases(players=players), sample_rate=self.microphone.rate, alternatives=ALTERNATIVES
        )
        self.note(
            f"Escuchando a {self.microphone.rate} Hz; voz {self.speaker.voice_id or 'de espeak-ng'}; "
            f"{len(self.recognizer.phrases)} frases en la gramática."
        )
        if not self.recognizer.phrases:
            self.note(f"Ojo: el modelo {model} no conoce ninguna palabra del juego. ¿Es el modelo en español?")

    def tell(self, text: str) -> None:
        print(text, flush=True)
        self.speaker.say(text)

    def earcon(self, name: str) -> None:
        self.speaker.earcon(name)

    def heard(self) -> Iterator[Heard]:
        for heard in listen(self.microphone, self.recognizer, self.speaker.busy_at, keep_audio=self.keep_audio):
            self.note(f"oí «{heard.text}» (confianza {heard.confidence or 0:.2f})")
            yield heard

    def rebuild_for(self, players: list[str]) -> None:
        if players != self.players:  # a resumed game may seat other players
            self.players = list(players)
            self.recognizer.set_phrases(grammar.phrases(players=players))
        unknown = self.recognizer.unknown_names(players)
        if unknown:
            self.tell(replies.unheard_names(unknown))

    def ask_players(self) -> list[str]:
        if sys.stdin.isatty():
            return super().ask_players()
        raise SetupError("Faltan los jugadores: usa --jugadores ana,beto,carla o el archivo de configuración.")

    def close(self) -> None:
        self.microphone.close()
