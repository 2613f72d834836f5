"""A crossword game against a bot survives its worker being killed mid-game.

The person moves over HTTP through the live site (so the bot's turn task goes to the
site's own broker); the worker is killed with SIGKILL just after, while it may hold that
task, and started again. The bot still moves, once per turn, and the stored game replays.
"""

from __future__ import annotations

import secrets
import time
import urllib.parse
import urllib.request

import pytest

from games.crosswords import selectors
from games.crosswords.models import Game, Move, Status
from games.crosswords.services.bots import game_create_with_bots
from tests.conftest import session_cookie_for
from tests.faults.conftest import wait_until

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

# A live bot moves 2-5 s after its turn begins; a lost task is redone by the sweep
# (every 10 s, on the beat) once the stored due time is 2 s past.
BOT_MOVES_WITHIN = 60


def post(site, path: str, user_cookie: str, data: dict) -> int:
    """POST a form to the live site as a signed-in browser would (session and CSRF cookies)."""
    token = secrets.token_hex(16)
    request = urllib.request.Request(
        site.url + path,
        data=urllib.parse.urlencode(data).encode(),
        method="POST",
        headers={
            "Cookie": f"{user_cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "Origin": site.url,
            "Referer": site.url + "/",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def bot_to_move(game_id: int, bot_seat: int) -> bool:
    game = Game.objects.get(pk=game_id)
    return game.status == Status.ACTIVE and game.to_move == bot_seat


def test_worker_killed_during_a_game_against_a_bot(fault_site, make_user):
    """kill -9 the worker right after the person's move: the bot still answers it, once."""
    ann = make_user("ann")
    game = game_create_with_bots(creator=ann, variant="wordgrid", seconds_per_move=120, bots=["casual"])
    seats = {seat.user_id: seat.index for seat in game.seats.all()}
    ann_seat = seats[ann.pk]
    bot_seat = next(index for user_id, index in seats.items() if user_id != ann.pk)
    cookie = session_cookie_for(ann)

    def ann_passes() -> int:
        """Ann passes when it is her turn; the move number she made."""
        assert wait_until(lambda: Game.objects.get(pk=game.pk).to_move == ann_seat, BOT_MOVES_WITHIN), (
            "the bot did not move"
        )
        number = Game.objects.get(pk=game.pk).move_count
        assert post(fault_site, f"/games/{game.pk}/pass/", cookie, {"move_count": number}) == 200
        return number

    # A turn of each, with the worker up.
    ann_passes()
    assert wait_until(lambda: not bot_to_move(game.pk, bot_seat), BOT_MOVES_WITHIN), "the bot did not move"

    mine = ann_passes()
    fault_site.kill("worker")
    killed = time.monotonic()
    time.sleep(3)
    fault_site.restart("worker")
    assert fault_site.worker_ready()
    assert wait_until(
        lambda: Move.objects.filter(game=game, number=mine + 1, seat=bot_seat).exists(), BOT_MOVES_WITHIN
    ), "the bot never answered after the worker was killed"
    answered = time.monotonic() - killed
    time.sleep(6)  # a doubled or late task would move again by now

    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("number"))
    assert [move.number for move in moves] == list(range(len(moves))), "a move is missing or doubled"
    assert game.move_count == len(moves)
    # Turns alternate: nobody moved twice in a row, the bot not for a doubled task either.
    assert all(a.seat != b.seat for a, b in zip(moves, moves[1:]))
    assert [move.seat for move in moves if move.number > mine] == [bot_seat] * (len(moves) - mine - 1)
    # The stored moves replay into the stored game.
    state = selectors.engine_state(game)
    assert list(state.scores) == [seat.score for seat in game.seats.order_by("index")]
    fault_site.note(
        f"crossword worker killed: worker SIGKILLed right after the person's move {mine}, back 3 s later;"
        f" the bot answered {answered:.1f} s after the kill; {len(moves)} moves, none missing or doubled;"
        " replay equals the stored scores"
    )
