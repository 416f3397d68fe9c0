"""Spoken replies: pyttsx3 (espeak-ng) synthesizes, our own audio stream plays.

pyttsx3's espeak driver would play through `aplay` on the default ALSA
device, with no device choice and no way to know exactly when it stops, and
it has been seen to hang after the first phrase on a Pi. So one engine lives
in one worker thread and only synthesizes to a WAV; playback goes through
sounddevice, which tells us when the sound is over (half duplex needs that).
If pyttsx3 fails or hangs, espeak-ng is called directly; if sound fails
altogether, the reply is printed and the game goes on.
"""

from __future__ import annotations

import logging
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import wave
import weakref
from bisect import bisect_right
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from assistant.voice import messages as say

log = logging.getLogger("dudo.parlante")

SPANISH_VOICES = ("roa/es-419", "roa/es", "es-419", "es")
"""Preferred espeak-ng voices: Latin American first."""
ECHO_TAIL = 0.2
"""Seconds after a reply's last sound during which the microphone is still ignored
(half duplex). Measured, not assumed: a reply passed through sox's reverb at up
to 100 % reverberance, at the microphone's loudest, never started the speech
detector from 0.2 s after its last sound (0.1 s: 2 of 10 did); in the test room the
last sound reaches the microphone within 0.02 s of the speaker's end."""
EARCON_TAIL = 0.15
"""The same after an earcon: a short tone at table volume dies out sooner than speech."""
PLAY_SLACK = 5.0
"""A sound that has not started this long after it was asked is given up on."""
ENVELOPE_STEP = 0.01
"""Seconds per step of a sound's loudness envelope."""
SILENCE = 0.001
"""RMS (of full scale) of a step that is silence at a sound's ends (-60 dBFS)."""
SILENCE_KEPT = 0.02
"""Seconds of a sound's silent ends kept: its first and last sounds whole, no click.
The rest is dropped before it plays: espeak-ng ends every sentence with 0.3 s of
silence, and the referee is deaf for the echo tail after the end of what it plays."""
DRAIN_SLACK = 0.03
"""Seconds allowed past a sound's reckoned end for its last buffer to be heard."""
SYNTH_TIMEOUT = 3.0
"""A synthesis taking longer than this (seconds) is abandoned, and the engine with it:
espeak-ng makes a sentence in tens of milliseconds, so a slower one is stuck."""


def _quiet_driver() -> None:
    """pyttsx3's espeak driver prints "Audio saved to …" for every file; the
    table's terminal shows replies only. Shadow ``print`` in that module alone
    (redirecting sys.stdout from this thread would swallow the main thread's too)."""
    import sys

    module = sys.modules.get("pyttsx3.drivers.espeak")
    if module is not None:
        module.print = lambda *args, **kwargs: None  # type: ignore[attr-defined]


def _espeak() -> str | None:
    return shutil.which("espeak-ng") or shutil.which("espeak")


WAV_SETTLE = 2.0
"""pyttsx3's espeak driver reports an utterance done before its WAV is closed
(a long first reply was found unwritten 3 times in 3 starts): seconds to wait for it."""


class _Engine:
    """One pyttsx3 engine in its own thread (espeak can be initialised only once)."""

    def __init__(self, voice: str | None, rate: int) -> None:
        self.jobs: queue.Queue[tuple[str, Path, threading.Event]] = queue.Queue()
        self.voice_id: str | None = None
        self.ready = threading.Event()
        self.error: Exception | None = None
        threading.Thread(target=self._run, args=(voice, rate), daemon=True, name="pyttsx3").start()
        self.ready.wait(SYNTH_TIMEOUT)

    def _run(self, voice: str | None, rate: int) -> None:
        try:
            import pyttsx3

            engine = pyttsx3.init()
            _quiet_driver()
            ids = [v.id for v in engine.getProperty("voices")]
            wanted = [voice] if voice else list(SPANISH_VOICES)
            self.voice_id = next((v for v in wanted if v in ids), None)
            if self.voice_id is None and voice:
                raise ValueError(say.no_such_voice(voice))
            if self.voice_id:
                engine.setProperty("voice", self.voice_id)
            engine.setProperty("rate", rate)
        except Exception as err:
            self.error = err
            self.ready.set()
            return
        self.ready.set()
        while True:
            text, path, done = self.jobs.get()
            try:
                engine.save_to_file(text, str(path))
                engine.runAndWait()
            except Exception as err:  # reported through the missing file
                log.warning("pyttsx3 failed: %s", err)
            done.set()

    def synthesize(self, text: str, path: Path) -> bool | None:
        """True: ``path`` holds the whole speech; False: the engine failed this
        once; None: it did not answer in time (it is stuck: retire it)."""
        done = threading.Event()
        self.jobs.put((text, path, done))
        if not done.wait(SYNTH_TIMEOUT):
            return None
        settled = time.monotonic() + WAV_SETTLE
        while not complete_wav(path) and time.monotonic() < settled:
            time.sleep(0.02)
        return complete_wav(path)


def _as_played(audio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``audio`` (16-bit samples) from its first sound to its last, ``SILENCE_KEPT``
    around them, cut on whole ``ENVELOPE_STEP`` steps, and its loudness envelope."""
    step = max(1, int(OUTPUT_RATE * ENVELOPE_STEP))
    steps = len(audio) // step
    frames = audio[: steps * step].astype(np.float32) / 32768.0
    envelope = np.sqrt((frames.reshape(-1, step) ** 2).mean(axis=1)) if steps else np.zeros(0, np.float32)
    loud = np.flatnonzero(envelope > SILENCE)
    if not loud.size:
        return audio, envelope
    kept = round(SILENCE_KEPT / ENVELOPE_STEP)
    first, last = max(0, int(loud[0]) - kept), min(steps, int(loud[-1]) + 1 + kept)
    return audio[first * step : last * step], envelope[first:last]


def played_seconds(path: Path) -> float:
    """How long the sound in ``path`` plays: without its silent ends."""
    return len(_as_played(_read_mono(path, OUTPUT_RATE))[0]) / OUTPUT_RATE


def complete_wav(path: Path) -> bool:
    """A WAV with sound in it whose data is all there (not cut short)."""
    try:
        with wave.open(str(path), "rb") as wav:
            frames = wav.getnframes()
            declared = frames * wav.getsampwidth() * wav.getnchannels()
            data = len(wav.readframes(frames))
    except (OSError, EOFError, wave.Error):
        return False
    return frames > 0 and data == declared


@dataclass
class Spoken:
    """What the referee said and when (``time.monotonic()`` seconds)."""

    queued: float
    what: str = ""
    """The reply's text, or the earcon's name."""
    first_sample: float | None = None
    """When the first sample reached the output, as PortAudio reckons it."""
    ended: float | None = None
    cut: bool = False
    """Stopped before its end (a player spoke over it)."""
    envelope: np.ndarray | None = None
    """Its loudness (RMS of full scale) every ``ENVELOPE_STEP`` seconds, once it plays."""
    heard_times: list[float] = field(default_factory=list)
    heard_positions: list[int] = field(default_factory=list)
    """When each buffer of it was to be heard, and the sample it started at: a
    stream that ran dry (an underrun under load) plays the rest later than its
    first sample says, and the echo it leaves comes with it."""

    def level(self, since: float, until: float) -> float:
        """Its loudest between two moments (0 where it was not playing)."""
        if self.first_sample is None or self.envelope is None or not len(self.envelope):
            return 0.0
        end = self.ended if self.ended is not None else float("inf")
        since, until = max(since, self.first_sample), min(until, end)
        if until < since:
            return 0.0
        samples_per_step = max(1, int(OUTPUT_RATE * ENVELOPE_STEP))  # as the envelope was cut
        first = int(self.position_at(since) / samples_per_step)
        last = int(self.position_at(until) / samples_per_step) + 1
        part = self.envelope[first:last]
        return float(part.max()) if len(part) else 0.0

    def position_at(self, moment: float) -> float:
        """The sample being heard at ``moment``: from the buffer heard last
        before it (held at the last sample before the next buffer across a gap), or from the
        first sample where no buffer was marked."""
        assert self.first_sample is not None
        times, positions = self.heard_times, self.heard_positions  # appended by the stream's callback
        known = min(len(times), len(positions))
        if not known:
            return max(0.0, (moment - self.first_sample) * OUTPUT_RATE)
        i = bisect_right(times, moment, 0, known) - 1
        if i < 0:
            return 0.0
        position = positions[i] + (moment - times[i]) * OUTPUT_RATE
        return min(position, positions[i + 1] - 1.0) if i + 1 < known else position


@dataclass
class _Job:
    """A sound waiting its turn: a reply (``text``) or an earcon."""

    path: Path
    tail: float
    text: str | None
    keep: bool
    """The file is shared (an earcon): do not delete it after playing."""
    spoken: Spoken
    generation: int = 0
    """``stop`` cuts every job of an older generation."""


class Speaker:
    """Says replies aloud without holding up the caller.

    ``say`` synthesizes at once (tens of milliseconds) and queues the sound; one
    thread plays the queue in order through our own PortAudio stream, so the
    microphone is read while the referee talks. ``stop`` cuts what is playing and
    drops what waits (a player spoke over the referee). ``busy_at`` tells
    whether the referee was talking (or its echo still in the room) at a
    moment: half duplex drops the audio heard then.
    """

    def __init__(
        self,
        voice: str | None = None,
        rate: int = 165,
        device: int | None = None,
        play: bool = True,
        fallback_print: Callable[[str], None] = print,
        engine: str = "auto",
    ) -> None:
        """``engine``: "espeak" (espeak-ng run for each reply), "pyttsx3", or
        "auto": espeak-ng where it is a command, else pyttsx3. On Linux pyttsx3
        drives the same espeak-ng, but its first reply after a start came out cut
        short now and then under load (3.7 s of 4.6 s, in the suite); a fresh
        espeak-ng process per reply takes ~20 ms and is the same every time."""
        self.voice = voice
        self.rate = rate
        self.device = device
        self.play_audio = play
        self.fallback_print = fallback_print
        self._engine: _Engine | None = None
        if engine == "pyttsx3" or (engine == "auto" and _espeak() is None):
            self._engine = _Engine(voice, rate)
            if self._engine.error is not None:
                log.warning("pyttsx3 unavailable: %s", self._engine.error)
                self._engine = None
        _sweep_folders()
        self._folder = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-"))
        self._remove_folder = weakref.finalize(self, shutil.rmtree, str(self._folder), True)
        """Removes the sounds' folder at close, when the speaker is collected, or at exit."""
        self._lock = threading.Lock()
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._pending = 0
        self._idle = threading.Condition(self._lock)
        self._generation = 0
        self.spoken: deque[Spoken] = deque(maxlen=50)
        """The latest sounds, newest last (for deafness windows and benchmarks)."""
        self._tails: deque[tuple[float, float]] = deque(maxlen=50)
        """(start, end + tail) of the sounds played."""
        self._since: float | None = None
        """When the sound now queued or playing was queued."""
        self._thread = threading.Thread(target=self._player, daemon=True, name="parlante")
        self._thread.start()

    @property
    def voice_id(self) -> str | None:
        return self._engine.voice_id if self._engine else (self.voice or SPANISH_VOICES[0])

    def busy(self) -> bool:
        return self.busy_at(time.monotonic())

    def busy_at(self, moment: float) -> bool:
        """Was the referee speaking (or its echo still in the room) at ``moment``
        (``time.monotonic()`` seconds)?"""
        with self._lock:
            if self._since is not None and moment >= self._since:
                return True
            return any(start <= moment < end for start, end in self._tails)

    def level_at(self, moment: float, window: float) -> float:
        """How loud the referee's output was at its loudest in the ``window``
        seconds before ``moment`` (0 to 1): what may echo in the microphone then."""
        with self._lock:
            sounds = list(self.spoken)
        return max((sound.level(moment - window, moment) for sound in sounds), default=0.0)

    def save(self, text: str, path: Path) -> Path:
        """Synthesize ``text`` to a WAV file (pyttsx3, else espeak-ng). An engine
        that does not answer in time is retired for good: later replies never
        queue behind a stuck synthesis."""
        if self._engine is not None:
            done = self._engine.synthesize(text, path)
            if done is False:
                done = self._engine.synthesize(text, path)  # once more before another engine
            if done:
                return path
            if done is None:
                log.warning("pyttsx3 stuck for %.0f s: retired, espeak-ng from now on", SYNTH_TIMEOUT)
                self._engine = None
            else:
                log.warning("pyttsx3 returned a partial WAV; using espeak-ng directly")
        espeak = _espeak()
        if espeak is None:
            raise RuntimeError(say.NO_ESPEAK)
        voice = self.voice or SPANISH_VOICES[0]
        subprocess.run([espeak, "-v", voice, "-s", str(self.rate), "-w", str(path), "--", text], check=True, timeout=SYNTH_TIMEOUT)
        return path

    def say(self, text: str) -> None:
        """Queue ``text`` to be spoken after what is already queued; print it
        instead if it cannot be synthesized."""
        try:
            path = self.save(text, self._folder / f"r{time.monotonic_ns()}.wav")
        except Exception as err:
            log.warning("speech output failed: %s", err)
            self.fallback_print(text)
            now = time.monotonic()
            with self._lock:  # nothing plays, but the table may have heard us start: the usual tail
                self._tails.append((now, now + ECHO_TAIL))
            return
        self._queue(path, ECHO_TAIL, text, text)

    def earcon(self, name: str) -> None:
        """Queue one of ``earcons.NAMES``, played through the same output as speech."""
        from assistant.voice import earcons

        try:
            path = earcons.write(name, self._folder)
        except Exception as err:
            log.warning("earcon %s failed: %s", name, err)
            return
        self._queue(path, EARCON_TAIL, f"[sonido: {name}]", keep=True)

    def _queue(self, path: Path, tail: float, what: str, text: str | None = None, keep: bool = False) -> None:
        """``text``: printed if the sound cannot play; ``keep``: the file is shared (an earcon)."""
        with self._lock:
            now = time.monotonic()
            if self._pending == 0:
                self._since = now
            self._pending += 1
            job = _Job(path, tail, text, keep, Spoken(now, what), self._generation)
            self.spoken.append(job.spoken)
            self._jobs.put(job)

    def stop(self) -> bool:
        """Cut what is playing and drop what waits; True if anything was."""
        with self._lock:
            if self._pending == 0:
                return False
            self._generation += 1
            while True:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:  # closed meanwhile: the player must still see it
                    self._jobs.put(None)
                    break
                self._done(job, cut=True)
            return True

    def close(self) -> None:
        """Cut what plays, end the player (its stream closed before the program
        ends: PortAudio's own exit would wait on a stream being closed) and
        remove the sounds' folder."""
        self.stop()
        self._jobs.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(CLOSE_WAIT)
        self._remove_folder()

    def wait(self, timeout: float = 30.0) -> bool:
        """Until everything queued has been played (or cut); False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _done(self, job: _Job, cut: bool) -> None:
        """Called with the lock held."""
        now = time.monotonic()
        job.spoken.ended = now
        job.spoken.cut = cut
        if not job.keep:
            job.path.unlink(missing_ok=True)
        self._pending -= 1
        if self._pending == 0:
            self._tails.append((self._since if self._since is not None else now, now + job.tail))
            self._since = None
            self._idle.notify_all()

    def _player(self) -> None:
        output = _Output(self.device)
        try:
            while True:
                try:
                    job = self._jobs.get(timeout=IDLE_CLOSE)
                except queue.Empty:
                    output.close()  # a quiet table: let the sound device rest
                    continue
                if job is None:  # closed
                    return
                failed = False
                if self.play_audio and not self._is_cut(job):
                    try:
                        self._play(job, output)
                    except Exception as err:
                        log.warning("sound output failed: %s", err)
                        output.close()  # opened again for the next sound (the sound server came back, say)
                        failed = True
                if failed and job.text is not None:
                    self.fallback_print(job.text)
                with self._lock:
                    if job.spoken.ended is None:
                        self._done(job, cut=self._is_cut(job))
        finally:
            output.close()

    def _is_cut(self, job: _Job) -> bool:
        return job.generation != self._generation

    def _play(self, job: _Job, output: _Output) -> None:
        """Hand the sound to the output stream and wait until its last sample
        has been heard (or it is cut)."""
        spoken = job.spoken
        audio, spoken.envelope = _as_played(_read_mono(job.path, OUTPUT_RATE))
        sound = _Sound(audio, lambda: self._is_cut(job), spoken)
        output.play(sound)
        if not sound.begun.wait(PLAY_SLACK):
            raise RuntimeError("the output stream never asked for the sound")
        spoken.first_sample = sound.first_heard
        # its length (and the stream's latency) from the first sample, and a margin
        deadline = time.monotonic() + len(audio) / OUTPUT_RATE + PLAY_SLACK
        while not sound.over.wait(0.02):
            if time.monotonic() > deadline:
                raise RuntimeError("the output stream stopped asking for sound")
        if sound.last_heard is not None:
            while not self._is_cut(job) and time.monotonic() < sound.last_heard + DRAIN_SLACK:
                time.sleep(0.01)


OUTPUT_RATE = 22050
"""One rate for every sound (espeak-ng's own): the stream never reopens between an earcon and a reply."""
CLOSE_WAIT = 3.0
"""Seconds ``close`` waits for the player to close its stream."""
IDLE_CLOSE = 20.0
"""Seconds without a sound after which the output stream is closed (opened again at the next)."""


class _Sound:
    """One sound being fed to the stream: where it is, when it is heard."""

    def __init__(self, audio: np.ndarray, cut: Callable[[], bool], spoken: Spoken) -> None:
        self.audio = audio
        self.spoken = spoken
        self.position = 0
        self.cut = cut
        self.first_heard: float | None = None
        self.last_heard: float | None = None
        self.begun = threading.Event()
        self.over = threading.Event()


class _Output:
    """One PortAudio stream that stays open while the referee talks, fed sound
    after sound and silence between them.

    A stream opened and closed for every sound lost short ones on a sound server
    with echo cancellation: the server held the first tenths of a second of a new
    stream (its prebuffer and the canceller's latency, which PortAudio's latency
    does not show), and closing the stream at the sound's reckoned end dropped
    what was still held: an earcon of 0.12 s came out as 0.03 s, or not at all.
    Here a sound's end is followed by silence in the same stream, so whatever
    the server holds is the sound's tail, never cut; barge-in cuts by feeding
    silence, so only what is already buffered (the stream's latency) is heard."""

    def __init__(self, device: int | None) -> None:
        self.device = device
        self._stream: Any = None
        self._sound: _Sound | None = None
        self._lock = threading.Lock()

    def play(self, sound: _Sound) -> None:
        with self._lock:
            self._sound = sound
        if self._stream is None or not self._stream.active:
            self._open()

    def _open(self) -> None:
        import sounddevice as sd

        self.close()
        self._stream = sd.OutputStream(samplerate=OUTPUT_RATE, channels=1, dtype="int16", device=self.device,
                                       latency="low", callback=self._callback)
        self._stream.start()

    def _callback(self, outdata: Any, frames: int, when: Any, status: Any) -> None:
        with self._lock:
            sound = self._sound
        if sound is None or sound.over.is_set():
            outdata[:] = 0
            return
        heard = time.monotonic() + max(0.0, when.outputBufferDacTime - when.currentTime)
        if sound.cut():
            outdata[:] = 0
            sound.over.set()
            return
        spoken = sound.spoken
        if sound.first_heard is None:
            sound.first_heard = heard
            sound.begun.set()
        elif status.output_underflow:
            log.info("the output ran dry in the middle of %r", spoken.what)
        spoken.heard_positions.append(sound.position)
        spoken.heard_times.append(heard)
        chunk = sound.audio[sound.position : sound.position + frames]
        outdata[: len(chunk), 0] = chunk
        outdata[len(chunk) :] = 0
        sound.position += len(chunk)
        if sound.position >= len(sound.audio):
            sound.last_heard = heard + len(chunk) / OUTPUT_RATE
            sound.over.set()

    def close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.abort(ignore_errors=True)
                stream.close(ignore_errors=True)
            except Exception as err:  # a sound server that went away
                log.warning("closing the output stream: %s", err)


def _read_mono(path: Path, rate: int) -> np.ndarray:
    """A WAV's first channel as int16 at ``rate`` (linear resampling: tones and speech)."""
    with wave.open(str(path), "rb") as wav:
        source_rate = wav.getframerate()
        channels = wav.getnchannels()
        audio = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).reshape(-1, channels)[:, 0]
    if source_rate == rate or not len(audio):
        return np.ascontiguousarray(audio)
    times = np.arange(int(len(audio) * rate / source_rate)) / rate
    return np.interp(times, np.arange(len(audio)) / source_rate, audio.astype(np.float32)).astype(np.int16)


FOLDER_PREFIX = "dudo-voz-"
"""Each speaker's sounds live in a temporary folder named with its process id."""


def _sweep_folders() -> None:
    """Remove the sound folders of processes that are gone (killed before they
    could clean up): one per process, never another live one's."""
    for folder in Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*"):
        pid = folder.name[len(FOLDER_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or Path(f"/proc/{pid}").exists() or not Path("/proc/self").exists():
            continue
        shutil.rmtree(folder, ignore_errors=True)


def wav_stats(path: Path) -> dict[str, Any]:
    """Duration (seconds) and RMS level (0..1) of a 16-bit WAV, for checks."""
    with wave.open(str(path), "rb") as wav:
        frames = wav.readframes(wav.getnframes())
        rate = wav.getframerate()
    audio = np.frombuffer(frames, dtype=np.int16).astype(np.float64) / 32768.0
    return {"seconds": len(audio) / rate if rate else 0.0, "rms": float(np.sqrt(np.mean(audio**2))) if len(audio) else 0.0}
