"""A player's preferences that other parts keep (chat on or off, offensive words shown),
on the one settings page.

Each part registers its preference in its ``AppConfig.ready()``: the form field, how to
read the player's current choice and how to store a new one. The settings form shows
them after the account's own fields, in registration order, so accounts imports none of
the parts that keep them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Preference:
    """``name`` is the form field's; ``field()`` makes it; ``initial(user)`` reads the
    player's choice and ``save(user, value)`` stores it (a service call)."""

    name: str
    field: Callable[[], object]
    initial: Callable[[object], object]
    save: Callable[[object, object], None]


_preferences: dict[str, Preference] = {}


def register(preference: Preference) -> None:
    """Add ``preference``; registering the same name again replaces it."""
    _preferences[preference.name] = preference


def preferences() -> tuple[Preference, ...]:
    return tuple(_preferences.values())
