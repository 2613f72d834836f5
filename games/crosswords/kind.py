"""Word Grid and Wordgame as a game kind: what the shared parts ask of them (games.registry)."""

from __future__ import annotations

from django.db import transaction
from django.urls import path

from games import notifications, player_data, registry, seating
from games.engine import clock as clocks
from games.engine import crossword
from games.outcomes import outcome_of
from games.rooms import seated_players_room

from . import challenges, consumers, forms, howto, selectors, services, statistics, tasks
from .models import Game, Move, Seat, Variant, pool_of
from .services import bots


def _my_games(user) -> dict[str, registry.Listing]:
    games = selectors.my_games(user=user)
    games["seeks"] = selectors.open_seeks(user=user)
    return {section: registry.Listing("crosswords/_my_games.html", rows) for section, rows in games.items()}


def game_outcome(ref: registry.GameRef) -> registry.Outcome | None:
    """How the game ``ref`` ended; None while it waits or is played (or was cancelled)."""
    return outcome_of(Game.objects.get(pk=ref.id))


def start_game(players, settings) -> registry.GameRef:
    """Start a game between ``players``; ``settings`` are ``services.game_arrange``'s
    keyword arguments (the time per move, the variant, ranked or not), with a clock by
    its code (``games.engine.clock.CHOICES``), if the event chose one."""
    settings = dict(settings)
    code = settings.pop("clock", "")
    game = services.game_arrange(players=players, clock=clocks.named(code) if code else None, **settings)
    return registry.GameRef("crossword", game.pk, game.get_absolute_url())


def _tournament_start(pool: str, values) -> dict:
    """A tournament's games of ``pool``: its variant, at the time per move chosen, with the
    clock chosen (by its code; refused for a correspondence time per move, as a new game's)."""
    (variant,) = (variant for variant in Variant if pool_of(variant) == pool)
    settings = {"variant": str(variant), "seconds_per_move": values["seconds_per_move"]}
    code = values.get("clock") or ""
    if code:
        seating.check_clock(clocks.named(code), settings["seconds_per_move"])
        settings["clock"] = code
    return settings


def game_clock(game_id: int, now) -> dict | None:
    """The game's clock at ``now`` as the API answers it (``seating.public_clock``)."""
    game = Game.objects.filter(pk=game_id).first()
    return None if game is None else seating.public_clock(game, now)


def resign_player(ref: registry.GameRef, user) -> None:
    """``user`` resigns the game ``ref`` (finishing last); nothing if it is over or they left it."""
    player_data.resign_if_playing(Game, ref.id, user, resign=services.game_resign)


def export_player(user) -> dict:
    """``user``'s games and their own moves."""
    return player_data.export(Seat, Move, user, game_fields=("variant",), move_fields=("words",))


def forget_player(user) -> None:
    """End ``user``'s unfinished games as if they left (waiting ones cancelled, others resigned)."""
    player_data.forget(Game, user, resign=services.game_resign)


def _queue_deadline(game_id: int, eta) -> None:
    transaction.on_commit(lambda: tasks.forfeit_if_overdue.apply_async(args=[game_id], eta=eta))


def analyse_when_finished(outcome: registry.Outcome) -> None:
    """A finished crossword game is analysed once its end commits (nothing twice)."""
    if outcome.kind == "crossword":
        transaction.on_commit(lambda: tasks.analyse_game.delay(outcome.object_id))


KIND = registry.GameKind(
    code="crossword",
    name="Crossword games",
    app_label="crosswords",
    pools=tuple(registry.Pool(pool_of(variant), variant.label, "crossword") for variant in Variant),
    how_to_play=(
        registry.HowTo(crossword.WORD_GRID.name, "Word Grid", "howto/wordgrid.html", howto.word_grid),
        registry.HowTo(crossword.WORDGAME.name, "Wordgame", "howto/wordgame.html", howto.wordgame),
    ),
    my_games=registry.MyGames(
        listings=_my_games,
        awaiting=lambda user: selectors.games_awaiting_move_count(user=user),
        links=(registry.Link("New crossword game", "crosswords:new", primary=True),),
        stylesheets=("crosswords/board.css",),
    ),
    statistics=statistics.STATISTICS,
    challenge=challenges.CHALLENGE,
    invitations=seating.invitations(Game, Seat),
    playing=lambda user_ids: seating.playing(Seat, user_ids, "crossword game"),
    expire_waiting=lambda now: seating.expire_waiting(Game, now=now),
    export_player=export_player,
    forget_player=forget_player,
    websocket_routes=lambda: [path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi())],
    rooms=(seated_players_room("crossword", Seat),),
    notices=notifications.turn_notices("crossword"),
    turns=registry.Turns(opening="moves first", queue_bot=bots.queue_turn, queue_deadline=_queue_deadline),
    start_game=start_game,
    game_outcome=game_outcome,
    resign_player=resign_player,
    tournament_settings=registry.TournamentSettings(fields=forms.tournament_fields, start=_tournament_start),
    records=(registry.RecordFormat("gcg", "text/plain; charset=utf-8", selectors.game_gcg),),
    game_clock=game_clock,
)
