"""The beat sweep that expires unanswered invitations and seeks (pattern: config/celery.py)."""

from celery import shared_task

from . import services


@shared_task
def sweep_invitations() -> dict:
    return services.invitations_sweep()
