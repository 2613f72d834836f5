"""Word frequencies: wordfreq's values, read from the machine's table, without wordfreq's list in the process."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

WORDS = ["the", "cat", "cats", "aardvark", "quixotic", "zebra", "rampage", "qi", "za", "xylyl", "qzxvkj"]


def test_the_table_gives_wordfreqs_own_values():
    """Common, rare and unseen words alike: the same Zipf value as wordfreq.zipf_frequency."""
    from wordfreq import zipf_frequency

    from lexicon import frequency

    frequency.zipf.cache_clear()
    assert [frequency.zipf(word) for word in WORDS] == [zipf_frequency(word, "en") for word in WORDS]
    assert frequency.zipf("Cat") == frequency.zipf("cat")
    assert frequency.zipf("naïve") == 0.0 and frequency.zipf("x-ray") == 0.0
    assert frequency.band("the") == "very common" and frequency.band("qzxvkj") == "not seen"


LOOKUPS = """
import sys
import django
django.setup()
from lexicon import frequency, wordlists

def resident_mb():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20

frequency.zipf("cat")
words = sorted(wordlists.words("wordgame"))[::50]
before = resident_mb()
values = [frequency.zipf(word) for word in words]
print(len(words), round(resident_mb() - before, 1), "wordfreq" in sys.modules, sum(v > 0 for v in values) > len(words) // 10)
"""


def test_a_process_reading_frequencies_never_loads_wordfreqs_list():
    """Thousands of lookups in a site process: wordfreq is not imported, and the process grows by little."""
    from lexicon import frequency

    frequency.ensure_table()
    result = subprocess.run(
        [sys.executable, "-c", LOOKUPS], cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    count, grown, imported, mostly_seen = result.stdout.split()
    assert int(count) > 1000 and mostly_seen == "True"
    assert imported == "False"
    assert float(grown) < 8, f"grew {grown} MB"


def test_a_missing_table_is_built_by_a_process_of_its_own(tmp_path, settings):
    """No table on this machine yet: the first lookup builds it in a child process, then reads it."""
    from lexicon import frequency

    settings.VAR_DIR = tmp_path
    frequency.zipf.cache_clear()
    frequency._local.__dict__.clear()
    try:
        assert frequency.zipf("cat") == 4.78
        assert frequency.table_path().parent == tmp_path / "lexicon" and frequency.table_path().exists()
        assert not list((tmp_path / "lexicon").glob("*.part"))
    finally:
        frequency.zipf.cache_clear()
        frequency._local.__dict__.clear()
