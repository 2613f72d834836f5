"""Crossword requests early and late in a game: preview, page and move, against their budgets.

Run with ``python -m bench.bench_crossword_requests [--repeat 15]``. Needs PostgreSQL (its
own database, $BENCH_DATABASE_URL, default ``postgres://postgres@127.0.0.1:5432/wg_bench_crossword``,
created and migrated if missing) and Redis ($BENCH_REDIS_URL, default $REDIS_URL).

Four-player Word Grid games are played to move 2 and to move 60 with real plays, then
each request goes through the whole Django stack in this process (middleware, session,
the view, templates, PostgreSQL), as the board sends it:

- preview: the tiles laid so far (the best play of the rack), sent on each tile placed;
- page: the whole game page; area: the play area alone (the htmx partial);
- move: a play, answered with the new play area (one request, as the board sends it);
  move alone: a play answered with JSON (half the moves each).

Each player has one test client for the whole run, signed in once and warmed by one
untimed request, as a browser keeps its session: a new client loads the middleware on its
first request, and WhiteNoise's then indexes every collected static file (30-50 ms), which
no server does per request. Static files are collected first (``collectstatic``) and served
with the server's own storage (the hashed names of the manifest), as in server mode.

Server time is the CPU time this process spends from the request entering Django to its
response, in all its threads (a broadcast is sent by a thread of its own outside a
server; the machine is shared, so wall time says more about the neighbours; it is
printed beside), median of ``--repeat`` requests over several games (moves: four in each
game, from move 60 to 63 and 2 to 5). Early and late games take turns request by
request, so a change in the machine's load weighs on both lengths alike. The process
has served the game before (its engine state is kept); the first request of a process,
which replays the game from its seed, is reported beside (cold).

Budgets: preview < 5 ms, move < 20 ms, page < 30 ms, each at move 2 and at move 60, and
move 60 within 20 % of move 2. A missed budget is reported, and fails the run only with
--strict.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.django_env import bench_env, ensure_database

ROOT = Path(__file__).resolve().parent.parent
BUDGETS_MS = {"preview": 5.0, "move alone": 20.0, "move": 20.0, "page": 30.0, "area": 30.0}
FLAT = 1.20
LENGTHS = (2, 60)
MOVES_PER_GAME = 4


def _env() -> dict[str, str]:
    return bench_env("wg_bench_crossword")


_ensure_database = ensure_database


def _short_play(state):
    """The best-scoring play of the fewest tiles, so a game lasts past move 60."""
    from games.engine import movegen

    plays = movegen.generate(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    return min(plays, key=lambda p: (len(p.placement), -p.score), default=None)


def _game_at(users, seed: str, moves: int):
    """A four-player Word Grid game with ``moves`` moves played, or None if it ended sooner."""
    from games.crosswords import selectors, services
    from games.crosswords.models import Game

    game = services.game_create(creator=users[0], variant="wordgrid", seconds_per_move=86400, invitees=users[1:])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        services.game_accept(game_id=game.pk, player=user)
    game.refresh_from_db()
    while game.move_count < moves:
        state = selectors.engine_state(game)
        user = game.seats.get(index=state.to_move).user
        play = _short_play(state)
        if play is not None:
            services.game_play(game_id=game.pk, player=user, placement=play.placement, move_count=game.move_count)
        elif len(state.bag) >= 7:
            services.game_swap(
                game_id=game.pk, player=user, tiles=state.racks[state.to_move], move_count=game.move_count
            )
        else:
            return None
        game.refresh_from_db()
        if game.status != "active":
            return None
    return game


def _timed(times: dict, name: str, call, *args, **kwargs):
    """Run ``call`` and note this process's CPU time (ms, every thread) under ``name``,
    its wall time under ``name + " wall"``; the wall time adds PostgreSQL's and Redis's
    work and any wait for a core on a busy machine."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call(*args, **kwargs)
    times.setdefault(name, []).append((time.process_time() - cpu) * 1000)
    times.setdefault(name + " wall", []).append((time.perf_counter() - wall) * 1000)
    return result


_CLIENTS: dict[int, object] = {}


def _player_client(user):
    """The player's one test client, signed in and warmed (its middleware loaded) untimed."""
    from django.test import Client

    if user.pk not in _CLIENTS:
        client = Client()
        client.force_login(user)
        assert client.get("/games/").status_code == 200
        _CLIENTS[user.pk] = client
    return _CLIENTS[user.pk]


def _client(game):
    """The test client of the player to move in ``game``, with the data of their best play."""
    from games.crosswords import selectors
    from games.engine import movegen

    game.refresh_from_db()
    state = selectors.engine_state(game)
    client = _player_client(game.seats.get(index=state.to_move).user)
    play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    if play is None:
        return client, None
    return client, {"placement": json.dumps([list(t) for t in play.placement]), "move_count": game.move_count}


def _measure(games: dict[int, list], repeat: int) -> dict[int, dict[str, list[float]]]:
    """Time each kind of request at each game length.

    The lengths take turns request by request, so a change in the machine's load during
    the run weighs on move 2 and move 60 alike (the flatness budget compares them).
    """
    from games.crosswords import selectors

    times: dict[int, dict[str, list[float]]] = {length: {} for length in games}
    count = min(len(g) for g in games.values())
    for n in range(count):
        for length, row in games.items():
            client, _ = _client(row[n])
            selectors.STATES.clear()
            selectors.HISTORY.clear()
            _timed(times[length], "cold", client.get, f"/games/{row[n].pk}/", HTTP_HX_REQUEST="true")
    clients = {length: [_client(game) for game in row[:count]] for length, row in games.items()}
    for r in range(repeat):
        for length, row in games.items():
            url = f"/games/{row[r % count].pk}/"
            client, data = clients[length][r % count]
            response = _timed(times[length], "preview", client.post, url + "preview/", data)
            assert response.status_code == 200 and response.json()["legal"], response.content[:200]
            response = _timed(times[length], "page", client.get, url)
            assert response.status_code == 200
            _timed(times[length], "area", client.get, url, HTTP_HX_REQUEST="true")
    # Moves: MOVES_PER_GAME in each game, by whoever is to move, answered in turn with the
    # new play area (as the board asks) and with JSON.
    for n in range(count):
        for step in range(MOVES_PER_GAME):
            for length, row in games.items():
                game = row[n]
                client, data = _client(game)
                if data is None:
                    continue
                url = f"/games/{game.pk}/play/"
                if (n + step) % 2 == 0:
                    response = _timed(times[length], "move", client.post, url, data, HTTP_HX_REQUEST="true")
                    assert response["Content-Type"].startswith("text/html"), response.content[:200]
                else:
                    response = _timed(times[length], "move alone", client.post, url, data)
                    assert response.json()["ok"], response.content[:200]
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)

    env = _env()
    os.environ.update(env)
    _ensure_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model

    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    run = f"{int(time.time()) % 1000000}"
    User = get_user_model()
    assert "Manifest" in settings.STORAGES["staticfiles"]["BACKEND"], "the server's static storage"
    games: dict[int, list] = {}
    made = 0
    for length in LENGTHS:
        games[length], seed = [], 0
        while len(games[length]) < max(6, args.repeat // 2):
            seed += 1
            # Four new players every few games: a player sends at most 30 invitations an hour.
            if made % 8 == 0:
                group = made // 8
                users = [
                    User.objects.create_user(f"cw{run}g{group}p{n}", f"cw{run}g{group}p{n}@bench.invalid")
                    for n in range(4)
                ]
            made += 1
            game = _game_at(users, f"bench-{run}-{length}-{seed}", length)
            if game is not None:
                games[length].append(game)
    results = _measure(games, args.repeat)
    early, late = LENGTHS
    ok = True
    print(
        f"crossword requests: server CPU time in ms of the Django process (median), wall time "
        f"beside; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for name, budget in BUDGETS_MS.items():
        a, b = (statistics.median(results[n][name]) for n in LENGTHS)
        wa, wb = (statistics.median(results[n][name + " wall"]) for n in LENGTHS)
        flat = b <= a * FLAT
        met = a < budget and b < budget and flat
        ok = ok and met
        print(
            f"{name:10s} move {early}: {a:6.2f}   move {late}: {b:6.2f}   ratio {b / a:4.2f}   "
            f"(wall {wa:.1f} / {wb:.1f})   [budget < {budget:.0f} ms, flat within {FLAT - 1:.0%}] "
            f"{'ok' if met else 'NOT MET'}"
        )
    print(
        f"cold       move {early}: {statistics.median(results[early]['cold']):6.2f}   "
        f"move {late}: {statistics.median(results[late]['cold']):6.2f}   (play area of a game this process "
        f"has not served: replay from the seed; no budget)"
    )
    print("budgets: " + ("OK" if ok else "NOT MET"))
    return 1 if args.strict and not ok else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
