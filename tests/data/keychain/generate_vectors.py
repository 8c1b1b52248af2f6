#!/usr/bin/python3
"""Writes vectors.json: Watchword keychain derivations, computed independently
of the C++ code (hashlib, hmac and the python3-cryptography package).

BIP39 (entropy -> mnemonic -> seed) is implemented here from the BIP text and
checked against the official vectors in ../bip39/vectors.json before use. The
keychain HKDF is computed twice, by hand over hmac and with
cryptography's HKDF, and the secp256k1 public key comes from cryptography.

Run from this folder: python3 generate_vectors.py > vectors.json
"""
import hashlib
import hmac
import json
import os
import unicodedata

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

HERE = os.path.dirname(os.path.abspath(__file__))
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

SALT = b"watchword/keychain/v1"
IDENTITY_INFO = b"identity secp256k1"  # the version-1 recovery key
RECOVERY_INFO = b"recovery secp256k1"
SHARING_INFO = b"sharing secp256k1"
WRAPPING_INFO = b"recovery wrapping key"

with open(os.path.join(HERE, "..", "..", "..", "resources", "bip39", "english.txt"), "rb") as f:
    WORDS = f.read().decode("ascii").split("\n")[:-1]
assert len(WORDS) == 2048


def entropy_to_mnemonic(entropy: bytes) -> str:
    bits = len(entropy) * 8
    checksum_bits = bits // 32
    value = int.from_bytes(entropy, "big") << checksum_bits
    value |= hashlib.sha256(entropy).digest()[0] >> (8 - checksum_bits)
    count = (bits + checksum_bits) // 11
    return " ".join(WORDS[(value >> (11 * (count - 1 - i))) & 0x7FF] for i in range(count))


def bip39_seed(mnemonic: str, passphrase: str) -> bytes:
    mnemonic_bytes = unicodedata.normalize("NFKD", mnemonic).encode("utf-8")
    salt = b"mnemonic" + unicodedata.normalize("NFKD", passphrase).encode("utf-8")
    return hashlib.pbkdf2_hmac("sha512", mnemonic_bytes, salt, 2048, 64)


def hkdf_by_hand(seed: bytes, info: bytes) -> bytes:
    prk = hmac.new(SALT, seed, hashlib.sha512).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha512).digest()[:32]


def hkdf_library(seed: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA512(), length=32, salt=SALT, info=info).derive(seed)


def expand(seed: bytes, info: bytes) -> bytes:
    by_hand = hkdf_by_hand(seed, info)
    assert by_hand == hkdf_library(seed, info)
    return by_hand


def key_pair(seed: bytes, label: bytes):
    for counter in range(256):
        info = label if counter == 0 else label + bytes([counter])
        candidate = expand(seed, info)
        if 1 <= int.from_bytes(candidate, "big") < N:
            return counter, candidate
    raise RuntimeError("no valid scalar")


def compressed(secret: bytes) -> str:
    public = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256K1()).public_key()
    return public.public_bytes(serialization.Encoding.X962,
                               serialization.PublicFormat.CompressedPoint).hex()


# The BIP39 implementation above must reproduce the official vectors first.
with open(os.path.join(HERE, "..", "bip39", "vectors.json")) as f:
    for entropy_hex, mnemonic, seed_hex, _ in json.load(f)["english"]:
        assert entropy_to_mnemonic(bytes.fromhex(entropy_hex)) == mnemonic
        assert bip39_seed(mnemonic, "TREZOR").hex() == seed_hex

CASES = [
    ("12 words, zero entropy, empty passphrase", bytes(16), ""),
    ("24 words, BIP39 vector 15, passphrase TREZOR",
     bytes.fromhex("68a79eaca2324873eacc50cb9c6eca8cc68ea5d936f98787c60c7ebc74e6ce7c"), "TREZOR"),
    ("15 words, empty passphrase", hashlib.sha256(b"watchword keychain vector 15").digest()[:20], ""),
    ("18 words, ASCII passphrase", hashlib.sha256(b"watchword keychain vector 18").digest()[:24],
     "correct horse battery staple"),
    ("21 words, non-ASCII passphrase (NFKD)", hashlib.sha256(b"watchword keychain vector 21").digest()[:28],
     unicodedata.normalize("NFKD", "Grüße, Ærøskøbing ½")),
    ("24 words, all-ones entropy, empty passphrase", b"\xff" * 32, ""),
]

vectors = []
for name, entropy, passphrase in CASES:
    mnemonic = entropy_to_mnemonic(entropy)
    seed = bip39_seed(mnemonic, passphrase)
    counter, secret = key_pair(seed, IDENTITY_INFO)
    recovery_counter, recovery_secret = key_pair(seed, RECOVERY_INFO)
    sharing_counter, sharing_secret = key_pair(seed, SHARING_INFO)
    public = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256K1()).public_key()
    vectors.append({
        "name": name,
        "entropy": entropy.hex(),
        "mnemonic": mnemonic,
        "passphrase_utf8": passphrase.encode("utf-8").hex(),
        "seed": seed.hex(),
        "prk": hmac.new(SALT, seed, hashlib.sha512).digest().hex(),
        "identity_counter": counter,
        "identity_secret_key": secret.hex(),
        "identity_public_key": public.public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.CompressedPoint).hex(),
        "identity_public_key_uncompressed": public.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint).hex(),
        "recovery_wrapping_key": expand(seed, WRAPPING_INFO).hex(),
        "recovery_counter": recovery_counter,
        "recovery_secret_key": recovery_secret.hex(),
        "recovery_public_key": compressed(recovery_secret),
        "sharing_counter": sharing_counter,
        "sharing_secret_key": sharing_secret.hex(),
        "sharing_public_key": compressed(sharing_secret),
    })

print(json.dumps({
    "description": "Watchword keychain: BIP39 seed -> HKDF-SHA512 key pairs (recovery, sharing, "
                   "and the version-1 recovery key of label 'identity secp256k1') and the recovery "
                   "wrapping key",
    "salt": SALT.decode(),
    "identity_info": IDENTITY_INFO.decode(),
    "recovery_wrapping_info": WRAPPING_INFO.decode(),
    "recovery_info": RECOVERY_INFO.decode(),
    "sharing_info": SHARING_INFO.decode(),
    "vectors": vectors,
}, indent=2, ensure_ascii=False))
