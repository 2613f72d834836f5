"""Forms of the word check page and dictionary requests (rules live in services)."""

from django import forms

from lexicon.models import Action, Lexicon


class WordForm(forms.Form):
    word = forms.CharField(
        max_length=40,
        required=False,
        label="Word",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false", "autofocus": True}
        ),
    )


class RequestForm(forms.Form):
    lexicon = forms.ModelChoiceField(
        queryset=Lexicon.objects.filter(accepts_requests=True),
        to_field_name="code",
        empty_label=None,
        label="Word list",
        error_messages={
            "invalid_choice": (
                "Choose British English, American English, Common English or Wordgame; "
                "British + American follows the first two and takes no requests of its own."
            )
        },
    )
    # No length validator here: services.word_problem says "2 to 15 letters" instead.
    word = forms.CharField(
        widget=forms.TextInput(
            attrs={"maxlength": 40, "autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    action = forms.ChoiceField(choices=Action.choices, widget=forms.RadioSelect, label="Change")
    reason = forms.CharField(
        # autofocus: htmx focuses it when the panel opens from the word check page.
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "autofocus": True}),
        help_text="Why should the moderators make this change? (a meaning, a source…)",
    )
