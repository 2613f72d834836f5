"""The framework internals the site builds on have not changed under it.

Where no public interface does what the site needs, it uses a library's internals, pins
that library exactly in pyproject.toml and names the internal in docs/architecture.md
("Framework internals"). Each internal's source is fingerprinted here: an upgrade that
changes one fails this test with what to check, instead of breaking sockets, resyncs or
lobby refreshes without a word.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import inspect

import pytest

# (dotted name, fingerprint of its source, the distribution, where the site relies on it)
INTERNALS = [
    (
        "channels.consumer.AsyncConsumer.__call__",
        "e52238720872dbc3",
        "channels",
        "config/websocket.py JsonMessageConsumer.__call__ does its work with a loop of its own",
    ),
    (
        "channels.sessions.SessionMiddleware.__call__",
        "bc50432963de2e44",
        "channels",
        "config/websocket.py _SessionReader resolves the session without the send wrapper",
    ),
    (
        "channels.sessions.InstanceSessionWrapper.__init__",
        "1aed8029d4065532",
        "channels",
        "config/websocket.py _SessionReader builds the wrapper and reads its scope",
    ),
    (
        "channels.sessions.InstanceSessionWrapper.resolve_session",
        "ec027b60a1466961",
        "channels",
        "config/websocket.py _SessionReader resolves the session",
    ),
    (
        "channels_redis.pubsub.RedisPubSubChannelLayer._get_layer",
        "1862b87a25ac72b2",
        "channels-redis",
        "config/channel_layers.py RedisChannelLayer replaces the loop layer's _shards",
    ),
    (
        "channels_redis.pubsub.RedisPubSubLoopLayer.__init__",
        "fd9d37e275298a58",
        "channels-redis",
        "config/channel_layers.py reads _shards and channels of the loop layer",
    ),
    (
        "channels_redis.pubsub.RedisSingleShardConnection.__init__",
        "9c8f408acb4c2d7b",
        "channels-redis",
        "config/channel_layers.py _Shard keeps host, channel_layer, _redis and _pubsub",
    ),
    (
        "channels_redis.pubsub.RedisSingleShardConnection._ensure_redis",
        "ba228d3cee7116dc",
        "channels-redis",
        "config/channel_layers.py _Shard._ensure_redis makes the pub/sub that reports reconnects",
    ),
    (
        "channels_redis.pubsub.RedisSingleShardConnection._do_receiving",
        "a822736dcb875e43",
        "channels-redis",
        "config/channel_layers.py _Shard._do_receiving is the library's loop logging an outage once",
    ),
    (
        "channels_redis.pubsub.RedisSingleShardConnection._receive_message",
        "2f5f46af28e8ed76",
        "channels-redis",
        "config/channel_layers.py _Shard._do_receiving hands messages to it",
    ),
    (
        "django.db.backends.base.base.BaseDatabaseWrapper.on_commit",
        "3eb44439e2c553cb",
        "django",
        "games/hunts/broadcasts.py _on_commit_once reads run_on_commit entries (savepoint ids, hook, robust)",
    ),
]


def _resolve(dotted: str):
    parts = dotted.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            target = getattr(target, name)
        return target
    raise ImportError(dotted)


@pytest.mark.parametrize(("dotted", "fingerprint", "distribution", "relied_on_by"), INTERNALS, ids=lambda v: v)
def test_a_framework_internal_the_site_relies_on_is_unchanged(dotted, fingerprint, distribution, relied_on_by):
    """Each internal's source is the one the site was written against."""
    version = importlib.metadata.version(distribution)
    try:
        source = inspect.getsource(_resolve(dotted))
    except (ImportError, AttributeError):
        pytest.fail(f"{distribution} {version} no longer has {dotted}; {relied_on_by}: adapt it.")
    found = hashlib.sha256(source.encode()).hexdigest()[:16]
    if found != fingerprint:
        pytest.fail(
            f"{distribution} {version} changed {dotted} (fingerprint {found}, written against {fingerprint}). "
            f"{relied_on_by}: read the new source, adapt the site, then update the fingerprint here."
        )


def test_the_libraries_whose_internals_are_used_are_pinned_exactly():
    """pyproject.toml pins each of them to one version, so an upgrade is a choice that runs this test."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    requirements = {req.split("==")[0].split("[")[0].strip().lower(): req for req in project["project"]["dependencies"]}
    for distribution in sorted({entry[2] for entry in INTERNALS}):
        requirement = requirements.get(distribution)
        assert requirement is not None and "==" in requirement, f"{distribution} is not pinned exactly: {requirement}"
        assert requirement.split("==")[1].strip() == importlib.metadata.version(distribution)
