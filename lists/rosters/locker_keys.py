"""The locker's key and what it seals: edit secrets kept so that only a joined device can read them.

A locker's key (32 random bytes) is never stored as it is: each device keeps it wrapped by its own
secret (held only in its cookie), and the join link's secret wraps it too. The rosters' edit secrets are
sealed by the key. Sealing is `cryptography`'s Fernet (AES-128-CBC with an HMAC-SHA256 tag); a secret's
wrapping key is derived from it by HKDF-SHA256. The database alone opens nothing.
"""

from __future__ import annotations

import base64
import secrets

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_BYTES = 32


class KeyMismatch(Exception):
    """A sealed value that this key did not seal (or that was changed)."""


def new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def _fernet(key: bytes) -> Fernet:
    return Fernet(base64.urlsafe_b64encode(key))


def seal(key: bytes, value: bytes) -> str:
    """`value` encrypted and authenticated under `key`, as URL-safe text."""
    return _fernet(key).encrypt(value).decode()


def unseal(key: bytes, sealed: str) -> bytes:
    """The value `seal(key, value)` sealed; KeyMismatch for any other key or a changed text."""
    try:
        return _fernet(key).decrypt(sealed.encode())
    except (InvalidToken, ValueError) as error:
        raise KeyMismatch from error


def _wrapping_key(secret: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None, info=b"wrap locker key").derive(secret.encode())


def wrap(secret: str, key: bytes) -> str:
    """The locker's key sealed by a device's (or a join link's) secret."""
    return seal(_wrapping_key(secret), key)


def unwrap(secret: str, wrapped: str) -> bytes:
    return unseal(_wrapping_key(secret), wrapped)
