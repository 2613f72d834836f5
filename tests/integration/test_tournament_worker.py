"""Tournaments through a real Celery worker: every start and every next round is a task
queued after its transaction commits."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.crosswords import services as crosswords
from games.hunts.models import HuntRound
from games.hunts.services import rounds as hunt_rounds
from games.tournaments import services, tasks
from games.tournaments.models import Pairing, PairingStatus, Status, Tournament

pytestmark = pytest.mark.worker


def wait_for(condition, timeout=60.0, what="the worker"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not get there in {timeout} s")


def test_a_swiss_is_played_to_the_end_by_the_worker(celery_worker, make_user):
    """Two players, two rounds: the worker starts each game and pairs round 2 when round 1's
    game ends; the event finishes when the last game does."""
    director = make_user("director", is_staff=True)
    ann, bob = make_user("ann"), make_user("bob")
    tournament = services.tournament_create(
        director=director,
        name="Worker Swiss",
        format="swiss",
        kind="crossword",
        pool="wordgame",
        starts_at=timezone.now(),
        game_settings={"variant": "wordgame", "seconds_per_move": 86400},
        rounds=2,
    )
    for player in (ann, bob):
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    for number in (1, 2):
        playing = Pairing.objects.filter(tournament=tournament, round__number=number, status=PairingStatus.PLAYING)
        wait_for(playing.exists, what=f"round {number}'s start")
        pairing = playing.get()
        crosswords.game_resign(game_id=pairing.game_id, player=pairing.players.get(seat=1).entry.user)
    wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED, what="the finish")


def test_an_arena_is_played_to_the_end_by_the_worker(celery_worker, make_user):
    """Two players join a running arena: the worker seats them and starts their hunt round;
    when it ends and the arena's time is up, the sweep finishes the arena."""
    director = make_user("director", is_staff=True)
    ann, bob = make_user("ann"), make_user("bob")
    tournament = services.tournament_create(
        director=director,
        name="Worker arena",
        format="arena",
        kind="hunt",
        pool="rampage",
        starts_at=timezone.now() - timedelta(seconds=30),
        game_settings={"game": "rampage", "size": 4, "round_seconds": 60},
        minutes=5,
    )
    services.tournament_start(tournament_id=tournament.pk, by=director)
    for player in (ann, bob):
        services.entry_register(tournament_id=tournament.pk, user=player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    # A table of two waits the matcher's fill time; the beat's pass comes back for it.
    playing = Pairing.objects.filter(tournament=tournament, status=PairingStatus.PLAYING)
    deadline = time.monotonic() + 60
    while not playing.exists() and time.monotonic() < deadline:
        tasks.sweep_arenas.delay()
        time.sleep(1.0)
    pairing = playing.get()
    game_round = HuntRound.objects.get(pk=pairing.game_id)
    hunt_rounds.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    wait_for(lambda: Pairing.objects.get(pk=pairing.pk).status == PairingStatus.FINISHED, what="the scoring")
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_arenas.delay()
    wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED, what="the arena's end")
