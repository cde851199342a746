"""Real mail servers for the mail desk's tests: Dovecot (IMAP) and an aiosmtpd relay (SMTP).

Nothing here is a mock. ``Dovecot`` runs the real ``dovecot`` binary in the foreground with a
throwaway configuration in a temporary directory; it listens on 127.0.0.1 only, on free ports.
``SmtpRelay`` is an aiosmtpd server on 127.0.0.1 that delivers every accepted message into the
recipient's Dovecot INBOX by IMAP APPEND, before it answers the DATA command: when
``smtplib`` returns, the message is in the mailbox. ``SmtpRelay(queued=True)`` behaves as
a real MTA does instead (the benchmark's): DATA is answered once the message is queued, a
thread delivers the queue over one IMAP connection per recipient, and ``drain()`` waits
until every queued message is in its mailbox.

Addresses are ``<dovecot user>@example.test``. ``Mailbox`` reads and fills a user's folders
with the standard library's ``imaplib``.

The configuration is written for Dovecot 2.3 (Debian 12's). Dovecot 2.4 changed the syntax
(``dovecot_config_version``...): ``Dovecot`` refuses it with a clear error instead of
producing a server that half works.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import email
import email.parser
import email.policy
import grp
import imaplib
import ipaddress
import itertools
import math
import os
import pwd
import queue
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time  # noqa: TID251 - start-up deadlines for real servers, not engine code
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast

DOMAIN = "example.test"
LOOPBACK = "127.0.0.1"
#: Folders every user has from the first login on (the desk files answered moves there).
AUTO_FOLDERS = ("processed", "rejected")

_START_TIMEOUT = 10.0
_GROUP_TERM_AFTER = 0.01  # see Dovecot._stop_process
_PORT_ATTEMPTS = 5
_USER_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")


class ServerError(RuntimeError):
    """A test server did not start (the message carries its log's tail)."""


# --------------------------------------------------------------------------- helpers


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (callers retry on a clash)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def find_dovecot() -> str:
    """The dovecot binary: on the PATH, else in an sbin directory (Debian keeps it in
    /usr/sbin, which a normal user's PATH lacks); plain "dovecot" when there is none."""
    for candidate in ("dovecot", "/usr/sbin/dovecot", "/usr/local/sbin/dovecot"):
        found = shutil.which(candidate)
        if found:
            return found
    return "dovecot"


def _with_parent_death_signal(argv: list[str]) -> list[str]:
    """Prefix ``setpriv --pdeathsig TERM`` when there is one (util-linux, Linux).

    Then Dovecot is told to stop even when the test process dies by SIGKILL. (Not a
    ``preexec_fn``: that is unsafe once aiosmtpd's threads run.)
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None or sys.platform != "linux":
        return argv
    return [setpriv, "--pdeathsig", "TERM", "--", *argv]


def _tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return f"({path} is missing)"
    return "\n".join(text.splitlines()[-lines:]) or f"({path} is empty)"


@dataclass(frozen=True)
class TestCertificate:
    """A private CA and a server certificate it signed, for 127.0.0.1 and localhost.

    ``cafile`` is what a client trusts; ``certfile``/``keyfile`` are what the server shows.
    (A throwaway CA rather than one self-signed leaf: OpenSSL's strict verification, on by
    default from Python 3.13, is fussy about a leaf that is its own anchor.)
    """

    __test__ = False  # not a pytest test class, whatever its name says

    cafile: Path
    certfile: Path
    keyfile: Path

    @classmethod
    def create(cls, directory: Path) -> TestCertificate:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

        now = datetime.datetime.now(datetime.UTC)
        valid = {
            "not_valid_before": now - datetime.timedelta(hours=1),
            "not_valid_after": now + datetime.timedelta(days=2),
        }

        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "arbiter test CA")])
        ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
        ca = (
            x509.CertificateBuilder()
            .subject_name(ca_name)
            .issuer_name(ca_name)
            .public_key(ca_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(valid["not_valid_before"])
            .not_valid_after(valid["not_valid_after"])
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=False,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(ca_ski, critical=False)
            .sign(ca_key, hashes.SHA256())
        )

        key = ec.generate_private_key(ec.SECP256R1())
        leaf = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(valid["not_valid_before"])
            .not_valid_after(valid["not_valid_after"])
            .add_extension(
                x509.SubjectAlternativeName(
                    [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(LOOPBACK))]
                ),
                critical=False,
            )
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=False,
                    crl_sign=False,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
                critical=False,
            )
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False
            )
            .sign(ca_key, hashes.SHA256())
        )

        pem = serialization.Encoding.PEM
        cafile = directory / "ca.pem"
        certfile = directory / "cert.pem"
        keyfile = directory / "key.pem"
        cafile.write_bytes(ca.public_bytes(pem))
        certfile.write_bytes(leaf.public_bytes(pem))
        keyfile.write_bytes(
            key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        )
        cafile.chmod(0o644)
        certfile.chmod(0o644)
        keyfile.chmod(0o600)  # Dovecot's config process reads it as the starting user
        return cls(cafile=cafile, certfile=certfile, keyfile=keyfile)

    def client_context(self) -> ssl.SSLContext:
        """A client context that trusts only this test CA (hostname checks stay on)."""
        return ssl.create_default_context(cafile=str(self.cafile))

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(self.certfile), str(self.keyfile))
        return context


@dataclass(frozen=True)
class MailUser:
    """A Dovecot account: ``name`` logs in to IMAP, ``address`` receives mail."""

    name: str
    password: str
    domain: str = DOMAIN

    @property
    def address(self) -> str:
        return f"{self.name}@{self.domain}"


# --------------------------------------------------------------------------- Dovecot


_CONFIG = """\
# Throwaway Dovecot {version} configuration for arbiter's mail tests (tests/mail/servers.py).
instance_name = {instance}
protocols = imap
listen = {host}
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
debug_log_path = {root}/dovecot.log
{users}ssl = {ssl}
{ssl_files}disable_plaintext_auth = no
auth_mechanisms = plain login
# Tests try wrong passwords on purpose. A failed login is answered after <= 0.5 s (Dovecot
# flushes its failure queue every 500 ms; the default adds 2 s), and the anvil socket for
# the auth penalty is not created (below): else the next login from 127.0.0.1 would wait
# 2 s, then 4 s...
auth_failure_delay = 0

# One passwd-file per user: Dovecot re-stats a passwd file at most once a second, so a
# user added right after another one logged in would stay unknown for up to a second.
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd.d/%u
}}
userdb {{
  driver = static
  args = uid={mail_uid} gid={mail_gid} home={root}/mail/%u
}}

mail_location = maildir:~/Maildir
lda_mailbox_autocreate = yes
namespace inbox {{
  inbox = yes
  separator = /
{auto_folders}
}}

service imap-login {{
{login_chroot}  inet_listener imap {{
    address = {host}
    port = {port}
  }}
  inet_listener imaps {{
    address = {host}
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  # no socket: no auth penalty
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
{anvil_chroot}}}
"""


class Dovecot:
    """Dovecot 2.3 in the foreground, on 127.0.0.1, with its own config, users and mail.

    ``port`` speaks IMAP (with STARTTLS when ``tls``); ``tls_port`` speaks IMAP over TLS
    (implicit, like 993) and is ``None`` without ``tls``. ``cafile`` is the CA a client
    trusts for both. Plaintext logins are allowed: Dovecot counts loopback connections as
    secured, so ``ssl = required`` does not refuse them on the plain port.

    As root, mail is stored as ``nobody``/``nogroup`` (Dovecot refuses uid 0 for mail
    processes). As another user everything runs as that user.
    """

    def __init__(self, *, tls: bool = False, binary: str | None = None) -> None:
        self.tls = tls
        self.binary = binary or find_dovecot()
        self.host = LOOPBACK
        self.port: int = 0
        self.tls_port: int | None = None
        self.certificate: TestCertificate | None = None
        self.users: dict[str, str] = {}
        self.root: Path | None = None
        self.startup_seconds: float | None = None
        self.version = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._last_status: int | None = None
        self._names = itertools.count(1)

    # ---------------------------------------------------------------- paths

    @property
    def cafile(self) -> Path | None:
        return self.certificate.cafile if self.certificate else None

    @property
    def config_path(self) -> Path:
        return self._root / "dovecot.conf"

    @property
    def log_path(self) -> Path:
        return self._root / "dovecot.log"

    @property
    def _root(self) -> Path:
        if self.root is None:
            raise ServerError("Dovecot is not started")
        return self.root

    # ---------------------------------------------------------------- life cycle

    def start(self) -> Dovecot:
        path = shutil.which(self.binary)
        if path is None:
            raise ServerError(f"{self.binary} is not installed (.ci/run installs dovecot-imapd)")
        self._check_version(path)
        began = time.monotonic()
        self.root = Path(tempfile.mkdtemp(prefix="arbiter-dovecot-"))
        try:
            self._prepare_tree()
            if self.tls:
                self.certificate = TestCertificate.create(self._root)
            for name in self.users:
                self._write_passwd(name)
            for attempt in range(1, _PORT_ATTEMPTS + 1):
                self.port = free_port()
                self.tls_port = None
                while self.tls and self.tls_port in (None, self.port):
                    self.tls_port = free_port()
                self.config_path.write_text(self._config())
                self.config_path.chmod(0o644)
                if self._launch(path, last=attempt == _PORT_ATTEMPTS):
                    break
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - began
        return self

    def stop(self) -> None:
        """Stop Dovecot (about 0.1 s) and delete its temp dir with the mail."""
        self._stop_process()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> Dovecot:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---------------------------------------------------------------- users

    def add_user(self, name: str, password: str) -> MailUser:
        """Add (or re-password) a user; the next login sees it.

        Each user has a passwd file of their own (``passwd.d/<name>``), so a new user is
        known at once. Dovecot re-reads an existing file at most once a second: changing a
        password waits for the next second to begin (at most 1 s).
        """
        if not _USER_NAME.fullmatch(name):
            raise ValueError(f"not a usable mail user name: {name!r}")
        if any(char in password for char in ":\r\n"):
            raise ValueError("a passwd-file password cannot hold ':' or a line break")
        changed = self.users.get(name, password) != password
        self.users[name] = password
        if self.root is not None:
            self._write_passwd(name)
            if changed:
                now = time.time()
                time.sleep(math.ceil(now) - now + 0.05)
        return MailUser(name, password)

    def new_user(self, hint: str = "user") -> MailUser:
        """A user no other test has: ``<hint><n>`` with a random password."""
        hint = re.sub(r"[^a-z0-9]", "", hint.lower())[:20] or "user"
        while True:
            name = f"{hint}{next(self._names)}"
            if name not in self.users:
                return self.add_user(name, os.urandom(9).hex())

    def has_user(self, name: str) -> bool:
        return name in self.users or self._read_user(name)

    def _read_user(self, name: str) -> bool:
        """Learn a user another process added (a benchmark's relay, forked before the
        users were made) from its passwd file."""
        if self.root is None or not _USER_NAME.fullmatch(name):
            return False
        try:
            line = (self.root / "passwd.d" / name).read_text()
        except OSError:
            return False
        self.users[name] = line.split(":", 2)[1].removeprefix("{PLAIN}")
        return True

    # ---------------------------------------------------------------- internals

    def _check_version(self, path: str) -> None:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, check=False)
        version = out.stdout.strip()
        self.version = version
        if not version.startswith("2.3."):
            raise ServerError(
                f"tests/mail/servers.py writes a Dovecot 2.3 configuration; "
                f"{path} is {version or 'of unknown version'}"
            )

    def _prepare_tree(self) -> None:
        root = self._root
        # Dovecot's unprivileged processes (auth reads the passwd file, imap runs as the
        # mail user) must get through the temp dir: mkdtemp makes it 0700.
        root.chmod(0o755)
        (root / "state").mkdir()
        (root / "passwd.d").mkdir()
        (root / "passwd.d").chmod(0o755)  # the auth process reads it as user dovecot
        mail = root / "mail"
        mail.mkdir()
        uid, gid = self._mail_ids()
        if os.geteuid() == 0:
            os.chown(mail, uid, gid)
        mail.chmod(0o700)

    @staticmethod
    def _mail_ids() -> tuple[int, int]:
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            return nobody.pw_uid, nobody.pw_gid
        return os.geteuid(), os.getegid()

    def _write_passwd(self, name: str) -> None:
        passwd = self._root / "passwd.d" / name
        scratch = passwd.with_name(f".{name}.new")
        # user:password:uid:gid:gecos:home:shell:extra fields (uid... come from the userdb)
        scratch.write_text(f"{name}:{{PLAIN}}{self.users[name]}::::::\n")
        scratch.chmod(0o644)
        # Dovecot notices a change by the mtime (whole seconds) or the size: move the
        # mtime on every rewrite, even twice within one second.
        try:
            stamp = max(int(time.time()), int(passwd.stat().st_mtime) + 1)
        except FileNotFoundError:
            stamp = int(time.time())
        os.utime(scratch, (stamp, stamp))
        os.replace(scratch, passwd)

    def _config(self) -> str:
        root = self._root
        if os.geteuid() == 0:
            users = ""
            mail_uid, mail_gid = "nobody", "nogroup"
            login_chroot = ""
            anvil_chroot = ""
        else:
            me = pwd.getpwuid(os.geteuid()).pw_name
            users = (
                f"default_internal_user = {me}\ndefault_login_user = {me}\n"
                f"default_internal_group = {grp.getgrgid(os.getegid()).gr_name}\n"
            )
            mail_uid, mail_gid = str(os.geteuid()), str(os.getegid())
            login_chroot = "  chroot =\n"
            anvil_chroot = "  chroot =\n"
        if self.certificate is not None:
            ssl_mode = "required"
            ssl_files = (
                f"ssl_cert = <{self.certificate.certfile}\nssl_key = <{self.certificate.keyfile}\n"
            )
        else:
            ssl_mode, ssl_files = "no", ""
        auto = "\n".join(f"  mailbox {name} {{\n    auto = create\n  }}" for name in AUTO_FOLDERS)
        return _CONFIG.format(
            version=self.version,
            instance=f"arbiter-test-{os.getpid()}-{root.name}",
            host=self.host,
            root=root,
            users=users,
            ssl=ssl_mode,
            ssl_files=ssl_files,
            mail_uid=mail_uid,
            mail_gid=mail_gid,
            auto_folders=auto,
            login_chroot=login_chroot,
            port=self.port,
            tls_port=self.tls_port or 0,
            anvil_chroot=anvil_chroot,
        )

    def _launch(self, path: str, *, last: bool) -> bool:
        """Start the master; True once it greets, False on a port clash (retry)."""
        stderr = self._root / "dovecot.stderr"
        for file in (self.log_path, stderr):
            file.touch()
        offsets = {file: file.stat().st_size for file in (self.log_path, stderr)}

        def news() -> str:  # what Dovecot wrote during this attempt
            return "".join(
                file.read_bytes()[offset:].decode(errors="replace")
                for file, offset in offsets.items()
            )

        with stderr.open("ab") as err:
            self._process = subprocess.Popen(
                _with_parent_death_signal([path, "-F", "-c", str(self.config_path)]),
                stdin=subprocess.DEVNULL,
                stdout=err,
                stderr=err,
                start_new_session=True,  # its own process group, out of Ctrl-C's way
            )
        deadline = time.monotonic() + _START_TIMEOUT
        why = f"did not greet within {_START_TIMEOUT:.0f} s"
        while time.monotonic() < deadline:
            # On a fatal error the master exits, but only after about 1 s: no need to wait.
            if self._process.poll() is not None or "Fatal:" in news():
                why = "failed"
                break
            if self._greets():
                return True
            time.sleep(0.02)
        clash = "Address already in use" in news()
        self._stop_process()
        if clash and not last:
            return False
        if self._last_status is not None:
            why = f"exited (status {self._last_status})"
        raise ServerError(
            f"Dovecot on {self.host}:{self.port} {why}"
            f"\n--- {self.log_path} (tail)\n{_tail(self.log_path)}"
            f"\n--- {stderr} (tail)\n{_tail(stderr)}"
        )

    def _stop_process(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        self._last_status = process.poll()  # not None: it had exited by itself
        if self._last_status is None:
            # SIGTERM to the master alone: it stops its children, but then waits 1 s for
            # its log process, 5 s more while clients are connected. SIGTERM to the whole
            # group 10 ms later ends it in about 0.1 s, most times (measured: sooner or later
            # is slower more often). Children the master did not reap are left to PID 1.
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=_GROUP_TERM_AFTER)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        # The master leads its own process group (start_new_session): nothing outlives it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)

    def _greets(self) -> bool:
        ports = [self.port] + ([self.tls_port] if self.tls_port else [])
        for port in ports:
            try:
                with socket.create_connection((self.host, port), timeout=1) as sock:
                    if port == self.tls_port:
                        assert self.certificate is not None
                        context = self.certificate.client_context()
                        with context.wrap_socket(sock, server_hostname=self.host) as tls:
                            greeting = tls.recv(256)
                    else:
                        greeting = sock.recv(256)
            except (OSError, ssl.SSLError):
                return False
            if not greeting.startswith(b"* OK"):
                return False
        return True


# --------------------------------------------------------------------------- Mailbox


def _quoted(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Mailbox:
    """One user's mail, read and written over IMAP with ``imaplib``.

    Each call opens its own logged-in connection; ``connect()`` hands one to a test that
    needs raw IMAP (IDLE, UID MOVE...). ``tls=True`` uses the implicit-TLS port.
    """

    def __init__(
        self,
        dovecot: Dovecot,
        user: MailUser | str,
        password: str | None = None,
        *,
        tls: bool = False,
    ) -> None:
        if isinstance(user, MailUser):
            password = user.password if password is None else password
            user = user.name
        if password is None:
            raise ValueError("Mailbox needs the user's password")
        self.dovecot = dovecot
        self.user = user
        self.password = password
        self.tls = tls

    def connect(self) -> imaplib.IMAP4:
        dovecot = self.dovecot
        if self.tls:
            if dovecot.certificate is None or dovecot.tls_port is None:
                raise ServerError("this Dovecot was started without tls=True")
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                dovecot.host,
                dovecot.tls_port,
                ssl_context=dovecot.certificate.client_context(),
                timeout=10,
            )
        else:
            imap = imaplib.IMAP4(dovecot.host, dovecot.port, timeout=10)
        try:
            imap.login(self.user, self.password)
        except BaseException:
            imap.shutdown()
            raise
        return imap

    def folders(self) -> list[str]:
        imap = self.connect()
        try:
            _, lines = imap.list()
        finally:
            imap.logout()
        names = []
        for line in lines:
            text = line.decode() if isinstance(line, bytes) else str(line)
            name = text.rsplit(' "/" ', 1)[-1].strip()
            names.append(name.strip('"'))
        return names

    def count(self, folder: str = "INBOX") -> int:
        imap = self.connect()
        try:
            typ, data = imap.select(_quoted(folder), readonly=True)
            if typ != "OK":
                raise imaplib.IMAP4.error(f"SELECT {folder}: {data!r}")
            return int(data[0] or 0)
        finally:
            imap.logout()

    def raw_messages(self, folder: str = "INBOX") -> list[bytes]:
        """The messages' bytes, in UID order."""
        imap = self.connect()
        try:
            typ, data = imap.select(_quoted(folder), readonly=True)
            if typ != "OK":
                raise imaplib.IMAP4.error(f"SELECT {folder}: {data!r}")
            _, found = imap.uid("SEARCH", "ALL")
            uids = sorted(int(uid) for uid in found[0].split())
            raw: list[bytes] = []
            for uid in uids:
                _, parts = imap.uid("FETCH", str(uid), "(BODY.PEEK[])")
                raw.extend(part[1] for part in parts if isinstance(part, tuple))
            return raw
        finally:
            imap.logout()

    def messages(self, folder: str = "INBOX") -> list[EmailMessage]:
        """The messages, parsed with ``email.policy.default``, in UID order."""
        return [
            cast(EmailMessage, email.message_from_bytes(raw, policy=email.policy.default))
            for raw in self.raw_messages(folder)
        ]

    def headers(self, folder: str = "INBOX") -> list[EmailMessage]:
        """The messages' headers only, in UID order: safe for hostile mail, whose body
        the standard library's parser may not survive (2,000 nested parts)."""
        parser = email.parser.BytesParser(policy=email.policy.default)
        return [
            cast(EmailMessage, parser.parsebytes(raw, headersonly=True))
            for raw in self.raw_messages(folder)
        ]

    def append(self, raw: bytes, folder: str = "INBOX") -> None:
        imap = self.connect()
        try:
            typ, data = imap.append(_quoted(folder), None, None, raw)
            if typ != "OK":
                raise imaplib.IMAP4.error(f"APPEND {folder}: {data!r}")
        finally:
            imap.logout()


# --------------------------------------------------------------------------- SMTP relay


@dataclass(frozen=True)
class RelayedMessage:
    """One message the relay accepted and delivered."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    raw: bytes

    @property
    def message(self) -> EmailMessage:
        return cast(EmailMessage, email.message_from_bytes(self.raw, policy=email.policy.default))


class _DeliveringHandler:
    def __init__(self, relay: SmtpRelay) -> None:
        self.relay = relay

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if self.relay.user_for(address) is None:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        if self.relay.queued:  # an MTA's answer: taken, delivered later
            self.relay.enqueue(envelope.mail_from, tuple(envelope.rcpt_tos), raw)
            return "250 Message queued for delivery"
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(
                None, self.relay.deliver, envelope.mail_from, tuple(envelope.rcpt_tos), raw
            )
        except Exception as exc:  # the client sees a temporary failure, the test its cause
            self.relay.errors.append(exc)
            return f"451 4.3.0 Delivery to IMAP failed: {exc}"
        return "250 Message accepted for delivery"


class SmtpRelay:
    """aiosmtpd on 127.0.0.1 that files each message into its recipients' Dovecot INBOX.

    A recipient is ``<dovecot user>@<domain>``; any other gets ``550``. ``messages``
    records what was delivered. ``auth`` (login -> password) turns on AUTH PLAIN/LOGIN and
    makes it required; ``tls=True`` offers and requires STARTTLS (and then AUTH only after
    it), with the Dovecot's certificate when it has one. ``queued=True``: DATA is answered
    once the message is queued; ``drain()`` waits for its delivery (see the module doc).
    """

    def __init__(
        self,
        dovecot: Dovecot,
        *,
        domain: str = DOMAIN,
        tls: bool = False,
        auth: Mapping[str, str] | None = None,
        queued: bool = False,
    ) -> None:
        self.dovecot = dovecot
        self.queued = queued
        self._queue: queue.Queue[tuple[str, tuple[str, ...], bytes] | None] = queue.Queue()
        self._courier: threading.Thread | None = None
        self.domain = domain
        self.tls = tls
        self.auth = dict(auth) if auth is not None else None
        self.host = LOOPBACK
        self.port = 0
        self.messages: list[RelayedMessage] = []
        self.errors: list[Exception] = []
        self.certificate: TestCertificate | None = None
        self._scratch: Path | None = None
        self._controller: Any = None

    @property
    def cafile(self) -> Path | None:
        return self.certificate.cafile if self.certificate else None

    def start(self) -> SmtpRelay:
        from aiosmtpd.controller import Controller

        kwargs: dict[str, Any] = {}
        if self.tls:
            self.certificate = self.dovecot.certificate
            if self.certificate is None:
                self._scratch = Path(tempfile.mkdtemp(prefix="arbiter-smtp-"))
                self.certificate = TestCertificate.create(self._scratch)
            kwargs.update(tls_context=self.certificate.server_context(), require_starttls=True)
        if self.auth is not None:
            kwargs.update(
                authenticator=self._authenticate, auth_required=True, auth_require_tls=self.tls
            )
        last_error: Exception | None = None
        for _ in range(_PORT_ATTEMPTS):
            self.port = free_port()
            controller = Controller(
                _DeliveringHandler(self),
                hostname=self.host,
                port=self.port,
                server_hostname="localhost",
                ready_timeout=_START_TIMEOUT,
                **kwargs,
            )
            try:
                controller.start()
            except Exception as exc:  # a port clash: try another one
                last_error = exc
                continue
            self._controller = controller
            return self
        self.stop()
        raise ServerError(f"aiosmtpd did not start on {self.host}: {last_error}")

    def stop(self) -> None:
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop()
        if self._courier is not None:
            self._queue.put(None)  # after what is queued: every message is delivered first
            self._courier.join(timeout=60)
            self._courier = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> SmtpRelay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---------------------------------------------------------------- delivery

    def user_for(self, address: str) -> str | None:
        """The Dovecot user an address reaches, or None."""
        local, at, domain = address.rpartition("@")
        if not at or domain.lower() != self.domain.lower():
            return None
        return local if self.dovecot.has_user(local) else None

    def enqueue(self, mail_from: str, rcpt_tos: tuple[str, ...], raw: bytes) -> None:
        """Queue one message for the courier thread (started on first use)."""
        if self._courier is None:
            self._courier = threading.Thread(target=self._deliver_queue, daemon=True)
            self._courier.start()
        self._queue.put((mail_from, rcpt_tos, raw))

    def drain(self) -> None:
        """Wait until every queued message is delivered (or failed: see ``errors``)."""
        self._queue.join()

    def _deliver_queue(self) -> None:
        """Deliver the queue in order, over one IMAP connection per recipient."""
        connections: dict[str, imaplib.IMAP4] = {}
        try:
            while True:
                item = self._queue.get()
                try:
                    if item is None:
                        return
                    mail_from, rcpt_tos, raw = item
                    filed = b"Return-Path: <" + mail_from.encode() + b">\r\n" + raw
                    for rcpt in rcpt_tos:
                        user = self.user_for(rcpt)
                        if user is None:
                            raise ServerError(f"no such user: {rcpt}")
                        if user not in connections:
                            mailbox = Mailbox(self.dovecot, user, self.dovecot.users[user])
                            connections[user] = mailbox.connect()
                        typ, data = connections[user].append("INBOX", None, None, filed)
                        if typ != "OK":
                            raise imaplib.IMAP4.error(f"APPEND INBOX: {data!r}")
                    self.messages.append(RelayedMessage(mail_from, rcpt_tos, raw))
                except Exception as exc:  # kept for the caller to see
                    self.errors.append(exc)
                finally:
                    self._queue.task_done()
        finally:
            for imap in connections.values():
                with contextlib.suppress(OSError, imaplib.IMAP4.error):
                    imap.logout()

    def deliver(self, mail_from: str, rcpt_tos: tuple[str, ...], raw: bytes) -> None:
        """File ``raw`` in each recipient's INBOX, as a local delivery agent would."""
        filed = b"Return-Path: <" + mail_from.encode() + b">\r\n" + raw
        for rcpt in rcpt_tos:
            user = self.user_for(rcpt)
            if user is None:  # removed between RCPT and DATA
                raise ServerError(f"no such user: {rcpt}")
            Mailbox(self.dovecot, user, self.dovecot.users[user]).append(filed)
        self.messages.append(RelayedMessage(mail_from, rcpt_tos, raw))

    def _authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any
    ) -> Any:
        from aiosmtpd.smtp import AuthResult, LoginPassword

        assert self.auth is not None
        if isinstance(auth_data, LoginPassword):
            login = auth_data.login.decode(errors="replace")
            password = auth_data.password.decode(errors="replace")
            if self.auth.get(login) == password:
                return AuthResult(success=True, auth_data=login)
        return AuthResult(success=False, handled=False)
