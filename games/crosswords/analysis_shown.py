"""How a finished game's stored analysis is shown: the alternatives of each move and the
best move each player missed, as a viewer may see them.

Offensive words (``lexicon.offensive``) are kept in the stored analysis and hidden when
it is shown, unless the viewer chose to see them: an alternative that forms one is left
out and the next one shown instead.
"""

from __future__ import annotations

from lexicon import offensive
from lexicon.selectors import offensive_words_shown

#: Alternatives shown per move.
ALTERNATIVES = 3


def best_alternative(row: dict, plays: list[dict]) -> dict | None:
    """The better of the first of ``plays`` and the row's best swap, by equity."""
    candidates = plays[:1] + ([row["best_swap"]] if row.get("best_swap") else [])
    return max(candidates, key=lambda alt: alt["equity"], default=None)


def best_missed(rows: list[dict]) -> dict | None:
    """The best alternative of the move that lost most equity to it (the earliest of
    equals), with that loss; None if no move lost any."""
    found, most = None, 0.0
    for row in sorted(rows, key=lambda row: row["number"]):
        alternative = best_alternative(row, row["best"])
        loss = round(alternative["equity"] - row["played"]["equity"], 1) if alternative else 0.0
        if loss > most:
            found, most = {"number": row["number"], **alternative, "equity_loss": loss}, loss
    return found


def _clean(alternative: dict) -> bool:
    return not any(offensive.is_offensive(word) for word in alternative.get("words") or [alternative.get("word", "")])


def for_viewer(rows: list[dict], summary: list[dict], viewer) -> tuple[list[dict], list[dict]]:
    """The analysis as ``viewer`` sees it: alternatives that form an offensive word are
    left out (and the next ones shown instead) unless the viewer chose to see such
    words; a player's best move missed is then the best one left. The stored rows are
    not changed."""
    if offensive_words_shown(viewer):
        return [{**row, "best": row["best"][:ALTERNATIVES]} for row in rows], summary
    shown = [{**row, "best": [alt for alt in row["best"] if _clean(alt)][:ALTERNATIVES]} for row in rows]
    summary = [
        {**entry, "best_missed": best_missed([row for row in shown if row["seat"] == entry["seat"]])}
        if entry.get("best_missed") and not _clean(entry["best_missed"])
        else entry
        for entry in summary
    ]
    return shown, summary
