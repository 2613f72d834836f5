"""The Celery app: Redis broker in server mode, the in-process broker when embedded.

The broker is allowed to lose what it holds (a Redis restart, a killed worker's
unacknowledged messages). Scheduled work follows one pattern (docs/deployment.md):

1. The service that makes work due stores it in PostgreSQL in its own transaction: a
   round's deadline, a bot seat's due turn and its time, a game's move deadline and
   reminder time, a result waiting to be rated.
2. It queues a task for that time after commit; the task names the unit of work
   precisely (round id; bot, round and turn number; game id and move count).
3. The task calls a service that does the work under a row lock, and only if it is
   still due and still the same unit; otherwise it does nothing. Delivered twice, late
   or early, it changes nothing more than once.
4. A beat sweep (every 5-10 s, its ticks expiring) finds work overdue by a small grace
   and queues it again, or does it, through the same service. It never needs to know
   whether the first task was lost or merely late.

The settings below only make the worker itself ride out a broker restart:

- celery is pinned below 5.7: 5.7.0 closes the lost connection after detaching its
  transport, and closing the channel then restores the unacknowledged messages (every
  ETA task the worker holds) through a pool that has no host any more, which kills the
  worker with ``AttributeError: 'NoneType' object has no attribute 'hostname'``.
- The worker retries the broker forever instead of exiting after 100 tries; the
  process supervisor restarts it if it dies anyway.
- A task running when the connection drops finishes (its work is one transaction);
  its acknowledgement is lost, so the broker redelivers it after the visibility
  timeout, and idempotency makes the second run a no-op.
- The visibility timeout stays long (an hour): an ETA task is unacknowledged while
  the worker holds it, so a timeout shorter than the longest countdown (a 10-minute
  round end, a live game's forfeit) would deliver it again and again. Recovery after a
  killed worker is the sweeps' job, within seconds, not the redelivery's.
"""

import os

from celery import Celery, signals

from config import logs, metrics
from config.startup import log_engine_build

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("wordfall")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    broker_connection_retry_on_startup=True,
    broker_connection_max_retries=None,
    broker_transport_options={"visibility_timeout": 3600},
    worker_cancel_long_running_tasks_on_connection_loss=False,
)
app.autodiscover_tasks()


@signals.worker_init.connect
def _log_engine_build(**kwargs) -> None:
    log_engine_build("celery worker")


@signals.setup_logging.connect
def use_the_sites_logging(**kwargs):
    """Workers and beat log as the web processes do (LOGGING), not in Celery's own format.

    Where django.setup() has applied LOGGING already (a worker started inside a process
    of the site, or a test's), it stays as it is, with whatever handlers were added since.
    """
    import logging.config

    from django.conf import settings

    handlers = logging.getLogger().handlers
    if not any(isinstance(f, logs.ContextFilter) for handler in handlers for f in handler.filters):
        logging.config.dictConfig(settings.LOGGING)


signals.task_prerun.connect(logs.task_started)
signals.task_postrun.connect(logs.task_ended)
signals.task_prerun.connect(metrics.task_started)
signals.task_postrun.connect(metrics.task_ended)
signals.task_failure.connect(metrics.task_failed)
