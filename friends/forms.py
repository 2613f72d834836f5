"""The challenge form: the game to play, from every kind that offers challenges
(``games.registry.Challenge``), and each kind's own settings."""

from __future__ import annotations

from django import forms

from games import registry


def _offers() -> list[registry.Challenge]:
    return [kind.challenge for kind in registry.kinds() if kind.challenge is not None]


class ChallengeForm(forms.Form):
    game = forms.ChoiceField(widget=forms.RadioSelect)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [choice for offer in _offers() for choice in offer.games]
        self.fields["game"].choices = choices
        self.fields["game"].initial = choices[0][0] if choices else None
        for offer in _offers():
            self.fields.update(offer.fields())

    def settings(self) -> dict:
        """The chosen game's kind's own settings, as the form read them."""
        game = self.cleaned_data["game"]
        offer = next(offer for offer in _offers() if game in dict(offer.games))
        return {name: self.cleaned_data[name] for name in offer.fields()}
