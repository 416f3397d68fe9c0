"""Marks every test by the real parts it uses, so the fast loop never misses one:

- ``audio``: a PulseAudio room (the ``pulse`` or ``echo_room`` fixtures) or espeak-ng audio;
- ``vosk``: a real vosk model (the Korean stand-in, or the Spanish one);
- ``slow``: the whole program in another process (``dudo`` run as a command,
  killed mid-game, a wheel built), a real browser, or a whole corpus or
  grammar measured;
- ``browser``: a real Chromium (also ``slow``); it cannot run under qemu-user,
  so ``scripts/probar_arm64.sh`` leaves these out with real-time audio.

    .venv/bin/pytest -m "not audio and not vosk and not slow"   # the developer's fast loop
"""

from __future__ import annotations

import inspect
import os
import tempfile
from collections.abc import Iterator

import pytest

AUDIO_FIXTURES = {"pulse", "echo_room"}
VOSK_FIXTURES = {"ko_recognizer"}
SLOW_FIXTURES = {"browser", "grammar_phrases", "data_dir"}
BROWSER_FIXTURES = {"browser"}
BROWSER_CALLS = ("chromium(",)
"""A test that starts its own Chromium (a page without JavaScript, a screen size of its own) is one too."""
AUDIO_CALLS = ("synth(", "espeak", "paplay", "record_room(")
VOSK_CALLS = ("korean_model(", "VoskRecognizer(")
SLOW_CALLS = ("dudo(", "subprocess", "Popen", "measure(", "build_wheel", "run_installer(")
SLOW_MODULES = {"test_crash", "test_wheel"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        function = getattr(item, "function", None)
        if function is None:
            continue  # a doctest: fast, with no real parts
        try:
            source = inspect.getsource(function)
        except (OSError, TypeError):
            source = ""
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & AUDIO_FIXTURES or any(call in source for call in AUDIO_CALLS):
            item.add_marker(pytest.mark.audio)
        if fixtures & VOSK_FIXTURES or any(call in source for call in VOSK_CALLS):
            item.add_marker(pytest.mark.vosk)
        browser = bool(fixtures & BROWSER_FIXTURES) or any(call in source for call in BROWSER_CALLS)
        if browser:
            item.add_marker(pytest.mark.browser)
        module = item.path.stem
        if browser or fixtures & SLOW_FIXTURES or module in SLOW_MODULES or any(call in source for call in SLOW_CALLS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="session")
def _own_data_folder() -> Iterator[None]:
    """No test writes to the real data folder: ``dudo`` run by a test (``dudo
    simular`` keeps its game) writes into a folder of the test session's own."""
    if os.environ.get("DUDO_DATOS"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="dudo-pruebas-") as folder:
        os.environ["DUDO_DATOS"] = folder
        try:
            yield
        finally:
            del os.environ["DUDO_DATOS"]
