#!/usr/bin/python3
"""Writes vectors.json: a worked example of the vault file, version 1
(docs/FORMAT.md section 6), computed independently of the C++ code with
hashlib/hmac and the python3-cryptography package (AES-CBC, HKDF, ECDH on
SECP256K1).

All randomness comes from one fixed byte stream, consumed in the order the
C++ Vault draws it (vault/Vault.h): vault id, master key, salt, password-slot
IV, ephemeral secret, recovery-slot IV, one id per added record, then one IV
per record in file order. The C++ test feeds the same stream and must write
the same file byte for byte, then unlock it with the password and the phrase.
The recovery key R is the identity public key of the 24-word "zoo ... vote"
phrase from ../keychain/vectors.json.

Run from this folder with Debian's /usr/bin/python3: python3 generate_vectors.py
"""
import hashlib
import hmac
import json
import os
import struct
import unicodedata

from cryptography.hazmat.primitives import hashes, padding, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

HERE = os.path.dirname(os.path.abspath(__file__))
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

MAGIC = b"WWVAULT\x00"
SLOT_LABEL = b"watchword/vault/v1 slot"
RECORD_LABEL = b"watchword/vault/v1 record"
MANIFEST_INFO = b"watchword/vault/v1 manifest"
NOTE_KEY_INFO = b"watchword/share/v1 note key"


class Stream:
    def __init__(self):
        self.data = b"".join(
            hashlib.sha256(b"watchword vault vector random" + struct.pack(">I", i)).digest()
            for i in range(64))
        self.used = 0

    def take(self, n):
        out = self.data[self.used:self.used + n]
        assert len(out) == n
        self.used += n
        return out


def hkdf(ikm, salt, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)


def envelope(key, iv, associated_data, plaintext):
    """docs/FORMAT.md section 2: IV || AES-256-CBC || HMAC-SHA256 tag."""
    encryption_key = hkdf(key, None, b"watchword/record/v1 encryption")
    authentication_key = hkdf(key, None, b"watchword/record/v1 authentication")
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(encryption_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    tag = hmac.new(authentication_key,
                   b"\x01" + struct.pack(">Q", len(associated_data)) + associated_data + iv + ciphertext,
                   hashlib.sha256).digest()
    return iv + ciphertext + tag


def field(tag, value):
    return bytes([tag]) + struct.pack(">I", len(value)) + value


OTP_KIND = {"totp": 1, "hotp": 2, "steam": 3}
ALGORITHM = {"SHA1": 1, "SHA256": 2, "SHA512": 3}


def fields(record):
    out = b""
    if record["kind"] == "account":
        if record["issuer"]:
            out += field(0x01, record["issuer"].encode())
        if record["account_name"]:
            out += field(0x02, record["account_name"].encode())
        out += field(0x03, bytes.fromhex(record["secret_hex"]))
        out += field(0x04, bytes([OTP_KIND[record["otp_kind"]]]))
        out += field(0x05, bytes([ALGORITHM[record["algorithm"]]]))
        out += field(0x06, bytes([record["digits"]]))
        if record["otp_kind"] == "hotp":
            out += field(0x08, struct.pack(">Q", record["counter"]))
        else:
            out += field(0x07, struct.pack(">I", record["period"]))
        for tag in record["tags"]:
            out += field(0x09, tag.encode())
        if record["note"]:
            out += field(0x0a, record["note"].encode())
        if record["icon_reference"]:
            out += field(0x0b, record["icon_reference"].encode())
        out += field(0x0c, struct.pack(">q", record["created"]))
        out += field(0x0d, struct.pack(">q", record["modified"]))
        if record["last_used"] is not None:
            out += field(0x0e, struct.pack(">q", record["last_used"]))
        out += field(0x0f, struct.pack(">I", record["sort_position"]))
    else:
        for tag in record["tags"]:
            out += field(0x09, tag.encode())
        out += field(0x0c, struct.pack(">q", record["created"]))
        out += field(0x0d, struct.pack(">q", record["modified"]))
        out += field(0x0f, struct.pack(">I", record["sort_position"]))
        out += field(0x21, record["title"].encode())
        out += field(0x22, record["body"].encode())
    return out


RECORDS = [  # in the order they are added
    {"kind": "account", "issuer": "Ünïcødé Bank 銀行", "account_name": "alice@example.com",
     "secret_hex": bytes(range(1, 65)).hex(), "otp_kind": "totp", "algorithm": "SHA512",
     "digits": 7, "period": 60, "counter": None, "tags": ["bank", "💳 cards"],
     "note": "backup codes are in the safe", "icon_reference": "icons/bank.svg",
     "created": 1767225600, "modified": 1767225700, "last_used": 1767229000, "sort_position": 2},
    {"kind": "account", "issuer": "Example", "account_name": "bob",
     "secret_hex": b"12345678901234567890123456789012".hex(), "otp_kind": "hotp",
     "algorithm": "SHA256", "digits": 8, "period": None, "counter": 42, "tags": [],
     "note": "", "icon_reference": "", "created": 1767225601, "modified": 1767225601,
     "last_used": None, "sort_position": 1},
    {"kind": "account", "issuer": "Steam", "account_name": "gamer",
     "secret_hex": "0123456789abcdef0123", "otp_kind": "steam", "algorithm": "SHA1",
     "digits": 5, "period": 30, "counter": None, "tags": ["games"], "note": "",
     "icon_reference": "", "created": 1767225602, "modified": 1767225602,
     "last_used": -1, "sort_position": 3},
    {"kind": "note", "title": "Wi-Fi — home", "body": "SSID: Ωmega\npassword: hunter2 ✓",
     "tags": ["home"], "created": 1767225603, "modified": 1767225900, "sort_position": 0},
]

PASSWORD = unicodedata.normalize("NFKD", "correct horse battery staple ✓ Ångström").encode("utf-8")
ITERATIONS = 600000
TARGET_MS = 1000
RATE = 9400000
CREATED = 1767225600  # 2026-01-01T00:00:00Z
SAVED = 1767229200    # one hour later

with open(os.path.join(HERE, "..", "keychain", "vectors.json")) as f:
    keychain = [v for v in json.load(f)["vectors"] if v["mnemonic"].startswith("zoo zoo")][0]
recipient_public = bytes.fromhex(keychain["identity_public_key"])
recipient_secret = bytes.fromhex(keychain["identity_secret_key"])

stream = Stream()
vault_id = stream.take(16)
master_key = stream.take(32)
salt = stream.take(32)
password_iv = stream.take(16)
ephemeral_secret = stream.take(32)
assert 1 <= int.from_bytes(ephemeral_secret, "big") < N
recovery_iv = stream.take(16)
for record in RECORDS:
    record["id"] = stream.take(16)

kek = hashlib.pbkdf2_hmac("sha256", PASSWORD, salt, ITERATIONS, 32)
password_wrapped = envelope(kek, password_iv, SLOT_LABEL + vault_id + b"\x01", master_key)
password_slot = (b"\x01" + struct.pack(">I", ITERATIONS) + salt + struct.pack(">I", TARGET_MS)
                 + struct.pack(">Q", RATE) + password_wrapped)
assert len(password_slot) == 145

ephemeral = ec.derive_private_key(int.from_bytes(ephemeral_secret, "big"), ec.SECP256K1())
ephemeral_public = ephemeral.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.CompressedPoint)
recipient_point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), recipient_public)
shared = ephemeral.exchange(ec.ECDH(), recipient_point)
recipient = ec.derive_private_key(int.from_bytes(recipient_secret, "big"), ec.SECP256K1())
assert shared == recipient.exchange(
    ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), ephemeral_public))
recovery_kek = hkdf(shared, ephemeral_public + recipient_public, NOTE_KEY_INFO)
recovery_wrapped = envelope(recovery_kek, recovery_iv, SLOT_LABEL + vault_id + b"\x02", master_key)
recovery_slot = recipient_public + ephemeral_public + recovery_wrapped
assert len(recovery_slot) == 162

ordered = sorted(RECORDS, key=lambda r: (r["sort_position"], r["id"]))
records_bytes = b""
for record in ordered:
    kind = 1 if record["kind"] == "account" else 2
    plaintext = fields(record)
    associated_data = RECORD_LABEL + vault_id + record["id"] + struct.pack(">Q", 1) + bytes([kind])
    sealed = envelope(master_key, stream.take(16), associated_data, plaintext)
    record["fields_hex"] = plaintext.hex()
    record["sealed_hex"] = sealed.hex()
    records_bytes += record["id"] + struct.pack(">Q", 1) + bytes([kind]) + struct.pack(">I", len(sealed)) + sealed

header = (MAGIC + struct.pack(">HH", 1, 64) + vault_id + struct.pack(">Q", 1)
          + struct.pack(">qq", CREATED, SAVED) + struct.pack(">I", len(RECORDS)) + bytes([2]) + bytes(7))
assert len(header) == 64
slots = (b"\x01" + struct.pack(">H", len(password_slot)) + password_slot
         + b"\x02" + struct.pack(">H", len(recovery_slot)) + recovery_slot)
manifest_key = hkdf(master_key, None, MANIFEST_INFO)
authenticated = header + slots + records_bytes
manifest = hmac.new(manifest_key, authenticated, hashlib.sha256).digest()
body = authenticated + manifest
file_bytes = body + hashlib.sha256(body).digest()

for record in RECORDS:
    record["id"] = record["id"].hex()

document = {
    "source": "tests/data/vault/generate_vectors.py with Debian python3-cryptography "
              "(independent of the C++ implementation)",
    "random_hex": stream.data[:stream.used].hex(),
    "random_order": "vault id 16, master key 32, salt 32, password-slot IV 16, ephemeral secret 32, "
                    "recovery-slot IV 16, record ids 16 each (in the order added), "
                    "record IVs 16 each (in file order)",
    "password_hex": PASSWORD.hex(),
    "iterations": ITERATIONS,
    "target_milliseconds": TARGET_MS,
    "iterations_per_second": RATE,
    "created": CREATED,
    "saved": SAVED,
    "recovery_mnemonic": keychain["mnemonic"],
    "recovery_public_key": recipient_public.hex(),
    "vault_id": vault_id.hex(),
    "master_key": master_key.hex(),
    "salt": salt.hex(),
    "password_kek": kek.hex(),
    "ephemeral_public_key": ephemeral_public.hex(),
    "recovery_shared_x": shared.hex(),
    "recovery_kek": recovery_kek.hex(),
    "manifest_key": manifest_key.hex(),
    "header": header.hex(),
    "password_slot": password_slot.hex(),
    "recovery_slot": recovery_slot.hex(),
    "manifest": manifest.hex(),
    "checksum": file_bytes[-32:].hex(),
    "records": RECORDS,
    "file_order": [r["id"] for r in ordered],
    "file_hex": file_bytes.hex(),
}
with open(os.path.join(HERE, "vectors.json"), "w") as out:
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")
