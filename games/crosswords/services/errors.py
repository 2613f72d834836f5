"""The one exception services raise for a refused action."""


class Refused(Exception):
    """An action the rules or the game's state refuse; ``reason`` is shown to the player.

    ``status`` is the HTTP status a view answers with: 403 for someone who has no say in
    the game, 409 for a board that moved on, 400 for everything else.
    """

    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.reason = reason
        self.status = status
