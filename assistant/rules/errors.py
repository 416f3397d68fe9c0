"""The rules' errors. Each carries a typed reason (``refusals``) that the
replies turn into a sentence; the family says what kind of problem it is."""

from __future__ import annotations

from assistant.rules.refusals import Reason


class RulesError(ValueError):
    """Base of every error the rules raise; ``reason`` says why, as data."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedBid(RulesError):
    """A bid that is not a bid under any circumstances (zero dice, face 9)."""


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now."""


class RuleSetError(RulesError):
    """A rule set or house-rules file that cannot be used; names the key."""


def refuse(reason: Reason) -> RulesError:
    """The error of ``reason``'s family, ready to raise."""
    family = {"malformed": MalformedBid, "illegal": IllegalAction, "ruleset": RuleSetError}[reason.family]
    return family(reason)
