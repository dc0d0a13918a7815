"""A dask cluster that lets only its owner in (experiments/dask_security.py): a command connects
off loopback only with TLS (the cluster's CA, a client certificate it signed and its key) or with
backend.insecure=true, refused before any work otherwise; a hybrid search runs through a TLS
cluster on loopback, which turns away a client without a certificate the CA signed."""

from __future__ import annotations

import datetime
import ipaddress
import json
import socket
import ssl
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from experiments.dask_security import cluster_security, is_loopback
from experiments.store import RunStore
from experiments.workers import run_job, run_runs
from nrpa.errors import InputError
from tests.conftest import cli, small_job

REMOTE = "tcp://10.0.0.5:8786"


def _write(folder: Path, name: str, certificate, key) -> tuple[str, str]:
    cert_path, key_path = folder / f"{name}.pem", folder / f"{name}-key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_path), str(key_path)


def _certificate(name: str, key, issuer_name, issuer_key, ca: bool):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
               .issuer_name(issuer_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
                              critical=False))
    if ca:
        builder = builder.add_extension(x509.KeyUsage(
            digital_signature=True, content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False),
            critical=True)
    else:
        builder = builder.add_extension(x509.ExtendedKeyUsage(
            [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False).add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def make_ca(folder: Path, name: str) -> dict[str, str]:
    """A CA in ``folder`` and two certificates it signs: ``node`` (the scheduler's and the
    workers') and ``client`` (the harness's); the paths of their PEM files."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    ca = _certificate(name, ca_key, ca_name, ca_key, ca=True)
    paths = {"ca_file": _write(folder, "ca", ca, ca_key)[0]}
    for role in ("node", "client"):
        key = ec.generate_private_key(ec.SECP256R1())
        paths[role], paths[f"{role}_key"] = _write(folder, role, _certificate(f"{name} {role}", key, ca_name, ca_key,
                                                                              ca=False), key)
    return paths


@pytest.fixture(scope="module")
def owner(tmp_path_factory) -> dict[str, str]:
    return make_ca(tmp_path_factory.mktemp("owner"), "owner's cluster CA")


@pytest.fixture(scope="module")
def stranger(tmp_path_factory) -> dict[str, str]:
    return make_ca(tmp_path_factory.mktemp("stranger"), "another CA")


def tls_keys(files: dict[str, str]) -> list[str]:
    return [f"backend.tls.ca_file={files['ca_file']}", f"backend.tls.cert={files['client']}",
            f"backend.tls.key={files['client_key']}"]


# --- refusals, before any work (no cluster) ---

@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "tcp://localhost:8786",
                                     "tcp://[::1]:8786", "tcp://127.0.0.2:9000"])
def test_a_plain_address_on_loopback_is_allowed(address):
    assert cluster_security(address) is None


@pytest.mark.parametrize("host", ["10.0.0.5", "head", "0.0.0.0", "192.168.1.2", "localhost.example.org"])
def test_other_hosts_are_not_loopback(host):
    assert not is_loopback(host)


def test_a_plain_address_off_loopback_is_refused_unless_asked_for(tmp_path):
    with pytest.raises(InputError, match=r"backend.insecure=true") as refused:
        cluster_security(REMOTE)
    assert "tls://10.0.0.5:8786" in str(refused.value) and "\n" not in str(refused.value)
    assert cluster_security(REMOTE, insecure=True) is None
    assert cluster_security(REMOTE, {"ca_file": None, "cert": None, "key": None}, insecure=True) is None


def test_the_command_refuses_a_plain_remote_address_in_one_line_before_any_work(tmp_path):
    for arguments in (["run.py"], ["run.py", "-m"]):
        done = cli(*arguments, "backend=dask", f"backend.address={REMOTE}", "max_playouts=10",
                   f"outputs_dir={tmp_path}")
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: backend.address={REMOTE} is not encrypted"), lines
        assert "backend.tls.ca_file=" in lines[0] and "backend.insecure=true" in lines[0]
    assert not list(tmp_path.rglob("*.json"))


def test_the_python_entry_points_refuse_it_too(tmp_path):
    store = RunStore(tmp_path)
    with pytest.raises(InputError, match="not encrypted"):
        run_job(small_job(), 1, store, backend="dask", address=REMOTE)
    with pytest.raises(InputError, match="not encrypted"):
        run_runs([(small_job(), 0)], store, backend="dask", address=REMOTE)
    assert not list(tmp_path.rglob("*.json"))


def test_a_tls_address_needs_the_files(tmp_path, owner):
    done = cli("run.py", "backend=dask", "backend.address=tls://10.0.0.5:8786", f"outputs_dir={tmp_path}")
    assert done.returncode == 2 and "backend.tls.ca_file=" in done.stderr, done.stderr
    with pytest.raises(InputError, match=r"^backend\.tls\.key is not set"):
        cluster_security("tls://10.0.0.5:8786", {"ca_file": owner["ca_file"], "cert": owner["client"]})
    missing = str(tmp_path / "nowhere.pem")
    done = cli("run.py", "backend=dask", "backend.address=tls://10.0.0.5:8786", f"backend.tls.ca_file={owner['ca_file']}",
               f"backend.tls.cert={missing}", f"backend.tls.key={owner['client_key']}", f"outputs_dir={tmp_path}")
    assert done.returncode == 2 and f"error: backend.tls.cert={missing}: no such file" in done.stderr, done.stderr


def test_tls_files_with_a_plain_address_ask_for_tls(owner):
    files = {"ca_file": owner["ca_file"], "cert": owner["client"], "key": owner["client_key"]}
    with pytest.raises(InputError, match=r"write backend.address=tls://10.0.0.5:8786"):
        cluster_security(REMOTE, files)


def test_files_that_make_no_tls_client_are_refused(owner, stranger):
    mismatched = {"ca_file": owner["ca_file"], "cert": owner["client"], "key": stranger["client_key"]}
    with pytest.raises(InputError, match="do not make a TLS client"):
        cluster_security("tls://10.0.0.5:8786", mismatched)


def test_the_files_give_a_mutual_tls_client(owner):
    security = cluster_security("tls://head:8786", {"ca_file": owner["ca_file"], "cert": owner["client"],
                                                    "key": owner["client_key"]})
    assert security.require_encryption and security.tls_client_cert == owner["client"]
    context = security.get_connection_args("client")["ssl_context"]
    assert context.verify_mode == ssl.CERT_REQUIRED


def test_an_unknown_tls_key_is_named():
    done = cli("run.py", "backend=dask", "backend.address=tls://h:1", "backend.tls.certificate=x")
    assert done.returncode == 2 and "did you mean backend.tls.cert" in done.stderr, done.stderr


# --- a TLS cluster on loopback ---

def _handshake(address: str, ca_file: str, cert: str | None = None, key: str | None = None) -> None:
    """A TLS connection to the scheduler that trusts ``ca_file`` and shows ``cert`` (none when
    None), then a read: the scheduler's refusal of the certificate raises there (TLS 1.3 sends
    it after the handshake)."""
    host, port = address.removeprefix("tls://").rsplit(":", 1)
    context = ssl.create_default_context(cafile=ca_file)
    context.check_hostname = False
    if cert:
        context.load_cert_chain(cert, key)
    with socket.create_connection((host, int(port)), timeout=30) as raw, \
            context.wrap_socket(raw, server_hostname=host) as tls:
        tls.recv(1)


@pytest.mark.slow
def test_a_hybrid_search_runs_through_a_tls_cluster_that_turns_strangers_away(tmp_path, owner, stranger):
    from dask.distributed import Client, LocalCluster
    from distributed.security import Security

    node = Security(tls_ca_file=owner["ca_file"], tls_scheduler_cert=owner["node"],
                    tls_scheduler_key=owner["node_key"], tls_worker_cert=owner["node"],
                    tls_worker_key=owner["node_key"], tls_client_cert=owner["node"],
                    tls_client_key=owner["node_key"], require_encryption=True)
    with LocalCluster(protocol="tls", security=node, host="127.0.0.1", n_workers=2, threads_per_worker=1,
                      dashboard_address=None, processes=True) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        done = cli("run.py", "algo=nrpa", "root=2", "repeats=1", "parallel=shared", "threads=2", "clock=wall",
                   "level=2", "N=10", "max_time=null", "restart=false", "backend=dask",
                   f"backend.address={address}", *tls_keys(owner), f"outputs_dir={tmp_path}")
        assert done.returncode == 0, done.stderr
        # a dask client with the owner's client certificate gets in ...
        with Client(address, security=Security(tls_ca_file=owner["ca_file"], tls_client_cert=owner["client"],
                                               tls_client_key=owner["client_key"], require_encryption=True),
                    timeout="30s") as client:
            assert len(client.nthreads()) == 2
        # ... and the scheduler turns away a TLS connection without a certificate, or with one another CA signed
        with pytest.raises(ssl.SSLError, match="certificate required"):
            _handshake(address, owner["ca_file"])
        with pytest.raises(ssl.SSLError, match="unknown ca"):
            _handshake(address, owner["ca_file"], stranger["client"], stranger["client_key"])
        outsider = Security(tls_ca_file=owner["ca_file"], tls_client_cert=stranger["client"],
                            tls_client_key=stranger["client_key"], require_encryption=True)
        with pytest.raises(OSError):
            Client(address, security=outsider, timeout="3s")
        with pytest.raises(OSError):  # a plain dask client, no TLS at all
            Client(address.replace("tls://", "tcp://"), timeout="3s")
    assert "root x2" in done.stdout, done.stdout
    members = [json.loads(p.read_text()) for p in (tmp_path / "runs" / "samegame").glob("*.json")]
    assert sorted(m["repeat"] for m in members) == [0, 1]
    assert all(m["config"]["parallel"]["threads"] == 2 and m["result"]["playouts"] == 100 for m in members)


def test_the_python_api_hands_the_backends_tls_keys_to_the_runs(tmp_path, monkeypatch):
    """analysis.api.search passes backend.tls and backend.insecure on as run.py does (without
    them a TLS or opted-in address would be refused there)."""
    import analysis.api

    given = {}

    def recorded(*args, **kwargs):
        given.update(kwargs)
        raise InputError("recorded")

    monkeypatch.setattr(analysis.api, "run_job", recorded)
    with pytest.raises(InputError, match="recorded"):
        analysis.api.search("algo=nrpa", "level=1", "backend=dask", f"backend.address={REMOTE}",
                            "backend.insecure=true", f"outputs_dir={tmp_path}")
    assert given["insecure"] is True and set(given["tls"]) == {"ca_file", "cert", "key"}
