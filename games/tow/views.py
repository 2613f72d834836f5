"""TOW pages: thin views over ``selectors`` (reads) and ``services`` (actions).

Actions answer JSON ``{"ok": true, "move_count": n}`` or ``{"ok": false, "reason": ...}``;
the page then reloads its view from ``state``.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_POST

from config.throttle import heavy_page
from games import views as shared

from . import selectors, services
from .forms import MoveInputError, NewGameForm, parse_cells
from .models import Game


def _answer(move) -> JsonResponse:
    return JsonResponse({"ok": True, "move_count": move.number + 1, "score": move.score})


@login_required
def lobby(request):
    """My games, the open seeks and the form for a new game."""
    form = NewGameForm(request.POST or None, player=request.user)
    fields = ("seconds_per_move", "invitees", "open_seats", "words", "bots", "ranked")
    answer = shared.created(
        request, form, lambda data: services.game_create(creator=request.user, **{f: data[f] for f in fields})
    )
    if answer:
        return answer
    context = {
        "form": form,
        "lists": selectors.my_games(user=request.user),
        "seeks": selectors.open_seeks(user=request.user),
    }
    return render(request, "tow/lobby.html", context)


@login_required
@require_GET
def game(request, pk: int):
    game = get_object_or_404(Game, pk=pk)
    return render(request, "tow/game.html", {"game": game, "view": selectors.game_view(game=game, viewer=request.user)})


@login_required
@require_GET
def state(request, pk: int):
    game = get_object_or_404(Game, pk=pk)
    return JsonResponse(selectors.game_view(game=game, viewer=request.user))


def _move_input(request):
    placement = parse_cells(request.POST.get("placement"), what="placement")
    path = parse_cells(request.POST.get("path"), what="path")
    word = (request.POST.get("word") or "").strip()[:40]
    return placement, path, word


@login_required
@require_POST
def preview(request, pk: int):
    game = get_object_or_404(Game, pk=pk)
    try:
        placement, path, word = _move_input(request)
    except MoveInputError as error:
        return JsonResponse({"legal": False, "reason": str(error)})
    if not placement:
        return JsonResponse({"legal": False, "reason": "Place tiles from your rack on the table."})
    return JsonResponse(selectors.preview(game=game, player=request.user, placement=placement, path=path, word=word))


@login_required
@require_POST
def play(request, pk: int):
    return shared.counted_act(request, services.game_play, _answer, read=_play_input, game_id=pk, player=request.user)


def _play_input(request) -> dict:
    placement, path, word = _move_input(request)  # MoveInputError is a ValueError
    return {"placement": placement, "path": path, "word": word}


@login_required
@require_POST
def swap(request, pk: int):
    return shared.counted_act(request, services.game_swap, _answer, read=_swap_tiles, game_id=pk, player=request.user)


def _swap_tiles(request) -> dict:
    tiles = (request.POST.get("tiles") or "").lower()
    if not tiles or len(tiles) > 7 or any(t not in "+*" and not "a" <= t <= "z" for t in tiles):
        raise ValueError("Choose the tiles to swap.")
    return {"tiles": tiles}


@login_required
@require_POST
def pass_turn(request, pk: int):
    return shared.counted_act(request, services.game_pass, _answer, game_id=pk, player=request.user)


@login_required
@require_POST
def vote(request, pk: int):
    return shared.counted_act(request, services.game_vote, _answer, read=_vote, game_id=pk, player=request.user)


def _vote(request) -> dict:
    answer = request.POST.get("accept")
    if answer not in ("yes", "no"):
        raise ValueError("Vote yes or no.")
    return {"accept": answer == "yes"}


@login_required
@require_POST
def resign(request, pk: int):
    return shared.act(services.game_resign, _answer, game_id=pk, player=request.user)


accept, decline, cancel, rematch = shared.lobby_views(
    services, page="tow:game", joined_and_started="The game has started."
)


@login_required
@require_GET
@heavy_page(json=True)
def replay(request, pk: int):
    return shared.replay(Game, pk, lambda game: selectors.replay_frames(game=game))
