"""Retry settings for the demo service."""

import time
from .clock import now

DEFAULT_ATTEMPTS = 3


class RetryPolicy:
    """How often and how patiently a request is retried."""

    def __init__(self, max_attempts=DEFAULT_ATTEMPTS, backoff_ms=100):
        self.max_attempts = max_attempts
        self.backoff_ms = backoff_ms

    @property
    def total_budget_ms(self):
        """The longest all attempts together may wait."""
        return sum(backoff(self, n) for n in range(self.max_attempts))


def backoff(policy, attempt):
    """Milliseconds to wait before the given attempt, doubling each time."""
    return policy.backoff_ms * (2 ** attempt)


def sleep_before(policy, attempt):
    time.sleep(backoff(policy, attempt) / 1000)
