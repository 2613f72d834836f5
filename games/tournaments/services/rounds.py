"""Rounds and games: pairing a round, starting its games, recording how they ended,
moving on to the next round, and a director correcting a result.

Who meets whom is the engine's (``games.engine.tournament``: Swiss by maximum-weight
matching, round robin by the circle method), computed from the stored results only, so
``pairings_replayed`` can recompute every round of an event and compare.

A round is paired once: the event's row is locked while it is paired, and the round's
row is unique per event and number, so two workers (or two beats) pairing it at the same
moment pair it once. Its games are started one per transaction (``pairing_start``, by a
task queued after the pairing commits); a pairing whose start was lost is started again
by the sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import Refused
from games import registry
from games.engine import tournament as rules

from .. import tasks
from ..models import (
    DirectorAction,
    Entry,
    Format,
    Pairing,
    PairingPlayer,
    PairingStatus,
    Round,
    RoundStatus,
    Status,
    Tournament,
)
from ..selectors import standings, stored_games
from . import arena  # the module: arena imports this one
from .common import after_commit, changed, check_director, kind_of, locked, log, start_settings, tell

logger = logging.getLogger(__name__)

#: A pairing still not started this long after it was made lost its start task.
START_GRACE = timedelta(seconds=30)
#: Half points: a win, a draw, a loss (Swiss and round robin).
WIN, DRAW, LOSS = 2, 1, 0


def total_rounds(tournament: Tournament, players: int | None = None) -> int:
    """The rounds the event plays (a round robin's depend on its field)."""
    if tournament.format == Format.ROUND_ROBIN:
        if players is None:
            players = len(_seeding(tournament))
        return rules.round_robin_rounds(players, tournament.cycles) if players >= 2 else 0
    return tournament.rounds


def _seeding(tournament: Tournament) -> list[Entry]:
    """A round robin's field, in seeding order: everyone in it when round 1 was paired."""
    first = tournament.round_set.filter(number=1).first()
    entries = tournament.entries.order_by("-rating", "pk")
    if first is None:
        return list(entries.filter(withdrawn_at__isnull=True))
    return [entry for entry in entries if entry.withdrawn_at is None or entry.withdrawn_at > first.paired_at]


def _pairings_for(tournament: Tournament, number: int) -> tuple[rules.Pairing, ...]:
    """Round ``number``'s boards, by entry id, from the stored results."""
    if tournament.format == Format.ROUND_ROBIN:
        seeding = (
            _seeding(tournament)
            if number > 1
            else list(tournament.entries.filter(withdrawn_at__isnull=True).order_by("-rating", "pk"))
        )
        schedule = rules.round_robin([entry.pk for entry in seeding], tournament.cycles)
        active = set(tournament.entries.filter(withdrawn_at__isnull=True).values_list("pk", flat=True))
        boards = []
        for board in schedule[number - 1]:
            present = [player for player in board.players if player in active]
            if len(present) == 2:
                boards.append(board)
            elif present:
                boards.append(rules.Pairing(present[0], None))  # an opponent who withdrew: a bye
        return tuple(boards)
    entrants = [rules.Entrant(entry.pk, entry.rating) for entry in tournament.entries.filter(withdrawn_at__isnull=True)]
    return rules.swiss_pairings(entrants, stored_games(tournament, before=number), number)


def round_pair(tournament: Tournament, *, now: datetime | None = None, by=None) -> Round:
    """Pair the event's next round; ``tournament`` is locked by the caller.

    Refused while the round in play is not finished, after the last round, or when fewer
    than two players are left. The games start after the commit.
    """
    now = now or timezone.now()
    number = tournament.current_round + 1
    if tournament.round_set.filter(number=tournament.current_round, status=RoundStatus.PLAYING).exists():
        raise Refused(f"Round {tournament.current_round} is still being played.", status=409)
    if number > total_rounds(tournament):
        raise Refused("Every round has been paired.", status=409)
    if tournament.entries.filter(withdrawn_at__isnull=True).count() < 2:
        raise Refused("Fewer than two players are left.", status=409)
    try:
        with transaction.atomic():
            paired = Round.objects.create(tournament=tournament, number=number, paired_at=now)
    except IntegrityError:
        raise Refused(f"Round {number} has already been paired.", status=409) from None
    boards = _pairings_for(tournament, number)
    entries = {entry.pk: entry for entry in tournament.entries.select_related("user")}
    for index, board in enumerate(boards, start=1):
        pairing = Pairing.objects.create(
            tournament=tournament,
            round=paired,
            board=index,
            status=PairingStatus.BYE if board.is_bye else PairingStatus.PENDING,
            created_at=now,
            finished_at=now if board.is_bye else None,
        )
        for seat, entry_id in enumerate(board.players):
            PairingPlayer.objects.create(
                pairing=pairing, entry_id=entry_id, seat=seat, points=WIN if board.is_bye else None
            )
        for entry_id in board.players:
            user = entries[entry_id].user
            text = (
                f"{tournament.name}: round {number} is paired; you have a bye."
                if board.is_bye
                else f"{tournament.name}: round {number} is paired."
            )
            tell(user, tournament, "paired", text)
        if not board.is_bye:
            after_commit(tasks.start_pairing, pairing.pk)
    tournament.current_round = number
    if tournament.format == Format.ROUND_ROBIN and number == 1:
        tournament.rounds = total_rounds(tournament)  # the field is fixed from now on
    tournament.save(update_fields=["current_round", "rounds"])
    if by is not None:
        log(tournament, by, DirectorAction.Action.PAIR, now=now, round=number)
    changed(tournament)
    if all(board.is_bye for board in boards):
        after_commit(tasks.advance, tournament.pk)
    return paired


@transaction.atomic
def round_pair_next(*, tournament_id: int, by, now: datetime | None = None) -> Round:
    """A director pairs the next round now (before its set time, or while paused)."""
    check_director(by)
    tournament = locked(tournament_id)
    if tournament.is_arena:
        raise Refused("An arena has no rounds to pair.", status=409)
    if tournament.status not in (Status.RUNNING, Status.PAUSED):
        raise Refused("This event is not running.", status=409)
    _finish_round(tournament, now or timezone.now())
    return round_pair(tournament, now=now, by=by)


def pairing_start(*, pairing_id: int, now: datetime | None = None) -> registry.GameRef | None:
    """Start the game of a pairing that waits for it, through the kind's ``start_game``;
    None if it has started already (a doubled task, or the sweep), if the kind refused
    (then it is logged and tried again by the sweep), or if it is an arena table whose
    arena's time is up (then the table is undone)."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            pairing = Pairing.objects.select_for_update().select_related("tournament").filter(pk=pairing_id).first()
            if pairing is None or pairing.status != PairingStatus.PENDING:
                return None
            tournament = pairing.tournament
            if tournament.status in (Status.FINISHED, Status.CANCELLED):
                return None
            if tournament.is_arena and now >= tournament.ends_at:
                # Seated before the end, started after it (a late task, the sweep): no
                # round starts once the time is up; the arena's next pass ends it.
                arena_table_undo(pairing)
                after_commit(tasks.arena_seat, tournament.pk)
                return None
            players = [row.entry.user for row in pairing.players.select_related("entry__user").order_by("seat")]
            ref = kind_of(tournament).start_game(players, start_settings(tournament))
            pairing.game_kind = ref.kind
            pairing.game_id = ref.id
            pairing.game_url = ref.url
            pairing.status = PairingStatus.PLAYING
            pairing.started_at = now
            pairing.save(update_fields=["game_kind", "game_id", "game_url", "status", "started_at"])
            for user in players:
                tell(user, tournament, "started", f"{tournament.name}: your game has started.", ref.url)
            changed(tournament)
            return ref
    except Refused as refused:
        logger.warning("Tournament pairing %s not started: %s", pairing_id, refused.reason)
        _unseat_arena_table(pairing_id)
        return None


@transaction.atomic
def _unseat_arena_table(pairing_id: int) -> None:
    """An arena table whose game the kind refused is undone (one of its players may have
    sat down elsewhere meanwhile); a Swiss board waits for the sweep."""
    pairing = Pairing.objects.select_for_update().select_related("tournament").filter(pk=pairing_id).first()
    if pairing is None or pairing.status != PairingStatus.PENDING or not pairing.tournament.is_arena:
        return
    arena_table_undo(pairing)


def arena_table_undo(pairing: Pairing) -> None:
    """Undo a locked arena table whose game has not started: its players still in the
    arena wait again, from when they waited for it, so they keep their turn."""
    entries = [row.entry_id for row in pairing.players.all()]
    waited_since = pairing.created_at
    pairing.delete()
    Entry.objects.filter(pk__in=entries, withdrawn_at__isnull=True).update(waiting_since=waited_since)


def pairings_start_lost(*, now: datetime | None = None) -> int:
    """Start the pairings whose start task was lost. Returns how many started."""
    now = now or timezone.now()
    ids = Pairing.objects.filter(status=PairingStatus.PENDING, created_at__lte=now - START_GRACE).values_list(
        "pk", flat=True
    )
    return sum(1 for pairing_id in list(ids) if pairing_start(pairing_id=pairing_id, now=now) is not None)


# --------------------------------------------------------------------------- results


def _half_points(place: int, shared: int) -> int:
    if place == 1:
        return WIN if shared == 1 else DRAW
    return LOSS


def game_finished(outcome: registry.Outcome) -> None:
    """The finished-game hook (``registry.on_game_finished``): record the result of the
    pairing the game belongs to, if any, inside the game's finishing transaction."""
    pairing = (
        Pairing.objects.select_for_update()
        .select_related("tournament")
        .filter(game_kind=outcome.kind, game_id=outcome.object_id)
        .first()
    )
    if pairing is None or pairing.status != PairingStatus.PLAYING:
        return  # not a tournament game, or already scored (a forfeit on withdrawal)
    tournament = pairing.tournament
    now = outcome.finished_at or timezone.now()
    finishes = {player.user_id: player for player in outcome.players}
    places = [player.place for player in outcome.players]
    rows = list(pairing.players.select_related("entry").order_by("seat"))
    if tournament.is_arena:
        arena.arena_scored(tournament, rows, finishes, now)
    else:
        for row in rows:
            finish = finishes.get(row.entry.user_id)
            if finish is None:
                continue
            row.place = finish.place
            row.score = finish.score
            row.ended = str(finish.ended)
            row.points = _half_points(finish.place, places.count(finish.place))
            row.save(update_fields=["place", "score", "ended", "points"])
    pairing.status = PairingStatus.FINISHED
    pairing.finished_at = now
    pairing.save(update_fields=["status", "finished_at"])
    changed(tournament)
    after_commit(tasks.arena_seat if tournament.is_arena else tasks.advance, tournament.pk)


def forfeit_pairing(pairing: Pairing, *, loser: Entry, now: datetime) -> None:
    """Score a locked pairing whose game has not started as a loss for ``loser`` and a
    win for the others (a withdrawal or removal); its game will not start."""
    for row in pairing.players.all():
        row.points = LOSS if row.entry_id == loser.pk else WIN
        row.place = 2 if row.entry_id == loser.pk else 1
        row.ended = "withdrew" if row.entry_id == loser.pk else row.ended
        row.save(update_fields=["points", "place", "ended"])
    pairing.status = PairingStatus.FINISHED
    pairing.finished_at = now
    pairing.save(update_fields=["status", "finished_at"])


def _finish_round(tournament: Tournament, now: datetime) -> bool:
    """Mark the round in play finished if all its games are; whether it is (or none is)."""
    current = tournament.round_set.filter(number=tournament.current_round).first()
    if current is None:
        return True
    if current.status == RoundStatus.FINISHED:
        return True
    if current.pairings.filter(status__in=(PairingStatus.PENDING, PairingStatus.PLAYING)).exists():
        return False
    current.status = RoundStatus.FINISHED
    current.finished_at = now
    current.save(update_fields=["status", "finished_at"])
    return True


@transaction.atomic
def advance(*, tournament_id: int, now: datetime | None = None) -> str:
    """Move a running Swiss or round robin on: finish its round once every game is over,
    then pair the next (at its set time, if it has one) or finish the event. Idempotent:
    what it says it did (``"paired"``, ``"finished"``, ``"waiting"``, ``"skipped"``)."""
    now = now or timezone.now()
    tournament = locked(tournament_id, skip_locked=True)
    if tournament is None or tournament.is_arena or tournament.status != Status.RUNNING:
        return "skipped"
    if tournament.current_round == 0 or not _finish_round(tournament, now):
        return "waiting"
    if tournament.current_round >= total_rounds(tournament):
        tournament_finish(tournament, now)
        return "finished"
    if tournament.round_interval and now < tournament.starts_at + tournament.round_interval * tournament.current_round:
        return "waiting"
    if tournament.entries.filter(withdrawn_at__isnull=True).count() < 2:
        tournament_finish(tournament, now)
        return "finished"
    round_pair(tournament, now=now)
    return "paired"


def tournament_finish(tournament: Tournament, now: datetime) -> None:
    """The event is over: its status, and every entrant told where they finished."""
    tournament.status = Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    Entry.objects.filter(tournament=tournament).update(waiting_since=None)
    for line in standings(tournament):
        tell(line.entry.user, tournament, "finished", f"{tournament.name} is over: you finished {line.rank_text}.")
    changed(tournament)


@transaction.atomic
def result_correct(*, pairing_id: int, by, points: dict[int, int], reason: str, now: datetime | None = None) -> Pairing:
    """A director sets a finished pairing's result: ``points`` per entry id, in the
    event's points (Swiss and round robin: half points, 2 a win, 1 a draw; arena: arena
    points). Kept with who, when and why; the standings follow at once. Later rounds keep
    their pairings (they were made from the results of their time)."""
    check_director(by)
    if not reason.strip():
        raise Refused("Say why the result is corrected.")
    now = now or timezone.now()
    pairing = Pairing.objects.select_for_update().filter(pk=pairing_id).first()
    if pairing is None:
        raise Refused("No such pairing.", status=404)
    tournament = locked(pairing.tournament_id)
    if pairing.status != PairingStatus.FINISHED:
        raise Refused("Only a finished game's result can be corrected.", status=409)
    rows = {row.entry_id: row for row in pairing.players.select_related("entry")}
    if set(points) != set(rows):
        raise Refused("Give a result for each player of the game, and only them.")
    if not tournament.is_arena:
        if any(value not in (WIN, DRAW, LOSS) for value in points.values()):
            raise Refused("A result is a win, a draw or a loss.")
        if sum(points.values()) != WIN:
            raise Refused("The results of one game add up to one win.")
    elif any(value < 0 or value > 8 for value in points.values()):
        raise Refused("An arena table scores 0 to 8 points.")
    before = {entry_id: row.points for entry_id, row in rows.items()}
    entries = {entry.pk: entry for entry in Entry.objects.select_for_update().filter(pk__in=list(rows))}
    for entry_id, row in rows.items():
        if tournament.is_arena:
            entry = entries[entry_id]
            entry.points += points[entry_id] - (row.points or 0)
            entry.save(update_fields=["points"])
        row.points = points[entry_id]
        if not tournament.is_arena:
            row.place = 1 if row.points >= DRAW else 2  # a draw shares first place
        row.save(update_fields=["points", "place"])
    pairing.corrected = True
    pairing.save(update_fields=["corrected"])
    log(
        tournament,
        by,
        DirectorAction.Action.CORRECT,
        reason=reason,
        now=now,
        pairing=pairing.pk,
        before={str(k): v for k, v in before.items()},
        after={str(k): v for k, v in points.items()},
    )
    changed(tournament)
    return pairing


def pairings_replayed(tournament: Tournament) -> list[dict]:
    """Every round of a Swiss or round robin paired again from the stored results, compared
    with the stored pairings: the rounds whose pairings differ (none, for an event whose
    results were never corrected). Like ``ratings_rebuild`` for ratings, the oracle."""
    differences = []
    games = stored_games(tournament)
    entries = list(tournament.entries.order_by("-rating", "pk"))
    for paired in tournament.round_set.order_by("number"):
        number = paired.number
        active = [
            entry
            for entry in entries
            if (entry.withdrawn_at is None or entry.withdrawn_at > paired.paired_at)
            and entry.joined_at <= paired.paired_at
        ]
        if tournament.format == Format.ROUND_ROBIN:
            first = tournament.round_set.get(number=1)
            seeding = [e for e in entries if e.withdrawn_at is None or e.withdrawn_at > first.paired_at]
            boards = {
                frozenset(p.players)
                for p in rules.round_robin([e.pk for e in seeding], tournament.cycles)[number - 1]
                if all(player in {e.pk for e in active} for player in p.players)
            }
        else:
            entrants = [rules.Entrant(entry.pk, entry.rating) for entry in active]
            boards = {
                frozenset(p.players)
                for p in rules.swiss_pairings(entrants, [g for g in games if g.round < number], number)
            }
        stored = {frozenset(g.pairing.players) for g in games if g.round == number}
        if tournament.format == Format.ROUND_ROBIN:
            stored = {players for players in stored if len(players) == 2}
        if boards != stored:
            differences.append(
                {"round": number, "stored": sorted(map(sorted, stored)), "replayed": sorted(map(sorted, boards))}
            )
    return differences
