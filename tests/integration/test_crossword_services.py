"""Crossword services on PostgreSQL: whole games, refusals, races, sweeps, notifications."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Notification
from games.crosswords import selectors, services
from games.crosswords.models import Game, Move, Seat, Status
from games.crosswords.services import Refused, deadlines
from games.engine import crossword, movegen

DAY = 86400
pytestmark = pytest.mark.django_db


def start(variant, users, seed="seed-1", seconds=DAY):
    """Create a game by invitation, fix its seed, and have everyone accept."""
    game = services.game_create(creator=users[0], variant=variant, seconds_per_move=seconds, invitees=users[1:])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        services.game_accept(game_id=game.pk, player=user)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    return game


def seat_user(game, index):
    return Seat.objects.get(game=game, index=index).user


def best_move(game):
    """Play the best move for the player to move, swap if none and the bag allows, else pass."""
    game.refresh_from_db()
    state = selectors.engine_state(game)
    user = seat_user(game, state.to_move)
    rack = state.racks[state.to_move]
    play = movegen.best(state.board, rack, state.variant, state.lexicon)
    if play is not None:
        return services.game_play(game_id=game.pk, player=user, placement=play.placement, move_count=game.move_count)
    if len(state.bag) >= len(rack):
        return services.game_swap(game_id=game.pk, player=user, tiles=rack, move_count=game.move_count)
    return services.game_pass(game_id=game.pk, player=user, move_count=game.move_count)


def pass_turn(game):
    game.refresh_from_db()
    return services.game_pass(game_id=game.pk, player=seat_user(game, game.to_move), move_count=game.move_count)


def assert_consistent(game):
    """The stored columns agree with a replay of the stored moves."""
    game.refresh_from_db()
    state = selectors.engine_state(game)
    assert game.move_count == Move.objects.filter(game=game).count() == len(state.turns)
    for seat in game.seats.all():
        assert seat.score == state.scores[seat.index]
    assert (game.status == Status.FINISHED) == state.is_over
    if not state.is_over:
        assert game.to_move == state.to_move
    return state


@pytest.mark.parametrize("variant, players", [("wordgrid", 2), ("wordgrid", 4), ("wordgame", 2)])
def test_a_whole_game_is_played_to_the_end(make_user, variant, players):
    """Best moves until a player goes out: end adjustments, places and replay are stored."""
    users = [make_user(n) for n in ("ann", "bob", "cy", "di")[:players]]
    ann = users[0]
    game = start(variant, users)
    rack_size = crossword.VARIANTS[variant].rack_size
    swapped_when_small = False
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Status.FINISHED:
            break
        state = selectors.engine_state(game)
        if 0 < len(state.bag) < rack_size and not swapped_when_small:
            swapped_when_small = True
            with pytest.raises(Refused, match="bag holds only"):
                services.game_swap(
                    game_id=game.pk,
                    player=seat_user(game, game.to_move),
                    tiles=state.racks[game.to_move],
                    move_count=game.move_count,
                )
        best_move(game)
    state = assert_consistent(game)
    assert swapped_when_small, "the bag never held fewer tiles than a rack"
    assert game.status == Status.FINISHED and game.end_reason
    assert game.to_move is None and game.deadline is None
    places = sorted(game.seats.values_list("place", flat=True))
    assert places[0] == 1 and len(places) == players
    assert state.end_reason == "went out"  # the bag ran out and a player played their last tile
    assert sum(state.adjustments) == 0 and state.adjustments[state.went_out] > 0
    view = selectors.game_view(game=game, viewer=ann)
    assert view.result and view.finished
    assert [s.tiles_left for s in view.seats] == list(state.racks)  # shown once it is over
    assert view.has_adjustments and any(s.tiles_left for s in view.seats)
    lines = {line.number: line for line in view.history}
    for move in Move.objects.filter(game=game, kind="place"):
        line = lines[move.number + 1]
        assert line.all_tiles == (len(move.placement) == rack_size)
        if len(move.words) == 1:  # the play's score is shown once; blanks in lower case
            assert line.text.upper() == move.words[0][0].upper()
        else:
            assert all(f"{w.upper()} {p}" in line.text.upper() for w, p in move.words)
        # Every tile of a play lies on its main word (earlier blanks may too).
        assert sum(ch.islower() for ch in line.text.split(",")[0]) >= sum(1 for tile in move.placement if tile[3])
    frames = selectors.replay_frames(game=game)
    assert len(frames) == game.move_count + 1
    assert frames[-1]["scores"] == [s.score for s in game.seats.order_by("index")]


def test_four_player_word_grid_ends_after_two_scoreless_rounds(make_user):
    """With 4 players, 8 scoreless turns in a row end the game; everyone loses their rack."""
    users = [make_user(n) for n in ("ann", "bob", "cy", "di")]
    game = start("wordgrid", users)
    assert game.to_move == 0  # seat 1 opens game 1 of a series
    best_move(game)
    best_move(game)
    for _ in range(8):
        pass_turn(game)
    state = assert_consistent(game)
    assert game.status == Status.FINISHED
    assert state.end_reason == "scoreless turns"
    assert all(a <= 0 for a in state.adjustments)


@pytest.mark.parametrize("variant, passes", [("wordgrid", 3), ("wordgame", 2)])
def test_the_player_to_move_is_told_when_a_pass_would_end_the_game(make_user, variant, passes):
    """Word Grid ends after 2 × players scoreless turns, Wordgame after 3 passes in a row."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start(variant, [ann, bob], seed="pass-ends")
    best_move(game)  # a play first, so Wordgame's opening redeal is not in the way
    for n in range(passes + 1):
        game.refresh_from_db()
        mover = seat_user(game, game.to_move)
        view = selectors.game_view(game=game, viewer=mover)
        assert view.pass_ends_game == (n == passes), n
        other = selectors.game_view(game=game, viewer=ann if mover == bob else bob)
        assert not other.pass_ends_game  # only the player to move is asked
        if n < passes:
            pass_turn(game)
    pass_turn(game)
    game.refresh_from_db()
    assert game.status == Status.FINISHED


def test_wordgame_redeals_after_two_opening_passes_and_ends_after_three_passes(make_user):
    """Wordgame: two opening passes redeal both racks; three passes in a row end it."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start("wordgame", [ann, bob], seed="wg-7")
    racks = selectors.engine_state(game).racks
    pass_turn(game)
    pass_turn(game)
    state = assert_consistent(game)
    assert state.racks != racks and all(len(r) == 8 for r in state.racks)
    assert Move.objects.get(game=game, number=1).redeal
    view = selectors.game_view(game=game, viewer=ann)
    assert "dealt again" in view.history[-1].text
    best_move(game)
    for _ in range(3):
        pass_turn(game)
    assert_consistent(game)
    assert game.status == Status.FINISHED


def test_a_blank_is_played_with_its_declared_letter_and_scores_zero(make_user):
    """A blank placed as a letter is stored as a blank, shows violet and is worth 0."""
    ann, bob = make_user("ann"), make_user("bob")
    seed = next(f"blank-{n}" for n in range(500) if "?" in _opening_rack("wordgrid", f"blank-{n}"))
    game = start("wordgrid", [ann, bob], seed=seed)
    state = selectors.engine_state(game)
    user = seat_user(game, state.to_move)
    plays = [
        p
        for p in movegen.generate(state.board, state.racks[state.to_move], state.variant, state.lexicon)
        if any(t[3] for t in p.placement)
    ]
    play = max(plays, key=lambda p: p.score)
    services.game_play(game_id=game.pk, player=user, placement=play.placement, move_count=0)
    move = Move.objects.get(game=game, number=0)
    assert move.score == play.score and any(tile[3] for tile in move.placement)
    view = selectors.game_view(game=game, viewer=ann)
    blanks = [sq for row in view.rows for sq in row if sq.blank]
    assert blanks and all(sq.value == 0 for sq in blanks)
    # The history writes the word as players do: capitals, the blank in lower case.
    main = view.history[0].text.split(",")[0].split(" ")[0]
    assert main.upper() == play.main_word.upper()
    assert sorted(ch for ch in main if ch.islower()) == sorted(t[2] for t in play.placement if t[3])
    assert main in selectors.replay_frames(game=game)[1]["text"]
    other = ann if user == bob else bob
    assert Notification.objects.get(user=other, kind="crossword.turn").text.startswith(f"{user.username} played {main}")


def _opening_rack(variant, seed):
    from games.engine import crossword_game

    game = crossword_game.new_game(crossword.VARIANTS[variant], 2, seed, None)
    return game.racks[game.to_move]


@pytest.fixture
def duel(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start("wordgrid", [ann, bob])
    state = selectors.engine_state(game)
    mover = seat_user(game, state.to_move)
    other = bob if mover == ann else ann
    play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    return game, mover, other, play


def _unchanged(game):
    game.refresh_from_db()
    return game.move_count == 0 and not Move.objects.filter(game=game).exists()


def test_playing_out_of_turn_is_refused(duel):
    """A move by the player who is not to move is refused and changes nothing."""
    game, mover, other, play = duel
    with pytest.raises(Refused, match="Not your turn"):
        services.game_play(game_id=game.pk, player=other, placement=play.placement, move_count=0)
    with pytest.raises(Refused, match="Not your turn"):
        services.game_pass(game_id=game.pk, player=other, move_count=0)
    assert _unchanged(game)


def test_tiles_not_on_the_rack_are_refused(duel):
    """A placement using tiles the player does not hold is refused."""
    game, mover, other, play = duel
    rack = selectors.engine_state(game).racks[game.to_move]
    missing = next(letter for letter in "zqxjkvwy" if letter not in rack)
    with pytest.raises(Refused, match="not on your rack"):
        services.game_play(
            game_id=game.pk, player=mover, placement=[(7, 7, missing, False), (7, 8, "a", False)], move_count=0
        )
    with pytest.raises(Refused, match="not on your rack"):
        services.game_swap(game_id=game.pk, player=mover, tiles=missing, move_count=0)
    assert _unchanged(game)


def test_a_stale_board_and_a_double_submit_are_refused(duel):
    """The second submission of the same turn names an old move count and is refused."""
    game, mover, other, play = duel
    services.game_play(game_id=game.pk, player=mover, placement=play.placement, move_count=0)
    with pytest.raises(Refused, match="moved on") as refused:
        services.game_play(game_id=game.pk, player=mover, placement=play.placement, move_count=0)
    assert refused.value.status == 409
    with pytest.raises(Refused, match="moved on"):
        services.game_pass(game_id=game.pk, player=other, move_count=0)
    assert Move.objects.filter(game=game).count() == 1


def test_someone_else_cannot_move_in_a_game(duel, make_user):
    """A player who has no seat is refused with 403, whatever the action."""
    game, mover, other, play = duel
    eve = make_user("eve")
    for action in (
        lambda: services.game_play(game_id=game.pk, player=eve, placement=play.placement, move_count=0),
        lambda: services.game_pass(game_id=game.pk, player=eve, move_count=0),
        lambda: services.game_swap(game_id=game.pk, player=eve, tiles="a", move_count=0),
        lambda: services.game_resign(game_id=game.pk, player=eve),
    ):
        with pytest.raises(Refused) as refused:
            action()
        assert refused.value.status == 403
    assert _unchanged(game)


def test_an_illegal_placement_is_refused_with_the_reason(duel):
    """Tiles off the star on the first play are refused with the rule's reason."""
    game, mover, other, play = duel
    moved = [(r - 3, c, letter, blank) for r, c, letter, blank in play.placement]
    moved = [(r, c, letter, b) for r, c, letter, b in moved if 0 <= r]
    with pytest.raises(Refused, match="(?i)centre|line|first"):
        services.game_play(game_id=game.pk, player=mover, placement=moved, move_count=0)
    assert _unchanged(game)


def test_a_move_after_the_deadline_is_refused(duel):
    """Once the deadline has passed the player to move can no longer move; the sweep forfeits."""
    game, mover, other, play = duel
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Refused, match="run out"):
        services.game_play(game_id=game.pk, player=mover, placement=play.placement, move_count=0)
    assert _unchanged(game)
    assert deadlines.games_forfeit_overdue() == 1


def test_a_malformed_placement_is_refused_by_the_service_too(duel):
    """Callers other than the views get a refusal, not a crash, for a malformed placement."""
    game, mover, other, play = duel
    for placement in ([(7, 7)], [("x", 7, "a", False)], None, [(7, 7, "ab", False)], []):
        with pytest.raises(Refused):
            services.game_play(game_id=game.pk, player=mover, placement=placement, move_count=0)
    assert _unchanged(game)


def test_resigning_ends_a_two_player_game_with_the_other_player_winning(duel):
    """The player who resigns finishes last, even when ahead."""
    game, mover, other, play = duel
    services.game_play(game_id=game.pk, player=mover, placement=play.placement, move_count=0)
    services.game_resign(game_id=game.pk, player=mover)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    seats = {s.user: s for s in game.seats.all()}
    assert seats[other].place == 1 and seats[mover].place == 2
    assert seats[mover].left == "resigned"
    result = selectors.game_view(game=game, viewer=other).result
    assert result == (f"{other.shown_name} wins (0–{play.score}); the game ended because {mover.shown_name} resigned.")
    with pytest.raises(Refused, match="over"):
        services.game_pass(game_id=game.pk, player=other, move_count=None)


def test_preview_shows_score_and_words_or_the_reason(duel):
    """The preview of a legal placement has its score and words; an illegal one its reason."""
    game, mover, other, play = duel
    result = selectors.preview(game=selectors.game_seen_by(game.pk, mover), placement=play.placement, move_count=0)
    assert result["legal"] and result["score"] == play.score
    assert result["words"][0][0].upper() == play.main_word.upper()
    empty = selectors.preview(game=selectors.game_seen_by(game.pk, mover), placement=[], move_count=0)
    assert sorted(map(tuple, empty["offered"])) == sorted(  # the star's row and column
        {(7, c) for c in range(15)} | {(r, 7) for r in range(15)}
    )
    row, col, letter, blank = play.placement[0]
    one = (row + 1, col, letter, blank) if row < 7 else (row, col, letter, blank)
    result = selectors.preview(game=selectors.game_seen_by(game.pk, mover), placement=[one], move_count=0)
    assert not result["legal"] and result["reason"]
    # Once a tile is down, only its row and column take the next one.
    assert result["offered"] and all(r == one[0] or c == one[1] for r, c in result["offered"])
    assert [one[0], one[1]] not in result["offered"]
    result = selectors.preview(game=selectors.game_seen_by(game.pk, other), placement=play.placement, move_count=0)
    assert result["reason"] == "Not your turn."


def test_a_view_never_shows_the_bag_or_other_racks(duel):
    """A player's view holds their own rack and unseen counts only."""
    game, mover, other, play = duel
    view = selectors.game_view(game=game, viewer=other)
    state = selectors.engine_state(game)
    mine = state.racks[view.me.index]
    assert "".join(t for t, _ in view.rack) == mine
    assert view.unseen_total == 100 - 7
    assert not hasattr(view, "bag")


def test_invitations_seeks_decline_and_rematch(make_user):
    """A seek fills from the lobby; a declined invitation cancels; a rematch rotates the opener."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    seek = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, open_seats=2)
    assert [row.game for row in selectors.open_seeks(user=bob)] == [seek]
    services.game_accept(game_id=seek.pk, player=bob)
    seek.refresh_from_db()
    assert seek.status == Status.WAITING
    services.game_accept(game_id=seek.pk, player=cy)
    seek.refresh_from_db()
    assert seek.status == Status.ACTIVE and seek.deadline is not None
    # The opener hears it is their turn; the others, but cy who just sat down, that the
    # game has started.
    assert Notification.objects.filter(user=ann, kind="crossword.turn").count() == 1
    assert Notification.objects.get(user=bob, kind="crossword.started").text == (
        f"Word Grid #{seek.pk} has started: ann moves first."
    )
    assert not Notification.objects.filter(user__in=[ann, cy], kind="crossword.started").exists()
    with pytest.raises(Refused):
        services.game_accept(game_id=seek.pk, player=make_user("di"))

    invite = services.game_create(creator=ann, variant="wordgame", seconds_per_move=DAY, invitees=[bob])
    assert Notification.objects.filter(user=bob, kind="crossword.invitation").exists()
    with pytest.raises(Refused):
        services.game_decline(game_id=invite.pk, player=cy)
    services.game_decline(game_id=invite.pk, player=bob)
    invite.refresh_from_db()
    assert invite.status == Status.CANCELLED

    with pytest.raises(Refused, match="takes 2"):
        services.game_create(creator=ann, variant="wordgame", seconds_per_move=DAY, invitees=[bob, cy])

    duel = start("wordgrid", [ann, bob])
    assert duel.to_move == 0
    services.game_resign(game_id=duel.pk, player=bob)
    rematch = services.game_rematch(game_id=duel.pk, player=bob)
    assert services.game_rematch(game_id=duel.pk, player=ann) == rematch
    assert rematch.game_number == 2 and rematch.series == duel.series
    assert Notification.objects.filter(user=ann, kind="crossword.rematch").exists()
    services.game_accept(game_id=rematch.pk, player=ann)
    rematch.refresh_from_db()
    assert rematch.status == Status.ACTIVE and rematch.to_move == 1


def test_my_games_lists_my_turn_first_and_counts_the_badge(make_user):
    """Games awaiting my move come first and are counted for the header badge."""
    ann, bob = make_user("ann"), make_user("bob")
    first = start("wordgrid", [ann, bob])  # ann opens
    second = start("wordgrid", [bob, ann])  # bob opens
    assert selectors.games_awaiting_move_count(user=ann) == 1
    lists = selectors.my_games(user=ann)
    assert [r.game for r in lists["my_turn"]] == [first]
    assert [r.game for r in lists["their_turn"]] == [second]


def test_deadline_sweep_forfeits_and_a_three_player_game_goes_on(make_user):
    """A missed deadline forfeits the player to move; with two left the game continues."""
    users = [make_user(n) for n in ("ann", "bob", "cy")]
    game = start("wordgrid", users)
    later = timezone.now() + timedelta(days=1, seconds=5)
    assert deadlines.games_forfeit_overdue(now=later) == 1
    assert deadlines.games_forfeit_overdue(now=later) == 0  # the next deadline is in the future
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.to_move == 1
    forfeit = Move.objects.get(game=game, number=0)
    assert forfeit.kind == "forfeit" and forfeit.reason == "missed the move deadline"
    assert Seat.objects.get(game=game, index=0).left == "forfeited"
    assert Notification.objects.filter(user=users[0], kind="crossword.forfeit").exists()
    with pytest.raises(Refused, match="left this game"):
        services.game_resign(game_id=game.pk, player=users[0])
    assert game.deadline > later - timedelta(seconds=10)
    assert deadlines.games_forfeit_overdue(now=game.deadline + timedelta(seconds=1)) == 1
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert Seat.objects.get(game=game, index=2).place == 1
    assert Seat.objects.get(game=game, index=0).place == 3


def test_a_reminder_is_sent_once_when_a_fifth_of_the_time_is_left(make_user):
    """At 20 % of the time left the player to move is reminded, once per turn."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start("wordgrid", [ann, bob])
    assert deadlines.games_send_reminders(now=timezone.now()) == 0
    near = game.deadline - timedelta(seconds=0.19 * DAY)
    assert deadlines.games_send_reminders(now=near) == 1
    assert deadlines.games_send_reminders(now=near) == 0
    assert Notification.objects.filter(user=ann, kind="crossword.reminder").count() == 1


def test_notifications_are_sent_after_commit_and_not_on_rollback(
    make_user, django_capture_on_commit_callbacks, settings
):
    """The your-turn email is queued on commit; a refused or rolled-back move queues nothing."""
    from django.core import mail

    from config.celery import app

    settings.SITE_URL = "https://play.example.org"
    ann, bob = make_user("ann"), make_user("bob", email_notifications=False)
    game = start("wordgrid", [ann, bob])
    state = selectors.engine_state(game)
    play = movegen.best(state.board, state.racks[0], state.variant, state.lexicon)
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            with pytest.raises(Refused):
                services.game_play(game_id=game.pk, player=bob, placement=play.placement, move_count=0)
        assert callbacks == []
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            with pytest.raises(RuntimeError), transaction.atomic():
                services.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
                raise RuntimeError("a later step of the caller failed")
        assert callbacks == [] and mail.outbox == []
        assert not Notification.objects.filter(user=bob, kind="crossword.turn").exists()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            services.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
            assert mail.outbox == []
        turn = Notification.objects.get(user=bob, kind="crossword.turn")
        assert turn.text == (
            f"ann played {play.main_word.upper()} for {play.score}; your turn in Word Grid #{game.pk}."
        )  # one word: it says it all
        assert mail.outbox == []  # bob opted out of email
        game.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            services.game_resign(game_id=game.pk, player=bob)
        assert [m.to for m in mail.outbox] == [["ann@example.com"]]
        assert "is over" in mail.outbox[0].subject
        assert f"See the game: https://play.example.org/games/{game.pk}/" in mail.outbox[0].body
    finally:
        app.conf.task_always_eager = False


@pytest.mark.parametrize("seconds, emailed", [(DAY, True), (5 * 60, False)])
def test_your_turn_and_reminder_emails_are_for_correspondence_games_only(
    make_user, django_capture_on_commit_callbacks, settings, seconds, emailed
):
    """A live game's turn passes in minutes: it notifies in the site but sends no email."""
    from django.core import mail

    from config.celery import app

    settings.SITE_URL = "https://play.example.org"
    ann, bob = make_user("ann"), make_user("bob")
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = start("wordgrid", [ann, bob], seconds=seconds)
        with django_capture_on_commit_callbacks(execute=True):
            deadlines.games_send_reminders(now=game.remind_at)
    finally:
        app.conf.task_always_eager = False
    assert Notification.objects.filter(user=ann, kind="crossword.turn").exists()
    assert Notification.objects.filter(user=ann, kind="crossword.reminder").exists()
    subjects = [m.subject for m in mail.outbox if m.to == ["ann@example.com"]]
    if emailed:
        assert [subject.split("] ")[-1] for subject in subjects] == [
            f"Your turn in Word Grid #{game.pk}",
            f"Reminder: your move in Word Grid #{game.pk}",
        ]
        assert f"https://play.example.org/games/{game.pk}/" in mail.outbox[-1].body
    else:
        assert subjects == []


@pytest.mark.django_db(transaction=True)
def test_two_racing_submissions_apply_exactly_one(make_user):
    """Two submissions of the same turn on two connections: one is applied, one refused."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start("wordgrid", [ann, bob])
    state = selectors.engine_state(game)
    plays = movegen.top(state.board, state.racks[0], state.variant, state.lexicon, n=2)
    barrier = threading.Barrier(2)
    outcomes = []

    def submit(play):
        try:
            barrier.wait(timeout=5)
            services.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
            outcomes.append("applied")
        except Refused as refused:
            outcomes.append(refused.reason)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(plays[i % len(plays)],)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(outcomes) == 2 and outcomes.count("applied") == 1
    assert any("moved on" in o for o in outcomes)
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.move_count == 1 and game.to_move == 1


def test_a_game_keeps_the_lexicon_version_it_started_with(make_user):
    """A word removed after the game started still counts there; a new game refuses it."""
    from lexicon.models import Action, Lexicon, WordChange
    from lexicon.services import ensure_lexicons

    ensure_lexicons()
    ann, bob = make_user("ann"), make_user("bob")
    game = start("wordgrid", [ann, bob])
    assert (game.lexicon_code, game.lexicon_version) == ("common", 1)
    state = selectors.engine_state(game)
    play = movegen.best(state.board, state.racks[0], state.variant, state.lexicon)
    common = Lexicon.objects.get(code="common")
    WordChange.objects.create(
        lexicon=common, version=2, word=play.main_word, action=Action.REMOVE, decided_at=timezone.now()
    )
    Lexicon.objects.filter(pk=common.pk).update(current_version=2)

    later = start("wordgrid", [ann, bob], seed=game.seed)
    assert later.lexicon_version == 2
    refused = selectors.preview(game=selectors.game_seen_by(later.pk, ann), placement=play.placement, move_count=0)
    assert not refused["legal"] and play.main_word.upper() in refused["reason"]
    services.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
    assert Move.objects.get(game=game).score == play.score
