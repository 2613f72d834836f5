"""Tournament services on PostgreSQL with real crossword games and hunt rounds: whole
events, refusals, directors, races, lost starts and the schedule."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.utils import timezone

from accounts.models import Notification
from config.errors import Refused
from games.crosswords import services as crosswords
from games.crosswords.models import Game as CrosswordGame
from games.engine.clock import Clock
from games.hunts.models import HuntRound
from games.hunts.services import rounds as hunt_rounds
from games.hunts.services import submissions as hunt_submissions
from games.tournaments import selectors, services
from games.tournaments.models import (
    ArenaSchedule,
    DirectorAction,
    Entry,
    Pairing,
    PairingPlayer,
    PairingStatus,
    Round,
    Status,
    Tournament,
)

DAY = 86400
WORD_GRID = {"variant": "wordgrid", "seconds_per_move": DAY}
RAMPAGE = {"game": "rampage", "size": 4, "round_seconds": 60}


@pytest.fixture
def director(make_user):
    user = make_user("director")
    user.groups.add(Group.objects.get_or_create(name=services.DIRECTORS_GROUP)[0])
    return user


def swiss(director, *, players=(), **options):
    """A Word Grid Swiss of three rounds at a day per move, starting in an hour, with
    ``players`` entered; ``options`` are ``tournament_create``'s, over these."""
    fields = {
        "name": "Tuesday Swiss",
        "format": "swiss",
        "kind": "crossword",
        "pool": "wordgrid",
        "starts_at": timezone.now() + timedelta(hours=1),
        "game_settings": WORD_GRID,
        "rounds": 3,
    }
    tournament = services.tournament_create(director=director, **(fields | options))
    for player in players:
        services.entry_register(tournament_id=tournament.pk, user=player)
    return tournament


def running_swiss(director, *, players, **options):
    """A ``swiss`` started by its director: round 1 is paired, its games wait to start."""
    tournament = swiss(director, players=players, **options)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    return tournament


def arena(director, **options):
    """A Rampage arena of 30 minutes starting now; ``options`` are ``tournament_create``'s,
    over these."""
    fields = {
        "name": "Rampage arena",
        "format": "arena",
        "kind": "hunt",
        "pool": "rampage",
        "starts_at": timezone.now(),
        "game_settings": RAMPAGE,
        "minutes": 30,
    }
    return services.tournament_create(director=director, **(fields | options))


def running_arena(director, *, players=(), **options):
    """An ``arena`` started by its director, then joined by ``players``, who wait for a table."""
    tournament = arena(director, **options)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    tournament.refresh_from_db()
    for player in players:
        services.entry_register(tournament_id=tournament.pk, user=player)
    return tournament


def start_games(tournament) -> list[Pairing]:
    """Start the games the pairing queued (the tasks' work, done here in order)."""
    pending = list(Pairing.objects.filter(tournament=tournament, status=PairingStatus.PENDING))
    for pairing in pending:
        assert services.pairing_start(pairing_id=pairing.pk) is not None
    return list(Pairing.objects.filter(tournament=tournament, status=PairingStatus.PLAYING))


def seat_table(tournament, *, after=timedelta(seconds=30)) -> Pairing:
    """An arena's pass ``after`` from now seats its waiting players at one table, whose
    round then starts."""
    services.arena_seat(tournament_id=tournament.pk, now=timezone.now() + after)
    (pairing,) = start_games(tournament)
    return pairing


def _at_once(*calls):
    """Run each call in a thread of its own, all released at one moment; what each
    returned or raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the test reads it
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def second_player_resigns(pairing: Pairing) -> None:
    """End a pairing's crossword game: the player moving second resigns, the first wins."""
    loser = pairing.players.get(seat=1).entry.user
    crosswords.game_resign(game_id=pairing.game_id, player=loser)


@pytest.mark.django_db
def test_a_swiss_is_played_to_the_end(director, make_user):
    """Four players, three rounds: each round's games are real Word Grid games; a resigned
    game scores its pairing; the next round pairs when the last game ends; the event
    finishes after the last round, with standings, and replaying the pairings from the
    stored results gives the same rounds."""
    players = [make_user(f"p{i}") for i in range(4)]
    tournament = running_swiss(director, players=players)
    for number in (1, 2, 3):
        tournament.refresh_from_db()
        assert tournament.current_round == number
        playing = start_games(tournament)
        assert len(playing) == 2
        for pairing in playing:
            game = CrosswordGame.objects.get(pk=pairing.game_id)
            seated = list(game.seats.order_by("index").values_list("user_id", flat=True))
            assert seated == [row.entry.user_id for row in pairing.players.order_by("seat")]
            assert game.ranked and game.status == "active"
            second_player_resigns(pairing)
        assert not Pairing.objects.filter(tournament=tournament, status=PairingStatus.PLAYING).exists()
        assert services.advance(tournament_id=tournament.pk) == ("finished" if number == 3 else "paired")
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    table = selectors.standings(tournament)
    assert [line.points for line in table] == sorted((line.points for line in table), reverse=True)
    assert sum(line.points for line in table) == 6  # two games a round, three rounds
    met = [frozenset(p.players.values_list("entry_id", flat=True)) for p in tournament.pairings.all()]
    assert len(met) == len(set(met)) == 6  # four players, three rounds: everyone met everyone once
    assert services.pairings_replayed(tournament) == []
    assert Notification.objects.filter(user=players[0], kind="tournament.started").count() == 3
    assert Notification.objects.filter(user=players[0], kind="tournament.finished").exists()


@pytest.mark.django_db
def test_an_odd_field_gives_a_bye_worth_a_win(director, make_user):
    """Three players: round one has one game and one bye; the bye scores a point at once."""
    players = [make_user(f"p{i}") for i in range(3)]
    tournament = running_swiss(director, rounds=2, players=players)
    byes = Pairing.objects.filter(tournament=tournament, status=PairingStatus.BYE)
    assert byes.count() == 1
    bye_entry = byes.get().players.get().entry
    line = next(line for line in selectors.standings(tournament) if line.entry == bye_entry)
    assert line.points == 1 and line.tiebreaks["byes"] == 1


@pytest.mark.django_db
def test_a_round_robin_meets_everyone_once(director, make_user):
    """A round robin of four plays three rounds, every pair once."""
    players = [make_user(f"p{i}") for i in range(4)]
    tournament = running_swiss(
        director, players=players, name="Club round robin", format="roundrobin", starts_at=timezone.now(), rounds=0
    )
    for _ in range(3):
        for pairing in start_games(tournament):
            second_player_resigns(pairing)
        services.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    met = [frozenset(p.players.values_list("entry_id", flat=True)) for p in tournament.pairings.all()]
    assert len(set(met)) == 6


@pytest.mark.django_db
@pytest.mark.parametrize(
    "pool, chosen, reason",
    [
        ("wordgrid", {"seconds_per_move": 5}, "Time per move: Select a valid choice"),
        ("wordgrid", {"variant": "wordgame"}, "variant 'wordgame' does not go with Word Grid"),
        ("wordgrid", {"ranked": True}, "Word Grid games have no setting 'ranked'"),
        ("classic5", {"size": 4}, "size 4 does not go with Classic 5×5"),
        ("rampage", {"round_seconds": 45}, "Round: Select a valid choice"),
        ("tow", {"words": "house"}, "Words: Select a valid choice"),
    ],
)
def test_settings_the_game_does_not_offer_are_refused(director, pool, chosen, reason):
    """An event's games take only the settings their kind offers for the pool, each from
    the kind's own choices; the refusal names the setting, and nothing is created."""
    kind = {"wordgrid": "crossword", "classic5": "hunt", "rampage": "hunt", "tow": "tow"}[pool]
    create = arena if kind == "hunt" else swiss
    with pytest.raises(Refused, match=reason):
        create(
            director,
            name="Bad settings",
            kind=kind,
            pool=pool,
            starts_at=timezone.now(),
            game_settings=chosen,
            rounds=3,
            minutes=30,
        )
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_settings_left_out_take_the_games_defaults(director):
    """A Classic 5×5 arena chooses nothing: its rounds are the grid's own (British +
    American, five minutes); a Word Grid event given no time per move gets a day."""
    classic = arena(director, name="Classic", pool="classic5", game_settings=None)
    assert classic.game_settings == {"game": "classic", "size": 5, "lexicon_code": "en", "round_seconds": 300}
    assert swiss(director).game_settings == WORD_GRID
    grid = swiss(director, name="G", starts_at=timezone.now(), game_settings=None, rounds=1)
    assert grid.game_settings == WORD_GRID


@pytest.mark.django_db
def test_a_live_event_with_a_clock_starts_its_games_with_it(director, make_user):
    """A Word Grid event at a live time per move may choose one of the new-game form's
    clocks: its games start with it, every player's whole time on it; an event at days
    per move is refused one, and nothing is created."""
    with pytest.raises(Refused, match="A clock is for live games"):
        swiss(director, name="Slow clock", game_settings={"seconds_per_move": DAY, "clock": "10+3"}, rounds=1)
    assert not Tournament.objects.exists()
    with pytest.raises(Refused, match="Clock"):
        swiss(director, name="Odd clock", game_settings={"seconds_per_move": 300, "clock": "7+7"}, rounds=1)
    players = [make_user(f"p{i}") for i in range(2)]
    blitz = {"seconds_per_move": 300, "clock": "10+3"}
    tournament = running_swiss(director, players=players, name="Blitz", game_settings=blitz, rounds=1)
    assert tournament.game_settings == {"variant": "wordgrid", "seconds_per_move": 300, "clock": "10+3"}
    (pairing,) = start_games(tournament)
    game = CrosswordGame.objects.get(pk=pairing.game_id)
    assert game.clock == Clock(10 * 60, increment=3) and game.status == "active"
    assert game.clock_left == [600_000, 600_000] and game.turn_started_at is not None


# --------------------------------------------------------------------------- entries


@pytest.mark.django_db
def test_entering_twice_is_refused_and_late_entries_close_at_round_one(director, make_user):
    """A second entry is refused with the reason; after round 1 is paired nobody can enter."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    tournament = swiss(director, players=[ann, bob])
    with pytest.raises(Refused, match="already entered"):
        services.entry_register(tournament_id=tournament.pk, user=ann)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    with pytest.raises(Refused, match="entries closed"):
        services.entry_register(tournament_id=tournament.pk, user=cy)
    assert Entry.objects.filter(tournament=tournament).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_tabs_entering_at_once_make_one_entry(director, make_user):
    """Two requests entering one player at the same moment: one entry, one refusal."""
    ann = make_user("ann")
    tournament = swiss(director)
    results = _at_once(*(lambda: services.entry_register(tournament_id=tournament.pk, user=ann),) * 2)
    assert sum(isinstance(result, Entry) for result in results) == 1
    assert any(isinstance(result, Refused) and "already entered" in result.reason for result in results)
    assert Entry.objects.filter(tournament=tournament, user=ann).count() == 1


@pytest.mark.django_db
def test_a_withdrawal_mid_round_resigns_that_game_only(director, make_user):
    """Withdrawing during a round resigns the real game of that round (the opponent wins
    it, and it scores so) and pairs the player no more; the other games go on."""
    players = [make_user(f"p{i}") for i in range(4)]
    tournament = running_swiss(director, players=players)
    playing = start_games(tournament)
    quitter = playing[0].players.get(seat=0).entry
    services.entry_withdraw(tournament_id=tournament.pk, user=quitter.user)
    game = CrosswordGame.objects.get(pk=playing[0].game_id)
    assert game.status == "finished"
    assert game.seats.get(user=quitter.user).left == "resigned"
    playing[0].refresh_from_db()
    assert playing[0].status == PairingStatus.FINISHED
    assert sorted(playing[0].players.values_list("entry_id", "points")) == sorted(
        [(quitter.pk, 0), (playing[0].players.get(seat=1).entry_id, 2)]
    )
    other = CrosswordGame.objects.get(pk=playing[1].game_id)
    playing[1].refresh_from_db()
    assert playing[1].status == PairingStatus.PLAYING and other.status == "active"
    second_player_resigns(playing[1])
    assert services.advance(tournament_id=tournament.pk) == "paired"
    round_two = Pairing.objects.filter(tournament=tournament, round__number=2)
    assert not round_two.filter(players__entry=quitter).exists()
    assert round_two.filter(status=PairingStatus.BYE).count() == 1  # three left


@pytest.mark.django_db
def test_a_director_removing_a_player_mid_round_resigns_their_game(director, make_user):
    """A removal is a withdrawal: the removed player's game is resigned, with the reason logged."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_swiss(director, players=[ann, bob])
    (pairing,) = start_games(tournament)
    services.entry_withdraw(tournament_id=tournament.pk, user=bob, by=director, reason="no-show")
    game = CrosswordGame.objects.get(pk=pairing.game_id)
    assert game.status == "finished" and game.seats.get(user=bob).left == "resigned"
    assert DirectorAction.objects.filter(tournament=tournament, action="remove", reason="no-show").exists()


@pytest.mark.django_db
def test_a_withdrawal_before_the_game_starts_loses_it_and_it_never_starts(director, make_user):
    """Withdrawing while the round's game waits to start scores it a loss at once, and its
    start (a late task, the sweep) then starts no game."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_swiss(director, players=[ann, bob])
    pairing = Pairing.objects.get(tournament=tournament)
    services.entry_withdraw(tournament_id=tournament.pk, user=ann)
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.FINISHED
    assert dict(pairing.players.values_list("entry__user__username", "points")) == {"ann": 0, "bob": 2}
    assert services.pairing_start(pairing_id=pairing.pk) is None
    assert not CrosswordGame.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_game_starting_while_its_player_withdraws_is_resigned(director, make_user, monkeypatch):
    """The withdrawal read the pairing as waiting, and its game started before the
    withdrawal locked it: the withdrawal starts again and resigns the game it finds."""
    from games.tournaments.services import events

    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_swiss(director, players=[ann, bob])
    pairing = Pairing.objects.get(tournament=tournament)
    real = events._current_pairing

    def read_then_start(tournament_id, user):
        found = real(tournament_id, user)
        if found is not None and found.game_id is None:
            starter = threading.Thread(target=lambda: (services.pairing_start(pairing_id=found.pk), connection.close()))
            starter.start()
            starter.join()
        return found

    monkeypatch.setattr(events, "_current_pairing", read_then_start)
    services.entry_withdraw(tournament_id=tournament.pk, user=ann)
    pairing.refresh_from_db()
    game = CrosswordGame.objects.get(pk=pairing.game_id)
    assert game.status == "finished" and game.seats.get(user=ann).left == "resigned"
    assert pairing.status == PairingStatus.FINISHED
    assert dict(pairing.players.values_list("entry__user__username", "points")) == {"ann": 0, "bob": 2}


@pytest.mark.django_db
def test_check_in_drops_who_did_not_check_in(director, make_user):
    """With a check-in window, entrants who did not check in are out at the start."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    tournament = swiss(director, players=[ann, bob, cy], check_in_minutes=30)
    tournament.starts_at = timezone.now() + timedelta(minutes=10)
    tournament.save()
    for player in (ann, bob):
        services.entry_check_in(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    assert Entry.objects.get(tournament=tournament, user=cy).withdrawn_at is not None
    assert Pairing.objects.filter(tournament=tournament).count() == 1


# --------------------------------------------------------------------------- directors


@pytest.mark.django_db
def test_only_directors_direct(director, make_user):
    """A player who is not staff or in the directors' group cannot create, start or pause."""
    ann = make_user("ann")
    with pytest.raises(Refused, match="directors"):
        swiss(ann)
    tournament = swiss(director, players=[ann, make_user("bob")])
    with pytest.raises(Refused, match="directors"):
        services.tournament_start(tournament_id=tournament.pk, by=ann)
    staff = make_user("staff", is_staff=True)
    services.tournament_start(tournament_id=tournament.pk, by=staff)
    services.tournament_pause(tournament_id=tournament.pk, by=director, reason="lunch")
    actions = list(DirectorAction.objects.filter(tournament=tournament).order_by("at", "pk"))
    assert [(a.action, a.director.username) for a in actions] == [
        ("create", "director"),
        ("start", "staff"),
        ("pause", "director"),
    ]
    assert actions[-1].reason == "lunch"


@pytest.mark.django_db
def test_an_event_of_a_format_its_game_does_not_suit_is_refused(director):
    """Arenas are for the live hunts, Swiss and round robin for one-game pairings: a Word
    Grid arena or a Rampage Swiss is refused with the reason, and nothing is stored."""
    with pytest.raises(
        Refused, match="Crossword games cannot be played in an arena: its games suit a Swiss or a round robin"
    ):
        arena(director, kind="crossword", pool="wordgrid", game_settings=WORD_GRID)
    with pytest.raises(Refused, match="cannot be played in a Swiss: its games suit an arena"):
        swiss(director, kind="hunt", pool="rampage", game_settings=RAMPAGE)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_paused_event_pairs_no_round_until_resumed(director, make_user):
    """While paused, a finished round is not followed by the next; resuming pairs it."""
    tournament = running_swiss(director, players=[make_user("ann"), make_user("bob")])
    (pairing,) = start_games(tournament)
    services.tournament_pause(tournament_id=tournament.pk, by=director)
    second_player_resigns(pairing)
    assert services.advance(tournament_id=tournament.pk) == "skipped"
    services.tournament_resume(tournament_id=tournament.pk, by=director)
    assert services.advance(tournament_id=tournament.pk) == "paired"


@pytest.mark.django_db
def test_a_corrected_result_moves_the_standings_and_is_logged(director, make_user):
    """A director turns a win into a draw with a reason: standings follow, the log keeps
    who, when, why and the results before and after. A result that does not add up is
    refused and changes nothing. The places follow the corrected result."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_swiss(director, rounds=1, players=[ann, bob])
    (pairing,) = start_games(tournament)
    second_player_resigns(pairing)
    entries = {row.entry_id: row.entry for row in pairing.players.all()}
    with pytest.raises(Refused, match="add up"):
        services.result_correct(pairing_id=pairing.pk, by=director, points=dict.fromkeys(entries, 2), reason="typo")
    assert sorted(pairing.players.values_list("points", flat=True)) == [0, 2]
    services.result_correct(pairing_id=pairing.pk, by=director, points=dict.fromkeys(entries, 1), reason="agreed draw")
    assert [line.points for line in selectors.standings(tournament)] == [0.5, 0.5]
    assert sorted(pairing.players.values_list("place", flat=True)) == [1, 1]  # a draw shares first place
    action = DirectorAction.objects.get(tournament=tournament, action="correct")
    assert action.reason == "agreed draw" and action.director == director
    assert sorted(action.details["before"].values()) == [0, 2]


@pytest.mark.django_db
def test_removing_a_player_needs_a_reason(director, make_user):
    """A director removes a player with a reason (kept, and told to the player); without
    one it is refused. A removed player cannot enter again."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = swiss(director, players=[ann, bob])
    with pytest.raises(Refused, match="why"):
        services.entry_withdraw(tournament_id=tournament.pk, user=ann, by=director, reason=" ")
    services.entry_withdraw(tournament_id=tournament.pk, user=ann, by=director, reason="abusive chat")
    assert Notification.objects.filter(user=ann, kind="tournament.removed").exists()
    with pytest.raises(Refused, match="removed"):
        services.entry_register(tournament_id=tournament.pk, user=ann)


# --------------------------------------------------------------------------- races and sweeps


@pytest.mark.django_db(transaction=True)
def test_a_round_is_paired_once_by_two_workers_at_once(director, make_user):
    """Two workers advancing an event whose round has just ended, at the same moment, pair
    the next round once."""
    players = [make_user(f"p{i}") for i in range(4)]
    tournament = running_swiss(director, players=players)
    for pairing in start_games(tournament):
        second_player_resigns(pairing)
    said = _at_once(*(lambda: services.advance(tournament_id=tournament.pk),) * 2)
    assert said.count("paired") == 1
    assert Round.objects.filter(tournament=tournament, number=2).count() == 1
    assert Pairing.objects.filter(tournament=tournament, round__number=2).count() == 2


@pytest.mark.django_db
def test_a_director_pairing_a_round_already_paired_is_refused(director, make_user):
    """Pairing the next round while the current one is in play is refused."""
    tournament = running_swiss(director, players=[make_user("ann"), make_user("bob")])
    with pytest.raises(Refused, match="still being played"):
        services.round_pair_next(tournament_id=tournament.pk, by=director)
    assert Round.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db
def test_a_lost_start_is_redone_by_the_sweep(director, make_user):
    """A pairing whose start task never ran is started by the sweep after the grace; a
    second sweep starts nothing twice."""
    tournament = running_swiss(director, players=[make_user("ann"), make_user("bob")])
    pairing = Pairing.objects.get(tournament=tournament)
    assert pairing.status == PairingStatus.PENDING
    assert services.pairings_start_lost() == 0  # within the grace: its task may still come
    later = timezone.now() + timedelta(minutes=1)
    assert services.pairings_start_lost(now=later) == 1
    assert services.pairings_start_lost(now=later) == 0
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.PLAYING and CrosswordGame.objects.filter(pk=pairing.game_id).exists()


@pytest.mark.django_db
def test_the_beat_starts_events_on_time_and_reminds_before(director, make_user):
    """Ten minutes before, entrants are told once; at the start time the beat starts it."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = swiss(director, players=[ann, bob])
    start = tournament.starts_at
    services.events_start_due(now=start - timedelta(minutes=9))
    services.events_start_due(now=start - timedelta(minutes=8))
    assert Notification.objects.filter(user=ann, kind="tournament.soon").count() == 1
    assert services.events_start_due(now=start) == 1
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING and tournament.current_round == 1


@pytest.mark.django_db
def test_a_schedule_creates_each_arena_once(make_user):
    """Beat creates the scheduled arenas within the lead time, once each however often it runs."""
    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    schedule = ArenaSchedule.objects.create(
        name="Hourly Rampage",
        pool="rampage",
        game_settings=RAMPAGE,
        first_start=now - timedelta(days=1),
        every_minutes=60,
        duration_minutes=30,
        ahead_minutes=90,
    )
    first = services.schedules_create(now=now + timedelta(minutes=1))
    again = services.schedules_create(now=now + timedelta(minutes=2))
    arenas = Tournament.objects.filter(schedule=schedule).order_by("starts_at")
    assert first == 1 and again == 0
    assert [a.starts_at for a in arenas] == [now + timedelta(hours=1)]
    assert arenas[0].ends_at - arenas[0].starts_at == timedelta(minutes=30)


# --------------------------------------------------------------------------- arenas


def find_words(pairing: Pairing, finders: dict, *, skip: int = 0) -> None:
    """Each user in ``finders`` submits that many words of the arena table's board (real
    submissions), after the first ``skip`` words of the board."""
    from games.engine import hunt
    from lexicon.services import get_lexicon

    game_round = HuntRound.objects.get(pk=pairing.game_id)
    board = hunt.Board.from_text(game_round.board)
    words = iter(sorted(hunt.solve(board, get_lexicon(game_round.lexicon_code), game_round.min_length))[skip:])
    during = game_round.starts_at + timedelta(seconds=1)
    for user, count in finders.items():
        for _ in range(count):
            result = hunt_submissions.round_submit(round_id=game_round.pk, user=user, word=next(words), now=during)
            assert result.outcome == "accepted"


def end_round(pairing: Pairing, finders: dict) -> None:
    """Play an arena table's hunt round: each user in ``finders`` submits that many words
    of the board, then the round ends at its deadline."""
    find_words(pairing, finders)
    game_round = HuntRound.objects.get(pk=pairing.game_id)
    hunt_rounds.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))


@pytest.mark.django_db
def test_an_arena_seats_scores_streaks_and_reseats(director, make_user):
    """Players who join a running arena are seated at a real hunt table; when the round
    ends the winner scores 2 (the three tied behind 1 each), and after two wins in a row
    4; everyone waits again and is seated again."""
    players = [make_user(f"p{i}") for i in range(4)]
    tournament = running_arena(director, players=players)
    later = timezone.now() + timedelta(seconds=30)
    made = services.arena_seat(tournament_id=tournament.pk, now=later)
    assert len(made) == 1  # four close players: one full table
    (pairing,) = start_games(tournament)
    table = HuntRound.objects.get(pk=pairing.game_id).table
    assert table.seats.count() == 4
    assert table.ranked  # a rated arena's rounds are rated in the hunt's pool
    star = players[0]
    end_round(pairing, {star: 2})
    entry = Entry.objects.get(tournament=tournament, user=star)
    assert (entry.points, entry.streak) == (2, 1)
    assert entry.waiting_since is not None
    # Second table: the same four are the only ones; their last opponents are kept apart
    # only briefly, so later they sit together again.
    for minutes in (5, 10):
        pairing = seat_table(tournament, after=timedelta(minutes=minutes))
        end_round(pairing, {star: 2})
    entry.refresh_from_db()
    assert entry.points == 2 + 2 + 4 and entry.streak == 3
    lines = selectors.standings(tournament)
    assert lines[0].entry.user == star


@pytest.mark.django_db
def test_an_arena_ends_on_time_and_rounds_in_play_count(director, make_user):
    """At its end an arena seats nobody more; the table in play finishes and counts, and
    then the arena is finished."""
    players = [make_user(f"p{i}") for i in range(2)]
    tournament = running_arena(director, players=players, minutes=5)
    pairing = seat_table(tournament, after=timedelta(seconds=10))
    after_end = tournament.ends_at + timedelta(seconds=1)
    services.arena_seat(tournament_id=tournament.pk, now=after_end)
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING  # a table is still in play
    end_round(pairing, {players[1]: 1})
    assert Entry.objects.get(tournament=tournament, user=players[1]).points == 2
    services.arena_seat(tournament_id=tournament.pk, now=after_end)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    assert not Entry.objects.filter(tournament=tournament, waiting_since__isnull=False).exists()


@pytest.mark.django_db
def test_leaving_an_arena_mid_round_forfeits_that_table_only(director, make_user):
    """A player who leaves the arena during a round stands up from the real hunt table;
    the round goes on for the others and, when it ends, scores the leaver 0 whatever
    they found and the one who stayed a win. The leaver keeps their earlier points and
    waits for no table."""
    leaver, stayer = make_user("leaver"), make_user("stayer")
    tournament = running_arena(director, players=(leaver, stayer))
    first = seat_table(tournament)
    end_round(first, {leaver: 1})
    second = seat_table(tournament, after=timedelta(minutes=5))
    find_words(second, {leaver: 2})
    services.entry_withdraw(tournament_id=tournament.pk, user=leaver)
    game_round = HuntRound.objects.get(pk=second.game_id)
    seat = game_round.table.seats.get(user=leaver)
    assert seat.left_at is not None and game_round.status == "playing"
    hunt_rounds.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    second.refresh_from_db()
    assert second.status == PairingStatus.FINISHED
    assert dict(second.players.values_list("entry__user__username", "points")) == {"leaver": 0, "stayer": 2}
    gone = Entry.objects.get(tournament=tournament, user=leaver)
    assert (gone.points, gone.streak, gone.waiting_since) == (2, 0, None)
    assert Entry.objects.get(tournament=tournament, user=stayer).waiting_since is not None


@pytest.mark.django_db
def test_leaving_an_arena_before_the_table_starts_undoes_it(director, make_user):
    """A table whose game has not started when one of its players leaves is undone: no
    game starts, and the others wait again from when they waited for it."""
    players = [make_user(f"p{i}") for i in range(3)]
    tournament = running_arena(director, players=players)
    (made,) = services.arena_seat(tournament_id=tournament.pk, now=timezone.now() + timedelta(seconds=30))
    pairing = Pairing.objects.get(pk=made)
    services.entry_withdraw(tournament_id=tournament.pk, user=players[0])
    assert not Pairing.objects.filter(pk=made).exists()
    assert services.pairing_start(pairing_id=made) is None and not HuntRound.objects.exists()
    waiting = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
    assert [entry.waiting_since for entry in waiting] == [pairing.created_at] * 2


@pytest.mark.django_db
def test_one_running_arena_at_a_time(director, make_user):
    """A player in one running arena cannot join another until they leave it."""
    ann = make_user("ann")
    first, second = arena(director), arena(director)
    for tournament in (first, second):
        services.tournament_start(tournament_id=tournament.pk, by=director)
    services.entry_register(tournament_id=first.pk, user=ann)
    with pytest.raises(Refused, match="leave it first"):
        services.entry_register(tournament_id=second.pk, user=ann)
    services.entry_withdraw(tournament_id=first.pk, user=ann)
    services.entry_register(tournament_id=second.pk, user=ann)


@pytest.mark.django_db
def test_joining_a_running_arena_while_busy_elsewhere_is_refused(director, make_user):
    """Joining an arena under way while waiting in the ranked queue, or while playing a
    ranked round at another table, is refused with the reason, and nothing is entered."""
    from games.hunts import services as hunts

    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    tournament = running_arena(director)
    hunts.queue_join(user=ann, pool="classic4")
    with pytest.raises(Refused, match="waiting in the Classic 4×4 ranked queue"):
        services.entry_register(tournament_id=tournament.pk, user=ann)
    game_round = hunts.table_arrange(players=[bob, cy], ranked=True)
    with pytest.raises(Refused, match=f"playing at ranked table {game_round.table_id}"):
        services.entry_register(tournament_id=tournament.pk, user=bob)
    assert not Entry.objects.filter(tournament=tournament).exists()
    hunts.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    services.entry_register(tournament_id=tournament.pk, user=bob)  # between rounds: free


@pytest.mark.django_db
def test_an_arena_seats_a_player_busy_elsewhere_only_once_free(director, make_user):
    """A player in the arena who joins the ranked queue is not seated by the arena's
    passes while they wait there (no table is made and undone); once they leave the
    queue, the next pass seats them."""
    from games.hunts import services as hunts

    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_arena(director, players=(ann, bob))
    hunts.queue_join(user=ann, pool="rampage")
    later = timezone.now() + timedelta(seconds=30)
    assert services.arena_seat(tournament_id=tournament.pk, now=later) == []
    assert not Pairing.objects.filter(tournament=tournament).exists()
    assert Entry.objects.get(tournament=tournament, user=ann).waiting_since is not None
    hunts.queue_cancel(user=ann)
    assert len(services.arena_seat(tournament_id=tournament.pk, now=later)) == 1


@pytest.mark.django_db
def test_a_paused_arena_keeps_its_players_waiting_for_the_resume(director, make_user):
    """While an arena is paused no table starts, but a player who joins meanwhile, and the
    players of a table that ends meanwhile, wait for one: after the resume they are seated."""
    ann, bob, cy, dan = (make_user(name) for name in ("ann", "bob", "cy", "dan"))
    tournament = running_arena(director, players=(ann, bob))
    pairing = seat_table(tournament)
    services.tournament_pause(tournament_id=tournament.pk, by=director)
    for player in (cy, dan):
        services.entry_register(tournament_id=tournament.pk, user=player)
    end_round(pairing, {ann: 1})
    assert services.arena_seat(tournament_id=tournament.pk, now=timezone.now() + timedelta(seconds=40)) == []
    waiting = Entry.objects.filter(tournament=tournament, waiting_since__isnull=False)
    assert sorted(waiting.values_list("user__username", flat=True)) == ["ann", "bob", "cy", "dan"]
    services.tournament_resume(tournament_id=tournament.pk, by=director)
    services.arena_seat(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=5))
    assert not Entry.objects.filter(tournament=tournament, waiting_since__isnull=False).exists()


# --------------------------------------------------------------------------- review: deletions, oracles, races


@pytest.mark.django_db
def test_a_deleted_account_leaves_its_events_and_the_rounds_go_on(director, make_user):
    """Deleting a player's account mid-round resigns their game and withdraws them from the
    event, so the next round is paired without them and every one of its games starts
    (a game can never start with a deleted player in it); their download lists the event
    and the games they played in it."""
    from accounts import player_data as accounts

    players = [make_user(f"p{i}") for i in range(4)]
    tournament = running_swiss(director, rounds=2, players=players)
    playing = start_games(tournament)
    quitter = playing[0].players.get(seat=0).entry.user
    (entry,) = accounts.account_export(user=quitter)["tournaments"]["entries"]
    assert entry["name"] == "Tuesday Swiss" and entry["games"][0]["game"] == playing[0].game_url
    accounts.account_delete(user=quitter)
    assert Entry.objects.get(tournament=tournament, user=quitter).withdrawn_at is not None
    assert CrosswordGame.objects.get(pk=playing[0].game_id).seats.get(user=quitter).left == "resigned"
    second_player_resigns(playing[1])
    assert services.advance(tournament_id=tournament.pk) == "paired"
    round_two = Pairing.objects.filter(tournament=tournament, round__number=2)
    assert not round_two.filter(players__entry__user=quitter).exists()
    assert len(start_games(tournament)) == 1  # three left: one game and a bye


@pytest.mark.django_db
def test_an_arena_undoing_a_table_never_numbers_two_tables_alike(director, make_user):
    """A table undone (a player left before it started) frees no board number for reuse:
    the next table is numbered after every table the arena made."""
    players = [make_user(f"p{i}") for i in range(9)]
    tournament = running_arena(director, players=players[:8])
    later = timezone.now() + timedelta(seconds=30)
    first, _ = services.arena_seat(tournament_id=tournament.pk, now=later)
    leaver = Pairing.objects.get(pk=first).players.first().entry.user
    services.entry_withdraw(tournament_id=tournament.pk, user=leaver)
    services.entry_register(tournament_id=tournament.pk, user=players[8])
    assert len(services.arena_seat(tournament_id=tournament.pk, now=later + timedelta(seconds=30))) == 1
    boards = list(Pairing.objects.filter(tournament=tournament).values_list("board", flat=True))
    assert len(boards) == len(set(boards)) == 2


@pytest.mark.django_db
def test_a_corrected_arena_table_rescores_the_standings_from_the_stored_results(director, make_user):
    """A director's correction of an arena table leaves every player's arena points the
    sum of their stored table results, and the standings follow them."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_arena(director, players=(ann, bob))
    for minutes in (0.5, 5):
        pairing = seat_table(tournament, after=timedelta(minutes=minutes))
        end_round(pairing, {ann: 1})
    first = Pairing.objects.filter(tournament=tournament).order_by("pk").first()
    entries = {row.entry.user.username: row.entry_id for row in first.players.select_related("entry__user")}
    services.result_correct(
        pairing_id=first.pk, by=director, points={entries["ann"]: 0, entries["bob"]: 2}, reason="ann's words were bob's"
    )
    for entry in Entry.objects.filter(tournament=tournament):
        assert entry.points == sum(entry.pairings.values_list("points", flat=True))
    assert {line.entry.user.username: line.points for line in selectors.standings(tournament)} == {"ann": 2, "bob": 2}


@pytest.mark.django_db
def test_the_stored_pairings_replay_after_withdrawals_and_forfeits(director, make_user):
    """Pairings recompute from the stored results: a Swiss with a withdrawal mid-round (a
    resigned game) and one before a game started (a forfeit) replays round for round."""
    players = [make_user(f"p{i}") for i in range(6)]
    tournament = running_swiss(director, rounds=3, players=players)
    pending = list(Pairing.objects.filter(tournament=tournament, status=PairingStatus.PENDING))
    services.entry_withdraw(tournament_id=tournament.pk, user=pending[0].players.get(seat=0).entry.user)
    playing = start_games(tournament)
    services.entry_withdraw(tournament_id=tournament.pk, user=playing[0].players.get(seat=1).entry.user)
    for pairing in Pairing.objects.filter(tournament=tournament, status=PairingStatus.PLAYING):
        second_player_resigns(pairing)
    for _ in (2, 3):
        assert services.advance(tournament_id=tournament.pk) == "paired"
        for pairing in start_games(tournament):
            second_player_resigns(pairing)
    assert services.advance(tournament_id=tournament.pk) == "finished"
    assert services.pairings_replayed(tournament) == []


@pytest.mark.django_db
def test_a_lost_advance_is_redone_by_the_sweep(director, make_user):
    """The task that pairs the next round when a round's last game ends was lost (no task
    runs here): the beat's sweep pairs it."""
    from games.tournaments import tasks

    tournament = running_swiss(director, rounds=2, players=[make_user("ann"), make_user("bob")])
    (pairing,) = start_games(tournament)
    second_player_resigns(pairing)
    tasks.sweep()
    tournament.refresh_from_db()
    assert tournament.current_round == 2


@pytest.mark.django_db(transaction=True)
def test_two_arena_passes_at_once_seat_each_player_once(director, make_user):
    """Two workers passing over one arena at the same moment: one seats the tables, the
    other skips the arena; nobody is at two tables."""
    tournament = running_arena(director, players=[make_user(f"p{index}") for index in range(8)])
    later = timezone.now() + timedelta(seconds=30)
    first, second = _at_once(*(lambda: services.arena_seat(tournament_id=tournament.pk, now=later),) * 2)
    assert None in (first, second) and len(first or second) == 2
    seated = list(PairingPlayer.objects.filter(pairing__tournament=tournament).values_list("entry_id", flat=True))
    assert len(seated) == len(set(seated)) == 8


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_and_the_opponents_resignation_at_once_end_the_game_once(director, make_user):
    """One player withdraws while the other resigns the same game: both lock the game
    first, so one waits for the other; the game ends once, its pairing scores once."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_swiss(director, rounds=1, players=[ann, bob])
    (pairing,) = start_games(tournament)
    results = _at_once(
        lambda: services.entry_withdraw(tournament_id=tournament.pk, user=ann),
        lambda: crosswords.game_resign(game_id=pairing.game_id, player=bob),
    )
    assert not isinstance(results[0], Exception), results[0]
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.FINISHED
    assert sorted(pairing.players.values_list("points", flat=True)) == [0, 2]
    assert CrosswordGame.objects.get(pk=pairing.game_id).status == "finished"


@pytest.mark.django_db(transaction=True)
def test_leaving_an_arena_as_its_round_ends_scores_the_table_once(director, make_user):
    """A player leaves the arena while their table's round is ending, the round's end
    holding the table's pairing and about to mark the table between rounds: the
    withdrawal waits for the round (both lock it first) instead of holding the table
    against it (a deadlock); the table scores once, and the leaver waits for no table."""
    from games import registry

    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_arena(director, players=(ann, bob))
    pairing = seat_table(tournament)
    find_words(pairing, {ann: 1, bob: 1})
    game_round = HuntRound.objects.get(pk=pairing.game_id)
    scored = threading.Event()

    def scoring_slowly(outcome):
        services.game_finished(outcome)
        scored.set()
        time.sleep(0.5)  # holding the pairing; the table comes next

    def end():
        try:
            hunt_rounds.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
        finally:
            connection.close()

    registry.off_game_finished(services.game_finished)
    registry.on_game_finished(scoring_slowly)
    try:
        ender = threading.Thread(target=end)
        ender.start()
        assert scored.wait(10)
        services.entry_withdraw(tournament_id=tournament.pk, user=ann)
        ender.join()
    finally:
        registry.off_game_finished(scoring_slowly)
        registry.on_game_finished(services.game_finished)
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.FINISHED
    assert sum(pairing.players.values_list("points", flat=True)) == 2  # a table of two, scored once
    assert Entry.objects.get(tournament=tournament, user=ann).waiting_since is None
    assert HuntRound.objects.get(pk=game_round.pk).table.seats.get(user=ann).left_at is None  # it had ended


# --------------------------------------------------------------------------- audit: ends, notices, deadlines


@pytest.mark.django_db
def test_a_paused_arena_still_ends_on_time(director, make_user):
    """An arena paused and never resumed still ends at its end: the sweep finishes it
    (once no table is in play) instead of leaving it paused for ever."""
    tournament = running_arena(director, players=(make_user("ann"), make_user("bob")), minutes=5)
    services.tournament_pause(tournament_id=tournament.pk, by=director)
    tournament.refresh_from_db()
    services.arenas_sweep(now=tournament.ends_at + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    assert not Entry.objects.filter(tournament=tournament, waiting_since__isnull=False).exists()


@pytest.mark.django_db
def test_a_table_whose_start_comes_after_the_end_never_starts(director, make_user):
    """A table seated just before the end whose start comes after it (a late task, the
    sweep) starts no round: the table is undone and the arena then finishes."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_arena(director, players=(ann, bob), minutes=5)
    (table,) = services.arena_seat(tournament_id=tournament.pk, now=tournament.ends_at - timedelta(seconds=1))
    after_end = tournament.ends_at + timedelta(seconds=1)
    assert services.pairing_start(pairing_id=table, now=after_end) is None
    assert not HuntRound.objects.exists() and not Pairing.objects.filter(pk=table).exists()
    services.arena_seat(tournament_id=tournament.pk, now=after_end)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    assert not Entry.objects.filter(tournament=tournament, waiting_since__isnull=False).exists()


@pytest.mark.django_db
def test_a_director_starting_an_event_too_small_cancels_it_and_it_is_logged(director, make_user):
    """A director pressing start on a Swiss with one entrant cancels it, and the log keeps
    who did it, when and why."""
    tournament = running_swiss(director, players=[make_user("ann")])
    tournament.refresh_from_db()
    assert tournament.status == Status.CANCELLED
    action = DirectorAction.objects.get(tournament=tournament, action="cancel")
    assert action.director == director and "not enough players" in action.reason


@pytest.mark.django_db
def test_a_game_nobody_finishes_is_ended_by_its_own_deadline(director, make_user):
    """A Swiss game whose player to move never moves is forfeited by the crossword game's
    own deadline sweep; the forfeit scores in the event, and the event moves on."""
    from games.crosswords.services.deadlines import games_forfeit_overdue

    ann, bob = make_user("ann"), make_user("bob")
    tournament = running_swiss(director, rounds=1, players=[ann, bob])
    (pairing,) = start_games(tournament)
    first = pairing.players.get(seat=0).entry
    assert games_forfeit_overdue(now=timezone.now() + timedelta(days=1, hours=1)) == 1
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.FINISHED
    assert dict(pairing.players.values_list("entry_id", "points")) == {
        first.pk: 0,
        pairing.players.get(seat=1).entry_id: 2,
    }
    assert services.advance(tournament_id=tournament.pk) == "finished"


@pytest.mark.django_db
def test_each_notice_is_sent_once_however_often_its_task_runs(director, make_user):
    """ "Starts in 10 minutes", "round N is paired" and "your game has started" reach each
    player once, however often the reminder, the advance and the start run."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = swiss(director, rounds=2, players=[ann, bob])
    soon = tournament.starts_at - timedelta(minutes=5)
    for _ in range(2):
        services.tournament_remind(tournament_id=tournament.pk, now=soon)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    pairing = Pairing.objects.get(tournament=tournament)
    for _ in range(2):
        services.pairing_start(pairing_id=pairing.pk)
        services.pairings_start_lost(now=timezone.now() + timedelta(minutes=1))
        services.advance(tournament_id=tournament.pk)
    for player in (ann, bob):
        kinds = list(Notification.objects.filter(user=player).values_list("kind", "text"))
        assert [kind for kind, _ in kinds].count("tournament.soon") == 1
        assert [text for kind, text in kinds if kind == "tournament.paired"] == ["Tuesday Swiss: round 1 is paired."]
        assert [kind for kind, _ in kinds].count("tournament.started") == 1
    pairing.refresh_from_db()
    second_player_resigns(pairing)
    for _ in range(2):
        services.advance(tournament_id=tournament.pk)
    assert Notification.objects.filter(user=ann, kind="tournament.paired", text__contains="round 2").count() == 1


@pytest.mark.django_db
def test_check_in_opens_its_window_before_the_start_and_closes_at_it(director, make_user):
    """Checking in before the window opens, or once the event has started, is refused
    with the reason; checking in twice keeps the first time."""
    ann, bob = make_user("ann"), make_user("bob")
    tournament = swiss(director, players=[ann, bob], check_in_minutes=30)
    with pytest.raises(Refused, match="not opened yet"):
        services.entry_check_in(tournament_id=tournament.pk, user=ann)
    opened = tournament.starts_at - timedelta(minutes=20)
    first = services.entry_check_in(tournament_id=tournament.pk, user=ann, now=opened).checked_in_at
    again = services.entry_check_in(tournament_id=tournament.pk, user=ann, now=opened + timedelta(minutes=1))
    assert again.checked_in_at == first
    services.entry_check_in(tournament_id=tournament.pk, user=bob, now=opened)
    services.tournament_start(tournament_id=tournament.pk, by=director)
    with pytest.raises(Refused, match="no check-in"):
        services.entry_check_in(tournament_id=tournament.pk, user=bob)


@pytest.mark.django_db
def test_a_director_edits_an_event_before_it_starts(director, make_user):
    """A director changes an upcoming Swiss's name, rounds and start: kept in the log with
    each value before and after, and the entrants are reminded of the new time. A change
    that does not hold (fewer places than entrants, no name) is refused and changes
    nothing; once the event has started it cannot be edited; players cannot edit."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    tournament = swiss(director, players=[ann, bob, cy])
    services.tournament_remind(tournament_id=tournament.pk, now=tournament.starts_at - timedelta(minutes=5))
    later = tournament.starts_at + timedelta(hours=2)
    services.tournament_edit(tournament_id=tournament.pk, by=director, name="Late Swiss", rounds=5, starts_at=later)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds, tournament.starts_at, tournament.reminded_at) == (
        "Late Swiss",
        5,
        later,
        None,
    )
    action = DirectorAction.objects.get(tournament=tournament, action="edit")
    assert action.director == director and action.details["changes"]["rounds"] == ["3", "5"]
    with pytest.raises(Refused, match="3 players have entered"):
        services.tournament_edit(tournament_id=tournament.pk, by=director, max_players=2, rounds=4)
    with pytest.raises(Refused, match="needs a name"):
        services.tournament_edit(tournament_id=tournament.pk, by=director, name=" ", rounds=4)
    with pytest.raises(Refused, match="directors"):
        services.tournament_edit(tournament_id=tournament.pk, by=ann, rounds=4)
    with pytest.raises(Refused, match="cannot be changed"):
        services.tournament_edit(tournament_id=tournament.pk, by=director, pool="wordgame")
    tournament.refresh_from_db()
    assert tournament.rounds == 5 and tournament.max_players is None
    services.tournament_start(tournament_id=tournament.pk, by=director)
    with pytest.raises(Refused, match="not started"):
        services.tournament_edit(tournament_id=tournament.pk, by=director, rounds=4)
    assert DirectorAction.objects.filter(tournament=tournament, action="edit").count() == 1


@pytest.mark.django_db
def test_an_arena_edited_keeps_its_length_and_a_scheduled_one_its_start(director, make_user):
    """Moving an arena's start moves its end with it; a scheduled arena's start is the
    schedule's and is refused."""
    tournament = arena(director, minutes=30)
    start = tournament.starts_at + timedelta(hours=1)
    services.tournament_edit(tournament_id=tournament.pk, by=director, starts_at=start, minutes=45)
    tournament.refresh_from_db()
    assert tournament.ends_at == start + timedelta(minutes=45)
    schedule = ArenaSchedule.objects.create(
        name="Hourly", pool="rampage", game_settings={}, first_start=start, every_minutes=60
    )
    Tournament.objects.filter(pk=tournament.pk).update(schedule=schedule)
    with pytest.raises(Refused, match="schedule"):
        services.tournament_edit(tournament_id=tournament.pk, by=director, starts_at=start + timedelta(hours=1))


@pytest.mark.django_db
def test_a_round_with_a_set_time_waits_for_it(director, make_user):
    """With a time between round starts, a round that finished early is followed by the
    next only at its set time (the sweep's advance then pairs it)."""
    tournament = swiss(
        director, rounds=2, players=[make_user("ann"), make_user("bob")], round_interval=timedelta(days=1)
    )
    services.tournament_start(tournament_id=tournament.pk, by=director)
    (pairing,) = start_games(tournament)
    second_player_resigns(pairing)
    assert services.advance(tournament_id=tournament.pk) == "waiting"
    set_time = tournament.starts_at + timedelta(days=1)
    assert services.advance(tournament_id=tournament.pk, now=set_time - timedelta(seconds=1)) == "waiting"
    assert services.advance(tournament_id=tournament.pk, now=set_time) == "paired"
    with pytest.raises(Refused, match="two weeks"):
        services.tournament_edit(tournament_id=swiss(director).pk, by=director, round_interval=timedelta(days=15))
