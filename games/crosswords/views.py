"""Crossword pages: thin views over ``selectors`` (reads) and ``services`` (actions).

Actions from the board answer the new play area (an htmx partial) when the board asks
with ``HX-Request``, so a move is one request; otherwise JSON ``{"ok": true,
"move_count": n}``. A refusal is always JSON ``{"ok": false, "reason": ...}``.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET, require_POST

from config.throttle import heavy_page
from games import views as shared

from . import selectors, services
from .forms import NewGameForm, PlacementError, PlayBotForm, parse_placement
from .models import Game
from .services import bots


@login_required
def new_game(request):
    form = NewGameForm(request.POST or None, player=request.user)

    def create(data):
        seats = {"invitees": data["invitees"], "open_seats": data["open_seats"]}
        if form.bots:
            return bots.game_create_with_bots(
                creator=request.user,
                variant=data["variant"],
                seconds_per_move=data["seconds_per_move"],
                bots=form.bots,
                clock=data["clock"],
                **seats,
            )
        return services.game_create(
            creator=request.user,
            variant=data["variant"],
            seconds_per_move=data["seconds_per_move"],
            ranked=data["ranked"],
            rating_min=data["rating_min"],
            rating_max=data["rating_max"],
            clock=data["clock"],
            **seats,
        )

    return shared.created(request, form, create) or render(
        request, "crosswords/new_game.html", {"form": form, "bot_form": PlayBotForm()}
    )


@login_required
def play_bot(request):
    """Start a two-player game against one bot at once (the home page's quick start)."""
    form = PlayBotForm(request.POST or None)

    def create(data):
        return bots.game_create_with_bots(
            creator=request.user,
            variant=data["variant"],
            seconds_per_move=data["seconds_per_move"],
            bots=[data["strength"]],
            clock=data["clock"],
        )

    return shared.created(request, form, create) or render(
        request, "crosswords/new_game.html", {"form": NewGameForm(player=request.user), "bot_form": form}
    )


@login_required
@require_GET
def game(request, pk: int):
    return _page(request, get_object_or_404(Game, pk=pk))


def _page(request, game: Game) -> TemplateResponse:
    view = selectors.game_view(game=game, viewer=request.user)
    template = "crosswords/game.html"
    if request.htmx:
        template += "#play-area"
    return TemplateResponse(request, template, {"view": view, "game": game})


def _moved(request, move, **fields):
    """The board's own request gets the new play area at once; others get JSON."""
    if request.htmx:
        return _page(request, move.game)
    return JsonResponse({"ok": True, "move_count": move.number + 1, **fields})


@login_required
@require_POST
def preview(request, pk: int):
    game = selectors.game_seen_by(pk, request.user)
    if game is None:
        raise Http404("No such game.")
    raw = request.POST.get("placement") or "[]"
    try:
        placement = parse_placement(raw) if raw != "[]" else []
    except PlacementError as error:
        return JsonResponse({"legal": False, "reason": str(error), "offered": None})
    return JsonResponse(selectors.preview(game=game, placement=placement, move_count=shared.move_count(request)))


@login_required
@require_POST
def play(request, pk: int):
    answer = partial(_moved_scored, request)
    return shared.counted_act(request, services.game_play, answer, read=_placement, game_id=pk, player=request.user)


def _placement(request) -> dict:
    return {"placement": parse_placement(request.POST.get("placement"))}


def _moved_scored(request, move):
    return _moved(request, move, score=move.score)


@login_required
@require_POST
def swap(request, pk: int):
    answer = partial(_moved, request)
    return shared.counted_act(request, services.game_swap, answer, read=_swap_tiles, game_id=pk, player=request.user)


def _swap_tiles(request) -> dict:
    tiles = (request.POST.get("tiles") or "").lower()
    if not tiles or len(tiles) > 8 or any(t != "?" and not "a" <= t <= "z" for t in tiles):
        raise ValueError("Choose the tiles to swap.")
    return {"tiles": tiles}


@login_required
@require_POST
def pass_turn(request, pk: int):
    return shared.counted_act(request, services.game_pass, partial(_moved, request), game_id=pk, player=request.user)


@login_required
@require_POST
def resign(request, pk: int):
    return shared.act(services.game_resign, partial(_moved, request), game_id=pk, player=request.user)


accept, decline, cancel, rematch = shared.lobby_views(services, page="crosswords:game")


@login_required
@require_GET
@heavy_page(json=True)
def replay(request, pk: int):
    return shared.replay(Game, pk, lambda game: selectors.replay_frames(game=game, viewer=request.user))


@login_required
@require_GET
@heavy_page()
def gcg(request, pk: int):
    """A finished game's record as a GCG file (Quackle, Macondo and Woogles read it)."""
    found = selectors.game_gcg(pk)
    if found is None:
        raise Http404("No finished game by that number.")
    return shared.download(*found, content_type="text/plain; charset=utf-8")
