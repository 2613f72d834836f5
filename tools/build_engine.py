"""Compile the engine's hot modules with Cython, where a C compiler and Python's headers are.

    .venv/bin/python tools/build_engine.py          # what `make install` runs after the install
    .venv/bin/python tools/build_engine.py --force  # compile again even if up to date

The sources stay plain Python (the reference, run wherever nothing is compiled); the
compiled modules go to build/compiled/ with a manifest of the sources' digests, and
``games.engine.build`` imports them only while those sources are unchanged. Quick when
the build is up to date. Without a compiler or the headers, as root on Debian it
installs them (``gcc``, ``pythonX.Y-dev``) the way the tests install PostgreSQL;
otherwise it says what to install and leaves the site on pure Python. It never fails
the install: a machine that cannot compile still runs every game.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import build  # noqa: E402  (the list of modules and where they go)

DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def say(message: str) -> None:
    print(f"[engine] {message}", file=sys.stderr, flush=True)


def up_to_date() -> bool:
    try:
        manifest = json.loads(build.MANIFEST.read_text())
    except (OSError, ValueError):
        return False
    sources = manifest.get("sources", {})
    return all(
        sources.get(path) == build.source_digest(path) and build.compiled_file(path).exists() for path in build.COMPILED
    )


def headers() -> Path:
    return Path(sysconfig.get_paths()["include"]) / "Python.h"


def compiler() -> str | None:
    name = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(name) or shutil.which("cc") or shutil.which("gcc")


def missing() -> list[str]:
    """Debian packages that would give this Python a compiler and its headers."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    packages = []
    if compiler() is None:
        packages.append("gcc")
    if not headers().exists():
        packages.append(f"python{version}-dev")
    return packages


def install_packages(packages: list[str]) -> bool:
    """As root on Debian, apt-get install ``packages``; True if it did."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    say(f"installing {' '.join(packages)} (apt-get) to compile the engine")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        if subprocess.run(command, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            return False
    return not missing()


def compile_modules() -> None:
    """Cythonize and compile every module of ``build.COMPILED`` into build/compiled/."""
    import Cython
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    digests = {path: build.source_digest(path) for path in build.COMPILED}
    with tempfile.TemporaryDirectory(prefix="wordfall-engine-") as scratch:
        extensions = [
            Extension(path.removesuffix(".py").replace("/", "."), [path], extra_compile_args=["-O2"])
            for path in build.COMPILED
        ]
        modules = cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=str(Path(scratch) / "c"), quiet=True)
        staging = Path(scratch) / "lib"
        distribution = Distribution({"ext_modules": modules, "script_name": "build_engine"})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(staging)
        command.build_temp = str(Path(scratch) / "obj")
        command.parallel = os.cpu_count() or 1
        command.ensure_finalized()
        command.run()
        # Swapped in whole, so a process never sees half a build.
        staged = Path(scratch) / "compiled"
        shutil.copytree(staging, staged)
        (staged / "manifest.json").write_text(json.dumps({"cython": Cython.__version__, "sources": digests}, indent=1))
        shutil.rmtree(build.COMPILED_DIR, ignore_errors=True)
        build.COMPILED_DIR.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), build.COMPILED_DIR)


def main(argv: list[str]) -> int:
    if "--force" not in argv and up_to_date():
        return 0
    needed = missing()
    if needed and not install_packages(needed):
        say(
            "no C compiler or Python headers: the engine runs pure Python (every game works, bots think slower). "
            f"To compile it: sudo apt-get install {' '.join(needed)}, then make install."
        )
        return 0
    try:
        import Cython  # noqa: F401
    except ImportError:
        say("Cython is not installed in this venv (make install installs it): the engine runs pure Python.")
        return 0
    say(f"compiling {len(build.COMPILED)} engine modules with Cython (a minute or two, once)")
    started, started_cpu = time.monotonic(), time.process_time() + _children_cpu()
    try:
        compile_modules()
    except Exception as exc:  # noqa: BLE001 — the site runs pure Python instead; say why
        shutil.rmtree(build.COMPILED_DIR, ignore_errors=True)
        say(f"compiling failed ({exc.__class__.__name__}: {exc}); the engine runs pure Python")
        return 0
    cpu = time.process_time() + _children_cpu() - started_cpu
    say(f"compiled into {build.COMPILED_DIR.relative_to(ROOT)} in {time.monotonic() - started:.0f} s ({cpu:.0f} s CPU)")
    return 0


def _children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
