"""Forms of the TOW pages and the reader of a submitted placement and path."""

from __future__ import annotations

import json

from django import forms

from games.forms import DAY, TIME_CHOICES, SeatsForm, parse_move_count

from .models import WordChoice

__all__ = ["NewGameForm", "MoveInputError", "parse_cells", "parse_move_count", "tournament_fields"]

# Seven tiles with their letters and kinds fit in about 250 characters, a path in fewer;
# a longer text is not a move, and deeply nested JSON would exhaust the parser first.
MAX_JSON_CHARS = 2000


class MoveInputError(ValueError):
    pass


def _no_fraction(text: str):
    # Cells are whole rows and columns: 0.5 would be cut to 0, and 1e400 or Infinity
    # cannot be made a whole number at all (a 500).
    raise ValueError(f"not a whole number: {text}")


def parse_cells(raw: str | None, *, what: str) -> list:
    """A JSON list from the page (the placement or the path); the engine checks its shape
    and says what is wrong in the game's words."""
    if raw is None or raw == "":
        return []
    if len(raw) > MAX_JSON_CHARS:
        raise MoveInputError(f"The {what} could not be read.")
    try:
        data = json.loads(raw, parse_float=_no_fraction, parse_constant=_no_fraction)
    except (ValueError, RecursionError):
        raise MoveInputError(f"The {what} could not be read.") from None
    if not isinstance(data, list):
        raise MoveInputError(f"The {what} could not be read.")
    return data


def tournament_fields(pool: str) -> dict[str, forms.Field]:
    """What a tournament chooses for its TOW games: the word list and the time per move.
    Not the house vote: in an event a player's opponents would judge their words."""
    return {
        "words": forms.ChoiceField(
            label="Words", choices=[c for c in WordChoice.choices if c[0] != WordChoice.HOUSE], initial=WordChoice.EN
        ),
        "seconds_per_move": forms.TypedChoiceField(
            label="Time per move", coerce=int, initial=DAY, choices=TIME_CHOICES
        ),
    }


class NewGameForm(SeatsForm):
    invitees_help = "Usernames, separated by commas or spaces (up to 3)."
    field_order = ["words", "seconds_per_move", "invitees", "open_seats"]

    words = forms.ChoiceField(
        label="Words", choices=WordChoice.choices, initial=WordChoice.EN, widget=forms.RadioSelect
    )
    bots = forms.TypedChoiceField(
        label="TOW bots",
        coerce=int,
        initial=0,
        choices=[(n, str(n) if n else "None") for n in range(4)],
        help_text="Casual bots take their seats at once.",
    )
    ranked = forms.BooleanField(
        label="Ranked", required=False, help_text="Two people only: the result changes both TOW ratings."
    )

    def clean(self):
        data = super().clean()
        if not self.errors and not data.get("invitees") and not data.get("open_seats") and not data.get("bots"):
            raise forms.ValidationError("Invite at least one player, add a bot or open a seat in the lobby.")
        return data
