from django import forms
from django.contrib.auth.forms import UserCreationForm

from . import preferences
from .models import User
from .validators import validate_not_a_deleted_name


class SignUpForm(UserCreationForm):
    email = forms.EmailField(help_text="We send a link there to finish creating your account.")

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self):
        # Checked here rather than on the model field: a deleted account keeps its
        # ``deleted-<n>`` name, and the admin may still edit that row.
        username = super().clean_username()  # None once it has refused a taken name
        if username:
            validate_not_a_deleted_name(username)
        return username

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
    """The account's own settings, then the preferences other parts keep (``preferences``)."""

    class Meta:
        model = User
        fields = ("display_name", "email", "preferred_lexicon", "email_notifications", "invitation_emails")
        labels = {
            "preferred_lexicon": "Preferred word list",
            "email_notifications": "Email notifications",
            "invitation_emails": "Invitation emails",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = "A new address takes effect when you open the link we send there."
        # A page from before the setting existed posts no choice: the stored one stays.
        self.fields["invitation_emails"].required = False
        for preference in preferences.preferences():
            self.fields[preference.name] = preference.field()
            self.fields[preference.name].initial = preference.initial(self.instance)

    def save_preferences(self, user) -> None:
        """Store each part's preference as chosen (their services)."""
        for preference in preferences.preferences():
            preference.save(user, self.cleaned_data[preference.name])

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()

    def clean_invitation_emails(self):
        return self.cleaned_data["invitation_emails"] or self.instance.invitation_emails

    def validate_unique(self):
        # As at sign-up, whether another account has an address is not said here; the
        # change goes through a link sent to the new address (services.email_change_request).
        exclude = self._get_validation_exclusions()
        exclude.add("email")
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)


class AccountDeleteForm(forms.Form):
    """The player's password, to confirm that they mean to delete their account."""

    password = forms.CharField(label="Your password", strip=False, widget=forms.PasswordInput)

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password; nothing was deleted.")
        return password
