"""Reads for hunt pages and sockets: the lobby, a table's live state, results, history."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Prefetch, Sum
from django.utils import timezone

from games.engine import hunt
from games.hunts import pools
from games.hunts.boards import board_of, path_from_text
from games.hunts.models import (
    FoundWord,
    Game,
    HuntRound,
    HuntSeat,
    HuntTable,
    QueueEntry,
    RoundPlayer,
    RoundStatus,
    TableConnection,
    TableStatus,
    bot_rating,
)
from games.hunts.secrecy import daily_table_visible
from lexicon import offensive

LOBBY_MAX_AGE = timedelta(hours=12)


def _ms(moment) -> int:
    return int(moment.timestamp() * 1000)


def active_seats(table_id: int) -> list[HuntSeat]:
    return list(HuntSeat.objects.filter(table_id=table_id, left_at__isnull=True).select_related("user"))


def watcher_count(table_id: int) -> int:
    """Open sockets of people not seated: each anonymous socket, each signed-in person once."""
    return watcher_counts([table_id])[table_id]


def watcher_counts(table_ids: list[int]) -> dict[int, int]:
    seated = set(
        HuntSeat.objects.filter(table_id__in=table_ids, left_at__isnull=True).values_list("table_id", "user_id")
    )
    counts = dict.fromkeys(table_ids, 0)
    people = set()
    for table_id, user_id in TableConnection.objects.filter(table_id__in=table_ids).values_list("table_id", "user_id"):
        if user_id is None:
            counts[table_id] += 1
        elif (table_id, user_id) not in seated and (table_id, user_id) not in people:
            people.add((table_id, user_id))
            counts[table_id] += 1
    return counts


def open_tables() -> list[HuntTable]:
    """Tables of the lobby, newest first, with their seats and watcher counts."""
    tables = list(
        HuntTable.objects.exclude(status=TableStatus.CLOSED)
        .filter(created_at__gte=timezone.now() - LOBBY_MAX_AGE, daily__isnull=True)
        .select_related("host")
        .prefetch_related(
            Prefetch(
                "seats", queryset=HuntSeat.objects.filter(left_at__isnull=True).select_related("user"), to_attr="seated"
            )
        )[:50]
    )
    watchers = watcher_counts([table.pk for table in tables])
    for table in tables:
        table.watchers = watchers[table.pk]
        table.free_seats = table.seat_count - len(table.seated)
    return tables


def player_tables(user) -> list[HuntTable]:
    """The open tables ``user`` sits at (My games), newest first, with who sits there.

    A daily challenge's table is left out: it is played from the daily page.
    """
    return list(
        HuntTable.objects.exclude(status=TableStatus.CLOSED)
        .filter(seats__user=user, seats__left_at__isnull=True, daily__isnull=True)
        .prefetch_related(
            Prefetch(
                "seats", queryset=HuntSeat.objects.filter(left_at__isnull=True).select_related("user"), to_attr="seated"
            )
        )
        .order_by("-created_at")[:20]
    )


def current_round(table_id: int) -> HuntRound | None:
    return HuntRound.objects.filter(table_id=table_id).order_by("-number").first()


def table_state(table_id: int, user) -> dict | None:
    """Everything a socket needs to draw a table for ``user`` (a player or a watcher).

    In Classic a player sees only their own words, and everyone's word counts.
    """
    table = HuntTable.objects.select_related("host").filter(pk=table_id).first()
    if table is None or (table.daily_id and not daily_table_visible(table, user)):
        return None
    user_id = user.pk if user is not None and user.is_authenticated else None
    return for_viewer(private_state(shared_state(table), user_id), user_id)


def shared_state(table: HuntTable) -> dict:
    """The table's state for nobody in particular, read once for everyone looking.

    Its round's ``found`` holds every find, Classic ones too: pass it through
    ``private_state`` before it leaves the server.
    """
    seats = sorted(active_seats(table.pk), key=lambda seat: seat.position)
    game_round = current_round(table.pk)
    state = {
        "type": "state",
        "table": {
            "id": table.pk,
            "game": table.game,
            "game_name": table.get_game_display(),
            "size": table.size,
            "lexicon": table.get_lexicon_code_display(),
            "round_seconds": table.round_seconds,
            "seat_count": table.seat_count,
            "ranked": table.ranked,
            "status": table.status,
            "host_id": table.host_id,
            "host": table.host.name_and_username,
        },
        "seats": [
            {
                "position": seat.position,
                "user_id": seat.user_id,
                "name": seat.user.name_and_username,
                "bot": seat.bot_strength,
                "bot_rating": bot_rating(seat.bot_strength, table.game, table.size),
                "score": 0,
                "count": 0,
            }
            for seat in seats
        ],
        "watchers": watcher_count(table.pk),
        "round": None,
    }
    if game_round is None:
        return state
    state["round"] = round_state(game_round, EVERYONE)
    players = {p["user_id"]: p for p in state["round"]["players"]}
    for seat in state["seats"]:
        seat.update({k: players[seat["user_id"]][k] for k in ("score", "count")} if seat["user_id"] in players else {})
    return state


def private_players(state: dict) -> list[int]:
    """Players with words of their own in ``state`` that others may not see (Classic)."""
    game_round = state["round"]
    if game_round is None or state["table"]["game"] == Game.RAMPAGE:
        return []
    return [player["user_id"] for player in game_round["players"]]


def private_state(state: dict, user_id: int | None) -> dict:
    """``state`` as ``user_id`` (None: a watcher) may see it: in Classic, their own words only."""
    if private_players(state):
        found = [f for f in state["round"]["found"] if f["user_id"] == user_id]
        return {**state, "round": {**state["round"], "found": found}}
    return state


def for_viewer(state: dict, user_id: int | None) -> dict:
    """A private state with what is only about its viewer: who they are, and the time now."""
    return {
        **state,
        "server_now": _ms(timezone.now()),
        "me": {
            "user_id": user_id,
            "seated": any(seat["user_id"] == user_id for seat in state["seats"]),
            "is_host": user_id is not None and user_id == state["table"]["host_id"],
        },
    }


#: ``round_state`` for the server's own use: every find, Classic ones too.
EVERYONE = object()


def round_state(game_round: HuntRound, user_id) -> dict:
    board = board_of(game_round.board)
    finished = game_round.status == RoundStatus.FINISHED
    players = list(game_round.players.select_related("user"))
    words = list(game_round.found_words.select_related("user"))
    rampage = game_round.game == Game.RAMPAGE
    totals = defaultdict(int)
    counts = defaultdict(int)
    for found in words:
        counts[found.user_id] += 1
        totals[found.user_id] += found.points
    # Classic lists stay private even after the round: the side list is "Your words"
    # (with the common words crossed off); everyone's lists are on the results.
    visible = [f for f in words if rampage or user_id is EVERYONE or f.user_id == user_id]
    return {
        "id": game_round.pk,
        "number": game_round.number,
        "status": game_round.status,
        "size": board.size,
        "faces": [list(row) for row in board.faces],
        "values": [[hunt.face_value(face) for face in row] for row in board.faces],
        "bonuses": {f"{r},{c}": kind for (r, c), kind in board.bonuses.items()},
        "min_length": game_round.min_length,
        "starts_at": _ms(game_round.starts_at),
        "deadline": _ms(game_round.deadline),
        "results_url": game_round.get_absolute_url(),
        "players": [
            {
                "user_id": p.user_id,
                "name": p.user.name_and_username,
                "score": p.score if finished else (totals[p.user_id] if rampage else 0),
                "count": p.word_count if finished else counts[p.user_id],
            }
            for p in players
        ],
        "found": [
            {
                "word": f.word,
                "points": 0 if f.crossed_off else f.points,
                "crossed_off": f.crossed_off,
                "user_id": f.user_id,
                "name": f.user.name_and_username,
                "bonuses": f.bonuses.split(),
                "path": [list(sq) for sq in path_from_text(board, f.path)],
            }
            for f in visible
        ],
    }


@dataclass
class PlayerResult:
    player: RoundPlayer
    words: list[FoundWord]

    @property
    def kept(self) -> int:
        """Words that count: the standings' figure, so the breakdown never disagrees with it."""
        return sum(1 for found in self.words if not found.crossed_off)

    @property
    def crossed_off(self) -> int:
        return sum(1 for found in self.words if found.crossed_off)


def round_results(round_id: int, *, show_offensive: bool = False) -> dict | None:
    """A finished round's breakdown: per player every word, points, bonuses, crossings-off.

    "Words nobody found" leaves out offensive words unless ``show_offensive`` (the
    player's setting); words players found are always shown.
    """
    game_round = HuntRound.objects.select_related("table").filter(pk=round_id).first()
    if game_round is None:
        return None
    players = list(game_round.players.select_related("user").order_by("placing", "position"))
    classic = game_round.game == Game.CLASSIC
    finished = game_round.status == RoundStatus.FINISHED
    words = defaultdict(list)
    # A Classic round's lists are private until it ends: this page must not show them early.
    if finished or not classic:
        for found in game_round.found_words.order_by("-points", "word"):
            words[found.user_id].append(found)
    by_words = sorted(players, key=lambda p: (-p.word_count, p.position)) if classic else []
    by_points = sorted(players, key=lambda p: (-p.computer_points, p.position)) if classic else []
    board = board_of(game_round.board)
    return {
        "round": game_round,
        "board": board,
        # (face, bonus or "") per tile, row by row, so the mini board shows the bonus tiles.
        "cells": [
            (face, board.bonuses.get((r, c), "")) for r, row in enumerate(board.faces) for c, face in enumerate(row)
        ],
        "classic": classic,
        "results": [PlayerResult(player=p, words=words[p.user_id]) for p in players],
        "common": sorted({f.word for fs in words.values() for f in fs if f.crossed_off}),
        "by_words": by_words,
        "by_points": by_points,
        "missed": (
            game_round.missed_words
            if show_offensive
            else offensive.without_offensive(game_round.missed_words, key=lambda m: m["word"])
        ),
        "finished": finished,
    }


def recent_rounds(user, limit: int = 10) -> list[RoundPlayer]:
    """A player's latest finished rounds, newest first."""
    return list(
        RoundPlayer.objects.filter(user=user, round__status=RoundStatus.FINISHED)
        .select_related("round", "round__table")
        .order_by("-round__ended_at")[:limit]
    )


def hunt_totals(user) -> dict:
    played = RoundPlayer.objects.filter(user=user, round__status=RoundStatus.FINISHED)
    return {
        "rounds": played.count(),
        "wins": played.filter(is_winner=True).count(),
        "points": played.aggregate(total=Sum("score"))["total"] or 0,
    }


def rules_of(game_round: HuntRound) -> hunt.HuntRules:
    return hunt.rules_for(game_round.game, game_round.size)


# --------------------------------------------------------------------------- the ranked queue


def open_ranked_seats(user, exclude_table_id: int | None = None):
    """``user``'s seats at ranked tables not closed (but ``exclude_table_id``'s)."""
    seats = open_ranked_seats_of([user.pk])
    if exclude_table_id is not None:
        seats = seats.exclude(table_id=exclude_table_id)
    return seats


def open_ranked_seats_of(user_ids):
    """The seats of the players ``user_ids`` at ranked tables not closed."""
    return HuntSeat.objects.filter(user_id__in=list(user_ids), left_at__isnull=True, table__ranked=True).exclude(
        table__status=TableStatus.CLOSED
    )


def queue_counts() -> dict[str, int]:
    """How many players wait in each pool's queue."""
    counts = dict.fromkeys(pools.RULES, 0)
    for row in QueueEntry.objects.values("pool").annotate(n=Count("pk")):
        counts[row["pool"]] = row["n"]
    return counts


def queue_status(user) -> dict:
    """What the lobby shows ``user`` about ranked play: idle, waiting (since when, how many
    in the pool, bot offered) or in a ranked round (where)."""
    if user is None or not user.is_authenticated:
        return {"state": "anonymous"}
    entry = QueueEntry.objects.filter(user_id=user.pk).first()
    if entry is not None:
        return {
            "state": "waiting",
            "pool": entry.pool,
            "pool_name": pools.name_of(entry.pool),
            "joined_at": int(entry.joined_at.timestamp() * 1000),
            "waiting": QueueEntry.objects.filter(pool=entry.pool).count(),
            "bot_offer": entry.bot_offered_at is not None,
            "rating": entry.rating,
        }
    seat = (
        open_ranked_seats(user)
        .filter(table__status__in=(TableStatus.PLAYING, TableStatus.OPEN))
        .select_related("table")
        .first()
    )
    if seat is not None:
        return {"state": "playing", "table_id": seat.table_id, "url": seat.table.get_absolute_url()}
    return {"state": "idle"}


def busy_players(user_ids) -> dict[int, str]:
    """Those of ``user_ids`` who cannot be seated now at a table someone else arranges for
    them (a tournament's), each with the reason: they wait in a ranked queue, or sit at a
    ranked table whose round is in play or about to start. A seat at a ranked table
    between rounds is no reason: it is given up when they are seated."""
    busy = {
        user_id: f"You are waiting in the {pools.name_of(pool)} ranked queue; cancel it first."
        for user_id, pool in QueueEntry.objects.filter(user_id__in=user_ids).values_list("user_id", "pool")
    }
    seats = (
        HuntSeat.objects.filter(user_id__in=user_ids, left_at__isnull=True, table__ranked=True)
        .exclude(table__status__in=(TableStatus.BETWEEN, TableStatus.CLOSED))
        .order_by("table_id")
        .values_list("user_id", "table_id")
    )
    for user_id, table_id in seats:
        busy.setdefault(user_id, f"You are playing at ranked table {table_id}; finish or leave it first.")
    return busy
