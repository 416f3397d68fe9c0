"""The rules' errors. Each carries a short Spanish reason a referee can say aloud."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules raise; ``reason`` is the sentence to say."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedBid(RulesError):
    """A bid that is not a bid under any circumstances (zero dice, face 9)."""


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now."""


class RuleSetError(RulesError):
    """A rule set or house-rules file that cannot be used; names the key."""
