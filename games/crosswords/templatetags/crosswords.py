"""Small display filters of the crossword pages (no game logic)."""

from django import template

from config import durations

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
def finished_crossword_games(player, limit=10):
    """``player``'s latest finished crossword games, as rows for ``_rows.html``."""
    from ..selectors import finished_games

    return finished_games(user=player, limit=limit)


@register.inclusion_tag("crosswords/_play_bot.html")
def play_bot_form(form=None, compact=False):
    """The "play a bot now" form: variant, strength and time per move."""
    from ..forms import PlayBotForm

    form = form or PlayBotForm()
    if not compact:
        # The new-game page also asks "Time per move" for the invited game: one label for
        # two fields leaves a screen reader or voice control unable to tell them apart.
        form.fields["seconds_per_move"].label = "Time for each move against the bot"
    return {"bot_form": form, "compact": compact}


@register.simple_tag
def crossword_analysis(game):
    """The per-player analysis summary of a finished game, or None until it is ready."""
    from ..selectors import analysis_summary

    return analysis_summary(game=game)
