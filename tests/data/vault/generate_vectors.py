#!/usr/bin/python3
"""Writes vectors.json: a worked example of the vault file, version 1
(docs/FORMAT.md section 6), and vectors_v2.json: a worked example of
version 2 and the migration of the version-1 example to version 2, all
computed independently of the C++ code with hashlib/hmac and the
python3-cryptography package (AES-CBC, HKDF, ECDH on SECP256K1).

All randomness comes from one fixed byte stream, consumed in the order the
C++ Vault draws it (vault/Vault.h): vault id, master key, salt, password-slot
IV, ephemeral secret, recovery-slot IV, one id per added record, then one IV
per record in file order. The C++ test feeds the same stream and must write
the same file byte for byte, then unlock it with the password and the phrase.
The recovery key R is the identity public key of the 24-word "zoo ... vote"
phrase from ../keychain/vectors.json.

Version 2 (vectors_v2.json) takes its randomness from a second stream of the
same construction (prefix "watchword vault v2 vector random"), drawn in the
order a new version-2 vault draws it: vault id, master key, salt,
password-slot IV, ephemeral secret, recovery-slot IV, identity-slot IV, one id
per added record, one IV per record in file order. Its recovery slot (type 3,
kind 2) wraps M to the phrase's recovery public key, its identity slot (type
4) holds the phrase's sharing key. The migration example opens the version-1
file with the password and writes it as version 2 (generation 2, same password
slot and records, a type-3 recovery slot of kind 1 to the same R), with the
ephemeral secret and recovery-slot IV from a third stream (prefix "watchword
vault migration vector random"). The script opens everything it writes again
(password, recovery secret keys, identity slot) and stops on any mismatch.

Run from this folder with Debian's /usr/bin/python3: python3 generate_vectors.py
"""
import copy
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
    def __init__(self, prefix=b"watchword vault vector random"):
        self.data = b"".join(
            hashlib.sha256(prefix + struct.pack(">I", i)).digest()
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

RECORD_INPUTS = copy.deepcopy(RECORDS)  # before the version-1 example adds ids and outputs

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


# --------------------------------------------------------------------------------------------
# Version 2 (vectors_v2.json): a new vault, and the version-1 example migrated.

V2_RECOVERY_KEY_INFO = b"watchword/vault/v2 recovery key"
V2_IDENTITY_INFO = b"watchword/vault/v2 sharing identity"
SLOT_SIZES = {1: 145, 2: 162, 3: 163, 4: 129}
MIGRATED_AT = SAVED + 3600  # the save that migrates, an hour after the version-1 save


def open_envelope(key, associated_data, sealed):
    """docs/FORMAT.md section 2, opening: the tag first, then AES-CBC and PKCS#7."""
    assert len(sealed) >= 64 and (len(sealed) - 48) % 16 == 0
    encryption_key = hkdf(key, None, b"watchword/record/v1 encryption")
    authentication_key = hkdf(key, None, b"watchword/record/v1 authentication")
    iv, ciphertext, tag = sealed[:16], sealed[16:-32], sealed[-32:]
    expected = hmac.new(authentication_key,
                        b"\x01" + struct.pack(">Q", len(associated_data)) + associated_data + iv + ciphertext,
                        hashlib.sha256).digest()
    if not hmac.compare_digest(expected, tag):
        raise ValueError("authentication failed")
    decryptor = Cipher(algorithms.AES(encryption_key), modes.CBC(iv)).decryptor()
    padded = decryptor.update(ciphertext) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    return unpadder.update(padded) + unpadder.finalize()


def public_key_of(secret):
    """Compressed SEC 1 encoding of secret·G; the secret must be a valid scalar."""
    assert 1 <= int.from_bytes(secret, "big") < N
    private = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256K1())
    return private.public_key().public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.CompressedPoint)


def shared_x(secret, public):
    """x(secret·public), 32 bytes (section 3's agreement, not hashed)."""
    private = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256K1())
    return private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), public))


def recovery_slot_v2(kind, recipient, ephemeral_secret, iv, vault_id, master_key):
    """Type 3: kind || R || E || envelope(KEK, slot AD || 0x03, M)."""
    ephemeral_public = public_key_of(ephemeral_secret)
    shared = shared_x(ephemeral_secret, recipient)
    kek = hkdf(shared, ephemeral_public + recipient, V2_RECOVERY_KEY_INFO)
    wrapped = envelope(kek, iv, SLOT_LABEL + vault_id + b"\x03", master_key)
    body = bytes([kind]) + recipient + ephemeral_public + wrapped
    assert len(body) == SLOT_SIZES[3]
    return body, ephemeral_public, shared, kek


def open_recovery_slot_v2(body, vault_id, recipient_secret):
    """Opens a type-3 slot with the phrase's key of the slot's kind; returns (shared x, KEK, M)."""
    assert len(body) == SLOT_SIZES[3] and body[0] in (1, 2)
    recipient, ephemeral_public, wrapped = body[1:34], body[34:67], body[67:]
    assert public_key_of(recipient_secret) == recipient, "wrong recovery phrase"
    shared = shared_x(recipient_secret, ephemeral_public)
    kek = hkdf(shared, ephemeral_public + recipient, V2_RECOVERY_KEY_INFO)
    master_key = open_envelope(kek, SLOT_LABEL + vault_id + b"\x03", wrapped)
    assert len(master_key) == 32
    return shared, kek, master_key


def slot_bytes(slot_type, body):
    assert len(body) == SLOT_SIZES[slot_type]
    return bytes([slot_type]) + struct.pack(">H", len(body)) + body


def record_bytes(record_id, version, kind, sealed):
    return record_id + struct.pack(">Q", version) + bytes([kind]) + struct.pack(">I", len(sealed)) + sealed


def parse_vault(data):
    """Structure and checksum of a version-1 or version-2 file (section 6.5 steps 1 to 3)."""
    assert data[:8] == MAGIC and len(data) >= 128
    version, header_length = struct.unpack(">HH", data[8:12])
    assert version in (1, 2) and header_length == 64
    assert hashlib.sha256(data[:-32]).digest() == data[-32:], "corrupted"
    vault = {"version": version, "header": data[:64], "vault_id": data[12:28]}
    vault["generation"], vault["created"], vault["modified"] = struct.unpack(">Qqq", data[28:52])
    record_count = struct.unpack(">I", data[52:56])[0]
    slot_count = data[56]
    assert data[57:64] == bytes(7)
    assert 1 <= slot_count <= (2 if version == 1 else 3)
    end = len(data) - 64
    position = 64
    vault["slots"] = {}
    for index in range(slot_count):
        slot_type = data[position]
        length = struct.unpack(">H", data[position + 1:position + 3])[0]
        allowed = (1, 2) if version == 1 else (1, 3, 4)
        assert slot_type in allowed and slot_type not in vault["slots"]
        assert (index == 0) == (slot_type == 1)
        assert length == SLOT_SIZES[slot_type] and position + 3 + length <= end
        vault["slots"][slot_type] = data[position + 3:position + 3 + length]
        if slot_type == 3:
            assert data[position + 3] in (1, 2)
        position += 3 + length
    vault["slot_bytes"] = data[64:position]
    vault["records"] = []
    for _ in range(record_count):
        record_id = data[position:position + 16]
        version_number = struct.unpack(">Q", data[position + 16:position + 24])[0]
        kind = data[position + 24]
        length = struct.unpack(">I", data[position + 25:position + 29])[0]
        assert kind in (1, 2) and position + 29 + length <= end
        assert length >= 64 and (length - 48) % 16 == 0
        vault["records"].append((record_id, version_number, kind, data[position + 29:position + 29 + length]))
        position += 29 + length
    assert position == end
    assert len({r[0] for r in vault["records"]}) == record_count
    vault["record_bytes"] = data[64 + len(vault["slot_bytes"]):end]
    vault["manifest"] = data[end:end + 32]
    return vault


def open_with_password(vault, password):
    """Section 6.5 steps 4 to 7 with the password; returns M and each record's fields."""
    body = vault["slots"][1]
    assert body[0] == 1
    iterations, slot_salt = struct.unpack(">I", body[1:5])[0], body[5:37]
    target = struct.unpack(">I", body[37:41])[0]
    assert 600000 <= iterations <= 50000000 and 1 <= target <= 60000
    kek = hashlib.pbkdf2_hmac("sha256", password, slot_salt, iterations, 32)
    master_key = open_envelope(kek, SLOT_LABEL + vault["vault_id"] + b"\x01", body[49:])
    assert len(master_key) == 32
    check_manifest(vault, master_key)
    return master_key, open_records(vault, master_key)


def check_manifest(vault, master_key):
    manifest_key = hkdf(master_key, None, MANIFEST_INFO)
    expected = hmac.new(manifest_key, vault["header"] + vault["slot_bytes"] + vault["record_bytes"],
                        hashlib.sha256).digest()
    assert hmac.compare_digest(expected, vault["manifest"]), "tampered"


def open_records(vault, master_key):
    out = []
    for record_id, version_number, kind, sealed in vault["records"]:
        associated_data = (RECORD_LABEL + vault["vault_id"] + record_id + struct.pack(">Q", version_number)
                           + bytes([kind]))
        out.append(open_envelope(master_key, associated_data, sealed))
    return out


recovery_v2_public = bytes.fromhex(keychain["recovery_public_key"])
recovery_v2_secret = bytes.fromhex(keychain["recovery_secret_key"])
sharing_public = bytes.fromhex(keychain["sharing_public_key"])
sharing_secret = bytes.fromhex(keychain["sharing_secret_key"])
assert public_key_of(recovery_v2_secret) == recovery_v2_public
assert public_key_of(sharing_secret) == sharing_public
assert public_key_of(recipient_secret) == recipient_public
assert len({recipient_public, recovery_v2_public, sharing_public}) == 3

# A new version-2 vault: randomness in the order of "A new vault (create)".
v2_records = copy.deepcopy(RECORD_INPUTS)
stream2 = Stream(b"watchword vault v2 vector random")
v2_vault_id = stream2.take(16)
v2_master_key = stream2.take(32)
v2_salt = stream2.take(32)
v2_password_iv = stream2.take(16)
v2_ephemeral_secret = stream2.take(32)
assert 1 <= int.from_bytes(v2_ephemeral_secret, "big") < N
v2_recovery_iv = stream2.take(16)
v2_identity_iv = stream2.take(16)
for record in v2_records:
    record["id"] = stream2.take(16)
assert len({record["id"] for record in v2_records}) == len(v2_records)

v2_kek = hashlib.pbkdf2_hmac("sha256", PASSWORD, v2_salt, ITERATIONS, 32)
v2_password_slot = (b"\x01" + struct.pack(">I", ITERATIONS) + v2_salt + struct.pack(">I", TARGET_MS)
                    + struct.pack(">Q", RATE)
                    + envelope(v2_kek, v2_password_iv, SLOT_LABEL + v2_vault_id + b"\x01", v2_master_key))
assert len(v2_password_slot) == 145

v2_recovery_slot, v2_ephemeral_public, v2_shared, v2_recovery_kek = recovery_slot_v2(
    2, recovery_v2_public, v2_ephemeral_secret, v2_recovery_iv, v2_vault_id, v2_master_key)

v2_identity_key = hkdf(v2_master_key, None, V2_IDENTITY_INFO)
v2_identity_slot = sharing_public + envelope(v2_identity_key, v2_identity_iv,
                                             SLOT_LABEL + v2_vault_id + b"\x04", sharing_secret)
assert len(v2_identity_slot) == 129

v2_ordered = sorted(v2_records, key=lambda r: (r["sort_position"], r["id"]))
v2_records_bytes = b""
for record in v2_ordered:
    kind = 1 if record["kind"] == "account" else 2
    plaintext = fields(record)
    associated_data = RECORD_LABEL + v2_vault_id + record["id"] + struct.pack(">Q", 1) + bytes([kind])
    sealed = envelope(v2_master_key, stream2.take(16), associated_data, plaintext)
    record["fields_hex"] = plaintext.hex()
    record["sealed_hex"] = sealed.hex()
    v2_records_bytes += record_bytes(record["id"], 1, kind, sealed)

v2_header = (MAGIC + struct.pack(">HH", 2, 64) + v2_vault_id + struct.pack(">Q", 1)
             + struct.pack(">qq", CREATED, SAVED) + struct.pack(">I", len(v2_records)) + bytes([3]) + bytes(7))
assert len(v2_header) == 64
v2_slots = (slot_bytes(1, v2_password_slot) + slot_bytes(3, v2_recovery_slot)
            + slot_bytes(4, v2_identity_slot))
v2_manifest_key = hkdf(v2_master_key, None, MANIFEST_INFO)
v2_authenticated = v2_header + v2_slots + v2_records_bytes
v2_manifest = hmac.new(v2_manifest_key, v2_authenticated, hashlib.sha256).digest()
v2_body = v2_authenticated + v2_manifest
v2_file = v2_body + hashlib.sha256(v2_body).digest()

# Open it again: with the password, with the recovery secret key, and the identity slot.
parsed = parse_vault(v2_file)
assert parsed["version"] == 2 and parsed["generation"] == 1 and list(parsed["slots"]) == [1, 3, 4]
opened_master_key, opened_fields = open_with_password(parsed, PASSWORD)
assert opened_master_key == v2_master_key
assert [f.hex() for f in opened_fields] == [r["fields_hex"] for r in v2_ordered]
assert parsed["slots"][3][0] == 2 and parsed["slots"][3][1:34] == recovery_v2_public
shared, kek, opened_master_key = open_recovery_slot_v2(parsed["slots"][3], v2_vault_id, recovery_v2_secret)
assert (shared, kek, opened_master_key) == (v2_shared, v2_recovery_kek, v2_master_key)
check_manifest(parsed, opened_master_key)
for wrong in (recipient_secret, sharing_secret):  # the other two keys of the phrase do not open it
    try:
        open_recovery_slot_v2(parsed["slots"][3], v2_vault_id, wrong)
        raise SystemExit("a recovery slot opened with the wrong key")
    except AssertionError:
        pass
identity_body = parsed["slots"][4]
opened_sharing_secret = open_envelope(hkdf(opened_master_key, None, V2_IDENTITY_INFO),
                                      SLOT_LABEL + v2_vault_id + b"\x04", identity_body[33:])
assert len(opened_sharing_secret) == 32 and 1 <= int.from_bytes(opened_sharing_secret, "big") < N
assert public_key_of(opened_sharing_secret) == identity_body[:33] == sharing_public
assert stream2.used == 16 + 32 + 32 + 16 + 32 + 16 + 16 + 16 * len(v2_records) * 2

# Migration: the version-1 example's file, opened with the password, written again as version 2.
with open(os.path.join(HERE, "vectors.json")) as f:
    v1_file = bytes.fromhex(json.load(f)["file_hex"])
assert v1_file == file_bytes
v1 = parse_vault(v1_file)
assert v1["version"] == 1 and list(v1["slots"]) == [1, 2]
v1_master_key, _ = open_with_password(v1, PASSWORD)
assert v1_master_key == master_key
v1_recovery_public = v1["slots"][2][:33]
assert v1_recovery_public == recipient_public

stream3 = Stream(b"watchword vault migration vector random")
migration_ephemeral_secret = stream3.take(32)
assert 1 <= int.from_bytes(migration_ephemeral_secret, "big") < N
migration_recovery_iv = stream3.take(16)
(migrated_recovery_slot, migrated_ephemeral_public, migrated_shared,
 migrated_recovery_kek) = recovery_slot_v2(1, v1_recovery_public, migration_ephemeral_secret,
                                           migration_recovery_iv, v1["vault_id"], v1_master_key)
migrated_header = (MAGIC + struct.pack(">HH", 2, 64) + v1["vault_id"]
                   + struct.pack(">Q", v1["generation"] + 1)
                   + struct.pack(">qq", v1["created"], MIGRATED_AT)
                   + struct.pack(">I", len(v1["records"])) + bytes([2]) + bytes(7))
assert len(migrated_header) == 64
migrated_slots = slot_bytes(1, v1["slots"][1]) + slot_bytes(3, migrated_recovery_slot)
migrated_authenticated = migrated_header + migrated_slots + v1["record_bytes"]
migrated_manifest = hmac.new(hkdf(v1_master_key, None, MANIFEST_INFO), migrated_authenticated,
                             hashlib.sha256).digest()
migrated_body = migrated_authenticated + migrated_manifest
migrated_file = migrated_body + hashlib.sha256(migrated_body).digest()

# Open the migrated file: same password slot and records, the recovery slot with the
# version-1 recovery secret key under the version-2 label and AD type 3.
migrated = parse_vault(migrated_file)
assert migrated["version"] == 2 and migrated["generation"] == 2 and list(migrated["slots"]) == [1, 3]
assert (migrated["created"], migrated["modified"]) == (CREATED, MIGRATED_AT)
assert migrated["slots"][1] == v1["slots"][1] and migrated["record_bytes"] == v1["record_bytes"]
assert migrated["slots"][3][0] == 1 and migrated["slots"][3][1:34] == v1_recovery_public
opened_master_key, opened_fields = open_with_password(migrated, PASSWORD)
assert opened_master_key == master_key
assert [f.hex() for f in opened_fields] == [r["fields_hex"] for r in ordered]
shared, kek, opened_master_key = open_recovery_slot_v2(migrated["slots"][3], v1["vault_id"], recipient_secret)
assert (shared, kek, opened_master_key) == (migrated_shared, migrated_recovery_kek, master_key)
check_manifest(migrated, opened_master_key)
try:  # the same slot under the version-1 label does not open
    open_envelope(hkdf(shared, migrated_ephemeral_public + v1_recovery_public, NOTE_KEY_INFO),
                  SLOT_LABEL + v1["vault_id"] + b"\x03", migrated["slots"][3][67:])
    raise SystemExit("the migrated recovery slot opened under the version-1 label")
except ValueError:
    pass

for record in v2_records:
    record["id"] = record["id"].hex()

document_v2 = {
    "source": "tests/data/vault/generate_vectors.py with Debian python3-cryptography "
              "(independent of the C++ implementation)",
    "random_hex": stream2.data[:stream2.used].hex(),
    "random_order": "vault id 16, master key 32, salt 32, password-slot IV 16, ephemeral secret 32, "
                    "recovery-slot IV 16, identity-slot IV 16, record ids 16 each (in the order added), "
                    "record IVs 16 each (in file order)",
    "password_hex": PASSWORD.hex(),
    "iterations": ITERATIONS,
    "target_milliseconds": TARGET_MS,
    "iterations_per_second": RATE,
    "created": CREATED,
    "saved": SAVED,
    "recovery_mnemonic": keychain["mnemonic"],
    "recovery_public_key": recovery_v2_public.hex(),
    "sharing_public_key": sharing_public.hex(),
    "vault_id": v2_vault_id.hex(),
    "master_key": v2_master_key.hex(),
    "salt": v2_salt.hex(),
    "password_kek": v2_kek.hex(),
    "ephemeral_public_key": v2_ephemeral_public.hex(),
    "recovery_shared_x": v2_shared.hex(),
    "recovery_kek": v2_recovery_kek.hex(),
    "identity_key": v2_identity_key.hex(),
    "manifest_key": v2_manifest_key.hex(),
    "header": v2_header.hex(),
    "password_slot": v2_password_slot.hex(),
    "recovery_slot": v2_recovery_slot.hex(),
    "identity_slot": v2_identity_slot.hex(),
    "manifest": v2_manifest.hex(),
    "checksum": v2_file[-32:].hex(),
    "records": v2_records,
    "file_order": [r["id"] for r in v2_ordered],
    "file_hex": v2_file.hex(),
    "migration_source": "vectors.json file_hex (version 1), opened with the password and saved again",
    "migration_random_hex": stream3.data[:stream3.used].hex(),
    "migration_random_order": "ephemeral secret 32, recovery-slot IV 16",
    "migrated_at": MIGRATED_AT,
    "migrated_recovery_public_key": v1_recovery_public.hex(),
    "migrated_ephemeral_public_key": migrated_ephemeral_public.hex(),
    "migrated_recovery_shared_x": migrated_shared.hex(),
    "migrated_recovery_kek": migrated_recovery_kek.hex(),
    "migrated_header": migrated_header.hex(),
    "migrated_recovery_slot": migrated_recovery_slot.hex(),
    "migrated_manifest": migrated_manifest.hex(),
    "migrated_checksum": migrated_file[-32:].hex(),
    "migrated_file_hex": migrated_file.hex(),
}
with open(os.path.join(HERE, "vectors_v2.json"), "w") as out:
    json.dump(document_v2, out, indent=2, ensure_ascii=False)
    out.write("\n")
