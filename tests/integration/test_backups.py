"""A backup restores whole: a played database dumped with pg_dump and restored with pg_restore
into a fresh one gives the same ratings when they are rebuilt, and every game replays to the
scores that were stored (the commands of docs/operations.md, "Backups")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings

from games.crosswords import selectors as crossword_selectors
from games.crosswords import services as crosswords
from games.crosswords.models import Game as CrosswordGame
from games.engine import hunt, movegen
from games.engine import tow as tow_engine
from games.hunts import selectors as hunt_selectors
from games.hunts import services as hunts
from games.hunts.boards import board_of, path_from_text
from games.hunts.models import HuntRound
from games.ratings import services as ratings
from games.ratings.models import Rating
from games.tow import selectors as tow_selectors
from games.tow import services as tow
from games.tow.models import Game as TowGame
from tests.conftest import ROOT, _database_url
from tests.services import postgres_bin_dir

pytestmark = pytest.mark.django_db(transaction=True)
DAY = 86400
BOARD = hunt.Board([["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["p", "l", "u", "m"]])

#: Run on the restored database, as an operator would after a restore.
ON_THE_RESTORED_DATABASE = """
import json
import django
django.setup()
from django.core.management import call_command
from tests.integration.test_backups import fingerprint
stored = fingerprint()
call_command("ratings_rebuild", verbosity=0)
print(json.dumps({"stored": stored, "rebuilt": fingerprint()}))
"""


def fingerprint() -> dict:
    """What a backup must keep: every rating, and each game's stored scores beside the
    scores its moves (or a round's found words) give when replayed by the engine."""
    rated = [
        [r.user.username, r.pool, r.rating, r.games, r.wins, round(r.mu, 9), round(r.sigma, 9)]
        for r in Rating.objects.select_related("user")
    ]
    games = []
    for game in CrosswordGame.objects.order_by("pk"):
        replayed = crossword_selectors.replay_state(game)
        stored = [seat.score for seat in game.seats.order_by("index")]
        games.append(["crossword", game.pk, game.status, stored, list(replayed.scores), replayed.is_over])
    for game in TowGame.objects.order_by("pk"):
        moves = [tow_selectors.engine_move(move) for move in game.moves.order_by("number")]
        replayed = tow_engine.replay(
            game.players, game.seed, moves, tow_selectors.lexicon(game), game.game_number, house_vote=game.house_vote
        )
        stored = [seat.score for seat in game.seats.order_by("index")]
        games.append(["tow", game.pk, game.status, stored, list(replayed.scores), replayed.is_over])
    for game_round in HuntRound.objects.order_by("pk"):
        board, rules = board_of(game_round.board), hunt_selectors.rules_of(game_round)
        found = game_round.found_words.order_by("pk")
        stored = [[f.word, f.points] for f in found]
        rescored = [[f.word, hunt.word_points(rules, board, f.word, path_from_text(board, f.path))] for f in found]
        games.append(["hunt", game_round.pk, game_round.status, stored, rescored, None])
    return {"ratings": sorted(rated), "games": games}


def played_database(make_user) -> None:
    """Ranked games of each kind, finished and rated, and one crossword game still going."""
    ann, bob, cy, dee = (make_user(name) for name in ("ann", "bob", "cy", "dee"))
    for variant in ("wordgrid", "wordgame"):
        game = crosswords.game_create(creator=ann, variant=variant, seconds_per_move=DAY, invitees=[bob], ranked=True)
        # A fixed deal with a play in each of the first racks: a random one sometimes has none.
        CrosswordGame.objects.filter(pk=game.pk).update(seed="queries-short")
        crosswords.game_accept(game_id=game.pk, player=bob)
        for _ in range(4):
            game.refresh_from_db()
            state = crossword_selectors.engine_state(game)
            player = game.seats.get(index=game.to_move).user
            play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
            crosswords.game_play(game_id=game.pk, player=player, placement=play.placement, move_count=game.move_count)
        if variant == "wordgrid":
            crosswords.game_resign(game_id=game.pk, player=bob)
    from tests.integration.test_tow_services import play_best, start

    game = start([cy, dee], ranked=True)
    for _ in range(2):
        game.refresh_from_db()
        play_best(game)
    tow.game_resign(game_id=game.pk, player=dee)
    table = hunts.table_create(host=ann, game="rampage", seat_count=2, ranked=True)
    hunts.table_join(table_id=table.pk, user=cy)
    game_round = hunts.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(board=BOARD.to_text())
    during = game_round.starts_at + timedelta(seconds=1)
    for user, word in ((ann, "cats"), (cy, "ore"), (ann, "ding")):
        assert hunts.round_submit(round_id=game_round.pk, user=user, word=word, now=during).outcome == "accepted"
    hunts.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    for pool in ("wordgrid", "tow", "rampage"):
        assert ratings.ratings_apply(pool=pool) == 1


def pg(program: str, *args: str) -> None:
    result = subprocess.run([str(postgres_bin_dir() / program), *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{program} failed: {result.stderr}"


def test_a_dump_restored_into_a_fresh_database_rebuilds_the_same_ratings_and_replays_every_game(make_user, tmp_path):
    """pg_dump of a played database, pg_restore into a new one: the restored site's rebuilt
    ratings equal the stored ones, and every game there replays to its stored scores."""
    played_database(make_user)
    original = fingerprint()
    assert {kind for kind, *_ in original["games"]} == {"crossword", "tow", "hunt"}
    assert len(original["ratings"]) == 6
    database = settings.DATABASES["default"]
    url = _database_url(database)
    restored_url = f"{url}_restored"
    dump = tmp_path / "wordfall.dump"
    pg("pg_dump", "--format=custom", f"--file={dump}", f"--dbname={url}")
    pg("createdb", f"--maintenance-db={url}", f"{database['NAME']}_restored")
    try:
        pg("pg_restore", "--no-owner", f"--dbname={restored_url}", str(dump))
        result = subprocess.run(
            [sys.executable, "-c", ON_THE_RESTORED_DATABASE],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": restored_url},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        restored = json.loads(result.stdout.strip().splitlines()[-1])
    finally:
        pg("dropdb", f"--maintenance-db={url}", "--force", f"{database['NAME']}_restored")
    assert restored["stored"] == original
    assert restored["rebuilt"]["ratings"] == original["ratings"]
    for kind, pk, status, stored, replayed, _ in restored["stored"]["games"]:
        assert stored == replayed, f"{kind} {pk} ({status}) replays to {replayed}, stored {stored}"
