"""The Celery app: Redis broker in server mode, the in-process broker when embedded."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("wordfall")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
