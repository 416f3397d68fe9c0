"""How much the referee says (--hablar) and its earcons. Named so that
``pytest -k "earcon or hablar"`` selects them."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.session import Session
from assistant.speech import Parser
from assistant.voice import earcons
from assistant.voice.heard import Heard, from_vosk
from tests.test_cli import dudo
from tests.test_voice import pulse, record_room  # noqa: F401 - pulse is the PulseAudio null-sink fixture


def test_earcons_are_short_distinct_and_audible() -> None:
    peaks = {}
    for name in earcons.NAMES:
        audio = earcons.samples(name).astype(np.float64) / 32768
        assert 0.05 < len(audio) / earcons.RATE <= earcons.MAX_SECONDS, name
        assert np.sqrt(np.mean(audio**2)) > 0.1
        assert abs(audio[0]) < 0.01 and abs(audio[-1]) < 0.01  # faded: no click
        spectrum = np.abs(np.fft.rfft(audio))
        peaks[name] = round(float(np.argmax(spectrum)) * earcons.RATE / len(audio))
    assert len(set(peaks.values())) == len(peaks), peaks  # each has its own pitch


def play(level: str, lines: list[Heard | str]) -> list[str]:
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    out: list[str] = []
    session = Session(Referee(game), Parser(players=game.players), say=out.append, level=level,
                      earcon=lambda name: out.append(f"[{name}]"))
    for line in lines:
        session.hear(Heard.from_text(line) if isinstance(line, str) else line)
    return out


def test_hablar_poco_beeps_accepted_bids_and_says_what_the_table_must_hear() -> None:
    out = play("poco", ["parte ana", "tres trenes", "cuatro trenes", "dos trenes", "tengo sed", "dudo", "hay dos"])
    assert out[:3] == ["[aceptada]", "[aceptada]", "[aceptada]"]
    assert out[3] == "[rechazada]" and out[4] == "No alcanza: van cuatro trenes."  # the verdict: the table is not deaf long
    assert out[5] == "[repite]"
    assert out[6] == "¿Cuántos trenes hay con los ases?"  # a call: its question (the table heard the "dudo")
    assert out[7] == "Había dos trenes, no cuatro. Beto pierde un dado. Parte beto."  # a result: who loses, who starts


def test_hablar_poco_gives_the_options_when_asked_and_normal_at_once() -> None:
    out = play("poco", ["parte ana", "tres trenes", "dos trenes", "ayuda"])
    assert "Puedes subir: cuatro de cualquier pinta, tres cuadras o dos ases." in out[-1]
    full = play("normal", ["parte ana", "tres trenes", "dos trenes"])
    assert full[-1].startswith("No alcanza: cuatro de cualquier pinta, tres cuadras o dos ases. Van tres trenes.")


def test_hablar_poco_keeps_what_is_not_plain_whole() -> None:
    """A plain dudo is its question; the count's progress names who is next."""
    out = play("poco", ["parte ana", "tres trenes", "dudo"])
    assert out[2] == "¿Cuántos trenes hay con los ases?"
    out = play("poco", ["parte ana", "tres trenes", "cuatro trenes", "dudo", "ana dos"])
    assert out[4] == "¿Y beto?"  # the next in reveal order
    full = play("normal", ["parte ana", "tres trenes", "cuatro trenes", "dudo", "ana dos"])
    assert full[4] == "Van dos. Faltan beto y carla."


def test_hablar_poco_says_back_a_bid_accepted_with_doubt() -> None:
    doubtful = from_vosk({"alternatives": [{"text": "dos trenes", "confidence": 100.0}, {"text": "cuatro trenes", "confidence": 99.0}]})
    faint = from_vosk({"text": "cinco trenes", "result": [{"word": "cinco", "conf": 0.7, "start": 0, "end": 0.3},
                                                          {"word": "trenes", "conf": 0.7, "start": 0.3, "end": 0.6}]})
    assert doubtful is not None and faint is not None
    out = play("poco", ["parte ana", "tres trenes", doubtful, faint])
    assert out[2] == "Cuatro trenes. Sigue carla."  # a lower reading was taken: said back, so "corrección" is possible
    assert out[3] == "Cinco trenes. Sigue ana."  # a low confidence too


def test_hablar_normal_is_todays_replies_and_todo_teaches() -> None:
    assert play("normal", ["parte ana", "tres trenes"]) == ["Parte ana, por la izquierda.", "Tres trenes. Sigue beto."]
    todo = play("todo", ["parte ana", "tres trenes"])
    assert todo[0] == "Parte ana, por la izquierda. Ana, te toca abrir: di una apuesta, como dos trenes."
    assert todo[1] == "Tres trenes. Sigue beto. Beto, puedes subir, dudar, calzar o pasar."


def test_hablar_in_the_command_line_text_mode_names_the_earcons(tmp_path: Path) -> None:
    helped = dudo("jugar", "--help")
    assert "--hablar" in helped.stdout and "poco" in helped.stdout and "todo" in helped.stdout
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--hablar", "poco", stdin="parte ana\ntres trenes\ndudo\n",
                  env={"DUDO_DATOS": str(tmp_path)})
    lines = result.stdout.splitlines()
    assert lines[1:3] == ["[sonido: aceptada]", "[sonido: aceptada]"] and lines[3] == "¿Cuántos trenes hay con los ases?"
    assert dudo("jugar", "--texto", "--nueva", "--jugadores", "ana,beto", stdin="parte ana\n",
                env={"DUDO_DATOS": str(tmp_path)}).stdout.splitlines()[-1] == "Parte ana, por la izquierda."  # text mode: normal
    bad = dudo("jugar", "--texto", "--hablar", "mucho")
    assert bad.returncode != 0 and "'--hablar' tiene que ser 'poco' o 'normal' o 'todo'" in bad.stderr
    config = tmp_path / "mesa.toml"
    config.write_text('jugadores = ["ana", "beto"]\nhablar = "poco"\n', "utf-8")
    via_config = dudo("jugar", "--texto", "--nueva", "--config", str(config), stdin="parte ana\n", env={"DUDO_DATOS": str(tmp_path)})
    assert via_config.stdout.splitlines()[-1] == "[sonido: aceptada]"


@pytest.mark.audio
def test_a_stuck_voice_is_retired_and_never_queued_behind(tmp_path: Path) -> None:
    """A synthesis that does not finish in time (here: the engine writing into a
    named pipe nobody reads, a real hang ahead in its queue) costs one reply the
    timeout, once; the engine is retired and every later reply goes straight to
    espeak-ng."""
    import os
    import threading
    import time

    from assistant.voice.speaker import SYNTH_TIMEOUT, Speaker, complete_wav, wav_stats

    speaker = Speaker(play=False, engine="pyttsx3")
    if speaker._engine is None:
        pytest.skip("pyttsx3 no arrancó aquí")
    pipe = tmp_path / "cuelga.wav"
    os.mkfifo(pipe)
    speaker._engine.jobs.put(("Parte ana.", pipe, threading.Event()))
    started = time.monotonic()
    first = speaker.save("Tres trenes. Sigue beto.", tmp_path / "uno.wav")
    assert time.monotonic() - started < SYNTH_TIMEOUT + 1.5
    assert speaker._engine is None and complete_wav(first) and wav_stats(first)["seconds"] > 1.0
    started = time.monotonic()
    second = speaker.save("Cuatro trenes. Sigue carla.", tmp_path / "dos.wav")
    assert time.monotonic() - started < 1.0 and complete_wav(second)


@pytest.mark.audio
def test_fault_pyttsx3_speaks_the_first_reply_whole(tmp_path: Path) -> None:
    """Without an espeak-ng command the voice is pyttsx3, whose espeak driver says an
    utterance is done before its WAV is closed: the first reply of every start (the
    names it cannot hear) was taken for a broken file and never said. The file is
    now waited for."""
    import os
    import subprocess
    import sys

    from assistant.voice.speaker import complete_wav, wav_stats

    first = tmp_path / "primera.wav"
    code = (  # a process of its own: a start, and pyttsx3 keeps one engine per process
        "import sys\n"
        "from pathlib import Path\n"
        "from assistant.voice.speaker import Speaker\n"
        "speaker = Speaker(play=False, engine='pyttsx3')\n"
        "if speaker._engine is None:\n"
        "    sys.exit(3)\n"
        "text = 'No voy a poder oír los nombres ana y beto: el modelo de voz no los conoce. Para contar, díganme el total, o usen apodos comunes.'\n"
        "print(speaker._engine.synthesize(text, Path(sys.argv[1])))\n"
    )
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if not (Path(p) / "espeak-ng").exists())
    done = subprocess.run([sys.executable, "-c", code, str(first)], capture_output=True, text=True, timeout=60, env={**os.environ, "PATH": path})
    if done.returncode == 3:
        pytest.skip("pyttsx3 no arrancó aquí")
    assert done.stdout.strip() == "True", done.stderr
    assert complete_wav(first) and wav_stats(first)["seconds"] > 2.0


@pytest.mark.audio
def test_the_first_reply_is_as_reliable_as_the_hundredth() -> None:
    """Fresh starts (a new process each: espeak starts once per process): the
    first reply is a whole WAV of the right length every time."""
    import subprocess
    import sys

    code = (
        "import sys, tempfile, pathlib\n"
        "from assistant.voice.speaker import Speaker, complete_wav, wav_stats\n"
        "s = Speaker(play=False)\n"
        "p = s.save('Beto duda los tres trenes de ana. ¿Cuántos trenes hay con los ases?', pathlib.Path(tempfile.mkdtemp()) / 'r.wav')\n"
        "print(complete_wav(p), round(wav_stats(p)['seconds'], 2))\n"
    )
    lengths = []
    for _ in range(8):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
        whole, seconds = done.stdout.split()
        assert whole == "True"
        lengths.append(float(seconds))
    assert max(lengths) - min(lengths) < 0.3, lengths  # never cut short


def test_hands_free_ayuda_otra_and_terminamos_by_voice(tmp_path: Path) -> None:
    """The table starts another game, asks for help and ends the night by voice."""
    game_lines = "parte ana\n" + "tres trenes\ndudo\nhay cero\n" * 3
    lines = "ayuda\n" + game_lines + "ayuda\notra\nparte beto\nayuda\ntres trenes\notra\nterminamos\ndudo\n"
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "chimbo9", stdin=lines, env={"DUDO_DATOS": str(tmp_path)})
    out = result.stdout.splitlines()
    assert result.returncode == 0
    assert out[1] == "Digan quién parte. Por ejemplo: parte ana. ¿Quieres más?"
    won = out.index(next(line for line in out if "¡Ganó beto!" in line))
    assert out[won + 1] == "Si quieren jugar de nuevo, digan otra. Para cerrar la noche, digan terminamos."
    assert out[won + 2] == "¡Otra! Con los mismos jugadores y las mismas reglas."
    assert out[won + 3].startswith("¡Hola! Juegan ana y beto")  # the new game greets
    assert out[won + 4].startswith("Parte beto")
    assert out[won + 5] == "Te toca abrir, beto: di una apuesta, como tres trenes. ¿Quieres más?"
    assert out[won + 7] == "Todavía estamos jugando. Para empezar otra, terminen esta o digan terminamos."
    assert out[won + 8] == "Terminamos. La partida queda guardada para seguirla otro día."  # «dudo reanudar» is the terminal's note
    assert len(out) == won + 9  # nothing after "terminamos" is heard
    journals = sorted((tmp_path / "partidas").glob("partida-*.jsonl"))
    assert len(journals) == 2  # the finished game and the new one, each in its own journal
    from assistant import journal

    assert journal.load(journals[0]).finished and journal.load(journals[1]).game.bid is not None


def test_hablar_an_obligos_rules_in_full_the_first_time_then_in_one_sentence() -> None:
    from assistant import replies
    from assistant.rules.game import Obligo

    game = Game(preset("caleuchano"), ["ana", "beto", "carla"])
    game.obligo, game.obligo_used = Obligo("ana"), {"ana"}
    first = replies.obligo_rules(game)
    game.obligo, game.obligo_used = Obligo("beto", closed=True), {"ana", "beto"}
    later = replies.obligo_rules(game)
    assert "ases no son comodines" in first and "ases no son comodines" in later
    assert first.startswith("Obligado de ana. ") and later.startswith("Obligado cerrado de beto. ") and "de éstas" in later
    assert len(later) < len(first) and "Como el anterior" in later
    assert len(replies.obligo_rules(game, whole=True)) >= len(first)  # asked for, it is whole again


def test_barge_endpoint_a_whole_call_needs_less_silence() -> None:
    """What ends with the shorter silence: a call the game would take as it stands,
    or any call but a bare number during the bids ("tres" may become "tres trenes")."""
    game = Game(preset("caleuchano"), ["ana", "beto"])
    session = Session(Referee(game), Parser(players=game.players))
    session.hear(Heard.from_text("parte ana"))
    assert session.complete("tres trenes") and session.complete("dudo")
    assert not session.complete("tres") and not session.complete("") and not session.complete("tres de")
    session.hear(Heard.from_text("tres trenes"))
    session.hear(Heard.from_text("dudo"))
    assert session.complete("tres")  # now a number is the count


def test_hands_free_otra_con_pedro_adds_a_player_and_otra_sin_removes_one(tmp_path: Path) -> None:
    """«otra con pedro» seats a newcomer in the next game, «revancha sin ana»
    lets one go; a name that is not at the table, or one already there, is
    refused with the reason and changes nothing."""
    game_lines = "parte ana\n" + "tres trenes\ndudo\nhay cero\n" * 3
    lines = game_lines + "otra sin carla\notra con beto\notra con pedro\nparte pedro\n"
    result = dudo("jugar", "--texto", "--jugadores", "ana,beto", "--reglas", "chimbo9", stdin=lines, env={"DUDO_DATOS": str(tmp_path)})
    out = result.stdout.splitlines()
    assert result.returncode == 0
    won = out.index(next(line for line in out if "¡Ganó beto!" in line))
    assert out[won + 1] == "Carla no está jugando: no puede salir."
    assert out[won + 2] == "Beto ya está en la mesa."
    assert out[won + 3] == "¡Otra! Entra pedro. Juegan ana, beto y pedro, con las mismas reglas."
    assert out[won + 4].startswith("¡Hola! Juegan ana, beto y pedro")
    assert out[won + 5].startswith("Parte pedro")  # the new player is understood at once
    from assistant import journal

    journals = sorted((tmp_path / "partidas").glob("partida-*.jsonl"))
    assert len(journals) == 2 and list(journal.load(journals[1]).game.players) == ["ana", "beto", "pedro"]
    session = Session(Referee(Game(preset("chimbo9"), ["ana", "beto", "pedro"])), Parser(players=("ana", "beto", "pedro")))
    assert session.referee.handle(Parser(players=("ana", "beto", "pedro")).parse("revancha sin ana")).text.startswith("¡Otra! Sale ana")
    from assistant.speech import grammar

    said = grammar.phrases(players=["ana", "beto"])
    assert "otra con pedro" in said and "revancha sin beto" in said


def test_startup_greeting_at_poco_says_who_rules_how_it_listens_and_asks_in_six_seconds(tmp_path: Path) -> None:
    from assistant.voice.speaker import Speaker
    from scripts import sala

    for duplex, mode in ((True, "los oigo aunque hable"), (False, "hablen cuando calle")):
        game = Game(preset("caleuchano"), ["ana", "beto", "carla"])
        said: list[str] = []
        session = Session(Referee(game), Parser(players=game.players), say=said.append, level="poco", earcon=lambda _n: None)
        text = session.start((duplex,))
        assert text == said[0] == f"Hola ana, beto y carla: reglas del Caleuchano, {mode}. ¿Quién parte?"
        with wave.open(str(Speaker(play=False).save(text, tmp_path / "hola.wav")), "rb") as wav:
            audio = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).astype(np.float32) / 32768
            rate = wav.getframerate()
        spans = sala.sounds(audio, rate, 0.01, bridge=1.0)
        assert len(spans) == 1 and spans[0] <= 6.0, spans  # seconds of speech, at the default rate
    # at normal the whole greeting, and how it listens after it
    full = Session(Referee(game), Parser(players=game.players), say=lambda _t: None, level="normal").start((True,))
    assert full.startswith("¡Hola! Juegan ana, beto y carla") and full.endswith("si me interrumpen, me callo y escucho.")
