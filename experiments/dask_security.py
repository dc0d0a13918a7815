"""Who may use the dask cluster a command sends its runs to (``backend=dask``).

A dask scheduler runs whatever Python its clients send it, on every worker: a scheduler that
anyone can reach without credentials lets anyone who reaches its port run code, as the user who
started the workers, on every node. So a command connects only

- with TLS: ``backend.address=tls://HOST:PORT`` with ``backend.tls.ca_file``, ``backend.tls.cert``
  and ``backend.tls.key`` (the cluster's CA certificate, and this client's certificate, signed by
  that CA, and its key; docs/howto/cluster.md makes them). dask's TLS is mutual: the scheduler
  and the workers admit only a peer whose certificate the CA signed, and the client talks only to
  a scheduler whose certificate it signed; the traffic is encrypted (``require_encryption``);
- or without TLS to a scheduler on this machine's loopback (``tcp://127.0.0.1:PORT``,
  ``localhost``, ``[::1]``), which only this machine's users reach;
- or without TLS to another address when the command says so: ``backend.insecure=true``.

``cluster_security`` checks this before any work (an InputError naming the key) and gives the
``distributed.Security`` every ``Client`` of the command is made with. The cluster a
``parallel=cluster`` command starts itself (no ``backend.address``) is on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import ssl
from pathlib import Path

from nrpa.errors import InputError

TLS_KEYS = ("ca_file", "cert", "key")  # backend.tls.<key>
_HOWTO = "docs/howto/cluster.md"


def cluster_security(address: str | None, tls=None, insecure: bool = False):
    """The ``distributed.Security`` a client of the scheduler at ``address`` connects with (TLS
    with ``tls``'s files), or None for a plain connection (loopback, or ``insecure``); None
    without an address. ``tls``: a mapping of ``TLS_KEYS`` to file paths (None: not given), as
    the config's ``backend.tls``. InputError, naming the key, for what cannot connect safely
    (module docstring)."""
    if not address:
        return None
    files = {key: (tls.get(key) if tls is not None else None) for key in TLS_KEYS}
    scheme, host, location = _parse(address)
    if any(files.values()):
        return _tls_security(address, scheme, location, files)
    if scheme == "tls":
        raise InputError(f"backend.address={address} is a TLS address: give the cluster's CA and this client's "
                         "certificate and key as backend.tls.ca_file=CA.pem backend.tls.cert=CLIENT.pem "
                         f"backend.tls.key=CLIENT-key.pem ({_HOWTO} makes them)")
    if scheme == "inproc" or is_loopback(host) or insecure:
        return None
    raise InputError(f"backend.address={address} is not encrypted nor authenticated: anyone who reaches that port "
                     "can run code on every worker. Start the scheduler and workers with TLS and give "
                     f"backend.address=tls://{location} backend.tls.ca_file=... backend.tls.cert=... "
                     f"backend.tls.key=... ({_HOWTO}), or set backend.insecure=true to connect without TLS "
                     "anyway")


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface (written as such: a name that
    resolves there, other than localhost, is not looked up)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _parse(address: str) -> tuple[str, str, str]:
    """The scheme (dask's default, tcp, when none is written), the host and HOST:PORT of a
    scheduler address."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        host, _ = parse_host_port(location, 8786) if scheme != "inproc" else (location, None)
    except (ValueError, TypeError) as error:
        raise InputError(f"backend.address={address} is not a scheduler address ({error}): write "
                         "tls://HOST:PORT (or tcp://127.0.0.1:PORT on this machine)") from None
    return scheme, str(host), location


def _tls_security(address: str, scheme: str, location: str, files: dict):
    from distributed.security import Security

    missing = [key for key in TLS_KEYS if not files[key]]
    if missing:
        raise InputError(f"backend.tls.{missing[0]} is not set: TLS takes backend.tls.ca_file (the cluster's CA "
                         "certificate), backend.tls.cert (this client's certificate) and backend.tls.key (its key), "
                         f"all three ({_HOWTO})")
    paths = {}
    for key in TLS_KEYS:
        path = Path(str(files[key])).expanduser()
        if not path.is_file():
            raise InputError(f"backend.tls.{key}={files[key]}: no such file")
        paths[key] = str(path.resolve())
    if scheme != "tls":
        raise InputError(f"backend.address={address} is not a TLS address while backend.tls.* is set: "
                         f"write backend.address=tls://{location}")
    security = Security(tls_ca_file=paths["ca_file"], tls_client_cert=paths["cert"],
                        tls_client_key=paths["key"], require_encryption=True)
    try:  # the files read now, not at the first connection
        security.get_connection_args("client")
    except (ssl.SSLError, OSError, ValueError) as error:
        raise InputError(f"backend.tls.ca_file, backend.tls.cert and backend.tls.key do not make a TLS client "
                         f"({error}): give PEM files, the key unencrypted and the certificate's own") from None
    return security
