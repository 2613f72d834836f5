"""A live game's clock: each player's total time, an increment, overtime and its penalty.

A clocked game gives every player the same total time (``Clock.seconds``), which runs
only on their turns. After each move made in time the mover gains the ``increment``.
A player whose time has run out may play on for up to ``overtime`` seconds, losing
``penalty`` points for every minute or part of a minute they went over (counted once,
at the end of the game, from the time they finished on); a player who also uses up the
overtime, or who has none, loses on time (docs/rules-wordgrid.md, "Time"; the Woogles
scheme: 10 points a minute, up to 10 minutes over).

Times are integers of milliseconds, each player's time *left at the start of their
turn*; the caller passes how long the turn has lasted (``used``). Nothing here reads a
clock: the site measures the time from its own stored timestamps and asks these rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

#: Points lost per minute (or part of one) over the time, as Woogles counts them.
OVERTIME_PENALTY = 10
SECOND = 1000
MINUTE = 60 * SECOND


@dataclass(frozen=True)
class Clock:
    """A time control: ``seconds`` each, ``increment`` a move, ``overtime`` allowed."""

    seconds: int
    increment: int = 0
    overtime: int = 0
    penalty: int = OVERTIME_PENALTY

    def __post_init__(self):
        if self.seconds <= 0 or self.increment < 0 or self.overtime < 0 or self.penalty < 0:
            raise ValueError("a clock needs a positive time and no negative increment, overtime or penalty")

    # -- the rules -----------------------------------------------------------------------

    def start(self, players: int) -> tuple[int, ...]:
        """Every player's time at the start of the game."""
        return (self.seconds * SECOND,) * players

    def allowed(self, left: int) -> int:
        """How long a turn begun with ``left`` may last before the player loses on time."""
        return max(0, left + self.overtime * SECOND)

    def lost_on_time(self, left: int, used: int) -> bool:
        """Whether a turn begun with ``left`` has lost on time once it has lasted ``used``."""
        return used >= self.allowed(left)

    def left_after(self, left: int, used: int, *, moved: bool = True) -> int:
        """The time left after a turn begun with ``left`` that lasted ``used``: never below
        the end of the overtime, and with the increment if the player ``moved`` in time (a
        player who left the game or lost on time gains nothing)."""
        if self.lost_on_time(left, used):
            return -self.overtime * SECOND
        return left - used + (self.increment * SECOND if moved else 0)

    def running(self, left: int, used: int) -> int:
        """What the clock of a turn begun with ``left`` shows once it has lasted ``used``."""
        return max(left - used, -self.overtime * SECOND)

    def penalty_for(self, left: int) -> int:
        """The points lost by a player who finished with ``left`` (negative: over time)."""
        if left >= 0:
            return 0
        minutes = -(left // MINUTE)  # a part of a minute counts as a whole one
        return self.penalty * minutes

    def penalties(self, lefts) -> tuple[int, ...]:
        """``penalty_for`` each player's time at the end of the game."""
        return tuple(self.penalty_for(left) for left in lefts)

    # -- how it reads ----------------------------------------------------------------------

    @property
    def label(self) -> str:
        """How the clock reads: "25 min + 10 min overtime", "10 min + 3 s a move"."""
        text = minutes_or_seconds(self.seconds)
        if self.increment:
            text += f" + {self.increment} s a move"
        if self.overtime:
            text += f" + {minutes_or_seconds(self.overtime)} overtime"
        return text


def minutes_or_seconds(seconds: int) -> str:
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60} s"


class Shown(NamedTuple):
    """A clock as a player reads it: ``"4:05"``, ``"1:10 over"``."""

    text: str
    over: bool


def shown(left: int) -> Shown:
    """``left`` (ms) as minutes and seconds, whole seconds rounded up while time is left
    (a clock reads 0:00 only once the time is gone) and down once over."""
    over = left < 0
    seconds = -left // SECOND if over else -(-left // SECOND)
    text = f"{seconds // 60}:{seconds % 60:02d}"
    return Shown(f"{text} over" if over else text, over)


#: The clocks a live game may choose on the new-game form: (code, clock, description).
CHOICES = (
    ("5+0", Clock(5 * 60), "5 min each, lost on time at zero"),
    ("10+3", Clock(10 * 60, increment=3), "10 min each + 3 s a move"),
    ("10+ot", Clock(10 * 60, overtime=5 * 60), "10 min each + 5 min overtime, 10 points a minute over"),
    ("25+ot", Clock(25 * 60, overtime=10 * 60), "25 min each + 10 min overtime (Woogles), 10 points a minute over"),
)


def named(code: str) -> Clock:
    """The clock of the choice ``code``; KeyError for another."""
    for choice, clock, _ in CHOICES:
        if choice == code:
            return clock
    raise KeyError(code)
