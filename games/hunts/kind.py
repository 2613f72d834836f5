"""Word hunts as a game kind: what the shared parts of the site ask of them (games.registry)."""

from __future__ import annotations

from friends import selectors as friends
from games import registry

from . import challenges, forms, howto, outcomes, player_data, rooms, routing, selectors, services, statistics
from .models import HuntLexicon, HuntRound
from .pools import POOLS, RULES


def _invitations(user) -> dict[str, registry.Listing]:
    """The tables where a friend keeps a seat for ``user``."""
    invited = [i for i in friends.pending_hunt_invitations(user) if i.invitee_id == user.pk]
    return {"invitations": registry.Listing("hunts/_my_games_invitations.html", invited)}


def _card(user) -> registry.Card:
    """The tables ``user`` sits at and their place in the ranked queue."""
    context = {"tables": selectors.player_tables(user), "ranked": selectors.queue_status(user)}
    return registry.Card("hunts/_my_games.html", context)


def game_outcome(ref: registry.GameRef) -> registry.Outcome | None:
    """How the round ``ref`` ended; None while it is being played."""
    return outcomes.outcome_of(HuntRound.objects.select_related("table").get(pk=ref.id))


def start_game(players, settings) -> registry.GameRef:
    """Open a table for ``players`` and start its round; ``settings`` are
    ``services.table_arrange``'s keyword arguments (the game, grid size, word list and
    round length, ranked or not). A hunt's game is its round."""
    game_round = services.table_arrange(players=players, **settings)
    return registry.GameRef("hunt", game_round.pk, game_round.table.get_absolute_url())


def _tournament_start(pool: str, values) -> dict:
    """A tournament's rounds of ``pool``: its game and grid, with what was chosen (a
    Classic round: British + American, the grid's own length)."""
    rules = RULES[pool]
    return {
        "game": rules.game,
        "size": rules.size,
        "lexicon_code": values.get("lexicon_code", HuntLexicon.BOTH),
        "round_seconds": values.get("round_seconds", rules.round_seconds),
    }


def resign_player(ref: registry.GameRef, user) -> None:
    """``user`` stands up from the table of the round ``ref`` while it is played."""
    services.round_leave(round_id=ref.id, user=user)


KIND = registry.GameKind(
    code="hunt",
    name="Word hunts",
    app_label="hunts",
    pools=POOLS,
    how_to_play=(
        registry.HowTo("rampage", "Word Rampage", "howto/rampage.html", howto.rampage),
        registry.HowTo("classic", "Classic hunt", "howto/classic.html", howto.classic),
    ),
    lobby=(registry.Link("Hunts", "hunts:lobby"),),
    websocket_routes=lambda: routing.websocket_urlpatterns,
    rooms=(rooms.TABLE, rooms.WATCHERS),
    my_games=registry.MyGames(
        listings=_invitations,
        card=_card,
        links=(registry.Link("Hunt lobby", "hunts:lobby"),),
    ),
    statistics=statistics.STATISTICS,
    challenge=challenges.CHALLENGE,
    playing=challenges.playing,
    export_player=player_data.export_player,
    forget_player=player_data.forget_player,
    start_game=start_game,
    game_outcome=game_outcome,
    resign_player=resign_player,
    busy_players=selectors.busy_players,
    tournament_settings=registry.TournamentSettings(
        fields=forms.tournament_fields, start=_tournament_start, formats=("arena",)
    ),
)
