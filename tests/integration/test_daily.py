"""The daily challenge against PostgreSQL: one board a day for everyone, one solo round per
player, private until played, a leaderboard, every word and the rarest finds."""

from __future__ import annotations

import threading
from datetime import date, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.engine import hunt
from games.hunts import secrecy, selectors, services
from games.hunts.models import DailyChallenge, HuntRound, HuntTable
from games.hunts.services import daily
from lexicon.services import get_lexicon

pytestmark = pytest.mark.django_db


def words_of(challenge, count):
    """``count`` words on the challenge's board, longest first."""
    board = hunt.Board.from_text(challenge.board)
    found = hunt.solve(
        board,
        get_lexicon(challenge.lexicon_code, challenge.lexicon_version),
        hunt.rules_for(challenge.game, challenge.size).min_length,
    )
    return sorted(found, key=lambda w: (-len(w), w))[:count]


def play(user, pool, words=(), now=None):
    """Play today's ``pool`` challenge submitting ``words``; the round is ended at its deadline."""
    table = services.daily_play(user=user, pool=pool, now=now)
    game_round = HuntRound.objects.get(table=table)
    for word in words:
        result = services.round_submit(
            round_id=game_round.pk, user=user, word=word, now=game_round.starts_at + timedelta(seconds=1)
        )
        assert result.outcome == "accepted", result
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    return HuntRound.objects.get(pk=game_round.pk)


def test_the_same_board_for_everyone_all_day(make_user):
    """Every player's round of the day's challenge has the board of the day's seed."""
    ann, bob = make_user("ann"), make_user("bob")
    first = play(ann, "rampage")
    second = play(bob, "rampage", now=timezone.now() + timedelta(minutes=5))
    challenge = DailyChallenge.objects.get(pool="rampage")
    assert first.board == second.board == challenge.board
    assert first.seed == challenge.seed == daily.daily_seed(challenge.day, "rampage")
    assert hunt.Board.from_text(challenge.board).bonuses  # Rampage boards carry their bonus tiles
    assert first.table.seat_count == 1 and not first.table.ranked
    assert not first.players.get().is_winner  # alone: a score, not a win


def test_each_day_and_pool_has_its_own_board():
    """The seed depends on the day and the pool; the board is generated once and kept."""
    day = date(2026, 11, 30)
    rampage = daily.daily_challenge(day=day, pool="rampage")
    classic = daily.daily_challenge(day=day, pool="classic5")
    tomorrow = daily.daily_challenge(day=day + timedelta(days=1), pool="rampage")
    assert (classic.game, classic.size, classic.round_seconds) == ("classic", 5, 300)
    assert len({rampage.board, classic.board, tomorrow.board}) == 3
    assert daily.daily_challenge(day=day, pool="rampage").pk == rampage.pk
    assert daily.daily_seed(day, "rampage") == daily.daily_seed(day, "rampage") != daily.daily_seed(day, "classic5")


def test_played_once_per_player(make_user):
    """A second try is refused, and a finished daily table cannot start another round."""
    ann = make_user("ann")
    game_round = play(ann, "classic5")
    with pytest.raises(services.Refused, match="You have played today's Classic 5×5 challenge"):
        services.daily_play(user=ann, pool="classic5")
    with pytest.raises(services.Refused, match="played once"):
        services.round_start(table_id=game_round.table_id, by=ann)
    services.daily_play(user=ann, pool="rampage")  # the other pool is its own challenge
    assert HuntTable.objects.filter(host=ann, daily__isnull=False).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_tabs_starting_at_once_get_one_round(make_user):
    """Two simultaneous starts by one player: one round, one refusal."""
    ann = make_user("ann")
    daily.daily_challenge(day=daily.today(), pool="rampage")
    barrier = threading.Barrier(2)
    outcomes = []

    def start():
        try:
            barrier.wait()
            services.daily_play(user=ann, pool="rampage")
            outcomes.append("played")
        except services.Refused:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["played", "refused"]
    assert HuntRound.objects.filter(table__host=ann).count() == 1


@pytest.mark.parametrize(
    "pool, who, reason",
    [
        ("classic4", "ann", "There is no daily challenge for that game."),
        ("rampage", "bot", "Bots do not play the daily challenge."),
        ("rampage", "anonymous", "Log in to play the daily challenge."),
    ],
)
def test_bad_starts_are_refused(make_user, pool, who, reason):
    from django.contrib.auth.models import AnonymousUser

    user = {"ann": lambda: make_user("ann"), "bot": lambda: make_user("b", is_bot=True), "anonymous": AnonymousUser}[
        who
    ]()
    with pytest.raises(services.Refused) as refused:
        services.daily_play(user=user, pool=pool)
    assert refused.value.reason == reason
    assert not HuntTable.objects.exists()


def test_a_daily_table_is_private_and_not_in_the_lobby(make_user, client):
    """Nobody else sees a daily table, its socket state or, before playing, its results."""
    ann, eve = make_user("ann"), make_user("eve")
    table = services.daily_play(user=ann, pool="rampage")
    game_round = HuntRound.objects.get(table=table)
    assert selectors.open_tables() == []
    assert selectors.table_state(table.pk, eve) is None
    assert selectors.table_state(table.pk, ann)["round"]["id"] == game_round.pk
    client.force_login(eve)
    assert client.get(table.get_absolute_url()).status_code == 404
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    assert client.get(game_round.get_absolute_url()).status_code == 404
    play(eve, "rampage")
    assert client.get(game_round.get_absolute_url()).status_code == 200
    client.force_login(ann)
    assert client.get(table.get_absolute_url()).status_code == 200


def test_leaderboard_best_first_with_shared_ranks(make_user):
    """Higher scores first; equal scores share a rank; a player's own rank is counted."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    challenge = daily.daily_challenge(day=daily.today(), pool="classic5")
    long_word, other = words_of(challenge, 2)
    play(ann, "classic5", [other])
    play(bob, "classic5", [long_word, other])
    play(cy, "classic5", [other])
    board = daily.daily_leaderboard(challenge)
    assert [(p.rank, p.user.username) for p in board] == [(1, "bob"), (2, "ann"), (2, "cy")]
    assert board[0].score == hunt.classic_points(long_word) + hunt.classic_points(other)
    assert daily.daily_place(challenge, cy)["rank"] == 2


def test_every_word_and_the_rarest_finds_after_playing(make_user):
    """The board's words are shown only after playing, each with how many found it; the
    rarest finds name their finders."""
    ann, bob = make_user("ann"), make_user("bob")
    challenge = daily.daily_challenge(day=daily.today(), pool="rampage")
    rare, common = words_of(challenge, 2)
    assert not secrecy.board_visible(challenge, ann)
    play(ann, "rampage", [rare, common])
    play(bob, "rampage", [common])
    assert secrecy.board_visible(challenge, ann)
    words = daily.daily_words(challenge)
    by_word = {w.word: w for w in words["words"]}
    assert set(by_word) == set(
        hunt.solve(hunt.Board.from_text(challenge.board), get_lexicon("en", challenge.lexicon_version), 2)
    )
    assert (by_word[rare].finders, by_word[common].finders) == (1, 2)
    assert words["rarest"][0].word == rare and words["rarest"][0].names == ("ann",)
    assert words["players"] == 2


def test_the_pages(make_user, client):
    """Today's page offers both boards; a board's page hides its words until played."""
    ann = make_user("ann")
    client.force_login(ann)
    page = client.get("/hunts/daily/").content.decode()
    assert "Play today's Word Rampage" in page and "Play today's Classic 5×5" in page
    challenge = DailyChallenge.objects.get(pool="rampage")
    assert "data-daily-words" not in client.get(challenge.get_absolute_url()).content.decode()
    response = client.post("/hunts/daily/rampage/play/")
    table = HuntTable.objects.get(host=ann)
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    response = client.post("/hunts/daily/rampage/play/", follow=True)
    assert "You have played today" in response.content.decode()
    game_round = HuntRound.objects.get(table=table)
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    page = client.get(challenge.get_absolute_url()).content.decode()
    assert "data-daily-words" in page and "rank 1" in page
    assert client.get("/hunts/daily/2001-01-01/rampage/").status_code == 404
    assert client.get("/hunts/daily/not-a-day/rampage/").status_code == 404


def test_earlier_days_are_listed_once_each_with_both_boards(client):
    """Each earlier day appears once, linking to its Rampage and its Classic 5×5 board."""
    today = daily.today()
    for back in (1, 2):
        for pool in daily.DAILY_POOLS:
            daily.daily_challenge(day=today - timedelta(days=back), pool=pool)
    page = client.get("/hunts/daily/").content.decode()
    earlier = page[page.index("Earlier days") :]
    yesterday = today - timedelta(days=1)
    assert earlier.count(f"{yesterday.day} {yesterday:%b}:") == 1
    links = [c.get_absolute_url() for c in DailyChallenge.objects.filter(day__lt=today).order_by("-day", "pool")]
    assert [earlier.count(f'href="{link}"') for link in links] == [1, 1, 1, 1]
