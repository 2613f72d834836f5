"""Tournaments: events, their entries, rounds and pairings, directors' actions, and the
schedule of recurring arenas.

An event plays one kind of game (``games.registry``) in one rating pool; its games are
started and read through the kind's hooks, never through the game app. Only
``games.tournaments.services`` changes these rows. What the database holds by itself:

- a player enters an event once (``tournament_entry_once``);
- a round is paired once (``tournament_round_once``): two workers pairing the same round
  at the same moment get one round and one IntegrityError;
- a game belongs to at most one pairing (``tournament_pairing_game_once``), so the
  finished-game hook finds one pairing or none;
- a recurring arena is created once per start time (``tournament_schedule_once``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class Format(models.TextChoices):
    ARENA = "arena", "Arena"
    SWISS = "swiss", "Swiss"
    ROUND_ROBIN = "roundrobin", "Round robin"


class Status(models.TextChoices):
    UPCOMING = "upcoming", "Upcoming"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


#: The statuses the lobby shows together as "running".
IN_PLAY = (Status.RUNNING, Status.PAUSED)


class Tournament(models.Model):
    """One event: its format, game and rules, and where it stands.

    ``game_settings`` are the kind's own start settings (a crossword variant and time per
    move; a hunt's game, grid and round length), given to its ``start_game`` hook with
    ``ranked`` = ``rated``. An arena runs from ``starts_at`` to ``ends_at``; a Swiss or a
    round robin plays ``rounds`` rounds, each paired when the one before has finished
    (or, with ``round_interval``, not before its set time).
    """

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=10, choices=Format.choices)
    kind = models.CharField(max_length=20, help_text="The game kind's code (games.registry).")
    pool = models.CharField(max_length=10, help_text="The rating pool its games belong to.")
    game_settings = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Arenas: when no new table starts.")
    rounds = models.PositiveSmallIntegerField(default=0, help_text="Swiss: the rounds to play.")
    cycles = models.PositiveSmallIntegerField(default=1, help_text="Round robin: 2 for a double round robin.")
    round_interval = models.DurationField(
        null=True, blank=True, help_text="If set, round N is not paired before starts_at + (N - 1) × interval."
    )
    check_in_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="If set, entrants check in during this many minutes before the start."
    )
    max_players = models.PositiveIntegerField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    reminded_at = models.DateTimeField(null=True, blank=True, help_text="When 'starts in 10 minutes' was sent.")
    schedule = models.ForeignKey(
        "ArenaSchedule", on_delete=models.SET_NULL, null=True, blank=True, related_name="arenas"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "starts_at"], condition=Q(schedule__isnull=False), name="tournament_schedule_once"
            ),
            models.CheckConstraint(
                condition=~Q(format="arena") | Q(ends_at__isnull=False), name="tournament_arena_has_an_end"
            ),
            models.CheckConstraint(condition=Q(cycles__gte=1, cycles__lte=2), name="tournament_one_or_two_cycles"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", args=[self.pk])

    @property
    def group_name(self) -> str:
        """The channel-layer group of the event's open pages."""
        return f"tournament.{self.pk}"

    @property
    def is_arena(self) -> bool:
        return self.format == Format.ARENA


class Entry(models.Model):
    """A player in an event.

    Arenas: ``points`` and ``streak`` (wins in a row) are kept from the player's finished
    tables; ``waiting_since`` is set while the player waits for a table (None while they
    play or once they have left the arena; their points stay).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    rating = models.IntegerField(help_text="The pool rating when the player entered.")
    joined_at = models.DateTimeField()
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    points = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    tables = models.PositiveIntegerField(default=0)
    waiting_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-points", "-rating", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entry_once")]
        indexes = [
            models.Index(
                fields=["tournament", "waiting_since"],
                condition=Q(waiting_since__isnull=False),
                name="tournament_entry_waiting",
            )
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class RoundStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"


class Round(models.Model):
    """A Swiss or round-robin round, created in the transaction that pairs it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.PLAYING)
    paired_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament}"


class PairingStatus(models.TextChoices):
    PENDING = "pending", "Starting"
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"
    BYE = "bye", "Bye"


class Pairing(models.Model):
    """One board of a round, or one arena table, and the game played on it.

    The game is started by ``services.pairing_start`` in a transaction of its own
    (``PENDING`` until then; a sweep redoes a lost start) and named by the kind's code,
    its id and its page. A bye has one player and no game.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True, related_name="pairings")
    board = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=PairingStatus.choices, default=PairingStatus.PENDING)
    game_kind = models.CharField(max_length=20, blank=True)
    game_id = models.PositiveBigIntegerField(null=True, blank=True)
    game_url = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    corrected = models.BooleanField(default=False, help_text="A director changed its result.")

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "board"], name="tournament_board_once"),
            models.UniqueConstraint(
                fields=["game_kind", "game_id"], condition=Q(game_id__isnull=False), name="tournament_pairing_game_once"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created_at"], name="tournament_pairing_status"),
        ]

    def __str__(self) -> str:
        return f"board {self.board} of {self.round or self.tournament}"


class PairingPlayer(models.Model):
    """A player of a pairing: ``seat`` 0 moves first. Once the game is over: their place,
    score and how their game ended, and what it gave them in the event (``points``:
    Swiss and round robin in half points, 2 a win; arenas in arena points)."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="players")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="pairings")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(default=0)
    ended = models.CharField(max_length=10, blank=True)
    points = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "seat"], name="tournament_pairing_seat_once"),
            models.UniqueConstraint(fields=["pairing", "entry"], name="tournament_pairing_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.user} at {self.pairing}"


class DirectorAction(models.Model):
    """Something a director did to an event: what, who, when and why."""

    class Action(models.TextChoices):
        CREATE = "create", "Created"
        EDIT = "edit", "Edited"
        START = "start", "Started"
        PAUSE = "pause", "Paused"
        RESUME = "resume", "Resumed"
        PAIR = "pair", "Paired a round"
        REMOVE = "remove", "Removed a player"
        CORRECT = "correct", "Corrected a result"
        CANCEL = "cancel", "Cancelled"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    director = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=10, choices=Action.choices)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} by {self.director} in {self.tournament}"


class ArenaSchedule(models.Model):
    """A recurring arena an admin keeps: beat creates each one ahead of its start.

    Every ``every_minutes`` minutes from ``first_start``, an arena named ``name`` of
    ``duration_minutes``; one is created for each start within ``ahead`` of now.
    """

    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=20, default="hunt")
    pool = models.CharField(max_length=10)
    game_settings = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    first_start = models.DateTimeField()
    every_minutes = models.PositiveIntegerField(default=60)
    duration_minutes = models.PositiveIntegerField(default=30)
    ahead_minutes = models.PositiveIntegerField(default=60, help_text="How long before its start an arena is listed.")
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(every_minutes__gte=10), name="arena_schedule_every_ten_minutes_or_more"),
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=5, duration_minutes__lte=24 * 60), name="arena_schedule_duration"
            ),
        ]

    def __str__(self) -> str:
        return self.name
