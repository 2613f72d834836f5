"""TOW as a game kind: what the shared parts of the site ask of it (games.registry)."""

from __future__ import annotations

from django.db import transaction
from django.urls import path

from games import notifications, player_data, registry, seating
from games.outcomes import outcome_of
from games.rooms import seated_players_room

from . import consumers, forms, selectors, services, tasks
from .models import Game, Move, Seat
from .services import bots

#: My games' sections and this app's lists of a player's games.
_SECTIONS = {"my_turn": "my_move", "their_turn": "active", "starting": "waiting", "finished": "finished"}


def _my_games(user) -> dict[str, registry.Listing]:
    games = selectors.my_games(user=user)
    listings = {section: registry.Listing("tow/_my_games.html", games[name]) for section, name in _SECTIONS.items()}
    listings["seeks"] = registry.Listing("tow/_my_games.html", selectors.open_seeks(user=user))
    return listings


def game_outcome(ref: registry.GameRef) -> registry.Outcome | None:
    """How the game ``ref`` ended; None while it waits or is played (or was cancelled)."""
    return outcome_of(Game.objects.get(pk=ref.id))


def start_game(players, settings) -> registry.GameRef:
    """Start a game between ``players``; ``settings`` are ``services.game_arrange``'s
    keyword arguments (the time per move, the word list, ranked or not)."""
    game = services.game_arrange(players=players, **settings)
    return registry.GameRef("tow", game.pk, game.get_absolute_url())


def _tournament_start(pool: str, values) -> dict:
    """A tournament's TOW games, with the word list and time per move chosen."""
    return {"words": values["words"], "seconds_per_move": values["seconds_per_move"]}


def resign_player(ref: registry.GameRef, user) -> None:
    """``user`` resigns the game ``ref`` (finishing last); nothing if it is over or they left it."""
    player_data.resign_if_playing(Game, ref.id, user, resign=services.game_resign)


def export_player(user) -> dict:
    """``user``'s games and their own moves."""
    return player_data.export(
        Seat, Move, user, game_fields=("words",), move_fields=("path", "accept", "play", "accepted")
    )


def forget_player(user) -> None:
    """End ``user``'s unfinished games as if they left (waiting ones cancelled, others resigned)."""
    player_data.forget(Game, user, resign=services.game_resign)


def _queue_deadline(game_id: int, eta) -> None:
    transaction.on_commit(lambda: tasks.deadline_passed.apply_async(args=[game_id], eta=eta))


KIND = registry.GameKind(
    code="tow",
    name="TOW",
    app_label="tow",
    pools=(registry.Pool("tow", "TOW", "tow"),),
    how_to_play=(registry.HowTo("tow", "TOW", "howto/tow.html"),),
    lobby=(registry.Link("TOW", "tow:lobby"),),
    my_games=registry.MyGames(
        listings=_my_games,
        awaiting=lambda user: selectors.games_awaiting(user=user).count(),
        links=(registry.Link("New TOW game", "tow:lobby", fragment="#new"),),
        stylesheets=("tow/table.css",),
    ),
    invitations=seating.invitations(Game, Seat),
    playing=lambda user_ids: seating.playing(Seat, user_ids, "TOW game"),
    expire_waiting=lambda now: seating.expire_waiting(Game, now=now),
    export_player=export_player,
    forget_player=forget_player,
    websocket_routes=lambda: [path("ws/tow/<int:game_id>/", consumers.GameConsumer.as_asgi())],
    rooms=(seated_players_room("tow", Seat),),
    notices=notifications.turn_notices("tow", votes=True),
    turns=registry.Turns(
        opening="won the draw and moves first", queue_bot=bots.queue_turn, queue_deadline=_queue_deadline
    ),
    start_game=start_game,
    game_outcome=game_outcome,
    resign_player=resign_player,
    tournament_settings=registry.TournamentSettings(fields=forms.tournament_fields, start=_tournament_start),
)
