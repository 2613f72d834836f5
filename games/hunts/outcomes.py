"""How a scored hunt round reads to the shared parts (``games.registry.Outcome``).

A round is the hunts' finished game: each player's placing and score, the words they
found (their moves), and whether they stood up from the table before the round's end —
then they left, and ``share_played`` says how much of the round's time they sat through.
A round ends by its clock; one in which nobody found a word was abandoned.
"""

from __future__ import annotations

from django.db.models import Count

from games import registry

from .models import FoundWord, HuntRound, HuntSeat, RoundStatus
from .pools import hunt_pool

KIND = "hunt"


def _share(left_at, game_round: HuntRound) -> float:
    length = (game_round.deadline - game_round.starts_at).total_seconds()
    if length <= 0:
        return 1.0
    return min(1.0, max(0.0, (left_at - game_round.starts_at).total_seconds() / length))


def outcome_of(game_round: HuntRound) -> registry.Outcome | None:
    """The outcome of a finished round, None while it is being played."""
    if game_round.status != RoundStatus.FINISHED:
        return None
    players = list(game_round.players.select_related("user"))
    user_ids = [player.user_id for player in players]
    # Early is before the deadline: a round scored late (its end task lost) must not count
    # as left someone who stood up after playing it to the end.
    left = dict(
        HuntSeat.objects.filter(
            table_id=game_round.table_id,
            user_id__in=user_ids,
            left_at__gte=game_round.created_at,
            left_at__lt=game_round.deadline,
        ).values_list("user_id", "left_at")
    )
    found = dict(
        FoundWord.objects.filter(round=game_round).values("user_id").annotate(n=Count("pk")).values_list("user_id", "n")
    )
    return registry.Outcome(
        kind=KIND,
        object_id=game_round.pk,
        pool=hunt_pool(game_round.game, game_round.size),
        ranked=game_round.table.ranked,
        ending=registry.Ending.NORMAL if found else registry.Ending.ABANDONED,
        players=tuple(
            registry.PlayerResult(
                user_id=player.user_id,
                place=player.placing or len(players),
                score=player.score,
                ended=registry.Ended.LEFT if player.user_id in left else registry.Ended.PLAYED,
                moves=found.get(player.user_id, 0),
                is_bot=bool(player.bot_strength) or player.user.is_bot,
                share_played=_share(left[player.user_id], game_round) if player.user_id in left else 1.0,
            )
            for player in players
        ),
        finished_at=game_round.ended_at,
        url=game_round.get_absolute_url(),
    )
