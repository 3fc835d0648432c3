"""Why an event does not take a list: one exception for every kind of event, so views catch one thing."""

from __future__ import annotations


class SubmissionRefused(Exception):
    """A submission the event does not take; the message says why and what to do."""
