"""Install `.venv` from the lock, uv.lock; regenerate the lock.

    python3 tools/install.py          # the runtime packages (make install, make run)
    python3 tools/install.py --dev    # and the dev group: test, lint and lock tools (make test, make lint)
    python3 tools/install.py lock     # make lock: uv lock, then install

Standard library only: it runs with the machine's python3 before anything is installed.
uv installs `.venv` (``uv sync --locked``: exactly the locked versions, with their hashes,
and nothing else; ``--no-dev`` leaves out the dev group). uv itself comes first, with pip,
at the version and hashes uv.lock pins, into a venv of its own (build/uv), so a fresh
machine needs only Python with its venv module: as root on Debian the module is installed
when it is missing, otherwise the message says what to install. A `.venv` that has the dev
group keeps it when installed again without ``--dev``, so `make run` after `make test`
removes nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
LOCK = ROOT / "uv.lock"
UV_VENV = ROOT / "build" / "uv"
UV = UV_VENV / "bin" / "uv"
DEV_MARK = VENV / ".dev"  # this .venv has the dev group


def say(message: str) -> None:
    print(f"[install] {message}", file=sys.stderr, flush=True)


def venv_usable(venv: Path) -> bool:
    """A venv is usable when its python runs and has pip (Debian without python3-venv
    leaves `bin/python` with no pip in it)."""
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


def create_venv(venv: Path, python: str = sys.executable) -> None:
    """Make ``venv`` usable: remove a half-made one, create it; exit with advice if impossible."""
    if venv.exists() and not venv_usable(venv):
        say(f"{venv.name} is half-made (its python has no pip, or does not run): making it again.")
        shutil.rmtree(venv)
    if venv.exists():
        return
    say(f"creating {venv.relative_to(ROOT) if venv.is_relative_to(ROOT) else venv} with {python}")
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


def locked_uv() -> tuple[str, list[str]]:
    """uv's version in uv.lock and the sha256 of each of its files."""
    for package in tomllib.loads(LOCK.read_text())["package"]:
        if package["name"] == "uv":
            files = package.get("wheels", []) + ([package["sdist"]] if "sdist" in package else [])
            return package["version"], [f["hash"] for f in files]
    sys.exit("[install] uv.lock pins no uv (it is in pyproject.toml's dev group): run `make lock`")


def ensure_uv() -> None:
    """build/uv/bin/uv at the locked version, installed by pip with the locked hashes."""
    version, hashes = locked_uv()
    if UV.exists():
        result = subprocess.run([str(UV), "--version"], capture_output=True, text=True)
        if result.returncode == 0 and result.stdout.split()[1:2] == [version]:
            return
    create_venv(UV_VENV)
    say(f"installing uv {version} (pip, the hashes uv.lock pins) into {UV_VENV.relative_to(ROOT)}")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as requirement:
        requirement.write(f"uv=={version} " + " ".join(f"--hash={digest}" for digest in hashes) + "\n")
        requirement.flush()
        pip = [str(UV_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "--only-binary", ":all:"]
        result = subprocess.run([*pip, "--require-hashes", "-r", requirement.name])
    if result.returncode != 0:
        say("pip could not install uv")
        sys.exit(result.returncode)


def uv(*args: str) -> int:
    # uv makes .venv with the python running this script and never downloads one.
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never", UV_PROJECT_ENVIRONMENT=str(VENV))
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run([str(UV), *args, "--python", sys.executable], cwd=ROOT, env=env).returncode


def install(dev: bool) -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - runs under the machine's python3, whatever it is
        say(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}): set PYTHON=python3.x")
        sys.exit(1)
    ensure_uv()
    dev = dev or DEV_MARK.exists()
    if uv("sync", "--locked", "--quiet", *([] if dev else ["--no-dev"])) != 0:
        say("uv sync failed; if uv.lock is out of date with pyproject.toml, run `make lock`")
        sys.exit(1)
    if dev:
        DEV_MARK.touch()


def lock(uv_args: list[str]) -> None:
    """``uv lock``: keeps the locked versions that still fit pyproject.toml, so adding a
    dependency adds only it; ``--upgrade`` (or ``--upgrade-package NAME``) moves to the
    newest allowed versions. Every platform, every Python from requires-python."""
    ensure_uv()
    if uv("lock", *uv_args) != 0:
        say("uv lock failed (uv.lock is unchanged)")
        sys.exit(1)
    install(dev=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["lock"]:
        lock(sys.argv[2:])
    elif sys.argv[1:] in ([], ["--dev"]):
        install(dev=sys.argv[1:] == ["--dev"])
    else:
        sys.exit("usage: python3 tools/install.py [--dev | lock [uv lock options]]")
