"""What every tournament use case shares: locking an event, directors, the log, the kind,
notices and broadcasts.

Lock order, everywhere: a pairing, then an event, then its entries. The finished-game
hook (inside a game's finishing transaction, holding the game's row) locks only the
pairing, and the arena's entries; whatever needs the event afterwards is queued for after
the commit (``tasks.advance``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import partial

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.services import notify
from config.errors import Refused
from games import registry

from .. import broadcasts, selectors
from ..models import DirectorAction, Tournament

#: The group whose members direct events besides staff.
DIRECTORS_GROUP = "Tournament directors"


def is_director(user) -> bool:
    """Staff, and players in the "Tournament directors" group, direct events."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_staff or user.groups.filter(name=DIRECTORS_GROUP).exists()


def check_director(user) -> None:
    if not is_director(user):
        raise Refused("Only tournament directors can do that.", status=403)


def locked(tournament_id: int, *, skip_locked: bool = False) -> Tournament | None:
    """The event's row, locked until the transaction ends; Refused if there is none. With
    ``skip_locked``, None when another transaction holds it."""
    rows = Tournament.objects.select_for_update(skip_locked=skip_locked).filter(pk=tournament_id)
    tournament = rows.first()
    if tournament is None and not skip_locked:
        raise Refused("No such tournament.", status=404)
    return tournament


def log(tournament: Tournament, director, action: str, *, reason: str = "", now: datetime | None = None, **details):
    """Keep what a director did, who and when."""
    return DirectorAction.objects.create(
        tournament=tournament,
        director=director,
        action=action,
        reason=reason,
        details=details,
        at=now or timezone.now(),
    )


def kind_of(tournament: Tournament) -> registry.GameKind:
    return registry.kind(tournament.kind)


#: What a kind answers to be played in tournaments.
TOURNAMENT_HOOKS = ("start_game", "game_outcome", "resign_player", "tournament_settings")


def plays_tournaments(kind: registry.GameKind) -> bool:
    return all(getattr(kind, hook) is not None for hook in TOURNAMENT_HOOKS)


def settings_chosen(kind: registry.GameKind, pool: str, values: Mapping[str, object]) -> dict:
    """The settings ``kind.start_game`` is given for an event's games in ``pool``, from what
    a director chose (``values``, by the kind's field names): each of the kind's fields
    cleans its own value (one left out takes the field's initial value), and any other
    value must be one the pool itself implies (``"variant": "wordgrid"`` in a Word Grid
    event). Refused with the field's label and the reason otherwise."""
    if not isinstance(values, Mapping):
        raise Refused("The game's settings are a set of named values.")
    chooser = kind.tournament_settings
    name = kind.pool(pool).name
    fields = chooser.fields(pool)
    cleaned = {}
    for field_name, field in fields.items():
        initial = field.initial() if callable(field.initial) else field.initial
        try:
            cleaned[field_name] = field.clean(values.get(field_name, initial))
        except ValidationError as error:
            raise Refused(f"{field.label or field_name}: {' '.join(error.messages)}") from None
    settings = dict(chooser.start(pool, cleaned))
    for field_name, value in values.items():
        if field_name in fields:
            continue
        if field_name not in settings:
            raise Refused(f"{name} games have no setting {field_name!r}.")
        if settings[field_name] != value:
            raise Refused(f"{field_name} {value!r} does not go with {name}.")
    return settings


def busy(user_ids) -> dict[int, str]:
    """Those of ``user_ids`` whom some game kind keeps busy (its ranked queue, a ranked
    round in play: ``busy_players``), each with the first kind's reason."""
    reasons: dict[int, str] = {}
    for _, busy_players in registry.hooks("busy_players"):
        for user_id, reason in busy_players(list(user_ids)).items():
            reasons.setdefault(user_id, reason)
    return reasons


def start_settings(tournament: Tournament) -> dict:
    """What the kind's ``start_game`` is given for one of the event's games."""
    return {**tournament.game_settings, "ranked": tournament.rated}


def tell(user, tournament: Tournament, kind: str, text: str, url: str = "") -> None:
    """A notice to one player about an event (in the site; never by email)."""
    if user.is_bot:
        return
    notify(user=user, kind=f"tournament.{kind}", text=text, url=url or tournament.get_absolute_url())


def changed(tournament: Tournament) -> None:
    """Send the event's open pages its standings once the transaction commits: rendered
    once and published once, whatever the number of watchers. The places its players'
    profiles keep are forgotten first, so a profile opened after the change shows it."""
    transaction.on_commit(partial(selectors.forget_places, tournament.pk))
    transaction.on_commit(partial(broadcasts.standings_changed, tournament.pk))


def after_commit(task, *args) -> None:
    """Queue ``task`` once the transaction commits (a rolled-back change queues nothing)."""
    transaction.on_commit(lambda: task.delay(*args))
