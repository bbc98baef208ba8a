"""Signed records: the Ed25519 signature a server puts on the records it issues, and its check.

A record's signature covers its *canonical form*: the record's JSON object without its
``"signature"`` member, written as JSON with the keys of every object sorted (by code point), no
whitespace (separators ``,`` and ``:``) and every non-ASCII character as a ``\\uXXXX`` escape, so
the bytes are ASCII (hence UTF-8); exactly Python's ``json.dumps(data, sort_keys=True,
separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()``. Every other member (format,
game, players, seed, options, actions, digests, meta, and any other) is covered, so nothing can be
added, removed or changed without breaking the signature.

The signature member is ``{"algorithm": "Ed25519", "key_id": KEY_ID, "value": BASE64}``: the key id
is the first 16 hex digits of the SHA-256 of the raw 32-byte public key, the value the 64-byte
signature in standard base64. A public key is read from a PEM file (SubjectPublicKeyInfo) or from
the JSON document ``public_key_document`` builds (what ``GET /api/record-key`` serves).

``cryptography`` is imported only when a key is used, so loading records stays light.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citywatch.core.errors import InvalidRecord

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

ALGORITHM = "Ed25519"
SIGNATURE = "signature"
"""The record's member that holds the signature."""
SIGNATURE_BYTES = 64
KEY_BYTES = 32


class BadSignature(InvalidRecord):
    """A record that is unsigned, signed by another key, or changed after it was signed."""


class KeyFileError(ValueError):
    """A key file that cannot be read or does not hold the expected kind of key."""


def canonical_bytes(data: Mapping[str, Any]) -> bytes:
    """The bytes a record's signature covers: ``data`` without its signature, canonical JSON.

    ``ValueError`` if ``data`` is not plain JSON (e.g. holds NaN or a non-string key).
    """
    body = {key: value for key, value in data.items() if key != SIGNATURE}
    try:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                          allow_nan=False)
    except TypeError as exc:
        raise ValueError(f"the record is not plain JSON: {exc}") from None
    return text.encode("ascii")


def key_id(public_key: Ed25519PublicKey) -> str:
    """The key's id: the first 16 hex digits of the SHA-256 of its raw 32 bytes."""
    return hashlib.sha256(raw_public_key(public_key)).hexdigest()[:16]


def raw_public_key(public_key: Ed25519PublicKey) -> bytes:
    """The key's raw 32 bytes."""
    from cryptography.hazmat.primitives import serialization

    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def sign(data: Mapping[str, Any], private_key: Ed25519PrivateKey) -> dict[str, Any]:
    """A copy of the record ``data`` (a JSON dict) with its ``signature`` member, replacing any.

    The copy is ``data`` as JSON would carry it (tuples become lists), so that what is sent is
    what was signed. ``ValueError`` if ``data`` is not plain JSON.
    """
    try:
        plain: dict[str, Any] = json.loads(json.dumps(dict(data), allow_nan=False))
    except TypeError as exc:
        raise ValueError(f"the record is not plain JSON: {exc}") from None
    plain.pop(SIGNATURE, None)
    value = private_key.sign(canonical_bytes(plain))
    plain[SIGNATURE] = {"algorithm": ALGORITHM, "key_id": key_id(private_key.public_key()),
                        "value": base64.b64encode(value).decode("ascii")}
    return plain


def signature_field(value: Any) -> dict[str, str]:
    """Check the shape of a record's ``signature`` member; ``InvalidRecord`` saying what is
    wrong. (Whether it is a valid signature is ``verify``'s question.)"""
    if not isinstance(value, dict):
        raise InvalidRecord("record field 'signature' must be an object")
    for name in ("algorithm", "key_id", "value"):
        if not isinstance(value.get(name), str):
            raise InvalidRecord(f"record field 'signature' needs a string {name!r}")
    extra = sorted(set(value) - {"algorithm", "key_id", "value"})
    if extra:
        raise InvalidRecord(f"record field 'signature' has unknown members {extra}")
    if value["algorithm"] != ALGORITHM:
        raise InvalidRecord(f"record field 'signature': unknown algorithm {value['algorithm']!r} "
                            f"(only {ALGORITHM!r})")
    if len(_decode(value["value"])) != SIGNATURE_BYTES:
        raise InvalidRecord(f"record field 'signature': the value must be {SIGNATURE_BYTES} bytes "
                            "in base64")
    return {name: value[name] for name in ("algorithm", "key_id", "value")}


def _decode(text: str) -> bytes:
    """Standard base64 to bytes; ``InvalidRecord`` if it is not."""
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidRecord("record field 'signature': the value is not base64") from None


def verify(data: Mapping[str, Any], public_key: Ed25519PublicKey) -> str:
    """Check that ``public_key`` signed the record ``data`` (a JSON dict) as it is; return the
    key id. ``BadSignature`` saying why not: unsigned, signed by another key, or changed."""
    from cryptography.exceptions import InvalidSignature

    if data.get(SIGNATURE) is None:
        raise BadSignature("the record is not signed, so nothing shows that the server issued "
                           "it")
    field = signature_field(data[SIGNATURE])
    expected = key_id(public_key)
    if field["key_id"] != expected:
        raise BadSignature(f"the record is signed by another key (key id {field['key_id']}, not "
                           f"{expected})")
    try:
        body = canonical_bytes(data)
    except ValueError as exc:
        raise BadSignature(f"the signature cannot be checked: {exc}") from None
    try:
        public_key.verify(_decode(field["value"]), body)
    except InvalidSignature:
        raise BadSignature(f"the signature (key id {expected}) does not match: the record was "
                           "changed after it was signed") from None
    return expected


def public_key_document(public_key: Ed25519PublicKey) -> dict[str, str]:
    """The public key as JSON: algorithm, key id, raw key in base64 and PEM."""
    from cryptography.hazmat.primitives import serialization

    pem = public_key.public_bytes(serialization.Encoding.PEM,
                                  serialization.PublicFormat.SubjectPublicKeyInfo)
    return {"algorithm": ALGORITHM, "key_id": key_id(public_key),
            "public_key": base64.b64encode(raw_public_key(public_key)).decode("ascii"),
            "pem": pem.decode("ascii")}


def parse_public_key(data: bytes, source: str) -> Ed25519PublicKey:
    """An Ed25519 public key from PEM bytes or ``public_key_document``'s JSON; ``KeyFileError``
    naming ``source`` if it is neither."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if data.lstrip().startswith(b"{"):
        return _from_document(data, source)
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        raise KeyFileError(f"{source} is neither a PEM public key nor the JSON of "
                           "GET /api/record-key") from None
    except UnsupportedAlgorithm:
        raise KeyFileError(f"{source} holds a public key of a kind citywatch cannot read; "
                           f"it needs an {ALGORITHM} key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{source} holds a public key that is not {ALGORITHM}")
    return key


def _from_document(data: bytes, source: str) -> Ed25519PublicKey:
    """The key of ``public_key_document``'s JSON (its raw key; its PEM and key id must agree)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        document = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"{source} is not valid JSON: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("public_key"), str):
        raise KeyFileError(f"{source} is not the JSON of GET /api/record-key (no 'public_key')")
    if document.get("algorithm") != ALGORITHM:
        raise KeyFileError(f"{source}: the algorithm is {document.get('algorithm')!r}, not "
                           f"{ALGORITHM!r}")
    try:
        raw = base64.b64decode(document["public_key"], validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError(f"{source}: 'public_key' is not base64") from None
    if len(raw) != KEY_BYTES:
        raise KeyFileError(f"{source}: 'public_key' must be {KEY_BYTES} bytes, not {len(raw)}")
    key = Ed25519PublicKey.from_public_bytes(raw)
    if "key_id" in document and document["key_id"] != key_id(key):
        raise KeyFileError(f"{source}: 'key_id' does not belong to 'public_key'")
    if "pem" in document:
        pem = document["pem"]
        if not isinstance(pem, str) or parse_public_key(pem.encode(), source) != key:
            raise KeyFileError(f"{source}: 'pem' and 'public_key' are different keys")
    return key


def load_public_key(path: str | Path) -> Ed25519PublicKey:
    """The Ed25519 public key in the file ``path`` (PEM, or the JSON of
    ``GET /api/record-key``); ``KeyFileError`` if it cannot be read or holds no such key."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise KeyFileError(f"cannot read the public key {path}: {exc.strerror}") from None
    return parse_public_key(data, str(path))
