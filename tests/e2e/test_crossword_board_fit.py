"""The crossword board fits its frame at every window size: no square spills past it or
under the rack, and the edge letters and numbers stay on their squares."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.crosswords import services
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e
DAY = 86400

# The board's last square, the frame, the rack, and how far the farthest edge label is
# from the middle of its row or column of squares.
MEASURE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const square = (row, col) => box(document.querySelector(`[data-square="${row},${col}"]`));
  const cols = [...document.querySelectorAll(".cw-cols span")].map(box);
  const rows = [...document.querySelectorAll(".cw-rows span")].map(box);
  let drift = 0;
  for (let i = 0; i < 15; i++) {
    const top = square(0, i), left = square(i, 0);
    drift = Math.max(drift,
      Math.abs(top.left + top.width / 2 - (cols[i].left + cols[i].width / 2)),
      Math.abs(left.top + left.height / 2 - (rows[i].top + rows[i].height / 2)));
  }
  const frame = box(document.querySelector("[data-frame]")), last = square(14, 14);
  return {
    spill: Math.max(0, last.right - frame.right, last.bottom - frame.bottom),
    under_rack: Math.max(0, last.bottom - box(document.querySelector("[data-rack]")).top),
    drift,
  };
}"""


@pytest.mark.parametrize("width", [1024, 1200, 1366, 1400])
def test_the_empty_board_fits_its_frame(new_page, make_user, width):
    """Before the first move, in laptop windows 600 to 768 px high, the star's square is as
    small as the others: every square is inside the frame, above the rack, and under its
    column's letter and beside its row's number."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    page = new_page(viewport={"width": width, "height": 768})
    log_in(page, "ann")
    found = {}
    for height in (600, 657, 700, 768):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("[data-rack]")).to_be_visible()
        found[height] = {name: round(value, 1) for name, value in page.evaluate(MEASURE).items()}
    assert found == {height: {"spill": 0, "under_rack": 0, "drift": found[height]["drift"]} for height in found}
    assert max(sizes["drift"] for sizes in found.values()) <= 1, found
