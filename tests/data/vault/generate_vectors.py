#!/usr/bin/python3
"""Writes vectors.json: a worked example of the vault file, version 1
(docs/FORMAT.md section 6), vectors_v2.json: a worked example of version 2
and the migration of the version-1 example to version 2, and
vectors_v3.json: a worked example of version 3 (sections 6 and 13) and the
migration of the version-1 example to version 3, all computed independently
of the C++ code with hashlib/hmac and the python3-cryptography package
(AES-CBC, HKDF, ECDH on SECP256K1).

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

Version 3 (vectors_v3.json) is written by the device 5ca1ab1e00c0ffee. Its
randomness comes from a fourth stream (prefix "watchword vault v3 vector
random"), drawn as for version 2 with five records: vault id, master key,
salt, password-slot IV, ephemeral secret, recovery-slot IV, identity-slot IV,
one id per added record, then at the save one IV per live record in file
order and one per tombstone (ascending id). The records are version 2's four
and a fifth, a note added last and deleted before the save: the four live
records carry field 0x11 (the device, count 1; after 0x0f, before a note's
title 0x21), the fifth becomes a tombstone (kind 4, version 2: fields 0x0d,
the time of the save, and 0x11, the device with count 2) written after
them. The sync slot (type 5) names
the device as the last writer, the maker of the key (at the save's time) and
the writer of generation 1; the header has 5 records and 4 slots. Its
migration example opens the version-1 file with the password and writes it
as version 3 by the same device (generation 2, the same password slot and
records, a type-3 recovery slot of kind 1 to the same R, no identity slot, a
sync slot with key made 0, key device zero and the device as the writer of
generation 2), with the ephemeral secret and recovery-slot IV from a fifth
stream (prefix "watchword vault v3 migration vector random"). Both are opened
again too (password, recovery secret keys, identity slot, sync slot, every
record and tombstone).

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


def changes_field(changes):
    """Field 0x11: n x (device (8) || count (u64)), devices ascending (section 6.4, version 3)."""
    assert changes and [device for device, _ in changes] == sorted({device for device, _ in changes})
    assert all(len(device) == 8 and count >= 1 for device, count in changes)
    return field(0x11, b"".join(device + struct.pack(">Q", count) for device, count in changes))


def fields(record, changes=None):
    """A record's plaintext, tags ascending; changes (version 3): [(device, count)], written as
    field 0x11 after 0x0f (and 0x10) and before a note's 0x21."""
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
        if changes:
            out += changes_field(changes)
    else:
        for tag in record["tags"]:
            out += field(0x09, tag.encode())
        out += field(0x0c, struct.pack(">q", record["created"]))
        out += field(0x0d, struct.pack(">q", record["modified"]))
        out += field(0x0f, struct.pack(">I", record["sort_position"]))
        if changes:
            out += changes_field(changes)
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
# Versions 2 and 3: what both examples use. A new vault is written by new_vault and opened
# again by check_new_vault, the version-1 example is migrated by migrate, and example_document
# lays either out as JSON.

V2_RECOVERY_KEY_INFO = b"watchword/vault/v2 recovery key"
V2_IDENTITY_INFO = b"watchword/vault/v2 sharing identity"
SLOT_SIZES = {1: 145, 2: 162, 3: 163, 4: 129}
MIGRATED_AT = SAVED + 3600  # the save that migrates, an hour after the version-1 save
SYNC_SLOT = 5  # version 3 (section 13): 25 + 16 bytes per writer
ALLOWED_SLOTS = {1: (1, 2), 2: (1, 3, 4), 3: (1, 3, 4, SYNC_SLOT)}
ALLOWED_KINDS = {1: (1, 2), 2: (1, 2, 3), 3: (1, 2, 3, 4)}
DEVICE = bytes.fromhex("5ca1ab1e00c0ffee")  # the writer of version 3's examples (section 13)
TOMBSTONE = 4  # record kind 4 (section 13)


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
    if slot_type == SYNC_SLOT:
        assert len(body) >= 25 and len(body) == 25 + 16 * body[24]
    else:
        assert len(body) == SLOT_SIZES[slot_type]
    return bytes([slot_type]) + struct.pack(">H", len(body)) + body


def record_bytes(record_id, version, kind, sealed):
    return record_id + struct.pack(">Q", version) + bytes([kind]) + struct.pack(">I", len(sealed)) + sealed


def parse_vault(data):
    """Structure and checksum of a file of version 1, 2 or 3 (section 6.5 steps 1 to 3)."""
    assert data[:8] == MAGIC and len(data) >= 128
    version, header_length = struct.unpack(">HH", data[8:12])
    assert version in (1, 2, 3) and header_length == 64
    assert hashlib.sha256(data[:-32]).digest() == data[-32:], "corrupted"
    vault = {"version": version, "header": data[:64], "vault_id": data[12:28]}
    vault["generation"], vault["created"], vault["modified"] = struct.unpack(">Qqq", data[28:52])
    record_count = struct.unpack(">I", data[52:56])[0]
    slot_count = data[56]
    assert data[57:64] == bytes(7)
    assert 1 <= slot_count <= version + 1
    end = len(data) - 64
    position = 64
    vault["slots"] = {}
    for index in range(slot_count):
        slot_type = data[position]
        length = struct.unpack(">H", data[position + 1:position + 3])[0]
        assert slot_type in ALLOWED_SLOTS[version] and slot_type not in vault["slots"]
        assert (index == 0) == (slot_type == 1)
        if slot_type == SYNC_SLOT:
            assert length >= 25 and (length - 25) % 16 == 0 and position + 3 + length <= end
        else:
            assert length == SLOT_SIZES[slot_type] and position + 3 + length <= end
        vault["slots"][slot_type] = data[position + 3:position + 3 + length]
        if slot_type == 3:
            assert data[position + 3] in (1, 2)
        if slot_type == SYNC_SLOT:
            vault["sync"] = parse_sync_slot(vault["slots"][SYNC_SLOT])
        position += 3 + length
    vault["slot_bytes"] = data[64:position]
    vault["records"] = []
    for _ in range(record_count):
        record_id = data[position:position + 16]
        version_number = struct.unpack(">Q", data[position + 16:position + 24])[0]
        kind = data[position + 24]
        length = struct.unpack(">I", data[position + 25:position + 29])[0]
        assert kind in ALLOWED_KINDS[version] and position + 29 + length <= end
        assert length >= 64 and (length - 48) % 16 == 0
        vault["records"].append((record_id, version_number, kind, data[position + 29:position + 29 + length]))
        position += 29 + length
    assert position == end
    assert len({r[0] for r in vault["records"]}) == record_count
    vault["record_bytes"] = data[64 + len(vault["slot_bytes"]):end]
    vault["manifest"] = data[end:end + 32]
    return vault


def parse_sync_slot(body):
    """Type 5: last writer (8) || key made (i64) || key device (8) || n (1) || n x (device || u64)."""
    assert len(body) >= 25
    count = body[24]
    assert len(body) == 25 + 16 * count and count <= 64
    writers = [(body[25 + 16 * i:33 + 16 * i], struct.unpack(">Q", body[33 + 16 * i:41 + 16 * i])[0])
               for i in range(count)]
    devices = [device for device, _ in writers]
    assert devices == sorted(set(devices)), "writers out of order or repeated"
    return {"last_writer": body[:8], "key_made": struct.unpack(">q", body[8:16])[0],
            "key_device": body[16:24], "writers": writers}


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

def sync_slot(last_writer, key_made, key_device, writers):
    """Type 5: last writer (8) || key made (i64) || key device (8) || n (1) || n x (device || u64)."""
    assert [device for device, _ in writers] == sorted({device for device, _ in writers})
    body = (last_writer + struct.pack(">q", key_made) + key_device + bytes([len(writers)])
            + b"".join(device + struct.pack(">Q", generation) for device, generation in writers))
    assert len(body) == 25 + 16 * len(writers)
    return body


def tombstone_fields(deleted, changes):
    """A tombstone's plaintext: 0x0d (the time of deletion) and 0x11, nothing else."""
    return field(0x0d, struct.pack(">q", deleted)) + changes_field(changes)


def walk_fields(plaintext):
    """(tag, value) pairs; tags ascending, only 0x09 repeated; nothing left over."""
    out, offset = [], 0
    while offset < len(plaintext):
        assert offset + 5 <= len(plaintext)
        tag, length = plaintext[offset], struct.unpack(">I", plaintext[offset + 1:offset + 5])[0]
        assert offset + 5 + length <= len(plaintext)
        assert not out or tag > out[-1][0] or tag == out[-1][0] == 0x09
        out.append((tag, plaintext[offset + 5:offset + 5 + length]))
        offset += 5 + length
    return out


def read_changes(value):
    """Field 0x11's value: 1 to 255 (device, count) pairs, devices ascending, counts at least 1."""
    assert value and len(value) % 16 == 0 and len(value) // 16 <= 255
    changes = [(value[i:i + 8], struct.unpack(">Q", value[i + 8:i + 16])[0]) for i in range(0, len(value), 16)]
    assert [device for device, _ in changes] == sorted({device for device, _ in changes})
    assert all(count >= 1 for _, count in changes)
    return changes


def record_kind(record):
    """The kind byte of an account (1) or a secure note (2)."""
    return 1 if record["kind"] == "account" else 2


def write_file(version, vault_id, generation, created, modified, slots, records, record_count, master_key):
    """A whole file: the header, the (type, body) slots in the order given, the records' bytes,
    the manifest under M's Km and the checksum. Returns the header, the manifest and the file."""
    header = (MAGIC + struct.pack(">HH", version, 64) + vault_id + struct.pack(">Q", generation)
              + struct.pack(">qq", created, modified) + struct.pack(">I", record_count)
              + bytes([len(slots)]) + bytes(7))
    assert len(header) == 64
    authenticated = header + b"".join(slot_bytes(slot_type, body) for slot_type, body in slots) + records
    manifest = hmac.new(hkdf(master_key, None, MANIFEST_INFO), authenticated, hashlib.sha256).digest()
    body = authenticated + manifest
    return header, manifest, body + hashlib.sha256(body).digest()


def write_json(name, document):
    with open(os.path.join(HERE, name), "w") as out:
        json.dump(document, out, indent=2, ensure_ascii=False)
        out.write("\n")


recovery_v2_public = bytes.fromhex(keychain["recovery_public_key"])
recovery_v2_secret = bytes.fromhex(keychain["recovery_secret_key"])
sharing_public = bytes.fromhex(keychain["sharing_public_key"])
sharing_secret = bytes.fromhex(keychain["sharing_secret_key"])
assert public_key_of(recovery_v2_secret) == recovery_v2_public
assert public_key_of(sharing_secret) == sharing_public
assert public_key_of(recipient_secret) == recipient_public
assert len({recipient_public, recovery_v2_public, sharing_public}) == 3

# The version-1 example's file, opened with the password: what both migrations start from.
with open(os.path.join(HERE, "vectors.json")) as f:
    v1_file = bytes.fromhex(json.load(f)["file_hex"])
assert v1_file == file_bytes
v1 = parse_vault(v1_file)
assert v1["version"] == 1 and list(v1["slots"]) == [1, 2]
v1_master_key, _ = open_with_password(v1, PASSWORD)
assert v1_master_key == master_key
v1_recovery_public = v1["slots"][2][:33]
assert v1_recovery_public == recipient_public


def new_vault(stream, records, version, device=None, deleted=()):
    """A new vault of version 2 or 3, saved once at SAVED, with randomness in the order of "A new
    vault (create)": vault id, master key, salt, password-slot IV, ephemeral secret, recovery-slot
    IV, identity-slot IV, one id per record in the order added, then at the save one IV per live
    record in file order and one per tombstone (ascending id). records (the inputs, in the order
    added) get their ids and, once sealed, their fields and sealed bytes. The recovery slot (type
    3, kind 2) wraps M to the phrase's recovery key, the identity slot (type 4) holds its sharing
    key. Version 3 is written by device: every live record carries one change of the device (field
    0x11), the records at the indices in deleted are deleted before the save and written as
    tombstones, and the sync slot names the device as the last writer, the maker of the key (at
    the save's time) and the writer of generation 1. Returns the file and what went into it."""
    assert version in (2, 3) and (device is not None) == (version == 3)
    assert version == 3 or not deleted
    vault_id = stream.take(16)
    master_key = stream.take(32)
    salt = stream.take(32)
    password_iv = stream.take(16)
    ephemeral_secret = stream.take(32)
    assert 1 <= int.from_bytes(ephemeral_secret, "big") < N
    recovery_iv = stream.take(16)
    identity_iv = stream.take(16)
    for record in records:
        record["id"] = stream.take(16)
    assert len({record["id"] for record in records}) == len(records)
    if version == 3:
        # Added: version 1, one change by the device. The deleted ones then become tombstones with
        # the same id, version 2, the record's changes and one more, and the time of the save.
        for index, record in enumerate(records):
            record["deleted"] = index in deleted
    live = [record for index, record in enumerate(records) if index not in deleted]
    dead = sorted((record for index, record in enumerate(records) if index in deleted), key=lambda r: r["id"])

    kek = hashlib.pbkdf2_hmac("sha256", PASSWORD, salt, ITERATIONS, 32)
    password_slot = (b"\x01" + struct.pack(">I", ITERATIONS) + salt + struct.pack(">I", TARGET_MS)
                     + struct.pack(">Q", RATE)
                     + envelope(kek, password_iv, SLOT_LABEL + vault_id + b"\x01", master_key))
    assert len(password_slot) == 145
    recovery_slot, ephemeral_public, shared, recovery_kek = recovery_slot_v2(
        2, recovery_v2_public, ephemeral_secret, recovery_iv, vault_id, master_key)
    identity_key = hkdf(master_key, None, V2_IDENTITY_INFO)
    identity_slot = sharing_public + envelope(identity_key, identity_iv,
                                              SLOT_LABEL + vault_id + b"\x04", sharing_secret)
    assert len(identity_slot) == 129
    slots = [(1, password_slot), (3, recovery_slot), (4, identity_slot)]
    sync = None
    if version == 3:
        # A new vault: the key was made at this save, by this device, which wrote generation 1.
        sync = sync_slot(device, SAVED, device, [(device, 1)])
        slots.append((SYNC_SLOT, sync))

    changes = [(device, 1)] if version == 3 else None
    ordered = sorted(live, key=lambda r: (r["sort_position"], r["id"]))
    records_bytes = b""
    for record in ordered:
        plaintext = fields(record, changes)
        associated_data = (RECORD_LABEL + vault_id + record["id"] + struct.pack(">Q", 1)
                           + bytes([record_kind(record)]))
        sealed = envelope(master_key, stream.take(16), associated_data, plaintext)
        if changes:
            record["version"] = 1
            record["changes"] = [{"device": d.hex(), "count": c} for d, c in changes]
        record["fields_hex"] = plaintext.hex()
        record["sealed_hex"] = sealed.hex()
        records_bytes += record_bytes(record["id"], 1, record_kind(record), sealed)
    # Then the tombstones, ascending id.
    tombstones = []
    for record in dead:
        tombstone = {"record": record, "version": 2, "changes": [(device, 2)]}
        tombstone["fields"] = tombstone_fields(SAVED, tombstone["changes"])
        tombstone["sealed"] = envelope(
            master_key, stream.take(16),
            RECORD_LABEL + vault_id + record["id"] + struct.pack(">Q", tombstone["version"]) + bytes([TOMBSTONE]),
            tombstone["fields"])
        records_bytes += record_bytes(record["id"], tombstone["version"], TOMBSTONE, tombstone["sealed"])
        tombstones.append(tombstone)
    assert stream.used == 16 + 32 + 32 + 16 + 32 + 16 + 16 + 16 * len(records) + 16 * len(records)

    header, manifest, file = write_file(version, vault_id, 1, CREATED, SAVED, slots, records_bytes,
                                        len(ordered) + len(tombstones), master_key)
    return {"version": version, "device": device, "random": stream.data[:stream.used],
            "vault_id": vault_id, "master_key": master_key, "salt": salt, "kek": kek,
            "ephemeral_public": ephemeral_public, "shared": shared, "recovery_kek": recovery_kek,
            "identity_key": identity_key, "manifest_key": hkdf(master_key, None, MANIFEST_INFO),
            "password_slot": password_slot, "recovery_slot": recovery_slot, "identity_slot": identity_slot,
            "sync_slot": sync, "records": records, "ordered": ordered, "tombstones": tombstones,
            "records_bytes": records_bytes, "header": header, "manifest": manifest, "file": file}


def check_new_vault(vault):
    """Opens a file of new_vault again: its structure and times, the sync slot (version 3), every
    record and tombstone with the password, the recovery slot with the recovery secret key (and
    not with the phrase's other two keys), and the identity slot. Returns the parsed file."""
    version, device, vault_id = vault["version"], vault["device"], vault["vault_id"]
    ordered, tombstones = vault["ordered"], vault["tombstones"]
    parsed = parse_vault(vault["file"])
    assert parsed["version"] == version and parsed["generation"] == 1
    assert list(parsed["slots"]) == ([1, 3, 4] if version == 2 else [1, 3, 4, SYNC_SLOT])
    assert (parsed["created"], parsed["modified"]) == (CREATED, SAVED)
    if version == 3:
        assert parsed["sync"] == {"last_writer": device, "key_made": SAVED, "key_device": device,
                                  "writers": [(device, 1)]}
    assert [r[0] for r in parsed["records"]] == (
        [r["id"] for r in ordered] + [t["record"]["id"] for t in tombstones])
    assert [(r[1], r[2]) for r in parsed["records"]] == (
        [(1, record_kind(r)) for r in ordered] + [(t["version"], TOMBSTONE) for t in tombstones])
    assert parsed["record_bytes"] == vault["records_bytes"]
    opened_master_key, opened_fields = open_with_password(parsed, PASSWORD)
    assert opened_master_key == vault["master_key"]
    assert [f.hex() for f in opened_fields[:len(ordered)]] == [r["fields_hex"] for r in ordered]
    for (_, version_number, kind, _), plaintext, record in zip(parsed["records"], opened_fields, ordered):
        assert (version_number, kind) == (1, record_kind(record))
        entries = walk_fields(plaintext)
        if version == 3:
            assert [v for t, v in entries if t == 0x11] == [device + struct.pack(">Q", 1)]
            assert read_changes(dict(entries)[0x11]) == [(device, 1)]
        else:
            assert all(t != 0x11 for t, _ in entries)
        # Without 0x11, the plaintext is the version-2 encoding of the same record.
        assert b"".join(field(t, v) for t, v in entries if t != 0x11) == fields(record)
    for (record_id, version_number, kind, _), plaintext, tombstone in zip(
            parsed["records"][len(ordered):], opened_fields[len(ordered):], tombstones):
        assert (record_id, version_number, kind) == (tombstone["record"]["id"], 2, TOMBSTONE)
        entries = walk_fields(plaintext)
        assert [t for t, _ in entries] == [0x0d, 0x11]
        assert struct.unpack(">q", entries[0][1])[0] == SAVED
        assert read_changes(entries[1][1]) == tombstone["changes"]
        assert plaintext == tombstone["fields"]
        try:  # the tombstone under another kind does not open: the kind is in the AD
            open_envelope(vault["master_key"], RECORD_LABEL + vault_id + record_id + struct.pack(">Q", 2) + b"\x02",
                          tombstone["sealed"])
            raise SystemExit("the tombstone opened as a note")
        except ValueError:
            pass
    assert parsed["slots"][3][0] == 2 and parsed["slots"][3][1:34] == recovery_v2_public
    shared, kek, opened_master_key = open_recovery_slot_v2(parsed["slots"][3], vault_id, recovery_v2_secret)
    assert (shared, kek, opened_master_key) == (vault["shared"], vault["recovery_kek"], vault["master_key"])
    check_manifest(parsed, opened_master_key)
    for wrong in (recipient_secret, sharing_secret):  # the other two keys of the phrase do not open it
        try:
            open_recovery_slot_v2(parsed["slots"][3], vault_id, wrong)
            raise SystemExit("a recovery slot opened with the wrong key")
        except AssertionError:
            pass
    identity_body = parsed["slots"][4]
    opened_sharing_secret = open_envelope(hkdf(opened_master_key, None, V2_IDENTITY_INFO),
                                          SLOT_LABEL + vault_id + b"\x04", identity_body[33:])
    assert len(opened_sharing_secret) == 32 and 1 <= int.from_bytes(opened_sharing_secret, "big") < N
    assert public_key_of(opened_sharing_secret) == identity_body[:33] == sharing_public
    return parsed


def migrate(stream, version, device=None):
    """The version-1 example's file, opened with the password, written as version 2 or 3 at
    MIGRATED_AT: generation 2, the password slot and records byte for byte, a type-3 recovery slot
    of kind 1 to the same R with a new E (ephemeral secret and slot IV from stream), no identity
    slot and, in version 3, a sync slot by device (key made and key device zero: the key was not
    made by this writer). Opened again: the same password slot and records, the recovery slot
    with the version-1 recovery secret key under the version-2 label and AD type 3. Returns the
    file and what went into it."""
    assert version in (2, 3) and (device is not None) == (version == 3)
    ephemeral_secret = stream.take(32)
    assert 1 <= int.from_bytes(ephemeral_secret, "big") < N
    recovery_iv = stream.take(16)
    recovery_slot, ephemeral_public, shared, recovery_kek = recovery_slot_v2(
        1, v1_recovery_public, ephemeral_secret, recovery_iv, v1["vault_id"], v1_master_key)
    generation = v1["generation"] + 1
    slots = [(1, v1["slots"][1]), (3, recovery_slot)]
    sync = None
    if version == 3:
        sync = sync_slot(device, 0, bytes(8), [(device, generation)])
        slots.append((SYNC_SLOT, sync))
    header, manifest, file = write_file(version, v1["vault_id"], generation, v1["created"], MIGRATED_AT, slots,
                                        v1["record_bytes"], len(v1["records"]), v1_master_key)

    migrated = parse_vault(file)
    assert migrated["version"] == version and migrated["generation"] == 2
    assert list(migrated["slots"]) == ([1, 3] if version == 2 else [1, 3, SYNC_SLOT])
    assert (migrated["created"], migrated["modified"]) == (CREATED, MIGRATED_AT)
    if version == 3:
        assert migrated["sync"] == {"last_writer": device, "key_made": 0, "key_device": bytes(8),
                                    "writers": [(device, 2)]}
    assert migrated["slots"][1] == v1["slots"][1] and migrated["record_bytes"] == v1["record_bytes"]
    assert migrated["slots"][3][0] == 1 and migrated["slots"][3][1:34] == v1_recovery_public
    opened_master_key, opened_fields = open_with_password(migrated, PASSWORD)
    # master_key and ordered: the version-1 example's, as computed for vectors.json.
    assert opened_master_key == master_key
    assert [f.hex() for f in opened_fields] == [r["fields_hex"] for r in ordered]
    assert all(0x11 not in dict(walk_fields(f)) for f in opened_fields)
    opened_shared, kek, opened_master_key = open_recovery_slot_v2(migrated["slots"][3], v1["vault_id"],
                                                                  recipient_secret)
    assert (opened_shared, kek, opened_master_key) == (shared, recovery_kek, master_key)
    check_manifest(migrated, opened_master_key)
    try:  # the same slot under the version-1 label does not open
        open_envelope(hkdf(opened_shared, ephemeral_public + v1_recovery_public, NOTE_KEY_INFO),
                      SLOT_LABEL + v1["vault_id"] + b"\x03", migrated["slots"][3][67:])
        raise SystemExit("the migrated recovery slot opened under the version-1 label")
    except ValueError:
        pass
    return {"random": stream.data[:stream.used], "ephemeral_public": ephemeral_public, "shared": shared,
            "recovery_kek": recovery_kek, "header": header, "recovery_slot": recovery_slot,
            "sync_slot": sync, "manifest": manifest, "file": file}


def example_document(vault, migrated, random_order, migration_source):
    """The JSON of a version-2 or version-3 example: the new vault of new_vault (its records' ids
    turned to hex), then the migration of migrate; version 3 adds the device, the sync slots and
    the tombstones."""
    version = vault["version"]
    for record in vault["records"]:
        record["id"] = record["id"].hex()
    document = {
        "source": "tests/data/vault/generate_vectors.py with Debian python3-cryptography "
                  "(independent of the C++ implementation)",
        "random_hex": vault["random"].hex(),
        "random_order": random_order,
        "password_hex": PASSWORD.hex(),
        "iterations": ITERATIONS,
        "target_milliseconds": TARGET_MS,
        "iterations_per_second": RATE,
        "created": CREATED,
        "saved": SAVED,
    }
    if version == 3:
        document["device"] = vault["device"].hex()
    document.update({
        "recovery_mnemonic": keychain["mnemonic"],
        "recovery_public_key": recovery_v2_public.hex(),
        "sharing_public_key": sharing_public.hex(),
        "vault_id": vault["vault_id"].hex(),
        "master_key": vault["master_key"].hex(),
        "salt": vault["salt"].hex(),
        "password_kek": vault["kek"].hex(),
        "ephemeral_public_key": vault["ephemeral_public"].hex(),
        "recovery_shared_x": vault["shared"].hex(),
        "recovery_kek": vault["recovery_kek"].hex(),
        "identity_key": vault["identity_key"].hex(),
        "manifest_key": vault["manifest_key"].hex(),
        "header": vault["header"].hex(),
        "password_slot": vault["password_slot"].hex(),
        "recovery_slot": vault["recovery_slot"].hex(),
        "identity_slot": vault["identity_slot"].hex(),
    })
    if version == 3:
        document["sync_slot"] = vault["sync_slot"].hex()
    document.update({
        "manifest": vault["manifest"].hex(),
        "checksum": vault["file"][-32:].hex(),
        "records": vault["records"],
    })
    if version == 3:
        document["tombstones"] = [
            {"id": t["record"]["id"], "version": t["version"], "kind": TOMBSTONE, "deleted": SAVED,
             "changes": [{"device": d.hex(), "count": c} for d, c in t["changes"]],
             "fields_hex": t["fields"].hex(), "sealed_hex": t["sealed"].hex()} for t in vault["tombstones"]]
    document.update({
        "file_order": [r["id"] for r in vault["ordered"]] + [t["record"]["id"] for t in vault["tombstones"]],
        "file_hex": vault["file"].hex(),
        "migration_source": migration_source,
        "migration_random_hex": migrated["random"].hex(),
        "migration_random_order": "ephemeral secret 32, recovery-slot IV 16",
        "migrated_at": MIGRATED_AT,
        "migrated_recovery_public_key": v1_recovery_public.hex(),
        "migrated_ephemeral_public_key": migrated["ephemeral_public"].hex(),
        "migrated_recovery_shared_x": migrated["shared"].hex(),
        "migrated_recovery_kek": migrated["recovery_kek"].hex(),
        "migrated_header": migrated["header"].hex(),
        "migrated_recovery_slot": migrated["recovery_slot"].hex(),
    })
    if version == 3:
        document["migrated_sync_slot"] = migrated["sync_slot"].hex()
    document.update({
        "migrated_manifest": migrated["manifest"].hex(),
        "migrated_checksum": migrated["file"][-32:].hex(),
        "migrated_file_hex": migrated["file"].hex(),
    })
    return document


# --------------------------------------------------------------------------------------------
# Version 2 (vectors_v2.json): a new vault, and the version-1 example migrated.

v2 = new_vault(Stream(b"watchword vault v2 vector random"), copy.deepcopy(RECORD_INPUTS), 2)
check_new_vault(v2)
v2_migrated = migrate(Stream(b"watchword vault migration vector random"), 2)
write_json("vectors_v2.json", example_document(
    v2, v2_migrated,
    "vault id 16, master key 32, salt 32, password-slot IV 16, ephemeral secret 32, "
    "recovery-slot IV 16, identity-slot IV 16, record ids 16 each (in the order added), "
    "record IVs 16 each (in file order)",
    "vectors.json file_hex (version 1), opened with the password and saved again"))


# --------------------------------------------------------------------------------------------
# Version 3 (vectors_v3.json): a new vault with a deleted record, and the version-1 example
# migrated to version 3.

DELETED_NOTE = {"kind": "note", "title": "Old note", "body": "to be deleted", "tags": [],
                "created": 1767225604, "modified": 1767225604, "sort_position": 4}

# Version 2's four records and a fifth, added last and deleted before the save.
v3_records = copy.deepcopy(RECORD_INPUTS) + [copy.deepcopy(DELETED_NOTE)]  # in the order added
v3 = new_vault(Stream(b"watchword vault v3 vector random"), v3_records, 3, DEVICE, deleted=(4,))
parsed = check_new_vault(v3)
assert len(v3["ordered"]) == 4 and len(v3["tombstones"]) == 1 and v3["tombstones"][0]["record"] is v3_records[4]
assert len(parsed["records"]) == 5 and parsed["records"][-1][:3] == (v3_records[4]["id"], 2, TOMBSTONE)
assert v3["tombstones"][0]["changes"] == [(DEVICE, 2)]
v3_migrated = migrate(Stream(b"watchword vault v3 migration vector random"), 3, DEVICE)
write_json("vectors_v3.json", example_document(
    v3, v3_migrated,
    "vault id 16, master key 32, salt 32, password-slot IV 16, ephemeral secret 32, "
    "recovery-slot IV 16, identity-slot IV 16, record ids 16 each (in the order added, "
    "the deleted record last), record IVs 16 each (the live records in file order), "
    "tombstone IVs 16 each (ascending id)",
    "vectors.json file_hex (version 1), opened with the password and saved again by the device"))
