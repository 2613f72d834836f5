"""Throwaway PostgreSQL and Redis servers for the tests, started from the installed binaries.

Each server lives in its own temporary folder, listens on a free port on 127.0.0.1 and is
gone when stopped: nothing on the machine is configured or touched, so the tests need no
running system service and no trust authentication set up by hand.

    with RedisServer() as redis_server:        # or .start() / .stop()
        redis_server.kill()                     # SIGKILL, like a crash
        redis_server.restart()                  # same port, so clients reconnect

Three uses (a pytest-xdist worker shares the main process's servers, with a database of
its own on each: ``share_with_worker``):

- classes (``PostgresServer``, ``RedisServer``, ``PgBouncerServer``) for tests that start,
  kill and restart servers of their own;
- a pytest plugin (``-p tests.services`` in pyproject.toml): before Django's settings load
  it chooses the database and Redis of the run (see ``pytest_load_initial_conftests``);
- a command, ``python -m tests.services system [--install]``, that checks the Debian
  packages the tests need (PostgreSQL, Redis, chromium) and installs the missing ones
  when running as root. It uses only the standard library, so it runs before `.venv`.

A run that gets SIGTERM or SIGINT ends every process below it before it exits (``end_on_signals``):
the servers here, pytest-xdist workers, and the daphne, Celery and other programs tests start,
even those in sessions of their own or left to it when their starter died.
"""

from __future__ import annotations

import ctypes
import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import pytest
except ImportError:  # `python -m tests.services system` runs before .venv exists
    pytest = None

CHROMIUM = "/usr/bin/chromium"
# The Debian package that provides each program the tests need.
DEBIAN_PACKAGES = {
    "postgres": "postgresql",
    "redis-server": "redis-server",
    "chromium": "chromium",
    "pgbouncer": "pgbouncer",
    "venv": f"python{sys.version_info.major}.{sys.version_info.minor}-venv",
}


class ServiceError(RuntimeError):
    """A server could not be found, started or stopped."""


class _Exited(ServiceError):
    """The server process ended while starting (e.g. its port was taken meanwhile)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def postgres_bin_dir() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them off PATH)."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/postgres"),
        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("postgres")
    return Path(found).parent if found else None


class _Server:
    """A server process in a temporary folder, on a port it keeps across restarts."""

    name = "server"

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        # A port picked here may be taken by another program before the server binds it;
        # until the first start succeeds, another one is picked then (never after: a
        # restart keeps the port clients know).
        self._may_move = port is None
        self.dir = Path(tempfile.mkdtemp(prefix=f"wordfall-{self.name}-"))
        self.process: subprocess.Popen | None = None
        self._log = self.dir / f"{self.name}.log"

    # -- to be provided by each server
    def _command(self) -> list[str]:
        raise NotImplementedError

    def _ready(self) -> bool:
        return _port_open(self.port)

    def _stop_signal(self) -> int:
        return signal.SIGTERM

    # -- lifecycle
    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 30) -> _Server:
        """Start the server and wait until it answers; a no-op when it already runs."""
        if self.running:
            return self
        for attempt in range(3):
            try:
                self._start_once(timeout)
                break
            except _Exited:
                if not self._may_move or attempt == 2:
                    raise
                self.port = free_port()
        self._may_move = False
        return self

    def _start_once(self, timeout: float) -> None:
        _running.add(self)
        log = open(self._log, "ab")
        # Its own session, so kill() can take the whole process group down at once
        # (PostgreSQL's backends too) and a Ctrl-C in the terminal does not reach it.
        self.process = subprocess.Popen(
            self._command(),
            cwd=self.dir,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise _Exited(f"{self.name} exited with {self.process.returncode}:\n{self.log_tail()}")
            if self._ready():
                return
            time.sleep(0.05)
        self.kill()
        raise ServiceError(f"{self.name} did not answer on port {self.port} within {timeout}s:\n{self.log_tail()}")

    def stop(self, timeout: float = 30) -> None:
        """Shut the server down cleanly (it may be started again)."""
        if not self.running:
            return
        self.process.send_signal(self._stop_signal())
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return
        self._reap_group()

    def kill(self) -> None:
        """SIGKILL the server and every process it started, as a crash would."""
        if self.process is None:
            return
        self._reap_group(signal.SIGKILL)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass

    def _reap_group(self, sig: int = signal.SIGKILL) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        # Wait until no process of the group is left, so a restart finds the port and
        # (for PostgreSQL) the shared memory free.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except (ProcessLookupError, PermissionError):
                break
            self.process.poll()
            _reap_orphans(self.process.pid, leader=self.process.pid)
            time.sleep(0.02)

    def restart(self, timeout: float = 30) -> _Server:
        """Stop (if running) and start again on the same port and data."""
        self.stop()
        return self.start(timeout=timeout)

    def cleanup(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        _running.discard(self)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self._log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()


class RedisServer(_Server):
    """``redis-server`` with no persistence: a restart starts empty, as after a crash."""

    name = "redis"
    DATABASES = 16

    def __init__(self, port: int | None = None, binary: str | None = None):
        self.binary = binary or shutil.which("redis-server") or "/usr/bin/redis-server"
        if not os.path.exists(self.binary):
            raise ServiceError(f"redis-server not found: {missing_packages_hint(['redis-server'])}")
        super().__init__(port)

    @property
    def url(self) -> str:
        return self.url_for(0)

    def url_for(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def _command(self) -> list[str]:
        return [
            self.binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.dir),
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
            "--databases",
            str(self.DATABASES),
        ]

    def _ready(self) -> bool:
        """This server answers on the port: INFO names our process, not another Redis's."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"INFO server\r\n")
                reply = b""
                while b"process_id:" not in reply or not reply.endswith(b"\r\n"):
                    chunk = s.recv(65536)
                    if not chunk:
                        return False
                    reply += chunk
        except OSError:
            return False
        return f"process_id:{self.process.pid}\r\n".encode() in reply


class PostgresServer(_Server):
    """A PostgreSQL cluster of its own (``initdb``), superuser ``postgres``, trust on loopback.

    PostgreSQL refuses to run as root, so as root the cluster is owned and run by the
    ``postgres`` system user (the Debian package creates it).
    """

    name = "postgres"

    def __init__(self, port: int | None = None, bin_dir: Path | None = None, database: str = "postgres"):
        self.bin_dir = bin_dir or postgres_bin_dir()
        if self.bin_dir is None:
            raise ServiceError(f"PostgreSQL not found: {missing_packages_hint(['postgres'])}")
        self.database = database
        super().__init__(port)
        self.data = self.dir / "data"
        self._run_as: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise ServiceError(
                    "running as root needs the 'postgres' system user (apt-get install postgresql)"
                ) from exc
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            # setpriv replaces itself with the program (no extra parent process), so the
            # process we hold is the postmaster itself.
            self._run_as = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--"]
        self._initdb()

    @property
    def url(self) -> str:
        return self.url_for(self.database)

    def url_for(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _initdb(self) -> None:
        # The cluster's own pg_hba.conf: trust for local sockets and loopback only.
        result = subprocess.run(
            [
                *self._run_as,
                str(self.bin_dir / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ],
            cwd=self.dir,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise ServiceError(f"initdb failed:\n{result.stdout}\n{result.stderr}")

    def _command(self) -> list[str]:
        # No fsync: a killed server loses nothing (the written pages are in the kernel's
        # cache), only a machine crash would, and the cluster is thrown away anyway.
        # Commits still wait for their WAL write, so a fault test that SIGKILLs the server
        # finds every committed row after the restart.
        return [
            *self._run_as,
            str(self.bin_dir / "postgres"),
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={self.dir}",
            "-c",
            "fsync=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "max_connections=200",
            "-c",
            "logging_collector=off",
        ]

    def _stop_signal(self) -> int:
        return signal.SIGINT  # "fast" shutdown: roll back open transactions, then exit

    def _ready(self) -> bool:
        """The postmaster says "ready" in its pid file, as `pg_ctl start -w` reads it."""
        try:
            lines = (self.data / "postmaster.pid").read_text().splitlines()
        except OSError:
            return False
        return len(lines) >= 8 and lines[0].strip() == str(self.process.pid) and lines[7].strip() == "ready"


class PgBouncerServer(_Server):
    """PgBouncer in transaction mode in front of ``postgres`` (a ``host:port``), trusting
    loopback as the throwaway PostgreSQL does: each transaction may run on another of its
    ``pool_size`` server connections, as behind a production PgBouncer.

    Like PostgreSQL it refuses to run as root, so as root it runs as ``postgres``.
    """

    name = "pgbouncer"

    def __init__(self, postgres: tuple[str, int], pool_size: int = 4, port: int | None = None):
        self.binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
        if not os.path.exists(self.binary):
            raise ServiceError(f"pgbouncer not found: {missing_packages_hint(['pgbouncer'])}")
        super().__init__(port)
        self._run_as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self._run_as = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups", "--"]
        host, postgres_port = postgres
        (self.dir / "users.txt").write_text('"postgres" ""\n')
        (self.dir / "pgbouncer.ini").write_text(
            f"[databases]\n* = host={host} port={postgres_port}\n"
            f"[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.dir / 'users.txt'}\npool_mode = transaction\n"
            f"default_pool_size = {pool_size}\nmax_client_conn = 200\n"
        )

    def url_for(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _command(self) -> list[str]:
        return [*self._run_as, self.binary, str(self.dir / "pgbouncer.ini")]


# --- a signal ends the run's processes -------------------------------------------------

#: Every server of this process started and not yet cleaned up.
_running: set[_Server] = set()
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def become_subreaper() -> None:
    """Processes left without a parent below this one become its children, not init's
    (Linux), so ``end_descendants`` still finds a server whose starter died first."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: orphans go to init, as before
        pass


def _processes() -> dict[int, tuple[str, int, int]]:
    """Every process's state, parent and process group, from /proc (empty off Linux)."""
    found = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    state, ppid, group = stat.read().rsplit(")", 1)[1].split()[:3]
            except (OSError, ValueError):
                continue  # ended meanwhile
            found[int(entry)] = (state, int(ppid), int(group))
    return found


def descendants(pid: int | None = None) -> list[int]:
    """The live processes below ``pid`` (this process by default)."""
    children: dict[int, list[int]] = {}
    for child, (state, ppid, _) in _processes().items():
        if state != "Z":  # a zombie has ended: only its exit status is left
            children.setdefault(ppid, []).append(child)
    found, todo = [], [pid or os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _reap_orphans(group: int, leader: int) -> None:
    """Collect the exit status of the ended processes of ``group`` that were left to this
    one (a SIGKILLed PostgreSQL's backends), so the group is gone, not only ended. The
    ``leader`` is left to its ``Popen``, which wants its status."""
    for pid, (state, ppid, pgid) in _processes().items():
        if state == "Z" and ppid == os.getpid() and pgid == group and pid != leader:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def end_descendants(timeout: float = 15) -> None:
    """Stop every process below this one: this process's servers with their own stop
    signal, the rest (pytest-xdist workers, daphne, Celery, servers a worker started) with
    SIGTERM, then SIGKILL whatever is left after ``timeout``; the servers' folders go."""
    servers = list(_running)
    for server in servers:
        if server.running:
            server.process.send_signal(server._stop_signal())
    own = {server.process.pid for server in servers if server.process is not None}
    for pid in descendants():
        try:
            group = os.getpgid(pid)
        except ProcessLookupError:
            continue
        if group not in own:  # a server's own processes (PostgreSQL's backends) end with it
            _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while (left := descendants()) and time.monotonic() < deadline:
        for server in servers:
            if server.process is not None:
                server.process.poll()  # reap it, so it does not linger as a zombie
        time.sleep(0.05)
    for pid in left:
        _signal(pid, signal.SIGKILL)
    for server in servers:
        server.cleanup()


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


_handler_pid: int | None = None


def _on_signal(signum, frame) -> None:
    """SIGTERM or SIGINT: end the run's processes, then end as that signal ends a process."""
    if os.getpid() != _handler_pid:  # a forked copy of the run: its servers are not its own
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal does not cut the cleanup short
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        end_descendants()
        stop_services()
    finally:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


def end_on_signals() -> None:
    """Install ``_on_signal`` for SIGTERM and SIGINT (in the main thread)."""
    global _handler_pid
    _handler_pid = os.getpid()
    become_subreaper()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _on_signal)


# --- which servers a test run uses ---------------------------------------------------

_started: list[_Server] = []
_owned_redis_url: str | None = None
#: Set by the main process for its pytest-xdist workers: the Redis it started itself.
OWNED_REDIS = "WORDFALL_TEST_OWNED_REDIS"


def owned_redis_url() -> str | None:
    """The Redis URL of this run when this run started that Redis itself (else None)."""
    return _owned_redis_url


def choose_services(environ: dict[str, str] | os._Environ = os.environ) -> None:
    """Set DATABASE_URL and REDIS_URL for the run, starting throwaway servers as needed.

    For each of the two, in order: ``TEST_DATABASE_URL``/``TEST_REDIS_URL`` when given;
    else ``DATABASE_URL``/``REDIS_URL`` already set (running pytest by hand against your
    own servers); else a throwaway server started here and stopped at the end of the run.
    A pytest-xdist worker uses the servers of the main process (``share_with_worker``).
    """
    global _owned_redis_url
    worker = environ.get("PYTEST_XDIST_WORKER")
    if worker:
        share_with_worker(environ, worker)
        if environ.get(OWNED_REDIS):
            _owned_redis_url = environ["REDIS_URL"]
        return
    for test_name, name in (("TEST_DATABASE_URL", "DATABASE_URL"), ("TEST_REDIS_URL", "REDIS_URL")):
        if environ.get(test_name):
            environ[name] = environ[test_name]
    if not environ.get("DATABASE_URL"):
        server = PostgresServer(database="wordfall")
        _started.append(server)
        server.start()
        environ["DATABASE_URL"] = server.url
    if not environ.get("REDIS_URL"):
        server = RedisServer()
        _started.append(server)
        server.start()
        environ["REDIS_URL"] = environ[OWNED_REDIS] = _owned_redis_url = server.url
    else:
        # Someone else's Redis: this run's queue and cache keys are its own (settings.py),
        # and it is emptied only when asked, once, before any test (or worker) starts.
        environ.setdefault("WORDFALL_TEST_RUN", secrets.token_hex(4))
        environ.pop(OWNED_REDIS, None)
        if environ.get("TEST_REDIS_FLUSH") == "1":
            import redis

            redis.Redis.from_url(environ["REDIS_URL"]).flushdb()


def share_with_worker(environ: dict[str, str] | os._Environ, worker: str) -> None:
    """Make a pytest-xdist worker's run its own on the main process's servers.

    The database: pytest-django gives each worker a test database of its own
    (``test_wordfall_gw0``, ...). Redis: worker n takes database 15 - n of a Redis the run
    started (tests may use the low numbers for layers of their own), or, on someone
    else's, a Celery queue and cache keys of its own. Pub/sub ignores the database
    number, so the worker's live-event channels are named after its database, as the
    settings' default names them after the database.
    """
    number = int(worker.removeprefix("gw"))
    url = environ["REDIS_URL"]
    if url == environ.get(OWNED_REDIS):
        database = RedisServer.DATABASES - 1 - number
        if database < RedisServer.DATABASES // 2:
            raise ServiceError(f"at most {RedisServer.DATABASES // 2} workers share a Redis of the run")
        environ["REDIS_URL"] = f"{url.rsplit('/', 1)[0]}/{database}"
    else:
        environ["WORDFALL_TEST_RUN"] = f"{environ.get('WORDFALL_TEST_RUN') or secrets.token_hex(4)}-{worker}"
    name = environ["DATABASE_URL"].rsplit("/", 1)[-1].split("?", 1)[0]
    environ["CHANNEL_LAYER_PREFIX"] = (
        environ.get("CHANNEL_LAYER_PREFIX", f"wf.{name}.").removesuffix(".") + f"_{worker}."
    )


def stop_services() -> None:
    global _owned_redis_url
    while _started:
        _started.pop().cleanup()
    _owned_redis_url = None


if pytest is not None:

    @pytest.hookimpl(wrapper=True)
    def pytest_load_initial_conftests(early_config, parser, args):
        """Choose the servers before pytest-django loads the settings (it does so in this hook)."""
        # The explicit switch to the test settings (config/settings.py reads it).
        os.environ["WORDFALL_TESTING"] = "1"
        # A run stopped by SIGTERM or SIGINT (a CI timeout, Ctrl-C) first stops every server,
        # worker, daphne and Celery process it started: none is left running on its own.
        end_on_signals()
        try:
            choose_services()
        except ServiceError as exc:
            stop_services()
            raise pytest.UsageError(str(exc)) from exc
        return (yield)

    def pytest_unconfigure(config):
        stop_services()


# --- Debian packages -----------------------------------------------------------------


def missing_programs() -> list[str]:
    """The programs the test run needs that are not installed, by name."""
    missing = []
    # Debian's python3 has no ensurepip without python3.X-venv, so `python3 -m venv`
    # would make a venv with no pip in it.
    if subprocess.run([sys.executable, "-c", "import ensurepip, venv"], capture_output=True).returncode != 0:
        missing.append("venv")
    if not os.environ.get("TEST_DATABASE_URL") and postgres_bin_dir() is None:
        missing.append("postgres")
    if not os.environ.get("TEST_REDIS_URL") and not (
        shutil.which("redis-server") or os.path.exists("/usr/bin/redis-server")
    ):
        missing.append("redis-server")
    if not os.path.exists(CHROMIUM):
        missing.append("chromium")
    if not (shutil.which("pgbouncer") or os.path.exists("/usr/sbin/pgbouncer")):
        missing.append("pgbouncer")
    return missing


def missing_packages_hint(programs: list[str]) -> str:
    packages = " ".join(DEBIAN_PACKAGES[p] for p in programs)
    return f"install them with: sudo apt-get install -y {packages}"


def ensure_system(install: bool) -> int:
    """Check (and as root, install) the Debian packages the tests need; the exit status."""
    missing = missing_programs()
    if not missing:
        return 0
    packages = [DEBIAN_PACKAGES[p] for p in missing]
    if not install or os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"The tests need {', '.join(packages)}; {missing_packages_hint(missing)}", file=sys.stderr)
        return 1
    print(f"Installing {' '.join(packages)} (apt-get)...", file=sys.stderr)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
    ):
        if subprocess.run(command, env=env).returncode != 0:
            print(f"'{' '.join(command)}' failed", file=sys.stderr)
            return 1
    still = missing_programs()
    if still:
        print(f"Still missing after the install: {', '.join(still)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["system"]:
        return ensure_system(install="--install" in argv[1:])
    print("usage: python -m tests.services system [--install]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
