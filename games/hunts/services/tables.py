"""Table use cases: create a table, sit down, add a bot, leave; a table arranged for its players."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import my_games
from accounts.services import bot_account
from games import seating
from games.engine import hunt
from games.hunts import broadcasts
from games.hunts.models import (
    BotStrength,
    Game,
    HuntLexicon,
    HuntRound,
    HuntSeat,
    HuntTable,
    QueueEntry,
    RoundStatus,
    TableStatus,
)

from .. import pools
from ..selectors import open_ranked_seats, open_ranked_seats_of
from . import rounds
from .errors import Refused

User = get_user_model()


#: A round with a bot seat is never rated, so a ranked table with one would only say so.
RANKED_WITHOUT_BOTS = "A ranked table is for people only (bots never change ratings): open a casual table to play bots."


#: Tables one player may host at once (not closed): the lobby shows the newest 50.
OPEN_TABLES_PER_HOST = 3


def _check_open_tables(host: User) -> None:
    """Refuse a host who has ``OPEN_TABLES_PER_HOST`` open tables; counted under the
    host's row lock, so two tables asked for at once cannot both pass."""
    User.objects.select_for_update().filter(pk=host.pk).values_list("pk", flat=True).first()
    hosted = HuntTable.objects.filter(host=host, daily__isnull=True).exclude(status=TableStatus.CLOSED).count()
    if hosted >= OPEN_TABLES_PER_HOST:
        raise Refused(
            f"You host {hosted} open tables already (at most {OPEN_TABLES_PER_HOST}): "
            "play at one, or leave one to close it, before opening another.",
            429,
        )


def _active_seats(table: HuntTable):
    return table.seats.filter(left_at__isnull=True)


def _tell_players(table: HuntTable, *also: int) -> None:
    """The people seated (and ``also`` those who just left) see the table in My games."""
    people = _active_seats(table).filter(bot_strength="").values_list("user_id", flat=True)
    my_games.games_changed([*people, *also], kind="hunt", game=table.pk)


def _checked_settings(
    *, game: str, size: int, lexicon_code: str, round_seconds: int | None, seat_count: int
) -> tuple[str, int, str, int]:
    """A new table's game, grid size, word list and round length as they are stored (a
    Rampage grid is 4×4, a Classic hunt British + American, the round the game's usual
    length unless given); Refused if one is out of bounds."""
    if game not in Game.values:
        raise Refused("Unknown game.")
    if game == Game.RAMPAGE:
        size = 4
    else:
        lexicon_code = HuntLexicon.BOTH  # RULES §2: Classic is British + American
    try:
        rules = hunt.rules_for(game, size)
    except ValueError:
        raise Refused("Classic hunts are 4×4 or 5×5.") from None
    if lexicon_code not in HuntLexicon.values:
        raise Refused("Unknown word list.")
    if round_seconds is None:
        round_seconds = rules.round_seconds
    if game == Game.RAMPAGE and round_seconds not in hunt.RAMPAGE_ROUND_SECONDS:
        raise Refused("A Rampage round lasts 1 to 5 minutes.")
    if not 30 <= round_seconds <= 600:
        raise Refused("Round length out of range.")
    if not 2 <= seat_count <= 4:
        raise Refused("A table has 2 to 4 seats.")
    return game, size, lexicon_code, round_seconds


@transaction.atomic
def table_create(
    *,
    host: User,
    game: str = Game.RAMPAGE,
    size: int = 4,
    lexicon_code: str = HuntLexicon.BOTH,
    round_seconds: int | None = None,
    seat_count: int = 2,
    ranked: bool = False,
    bots: tuple[str, ...] = (),
    kept_for: User | None = None,
    kept_until=None,
    arranged: bool = False,
) -> HuntTable:
    """Open a table with ``host`` in the first seat and ``bots`` (strengths) after them.

    ``kept_for`` (a challenged player) has a seat kept until ``kept_until``: only they can
    take the table's last free seat until then. A host may have ``OPEN_TABLES_PER_HOST``
    tables open at once, so nobody fills the lobby; an ``arranged`` table (the ranked
    queue's, a tournament's, a bot offered to a queued player) is seated and started at
    once, never waits there, and is not refused.
    """
    if not host.is_authenticated or host.is_bot:
        raise Refused("Log in to open a table.")
    game, size, lexicon_code, round_seconds = _checked_settings(
        game=game, size=size, lexicon_code=lexicon_code, round_seconds=round_seconds, seat_count=seat_count
    )
    if len(bots) > seat_count - 1 - (kept_for is not None):
        raise Refused("Too many bots for the seats.")
    if kept_for is not None:
        if kept_for.pk == host.pk:
            raise Refused("You cannot keep a seat for yourself.")
        if kept_until is None:
            raise ValueError("a kept seat needs kept_until")
    for strength in bots:
        if strength not in BotStrength.values:
            raise Refused("Unknown bot strength.")
    if ranked and bots:
        raise Refused(RANKED_WITHOUT_BOTS)
    if not arranged:
        _check_open_tables(host)
    if ranked:
        problem = ranked_seat_problem(host)
        if problem:
            raise Refused(problem)
    table = HuntTable.objects.create(
        game=game,
        size=size,
        lexicon_code=lexicon_code,
        round_seconds=round_seconds,
        seat_count=seat_count,
        ranked=ranked,
        host=host,
        kept_for=kept_for,
        kept_until=kept_until if kept_for is not None else None,
    )
    HuntSeat.objects.create(table=table, user=host, position=0)
    for strength in bots:
        _seat_bot(table, strength)
    broadcasts.lobby_changed()
    _tell_players(table)
    return table


@transaction.atomic
def table_arrange(
    *,
    players,
    game: str = Game.RAMPAGE,
    size: int = 4,
    lexicon_code: str = HuntLexicon.BOTH,
    round_seconds: int | None = None,
    ranked: bool = False,
    now=None,
) -> HuntRound:
    """Open a table for ``players`` (the first hosting), seat them in order and start its
    round: a table someone else arranged (the ranked matcher's, a tournament's). A
    ranked table's players give up their seats at ranked tables between rounds (an
    arena's players come from their last table).

    The players sit down together, not one ``table_join`` each: a join re-reads and
    re-checks the table and tells the table, the lobby and everyone seated, which for
    four players was about 65 queries and ten sends for one seating. Here their rows
    are locked in one statement, each check is one query for all of them, the seats are
    one insert, and the table, the lobby and the players' My games are told once. What
    a join would check of a newly opened table (full, closed, playing, kept seat) cannot
    happen; what it checks of the players is checked here, under the same row locks.
    """
    players = list(players)
    seating.check_arranged(players)
    game, size, lexicon_code, round_seconds = _checked_settings(
        game=game, size=size, lexicon_code=lexicon_code, round_seconds=round_seconds, seat_count=len(players)
    )
    if ranked:
        lock_users(players)
        leave_ranked_tables_between_rounds(*players)
        # Their other ranked seats are given up (or the seating refused) above, under
        # their locks: what is left to refuse is a place in a queue.
        problem = _queued_problem(players)
        if problem:
            raise Refused(problem)
    table = HuntTable.objects.create(
        game=game,
        size=size,
        lexicon_code=lexicon_code,
        round_seconds=round_seconds,
        seat_count=len(players),
        ranked=ranked,
        host=players[0],
    )
    # A fresh table and different players (check_arranged): the seats' constraints
    # (one chair per position, one per player) hold by construction, and still guard.
    HuntSeat.objects.bulk_create(
        HuntSeat(table=table, user=player, position=position) for position, player in enumerate(players)
    )
    broadcasts.table_changed(table.pk)
    broadcasts.lobby_changed()
    my_games.games_changed([player.pk for player in players], kind="hunt", game=table.pk)
    return rounds.round_start(table_id=table.pk, by=players[0], now=now)


def _free_position(table: HuntTable, taker: User) -> int:
    """The first free seat for ``taker``; on a locked table (``_locked_table``) so that a
    kept seat and the count of free seats cannot change under the caller."""
    taken = set(_active_seats(table).values_list("position", flat=True))
    free = [position for position in range(table.seat_count) if position not in taken]
    if not free:
        raise Refused("The table is full.")
    if len(free) == 1 and table.seat_kept() and taker.pk != table.kept_for_id:
        raise Refused("The last seat is kept for the challenged player until they answer.", 403)
    return free[0]


def bot_user(strength: str, table: HuntTable) -> User:
    """A bot account of ``strength`` that is not seated at ``table`` yet."""
    seated = set(_active_seats(table).values_list("user_id", flat=True))
    for number in range(1, 5):
        user = bot_account(username=f"{strength}-bot-{number}", display_name=f"{strength.title()} bot {number}")
        if user.pk not in seated:
            return user
    raise Refused("No bot of that strength is free.")


def _seat_bot(table: HuntTable, strength: str) -> HuntSeat:
    bot = bot_user(strength, table)
    return HuntSeat.objects.create(table=table, user=bot, position=_free_position(table, bot), bot_strength=strength)


def _locked_table(table_id: int) -> HuntTable:
    try:
        return HuntTable.objects.select_for_update().get(pk=table_id)
    except HuntTable.DoesNotExist:
        raise Refused("No such table.", 404) from None


@transaction.atomic
def table_join(*, table_id: int, user: User) -> HuntSeat:
    """Sit ``user`` in the first free seat; sitting again where already seated is a no-op."""
    if not user.is_authenticated:
        raise Refused("Log in to take a seat.")
    table = _locked_table(table_id)
    if table.status == TableStatus.CLOSED:
        raise Refused("This table is closed.")
    existing = _active_seats(table).filter(user=user).first()
    if existing:
        return existing
    if table.daily_id is not None:
        raise Refused("A daily challenge is played alone: its table takes no other players.", 403)
    if table.status == TableStatus.PLAYING:
        raise Refused("Wait for the round to end to sit down.")
    if table.ranked:
        problem = ranked_seat_problem(user, table_id=table.pk)
        if problem:
            raise Refused(problem)
    try:
        with transaction.atomic():
            seat = HuntSeat.objects.create(table=table, user=user, position=_free_position(table, user))
    except IntegrityError:
        raise Refused("That seat was just taken.", 409) from None
    if table.kept_for_id == user.pk:
        _free_kept_seat(table)
    broadcasts.table_changed(table.pk)
    broadcasts.lobby_changed()
    _tell_players(table)
    return seat


def _free_kept_seat(table: HuntTable) -> None:
    table.kept_for = None
    table.kept_until = None
    table.save(update_fields=["kept_for", "kept_until"])


@transaction.atomic
def table_free_kept_seat(*, table_id: int, kept_for: User) -> bool:
    """The challenged player declined (or their invitation lapsed): the seat kept for them
    is free for anyone. False if no seat was kept for them."""
    table = _locked_table(table_id)
    if table.kept_for_id != kept_for.pk:
        return False
    _free_kept_seat(table)
    broadcasts.table_changed(table.pk)
    broadcasts.lobby_changed()
    return True


@transaction.atomic
def table_add_bot(*, table_id: int, by: User, strength: str) -> HuntSeat:
    """The host adds a bot of ``strength`` in the first free seat."""
    table = _locked_table(table_id)
    if table.host_id != by.pk:
        raise Refused("Only the host adds bots.", 403)
    if table.status in (TableStatus.CLOSED, TableStatus.PLAYING):
        raise Refused("Bots join between rounds.")
    if strength not in BotStrength.values:
        raise Refused("Unknown bot strength.")
    if table.ranked:
        raise Refused(RANKED_WITHOUT_BOTS)
    seat = _seat_bot(table, strength)
    broadcasts.table_changed(table.pk)
    broadcasts.lobby_changed()
    return seat


@transaction.atomic
def table_leave(*, table_id: int, user: User, seat_position: int | None = None) -> None:
    """``user`` stands up (or, as host, removes the bot at ``seat_position``).

    Words found in a round in progress still count. A leaving host hands the table to
    the next person seated; a table with no person left closes.
    """
    table = _locked_table(table_id)
    now = timezone.now()
    if seat_position is not None:
        if table.host_id != user.pk:
            raise Refused("Only the host removes bots.", 403)
        seats = _active_seats(table).filter(position=seat_position).exclude(bot_strength="")
    else:
        seats = _active_seats(table).filter(user=user)
    if not seats.update(left_at=now):
        raise Refused("Not seated here.")
    people = _active_seats(table).filter(bot_strength="").order_by("position")
    if table.host_id == user.pk and seat_position is None:
        heir = people.first()
        if heir is None:
            table.status = TableStatus.CLOSED
            _active_seats(table).update(left_at=now)
        else:
            table.host_id = heir.user_id
        table.save(update_fields=["status", "host"])
    broadcasts.table_changed(table.pk)
    broadcasts.lobby_changed()
    _tell_players(table, user.pk)


@transaction.atomic
def round_leave(*, round_id: int, user: User) -> bool:
    """``user`` stands up from the table of round ``round_id`` while it is played (they
    withdrew from the tournament it belongs to): their words so far stay and the round
    goes on. False if the round is over or they are not seated at its table.

    The round's row is locked first, as its end locks it before the tournament's pairing
    and the table, so a withdrawal and the round's end happen one after the other."""
    game_round = HuntRound.objects.select_for_update().filter(pk=round_id).first()
    if game_round is None or game_round.status != RoundStatus.PLAYING:
        return False
    if not HuntSeat.objects.filter(table_id=game_round.table_id, user=user, left_at__isnull=True).exists():
        return False
    table_leave(table_id=game_round.table_id, user=user)
    return True


# --------------------------------------------------------------------------- ranked seats


def lock_user(user) -> None:
    """Lock ``user``'s row until the transaction ends: their ranked seats and queue place
    are decided one request at a time."""
    lock_users([user])


def lock_users(users) -> None:
    """Lock the rows of ``users`` (``lock_user``) in one statement, in id order: the order
    every seating of several players locks them in, so two seatings sharing a player
    never each wait for the other."""
    pks = sorted({user.pk for user in users})
    list(User.objects.select_for_update().filter(pk__in=pks).order_by("pk").values_list("pk", flat=True))


def _queued(pool: str) -> str:
    return f"You are waiting in the {pools.name_of(pool)} ranked queue; cancel it first."


def ranked_seat_problem(user, *, table_id: int | None = None) -> str | None:
    """Why ``user`` may not take a seat at ranked table ``table_id`` now, or None.

    Locks the user's row until the caller's transaction ends, so a concurrent queue
    join and ranked seat cannot both pass.
    """
    lock_user(user)
    entry = QueueEntry.objects.filter(user_id=user.pk).first()
    if entry is not None:
        return _queued(entry.pool)
    other = open_ranked_seats(user, exclude_table_id=table_id).select_related("table").first()
    if other is not None:
        return f"You are already seated at ranked table {other.table_id}; leave it first."
    return None


def _queued_problem(players) -> str | None:
    """The first of ``players`` waiting in a ranked queue, as ``ranked_seat_problem`` says
    it, or None: one query for them all. The caller has locked their rows."""
    pools_of = dict(QueueEntry.objects.filter(user_id__in=[p.pk for p in players]).values_list("user_id", "pool"))
    return next((_queued(pools_of[p.pk]) for p in players if p.pk in pools_of), None)


def leave_ranked_tables_between_rounds(*users) -> None:
    """Give up ``users``' seats at ranked tables between rounds, before a new ranked table
    (the queue's, an arena's); refused while one of their ranked rounds is in play or
    about to start. The caller has locked the users' rows. One query for them all when,
    as for players coming from the queue, none has such a seat."""
    by_pk = {user.pk: user for user in users}
    seats = list(open_ranked_seats_of(by_pk).order_by("table_id", "user_id").values_list("table_id", "user_id"))
    if not seats:
        return
    tables = list(HuntTable.objects.select_for_update().filter(pk__in={t for t, _ in seats}).order_by("pk"))
    for table in tables:
        if table.status != TableStatus.BETWEEN:
            raise Refused(f"You are seated at ranked table {table.pk}; finish or leave it first.")
    for table_id, user_id in seats:
        table_leave(table_id=table_id, user=by_pk[user_id])


IDLE_AFTER = timedelta(minutes=15)


def tables_sweep(*, now=None) -> list[int]:
    """Close tables nobody has had open for a while and that are not mid-round.

    A table that keeps a seat for a challenged player waits for their answer as long as
    the challenge does, looked at or not.
    """
    now = now or timezone.now()
    idle = (
        HuntTable.objects.filter(status__in=(TableStatus.OPEN, TableStatus.BETWEEN), created_at__lt=now - IDLE_AFTER)
        .exclude(kept_until__gt=now)
        .exclude(connections__isnull=False)
        .exclude(rounds__ended_at__gte=now - IDLE_AFTER)
        .exclude(rounds__status="playing")
        .values_list("pk", flat=True)
    )
    closed = []
    for table_id in list(idle):
        with transaction.atomic():
            table = HuntTable.objects.select_for_update().get(pk=table_id)
            if table.status == TableStatus.PLAYING or table.seat_kept(now) or table.connections.exists():
                continue
            table.status = TableStatus.CLOSED
            table.save(update_fields=["status"])
            table.seats.filter(left_at__isnull=True).update(left_at=now)
            closed.append(table_id)
    if closed:
        with transaction.atomic():
            broadcasts.lobby_changed()
    return closed
