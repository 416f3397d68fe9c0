"""The golden games heard through a recognizer that errs (``tests/noisy.py``)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import noisy
from tests.test_golden import SCRIPTS


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.sampled_from(SCRIPTS), kind=st.sampled_from(["swap", "insert"]), seed=st.integers(0, 2**32),
       rate=st.floats(0.05, 1.0))
def test_with_the_truth_close_behind_and_the_errors_illegal_the_game_is_unchanged(
    script: Path, kind: noisy.Kind, seed: int, rate: float
) -> None:
    """Whenever the truth is among the alternatives within the margin and the
    wrong readings are unparseable or illegal, every line is accepted or
    refused as in the clean game, and the game ends the same."""
    outcome = noisy.run(script, kind, seed, rate, only_harmless=True)
    assert outcome.same_acceptance and outcome.same_end, (script.name, kind, seed, outcome.corrupted)


def test_the_channel_really_corrupts_and_a_single_wrong_reading_can_mislead() -> None:
    """The channel is not a no-op: swapped and substituted readings do reach the
    referee, and with nothing to choose from (one reading, full confidence) a
    legal wrong one changes the game; inserted bar words never do."""
    script = next(p for p in SCRIPTS if p.stem == "yocacho")
    swapped = noisy.run(script, "swap", 1, rate=1.0)
    substituted = noisy.run(script, "substitute", 1, rate=1.0)
    inserted = noisy.run(script, "insert", 1, rate=1.0)
    assert swapped.corrupted > 20 and substituted.corrupted > 20 and inserted.corrupted > 20
    assert not substituted.same_end and not swapped.same_end
    assert inserted.same_end and inserted.same_acceptance
