"""Reads of tournaments: the lobby's lists, an event's standings, rounds and games, and a
player's history. A few queries each, whatever the number of players."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.humanize.templatetags.humanize import ordinal
from django.core.cache import cache
from django.db.models import Count, Q
from django.template.loader import render_to_string

from games.engine import tournament as rules

from .models import IN_PLAY, Entry, Format, Pairing, PairingPlayer, PairingStatus, Status, Tournament


@dataclass(frozen=True)
class Line:
    """One line of an event's standings."""

    entry: Entry
    rank: int
    points: Fraction | int
    tiebreaks: dict  # name -> value, in the order they break ties
    withdrawn: bool

    @property
    def rank_text(self) -> str:
        """The rank as people write it: 1st, 2nd, 11th."""
        return str(ordinal(self.rank))

    @property
    def points_text(self) -> str:
        return points_text(self.points)


@dataclass(frozen=True)
class Place:
    """Where an entry stands in its event's standings: what a player's history shows."""

    rank: int
    points: Fraction | int

    # Shown as a line of the standings shows them.
    rank_text = Line.rank_text
    points_text = Line.points_text


def points_text(points) -> str:
    """½ points as people write them: 2½, ½, 3."""
    if isinstance(points, Fraction) and points.denominator != 1:
        whole = int(points)
        return f"{whole}½" if whole else "½"
    return str(int(points))


def stored_games(tournament: Tournament, before: int | None = None) -> list[rules.Game]:
    """The event's games as the engine reads them (rounds before ``before`` if given)."""
    rows = PairingPlayer.objects.filter(pairing__tournament=tournament, pairing__round__isnull=False)
    if before is not None:
        rows = rows.filter(pairing__round__number__lt=before)
    by_pairing: dict[int, list[tuple]] = {}
    for pairing_id, number, entry_id, score, points in rows.order_by("pairing_id", "seat").values_list(
        "pairing_id", "pairing__round__number", "entry_id", "score", "points"
    ):
        by_pairing.setdefault(pairing_id, []).append((number, entry_id, score, points))
    games = []
    for players in by_pairing.values():
        number, first, first_score, first_points = players[0]
        if len(players) == 1:
            games.append(rules.Game(number, first, None, rules.BYE_POINTS, 0))
            continue
        _, second, second_score, _ = players[1]
        result = Fraction(first_points, 2) if first_points is not None else None
        games.append(rules.Game(number, first, second, result, first_score - second_score))
    return games


def standings(tournament: Tournament) -> list[Line]:
    """The event's standings: arenas by points (then rating); Swiss and round robin by
    points, spread, Buchholz and Sonneborn–Berger (``games.engine.tournament``)."""
    entries = list(tournament.entries.select_related("user"))
    if tournament.format == Format.ARENA:
        entries.sort(key=lambda e: (-e.points, -e.rating, e.pk))
        lines, rank = [], 0
        for index, entry in enumerate(entries):
            if index == 0 or entry.points != entries[index - 1].points:
                rank = index + 1
            lines.append(
                Line(
                    entry,
                    rank,
                    entry.points,
                    {"tables": entry.tables, "streak": entry.streak},
                    entry.withdrawn_at is not None,
                )
            )
        return lines
    by_id = {entry.pk: entry for entry in entries}
    table = rules.standings([rules.Entrant(e.pk, e.rating) for e in entries], stored_games(tournament))
    return [
        Line(
            by_id[line.player],
            line.rank,
            line.points,
            {
                "spread": line.spread,
                "buchholz": line.buchholz,
                "sonneborn_berger": line.sonneborn_berger,
                "wins": line.wins,
                "draws": line.draws,
                "losses": line.losses,
                "byes": line.byes,
            },
            by_id[line.player].withdrawn_at is not None,
        )
        for line in table
    ]


#: Lines of the standings an event's page (and its live updates) show; all are on the
#: full standings page and in the API.
STANDINGS_SHOWN = 100
#: Games and tables the page lists, latest first.
GAMES_SHOWN = 40
# The live part is rendered once per change and kept; if a change's update was lost (a
# process that died between its commit and its broadcast) it is rendered afresh this soon.
LIVE_SECONDS = 30


def _live_key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}:live"


def live_fresh(tournament: Tournament) -> dict:
    """The event's live part rendered now, and kept for the next readers: ``html`` (state,
    the top of the standings, the latest games), ``ranks`` (entry id -> (rank as people
    write it, points)) and ``players``."""
    lines = standings(tournament)
    html = render_to_string(
        "tournaments/_live.html",
        {
            "tournament": tournament,
            "standings": lines[:STANDINGS_SHOWN],
            "more": max(0, len(lines) - STANDINGS_SHOWN),
            "pairings": pairings(tournament, limit=GAMES_SHOWN),
        },
    )
    live = {
        "html": html,
        "ranks": {line.entry.pk: (line.rank_text, line.points_text) for line in lines},
        "players": len(lines),
    }
    cache.set(_live_key(tournament.pk), live, LIVE_SECONDS)
    return live


def live(tournament: Tournament) -> dict:
    """The event's live part as last rendered (``live_fresh`` if none is kept)."""
    return cache.get(_live_key(tournament.pk)) or live_fresh(tournament)


def lobby() -> dict[str, list[Tournament]]:
    """Upcoming, running and recently finished events, with their number of players."""
    events = Tournament.objects.annotate(players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))
    return {
        "upcoming": list(events.filter(status=Status.UPCOMING).order_by("starts_at", "pk")[:50]),
        "running": list(events.filter(status__in=IN_PLAY).order_by("starts_at", "pk")[:50]),
        "finished": list(events.filter(status=Status.FINISHED).order_by("-finished_at", "-pk")[:20]),
    }


#: The statuses the public API lists events by.
API_STATUSES = ("upcoming", "running", "finished")


def listed(status: str | None):
    """Events for the API: those of ``status`` ("running" includes paused ones), newest
    start first; cancelled events are not listed."""
    events = Tournament.objects.exclude(status=Status.CANCELLED).order_by("-starts_at", "-pk")
    if status == "running":
        return events.filter(status__in=IN_PLAY)
    if status is not None:
        return events.filter(status=status)
    return events


def tournament(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def pairings(tournament: Tournament, *, limit: int | None = None) -> list[Pairing]:
    """The event's boards and tables, latest first, with their players (two queries)."""
    rows = tournament.pairings.select_related("round").prefetch_related("players__entry__user").order_by("-pk")
    return list(rows[:limit] if limit else rows)


def my_entry(tournament: Tournament, user) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return tournament.entries.filter(user_id=user.pk).first()


def my_game(tournament: Tournament, user) -> Pairing | None:
    """The game ``user`` is playing in the event now, if any."""
    if user is None or not user.is_authenticated:
        return None
    return (
        tournament.pairings.filter(players__entry__user_id=user.pk, status=PairingStatus.PLAYING)
        .order_by("-pk")
        .first()
    )


def history(user, *, limit: int = 20) -> list[dict]:
    """The events ``user`` entered, latest first: each with where they stand or finished
    (a ``Place``)."""
    entries = list(
        Entry.objects.filter(user_id=user.pk)
        .select_related("tournament")
        .exclude(tournament__status=Status.CANCELLED)
        .order_by("-tournament__starts_at", "-pk")[:limit]
    )
    kept = places([entry.tournament for entry in entries])
    return [{"tournament": entry.tournament, "line": kept[entry.tournament_id].get(entry.pk)} for entry in entries]


# Each event's places are kept under a version of the event that every change replaces
# (``forget_places``, from ``services.changed``, after the change commits): a player's
# history shows ten events, each of whose standings reads its entries and every game. A
# reader that computed them just before a change keeps them under the old version, which
# nobody reads again; they expire, so events nobody looks at leave the cache.
PLACES_SECONDS = 15 * 60


def _version_key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}:version"


def places(tournaments) -> dict[int, dict[int, Place]]:
    """Each of ``tournaments``' places by entry id (tournament id -> entry id -> Place),
    from the cache while current: two round trips to it, and the standings of each event
    not kept."""
    ids = list(dict.fromkeys(tournament.pk for tournament in tournaments))
    if not ids:
        return {}
    versions = cache.get_many([_version_key(pk) for pk in ids])
    keys = {
        pk: f"tournament:{pk}:places:"
        + (versions.get(_version_key(pk)) or cache.get_or_set(_version_key(pk), uuid.uuid4().hex, None))
        for pk in ids
    }
    found = cache.get_many(list(keys.values()))
    fresh = {}
    for tournament in tournaments:
        key = keys[tournament.pk]
        if key not in found:
            found[key] = fresh[key] = {line.entry.pk: Place(line.rank, line.points) for line in standings(tournament)}
    if fresh:
        cache.set_many(fresh, PLACES_SECONDS)
    return {pk: found[key] for pk, key in keys.items()}


def forget_places(tournament_id: int) -> None:
    """The event's kept places are out of date (call it once the change has committed)."""
    cache.set(_version_key(tournament_id), uuid.uuid4().hex, None)


def games_of(entry: Entry) -> list[PairingPlayer]:
    return list(PairingPlayer.objects.filter(entry=entry).select_related("pairing").order_by("pairing_id"))
