"""Say whether the address `make run` is to serve on is free, before anything is set up.

    python3 tools/check_port.py HOST PORT

Exits 1 with the reason when another program listens there (or the address is not one of
this machine's), so `make run` stops at once instead of after installing and migrating.
Standard library only: it runs before `.venv` exists.
"""

from __future__ import annotations

import socket
import sys


def port_problem(host: str, port: int) -> str | None:
    """Why daphne could not listen on ``host``:``port``, or None if it could.

    SO_REUSEADDR as daphne's reactor sets it: connections of an earlier run still in
    TIME_WAIT do not keep a server from listening, only a listening socket does.
    """
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        return f"{host} is not an address of this machine ({error.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
            probe.listen()
        except OSError as error:
            return f"cannot listen on {host}:{port}: {error.strerror}"
    return None


def main(argv: list[str]) -> int:
    host, port = argv[1], argv[2]
    if not port.isdigit() or not 0 < int(port) < 65536:
        print(f"PORT must be a port number (1-65535), not {port!r}.", file=sys.stderr)
        return 1
    problem = port_problem(host, int(port))
    if problem:
        print(
            f"{problem}. Another program is serving there (an earlier `make run`?): "
            f"stop it, or choose another port, e.g. `make run PORT={int(port) + 1}`.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
