#!/usr/bin/python3
"""Writes vectors.json: Watchword sender-DH note keys, computed independently
of the C++ code with the python3-cryptography package (ECDH on SECP256K1,
HKDF-SHA256) and checked by hand over hashlib/hmac.

The secret keys are fixed: SHA-256 of a label, which is a valid secp256k1
scalar for every label below (checked). Run from this folder:
python3 generate_vectors.py > vectors.json
"""
import hashlib
import hmac
import json

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
INFO = b"watchword/share/v1 note key"


def secret(label: str) -> bytes:
    value = hashlib.sha256(label.encode()).digest()
    assert 1 <= int.from_bytes(value, "big") < N
    return value


def key(value: bytes):
    return ec.derive_private_key(int.from_bytes(value, "big"), ec.SECP256K1())


def compressed(private) -> bytes:
    return private.public_key().public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.CompressedPoint)


vectors = []
for i in range(1, 5):
    recipient_secret = secret(f"watchword share vector {i} recipient")
    ephemeral_secret = secret(f"watchword share vector {i} ephemeral")
    recipient, ephemeral = key(recipient_secret), key(ephemeral_secret)
    recipient_public, ephemeral_public = compressed(recipient), compressed(ephemeral)
    shared = ephemeral.exchange(ec.ECDH(), recipient.public_key())
    assert shared == recipient.exchange(ec.ECDH(), ephemeral.public_key())
    salt = ephemeral_public + recipient_public
    note_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=INFO).derive(shared)
    prk = hmac.new(salt, shared, hashlib.sha256).digest()
    assert note_key == hmac.new(prk, INFO + b"\x01", hashlib.sha256).digest()
    vectors.append({
        "recipient_secret_key": recipient_secret.hex(),
        "recipient_public_key": recipient_public.hex(),
        "ephemeral_secret_key": ephemeral_secret.hex(),
        "ephemeral_public_key": ephemeral_public.hex(),
        "shared_x": shared.hex(),
        "salt": salt.hex(),
        "note_key": note_key.hex(),
    })

print(json.dumps({
    "description": "Watchword sender DH: note key = HKDF-SHA256(ikm = ECDH x, salt = "
                   "ephemeral public || recipient public (compressed), info)",
    "info": INFO.decode(),
    "vectors": vectors,
}, indent=2))
