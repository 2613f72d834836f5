"""The game socket (real ASGI app, real Redis channel layer) and the Celery sweep task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.crosswords import selectors, services, tasks
from games.crosswords.models import Game, Move, Status
from games.engine import movegen

DAY = 86400


def start_duel(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    # A fixed deal with a word in the first rack: a random one sometimes has none.
    Game.objects.filter(pk=game.pk).update(seed="queries-short")
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    return game, ann, bob


def best_play(game):
    state = selectors.engine_state(game)
    return movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_reaches_every_open_page_of_the_game(ws_connect, make_user):
    """When one player moves, both players' sockets hear the new move count, no tiles."""
    game, ann, bob = await sync_to_async(start_duel)(make_user)
    ann_ws = await ws_connect(f"/ws/games/{game.pk}/", ann)
    bob_ws = await ws_connect(f"/ws/games/{game.pk}/", bob)
    assert await ann_ws.receive_json_from(timeout=5) == {"type": "hello", "move_count": 0, "status": "active"}
    assert await bob_ws.receive_json_from(timeout=5) == {"type": "hello", "move_count": 0, "status": "active"}
    play = await sync_to_async(best_play)(game)
    await sync_to_async(services.game_play)(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
    for ws in (ann_ws, bob_ws):
        message = await ws.receive_json_from(timeout=5)
        assert message == {"type": "moved", "move_count": 1, "status": "active"}
    await bob_ws.send_json_to({"type": "ping"})
    assert await bob_ws.receive_json_from(timeout=5) == {"type": "pong"}
    await bob_ws.send_json_to({"type": "play", "placement": []})
    refused = await bob_ws.receive_json_from(timeout=5)
    assert refused["type"] == "error"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_made_while_a_page_connects_reaches_it(ws_connect, make_user, monkeypatch):
    """A move committed (and broadcast) while a page's socket is connecting is in its
    hello or comes after it as moved: the page is never left a move behind."""
    game, ann, bob = await sync_to_async(start_duel)(make_user)
    play = await sync_to_async(best_play)(game)
    layer = get_channel_layer()
    group_add = layer.group_add

    async def move_lands_first(group, channel):
        if group == game.group_name:
            await sync_to_async(services.game_play)(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
        await group_add(group, channel)

    monkeypatch.setattr(layer, "group_add", move_lands_first)
    bob_ws = await ws_connect(f"/ws/games/{game.pk}/", bob)
    hello = await bob_ws.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    if hello["move_count"] == 0:  # then the move must follow
        assert await bob_ws.receive_json_from(timeout=5) == {"type": "moved", "move_count": 1, "status": "active"}
    assert hello["move_count"] in (0, 1)
    assert await sync_to_async(Move.objects.filter(game=game).count)() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_game_socket_needs_a_signed_in_player_and_a_game(ws_connect, make_user):
    """Anonymous visitors and unknown games are refused."""
    game, ann, bob = await sync_to_async(start_duel)(make_user)
    assert await ws_connect(f"/ws/games/{game.pk}/", None, expect_accept=False) is None
    assert await ws_connect(f"/ws/games/{game.pk + 999}/", ann, expect_accept=False) is None


@pytest.mark.django_db(transaction=True)
def test_the_sweep_task_forfeits_overdue_players_idempotently(make_user):
    """The beat task forfeits a player past the deadline; running it again changes nothing."""
    game, ann, bob = start_duel(make_user)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.sweep_deadlines() == {"forfeited": 1, "reminded": 0}
    assert tasks.sweep_deadlines() == {"forfeited": 0, "reminded": 0}
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    forfeit = Move.objects.get(game=game)
    assert forfeit.kind == "forfeit" and forfeit.reason == "missed the move deadline"


def test_the_sweep_is_in_the_beat_schedule(settings):
    """Celery beat runs the crossword deadline sweep."""
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "games.crosswords.tasks.sweep_deadlines" in tasks_scheduled


@pytest.mark.django_db
def test_a_live_game_queues_a_forfeit_check_at_each_deadline(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    """Short times per move queue a task at the deadline; it forfeits only once overdue."""
    queued = []
    monkeypatch.setattr(tasks.forfeit_if_overdue, "apply_async", lambda args, eta: queued.append((args, eta)))
    ann, bob = make_user("ann"), make_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=120, invitees=[bob])
        services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert queued == [([game.pk], game.deadline + timedelta(seconds=1))]
    assert tasks.forfeit_if_overdue(game.pk) is False
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.forfeit_if_overdue(game.pk) is True
    assert tasks.forfeit_if_overdue(game.pk) is False


@pytest.mark.django_db
def test_a_correspondence_game_leaves_deadlines_to_the_sweep(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    """Days per move queue no delayed task."""
    queued = []
    monkeypatch.setattr(tasks.forfeit_if_overdue, "apply_async", lambda args, eta: queued.append((args, eta)))
    with django_capture_on_commit_callbacks(execute=True):
        start_duel(make_user)
    assert queued == []


@pytest.mark.django_db(transaction=True)
def test_the_sweep_runs_in_a_real_worker_and_the_email_follows(celery_worker, make_user, mailoutbox):
    """Sent through Redis, the sweep forfeits the late player; the game-over email is sent by Celery."""
    import time

    from django.core import mail

    game, ann, bob = start_duel(make_user)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    tasks.sweep_deadlines.delay()
    # Earlier tests may have left emails of other games in the queue: wait for this one's.
    subject = f"#{game.pk} is over"

    def over_emails():
        return sorted(m.to[0] for m in mail.outbox if subject in m.subject)

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(over_emails()) < 2:
        time.sleep(0.1)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert over_emails() == ["ann@example.com", "bob@example.com"]
