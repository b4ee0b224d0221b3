"""Secrets at rest (clone credentials, commit-status tokens): Fernet (AES-128-CBC + HMAC) under a list of keys.

The keys are ROCPORT_CREDENTIALS_KEYS, newest first (or the single ROCPORT_CREDENTIALS_KEY): the newest encrypts,
any of them decrypts (MultiFernet), and `rotate` re-encrypts a value under the newest. With no key configured
(development) one is derived from SECRET_KEY. ENCRYPTED_FIELDS names every column that holds such a value, for
`manage.py rotate_credentials_key`.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings

# (app_label.Model, field): every column encrypted with these keys. tests/portal/repositories/test_credentials_keys.py fails
# when a model has an `*_encrypted` field that is missing here, so a rotation never skips one.
ENCRYPTED_FIELDS = [
    ("repositories.Repository", "credentials_encrypted"),
    ("statuses.CommitStatusConfig", "token_encrypted"),
]


class CredentialsUnreadable(ValueError):
    """A stored secret that none of the configured keys decrypts (a key was dropped too early, or is wrong)."""

    def __init__(self):
        super().__init__(
            "stored credentials cannot be decrypted with any key in ROCPORT_CREDENTIALS_KEYS (or "
            "ROCPORT_CREDENTIALS_KEY): the key they were written with was removed or changed"
        )


def _keys() -> list[bytes]:
    keys = list(settings.ROCPORT_CREDENTIALS_KEYS)
    if not keys:  # development: a key derived from SECRET_KEY
        digest = hashlib.sha256(("rocport-credentials:" + settings.SECRET_KEY).encode()).digest()
        keys = [base64.urlsafe_b64encode(digest).decode()]
    return [key.encode() if isinstance(key, str) else key for key in keys]


def _fernet() -> MultiFernet:
    return MultiFernet([Fernet(key) for key in _keys()])


def encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode() if secret else ""


def decrypt(token: str) -> str:
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except InvalidToken:
        raise CredentialsUnreadable() from None


def is_current(token: str) -> bool:
    """Whether the newest key alone reads this value (nothing to rotate)."""
    try:
        Fernet(_keys()[0]).decrypt(token.encode())
    except InvalidToken:
        return False
    return True


def rotate(token: str) -> str:
    """The same secret encrypted under the newest key; CredentialsUnreadable when no key reads it."""
    try:
        return _fernet().rotate(token.encode()).decode()
    except InvalidToken:
        raise CredentialsUnreadable() from None
