"""Celery tasks of accounts: emails, pushes, the presence sweep, the health check's ping.

Emails and pushes are the kinds of task no sweep redoes: queued after the commit that
asks for one, an email or a push is lost if Redis restarts before a worker takes it (the
in-site notification is stored anyway, and a password reset can be asked for again). Everything
scheduled follows the pattern in ``config.celery``.
"""

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail

from . import services


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_email(address: str, subject: str, body: str) -> None:
    send_mail(f"[{settings.SITE_NAME}] {subject}", body, None, [address])


@shared_task
def send_push(user_id: int, message: dict) -> int:
    """Not retried: a push twice would show twice, and a late one is noise."""
    return services.push_send(user_id=user_id, message=message)


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_password_reset(address: str) -> int:
    return services.password_reset_send(email=address)


@shared_task
def sweep_sign_ups() -> int:
    return services.sign_ups_sweep()


@shared_task
def sweep_presence() -> int:
    return services.presence_sweep()


@shared_task
def ping() -> str:
    """Answers "pong": lets health checks and tests see a worker run a task."""
    return "pong"
