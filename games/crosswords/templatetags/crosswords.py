"""Small display filters of the crossword pages (no game logic)."""

import html
from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from config import durations
from games.engine import crossword
from games.ratings import summaries

from ..forms import PlayBotForm
from ..selectors import analysis_summary, board_squares, finished_seats, seated_rows

register = template.Library()


@register.filter
def time_left(seconds) -> str:
    """Seconds as "2 d 5 h", "3 h 10 min", "4 min 5 s" (``config.durations.short``)."""
    if seconds is None:
        return ""
    return durations.short(seconds)


@register.filter
def days(seconds) -> str:
    """A time per move as said: "3 days", "5 minutes" (``config.durations.spoken``)."""
    return durations.spoken(int(seconds))


@register.simple_tag
def profile_crossword_games(player, limit=10) -> SafeString:
    """The profile's section of ``player``'s latest finished crossword games.

    The games and their seats are kept with the player's statistics (``summaries.kept``):
    only a finished game of theirs changes them (the list shows no game in play), and
    rating updates (their changes show here). The players' names are read at each view,
    and the section is kept as HTML under them.
    """
    games = summaries.kept(player, f"crossword-games:1:{limit}", lambda: finished_seats(user=player, limit=limit))
    rows = seated_rows(games, user=player)
    names = [[seat.user.name_and_username if seat.user else "" for seat in row.seats] for row in rows]
    return summaries.kept_html(
        player,
        f"crossword-games-html:1:{limit}",
        names,
        lambda: render_to_string("crosswords/_profile_games.html", {"crossword_rows": rows}),
    )


@register.inclusion_tag("crosswords/_play_bot.html")
def play_bot_form(form=None, compact=False):
    """The "play a bot now" form: variant, strength, time per move (and clock, but for the
    compact form)."""
    form = form or PlayBotForm()
    if not compact:
        # The new-game page also asks "Time per move" for the invited game: one label for
        # two fields leaves a screen reader or voice control unable to tell them apart.
        form.fields["seconds_per_move"].label = "Time for each move against the bot"
        form.fields["clock"].label = "Clock against the bot (live games)"
    else:
        # The home page's quick start keeps to its three choices; the new-game page has the clock.
        form.fields.pop("clock", None)
    return {"bot_form": form, "compact": compact}


@register.simple_tag(takes_context=True)
def crossword_analysis(context, game):
    """The per-player analysis summary of a finished game as the page's viewer may see
    it, or None until it is ready."""
    request = context.get("request")
    return analysis_summary(game=game, viewer=request.user if request else None)


# The board (225 squares) and the move list are written here rather than with template
# loops: the template engine spends about 30 µs a square and 50 µs a history line, which
# made the game page 8 ms dearer and grow with every move (the budget wants a page that
# costs the same at move 60 as at move 2). The markup is the one game.html had.


@register.simple_tag
def board_edges() -> SafeString:
    """Column letters A–O above the board and row numbers 1–15 beside it (from the
    engine's square names), so a reason like "a gap at H8" can be found."""
    return _edges()


@lru_cache(maxsize=1)
def _edges() -> SafeString:
    size = crossword.SIZE
    cols = "".join(f"<span>{escape(crossword.square_name(0, col)[:1])}</span>" for col in range(size))
    rows = "".join(f"<span>{escape(crossword.square_name(row, 0)[1:])}</span>" for row in range(size))
    return mark_safe(
        f'<div class="cw-cols" aria-hidden="true">{cols}</div><div class="cw-rows" aria-hidden="true">{rows}</div>'
    )


@register.simple_tag
def board_rows(view) -> SafeString:
    """The board's rows of squares (the ``role=grid``'s children) of a ``GameView``."""
    return _board_html(view.game.variant, view.board, view.last_play)


# Keyed by what the squares show (the variant's premiums, every tile, the latest play),
# so a new or a rolled-back move can never show another position's board; every viewer of
# a position and each reload share one rendering.
@lru_cache(maxsize=256)
def _board_html(variant: str, board, last_play: frozenset) -> SafeString:
    empty = _empty_squares(variant)
    out = []
    for row in board_squares(variant, board, last_play):
        out.append('<div class="cw-row" role="row">')
        out.extend(_square_html(sq) if sq.letter else empty[sq.row][sq.col] for sq in row)
        out.append("</div>")
    return mark_safe("".join(out))


@lru_cache(maxsize=8)
def _empty_squares(variant: str) -> tuple[tuple[str, ...], ...]:
    """Each empty square of the variant's board, written once per process."""
    return tuple(tuple(_square_html(sq) for sq in row) for row in board_squares(variant, crossword.Board.empty()))


def _square_html(sq) -> str:
    name = escape(sq.name)
    classes = "sq"
    if sq.premium:
        classes += " p" + escape(sq.premium)
    if sq.row == 7 and sq.col == 7:
        classes += " star"
    if sq.last:
        classes += " last"
    opening = f'<div class="{classes}" role="gridcell" data-square="{sq.row},{sq.col}" data-name="{name}" '
    if not sq.letter:
        return opening + f'aria-label="{name}"><span class="lbl">{escape(sq.label)}</span></div>'
    letter = escape(sq.letter)
    shown = letter.upper()
    return (
        opening + f'aria-label="{name} {shown}"><span class="lbl" hidden>{escape(sq.label)}</span>'
        f'<span class="t{" blank" if sq.blank else ""}" data-letter="{letter}">{shown}'
        f"<sub>{'' if sq.blank else sq.value}</sub></span></div>"
    )


@register.simple_tag
def blank_letters() -> SafeString:
    """The blank dialog's 26 letter buttons (the same on every page)."""
    return _blank_letters()


@lru_cache(maxsize=1)
def _blank_letters() -> SafeString:
    return mark_safe(
        "".join(
            f'<button type="button" class="rt blank" data-blank-letter="{letter}">{letter.upper()}</button>'
            for letter in "abcdefghijklmnopqrstuvwxyz"
        )
    )


@register.simple_tag
def rack_tiles(rack, *, dragged: bool = True) -> SafeString:
    """The tiles of a rack (``GameView.rack``: letter and value pairs, "?" a blank) as the
    board's buttons: the rack's own (``dragged``, with the value the board shows when a
    tile is put down) or the swap dialog's (pressed or not). Written here, not in the
    template: the play area is drawn again after every move."""
    out = []
    for letter, value in rack:
        blank = letter == "?"
        face = "" if blank else f"{html.escape(letter.upper())}<sub>{int(value)}</sub>"
        classes = "rt blank" if blank else "rt"
        if dragged:
            label = "blank" if blank else html.escape(letter.upper())
            out.append(
                f'<button type="button" class="{classes}" draggable="true" data-letter="{html.escape(letter)}" '
                f'data-value="{int(value)}" aria-label="{label}">{face}</button>'
            )
        else:
            out.append(
                f'<button type="button" class="{classes}" data-letter="{html.escape(letter)}" '
                f'aria-pressed="false">{face}</button>'
            )
    return mark_safe("".join(out))


@register.simple_tag
def unseen_tiles(unseen) -> SafeString:
    """The unseen tiles (``GameView.unseen``: letter and count pairs), a blank as □."""
    out = []
    for letter, count in unseen:
        blank = letter == "?"
        face = "□" if blank else html.escape(letter.upper())
        extra = f"<sub>{int(count)}</sub>" if count > 1 else ""
        out.append(f'<span class="u{" blank" if blank else ""}">{face}{extra}</span> ')
    return mark_safe("".join(out))


@register.simple_tag
def history_lines(lines) -> SafeString:
    """The moves so far (``GameView.history``), one ``li`` each, the latest marked."""
    if not lines:
        return mark_safe('<li class="muted">No moves yet.</li>')
    out = []
    last = len(lines) - 1
    for n, line in enumerate(lines):
        out.append('<li class="last">' if n == last else "<li>")
        # The standard library's escape, as Django's does, without its wrapper's cost.
        out.append(f"<strong>{html.escape(line.name)}</strong> {html.escape(line.text)}")
        if line.all_tiles:
            out.append(' <span class="tag ok">all tiles</span>')
        if line.score:
            out.append(f' <span class="num pts">+{int(line.score)}</span>')
        out.append("</li>")
    return mark_safe("".join(out))
