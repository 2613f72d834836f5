"""The one way the site pushes to websockets.

Services call ``broadcast_on_commit`` inside their transaction: the message goes out only
if the change it announces was committed, and from any process (web, worker, beat),
because the channel layer is shared.
"""

from __future__ import annotations

import logging
from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """The group every open tab of one player is in."""
    return f"user.{user_id}"


def broadcast(group: str, message: dict) -> None:
    """Send ``message`` (with a ``type`` naming the consumer handler) to a group now."""
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        # A broadcast is a courtesy to open pages; the state change already happened and
        # pages catch up on reconnect, so a channel layer hiccup must not fail the caller.
        logger.exception("Broadcast to %s failed", group)


def broadcast_on_commit(group: str, message: dict) -> None:
    transaction.on_commit(partial(broadcast, group, message))
