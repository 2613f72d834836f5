"""What an event's open pages are sent: its standings and state, rendered once.

A change sends the standings at once, unless they were sent less than ``SPACING`` ago:
then one later send is queued for the end of the spacing, carrying every change made
meanwhile. A burst of results (a round of 500 games ending) renders the standings about
once a second, not once per game.
"""

from __future__ import annotations

import logging

from django.core.cache import cache

from config.realtime import broadcast, encoded

from . import tasks  # the module: the tasks import this one
from .models import Tournament
from .selectors import live, live_fresh

logger = logging.getLogger(__name__)

#: The least time between two sends of one event's standings, in seconds.
SPACING = 1.0


def standings_message(tournament_id: int, *, fresh: bool = False) -> dict:
    """The event's live part (state, standings, latest games) as one message; ``fresh``:
    rendered now (after a change), else as last rendered."""
    tournament = Tournament.objects.get(pk=tournament_id)
    part = live_fresh(tournament) if fresh else live(tournament)
    return {
        "type": "tournament.standings",
        "status": tournament.status,
        "round": tournament.current_round,
        "html": part["html"],
    }


def standings_changed(tournament_id: int) -> None:
    """The event changed: send its standings now, or once at the end of the spacing if
    they were just sent. Never raises: the change is committed, and pages catch up when
    they reconnect."""
    if cache.add(f"tournament:{tournament_id}:sent", 1, timeout=SPACING):
        standings_send(tournament_id)
    elif cache.add(f"tournament:{tournament_id}:later", 1, timeout=SPACING * 3):
        tasks.send_standings.apply_async((tournament_id,), countdown=SPACING)


def standings_send(tournament_id: int) -> None:
    """Render the event's standings and publish them to its group: once, whatever the
    number of watchers."""
    try:
        message = standings_message(tournament_id, fresh=True)
    except Exception:
        logger.exception("Standings of tournament %s not sent", tournament_id)
        return
    broadcast(Tournament(pk=tournament_id).group_name, encoded(message))
