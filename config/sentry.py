"""Error reports to Sentry (or any server that speaks its protocol) when SENTRY_DSN is set.

sentry-sdk reports what fails in views (its Django integration), in Celery tasks (its
Celery integration) and in sockets: a socket handler's failure is logged with its
traceback (``config.websocket``), and every ERROR line becomes a report (its logging
integration). Reports name the release, so a regression points at a deploy.

No personal data leaves: no user, address, cookie or header values
(``send_default_pii`` off), no request bodies (a chat line or a password), and no local
variables from the stack (a player's email or a session sits in one often enough).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def release_of_checkout() -> str | None:
    """The commit the site runs, when it runs from a git checkout."""
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.strip() or None


def start(*, dsn: str, release: str | None, environment: str, traces_sample_rate: float) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        release=release or release_of_checkout(),
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        include_local_variables=False,
        traces_sample_rate=traces_sample_rate,
    )
