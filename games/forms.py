"""What the new-game forms and move requests of the turn-based games share: the times
per move, the seats (invitees and open seats) and the move count a page names."""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth import get_user_model

from config import durations
from games.engine import clock as clocks
from games.models import DAYS_PER_MOVE, LIVE_MINUTES_PER_MOVE
from games.notifications import LIVE_DEADLINE_SECONDS

DAY = 86400
TIME_CHOICES = [(d * DAY, durations.spoken(d * DAY)) for d in DAYS_PER_MOVE] + [
    (m * 60, f"{durations.spoken(m * 60)} (live)") for m in LIVE_MINUTES_PER_MOVE
]


CLOCK_CHOICES = [("", "None: only the time per move")] + [(code, text) for code, _, text in clocks.CHOICES]


CLOCK_HELP = (
    "Each player's total time for the game, shown live; the time runs out and the game is lost. "
    "With a clock the game is live: a time per move of days gives way to an hour a move, "
    "and a live time per move still applies."
)


def clock_field(help_text: str = CLOCK_HELP) -> forms.ChoiceField:
    """A live game's clock: each player's total time (``games.engine.clock.CHOICES``); it
    cleans to the choice's code ("" for none), which ``cleaned_clock`` or ``clocks.named``
    turns into a ``Clock``."""
    return forms.ChoiceField(
        label="Clock (live games)", required=False, choices=CLOCK_CHOICES, initial="", help_text=help_text
    )


def cleaned_clock(data: dict) -> None:
    """The clock chosen as a ``Clock`` (or None) in ``data["clock"]``; a clocked game is
    live, so a correspondence time per move becomes the longest live one."""
    code = data.get("clock") or ""
    data["clock"] = clocks.named(code) if code else None
    if data["clock"] is not None and data.get("seconds_per_move", 0) > LIVE_DEADLINE_SECONDS:
        data["seconds_per_move"] = LIVE_DEADLINE_SECONDS


class SeatsForm(forms.Form):
    """A new game's time per move and seats; ``invitees_help`` says how many may be
    invited. ``player`` is the creator (who cannot invite themselves)."""

    invitees_help = "Usernames, separated by commas or spaces."

    seconds_per_move = forms.TypedChoiceField(label="Time per move", coerce=int, initial=3 * DAY, choices=TIME_CHOICES)
    invitees = forms.CharField(label="Invite players", required=False, max_length=200)
    open_seats = forms.TypedChoiceField(
        label="Open seats for anyone in the lobby",
        coerce=int,
        initial=0,
        choices=[(n, str(n) if n else "None") for n in range(4)],
    )

    def __init__(self, *args, player=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        self.fields["invitees"].help_text = self.invitees_help

    def clean_invitees(self):
        names = [n for n in re.split(r"[\s,;]+", self.cleaned_data["invitees"]) if n]
        users = []
        User = get_user_model()
        for name in dict.fromkeys(names):
            user = User.objects.filter(username__iexact=name, is_active=True).first()
            if user is None:
                raise forms.ValidationError(f"There is no player called {name}.")
            if self.player is not None and user.pk == self.player.pk:
                raise forms.ValidationError("You are in the game already; invite others.")
            users.append(user)
        return users


_MOVE_COUNT = forms.IntegerField(min_value=0)


def parse_move_count(raw) -> int | None:
    """The move count a page was showing, or None if ``raw`` is not one."""
    try:
        return _MOVE_COUNT.clean(raw)
    except forms.ValidationError:
        return None
