"""The one refusal every use case raises: a reason a player can read, and a status."""

from __future__ import annotations


class Refused(Exception):
    """An action the rules, the state of a game or the site's policies refuse.

    ``reason`` is shown to the player as is. ``status`` is what an HTTP view answers
    with: 400 for a bad request, 403 for someone with no say, 404 for something that is
    not there, 409 for a state that moved on, 429 for too many tries. A websocket
    consumer sends the reason back in an ``error`` (or ``result``) message.
    """

    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.reason = reason
        self.status = status
