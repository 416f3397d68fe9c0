"""The field kit: `dudo grabar` through a real PortAudio stream, `dudo evaluar`
on a synthetic Spanish corpus (espeak-ng) with the Korean stand-in model."""

from __future__ import annotations

import json
import subprocess
import wave
from pathlib import Path

import pytest

from assistant import fieldkit
from assistant.speech import Parser
from tests.test_cli import dudo
from tests.test_voice import korean_model, needs_espeak, pulse, synth  # noqa: F401 - pulse is a fixture

PLAYERS = ["ana", "beto"]


def seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def test_the_builtin_list_covers_every_command_shape_and_chatter() -> None:
    parser = Parser(players=PLAYERS)
    actions = {fieldkit.expected(parser, p)["accion"] for p in fieldkit.builtin_phrases(PLAYERS)}
    assert actions >= {"parte", "apuesta", "dudo", "calzo", "paso", "mato", "siciliana", "picado", "obligo", "cuenta",
                       "cuenta_jugador", "mano", "consulta", "si", "no", "deshacer", "castigo", "revivir", "desconocido"}
    assert all("{jugador}" not in p for p in fieldkit.builtin_phrases(PLAYERS))


@pytest.mark.audio
@needs_espeak
def test_grabar_keeps_each_phrase_said_and_ctrl_c_keeps_what_was_saved(pulse: str, tmp_path: Path) -> None:  # noqa: F811
    from assistant.voice.microphone import Microphone, pick_device

    phrases = ["tres trenes", "dudo", "pásame la cerveza", "calzo"]
    spoken = {p: synth(p, tmp_path / f"{i}.wav", "roa/es-419", silence=0.2) for i, p in enumerate(phrases)}
    mic = Microphone(pick_device(pulse))
    folder = tmp_path / "corpus"

    def prompt(phrase: str) -> None:  # the player repeats the phrase into the room
        if phrase == "calzo":
            raise KeyboardInterrupt
        subprocess.run(["paplay", str(spoken[phrase])], check=True)

    with pytest.raises(KeyboardInterrupt):
        fieldkit.record(folder, phrases, Parser(players=PLAYERS),
                        lambda: (fieldkit.Chunk(b.data, b.time) for b in mic.blocks()), mic.rate, prompt)
    mic.close()
    rows = fieldkit.read_manifest(folder)
    assert [phrase for _, phrase, _ in rows] == phrases[:3]
    assert [want["accion"] for _, _, want in rows] == ["apuesta", "dudo", "desconocido"]
    assert fieldkit.manifest_players(folder) == PLAYERS
    for (path, phrase, _), said in zip(rows, phrases, strict=False):
        kept, played = seconds(path), seconds(spoken[said])
        # the voice whole: from just before it to the end-of-phrase silence after it
        assert played - 0.6 < kept < played + fieldkit.END_SILENCE + fieldkit.PRE_ROLL + 0.5, (phrase, kept, played)


@pytest.mark.vosk
@needs_espeak
def test_evaluar_reports_figures_the_corpus_implies(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    parser = Parser(players=PLAYERS)
    phrases = ["parte ana por la izquierda", "tres trenes", "dudo", "ana dos", "tengo sed", "qué hora es"]
    lines = ["# jugadores: ana,beto"]
    for i, phrase in enumerate(phrases, start=1):
        synth(phrase, folder / f"{i:04d}.wav", "roa/es-419")
        lines.append(f"{i:04d}.wav\t{phrase}\t{json.dumps(fieldkit.expected(parser, phrase), ensure_ascii=False)}")
    (folder / fieldkit.MANIFEST).write_text("\n".join(lines) + "\n", "utf-8")
    result = dudo("evaluar", str(folder), "--modelo", str(korean_model()), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["frases"] == 6 and report["charla"] == 2
    assert report["segundos_de_audio"] == pytest.approx(sum(seconds(folder / f"{i:04d}.wav") for i in range(1, 7)), abs=0.01)
    wrong = report["detalle"]
    moves_wrong = [d for d in wrong if d["esperado"]["accion"] != "desconocido"]
    assert report["acierto_exacto"] == pytest.approx((4 - len(moves_wrong)) / 4, abs=1e-4)
    intent_wrong = [d for d in wrong if d["esperado"]["accion"] != d["entendido"]["accion"]]
    assert sum(report["confusiones"].values()) == len(intent_wrong)
    taken = [d for d in wrong if d["esperado"]["accion"] == "desconocido" and d["entendido"]["accion"] != "desconocido"]
    assert report["charla_tomada_como_jugada"] == len(taken)
    assert 0 < report["factor_tiempo_real"] < 5
    assert report["latencia_ms"]["mediana"] >= 0 and report["latencia_ms"]["p95"] >= report["latencia_ms"]["mediana"]
    human = dudo("evaluar", str(folder), "--modelo", str(korean_model()))
    assert "Frases: 6 (4 jugadas, 2 de charla)." in human.stdout and "factor de tiempo real" in human.stdout


def test_evaluar_without_a_corpus_says_how_to_make_one(tmp_path: Path) -> None:
    result = dudo("evaluar", str(tmp_path))
    assert result.returncode == 1 and "dudo grabar" in result.stderr


def test_the_capture_waits_for_the_voice_and_ends_on_silence() -> None:
    rate = 16000
    quiet = b"\x00\x00" * (rate // 10)
    loud = (b"\x10\x27" + b"\xf0\xd8") * (rate // 20)  # ±10000, a tenth of a second

    def stream(pattern: str) -> list[fieldkit.Chunk]:
        return [fieldkit.Chunk(loud if c == "#" else quiet, i * 0.1) for i, c in enumerate(pattern)]

    audio = fieldkit.capture(iter(stream("....." + "#####" + "." * 12)), rate)
    assert audio is not None and len(audio) == (3 + 5 + 8) * len(quiet)  # pre-roll, voice, end silence
    assert fieldkit.capture(iter(stream("." * 120)), rate) is None  # nobody spoke
    busy = fieldkit.capture(iter(stream("#####" + "." * 5 + "###" + "." * 10)), rate, busy_at=lambda t: t < 0.5)
    assert busy is not None and len(busy) == (3 + 3 + 8) * len(quiet)  # the referee's own prompt is not kept


