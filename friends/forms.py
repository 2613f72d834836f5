from django import forms

from games.crosswords.forms import TIME_CHOICES
from games.crosswords.models import Variant
from games.hunts.forms import CLASSIC_SIZE_CHOICES, ROUND_CHOICES
from games.hunts.models import Game as HuntGame
from games.hunts.models import HuntLexicon

GAME_CHOICES = [
    (Variant.WORD_GRID, "Word Grid (crossword)"),
    (Variant.WORDGAME, "Wordgame (crossword)"),
    (HuntGame.RAMPAGE, f"{HuntGame.RAMPAGE.label} (live word hunt)"),
    (HuntGame.CLASSIC, f"{HuntGame.CLASSIC.label} (live word hunt)"),
]
CROSSWORDS = {Variant.WORD_GRID, Variant.WORDGAME}


class ChallengeForm(forms.Form):
    game = forms.ChoiceField(choices=GAME_CHOICES, initial=Variant.WORD_GRID, widget=forms.RadioSelect)
    seconds_per_move = forms.TypedChoiceField(
        label="Time per move (crosswords)", coerce=int, choices=TIME_CHOICES, initial=3 * 86400
    )
    ranked = forms.BooleanField(
        label="Ranked (crosswords)", required=False, help_text="The result changes both ratings."
    )
    round_seconds = forms.TypedChoiceField(
        label="Rampage round", coerce=int, choices=ROUND_CHOICES, initial=ROUND_CHOICES[0][0]
    )
    lexicon_code = forms.ChoiceField(label="Rampage word list", choices=HuntLexicon.choices, initial=HuntLexicon.BOTH)
    size = forms.TypedChoiceField(label="Classic grid", coerce=int, choices=CLASSIC_SIZE_CHOICES, initial=4)

    @property
    def is_crossword(self) -> bool:
        return self.cleaned_data["game"] in CROSSWORDS

    def table_settings(self) -> dict:
        data = self.cleaned_data
        classic = data["game"] == HuntGame.CLASSIC
        return {
            "game": data["game"],
            "size": data["size"] if classic else 4,
            "lexicon_code": data["lexicon_code"],
            "round_seconds": None if classic else data["round_seconds"],
            "seat_count": 2,
        }
