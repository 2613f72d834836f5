"""Live hunt rounds survive their processes and their Redis being killed or restarted mid-round.

Each test plays a Rampage round (30 seconds; 60 where a worker boots again) between a
person (a websocket client typing words) and two bots, on real daphne, worker and beat
processes, breaks one part in the middle, and then checks that nothing was lost: every
word the person was told was accepted is stored once, the bots went on finding words
after the fault, the round ended on its own within seconds of its deadline, its results
are the stored words, and no word is stored at or after the deadline.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import hunt
from games.hunts import bot_profiles, services
from games.hunts.models import FoundWord, HuntRound, HuntTable, RoundStatus
from lexicon.services import get_lexicon
from tests.faults.conftest import SocketPlayer, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

ROUND_SECONDS = 30  # the shortest round a table allows
WORKER_ROUND_SECONDS = 60
# The sweep runs every 5 s and ends rounds 2 s overdue; with a busy machine's slack:
ENDS_WITHIN = timedelta(seconds=12)


class Round:
    """A Rampage round in play: ``ann`` at the table socket, two bots seated."""

    def __init__(self, site, make_user, test: str, seconds: int = ROUND_SECONDS):
        self.site, self.test, self.seconds = site, test, seconds
        self.ann = make_user("ann")
        # The two quickest levels: the test is of recovery, and quick bots show it soon.
        self.table = services.table_create(host=self.ann, seat_count=3, bots=("master", "hard"))
        HuntTable.objects.filter(pk=self.table.pk).update(round_seconds=seconds)
        self.bots = set(self.table.seats.exclude(bot_strength="").values_list("user_id", flat=True))
        self.ann_socket = SocketPlayer(site, f"/ws/hunts/{self.table.pk}/", self.ann)
        assert self.ann_socket.wait_for(lambda m: m["type"] == "state"), "no state on connect"
        self.ann_socket.send({"type": "start"})
        self.round = wait_until(lambda: HuntRound.objects.filter(table=self.table).first(), 10)
        assert self.round is not None, "the round did not start"
        board = hunt.Board.from_text(self.round.board)
        on_board = hunt.solve(
            board, get_lexicon(self.round.lexicon_code, self.round.lexicon_version), self.round.min_length
        )
        # Long words first: the bots prefer common and short ones, so fewer are taken.
        self.words = sorted(on_board, key=lambda w: (-len(w), w))
        self.accepted: set[str] = set()
        self.events: list[str] = []
        wait_until(lambda: timezone.now() >= self.round.starts_at, 10)

    def event(self, what: str) -> None:
        """Note ``what`` happened now, in seconds since the board showed."""
        self.events.append(f"{what} at {(timezone.now() - self.round.starts_at).total_seconds():.1f} s")

    def play(self, seconds: float, socket: SocketPlayer | None = None) -> None:
        """Ann types a word about every half second for ``seconds``, noting the accepted ones."""
        socket = socket or self.ann_socket
        until = time.monotonic() + seconds
        while time.monotonic() < until and self.words:
            if timezone.now() >= self.round.deadline - timedelta(seconds=1):
                return
            word = self.words.pop(0)
            reply = socket.request({"type": "submit", "round_id": self.round.pk, "word": word})
            assert reply is not None, f"no reply to {word}"
            if reply["outcome"] == "accepted":
                self.accepted.add(word)
            time.sleep(0.5)

    def longest_pause(self) -> float:
        """The longest pause either bot takes between words this round, at its form."""
        seats = self.table.seats.exclude(bot_strength="").values_list("user_id", "bot_strength")
        return max(bot_profiles.PROFILES[s].pace[1] / bot_profiles.form(self.round.seed, u) for u, s in seats)

    def resume_within(self) -> float:
        """Seconds in which a bot finds a word after a fault: the sweep's 5 s, then the
        longest pause, with a busy machine's slack."""
        return 5 + self.longest_pause() + 1

    def bot_words_since(self, moment) -> int:
        return FoundWord.objects.filter(round=self.round, user_id__in=self.bots, found_at__gt=moment).count()

    def check_nothing_lost(self) -> HuntRound:
        """The round ended by itself, with every accepted word stored once and results from the rows."""
        ended = wait_until(
            lambda: HuntRound.objects.filter(pk=self.round.pk, status=RoundStatus.FINISHED).first(),
            (self.round.deadline + ENDS_WITHIN - timezone.now()).total_seconds(),
        )
        assert ended is not None, "the round did not end within seconds of its deadline"
        assert ended.ended_at <= ended.deadline + ENDS_WITHIN
        words = list(FoundWord.objects.filter(round=ended))
        mine = [w.word for w in words if w.user_id == self.ann.pk]
        assert sorted(mine) == sorted(self.accepted), "ann's stored words differ from the accepted ones"
        assert len({w.word for w in words}) == len(words), "a word is stored twice"
        assert all(w.found_at < ended.deadline for w in words), "a word was stored after the deadline"
        for player in ended.players.all():
            own = [w for w in words if w.user_id == player.user_id]
            assert player.score == sum(w.points for w in own)
            assert player.word_count == len(own)
        # Nothing arrives later either (bot turns still queued, a second end task).
        time.sleep(2)
        assert FoundWord.objects.filter(round=ended).count() == len(words)
        late = (ended.ended_at - ended.deadline).total_seconds()
        self.site.note(
            f"{self.test}: {self.seconds} s round; "
            + "; ".join(self.events)
            + f"; ended {late:.1f} s after the deadline; {len(self.accepted)} words accepted for the person,"
            f" {len(mine)} stored; {len(words) - len(mine)} bot words; lost 0, doubled 0, after the deadline 0"
        )
        return ended


def test_worker_killed_mid_round(fault_site, make_user):
    """kill -9 the worker mid-round: when it returns, bots find words again and the round ends."""
    # A worker takes its boot's time to come back, 20 s on a loaded machine: the round
    # must still have the bots' resume time left after that.
    game = Round(fault_site, make_user, "worker killed", seconds=WORKER_ROUND_SECONDS)
    game.play(6)
    assert game.bot_words_since(game.round.starts_at) > 0, "the bots never played"
    fault_site.kill("worker")
    killed_at = timezone.now()
    game.event("worker SIGKILLed")
    game.play(5)  # people play on: the web process needs no worker
    fault_site.restart("worker")
    assert fault_site.worker_ready()
    back_at = timezone.now()
    game.event("worker back")
    left = (game.round.deadline - back_at).total_seconds()
    assert left > game.resume_within(), f"the worker took until {left:.1f} s before the deadline to come back"
    game.play(6)
    assert wait_until(lambda: game.bot_words_since(back_at) > 0, game.resume_within()), "the bots did not resume"
    game.event("bots finding words again")
    assert game.bot_words_since(killed_at) >= game.bot_words_since(back_at)
    game.check_nothing_lost()
    assert game.ann_socket.wait_for(lambda m: m["type"] == "round.ended", 5), "the page never heard the end"


def test_redis_restarted_mid_round(fault_site, make_user):
    """Redis restarts empty mid-round: its queued tasks are gone, yet bots go on and the round ends.

    The page stays open across the restart and hears the finds and the end; a page
    opened after it connects at once (no 1011) and gets the whole state.
    """
    game = Round(fault_site, make_user, "Redis restarted")
    game.play(6)
    fault_site.redis.kill()
    game.event("Redis SIGKILLed")
    time.sleep(1)
    fault_site.redis.start()
    back_at = timezone.now()
    game.event("Redis back, empty")
    # A page opened at once, before the layer may have noticed the restart.
    early = SocketPlayer(fault_site, f"/ws/hunts/{game.table.pk}/")
    # Finds broadcast while Redis was away are lost: the open page is sent the whole table.
    assert game.ann_socket.wait_for(
        lambda m: (
            m["type"] == "state" and m["server_now"] > back_at.timestamp() * 1000 and m["round"]["status"] == "playing"
        ),
        10,
    ), "the open page was not resynced"
    game.event("open page sent the whole table")
    game.play(4)
    assert wait_until(lambda: game.bot_words_since(back_at) > 0, game.resume_within() + 2), "the bots did not resume"
    game.event("bots finding words again")
    watcher = SocketPlayer(fault_site, f"/ws/hunts/{game.table.pk}/")
    state = watcher.wait_for(lambda m: m["type"] == "state", 5)
    assert state is not None and state["round"]["id"] == game.round.pk
    game.play(4)
    ended = game.check_nothing_lost()
    for socket in (game.ann_socket, watcher):
        final = socket.wait_for(lambda m: m["type"] == "state" and (m["round"] or {}).get("status") == "finished", 10)
        # The page resynced after the restart: its last state equals the database.
        assert final is not None, "a page did not catch up with the end"
        assert {f["word"] for f in final["round"]["found"]} == set(
            FoundWord.objects.filter(round=ended).values_list("word", flat=True)
        )
    assert "Unrecoverable error" not in fault_site.log("worker")
    assert early.wait_for(lambda m: m["type"] == "state", 1), "the page opened at once got no state"
    assert 1011 not in watcher.closes + early.closes


def test_daphne_restarted_mid_round(fault_site, make_user):
    """The web process is killed mid-round: pages reconnect and their state equals the database."""
    game = Round(fault_site, make_user, "daphne killed")
    game.play(6)
    fault_site.kill("daphne")
    game.event("daphne SIGKILLed")
    assert wait_until(lambda: not game.ann_socket.connected, 5)
    killed, killed_at = time.time(), timezone.now()
    # The bots play on while no page is connected: one finds a word before daphne returns.
    assert wait_until(lambda: game.bot_words_since(killed_at) > 0, game.longest_pause() + 1), "the bots stopped"
    fault_site.restart("daphne")
    game.event("daphne back")
    # The page connects again by itself and is sent the whole table.
    state = game.ann_socket.wait_for(lambda m: m["type"] == "state" and m["server_now"] > killed * 1000, 20)
    assert state is not None, "the page did not reconnect"
    game.event("page reconnected with the whole table")
    stored = set(
        FoundWord.objects.filter(round=game.round, found_at__lte=timezone.now() - timedelta(seconds=1)).values_list(
            "word", flat=True
        )
    )
    assert stored <= {f["word"] for f in state["round"]["found"]}
    game.play(6)
    game.check_nothing_lost()
