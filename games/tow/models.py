"""TOW games: the game, its seats and its moves (votes included).

Like a crossword game, a TOW game stores what the pure engine needs to rebuild it — seat
count, seed, game number, lexicon (or house vote) and the moves in order — plus the
columns lists and sweeps query. The table, racks, bag and a pending vote are derived by
replaying the moves (``selectors.engine_state``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from games import models as turn_based

# The lobby vocabulary is every turn-based game's (games.models).
from games.models import DAYS_PER_MOVE, LIVE_MINUTES_PER_MOVE, Status

__all__ = ["DAYS_PER_MOVE", "LIVE_MINUTES_PER_MOVE", "Game", "Move", "MoveKind", "Seat", "Status", "WordChoice"]

#: Word checks a table can use: a lexicon, or the house vote (checked against ``en``).
HOUSE = "house"


class WordChoice(models.TextChoices):
    EN = "en", "British + American (en)"
    EN_GB = "en-gb", "British English (en-gb)"
    EN_US = "en-us", "American English (en-us)"
    HOUSE = HOUSE, "House vote (words not in en go to a vote)"


class Game(turn_based.TurnGame):
    """One TOW game (``games.models.TurnGame``); ``lexicon_code`` is the list words are
    checked against (``en`` on a house-vote table)."""

    game_kind = "tow"

    words = models.CharField(max_length=8, choices=WordChoice.choices, default=WordChoice.EN)
    # True while a house-vote play waits for votes (the deadline then closes the vote).
    voting = models.BooleanField(default=False)

    class Meta(turn_based.TurnGame.Meta):
        constraints = turn_based.game_constraints("tow")

    def __str__(self) -> str:
        return f"TOW #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("tow:game", args=[self.pk])

    @property
    def pool(self) -> str:
        """The rating pool of every TOW game."""
        return "tow"

    @property
    def house_vote(self) -> bool:
        return self.words == HOUSE


class Seat(turn_based.GameSeat):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="tow_seats"
    )

    class Meta(turn_based.GameSeat.Meta):
        constraints = turn_based.seat_constraints("tow")


# A vote is a move too, and so is the vote's time running out.
MoveKind = models.TextChoices(
    "MoveKind",
    turn_based.TURN_MOVE_KINDS + (("VOTE", ("vote", "Vote")), ("CLOSE_VOTE", ("close_vote", "Vote closed"))),
    module=__name__,
)


class Move(turn_based.GameMove):
    """A TOW move (a vote is a move too): a play's placement is [[row, col, letter, kind], ...]."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    kind = models.CharField(max_length=10, choices=MoveKind.choices)
    path = models.JSONField(default=list, blank=True)  # [[row, col], ...] main word
    accept = models.BooleanField(null=True, blank=True)  # a vote's answer
    # A play's itemised words and bonuses (engine ``Play.to_dict``); for a house-vote
    # play, ``accepted`` is None while the vote runs, then True or False.
    play = models.JSONField(default=dict, blank=True)
    accepted = models.BooleanField(null=True, blank=True)

    class Meta(turn_based.GameMove.Meta):
        constraints = turn_based.move_constraints("tow")
