"""Live word hunts: tables, their seats, rounds, found words and results (docs/rules-rampage.md, docs/rules-classic.md).

Only ``games.hunts.services`` changes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.urls import reverse
from django.utils import timezone

from games.engine import bot_ratings

from .pools import POOLS, hunt_pool


class Game(models.TextChoices):
    RAMPAGE = "rampage", "Word Rampage"
    CLASSIC = "classic", "Classic hunt"


class HuntLexicon(models.TextChoices):
    """The word lists a Rampage table may use (RULES §1); Classic always uses ``en``."""

    BOTH = "en", "British + American"
    BRITISH = "en-gb", "British"
    AMERICAN = "en-us", "American"


class BotStrength(models.TextChoices):
    """The hunt bots' strengths, weakest first (``bot_profiles.PROFILES``)."""

    BEGINNER = "beginner", "Beginner"
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"
    MASTER = "master", "Master"


def bot_rating(strength: str, game: str, size: int) -> int | None:
    """The rating of a bot of ``strength`` in the pool of ``game`` on a ``size`` grid."""
    return bot_ratings.rating(hunt_pool(game, size), strength) if strength else None


class TableStatus(models.TextChoices):
    OPEN = "open", "Waiting for players"
    PLAYING = "playing", "Round in progress"
    BETWEEN = "between", "Between rounds"
    CLOSED = "closed", "Closed"


class HuntTable(models.Model):
    """A table where a group plays rounds of one hunt, one after another."""

    game = models.CharField(max_length=8, choices=Game.choices, default=Game.RAMPAGE)
    size = models.PositiveSmallIntegerField(default=4)
    lexicon_code = models.CharField(max_length=8, choices=HuntLexicon.choices, default=HuntLexicon.BOTH)
    round_seconds = models.PositiveIntegerField(default=120)
    seat_count = models.PositiveSmallIntegerField(default=2)
    ranked = models.BooleanField(default=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_hunt_tables")
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    rounds_played = models.PositiveIntegerField(default=0)
    # Set on a daily challenge's table: one seat, private to its player, one round.
    daily = models.ForeignKey("DailyChallenge", on_delete=models.PROTECT, null=True, blank=True, related_name="tables")
    # A challenge (friends) keeps one seat for the challenged player until ``kept_until``:
    # nobody else takes the table's last free seat meanwhile.
    kept_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kept_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "-created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2, seat_count__lte=4) | Q(daily__isnull=False, seat_count=1),
                name="hunt_table_2_to_4_seats",
            ),
            # The daily challenge is played once per player.
            models.UniqueConstraint(
                fields=["daily", "host"], condition=Q(daily__isnull=False), name="hunt_daily_once_per_player"
            ),
            models.CheckConstraint(condition=Q(size__in=(4, 5)), name="hunt_table_size_4_or_5"),
            models.CheckConstraint(
                condition=Q(round_seconds__gte=30, round_seconds__lte=600), name="hunt_table_round_length"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} table {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("hunts:table", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status != TableStatus.CLOSED

    def seat_kept(self, now=None) -> bool:
        """A challenge still keeps a seat at this table for its challenged player."""
        return (
            self.kept_for_id is not None and self.kept_until is not None and self.kept_until > (now or timezone.now())
        )


class HuntSeat(models.Model):
    """One player (a person or a bot) sitting at a table; ``left_at`` set when they leave."""

    table = models.ForeignKey(HuntTable, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hunt_seats")
    position = models.PositiveSmallIntegerField()
    bot_strength = models.CharField(max_length=8, choices=BotStrength.choices, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            # One chair per position and one chair per player among those still seated;
            # two people racing for the last seat get one seat and one refusal.
            models.UniqueConstraint(
                fields=["table", "position"], condition=Q(left_at__isnull=True), name="hunt_seat_one_per_position"
            ),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(left_at__isnull=True), name="hunt_seat_one_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_strength)

    @property
    def bot_rating(self) -> int | None:
        """A bot's rating in the table's pool (``bot_ratings``); None for a person."""
        return bot_rating(self.bot_strength, self.table.game, self.table.size)


class RoundStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"


class HuntRound(models.Model):
    """One board played at a table, from the 3-2-1 to the results."""

    table = models.ForeignKey(HuntTable, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=8, choices=Game.choices)
    size = models.PositiveSmallIntegerField()
    board = models.CharField(max_length=200, help_text="hunt.Board.to_text()")
    seed = models.CharField(max_length=64)
    lexicon_code = models.CharField(max_length=8)
    lexicon_version = models.PositiveIntegerField()
    min_length = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField(help_text="When the board shows, after the 3-2-1.")
    deadline = models.DateTimeField(help_text="No submission is accepted from this instant on.")
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default=RoundStatus.PLAYING)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Filled by end_round: [{"word", "points", "path"}...] best first, found by nobody.
    missed_words = models.JSONField(default=list, blank=True)
    total_words = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hunt_round_number_per_table"),
            # At most one unfinished round per table: a double-clicked "play again"
            # starts one round.
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="playing"), name="hunt_round_one_playing_per_table"
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"round {self.number} of {self.table}"

    def get_absolute_url(self) -> str:
        return reverse("hunts:round", args=[self.pk])


class RoundPlayer(models.Model):
    """A seated player's part in one round; totals and placing are set at round end."""

    round = models.ForeignKey(HuntRound, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hunt_rounds")
    position = models.PositiveSmallIntegerField()
    bot_strength = models.CharField(max_length=8, choices=BotStrength.choices, blank=True)
    score = models.IntegerField(default=0)
    word_count = models.PositiveIntegerField(default=0)
    computer_points = models.PositiveIntegerField(default=0, help_text="Classic: longer words weigh more.")
    placing = models.PositiveSmallIntegerField(null=True, blank=True)
    is_winner = models.BooleanField(default=False)
    is_draw = models.BooleanField(default=False)
    # A bot's turns: which one is due and when (None: no more turns). The queued task
    # carrying a turn plays it only if it is still the due one (services/bots.py).
    bot_turn = models.PositiveIntegerField(default=0)
    bot_next_turn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="hunt_round_player_once"),
        ]
        indexes = [
            models.Index(
                fields=["bot_next_turn_at"], condition=Q(bot_next_turn_at__isnull=False), name="hunt_bot_turn_due"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.round}"

    @property
    def bot_rating(self) -> int | None:
        """A bot's rating in the round's pool (``bot_ratings``); None for a person."""
        return bot_rating(self.bot_strength, self.round.game, self.round.size)


class FoundWord(models.Model):
    """A word a player found in a round, with its path and points.

    In Rampage a word belongs to whoever submitted it first: the database decides that
    with a unique constraint on (round, word) for ``exclusive`` rows. In Classic each
    player keeps a list, so the word is unique per player only; crossing off is done at
    round end.
    """

    round = models.ForeignKey(HuntRound, on_delete=models.CASCADE, related_name="found_words")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    word = models.CharField(max_length=40)
    path = models.CharField(max_length=120, help_text="row-major square indices, comma separated")
    points = models.IntegerField()
    bonuses = models.CharField(max_length=20, blank=True, help_text="e.g. '3L 2W'")
    exclusive = models.BooleanField(help_text="Rampage: first come, first served.")
    crossed_off = models.BooleanField(default=False, help_text="Classic: also on another list.")
    found_at = models.DateTimeField()

    class Meta:
        ordering = ["found_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["round", "word"], condition=Q(exclusive=True), name="hunt_word_first_come"),
            models.UniqueConstraint(fields=["round", "user", "word"], name="hunt_word_once_per_list"),
        ]
        # A profile's best and longest kept words, read in these orders from the top: a
        # player's thousands of words are not sorted on every view.
        indexes = [
            models.Index(
                F("user"), F("points").desc(), F("found_at"), condition=Q(crossed_off=False), name="hunt_word_best"
            ),
            models.Index(
                F("user"),
                Length("word").desc(),
                F("points").desc(),
                F("found_at"),
                condition=Q(crossed_off=False),
                name="hunt_word_longest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.word} by {self.user} in {self.round}"


class SubmissionCount(models.Model):
    """How many words a player has tried to take in the current submission period, over
    all their tabs and web processes: the statement that stores a find counts the try
    and stores nothing past the limit (``services.submissions``).

    One row per player, overwritten when a new period begins. Unlogged on PostgreSQL:
    a count lost in a crash only forgets a few seconds of tries, and a try that takes
    no word then costs no write-ahead log.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+")
    period = models.BigIntegerField(help_text="Seconds since the epoch divided by the period's length.")
    tries = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"{self.tries} tries by {self.user_id} in period {self.period}"


class TableConnection(models.Model):
    """An open table websocket; watchers are the connections of people not seated."""

    channel_name = models.CharField(max_length=200, unique=True)
    table = models.ForeignKey(HuntTable, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["table"]), models.Index(fields=["seen_at"])]

    def __str__(self) -> str:
        return f"{self.user or 'anonymous'} at table {self.table_id}"


# --------------------------------------------------------------------------- ranked play


def _hunt_pool_choices() -> list[tuple[str, str]]:
    return [(pool.code, pool.name) for pool in POOLS]


class QueueEntry(models.Model):
    """A player waiting in a hunt pool's ranked queue until the matcher seats them.

    One row per player at most (the unique user): nobody is in two queues. The row is
    deleted in the transaction that seats its player, so a restart loses or repeats
    nobody; ``seen_at`` is the last sign of an open page, and a row not seen for the
    grace period is dropped.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hunt_queue_entry")
    pool = models.CharField(max_length=10, choices=_hunt_pool_choices)
    rating = models.IntegerField(help_text="The pool rating when the player joined.")
    joined_at = models.DateTimeField()
    seen_at = models.DateTimeField()
    bot_offered_at = models.DateTimeField(null=True, blank=True)
    reserved_until = models.DateTimeField(
        null=True, blank=True, help_text="Kept for a table the matcher decided, until it is seated."
    )

    class Meta:
        ordering = ["joined_at", "pk"]
        indexes = [models.Index(fields=["pool", "joined_at"], name="hunt_queue_by_pool")]
        verbose_name_plural = "queue entries"

    def __str__(self) -> str:
        return f"{self.user} waiting for {self.pool}"


class DailyChallenge(models.Model):
    """The board everyone plays, once each, on one day in one pool (Rampage or Classic 5×5).

    The board is stored when the day's challenge is first needed, with the word list
    version of that moment, so it stays the same for everyone all day.
    """

    day = models.DateField()
    pool = models.CharField(max_length=10, choices=_hunt_pool_choices)
    game = models.CharField(max_length=8, choices=Game.choices)
    size = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    board = models.CharField(max_length=200, help_text="hunt.Board.to_text()")
    lexicon_code = models.CharField(max_length=8)
    lexicon_version = models.PositiveIntegerField()
    round_seconds = models.PositiveIntegerField()

    class Meta:
        ordering = ["-day", "pool"]
        constraints = [models.UniqueConstraint(fields=["day", "pool"], name="hunt_daily_one_per_pool_and_day")]

    def __str__(self) -> str:
        return f"daily {self.pool} of {self.day}"

    def get_absolute_url(self) -> str:
        return reverse("hunts:daily_board", args=[self.day.isoformat(), self.pool])
