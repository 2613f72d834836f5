from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(help_text="For password resets and, if you want them, game emails.")

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email address already exists.")
        return email


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "preferred_lexicon", "email_notifications")
        labels = {
            "preferred_lexicon": "Preferred word list",
            "email_notifications": "Email notifications",
        }

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("Another account uses this email address.")
        return email
