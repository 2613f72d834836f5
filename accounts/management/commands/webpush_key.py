from django.core.management.base import BaseCommand

from accounts import webpush


class Command(BaseCommand):
    help = "Make a new VAPID key for Web Push and print the setting that holds it."

    def handle(self, *args, **options):
        key = webpush.new_private_key()
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={key}")
        self.stderr.write("Keep it with SECRET_KEY: devices subscribed to one key get no pushes signed with another.")
