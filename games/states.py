"""Engine states kept per process for the turn-based games (Word Grid, Wordgame and TOW).

A game's state is a pure function of its seed and its moves, and the engine's states are
immutable, so a process may keep the latest state it built for a game and, on the next
request, apply only the moves stored since. Replaying from the seed stays the audit and
repair path: a state that cannot be proven to come from the stored moves is rebuilt.

Why (game, count, last move row) proves it: moves are only appended, one at a time,
under the game's row lock, and a state is kept only once the transaction that read or
wrote its rows has committed. A state built inside a transaction that rolls back is
dropped with it; this matters because SQLite (the embedded mode) gives a rolled-back
row's key to the next insert, so the key alone would not tell the two moves apart.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from django.db import transaction

#: Games whose latest state one process keeps (a few hundred KB at most).
CACHE_SIZE = 256


class StateCache:
    """The latest engine state of recently used games, least recently used dropped first.

    ``new()`` is a game's state before any move; ``step(state, row)`` applies one stored
    move row (anything with ``pk``) to a state. A key names everything else the state
    depends on (the game, its seed, its lexicon version, its rules).
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._states: OrderedDict[Hashable, tuple[int, Any, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._states.clear()

    def kept_count(self, key: Hashable) -> int:
        """How many moves the state kept for ``key`` has seen (0 when none is kept)."""
        known = self._known(key)
        return known[0] if known is not None else 0

    def _known(self, key: Hashable) -> tuple[int, Any, Any] | None:
        with self._lock:
            return self._states.get(key)

    def state(self, key: Hashable, rows: Sequence, *, new: Callable[[], Any], step: Callable[[Any, Any], Any]) -> Any:
        """The state after ``rows``, every stored move of the game in order (or a prefix)."""
        return self._build(key, list(rows), new, step, complete=False)

    def _build(self, key, rows, new, step, *, complete: bool) -> Any:
        start, state = 0, None
        known = self._known(key)
        if known is not None:
            count, last_pk, cached = known
            if count == 0 or (count <= len(rows) and rows[count - 1].pk == last_pk):
                start, state = count, cached
        if state is None:
            state = new()
        for row in rows[start:]:
            state = step(state, row)
        # A prefix (a replay of the first moves, an unsaved row) does not replace the
        # state of a longer game; every stored move (``complete``) replaces anything.
        longer = known is not None and known[0] > len(rows)
        if (complete or not longer) and all(row.pk is not None for row in rows):
            self.remember(key, len(rows), rows[-1].pk if rows else None, state)
        return state

    def latest(
        self,
        key: Hashable,
        rows_from: Callable[[int], Sequence],
        *,
        new: Callable[[], Any],
        step: Callable[[Any, Any], Any],
        count: int | None = None,
    ) -> Any:
        """The state after every stored move, reading only the moves since the kept state.

        ``rows_from(number)`` returns the stored move rows numbered ``number`` and after,
        in order (moves are numbered from 0). One query whether the game is at move 2 or
        move 60; all moves only when this process has no usable state. ``count``, the
        number of moves the game's row says are stored, spares even that query when the
        kept state has seen as many: a kept state comes from committed moves, which are
        never changed or taken back, so the first ``count`` stored moves are the ones it saw.
        """
        known = self._known(key)
        if known is not None and count is not None and known[0] == count:
            return known[2]
        if known is not None and known[0] > 0:
            count, last_pk, cached = known
            rows = list(rows_from(count - 1))
            if rows and rows[0].pk == last_pk:
                state = cached
                for row in rows[1:]:
                    state = step(state, row)
                if len(rows) > 1:
                    self.remember(key, count + len(rows) - 1, rows[-1].pk, state)
                return state
        return self._build(key, list(rows_from(0)), new, step, complete=True)

    def advance(self, key: Hashable, row: Any, number: int, *, step: Callable[[Any, Any], Any]) -> None:
        """Keep the kept state of ``key`` stepped by ``row``, the stored move numbered
        ``number``, if it has seen exactly the moves before it (else leave it: a later
        request reads what it lacks). Kept as ``remember`` keeps, once committed."""
        known = self._known(key)
        if known is not None and known[0] == number and row.pk is not None:
            self.remember(key, number + 1, row.pk, step(known[2], row))

    def remember(self, key: Hashable, count: int, last_pk: Any, state: Any) -> None:
        """Keep ``state``, the state after ``count`` moves, the last stored as ``last_pk``.

        A service calls this with the state its move produced, so the next request needs
        no engine work at all. Outside a transaction it is kept at once; inside one, when
        it commits, so a rolled-back move's state is never kept.
        """
        transaction.on_commit(lambda: self._keep(key, count, last_pk, state))

    def _keep(self, key: Hashable, count: int, last_pk: Any, state: Any) -> None:
        # The last state built wins, even if a racing request built a longer one: at worst
        # the next request applies a move again, while an unusable state is never kept.
        with self._lock:
            self._states[key] = (count, last_pk, state)
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)
