"""The lock: requirements.txt (what pip installs) and pylock.toml (the standard format) agree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements_pins() -> dict[str, tuple[str, set[str]]]:
    """Every pinned package of requirements.txt: (version, its sha256 hashes)."""
    pins: dict[str, tuple[str, set[str]]] = {}
    current = None
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = _canonical(match[1])
            pins[current] = (match[2], set())
        for digest in re.findall(r"--hash=sha256:([0-9a-f]{64})", line):
            pins[current][1].add(digest)
    return pins


def test_every_dependency_is_pinned_with_hashes_in_both_lock_forms():
    pins = requirements_pins()
    assert pins and all(hashes for _, hashes in pins.values()), "every pin carries its hashes"
    packages = tomllib.loads((ROOT / "pylock.toml").read_text())["packages"]
    locked = {}
    for package in packages:
        files = [package["sdist"]] if "sdist" in package else []
        files += package.get("wheels", [])
        locked[_canonical(package["name"])] = (package["version"], {f["hashes"]["sha256"] for f in files})
    assert {name: version for name, (version, _) in locked.items()} == {
        name: version for name, (version, _) in pins.items()
    }
    # pylock.toml leaves out the files of Pythons below 3.11; every file it names is pinned.
    for name, (_, hashes) in pins.items():
        assert locked[name][1] and locked[name][1] <= hashes, (
            f"{name}: pylock.toml names a file requirements.txt does not"
        )
