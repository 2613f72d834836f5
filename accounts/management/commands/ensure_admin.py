import secrets

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import User


class Command(BaseCommand):
    help = "Create an administrator with a random password if the site has none, and print how to log in."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options):
        if User.objects.filter(is_superuser=True).exists():
            self.stdout.write("An administrator account exists already.")
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser(username=username, email=f"{username}@localhost", password=password)
        self.stdout.write(
            self.style.SUCCESS(
                "\nCreated the administrator account.\n"
                f"  Log in at {settings.SITE_URL}/accounts/login/ (or /admin/)\n"
                f"  username: {username}\n  password: {password}\n"
                "Change the password after logging in (Settings → Change your password).\n"
                "This password is shown only once; to set a new one:\n"
                f"  .venv/bin/python manage.py changepassword {username}\n"
            )
        )
