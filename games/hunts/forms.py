"""The create-a-table form (RULES §1, §2 settings)."""

from __future__ import annotations

from django import forms

from config import durations
from games.engine import bot_ratings, hunt
from games.hunts import pools
from games.hunts.models import BotStrength, Game, HuntLexicon

ROUND_CHOICES = [(seconds, durations.spoken(seconds)) for seconds in hunt.RAMPAGE_ROUND_SECONDS]
CLASSIC_SIZE_CHOICES = [
    (size, f"{size}×{size} ({durations.spoken(rules.round_seconds)})") for size, rules in hunt.CLASSIC.items()
]


def bot_choices(pool: str | None = None) -> list[tuple[str, str]]:
    """The bot strengths with their ratings: in ``pool``, or in every hunt pool when the
    pool is not chosen yet ("Easy (Rampage 1010, Classic 4×4 1067, Classic 5×5 1010)")."""
    choices = []
    for value, label in BotStrength.choices:
        if pool is not None:
            rating = bot_ratings.rating(pool, value)
            choices.append((value, label if rating is None else f"{label} (rated {rating})"))
            continue
        rated = [(p.name, bot_ratings.rating(p.code, value)) for p in pools.POOLS]
        shown = ", ".join(f"{name} {rating}" for name, rating in rated if rating is not None)
        choices.append((value, f"{label} ({shown})" if shown else label))
    return choices


BOT_CHOICES = [("", "No bot")] + bot_choices()


def tournament_fields(pool: str) -> dict[str, forms.Field]:
    """What a tournament chooses for its rounds of ``pool``: a Rampage round's word list and
    length; a Classic round has both fixed by its grid (RULES §2)."""
    if pools.RULES[pool].game != Game.RAMPAGE:
        return {}
    return {
        "lexicon_code": forms.ChoiceField(label="Word list", choices=HuntLexicon.choices, initial=HuntLexicon.BOTH),
        "round_seconds": forms.TypedChoiceField(
            label="Round", choices=ROUND_CHOICES, coerce=int, initial=hunt.RAMPAGE.round_seconds
        ),
    }


class TableForm(forms.Form):
    game = forms.ChoiceField(choices=Game.choices, initial=Game.RAMPAGE)
    size = forms.TypedChoiceField(label="Classic grid", choices=CLASSIC_SIZE_CHOICES, coerce=int, initial=4)
    lexicon_code = forms.ChoiceField(label="Rampage word list", choices=HuntLexicon.choices, initial=HuntLexicon.BOTH)
    round_seconds = forms.TypedChoiceField(
        label="Rampage round", choices=ROUND_CHOICES, coerce=int, initial=hunt.RAMPAGE.round_seconds
    )
    seat_count = forms.TypedChoiceField(label="Seats", choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=2)
    ranked = forms.TypedChoiceField(
        label="Play", choices=[("0", "Casual"), ("1", "Ranked")], coerce=lambda v: v == "1", initial="0"
    )
    bot_1 = forms.ChoiceField(label="Bot", choices=BOT_CHOICES, required=False)
    bot_2 = forms.ChoiceField(label="Second bot", choices=BOT_CHOICES, required=False)
    bot_3 = forms.ChoiceField(label="Third bot", choices=BOT_CHOICES, required=False)

    def table_settings(self) -> dict:
        data = self.cleaned_data
        classic = data["game"] == Game.CLASSIC
        return {
            "game": data["game"],
            "size": data["size"] if classic else 4,
            "lexicon_code": data["lexicon_code"],
            "round_seconds": None if classic else data["round_seconds"],
            "seat_count": data["seat_count"],
            "ranked": data["ranked"],
            "bots": tuple(data[f"bot_{i}"] for i in (1, 2, 3) if data.get(f"bot_{i}")),
        }


class BotForm(forms.Form):
    """A bot for a table: its strengths labelled with their ratings in the table's pool."""

    strength = forms.ChoiceField(choices=BotStrength.choices)

    def __init__(self, *args, pool: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if pool is not None:
            self.fields["strength"].choices = bot_choices(pool)


class LeaveForm(forms.Form):
    """Leave a table, or (the host) remove the bot in ``seat``."""

    seat = forms.IntegerField(min_value=1, max_value=4, required=False)
