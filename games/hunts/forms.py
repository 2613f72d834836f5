"""The create-a-table form (RULES §1, §2 settings)."""

from __future__ import annotations

from django import forms

from config import durations
from games.engine import hunt
from games.hunts.models import BotStrength, Game, HuntLexicon

ROUND_CHOICES = [(seconds, durations.spoken(seconds)) for seconds in hunt.RAMPAGE_ROUND_SECONDS]
CLASSIC_SIZE_CHOICES = [
    (size, f"{size}×{size} ({durations.spoken(rules.round_seconds)})") for size, rules in hunt.CLASSIC.items()
]
BOT_CHOICES = [("", "No bot")] + list(BotStrength.choices)


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
    strength = forms.ChoiceField(choices=BotStrength.choices)


class LeaveForm(forms.Form):
    """Leave a table, or (the host) remove the bot in ``seat``."""

    seat = forms.IntegerField(min_value=1, max_value=4, required=False)
