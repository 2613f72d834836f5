"""Crossword bots on PostgreSQL: accounts, turns through the services, idempotent tasks,
the sweep, engine failures, starting games against bots, and post-game analysis."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import seating
from games.crosswords import selectors, services
from games.crosswords.models import Analysis, Bot, BotError, Game, Move, Seat, Status
from games.crosswords.services import analysis, bots
from games.engine import crossword_bot, leaves, movegen
from games.engine.crossword_bot import Position

DAY = 86400
LIVE = 300


def human_move(game, user):
    """The person's move: the top-scoring play, else a whole-rack swap, else a pass."""
    game.refresh_from_db()
    state = selectors.engine_state(game)
    rack = state.racks[state.to_move]
    play = movegen.best(state.board, rack, state.variant, state.lexicon)
    if play is not None:
        return services.game_play(game_id=game.pk, player=user, placement=play.placement, move_count=game.move_count)
    if len(state.bag) >= len(rack):
        return services.game_swap(game_id=game.pk, player=user, tiles=rack, move_count=game.move_count)
    return services.game_pass(game_id=game.pk, player=user, move_count=game.move_count)


def seat_of(game, user):
    return Seat.objects.get(game=game, user=user).index


@pytest.fixture
def no_delay(monkeypatch):
    monkeypatch.setattr(bots, "LIVE_DELAY", (0.0, 0.0))
    monkeypatch.setattr(bots, "CORRESPONDENCE_DELAY", (0.0, 0.0))


# -- accounts and starting games ----------------------------------------------------


@pytest.mark.django_db
def test_bot_accounts_are_flagged_and_created_once():
    """A bot account per variant and strength (three per strength in Word Grid), flagged
    is_bot, without a usable password; asking again returns the same account."""
    user = bots.bot_user("wordgrid", "expert")
    assert user.is_bot and not user.has_usable_password()
    assert user.username == "wordgrid-expert-bot" and "Word Grid" in user.shown_name
    assert bots.bot_user("wordgrid", "expert") == user
    assert Bot.objects.get(user=user).strength == "expert"
    assert bots.bot_user("wordgrid", "expert", 2) != user
    with pytest.raises(services.Refused):
        bots.bot_user("wordgrid", "grandmaster")


@pytest.mark.django_db
def test_a_game_against_a_bot_starts_at_once(make_user, django_capture_on_commit_callbacks):
    """Only bots besides the creator: the game starts now; a bot opening gets its task queued."""
    ann = make_user("ann")
    game = bots.game_create_with_bots(creator=ann, variant="wordgrid", seconds_per_move=LIVE, bots=["club"])
    assert game.status == Status.ACTIVE and not game.is_open_seek
    seats = list(game.seats.select_related("user"))
    assert [s.user.is_bot for s in seats] == [False, True] and all(s.accepted for s in seats)
    assert not game.ranked


@pytest.mark.django_db
def test_word_grid_mixes_people_and_bots(make_user):
    """Creator, an invitee and two bots of one strength: the bots are seated, the game
    waits for the invitee, and two bots of a strength are two accounts."""
    ann, bob = make_user("ann"), make_user("bob")
    game = bots.game_create_with_bots(
        creator=ann, variant="wordgrid", seconds_per_move=DAY, bots=["casual", "casual"], invitees=[bob]
    )
    assert game.status == Status.WAITING and game.players == 4
    users = [s.user for s in game.seats.order_by("index")]
    assert users[:2] == [ann, bob] and users[2].is_bot and users[3].is_bot and users[2] != users[3]
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE


@pytest.mark.django_db
def test_bad_bot_games_are_refused(make_user):
    ann = make_user("ann")
    with pytest.raises(services.Refused, match="takes 2–2 players"):
        bots.game_create_with_bots(creator=ann, variant="wordgame", seconds_per_move=DAY, bots=["club", "expert"])
    with pytest.raises(services.Refused, match="At most 1"):
        bots.game_create_with_bots(creator=ann, variant="wordgame", seconds_per_move=DAY, bots=["club", "club"])
    with pytest.raises(services.Refused):
        bots.game_create_with_bots(creator=ann, variant="wordgame", seconds_per_move=DAY, bots=[])
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_new_game_pages_start_games_against_bots(client, make_user):
    """The home page's quick form and the new-game form both start bot games; the new-game
    page no longer says bots come later."""
    ann = make_user("ann")
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert f'action="{reverse("crosswords:play_bot")}"' in home
    page = client.get(reverse("crosswords:new")).content.decode()
    assert "comes later" not in page and "Play a bot now" in page
    response = client.post(
        reverse("crosswords:play_bot"),
        {"bot-variant": "wordgame", "bot-strength": "expert", "bot-seconds_per_move": LIVE},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert game.status == Status.ACTIVE and game.variant == "wordgame"
    response = client.post(
        reverse("crosswords:new"),
        {
            "variant": "wordgrid",
            "seconds_per_move": DAY,
            "invitees": "",
            "open_seats": 1,
            "bot_1": "beginner",
            "bot_2": "expert",
            "bot_3": "",
        },
    )
    game = Game.objects.exclude(variant="wordgame").get()
    assert game.players == 4 and game.status == Status.WAITING and game.is_open_seek
    bad = client.post(
        reverse("crosswords:play_bot"),
        {"bot-variant": "wordgame", "bot-strength": "grandmaster", "bot-seconds_per_move": LIVE},
    )
    assert bad.status_code == 200 and Game.objects.count() == 2


# -- bot turns ----------------------------------------------------------------------


def started_against(make_user, variant="wordgrid", strength="club", seconds=DAY):
    ann = make_user("ann")
    game = bots.game_create_with_bots(creator=ann, variant=variant, seconds_per_move=seconds, bots=[strength])
    return ann, game


def to_bot_turn(game, ann):
    game.refresh_from_db()
    if game.to_move == seat_of(game, ann):
        human_move(game, ann)
        game.refresh_from_db()
    assert game.seats.get(index=game.to_move).user.is_bot
    return game


@pytest.mark.django_db
def test_bot_turn_moves_through_the_services_and_twice_does_nothing(make_user):
    """The bot's move is stored like a person's; a doubled or late task finds the move
    number moved on and does nothing."""
    ann, game = started_against(make_user)
    game = to_bot_turn(game, ann)
    count = game.move_count
    move = bots.bot_turn(game_id=game.pk, move_count=count)
    assert move is not None and move.number == count
    assert bots.bot_turn(game_id=game.pk, move_count=count) is None
    assert Move.objects.filter(game=game, number=count).count() == 1
    game.refresh_from_db()
    assert game.move_count == count + 1 and game.to_move == seat_of(game, ann)
    # The stored game replays: the bot's move was legal.
    assert selectors.engine_state(game).turns[-1].move.seat == move.seat


@pytest.mark.django_db
def test_the_champion_plays_correspondence_games_within_its_cpu_time(make_user, monkeypatch):
    """The champion simulates until its CPU time per move runs out, then moves through
    the services like any bot."""
    monkeypatch.setattr(bots, "CHAMPION_CPU_SECONDS", 0.5)
    asked = []
    simulate = crossword_bot.simulate

    def counted(position, pool, leave_value, rng, budget, out_of_time=None):
        asked.append(budget)
        return simulate(position, pool, leave_value, rng, budget, out_of_time)

    monkeypatch.setattr(crossword_bot, "simulate", counted)
    ann, game = started_against(make_user, variant="wordgame", strength="champion", seconds=DAY)
    game = to_bot_turn(game, ann)
    started = time.process_time()
    move = bots.bot_turn(game_id=game.pk, move_count=game.move_count)
    assert move is not None
    assert time.process_time() - started < 0.5 + 5.0  # the last rack's searches, the move itself
    assert asked in ([], [bots.CHAMPION_BUDGET])  # a lone candidate is played without simulating


@pytest.mark.django_db
def test_the_champion_is_not_offered_in_live_games(make_user):
    """A live game cannot wait for the champion's simulation: refused before anything is written."""
    ann = make_user("ann")
    with pytest.raises(services.Refused, match="correspondence games only"):
        bots.game_create_with_bots(creator=ann, variant="wordgame", seconds_per_move=LIVE, bots=["champion"])
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_human_move_queues_the_bot_after_commit(make_user, django_capture_on_commit_callbacks, monkeypatch):
    """The bot's task is queued only when the person's move commits, at the new move number."""
    sent = []
    from games.crosswords import tasks

    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda args, countdown: sent.append((args, countdown)))
    ann, game = started_against(make_user, seconds=LIVE)
    with django_capture_on_commit_callbacks(execute=True):
        human_move(game, ann)
    game.refresh_from_db()
    assert [args for args, _ in sent] == [(game.pk, game.move_count)]
    assert all(bots.LIVE_DELAY[0] <= countdown <= bots.LIVE_DELAY[1] for _, countdown in sent)


@pytest.mark.django_db
def test_the_sweep_moves_a_bot_whose_task_was_lost(make_user):
    """No task ran (these tests never run on-commit callbacks): the sweep leaves the bot
    alone until its due time plus the live grace and moves it after."""
    ann, game = started_against(make_user, seconds=LIVE)
    game = to_bot_turn(game, ann)
    count = game.move_count
    assert bots.bots_sweep() == 0
    later = game.bot_due_at + seating.LIVE_SWEEP_GRACE
    assert bots.bots_sweep(now=later - timedelta(seconds=1)) == 0
    assert bots.bots_sweep(now=later + timedelta(seconds=1)) == 1
    game.refresh_from_db()
    assert game.move_count == count + 1
    assert bots.bots_sweep(now=later + timedelta(seconds=1)) == 0


@pytest.mark.django_db
@pytest.mark.parametrize(("seconds", "grace"), [(LIVE, "LIVE_SWEEP_GRACE"), (DAY, "CORRESPONDENCE_SWEEP_GRACE")])
def test_the_bot_due_time_is_stored_when_its_turn_is_queued(
    make_user, django_capture_on_commit_callbacks, monkeypatch, seconds, grace
):
    """Queuing the bot's turn stores its due time (the task's countdown from now); the
    sweep goes by that time, with a short grace in live games and a longer one by
    correspondence, not by when the last move was made."""
    from games.crosswords import tasks

    sent = []
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda args, countdown: sent.append(countdown))
    ann, game = started_against(make_user, seconds=seconds)
    game = to_bot_turn(game, ann)
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        bots.queue_turn(game)
    stored = Game.objects.get(pk=game.pk).bot_due_at
    assert stored == game.bot_due_at
    assert before + timedelta(seconds=sent[-1]) <= stored <= timezone.now() + timedelta(seconds=sent[-1])
    # The turn began long ago: only the stored due time counts.
    Move.objects.filter(game=game).update(created_at=before - timedelta(days=3))
    grace = getattr(seating, grace)
    assert bots.bots_sweep(now=stored + grace - timedelta(seconds=1)) == 0
    assert bots.bots_sweep(now=stored + grace + timedelta(seconds=1)) == 1
    assert seating.LIVE_SWEEP_GRACE <= timedelta(seconds=2) < seating.CORRESPONDENCE_SWEEP_GRACE


@pytest.mark.django_db
def test_an_engine_error_is_recorded_and_the_bot_passes(client, make_user, monkeypatch, caplog):
    """The engine raises: the failure is logged with the position, kept for the admins
    (listed in the admin), and the bot passes, so the game goes on."""
    ann, game = started_against(make_user)
    game = to_bot_turn(game, ann)

    def broken(*args, **kwargs):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(crossword_bot, "choose", broken)
    move = bots.bot_turn(game_id=game.pk, move_count=game.move_count)
    assert move.kind == "pass"
    error = BotError.objects.get()
    assert "engine exploded" in error.error and error.rack and len(error.board.splitlines()) == 15
    assert "engine exploded" in caplog.text and error.rack in caplog.text
    game.refresh_from_db()
    assert game.to_move == seat_of(game, ann)
    admin = make_user("admin", is_staff=True, is_superuser=True)
    client.force_login(admin)
    listing = client.get(reverse("admin:crosswords_boterror_changelist"))
    assert listing.status_code == 200 and error.rack in listing.content.decode()


def off_rack_play(position):
    """A placement the board accepts (its words are words) made with tiles the bot does not hold."""
    from collections import Counter

    for play in movegen.generate(position.board, "aeinrst", position.variant, position.lexicon):
        needed = Counter("?" if blank else letter for _, _, letter, blank in play.placement)
        if needed - Counter(position.rack):
            return play
    raise AssertionError(f"every play of 'aeinrst' is also on the rack {position.rack!r}")


@pytest.mark.django_db
def test_a_bot_move_with_tiles_off_its_rack_is_refused_recorded_and_passed(make_user, monkeypatch):
    """The service checks a bot's move like anyone's: a play that would be legal but uses
    tiles the bot does not hold is refused for that reason, kept for the admins, and the bot passes."""
    ann, game = started_against(make_user)
    game = to_bot_turn(game, ann)
    from games.engine import crossword
    from games.engine.crossword_game import Move as EngineMove

    chosen = []

    def choose(position, *args, **kwargs):
        play = off_rack_play(position)
        crossword.evaluate(position.board, play.placement, position.variant, position.lexicon)  # legal on the board
        chosen.append(play)
        return EngineMove.place(position.seat, play.placement)

    monkeypatch.setattr(crossword_bot, "choose", choose)
    move = bots.bot_turn(game_id=game.pk, move_count=game.move_count)
    assert chosen and move.kind == "pass"
    assert "not on your rack" in BotError.objects.get().error
    assert not Move.objects.filter(game=game, kind="place", seat=move.seat).exists()


@pytest.mark.django_db
def test_rematch_against_a_bot_starts_at_once(make_user):
    ann, game = started_against(make_user, seconds=LIVE)
    services.game_resign(game_id=game.pk, player=ann)
    rematch = services.game_rematch(game_id=game.pk, player=ann)
    assert rematch.status == Status.ACTIVE and rematch.game_number == 2


# -- through a real worker ------------------------------------------------------------


def play_to_the_end(game, ann, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            return game
        if game.to_move == seat_of(game, ann):
            human_move(game, ann)
        else:
            time.sleep(0.05)
    raise AssertionError(f"the game did not end: {game.move_count} moves")


@pytest.mark.parametrize("variant, strength", [("wordgrid", "expert"), ("wordgame", "club")])
def test_a_game_against_a_bot_plays_to_the_end_in_a_real_worker(celery_worker, make_user, no_delay, variant, strength):
    """Every bot turn is a Celery task queued after the person's move; the game ends by the
    rules, every stored move replays, and the finished game is analysed by its task."""
    ann, game = started_against(make_user, variant=variant, strength=strength, seconds=LIVE)
    game = play_to_the_end(game, ann)
    bot_moves = Move.objects.filter(game=game).exclude(seat=seat_of(game, ann))
    assert bot_moves.filter(kind="place").count() >= 5
    assert not BotError.objects.exists()
    assert selectors.engine_state(game).is_over
    deadline = time.monotonic() + 60
    while not Analysis.objects.filter(game=game).exists():
        assert time.monotonic() < deadline, "the analysis task did not run"
        time.sleep(0.1)


# -- analysis -------------------------------------------------------------------------


def finished_game(make_user):
    """A two-person Word Grid game played to its natural end (the last turns with the
    bag empty): random plays early on, then the top-scoring play."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed="analysis-1")
    services.game_accept(game_id=game.pk, player=bob)
    users = {0: ann, 1: bob}
    rng = random.Random(1)
    for number in range(200):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            break
        if number >= 6:
            human_move(game, users[game.to_move])
            continue
        state = selectors.engine_state(game)
        plays = movegen.generate(state.board, state.racks[state.to_move], state.variant, state.lexicon)
        services.game_play(
            game_id=game.pk,
            player=users[state.to_move],
            placement=rng.choice(plays).placement,
            move_count=game.move_count,
        )
    game.refresh_from_db()
    assert game.status == Status.FINISHED and not selectors.engine_state(game).bag
    return game


@pytest.mark.django_db
def test_analysis_equals_direct_engine_calls_and_is_written_once(make_user):
    """Each analysed move's best plays are the engine's top plays by equity in that
    position; the played score is the stored one; a second run returns the same row."""
    game = finished_game(make_user)
    result = analysis.game_analyse(game_id=game.pk)
    stored = list(game.moves.order_by("number"))
    rows = {row["number"]: row for row in result.moves}
    assert sorted(rows) == [m.number for m in stored if m.kind in ("place", "swap", "pass")]
    table = leaves.learned("wordgrid")
    state = selectors.engine_state(game, moves=[])
    swaps = 0
    for move in stored:
        engine_move = selectors.engine_move(move)
        if move.number in rows:
            row = rows[move.number]
            position = Position.of(state, move.seat)
            direct = crossword_bot.ranked(position, table, analysis.ALTERNATIVES + analysis.SPARE_ALTERNATIVES)
            assert [(b["score"], b["placement"]) for b in row["best"]] == [
                (p.score, [list(t) for t in p.placement]) for p in direct
            ]
            assert row["played"]["score"] == move.score
            top = movegen.best(state.board, position.rack, state.variant, state.lexicon)
            assert row["score_loss"] == max(0, top.score - move.score)
            # The best swap is weighed too: a move is judged against it as against plays.
            swap = crossword_bot.best_swap(position, crossword_bot.leave_function(position, table))
            if swap is None:
                assert row["best_swap"] is None
            else:
                swaps += 1
                assert (row["best_swap"]["tiles"], row["best_swap"]["equity"]) == (swap[1], round(swap[0], 1))
                assert row["equity_loss"] >= round(swap[0] - row["played"]["equity"], 1) - 0.1
            best_play = direct[0].equity if direct else row["played"]["equity"]
            assert row["equity_loss"] == pytest.approx(
                max(0.0, best_play - row["played"]["equity"], (swap[0] if swap else 0) - row["played"]["equity"]),
                abs=0.11,
            )
        state = state.apply(engine_move)
    assert swaps > 0
    assert analysis.game_analyse(game_id=game.pk) == result
    assert Analysis.objects.count() == 1
    summary = {row["seat"]: row for row in result.summary}
    mine = [r for r in result.moves if r["seat"] == 0]
    assert summary[0]["average_equity_loss"] == pytest.approx(sum(r["equity_loss"] for r in mine) / len(mine), abs=0.06)


@pytest.mark.django_db
def test_analysis_hides_offensive_words_unless_the_viewer_chose_to_see_them(client, make_user):
    """An alternative that forms an offensive word is left out of the replay and of the
    best move missed, and the next alternative shown instead, unless the viewer chose to
    see such words (the setting of the hunts' "words nobody found")."""
    from lexicon.services import offensive_words_show

    game = finished_game(make_user)
    result = analysis.game_analyse(game_id=game.pk)
    moves, summary = result.moves, result.summary
    row = next(r for r in moves if r["seat"] == 0 and len(r["best"]) > analysis.ALTERNATIVES)
    hidden = {**row["best"][0], "word": "CRAP", "words": ["crap", "at"], "equity": row["best"][0]["equity"] + 500}
    row["best"][0] = hidden
    row["equity_loss"] = round(hidden["equity"] - row["played"]["equity"], 1)
    summary[0]["best_missed"] = {"number": row["number"], **hidden, "equity_loss": row["equity_loss"]}
    Analysis.objects.filter(pk=result.pk).update(moves=moves, summary=summary)
    ann = game.created_by
    client.force_login(ann)

    def shown():
        frames = client.get(reverse("crosswords:replay", args=[game.pk])).json()["frames"]
        page = client.get(game.get_absolute_url()).content.decode()
        return frames[row["number"] + 1]["analysis"]["best"], page

    best, page = shown()
    assert "CRAP" not in [alt["word"] for alt in best] and "CRAP" not in page
    # The replay's alternatives carry each tile's value after the stored placement.
    assert [[tile[:4] for tile in alt["placement"]] for alt in best] == [
        alt["placement"] for alt in row["best"][1 : analysis.ALTERNATIVES + 1]
    ]
    assert "Best play missed" in page
    offensive_words_show(user=ann, show=True)
    best, page = shown()
    assert best[0]["word"] == "CRAP" and len(best) == analysis.ALTERNATIVES
    assert "CRAP at" in page


@pytest.mark.django_db
def test_no_analysis_before_the_end_and_the_replay_shows_it(client, make_user):
    game = finished_game(make_user)
    client.force_login(game.created_by)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "being prepared" in page
    analysis.game_analyse(game_id=game.pk)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Average equity loss" in page and "Best play missed" in page
    frames = client.get(reverse("crosswords:replay", args=[game.pk])).json()["frames"]
    assert frames[1]["analysis"]["number"] == 0 and frames[1]["analysis"]["best"]
    active = Game.objects.create(
        variant="wordgrid",
        players=2,
        lexicon_code="common",
        lexicon_version=1,
        seconds_per_move=DAY,
        status=Status.ACTIVE,
        created_by=game.created_by,
    )
    assert analysis.game_analyse(game_id=active.pk) is None


@pytest.mark.django_db
def test_a_bot_is_chosen_and_seated_with_its_rating(client, make_user):
    """The bot menus give each strength's rating in both pools; the game page gives the
    seated bot's rating in the game's pool (``bot_ratings``)."""
    from games.engine import bot_ratings

    ann = make_user("ann")
    client.force_login(ann)
    expert = {pool: bot_ratings.rating(pool, "expert") for pool in ("wordgrid", "wordgame")}
    label = f"Expert (Word Grid {expert['wordgrid']}, Wordgame {expert['wordgame']})"
    assert label in client.get("/").content.decode()
    assert label in client.get(reverse("crosswords:new")).content.decode()
    game = bots.game_create_with_bots(creator=ann, variant="wordgame", seconds_per_move=DAY, bots=["expert"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"bot · {expert['wordgame']}</span>" in page
