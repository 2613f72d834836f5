"""The game-kind registry: every game app registers its kind, and the shared parts find a
new kind there without a line of theirs changed (a toy kind, registered by the test)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from django.template import Template

from games import notifications, registry
from games.ratings.pools import pool_codes, pool_info

pytestmark = pytest.mark.django_db

#: What the toy kind's players have: {user id: [(section, game name)]}, and the games
#: waiting for each one's move.
TOY_GAMES: dict[int, list[tuple[str, str]]] = {}
TOY_ROWS = Template('{% for name in items %}<p data-toy="{{ section }}">{{ name }}</p>{% endfor %}')
TOY_CARD = Template('<section class="card" data-my-games="toys">{{ card.note }}</section>')


def toy_listings(user):
    sections = {}
    for section, name in TOY_GAMES.get(user.pk, []):
        sections.setdefault(section, []).append(name)
    return {section: registry.Listing(TOY_ROWS, names) for section, names in sections.items()}


#: The toy tables' players, by table: a toy room has chat once two sit there.
TOY_TABLES: dict[int, set[int]] = {}
TOY_ROOM = registry.RoomKind(
    code="toy",
    group=lambda table_id: f"toy.{table_id}.chat",
    has_chat=lambda table_id: len(TOY_TABLES.get(table_id, ())) >= 2,
    may_read=lambda table_id, user: user.pk in TOY_TABLES.get(table_id, ()),
    refusal="Only the toy table's players chat here.",
)

#: The toy games whose bot was handed its turn.
TOY_BOTS_QUEUED: list[int] = []


@dataclass
class ToyGame:
    """A game of the toy kind as the shared turn machinery sees one."""

    pk: int
    seconds_per_move: int
    game_kind: str = "toy"

    def __str__(self) -> str:
        return f"Toy #{self.pk}"

    def get_absolute_url(self) -> str:
        return f"/toy/{self.pk}/"


TOY = registry.GameKind(
    code="toy",
    name="Toy game",
    app_label="toy",
    pools=(registry.Pool("toy", "Toy ladder", "toy"),),
    how_to_play=(registry.HowTo("toy", "Toy game", "howto/_base.html"),),
    lobby=(registry.Link("Toys", "howto"),),
    rooms=(TOY_ROOM,),
    statistics=registry.Statistics(
        records=lambda user, recent: [registry.Record("toy", 3, 2, 12.5, ("won", "won", "lost")[:recent])],
        opponents=lambda user: {},
        best_plays=lambda user, viewer: registry.Card(
            Template("<li>Best toy: {{ best.best_toy }}</li>"), {"best_toy": f"TOY by {user.username}"}
        ),
    ),
    notices=notifications.turn_notices("toy"),
    turns=registry.Turns(
        opening="rolled the highest and goes first",
        queue_bot=lambda game: TOY_BOTS_QUEUED.append(game.pk),
        queue_deadline=lambda game_id, eta: None,
    ),
    my_games=registry.MyGames(
        listings=toy_listings,
        card=lambda user: registry.Card(TOY_CARD, {"note": f"Toy box of {user.username}"}),
        awaiting=lambda user: sum(1 for section, _ in TOY_GAMES.get(user.pk, []) if section == "my_turn"),
        links=(registry.Link("New toy game", "howto", fragment="#toy"),),
    ),
)


@pytest.fixture
def toy_kind():
    registry.register(TOY)
    yield TOY
    registry.unregister(TOY.code)


def test_each_game_app_registers_its_kind_with_its_pools():
    """Hunts, crosswords and TOW are registered from their apps, in the apps' order, and
    own the six pools in display order."""
    assert [(kind.code, kind.app_label) for kind in registry.kinds()] == [
        ("hunt", "hunts"),
        ("crossword", "crosswords"),
        ("tow", "tow"),
    ]
    assert pool_codes() == ("rampage", "classic4", "classic5", "wordgrid", "wordgame", "tow")
    assert registry.kind_of_app("crosswords").pool("wordgame").name == "Wordgame"
    assert {pool.family for pool in registry.pools()} == {"hunt", "crossword", "tow"}


def test_a_kind_registers_once_and_clashes_are_refused(toy_kind):
    """Registering the same kind again changes nothing; another kind by the same code, app
    or pool code is refused, and a lookup of an unknown kind says so."""
    assert registry.register(TOY) is TOY
    assert [kind.code for kind in registry.kinds()].count("toy") == 1
    with pytest.raises(registry.RegistryError, match="registered already"):
        registry.register(registry.GameKind(code="toy", name="Another", app_label="other"))
    with pytest.raises(registry.RegistryError, match="registered the kind 'toy'"):
        registry.register(registry.GameKind(code="other", name="Other", app_label="toy"))
    with pytest.raises(registry.RegistryError, match="owns the pool"):
        registry.register(
            registry.GameKind(code="other", name="Other", app_label="other", pools=(registry.Pool("tow", "", "other"),))
        )
    with pytest.raises(registry.RegistryError, match="family"):
        registry.register(
            registry.GameKind(code="other", name="Other", app_label="other", pools=(registry.Pool("x", "", "toy"),))
        )
    with pytest.raises(registry.RegistryError, match="No game kind 'chess'"):
        registry.kind("chess")
    assert "other" not in [kind.code for kind in registry.kinds()]


def test_a_new_kind_brings_its_pool_how_to_page_and_link(client, toy_kind):
    """A registered kind's pool has a leaderboard (page and API), its how-to page is served
    and listed with the others, and its lobby link is in the header; once it is gone, so
    are they."""
    assert pool_codes()[-1] == "toy" and pool_info("toy").name == "Toy ladder"
    page = client.get("/ratings/toy/")
    assert page.status_code == 200 and "Toy ladder" in page.content.decode()
    assert client.get("/api/leaderboards/toy").json() == {"pool": "toy", "players": []}
    howto = client.get("/how-to-play/toy/").content.decode()
    assert "How to play Toy game" in howto
    assert 'href="/how-to-play/toy/"' in client.get("/how-to-play/rampage/").content.decode()
    assert '<a href="/how-to-play/">Toys</a>' in client.get("/").content.decode()

    registry.unregister("toy")
    assert "toy" not in pool_codes()
    assert client.get("/ratings/toy/").status_code == 404
    assert client.get("/how-to-play/toy/").status_code == 404
    assert "Toys" not in client.get("/").content.decode()


def test_a_finished_game_is_told_to_every_receiver_in_order(toy_kind):
    """``game_finished`` calls each subscribed receiver once, in subscription order, with
    the kind's outcome; an outcome of a kind nobody registered is refused."""
    heard = []
    first = registry.on_game_finished(lambda outcome: heard.append(("first", outcome.object_id)))
    second = registry.on_game_finished(lambda outcome: heard.append(("second", outcome.object_id)))
    registry.on_game_finished(first)  # twice is once
    outcome = registry.Outcome(
        kind="toy",
        object_id=7,
        pool="toy",
        ranked=True,
        ending=registry.Ending.NORMAL,
        players=(
            registry.PlayerResult(user_id=1, place=1, score=30, moves=3),
            registry.PlayerResult(user_id=2, place=2, score=20, moves=2, ended=registry.Ended.RESIGNED),
        ),
        finished_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    try:
        registry.game_finished(outcome)
        with pytest.raises(registry.RegistryError):
            registry.game_finished(registry.Outcome(**{**outcome.__dict__, "kind": "chess"}))
    finally:
        registry.off_game_finished(first)
        registry.off_game_finished(second)
    assert heard == [("first", 7), ("second", 7)]
    assert outcome.moves == 5 and [player.left for player in outcome.players] == [False, True]


@pytest.fixture
def heard():
    """The outcomes told to the finished-game hook during the test, with whether the
    finishing transaction was still open when each was told."""
    from django.db import connection

    told = []

    def receiver(outcome):
        told.append((outcome, connection.in_atomic_block))

    registry.on_game_finished(receiver)
    yield told
    registry.off_game_finished(receiver)


def test_a_finished_crossword_game_tells_its_outcome_inside_the_finishing_transaction(make_user, heard):
    """A pass, then the other player resigns: the hook hears, inside the transaction, who
    placed where, who resigned, each player's turns and that a resignation ended it; the
    kind's ``game_outcome`` reads the same afterwards."""
    from games.crosswords import services as crosswords

    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(creator=ann, variant="wordgame", seconds_per_move=86400, invitees=[bob], ranked=True)
    crosswords.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    first = game.seats.get(index=game.to_move).user
    second = bob if first == ann else ann
    crosswords.game_pass(game_id=game.pk, player=first, move_count=game.move_count)
    assert heard == []
    crosswords.game_resign(game_id=game.pk, player=second)
    [(outcome, in_transaction)] = heard
    assert in_transaction
    assert (outcome.kind, outcome.object_id, outcome.pool, outcome.ranked) == ("crossword", game.pk, "wordgame", True)
    assert outcome.ending == registry.Ending.RESIGNED and outcome.url == game.get_absolute_url()
    assert {p.user_id: (p.place, p.ended, p.moves, p.is_bot) for p in outcome.players} == {
        first.pk: (1, registry.Ended.PLAYED, 1, False),
        second.pk: (2, registry.Ended.RESIGNED, 0, False),
    }
    ref = registry.GameRef("crossword", game.pk, game.get_absolute_url())
    assert registry.kind("crossword").game_outcome(ref) == outcome


def test_a_game_still_being_played_has_no_outcome(make_user):
    """``game_outcome`` is None until the game has finished."""
    from games.tow import services as tow

    ann, bob = make_user("ann"), make_user("bob")
    game = tow.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    assert registry.kind("tow").game_outcome(registry.GameRef("tow", game.pk, "")) is None
    tow.game_accept(game_id=game.pk, player=bob)
    assert registry.kind("tow").game_outcome(registry.GameRef("tow", game.pk, "")) is None
    tow.game_resign(game_id=game.pk, player=bob)
    outcome = registry.kind("tow").game_outcome(registry.GameRef("tow", game.pk, ""))
    assert outcome.ending == registry.Ending.ABANDONED and outcome.pool == "tow" and outcome.moves == 0


def test_a_hunt_round_tells_who_left_and_how_much_of_the_round_they_played(make_user, heard):
    """A ranked round a player left halfway through: the outcome has them left, with half
    the round played and their words counted as moves; the others played it all."""
    from datetime import timedelta

    from games.hunts import services as hunts
    from games.hunts.models import HuntRound, HuntSeat

    ann, bob = make_user("ann"), make_user("bob")
    table = hunts.table_create(host=ann, game="rampage", seat_count=2, ranked=True)
    hunts.table_join(table_id=table.pk, user=bob)
    game_round = hunts.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(board="cats/orex/ding/plum")
    during = game_round.starts_at + timedelta(seconds=1)
    for user, word in ((ann, "cat"), (bob, "cats"), (bob, "ore")):
        assert hunts.round_submit(round_id=game_round.pk, user=user, word=word, now=during).outcome == "accepted"
    hunts.table_leave(table_id=table.pk, user=bob)
    HuntSeat.objects.filter(table=table, user=bob).update(
        left_at=game_round.starts_at + (game_round.deadline - game_round.starts_at) / 2
    )
    hunts.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    [(outcome, in_transaction)] = heard
    assert in_transaction and (outcome.kind, outcome.object_id, outcome.pool) == ("hunt", game_round.pk, "rampage")
    players = {p.user_id: p for p in outcome.players}
    assert (players[bob.pk].ended, players[bob.pk].moves, players[bob.pk].share_played) == (
        registry.Ended.LEFT,
        2,
        0.5,
    )
    assert (players[ann.pk].ended, players[ann.pk].moves, players[ann.pk].share_played) == (
        registry.Ended.PLAYED,
        1,
        1.0,
    )


def outcome_of_toy(*players, ranked=True, ending=registry.Ending.NORMAL, object_id=1):
    return registry.Outcome(
        kind="toy",
        object_id=object_id,
        pool="toy",
        ranked=ranked,
        ending=ending,
        players=players,
        finished_at=datetime(2026, 1, 1, tzinfo=UTC),
        url="/toy/1/",
    )


def test_a_new_kinds_finished_games_are_rated_by_the_one_rule(make_user, toy_kind):
    """A toy kind's ranked game between two people is recorded in its pool; its casual,
    abandoned and bot games are not; the rating update moves the winner up."""
    from games.ratings import services as ratings
    from games.ratings.models import RatedResult
    from games.ratings.selectors import player_rating

    ann, bob, bot = make_user("ann"), make_user("bob"), make_user("toybot")
    win = registry.PlayerResult(user_id=ann.pk, place=1, score=30, moves=4)
    loss = registry.PlayerResult(user_id=bob.pk, place=2, score=10, moves=3)
    registry.game_finished(outcome_of_toy(win, loss, object_id=1))
    registry.game_finished(outcome_of_toy(win, loss, ranked=False, object_id=2))
    registry.game_finished(outcome_of_toy(win, loss, ending=registry.Ending.ABANDONED, object_id=3))
    registry.game_finished(
        outcome_of_toy(win, registry.PlayerResult(user_id=bot.pk, place=2, is_bot=True), object_id=4)
    )
    [result] = RatedResult.objects.all()
    assert (result.kind, result.pool, result.object_id, result.url) == ("toy", "toy", 1, "/toy/1/")
    ratings.ratings_apply(pool="toy")
    assert player_rating(ann, "toy").rating > 1500 > player_rating(bob, "toy").rating


def test_a_tournament_starts_a_crossword_game_with_every_seat_taken(make_user):
    """``start_game`` seats the players in order, every seat accepted, starts the clock
    and tells both players; the game is ranked if asked and has no outcome yet."""
    from accounts.models import Notification
    from games.crosswords.models import Game, Status

    ann, bob = make_user("ann"), make_user("bob")
    ref = registry.kind("crossword").start_game(
        [ann, bob], {"variant": "wordgame", "seconds_per_move": 86400, "ranked": True}
    )
    game = Game.objects.get(pk=ref.id)
    assert ref == registry.GameRef("crossword", game.pk, game.get_absolute_url())
    assert (game.status, game.variant, game.ranked) == (Status.ACTIVE, "wordgame", True)
    assert list(game.seats.values_list("index", "user_id", "accepted")) == [(0, ann.pk, True), (1, bob.pk, True)]
    assert {n.user_id for n in Notification.objects.all()} == {ann.pk, bob.pk}
    assert registry.kind("crossword").game_outcome(ref) is None


@pytest.mark.parametrize("code", ["crossword", "tow", "hunt"])
def test_a_tournament_game_needs_two_different_people(make_user, code):
    """One player, a player seated twice or a bot is refused, and nothing is created."""
    from config.errors import Refused
    from games.crosswords.models import Game as CrosswordGame
    from games.hunts.models import HuntTable
    from games.tow.models import Game as TowGame

    ann, bot = make_user("ann"), make_user("robot", is_bot=True)
    settings = {"crossword": {"variant": "wordgrid", "seconds_per_move": 600}, "tow": {"seconds_per_move": 600}}
    for players in ([ann], [ann, ann], [ann, bot]):
        with pytest.raises(Refused):
            registry.kind(code).start_game(players, settings.get(code, {}))
    assert not CrosswordGame.objects.exists() and not TowGame.objects.exists() and not HuntTable.objects.exists()


def test_a_tournament_starts_a_tow_game_and_a_hunt_round(make_user):
    """A TOW game of three starts with the seats in order; a hunt's game is a round at a
    new table of the players, playing at once."""
    from games.hunts.models import HuntRound, RoundStatus
    from games.tow.models import Game as TowGame
    from games.tow.models import Status

    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    tow = registry.kind("tow").start_game([cy, ann, bob], {"seconds_per_move": 3600, "words": "en-gb"})
    game = TowGame.objects.get(pk=tow.id)
    assert (game.status, game.words, game.players) == (Status.ACTIVE, "en-gb", 3)
    assert list(game.seats.values_list("user_id", flat=True)) == [cy.pk, ann.pk, bob.pk]
    hunt = registry.kind("hunt").start_game([bob, ann], {"game": "classic", "size": 5, "ranked": True})
    game_round = HuntRound.objects.select_related("table").get(pk=hunt.id)
    assert hunt.url == game_round.table.get_absolute_url()
    assert (game_round.status, game_round.game, game_round.size, game_round.table.ranked) == (
        RoundStatus.PLAYING,
        "classic",
        5,
        True,
    )
    assert game_round.table.host_id == bob.pk
    assert sorted(game_round.players.values_list("user_id", flat=True)) == sorted([ann.pk, bob.pk])
    assert registry.kind("hunt").game_outcome(hunt) is None


def test_every_kind_exports_a_players_games_as_json(make_user):
    """Each kind's export holds the player's games and their own moves (a crossword pass,
    a hunt word), and reads as JSON."""
    import json
    from datetime import timedelta

    from games.crosswords import services as crosswords
    from games.hunts import services as hunts
    from games.hunts.models import HuntRound
    from games.tow import services as tow

    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(creator=bob, variant="wordgrid", seconds_per_move=86400, invitees=[ann])
    crosswords.game_accept(game_id=game.pk, player=ann)
    game.refresh_from_db()
    opener = game.seats.get(index=game.to_move).user
    crosswords.game_pass(game_id=game.pk, player=opener, move_count=game.move_count)
    waiting = tow.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    table = hunts.table_create(host=ann, game="rampage", seat_count=2)
    hunts.table_join(table_id=table.pk, user=bob)
    game_round = hunts.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(board="cats/orex/ding/plum")
    hunts.round_submit(round_id=game_round.pk, user=ann, word="cats", now=game_round.starts_at + timedelta(seconds=1))

    exported = {kind.code: json.loads(json.dumps(hook(ann))) for kind, hook in registry.hooks("export_player")}
    assert set(exported) == {"hunt", "crossword", "tow"}
    crossword = exported["crossword"]
    assert [(g["id"], g["variant"], g["status"]) for g in crossword["games"]] == [(game.pk, "wordgrid", "active")]
    assert [m["kind"] for m in crossword["moves"]] == (["pass"] if opener == ann else [])
    assert [(g["id"], g["status"], g["seat"]) for g in exported["tow"]["games"]] == [(waiting.pk, "waiting", 0)]
    [played] = exported["hunt"]["rounds"]
    assert played["round"] == game_round.pk and [w["word"] for w in played["words"]] == ["cats"]
    assert [seat["table"] for seat in exported["hunt"]["seats"]] == [table.pk]


def test_forgetting_a_player_ends_their_unfinished_games_and_keeps_the_finished(make_user):
    """A waiting game is cancelled and its other player told, a game in play is resigned
    (the other player wins), the player stands up from their table and leaves the ranked
    queue; a finished game is as it was."""
    from accounts.models import Notification
    from games.crosswords import services as crosswords
    from games.crosswords.models import Game
    from games.hunts import services as hunts
    from games.hunts.models import HuntSeat, QueueEntry
    from games.models import Status
    from games.tow import services as tow
    from games.tow.models import Game as TowGame

    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    finished = crosswords.game_create(creator=ann, variant="wordgame", seconds_per_move=86400, invitees=[bob])
    crosswords.game_accept(game_id=finished.pk, player=bob)
    crosswords.game_resign(game_id=finished.pk, player=bob)
    invited = crosswords.game_create(creator=bob, variant="wordgrid", seconds_per_move=86400, invitees=[ann])
    playing = tow.game_create(creator=cy, seconds_per_move=86400, invitees=[ann])
    tow.game_accept(game_id=playing.pk, player=ann)
    table = hunts.table_create(host=ann, game="rampage", seat_count=3)
    hunts.table_join(table_id=table.pk, user=cy)
    hunts.queue_join(user=ann, pool="classic4")
    before = Notification.objects.count()

    for _, forget in registry.hooks("forget_player"):
        forget(ann)

    assert Game.objects.get(pk=invited.pk).status == Status.CANCELLED
    assert Notification.objects.filter(user=bob, kind="crossword.cancelled").exists()
    playing = TowGame.objects.get(pk=playing.pk)
    assert playing.status == Status.FINISHED
    assert dict(playing.seats.values_list("user_id", "left")) == {cy.pk: "", ann.pk: "resigned"}
    assert not HuntSeat.objects.filter(user=ann, left_at__isnull=True).exists()
    assert HuntSeat.objects.get(table=table, left_at__isnull=True).user == cy
    assert not QueueEntry.objects.filter(user=ann).exists()
    finished.refresh_from_db()
    assert finished.status == Status.FINISHED and dict(finished.seats.values_list("user_id", "place")) == {
        ann.pk: 1,
        bob.pk: 2,
    }
    assert Notification.objects.count() > before


def test_a_new_kinds_games_show_in_my_games_and_the_badge(client, make_user, toy_kind):
    """The toy kind's games sit in the sections it names, its card and its button show, and
    the badge counts its turns with the others'; without the kind they are gone."""
    from accounts.my_games import awaiting_count

    ann = make_user("ann")
    TOY_GAMES[ann.pk] = [("my_turn", "Toy #1"), ("my_turn", "Toy #2"), ("finished", "Toy #0")]
    client.force_login(ann)
    try:
        page = client.get("/games/").content.decode()
        my_turn = page.split('data-my-games="my-turn"')[1].split("</section>")[0]
        assert '<p data-toy="my_turn">Toy #1</p><p data-toy="my_turn">Toy #2</p>' in my_turn
        assert "No game is waiting for you." not in my_turn
        assert '<p data-toy="finished">Toy #0</p>' in page.split('data-my-games="finished"')[1]
        assert "Toy box of ann" in page and 'href="/how-to-play/#toy">New toy game</a>' in page
        assert awaiting_count(ann) == 2 and "data-games-awaiting>2<" in page
        registry.unregister("toy")
        page = client.get("/games/").content.decode()
        assert "Toy #" not in page and "Toy box" not in page and awaiting_count(ann) == 0
    finally:
        TOY_GAMES.clear()


def test_a_new_kinds_rooms_have_chat_for_whom_the_kind_says(make_user, toy_kind, django_capture_on_commit_callbacks):
    """A toy table's room has chat once two people sit there; its players write and read
    it, the message goes to the kind's group, and anyone else is refused with the kind's
    reason; once the kind is gone its rooms have no chat."""
    from chat import rooms, selectors, services
    from config.errors import Refused

    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    room = rooms.Room("toy", 5)
    TOY_TABLES[5] = {ann.pk}
    try:
        assert not rooms.has_chat(room)
        TOY_TABLES[5].add(bob.pk)
        assert rooms.has_chat(room) and room.group == "toy.5.chat" and room.own_group
        with django_capture_on_commit_callbacks() as sent:
            services.message_post(room=room, user=ann, text="good luck")
        assert len(sent) == 1
        history = selectors.opening(room, bob)
        assert [m["text"] for m in history["messages"]] == ["good luck"] and history["room"] == "toy.5"
        assert selectors.opening(room, cy) is None
        with pytest.raises(Refused, match="Only the toy table's players chat here."):
            services.message_post(room=room, user=cy, text="hello")
        registry.unregister("toy")
        assert not rooms.has_chat(room) and not rooms.may_read(room, ann)
    finally:
        TOY_TABLES.clear()


def test_a_new_kinds_notices_follow_the_one_email_rule(make_user, toy_kind, django_capture_on_commit_callbacks):
    """A toy game's turn and result are notices of the toy kind (``toy.turn``,
    ``toy.over``) with the toy kind's own opening; a correspondence turn is emailed, a
    live one is not, a result always is; a bot handed the turn is queued, not told."""
    from accounts.models import Notification
    from games import seating

    ann, bob, bot = make_user("ann"), make_user("bob"), make_user("toybot", is_bot=True)
    slow, live = ToyGame(pk=1, seconds_per_move=86400), ToyGame(pk=2, seconds_per_move=120)
    assert {notice.code for notice in registry.kind("toy").notices} >= {"toy.turn", "toy.over", "toy.reminder"}
    with django_capture_on_commit_callbacks() as emails:
        notifications.your_turn(slow, user=ann, news="bob played TOY for 9")
    assert len(emails) == 2  # the live badge and the email
    with django_capture_on_commit_callbacks() as emails:
        notifications.your_turn(live, user=ann)
        notifications.game_over(live, user=bob, result="ann won.")
    assert len(emails) == 3  # two badges, one email: the result
    notifications.started(live, user=bob, to_move=ann)
    seating.hand_over(live, bot)
    told = list(Notification.objects.order_by("pk").values_list("user__username", "kind", "text", "url"))
    try:
        assert told == [
            ("ann", "toy.turn", "bob played TOY for 9; your turn in Toy #1.", "/toy/1/"),
            ("ann", "toy.turn", "Your turn in Toy #2.", "/toy/2/"),
            ("bob", "toy.over", "Toy #2 is over: ann won.", "/toy/2/"),
            ("bob", "toy.started", "Toy #2 has started: ann rolled the highest and goes first.", "/toy/2/"),
        ]
        assert TOY_BOTS_QUEUED == [2]
    finally:
        TOY_BOTS_QUEUED.clear()


def test_a_new_kinds_record_and_best_plays_show_on_the_profile(client, make_user, toy_kind):
    """A toy kind's record fills its pool's row (played, won, the streak) and its best
    play shows with the others', with no shared file changed."""
    make_user("ann")
    page = client.get("/u/ann/").content.decode()
    row = page.split('data-pool="toy"')[1].split("</tr>")[0]
    assert "Toy ladder" in row and '<td class="num">3</td>' in row and "2 won" in row
    assert "<li>Best toy: TOY by ann</li>" in page
