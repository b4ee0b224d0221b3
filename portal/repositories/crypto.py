"""Clone credentials, encrypted at rest with Fernet (AES-128-CBC + HMAC).

The key is ROCPORT_CREDENTIALS_KEY, or one derived from SECRET_KEY when that is unset (development).
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


def _fernet() -> Fernet:
    key = settings.ROCPORT_CREDENTIALS_KEY
    if not key:
        digest = hashlib.sha256(("rocport-credentials:" + settings.SECRET_KEY).encode()).digest()
        key = base64.urlsafe_b64encode(digest).decode()
    return Fernet(key.encode() if isinstance(key, str) else key)


def encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode() if secret else ""


def decrypt(token: str) -> str:
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except InvalidToken:
        raise ValueError("stored credentials cannot be decrypted (ROCPORT_CREDENTIALS_KEY changed?)") from None
