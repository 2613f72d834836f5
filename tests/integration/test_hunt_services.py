"""Hunt use cases against PostgreSQL: tables, rounds, first-come words, round end, bots."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.engine import hunt
from games.hunts import bot_profiles, selectors, services
from games.hunts.models import FoundWord, HuntRound, RoundStatus, TableStatus
from games.hunts.services import submissions
from games.hunts.services.bots import bot_play
from games.hunts.services.submissions import SUBMIT_LIMIT, SUBMIT_PERIOD_SECONDS
from lexicon.services import get_lexicon

pytestmark = pytest.mark.django_db

RAMPAGE_BOARD = hunt.Board(
    [["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["p", "l", "u", "m"]],
    bonuses={(0, 0): "3L", (0, 2): "3W", (2, 2): "2L", (3, 3): "2L"},
)
CLASSIC_BOARD = hunt.Board([["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["qu", "e", "e", "n"]])


def start_round(table, board, host=None):
    """Start a round at ``table`` and put a known board on it; returns (round, time in play)."""
    game_round = services.round_start(table_id=table.pk, by=host or table.host)
    HuntRound.objects.filter(pk=game_round.pk).update(board=board.to_text())
    game_round.refresh_from_db()
    return game_round, game_round.starts_at + timedelta(seconds=1)


@pytest.fixture
def rampage(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann, game="rampage", seat_count=3)
    services.table_join(table_id=table.pk, user=bob)
    return table, ann, bob


@pytest.fixture
def classic(make_user):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    table = services.table_create(host=ann, game="classic", size=4, seat_count=3)
    services.table_join(table_id=table.pk, user=bob)
    services.table_join(table_id=table.pk, user=cy)
    return table, ann, bob, cy


# --------------------------------------------------------------------------- tables


def test_create_table_seats_host_and_bots(make_user):
    """The host takes seat 1 and bots fill the next seats; Classic defaults to 3 minutes."""
    ann = make_user("ann")
    table = services.table_create(host=ann, game="classic", size=5, seat_count=3, bots=("easy", "hard"))
    seats = selectors.active_seats(table.pk)
    assert [s.user.username for s in sorted(seats, key=lambda s: s.position)] == ["ann", "easy-bot-1", "hard-bot-1"]
    assert table.round_seconds == 300 and table.lexicon_code == "en"
    assert services.table_create(host=ann, game="rampage").round_seconds == 120


def test_bots_are_chosen_and_seated_with_their_rating_in_the_tables_pool(client, make_user):
    """The add-a-bot menu, the lobby and the table's state give each bot level's rating
    in the table's pool; the create form gives it in every pool (``bot_ratings``)."""
    from django.urls import reverse

    from games.engine import bot_ratings

    ann = make_user("ann")
    table = services.table_create(host=ann, game="classic", size=5, seat_count=3, bots=("beginner", "master"))
    rated = {level: bot_ratings.rating("classic5", level) for level in ("beginner", "master")}
    client.force_login(ann)
    page = client.get(table.get_absolute_url()).content.decode()
    assert f"Master (rated {rated['master']})" in page
    lobby = client.get(reverse("hunts:lobby")).content.decode()
    assert f"(beginner bot, rated {rated['beginner']})" in lobby
    assert f"Classic 5×5 {rated['master']})" in lobby  # the create form's menu, every pool
    seats = selectors.table_state(table.pk, ann)["seats"]
    assert {seat["bot"]: seat["bot_rating"] for seat in seats if seat["bot"]} == rated


@pytest.mark.parametrize(
    "settings_, reason",
    [
        ({"seat_count": 5}, "A table has 2 to 4 seats."),
        ({"game": "classic", "size": 6}, "Classic hunts are 4×4 or 5×5."),
        ({"round_seconds": 45}, "A Rampage round lasts 1 to 5 minutes."),
        ({"bots": ("easy", "easy")}, "Too many bots for the seats."),
        ({"bots": ("genius",), "seat_count": 2}, "Unknown bot strength."),
        ({"game": "chess"}, "Unknown game."),
    ],
)
def test_create_table_refuses_bad_settings(make_user, settings_, reason):
    """Out-of-range settings are refused with a reason."""
    with pytest.raises(services.Refused) as refused:
        services.table_create(host=make_user(), **settings_)
    assert refused.value.reason == reason


def test_join_full_table_and_twice(rampage, make_user):
    """Joining twice keeps one seat; a full table refuses."""
    table, ann, bob = rampage
    assert services.table_join(table_id=table.pk, user=bob).position == 1
    services.table_join(table_id=table.pk, user=make_user("cy"))
    with pytest.raises(services.Refused, match="full"):
        services.table_join(table_id=table.pk, user=make_user("dee"))


def test_anonymous_cannot_sit(rampage):
    """Anonymous users watch but cannot sit."""
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(services.Refused):
        services.table_join(table_id=rampage[0].pk, user=AnonymousUser())


def test_host_leaving_hands_over_and_last_person_closes(rampage):
    """The host's seat passes to the next person; the table closes when no person is left."""
    table, ann, bob = rampage
    services.table_leave(table_id=table.pk, user=ann)
    table.refresh_from_db()
    assert table.host == bob and table.status == TableStatus.OPEN
    services.table_leave(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED


def test_start_needs_host_and_two_seats(make_user):
    """Only the host starts, and only with two seats filled (bots count)."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann)
    with pytest.raises(services.Refused, match="two seated"):
        services.round_start(table_id=table.pk, by=ann)
    services.table_join(table_id=table.pk, user=bob)
    with pytest.raises(services.Refused, match="host"):
        services.round_start(table_id=table.pk, by=bob)
    game_round = services.round_start(table_id=table.pk, by=ann)
    assert game_round.deadline - game_round.starts_at == timedelta(seconds=120)
    assert game_round.lexicon_code == "en" and game_round.lexicon_version >= 1
    with pytest.raises(services.Refused, match="already"):
        services.round_start(table_id=table.pk, by=ann)


def test_generated_board_holds_thirty_words(rampage):
    """A started round's board holds at least 30 words of its lexicon (RULES §1)."""
    table, ann, bob = rampage
    game_round = services.round_start(table_id=table.pk, by=ann)
    from lexicon.services import get_lexicon

    board = hunt.Board.from_text(game_round.board)
    assert len(hunt.solve(board, get_lexicon("en"), 2)) >= 30
    assert len(board.bonuses) == 4


# --------------------------------------------------------------------------- submitting


def test_rampage_submit_scores_and_first_come(rampage):
    """CAT over 3L and 3W scores 33; the same word again is taken, by anyone."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    result = services.round_submit(round_id=game_round.pk, user=ann, path=[[0, 0], [0, 1], [0, 2]], now=now)
    assert (result.outcome, result.word, result.points, result.bonuses) == ("accepted", "cat", 33, ("3L", "3W"))
    again = services.round_submit(round_id=game_round.pk, user=bob, word="cat", now=now)
    assert again.outcome == "taken" and again.reason == "ann found CAT first."
    mine = services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)
    assert mine.outcome == "taken" and mine.reason == "You already found CAT."
    assert FoundWord.objects.filter(round=game_round).count() == 1


def test_typed_word_gets_the_best_path(rampage):
    """A typed word is scored along its best path."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    result = services.round_submit(round_id=game_round.pk, user=bob, word="  Cats ", now=now)
    assert result.outcome == "accepted" and result.points == (9 + 1 + 1 + 1) * 3


@pytest.mark.parametrize("game", ["rampage", "classic"])
def test_words_judged_ahead_of_a_round_are_judged_as_they_come(request, monkeypatch, game):
    """Preparing a round judges every word on its board once; a typed word is then
    answered from its verdict, the same as judging it as it comes, without a search on
    the board. The verdicts go when the round's end reaches the process."""
    table, ann, *_ = request.getfixturevalue(game)
    board = RAMPAGE_BOARD if game == "rampage" else CLASSIC_BOARD
    game_round, now = start_round(table, board)
    facts = submissions.round_facts(game_round.pk, fresh=True)
    submissions.round_prepare(game_round.pk)
    lexicon = get_lexicon(facts.lexicon_code, facts.lexicon_version)
    words = sorted(hunt.solve(board, lexicon, facts.min_length))
    assert len(words) > 20
    for word in words:
        assert submissions._judged_ahead(facts, word) == submissions._judge(facts, word, None, lexicon)
    assert submissions._judged_ahead(facts, "zebra") is None

    def no_search(*args):
        raise AssertionError("a word judged ahead was searched for on the board")

    monkeypatch.setattr(hunt, "find_path", no_search)
    result = services.round_submit(round_id=game_round.pk, user=ann, word=words[0], now=now)
    assert result == submissions._judged_ahead(facts, words[0]) and result.outcome == "accepted"
    services.forget_finds(game_round.pk)
    assert submissions._judged_ahead(facts, words[0]) is None


@pytest.mark.parametrize(
    "payload, outcome, reason",
    [
        ({"word": "xq"}, "invalid", "XQ is not in the word list."),
        ({"word": "zebra"}, "invalid", "ZEBRA is not on the board."),
        ({"word": "dog"}, "invalid", "DOG is not on the board."),
        ({"word": "a"}, "invalid", "Too short: at least 2 letters."),
        ({"word": "ca t"}, "invalid", "Only letters a–z, please."),
        ({"word": "x" * 5000}, "refused", "Send a word or a path."),
        ({"word": 12}, "refused", "Send a word or a path."),
        ({"path": [[0, 0], [0, 2]]}, "invalid", "The path jumps between tiles that do not touch."),
        ({"path": [[0, 0], [0, 1], [0, 0]]}, "invalid", "The path uses a tile twice."),
        ({"path": [[0, 0], [9, 9]]}, "invalid", "The path leaves the board."),
        ({"path": [[0, 0], "x"]}, "refused", "A path is a list of [row, col] squares."),
        ({"path": [[0, 0]] * 100}, "refused", "A path is a list of [row, col] squares."),
        ({"path": {"a": 1}}, "refused", "A path is a list of [row, col] squares."),
    ],
)
def test_bad_submissions_are_refused_and_change_nothing(rampage, payload, outcome, reason):
    """Malformed, forged or wrong submissions get a reason and store nothing."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    result = services.round_submit(round_id=game_round.pk, user=ann, now=now, **payload)
    assert (result.outcome, result.reason) == (outcome, reason)
    assert not FoundWord.objects.exists()


def test_late_early_and_outsider_submissions(rampage, make_user):
    """After the deadline is late, before the 3-2-1 ends is refused, a watcher cannot submit."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    late = services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=game_round.deadline)
    assert late.outcome == "late"
    early = services.round_submit(
        round_id=game_round.pk, user=ann, word="cat", now=game_round.starts_at - timedelta(seconds=1)
    )
    assert early.outcome == "refused" and "not started" in early.reason
    outsider = services.round_submit(round_id=game_round.pk, user=make_user("eve"), word="cat", now=now)
    assert outsider.outcome == "refused" and outsider.reason == "You are not playing in this round."
    assert services.round_submit(round_id=10**9, user=ann, word="cat", now=now).outcome == "refused"
    assert not FoundWord.objects.exists()


def test_tries_to_take_a_word_are_limited_per_player_and_period(rampage):
    """A player's tries to take a word are cut off past the limit with a reason. Words
    judged bad are no try (typos never use the limit up); each player counts alone, and
    the next period starts afresh."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)

    def submit(user, word, at=now):
        return services.round_submit(round_id=game_round.pk, user=user, word=word, now=at)

    assert {submit(ann, "zzz").outcome for _ in range(20)} == {"invalid"}
    outcomes = [submit(ann, "cat").outcome for _ in range(12)]
    assert outcomes == ["accepted"] + ["taken"] * (SUBMIT_LIMIT - 1) + ["refused"] * (12 - SUBMIT_LIMIT)
    assert submit(ann, "rat").reason == "Too many submissions; slow down."
    assert submit(bob, "rat").outcome == "accepted"
    assert submit(ann, "cats", at=now + timedelta(seconds=SUBMIT_PERIOD_SECONDS)).outcome == "accepted"
    assert set(FoundWord.objects.values_list("word", "user__username")) == {
        ("cat", "ann"),
        ("rat", "bob"),
        ("cats", "ann"),
    }


def test_a_try_stamped_in_an_earlier_period_counts_in_the_current_one(rampage):
    """Another host's clock, or a statement that waited, can send a try stamped before the
    period already counted: it adds to that period's tries instead of starting over."""
    table, ann, _ = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    later = now + timedelta(seconds=SUBMIT_PERIOD_SECONDS)
    outcomes = [
        services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=at).outcome
        for at in [later] + [now, later] * SUBMIT_LIMIT
    ]
    assert outcomes.count("refused") == 2 * SUBMIT_LIMIT + 1 - SUBMIT_LIMIT


@pytest.mark.django_db(transaction=True)
def test_simultaneous_identical_submissions_one_accepted(rampage):
    """Two players sending the same word at the same instant: one accepted, one taken."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    barrier = threading.Barrier(2)
    results = {}

    def submit(user):
        try:
            barrier.wait()
            results[user.username] = services.round_submit(round_id=game_round.pk, user=user, word="rate", now=now)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(u,)) for u in (ann, bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.outcome for r in results.values()) == ["accepted", "taken"]
    assert FoundWord.objects.filter(round=game_round, word="rate").count() == 1


# --------------------------------------------------------------------------- round end


def test_rampage_round_end_totals_and_placings(rampage):
    """Totals are the words' points; the higher total wins; running it twice changes nothing."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)  # 33
    services.round_submit(round_id=game_round.pk, user=bob, word="rex", now=now)
    assert services.round_end(round_id=game_round.pk, now=now) is None  # not yet
    ended = services.round_end(round_id=game_round.pk, now=game_round.deadline)
    assert ended.status == RoundStatus.FINISHED
    players = {p.user.username: p for p in ended.players.all()}
    assert players["ann"].score == 33 and players["ann"].placing == 1 and players["ann"].is_winner
    assert players["bob"].placing == 2
    assert ended.missed_words and "cat" not in {m["word"] for m in ended.missed_words}
    points = [m["points"] for m in ended.missed_words]
    assert points == sorted(points, reverse=True)
    table.refresh_from_db()
    assert table.status == TableStatus.BETWEEN
    before = list(ended.players.values_list("score", "placing", "is_winner"))
    again = services.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(hours=1))
    assert again.ended_at == ended.ended_at
    assert list(again.players.values_list("score", "placing", "is_winner")) == before


def test_equal_top_scores_are_a_draw(rampage):
    """Equal highest totals share first place and are a draw."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    ended = services.round_end(round_id=game_round.pk, now=game_round.deadline)
    assert {(p.placing, p.is_winner, p.is_draw) for p in ended.players.all()} == {(1, False, True)}


def test_classic_cross_off_and_comparisons(classic):
    """Words on two lists are crossed off everywhere; the rest score by length."""
    table, ann, bob, cy = classic
    game_round, now = start_round(table, CLASSIC_BOARD)
    for user, words in ((ann, ["cat", "queen", "rate"]), (bob, ["cat", "ding"]), (cy, ["rate", "dine"])):
        for word in words:
            result = services.round_submit(round_id=game_round.pk, user=user, word=word, now=now)
            assert result.outcome == "accepted", (word, result)
    dup = services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)
    assert dup.outcome == "taken" and "your list" in dup.reason
    ended = services.round_end(round_id=game_round.pk, now=game_round.deadline)
    players = {p.user.username: p for p in ended.players.all()}
    assert (players["ann"].score, players["ann"].word_count) == (2, 1)  # queen (5 letters)
    assert (players["bob"].score, players["bob"].computer_points) == (1, 2)  # ding on 4×4
    assert set(FoundWord.objects.filter(round=game_round, crossed_off=True).values_list("word", flat=True)) == {
        "cat",
        "rate",
    }
    assert players["ann"].is_winner
    results = selectors.round_results(game_round.pk)
    assert results["common"] == ["cat", "rate"]


def test_classic_state_hides_other_players_words(classic):
    """During a Classic round a player sees only their own words, and everyone's counts."""
    table, ann, bob, cy = classic
    game_round, now = start_round(table, CLASSIC_BOARD)
    services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)
    services.round_submit(round_id=game_round.pk, user=bob, word="ding", now=now)
    state = selectors.table_state(table.pk, ann)
    assert [f["word"] for f in state["round"]["found"]] == ["cat"]
    assert {s["name"]: s["count"] for s in state["seats"]} == {"ann": 1, "bob": 1, "cy": 0}


def test_classic_state_after_the_round_lists_only_own_words_crossed_off(classic):
    """After a Classic round the side list is still the player's own, common words crossed off at 0."""
    table, ann, bob, _ = classic
    game_round, now = start_round(table, CLASSIC_BOARD)
    for user, word in ((ann, "cat"), (ann, "queen"), (bob, "cat"), (bob, "ding")):
        services.round_submit(round_id=game_round.pk, user=user, word=word, now=now)
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    found = selectors.table_state(table.pk, ann)["round"]["found"]
    assert sorted((f["word"], f["points"], f["crossed_off"]) for f in found) == [("cat", 0, True), ("queen", 2, False)]
    assert selectors.table_state(table.pk, None)["round"]["found"] == []


def test_classic_round_page_hides_the_lists_until_the_end(classic, client):
    """The page of a Classic round in progress shows no player's words; after the end it shows them all."""
    table, ann, bob, _ = classic
    game_round, now = start_round(table, CLASSIC_BOARD)
    services.round_submit(round_id=game_round.pk, user=ann, word="queen", now=now)
    client.force_login(bob)
    page = client.get(game_round.get_absolute_url()).content.decode()
    assert "queen" not in page and "in progress" in page
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    assert 'data-word="queen"' in client.get(game_round.get_absolute_url()).content.decode()


def test_sweep_ends_overdue_rounds(rampage):
    """A round whose end task was lost is ended by the sweep, once."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    assert services.rounds_sweep(now=now) == []
    assert services.rounds_sweep(now=game_round.deadline + timedelta(seconds=30)) == [game_round.pk]
    assert HuntRound.objects.get(pk=game_round.pk).status == RoundStatus.FINISHED
    assert services.rounds_sweep(now=game_round.deadline + timedelta(seconds=60)) == []


# --------------------------------------------------------------------------- bots and history


def test_bot_submits_through_the_service_and_stops_at_deadline(make_user):
    """A bot's turn submits a real word of the board and plans its next turn; none after the end."""
    ann = make_user("ann")
    table = services.table_create(host=ann, bots=("hard",))
    game_round, now = start_round(table, RAMPAGE_BOARD)
    bot_id = game_round.players.exclude(bot_strength="").get().user_id
    wait = bot_play(round_id=game_round.pk, user_id=bot_id, now=now)
    low, high = bot_profiles.PROFILES["hard"].pace
    form = bot_profiles.form(game_round.seed, bot_id)
    assert low / form <= wait <= high / form
    found = FoundWord.objects.get(round=game_round)
    assert found.user_id == bot_id and found.word in hunt.solve(RAMPAGE_BOARD, _en(), 2)
    assert bot_play(round_id=game_round.pk, user_id=bot_id, now=game_round.deadline) is None


def test_easy_bots_prefer_common_words(make_user):
    """An easy bot's words are common ones; a hard bot's first words score more."""
    from lexicon.frequency import zipf

    ann = make_user("ann")
    table = services.table_create(host=ann, seat_count=3, bots=("easy", "hard"))
    game_round, now = start_round(table, RAMPAGE_BOARD)
    bots = {p.bot_strength: p.user_id for p in game_round.players.exclude(bot_strength="")}
    for step in range(4):
        for strength in ("easy", "hard"):
            bot_play(round_id=game_round.pk, user_id=bots[strength], now=now + timedelta(seconds=step))
    easy = FoundWord.objects.filter(round=game_round, user_id=bots["easy"])
    hard = FoundWord.objects.filter(round=game_round, user_id=bots["hard"])
    assert all(zipf(f.word) >= 3.3 for f in easy)
    assert sum(f.points for f in hard) > sum(f.points for f in easy)


def test_rampage_results_board_marks_the_bonus_tiles(rampage, client):
    """The results' mini board marks each 2L/3L/2W/3W tile."""
    table, ann, _ = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    client.force_login(ann)
    page = client.get(game_round.get_absolute_url()).content.decode()
    assert sorted(re.findall(r'data-bonus="(\w+)"', page)) == ["2L", "2L", "3L", "3W"]


def test_history_on_profile(rampage, client):
    """A finished round shows in both players' recent hunts and its page is viewable."""
    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    assert [rp.round_id for rp in selectors.recent_rounds(bob)] == [game_round.pk]
    page = client.get(f"/u/{ann.username}/")
    assert page.status_code == 200 and "Recent hunts" in page.content.decode()
    assert game_round.get_absolute_url() in page.content.decode()
    results = client.get(game_round.get_absolute_url()).content.decode()
    assert "Words nobody found" in results and "cat" in results and "3W" in results


def _en():
    from lexicon.services import get_lexicon

    return get_lexicon("en")


@pytest.mark.django_db(transaction=True)
def test_a_submission_racing_round_end_is_late_not_lost(rampage):
    """A word submitted while round_end is totalling waits for it and is refused as late."""
    import time
    from unittest import mock

    from games.hunts.services import rounds

    table, ann, bob = rampage
    game_round, now = start_round(table, RAMPAGE_BOARD)
    real_missed = rounds.missed_words
    totalling = threading.Event()

    def slow_missed(*args, **kwargs):
        totalling.set()
        time.sleep(1.0)  # round_end holds the round row meanwhile
        return real_missed(*args, **kwargs)

    def end():
        try:
            with mock.patch.object(rounds, "missed_words", slow_missed):
                services.round_end(round_id=game_round.pk, now=game_round.deadline)
        finally:
            connection.close()

    ender = threading.Thread(target=end)
    ender.start()
    assert totalling.wait(10)
    result = services.round_submit(
        round_id=game_round.pk, user=ann, word="cat", now=game_round.deadline - timedelta(seconds=1)
    )
    ender.join()
    assert result.outcome == "late"
    assert not FoundWord.objects.filter(round=game_round).exists()
    assert HuntRound.objects.get(pk=game_round.pk).status == RoundStatus.FINISHED


def test_idle_tables_are_closed_by_the_sweep(rampage):
    """A table nobody has open for 15 minutes, not mid-round, is closed; a watched one is not."""
    from games.hunts.models import TableConnection

    table, ann, bob = rampage
    later = timezone.now() + timedelta(minutes=16)
    TableConnection.objects.create(channel_name="tab-1", table=table, user=ann, seen_at=timezone.now())
    assert services.tables_sweep(now=later) == []
    TableConnection.objects.all().delete()
    assert services.tables_sweep(now=later) == [table.pk]
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED and not selectors.active_seats(table.pk)
