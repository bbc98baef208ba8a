"""The server's record-signing key: read from a PEM file, or created there on first start.

Every record the server issues (``GET /api/record/{token}``) is signed with it
(``citywatch.core.signature``); ``GET /api/record-key`` serves its public half. The file holds
an unencrypted Ed25519 private key (PKCS #8 PEM), mode 0600. Processes that serve one database
must share one key file, so that every record verifies with the one published key: the file is
created atomically (written under a temporary name, then hard-linked into place, which fails if
another process got there first), so processes starting at once end with one key.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from citywatch.core.signature import KeyFileError, key_id, public_key_document, sign

KEY_FILE = "record-signing-key.pem"
"""The key's file name in the user's data directory (``citywatch serve`` without
``--signing-key``)."""


@dataclass(frozen=True)
class RecordSigner:
    """Signs records with one Ed25519 private key; ``created`` if its file was just made."""

    private_key: Ed25519PrivateKey
    path: Path | None = None
    created: bool = False

    @classmethod
    def ephemeral(cls) -> RecordSigner:
        """A signer with a new key kept in memory only (records it signed cannot be checked
        once the process is gone): for tests and for apps built without a key file."""
        return cls(Ed25519PrivateKey.generate())

    @property
    def key_id(self) -> str:
        """The public key's id (``citywatch.core.signature.key_id``)."""
        return key_id(self.private_key.public_key())

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record (a JSON dict) with its signature."""
        return sign(record, self.private_key)

    def public_document(self) -> dict[str, str]:
        """What ``GET /api/record-key`` serves: algorithm, key id, raw key (base64), PEM."""
        return public_key_document(self.private_key.public_key())


def load_signer(path: str | Path) -> RecordSigner:
    """The signer whose key is in the file ``path``, creating the file (and its folder) with a
    new key if there is none; ``KeyFileError`` with one sentence if it cannot be read, written,
    or does not hold an unencrypted Ed25519 private key in PEM form."""
    target = Path(path)
    created = False
    if not target.exists():
        created = _create(target)
    try:
        data = target.read_bytes()
    except OSError as exc:
        raise KeyFileError(f"cannot read the signing key {target}: {exc.strerror}") from None
    return RecordSigner(_private_key(data, target), target, created)


def _private_key(data: bytes, path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in PEM ``data``; ``KeyFileError`` naming ``path`` otherwise."""
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise KeyFileError(f"the signing key {path} is encrypted; citywatch needs it "
                           "unencrypted (protect it with the file's permissions)") from None
    except (ValueError, UnsupportedAlgorithm):
        raise KeyFileError(f"the signing key {path} is not a private key in PEM form "
                           "(remove it to have a new one made)") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"the signing key {path} is not an Ed25519 private key")
    return key


def _create(target: Path) -> bool:
    """Write a new key to ``target`` unless another process does first; True if this one did.
    The file appears whole or not at all, with mode 0600."""
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise KeyFileError(f"cannot create the signing key {target}: {exc.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        os.link(temporary, target)
        _sync_folder(target.parent)
    except FileExistsError:
        return False  # another process made it: use theirs
    except OSError as exc:
        raise KeyFileError(f"cannot create the signing key {target}: {exc.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return True


def _sync_folder(folder: Path) -> None:
    """Make a new name in ``folder`` survive a crash (where the system allows it)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
