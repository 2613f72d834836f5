"""Create or repair `.venv` and install the locked dependencies; regenerate the lock.

    python3 tools/install.py          # what `make install` (and so run/test) calls
    python3 tools/install.py lock     # what `make lock` calls

Standard library only: it runs with the machine's python3 before `.venv` exists.

The lock, requirements.txt, is a hashed requirements file made by ``uv pip compile``
from pyproject.toml (the dependencies and the ``dev`` extra), for every platform and
every Python the project supports. pip installs it (``--require-hashes``), so a fresh
install gets exactly the versions that were tested and nothing but pip is needed to
install. Its first line records a digest of pyproject.toml's dependency lists: when
someone adds a dependency to pyproject.toml without running `make lock`, the install
says so and installs the new requirements on top of the locked set. ``make lock`` also
writes pylock.toml, the same pins, markers and hashes in the standard lock format
(PEP 751), compiled from requirements.txt; a test checks the two agree.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
PY = VENV / "bin" / "python"
LOCK = ROOT / "requirements.txt"
PYLOCK = ROOT / "pylock.toml"  # the same lock in the standard format (PEP 751)
PYPROJECT = ROOT / "pyproject.toml"
STAMP = VENV / ".installed"
DIGEST_PREFIX = "# pyproject-digest: "


def say(message: str) -> None:
    print(f"[install] {message}", file=sys.stderr, flush=True)


def requirements() -> list[str]:
    """pyproject.toml's dependencies plus the ``dev`` extra, as written there."""
    import tomllib

    project = tomllib.loads(PYPROJECT.read_text())["project"]
    return list(project.get("dependencies", [])) + list(project.get("optional-dependencies", {}).get("dev", []))


def pyproject_digest() -> str:
    return hashlib.sha256(json.dumps(requirements()).encode()).hexdigest()


def lock_digest() -> str | None:
    """The digest of pyproject.toml's requirements the lock was made from."""
    if not LOCK.exists():
        return None
    first = LOCK.read_text().split("\n", 1)[0]
    return first.removeprefix(DIGEST_PREFIX) if first.startswith(DIGEST_PREFIX) else None


def venv_usable(venv: Path = VENV) -> bool:
    """A venv is usable when its python runs and has pip (Debian without python3-venv
    leaves `.venv/bin/python` with no pip in it)."""
    python = venv / "bin" / "python"
    if not python.exists():
        return False
    result = subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True)
    return result.returncode == 0


def venv_package(python: str) -> str | None:
    """Debian's package with the venv module for ``python`` (None if it does not run)."""
    result = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    )
    version = result.stdout.strip() if result.returncode == 0 else ""
    return f"python{version}-venv" if version else None


def install_venv_package(python: str) -> bool:
    """As root on Debian, install the venv module of ``python`` (pythonX.Y-venv); True if done."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    package = venv_package(python)
    if package is None:
        return False
    say(f"installing {package} (apt-get), which creating a venv with pip needs")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        if subprocess.run(command, env=env).returncode != 0:
            return False
    return True


def create_venv(venv: Path = VENV, python: str = sys.executable) -> None:
    """Make ``venv`` usable: remove a half-made one, create it; exit with advice if impossible."""
    if venv.exists() and not venv_usable(venv):
        say(f"{venv.name} is half-made (its python has no pip, or does not run): making it again.")
        shutil.rmtree(venv)
    if venv.exists():
        return
    say(f"creating {venv.name} with {python}")
    result = subprocess.run([python, "-m", "venv", str(venv)], capture_output=True, text=True)
    if (result.returncode != 0 or not venv_usable(venv)) and install_venv_package(python):
        shutil.rmtree(venv, ignore_errors=True)
        result = subprocess.run([python, "-m", "venv", str(venv)], capture_output=True, text=True)
    if result.returncode != 0 or not venv_usable(venv):
        shutil.rmtree(venv, ignore_errors=True)
        say(f"could not create a virtual environment with pip: {(result.stderr or result.stdout).strip()}")
        package = venv_package(python) or "python3-venv"
        say(
            f"On Debian or Ubuntu install Python's venv module first: sudo apt-get install {package} "
            f"(python3-venv for the default python3), then run the command again."
        )
        sys.exit(1)


def state() -> str:
    """What the installed set was made from: the lock's bytes and pyproject's requirements."""
    lock = LOCK.read_bytes() if LOCK.exists() else b""
    return hashlib.sha256(lock + pyproject_digest().encode()).hexdigest()


def pip(*args: str) -> None:
    result = subprocess.run([str(PY), "-m", "pip", "install", "--quiet", *args])
    if result.returncode != 0:
        say(f"pip install {' '.join(args)} failed")
        sys.exit(result.returncode)


def install() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - runs under the machine's python3, whatever it is
        say(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}): set PYTHON=python3.x")
        sys.exit(1)
    create_venv()
    if STAMP.exists() and STAMP.read_text() == state():
        return
    if LOCK.exists():
        say("installing the locked dependencies (requirements.txt)")
        pip("--require-hashes", "-r", str(LOCK))
    if lock_digest() != pyproject_digest():
        # Someone added or changed a requirement without `make lock`: install it over the
        # locked set (pip keeps locked versions that still satisfy it), and say so.
        say(
            "pyproject.toml's dependencies changed since requirements.txt was made: "
            "installing them unlocked; run `make lock` to lock them."
        )
        pip(*requirements())
    STAMP.write_text(state())


def lock(uv_args: list[str]) -> None:
    """Regenerate requirements.txt from pyproject.toml with uv (seconds, not minutes).

    Versions already in the lock are kept while they still satisfy pyproject.toml, so
    adding a dependency adds only it; ``--upgrade`` (or ``--upgrade-package NAME``) moves
    to the newest allowed versions.
    """
    install()
    uv = VENV / "bin" / "uv"
    if not uv.exists():
        pip("uv")
    say("resolving pyproject.toml (dependencies + dev) for Python >= 3.11 on every platform")
    command = [
        str(uv),
        "pip",
        "compile",
        PYPROJECT.name,
        "--extra",
        "dev",
        "--universal",
        "--python-version",
        "3.11",
        "--generate-hashes",
        "--no-header",
        "--output-file",
        LOCK.name,
        *uv_args,
    ]
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never")
    result = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    if result.returncode != 0:
        say("uv pip compile failed (the lock is unchanged)")
        sys.exit(result.returncode)
    body = "".join(line for line in LOCK.read_text().splitlines(keepends=True) if not line.startswith("# "))
    LOCK.write_text(
        f"{DIGEST_PREFIX}{pyproject_digest()}\n"
        "# The tested versions of every dependency, with hashes. Do not edit: `make lock`\n"
        "# regenerates it from pyproject.toml (uv pip compile --universal --generate-hashes).\n" + body
    )
    # The same pins, hashes and markers in the standard lock format, for tools that read
    # it (uv, pip's own lock): compiled from the pinned file, so it cannot pick others.
    result = subprocess.run(
        [
            str(uv),
            "pip",
            "compile",
            LOCK.name,
            "--universal",
            "--python-version",
            "3.11",
            "--format",
            "pylock.toml",
            "--no-header",
            "--output-file",
            PYLOCK.name,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    if result.returncode != 0:
        say("uv could not write pylock.toml from requirements.txt")
        sys.exit(result.returncode)
    say(f"wrote {LOCK.name} and {PYLOCK.name}; installing the lock into .venv")
    install()


if __name__ == "__main__":
    if sys.argv[1:2] == ["lock"]:
        lock(sys.argv[2:])
    elif sys.argv[1:] in ([], ["install"]):
        install()
    else:
        sys.exit("usage: python3 tools/install.py [install | lock [uv pip compile options]]")
