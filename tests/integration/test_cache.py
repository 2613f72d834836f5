"""The site's Redis cache: Django's own backend with one client per connection pool."""

from __future__ import annotations

import pickle

from django.core.cache import caches

from config.cache import Cache, redis_backed


def test_every_cache_call_of_a_thread_uses_one_redis_client():
    """Reads and writes share the client their pool was given, and values go to Redis and
    back as Django's backend stores them."""
    cache = caches["default"]
    assert isinstance(cache, Cache) and redis_backed()
    client = cache._cache.get_client()
    assert cache._cache.get_client("a key") is client
    assert cache._cache.get_client("a key", write=True) is client
    cache.set("cache-test", {"rack": "aeinrst"}, 30)
    assert cache.get("cache-test") == {"rack": "aeinrst"}
    stored = client.get(cache.make_and_validate_key("cache-test"))
    assert pickle.loads(stored) == {"rack": "aeinrst"}
    assert cache.add("cache-count", 1, 30) and cache.incr("cache-count") == 2
