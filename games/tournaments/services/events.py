"""Events and their entries: create, edit, enter, check in, withdraw, start, pause,
resume, cancel, and a director removing a player.

Each is one transaction that locks the event's row first and refuses, with the reason,
before it writes anything.

Late entries: an arena takes players until it ends. A Swiss or a round robin takes them
until its first round is paired, never after (a late entrant would need zero-point byes
for the rounds missed, which would only make them the lowest of the field).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import Refused
from games import registry
from games.ratings import selectors as ratings

from .. import tasks
from ..models import IN_PLAY, DirectorAction, Entry, Format, Pairing, PairingStatus, Status, Tournament
from .common import (
    after_commit,
    busy,
    changed,
    check_director,
    kind_of,
    locked,
    log,
    plays_tournaments,
    settings_chosen,
    tell,
)
from .rounds import arena_table_undo, forfeit_pairing, round_pair

#: How long before its start an event reminds its entrants.
REMINDER = timedelta(minutes=10)
#: The most players an event may be limited to, and the longest check-in window (minutes).
MAX_PLAYERS = 10_000
MAX_CHECK_IN = 120
#: The longest a director may set between round starts.
MAX_ROUND_INTERVAL = timedelta(days=14)


_AN_EVENT = {Format.ARENA: "an arena", Format.SWISS: "a Swiss", Format.ROUND_ROBIN: "a round robin"}


@transaction.atomic
def tournament_create(
    *,
    director,
    name: str,
    format: str,
    kind: str,
    pool: str,
    starts_at: datetime,
    game_settings: dict | None = None,
    rated: bool = True,
    minutes: int | None = None,
    rounds: int = 0,
    cycles: int = 1,
    round_interval: timedelta | None = None,
    check_in_minutes: int = 0,
    max_players: int | None = None,
    schedule=None,
) -> Tournament:
    """A new event. An arena lasts ``minutes``; a Swiss plays ``rounds`` rounds; a round
    robin as many as its field needs (``cycles`` times). ``game_settings`` are what the
    director chose for its games, by the kind's field names (``settings_chosen``).
    ``director`` None is the beat creating a scheduled arena."""
    if director is not None:
        check_director(director)
    name = (name or "").strip()
    if not name:
        raise Refused("An event needs a name.")
    if format not in Format.values:
        raise Refused("Unknown format.")
    try:
        game_kind = registry.kind(kind)
    except registry.RegistryError:
        raise Refused("Unknown game.") from None
    if not plays_tournaments(game_kind):
        raise Refused(f"{game_kind.name} cannot be played in tournaments yet.")
    suited = game_kind.tournament_settings.formats
    if format not in suited:
        suits = " or ".join(_AN_EVENT[code] for code in suited)
        raise Refused(f"{game_kind.name} cannot be played in {_AN_EVENT[format]}: its games suit {suits}.")
    try:
        game_kind.pool(pool)
    except KeyError:
        raise Refused(f"{game_kind.name} has no rating pool {pool!r}.") from None
    settings = settings_chosen(game_kind, pool, game_settings or {})
    tournament = Tournament.objects.create(
        name=name[:80],
        format=format,
        kind=kind,
        pool=pool,
        game_settings=settings,
        rated=rated,
        **_limits(
            format,
            starts_at=starts_at,
            minutes=minutes,
            rounds=rounds,
            cycles=cycles,
            check_in_minutes=check_in_minutes,
            max_players=max_players,
            round_interval=round_interval,
        ),
        schedule=schedule,
        created_by=director,
    )
    if director is not None:
        log(tournament, director, DirectorAction.Action.CREATE)
    return tournament


def _limits(format: str, *, starts_at, minutes, rounds, cycles, check_in_minutes, max_players, round_interval) -> dict:
    """An event's times and sizes, checked for its format: refused with the reason."""
    if format == Format.ARENA:
        round_interval = None
    elif round_interval is not None and not timedelta(minutes=1) <= round_interval <= MAX_ROUND_INTERVAL:
        raise Refused("Rounds start at most two weeks apart, and at least a minute.")
    ends_at = None
    if format == Format.ARENA:
        if not minutes or not 5 <= minutes <= 24 * 60:
            raise Refused("An arena lasts 5 minutes to a day.")
        ends_at = starts_at + timedelta(minutes=minutes)
        rounds = 0
    elif format == Format.SWISS:
        if not rounds or not 1 <= rounds <= 30:
            raise Refused("A Swiss plays 1 to 30 rounds.")
    else:
        if cycles not in (1, 2):
            raise Refused("A round robin is single or double.")
        rounds = 0  # its field sets them: stored when round 1 is paired
    if max_players is not None and not 2 <= max_players <= MAX_PLAYERS:
        raise Refused(f"An event takes 2 to {MAX_PLAYERS:,} players.")
    if not 0 <= (check_in_minutes or 0) <= MAX_CHECK_IN:
        raise Refused(f"Check-in lasts at most {MAX_CHECK_IN} minutes before the start.")
    return {
        "starts_at": starts_at,
        "ends_at": ends_at,
        "rounds": rounds,
        "cycles": cycles if format == Format.ROUND_ROBIN else 1,
        "check_in_minutes": check_in_minutes or 0,
        "max_players": max_players,
        "round_interval": round_interval,
    }


#: What a director may change in an event that has not started (its format and game stay:
#: the entrants entered with their rating in its pool).
EDITABLE = (
    "name",
    "rated",
    "starts_at",
    "minutes",
    "rounds",
    "cycles",
    "round_interval",
    "check_in_minutes",
    "max_players",
)


def editable_values(tournament: Tournament) -> dict:
    """An event's ``EDITABLE`` values as they stand."""
    minutes = None
    if tournament.is_arena:
        minutes = round((tournament.ends_at - tournament.starts_at).total_seconds() / 60)
    return {
        "name": tournament.name,
        "rated": tournament.rated,
        "starts_at": tournament.starts_at,
        "minutes": minutes,
        "rounds": tournament.rounds,
        "cycles": tournament.cycles,
        "round_interval": tournament.round_interval,
        "check_in_minutes": tournament.check_in_minutes,
        "max_players": tournament.max_players,
    }


@transaction.atomic
def tournament_edit(*, tournament_id: int, by, now: datetime | None = None, **changes) -> Tournament:
    """A director changes an event that has not started (``EDITABLE``: its name, whether
    it is rated, its start, an arena's length, a Swiss's rounds, single or double round
    robin, the time between round starts, the check-in window, the most players). Checked as a new event is, and not
    below the entrants it has; a new start time reminds the entrants again. Kept with
    who, when, and each value before and after."""
    check_director(by)
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise Refused(f"An event's {', '.join(unknown)} cannot be changed.")
    tournament = locked(tournament_id)
    if tournament.status != Status.UPCOMING:
        raise Refused("Only an event that has not started can be edited.", status=409)
    before = editable_values(tournament)
    after = {**before, **changes}
    if after["starts_at"] and abs(after["starts_at"] - before["starts_at"]) < timedelta(seconds=1):
        after["starts_at"] = before["starts_at"]  # a form's time, to the second: not moved
    if tournament.schedule_id is not None and after["starts_at"] != before["starts_at"]:
        raise Refused("A scheduled arena starts when its schedule says: change the schedule instead.")
    name = (after["name"] or "").strip()
    if not name:
        raise Refused("An event needs a name.")
    limits = _limits(tournament.format, **{key: after[key] for key in EDITABLE if key not in ("name", "rated")})
    entered = tournament.entries.filter(withdrawn_at__isnull=True).count()
    if limits["max_players"] is not None and limits["max_players"] < entered:
        raise Refused(f"{entered} players have entered already.")
    after["name"] = name[:80]
    changed_values = {key: (before[key], after[key]) for key in EDITABLE if before[key] != after[key]}
    if not changed_values:
        return tournament
    tournament.name = after["name"]
    tournament.rated = bool(after["rated"])
    for field, value in limits.items():
        setattr(tournament, field, value)
    if "starts_at" in changed_values:
        tournament.reminded_at = None  # told the old time, they are told the new one
    tournament.save()
    log(
        tournament,
        by,
        DirectorAction.Action.EDIT,
        now=now,
        changes={key: [str(old), str(new)] for key, (old, new) in changed_values.items()},
    )
    changed(tournament)
    return tournament


def _check_open(tournament: Tournament, now: datetime) -> None:
    if tournament.status in (Status.FINISHED, Status.CANCELLED):
        raise Refused("This event is over.", status=409)
    if tournament.is_arena:
        if tournament.ends_at <= now:
            raise Refused("This arena has ended.", status=409)
    elif tournament.current_round >= 1:
        raise Refused("This event has begun: entries closed when its first round was paired.", status=409)


def _check_free(user, tournament: Tournament) -> None:
    """A player is in one running arena at a time (two at once would seat them twice)."""
    if not tournament.is_arena:
        return
    other = (
        Entry.objects.filter(
            user_id=user.pk,
            withdrawn_at__isnull=True,
            tournament__format=Format.ARENA,
            tournament__status__in=(Status.RUNNING, Status.PAUSED),
        )
        .exclude(tournament_id=tournament.pk)
        .select_related("tournament")
        .first()
    )
    if other is not None:
        raise Refused(f"You are playing in the arena {other.tournament.name}; leave it first.", status=409)


@transaction.atomic
def entry_register(*, tournament_id: int, user, now: datetime | None = None) -> Entry:
    """Enter ``user`` in the event (in an arena under way: join it, waiting for a table at
    once). Refused twice, from two tabs, once entries have closed, when the event is
    full, while the player is in another running arena, or, joining an arena under way,
    while a game kind keeps them busy (its ranked queue, a ranked round in play). A player
    who withdrew (or left an arena) may come back while entries are open; a removed
    player may not."""
    now = now or timezone.now()
    if user is None or not user.is_authenticated:
        raise Refused("Log in to enter.", status=403)
    tournament = locked(tournament_id)
    _check_open(tournament, now)
    # The player's row, so two arenas joined at once cannot both pass the check below.
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    _check_free(user, tournament)
    playing = tournament.is_arena and tournament.status in IN_PLAY
    if playing:
        reason = busy([user.pk]).get(user.pk)
        if reason:
            raise Refused(reason, status=409)
    entry = Entry.objects.filter(tournament=tournament, user_id=user.pk).first()
    if entry is not None:
        if entry.removed_by_id is not None:
            raise Refused("A director removed you from this event.", status=403)
        if entry.withdrawn_at is None:
            raise Refused("You have already entered this event (in another tab?).", status=409)
        entry.withdrawn_at = None
        entry.waiting_since = now if playing and not _at_a_table(entry) else None
        entry.save(update_fields=["withdrawn_at", "waiting_since"])
    else:
        if tournament.max_players and tournament.entries.filter(withdrawn_at__isnull=True).count() >= (
            tournament.max_players
        ):
            raise Refused("This event is full.", status=409)
        try:
            with transaction.atomic():
                entry = Entry.objects.create(
                    tournament=tournament,
                    user=user,
                    rating=ratings.player_rating(user, tournament.pool).rating,
                    joined_at=now,
                    waiting_since=now if playing else None,
                )
        except IntegrityError:
            raise Refused("You have already entered this event (in another tab?).", status=409) from None
    changed(tournament)
    if playing:
        after_commit(tasks.arena_seat, tournament.pk)
    return entry


def _at_a_table(entry: Entry) -> bool:
    return Pairing.objects.filter(
        players__entry=entry, status__in=(PairingStatus.PENDING, PairingStatus.PLAYING)
    ).exists()


def _entry(tournament: Tournament, user) -> Entry:
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user_id=user.pk).first()
    if entry is None or entry.withdrawn_at is not None:
        raise Refused("You are not in this event.", status=409)
    return entry


@transaction.atomic
def entry_check_in(*, tournament_id: int, user, now: datetime | None = None) -> Entry:
    """Confirm an entry during the check-in window before the start."""
    now = now or timezone.now()
    if user is None or not user.is_authenticated:
        raise Refused("Log in to check in.", status=403)
    tournament = locked(tournament_id)
    if tournament.status != Status.UPCOMING or not tournament.check_in_minutes:
        raise Refused("This event has no check-in now.", status=409)
    if now < tournament.starts_at - timedelta(minutes=tournament.check_in_minutes):
        raise Refused("Check-in has not opened yet.", status=409)
    entry = _entry(tournament, user)
    if entry.checked_in_at is None:
        entry.checked_in_at = now
        entry.save(update_fields=["checked_in_at"])
        changed(tournament)
    return entry


class _Started(Exception):
    """The pairing read as waiting for its game started it meanwhile: withdraw again."""


def entry_withdraw(*, tournament_id: int, user, now: datetime | None = None, by=None, reason: str = "") -> Entry:
    """Take ``user`` out of the event (``by``: a director removing them, with a reason).

    Before the start the entry is simply withdrawn. During the event the player is paired
    or seated no more, and the game they are playing is given up through its kind
    (``resign_player``: a crossword game is resigned, so the opponent wins it; a hunter
    stands up from the table, whose round goes on and scores them a forfeit), and that
    game scores as it ends, by the finished-game hook. A game not started yet is scored as
    a loss at once (Swiss, round robin) or its table undone, the others waiting again
    (arena). Nothing else changes: earlier results and arena points stay.
    """
    now = now or timezone.now()
    for _ in range(3):
        try:
            return _withdraw(tournament_id=tournament_id, user=user, now=now, by=by, reason=reason)
        except _Started:
            continue  # a game starts once: the next attempt finds it started
    raise Refused("Your game was starting; try again.", status=409)


@transaction.atomic
def _withdraw(*, tournament_id: int, user, now: datetime, by, reason: str) -> Entry:
    if by is not None:
        check_director(by)
        if not reason.strip():
            raise Refused("Say why the player is removed.")
    elif user is None or not user.is_authenticated:
        raise Refused("Log in first.", status=403)
    _check_withdrawable(Tournament.objects.filter(pk=tournament_id).first(), user)
    pairing = _current_pairing(tournament_id, user)
    if pairing is not None and pairing.game_id is not None:
        # The game first: its own end locks it before its pairing, and so does this.
        registry.kind(pairing.game_kind).resign_player(
            registry.GameRef(pairing.game_kind, pairing.game_id, pairing.game_url), user
        )
    waiting = pairing is not None and pairing.game_id is None
    if pairing is not None:
        pairing = Pairing.objects.select_for_update().filter(pk=pairing.pk).first()  # None: an arena table undone
        if waiting and pairing is not None and pairing.game_id is not None:
            raise _Started
    tournament = locked(tournament_id)
    _check_withdrawable(tournament, user)
    entry = _entry(tournament, user)
    entry.withdrawn_at = now
    entry.waiting_since = None
    entry.removed_by = by
    entry.save(update_fields=["withdrawn_at", "waiting_since", "removed_by"])
    if pairing is not None and pairing.status == PairingStatus.PENDING:
        if tournament.is_arena:
            arena_table_undo(pairing)
            after_commit(tasks.arena_seat, tournament.pk)
        else:
            forfeit_pairing(pairing, loser=entry, now=now)
    if by is not None:
        log(tournament, by, DirectorAction.Action.REMOVE, reason=reason, now=now, player=user.username)
        tell(user, tournament, "removed", f"A director removed you from {tournament.name}: {reason}")
    changed(tournament)
    if not tournament.is_arena:
        after_commit(tasks.advance, tournament.pk)
    return entry


def _check_withdrawable(tournament: Tournament | None, user) -> None:
    if tournament is None:
        raise Refused("No such tournament.", status=404)
    if tournament.status in (Status.FINISHED, Status.CANCELLED):
        raise Refused("This event is over.", status=409)
    if not Entry.objects.filter(tournament=tournament, user_id=user.pk, withdrawn_at__isnull=True).exists():
        raise Refused("You are not in this event.", status=409)


def _current_pairing(tournament_id: int, user) -> Pairing | None:
    return (
        Pairing.objects.filter(
            tournament_id=tournament_id,
            players__entry__user_id=user.pk,
            status__in=(PairingStatus.PENDING, PairingStatus.PLAYING),
        )
        .order_by("-pk")
        .first()
    )


@transaction.atomic
def tournament_start(*, tournament_id: int, by=None, now: datetime | None = None) -> Tournament:
    """Start the event (a director, early; or the beat at its start time). Entrants who
    did not check in, where check-in is asked for, are withdrawn. A Swiss or round robin
    pairs its first round at once; an arena starts seating everyone in it. With fewer
    than two players the event is cancelled (logged as the director's, if one started it)."""
    now = now or timezone.now()
    if by is not None:
        check_director(by)
    tournament = locked(tournament_id)
    if tournament.status != Status.UPCOMING:
        raise Refused("This event has already started or is over.", status=409)
    entries = tournament.entries.select_for_update().filter(withdrawn_at__isnull=True)
    if tournament.check_in_minutes:
        entries.filter(checked_in_at__isnull=True).update(withdrawn_at=now)
    players = tournament.entries.filter(withdrawn_at__isnull=True).count()
    if players < 2 and not tournament.is_arena:
        tournament.status = Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        if by is not None:
            log(
                tournament,
                by,
                DirectorAction.Action.CANCEL,
                reason="Cancelled at the start: not enough players.",
                now=now,
            )
        for entry in tournament.entries.select_related("user"):
            tell(entry.user, tournament, "cancelled", f"{tournament.name} was cancelled: not enough players.")
        changed(tournament)
        return tournament
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status"])
    if by is not None:
        log(tournament, by, DirectorAction.Action.START, now=now)
    if tournament.is_arena:
        tournament.entries.filter(withdrawn_at__isnull=True).update(waiting_since=now)
        after_commit(tasks.arena_seat, tournament.pk)
    else:
        round_pair(tournament, now=now)
    changed(tournament)
    return tournament


@transaction.atomic
def tournament_pause(*, tournament_id: int, by, reason: str = "", now: datetime | None = None) -> Tournament:
    """Stop pairing: no next round (Swiss, round robin) or new table (arena) until resumed;
    games in play go on."""
    check_director(by)
    tournament = locked(tournament_id)
    if tournament.status != Status.RUNNING:
        raise Refused("Only a running event can be paused.", status=409)
    tournament.status = Status.PAUSED
    tournament.save(update_fields=["status"])
    log(tournament, by, DirectorAction.Action.PAUSE, reason=reason, now=now)
    changed(tournament)
    return tournament


@transaction.atomic
def tournament_resume(*, tournament_id: int, by, now: datetime | None = None) -> Tournament:
    check_director(by)
    tournament = locked(tournament_id)
    if tournament.status != Status.PAUSED:
        raise Refused("This event is not paused.", status=409)
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status"])
    log(tournament, by, DirectorAction.Action.RESUME, now=now)
    changed(tournament)
    after_commit(tasks.arena_seat if tournament.is_arena else tasks.advance, tournament.pk)
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: int, by, reason: str, now: datetime | None = None) -> Tournament:
    """Call off an event that has not started."""
    check_director(by)
    if not reason.strip():
        raise Refused("Say why the event is cancelled.")
    now = now or timezone.now()
    tournament = locked(tournament_id)
    if tournament.status != Status.UPCOMING:
        raise Refused("Only an event that has not started can be cancelled.", status=409)
    tournament.status = Status.CANCELLED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    log(tournament, by, DirectorAction.Action.CANCEL, reason=reason, now=now)
    for entry in tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"):
        tell(entry.user, tournament, "cancelled", f"{tournament.name} was cancelled: {reason}")
    changed(tournament)
    return tournament


def tournament_remind(*, tournament_id: int, now: datetime | None = None) -> int:
    """Tell the entrants of an event that starts within ``REMINDER``, once. Returns how
    many were told."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status != Status.UPCOMING or tournament.reminded_at is not None:
            return 0
        if tournament.starts_at - REMINDER > now:
            return 0
        tournament.reminded_at = now
        tournament.save(update_fields=["reminded_at"])
        minutes = max(1, round((tournament.starts_at - now).total_seconds() / 60))
        told = 0
        for entry in tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"):
            tell(entry.user, tournament, "soon", f"{tournament.name} starts in {minutes} minutes.")
            told += 1
        return told


def kind_name(tournament: Tournament) -> str:
    return kind_of(tournament).pool(tournament.pool).name
