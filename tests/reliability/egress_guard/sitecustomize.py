"""Egress guard for subprocesses of the reliability suite: on ``PYTHONPATH``, Python imports this at start-up.

Every outbound ``connect`` to an address that is not loopback (or a Unix socket) is refused and recorded, one
line per attempt, in the file named by ``CLINRAG_EGRESS_LOG`` (the test fails when the file is not empty).
"""

import ipaddress
import os
import socket

_LOG = os.environ.get("CLINRAG_EGRESS_LOG")


def _allowed(family, address) -> bool:
    if family == getattr(socket, "AF_UNIX", None):
        return True
    host = address[0] if isinstance(address, tuple) else address
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False  # a name: resolving it would already be traffic


def _record(what: str) -> None:
    if _LOG:
        with open(_LOG, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} {what}\n")


_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def _guarded_connect(self, address):
    if not _allowed(self.family, address):
        _record(f"connect {address!r}")
        raise ConnectionRefusedError(f"egress guard: outbound connection to {address!r} refused")
    return _connect(self, address)


def _guarded_connect_ex(self, address):
    if not _allowed(self.family, address):
        _record(f"connect_ex {address!r}")
        return 111
    return _connect_ex(self, address)


def _guarded_getaddrinfo(host, *args, **kwargs):
    if host is not None and not _allowed(socket.AF_INET, (host, 0)):
        _record(f"getaddrinfo {host!r}")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect = _guarded_connect
socket.socket.connect_ex = _guarded_connect_ex
socket.getaddrinfo = _guarded_getaddrinfo
