"""Forms of the crossword pages and the parser of a submitted placement."""

from __future__ import annotations

import json
import re

from django import forms

from games.engine import bot_ratings
from games.forms import DAY, TIME_CHOICES, SeatsForm, cleaned_clock, clock_field, parse_move_count

from .models import BotStrength, Variant, pool_of

__all__ = [
    "TIME_CHOICES",
    "NewGameForm",
    "tournament_fields",
    "PlacementError",
    "PlayBotForm",
    "parse_move_count",
    "parse_placement",
]

MAX_TILES = 8  # Wordgame's rack; the engine checks the rest
# Eight tiles fit in about 200 characters; a longer text is not a placement, and
# deeply nested JSON would exhaust the parser's recursion before any check ran.
MAX_PLACEMENT_CHARS = 1000
_LETTER = re.compile(r"[a-z]")


def bot_choices() -> list[tuple[str, str]]:
    """The bot strengths with their ratings in each variant's pool
    ("Expert (Word Grid <rating>, Wordgame <rating>)", from ``bot_ratings``)."""
    choices = []
    for value, label in BotStrength.choices:
        rated = [(name, bot_ratings.rating(pool_of(variant), value)) for variant, name in Variant.choices]
        shown = ", ".join(f"{name} {rating}" for name, rating in rated if rating is not None)
        choices.append((value, f"{label} ({shown})" if shown else label))
    return choices


BOT_CHOICES = [("", "None")] + bot_choices()


def tournament_fields(pool: str) -> dict[str, forms.Field]:
    """What a tournament chooses for its games of a variant (``pool``): the time per move
    and, for live games, a clock (the new-game form's choices)."""
    return {
        "seconds_per_move": forms.TypedChoiceField(
            label="Time per move", coerce=int, initial=DAY, choices=TIME_CHOICES
        ),
        "clock": clock_field(
            "Each player's total time for the game, shown live; the time runs out and the game is lost. "
            "Live times per move only: a correspondence event keeps its days per move."
        ),
    }


class PlayBotForm(forms.Form):
    """A two-player game against one bot, started at once (home page, new-game page)."""

    prefix = "bot"  # the new-game page shows it beside NewGameForm, whose names it shares

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.WORD_GRID)
    strength = forms.ChoiceField(label="Bot", choices=bot_choices(), initial=BotStrength.CASUAL)
    seconds_per_move = forms.TypedChoiceField(label="Time per move", coerce=int, initial=5 * 60, choices=TIME_CHOICES)
    clock = clock_field()

    def clean(self):
        data = super().clean()
        cleaned_clock(data)
        return data


class NewGameForm(SeatsForm):
    invitees_help = "Usernames, separated by commas or spaces (up to 3 for Word Grid, 1 for Wordgame)."
    field_order = ["variant", "seconds_per_move", "clock", "invitees", "open_seats"]

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.WORD_GRID, widget=forms.RadioSelect)
    clock = clock_field()
    ranked = forms.BooleanField(
        label="Ranked", required=False, help_text="Two players only: the result changes both ratings."
    )
    rating_min = forms.IntegerField(
        label="Lowest rating of a taker", required=False, help_text="Ranked open seeks only; leave empty for anyone."
    )
    rating_max = forms.IntegerField(label="Highest rating of a taker", required=False)

    bot_1 = forms.ChoiceField(
        label="Bots",
        required=False,
        choices=BOT_CHOICES,
        help_text="Bots take their seats at once; a game with bots is never ranked.",
    )
    bot_2 = forms.ChoiceField(label="Second bot", required=False, choices=BOT_CHOICES)
    bot_3 = forms.ChoiceField(
        label="Third bot", required=False, choices=BOT_CHOICES, help_text="Word Grid only: up to three bots."
    )

    @property
    def bots(self) -> list[str]:
        """The strengths of the bots chosen, in seat order."""
        return [self.cleaned_data[name] for name in ("bot_1", "bot_2", "bot_3") if self.cleaned_data.get(name)]

    def clean(self):
        data = super().clean()
        if not self.errors and not data.get("invitees") and not data.get("open_seats") and not self.bots:
            raise forms.ValidationError("Invite at least one player, choose a bot or open a seat in the lobby.")
        if not self.errors and self.bots and data.get("ranked"):
            raise forms.ValidationError("Games with bots are never ranked.")
        cleaned_clock(data)
        return data


class PlacementError(ValueError):
    pass


def parse_placement(raw: str) -> list[tuple[int, int, str, bool]]:
    """Parse ``[[row, col, letter, is_blank], ...]``; raise PlacementError if malformed."""
    if raw is not None and len(raw) > MAX_PLACEMENT_CHARS:
        raise PlacementError("The placement could not be read.")
    try:
        data = json.loads(raw or "")
    except (ValueError, RecursionError):
        raise PlacementError("The placement could not be read.") from None
    if not isinstance(data, list) or not 1 <= len(data) <= MAX_TILES:
        raise PlacementError("Place between 1 and 8 tiles.")
    tiles, squares = [], set()
    for item in data:
        if not (isinstance(item, list) and len(item) == 4):
            raise PlacementError("The placement could not be read.")
        row, col, letter, blank = item
        if not all(type(v) is int and 0 <= v < 15 for v in (row, col)):
            raise PlacementError("A tile is off the board.")
        if not isinstance(letter, str) or not _LETTER.fullmatch(letter.lower()):
            raise PlacementError("Declare the blank's letter first." if blank else "A tile has no letter.")
        if not isinstance(blank, bool):
            raise PlacementError("The placement could not be read.")
        if (row, col) in squares:
            raise PlacementError("Two tiles are on one square.")
        squares.add((row, col))
        tiles.append((row, col, letter.lower(), blank))
    return tiles
