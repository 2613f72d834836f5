"""Directors' forms: a new event with its games' settings, editing one, removing a player,
correcting a result."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone

from games import registry

from .models import Entry, Format, PairingPlayer
from .services import MAX_CHECK_IN, MAX_PLAYERS, editable_values, plays_tournaments

#: The longest time a director may set between round starts (two weeks).
MAX_ROUND_INTERVAL_MINUTES = 14 * 24 * 60
ROUND_INTERVAL_HELP = (
    "Swiss, round robin: if set, round N starts no sooner than N - 1 times this after the "
    "event's start, even when the round before finished earlier."
)


class GameSettingsForm(forms.Form):
    """What a director chooses for an event's games in one pool: the kind's own fields
    (``registry.TournamentSettings``), named ``<pool>-<field>`` in the page."""

    def __init__(self, *args, kind: registry.GameKind, pool: registry.Pool, **kwargs):
        super().__init__(*args, prefix=pool.code, **kwargs)
        self.kind, self.pool = kind, pool
        self.game = f"{kind.code}:{pool.code}"
        self.formats = kind.tournament_settings.formats
        self.fields.update(kind.tournament_settings.fields(pool.code))


class TournamentForm(forms.Form):
    """A new event; its games' settings are the chosen pool's ``GameSettingsForm``, one of
    ``game_settings`` (every pool's, so the page can show each one's choices)."""

    name = forms.CharField(max_length=80)
    format = forms.ChoiceField(choices=Format.choices)
    game = forms.ChoiceField(choices=())
    rated = forms.BooleanField(required=False, initial=True)
    starts_at = forms.DateTimeField(initial=timezone.now)
    minutes = forms.IntegerField(required=False, min_value=5, max_value=24 * 60, help_text="Arenas: how long.")
    rounds = forms.IntegerField(required=False, min_value=1, max_value=30, help_text="Swiss: how many rounds.")
    cycles = forms.TypedChoiceField(choices=((1, "Single"), (2, "Double")), coerce=int, initial=1)
    round_interval_minutes = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUND_INTERVAL_MINUTES,
        label="Minutes between round starts",
        help_text=ROUND_INTERVAL_HELP,
    )
    check_in_minutes = forms.IntegerField(required=False, min_value=0, max_value=MAX_CHECK_IN)
    max_players = forms.IntegerField(required=False, min_value=2, max_value=MAX_PLAYERS)

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        self.game_settings = [
            GameSettingsForm(data, kind=kind, pool=pool)
            for kind in registry.kinds()
            if plays_tournaments(kind)
            for pool in kind.pools
        ]
        self.fields["game"].choices = [(settings.game, settings.pool.name) for settings in self.game_settings]

    def chosen_settings(self) -> GameSettingsForm | None:
        """The settings of the game chosen (once the form is cleaned)."""
        game = getattr(self, "cleaned_data", {}).get("game")
        return next((settings for settings in self.game_settings if settings.game == game), None)

    def clean(self):
        data = super().clean()
        chosen = self.chosen_settings()
        if chosen is not None and not chosen.is_valid():
            raise forms.ValidationError(f"Check the {chosen.pool.name} settings below.")
        return data

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        chosen = self.chosen_settings()
        return {
            "name": data["name"],
            "format": data["format"],
            "kind": chosen.kind.code,
            "pool": chosen.pool.code,
            "game_settings": chosen.cleaned_data,
            "rated": data["rated"],
            "starts_at": data["starts_at"],
            "minutes": data["minutes"],
            "rounds": data["rounds"] or 0,
            "cycles": data["cycles"],
            "round_interval": _interval(data["round_interval_minutes"]),
            "check_in_minutes": data["check_in_minutes"] or 0,
            "max_players": data["max_players"],
        }


class EditForm(forms.Form):
    """An event that has not started, changed (``services.EDITABLE``): the fields of its
    format only."""

    name = forms.CharField(max_length=80)
    rated = forms.BooleanField(required=False)
    starts_at = forms.DateTimeField()
    minutes = forms.IntegerField(min_value=5, max_value=24 * 60, help_text="How long the arena lasts.")
    rounds = forms.IntegerField(min_value=1, max_value=30)
    cycles = forms.TypedChoiceField(choices=((1, "Single"), (2, "Double")), coerce=int)
    round_interval_minutes = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUND_INTERVAL_MINUTES,
        label="Minutes between round starts",
        help_text=ROUND_INTERVAL_HELP,
    )
    check_in_minutes = forms.IntegerField(required=False, min_value=0, max_value=MAX_CHECK_IN)
    max_players = forms.IntegerField(required=False, min_value=2, max_value=MAX_PLAYERS)

    def __init__(self, data=None, *, tournament, **kwargs):
        super().__init__(data, initial=editable_values(tournament), **kwargs)
        interval = tournament.round_interval
        self.initial["round_interval_minutes"] = round(interval.total_seconds() / 60) if interval else None
        unused = {
            Format.ARENA: ("rounds", "cycles", "round_interval_minutes"),
            Format.SWISS: ("minutes", "cycles"),
        }.get(tournament.format, ("minutes", "rounds"))
        for name in unused:
            del self.fields[name]

    def changes(self) -> dict:
        data = dict(self.cleaned_data)
        if "round_interval_minutes" in data:
            data["round_interval"] = _interval(data.pop("round_interval_minutes"))
        return {**data, "check_in_minutes": data.get("check_in_minutes") or 0}


def _interval(minutes: int | None) -> timedelta | None:
    return timedelta(minutes=minutes) if minutes else None


class RemoveForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), label="Player")
    reason = forms.CharField(max_length=500)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = tournament.entries.filter(withdrawn_at__isnull=True).select_related("user")
        self.fields["entry"].label_from_instance = lambda entry: entry.user.username


class CorrectForm(forms.Form):
    """A points field per player of the pairing (``points_<entry id>``) and the reason."""

    reason = forms.CharField(max_length=500)

    def __init__(self, *args, pairing, **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = list(PairingPlayer.objects.filter(pairing=pairing).select_related("entry__user"))
        for row in self.rows:
            self.fields[f"points_{row.entry_id}"] = forms.IntegerField(label=row.entry.user.username, min_value=0)

    def points(self) -> dict[int, int]:
        return {row.entry_id: self.cleaned_data[f"points_{row.entry_id}"] for row in self.rows}
