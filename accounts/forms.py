from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(help_text="We send a link there to finish creating your account.")

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()

    def validate_unique(self):
        # Whether an address has an account is for its owner to know: the sign-up
        # answers the same either way and emails the owner (services.sign_up).
        exclude = self._get_validation_exclusions()
        exclude.add("email")
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)


class PasswordResetRequestForm(forms.Form):
    email = forms.EmailField(max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class SettingsForm(forms.ModelForm):
    chat = forms.BooleanField(
        required=False, label="Chat", help_text="Show chat at game tables and let me write in it."
    )
    offensive_words = forms.BooleanField(
        required=False,
        label="Show offensive words",
        help_text="List offensive words among the words nobody found. Bots never play them either way.",
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "preferred_lexicon", "email_notifications")
        labels = {
            "preferred_lexicon": "Preferred word list",
            "email_notifications": "Email notifications",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = "A new address takes effect when you open the link we send there."
        from chat.services import chat_enabled

        self.fields["chat"].initial = chat_enabled(self.instance)
        from lexicon.services import offensive_words_shown

        self.fields["offensive_words"].initial = offensive_words_shown(self.instance)

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()

    def validate_unique(self):
        # As at sign-up, whether another account has an address is not said here; the
        # change goes through a link sent to the new address (services.email_change_request).
        exclude = self._get_validation_exclusions()
        exclude.add("email")
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)
