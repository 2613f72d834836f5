"""The refusal every hunt use case raises with a reason a player can read."""


class HuntError(Exception):
    """A use case refused: ``reason`` is shown to the player as is."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
