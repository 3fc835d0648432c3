"""The locker's key and what it seals: edit secrets kept so that only a joined device can read them.

A locker's key (32 random bytes) is never stored as it is: each device keeps it wrapped by its own
secret (held only in its cookie), and the join link's secret wraps it too. The rosters' edit secrets are
sealed by the key: an HMAC-SHA256 keystream over a random nonce (encrypt), then an HMAC tag (authenticate),
with keys derived apart. The database alone opens nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

KEY_BYTES = 32
NONCE_BYTES = 16
TAG_BYTES = 16


class KeyMismatch(Exception):
    """A sealed value that this key did not seal (or that was changed)."""


def new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def _derive(key: bytes, purpose: bytes) -> bytes:
    return hmac.new(key, purpose, hashlib.sha256).digest()


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (hmac.new(key, nonce + counter.to_bytes(4, "big"), hashlib.sha256).digest() for counter in range(64))
    return b"".join(blocks)[:length]


def seal(key: bytes, value: bytes) -> str:
    """`value` encrypted and authenticated under `key`, as URL-safe text."""
    if len(value) > 1024:
        raise ValueError("only short secrets are sealed")
    nonce = secrets.token_bytes(NONCE_BYTES)
    body = bytes(a ^ b for a, b in zip(value, _keystream(_derive(key, b"encrypt"), nonce, len(value)), strict=True))
    tag = hmac.new(_derive(key, b"authenticate"), nonce + body, hashlib.sha256).digest()[:TAG_BYTES]
    return base64.urlsafe_b64encode(nonce + tag + body).decode()


def unseal(key: bytes, sealed: str) -> bytes:
    """The value `seal(key, value)` sealed; KeyMismatch for any other key or a changed text."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode())
    except ValueError as error:
        raise KeyMismatch from error
    nonce, tag, body = raw[:NONCE_BYTES], raw[NONCE_BYTES : NONCE_BYTES + TAG_BYTES], raw[NONCE_BYTES + TAG_BYTES :]
    expected = hmac.new(_derive(key, b"authenticate"), nonce + body, hashlib.sha256).digest()[:TAG_BYTES]
    if len(nonce) != NONCE_BYTES or not hmac.compare_digest(tag, expected):
        raise KeyMismatch
    return bytes(a ^ b for a, b in zip(body, _keystream(_derive(key, b"encrypt"), nonce, len(body)), strict=True))


def wrap(secret: str, key: bytes) -> str:
    """The locker's key sealed by a device's (or a join link's) secret."""
    return seal(_derive(secret.encode(), b"wrap locker key"), key)


def unwrap(secret: str, wrapped: str) -> bytes:
    return unseal(_derive(secret.encode(), b"wrap locker key"), wrapped)
