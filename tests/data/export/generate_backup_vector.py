#!/usr/bin/python3
"""Writes watchword_backup_vector.json: the worked example of docs/FORMAT.md
section 10, computed from the document alone (hashlib and Debian's
python3-cryptography), for the C++ writer to reproduce byte for byte and the
reader to open.

Usage: /usr/bin/python3 generate_backup_vector.py > watchword_backup_vector.json
"""
import hashlib
import json
import struct
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PASSWORD = "correct horse battery staple \u2713"
ITERATIONS = 600_000
CREATED = 1767232800  # 2026-01-01T02:00:00Z

ACCOUNTS = [
    {"kind": 1, "algorithm": 1, "digits": 6, "period": 30, "issuer": "Example",
     "name": "alice@example.com", "secret_hex": b"12345678901234567890".hex(),
     "tags": ["work", "2fa"], "note": "backup codes: in the safe",
     "icon": "", "created": 1767225600, "modified": 1767229200, "last_used": None,
     "sort_position": 0},
    {"kind": 2, "algorithm": 2, "digits": 8, "counter": 42, "issuer": "",
     "name": "hotp-user", "secret_hex": bytes(range(1, 33)).hex(), "tags": [],
     "note": "", "icon": "", "created": 1767225601, "modified": 1767225601,
     "last_used": 1767229000, "sort_position": 1},
    {"kind": 3, "algorithm": 1, "digits": 5, "period": 30, "issuer": "Steam",
     "name": "gamer", "secret_hex": bytes(range(0xa0, 0xb4)).hex(),
     "tags": ["games"], "note": "", "icon": "steam", "created": 1767225602,
     "modified": 1767225602, "last_used": None, "sort_position": 2},
]


def random_bytes(count):
    out = b""
    i = 0
    while len(out) < count:
        out += hashlib.sha256(b"watchword backup vector random" + struct.pack(">I", i)).digest()
        i += 1
    return out[:count]


def field(tag, value):
    return bytes([tag]) + struct.pack(">I", len(value)) + value


def account_fields(a):
    """Section 6.4, tags ascending; optional strings only when not empty."""
    out = b""
    if a["issuer"]:
        out += field(0x01, a["issuer"].encode())
    if a["name"]:
        out += field(0x02, a["name"].encode())
    out += field(0x03, bytes.fromhex(a["secret_hex"]))
    out += field(0x04, bytes([a["kind"]]))
    out += field(0x05, bytes([a["algorithm"]]))
    out += field(0x06, bytes([a["digits"]]))
    if a["kind"] == 2:
        out += field(0x08, struct.pack(">Q", a["counter"]))
    else:
        out += field(0x07, struct.pack(">I", a["period"]))
    for tag in a["tags"]:
        out += field(0x09, tag.encode())
    if a["note"]:
        out += field(0x0a, a["note"].encode())
    if a["icon"]:
        out += field(0x0b, a["icon"].encode())
    out += field(0x0c, struct.pack(">q", a["created"]))
    out += field(0x0d, struct.pack(">q", a["modified"]))
    if a["last_used"] is not None:
        out += field(0x0e, struct.pack(">q", a["last_used"]))
    out += field(0x0f, struct.pack(">I", a["sort_position"]))
    return out


def main():
    rnd = random_bytes(44)
    salt, nonce = rnd[:32], rnd[32:44]
    header = (b"WWBACKUP" + struct.pack(">HBI", 1, 1, ITERATIONS) + salt + nonce
              + struct.pack(">q", CREATED))
    assert len(header) == 67
    payload = struct.pack(">I", len(ACCOUNTS))
    fields = [account_fields(a) for a in ACCOUNTS]
    for f in fields:
        payload += struct.pack(">I", len(f)) + f
    key = hashlib.pbkdf2_hmac("sha256", PASSWORD.encode(), salt, ITERATIONS, 32)
    sealed = AESGCM(key).encrypt(nonce, payload, header)
    vector = {
        "description": "docs/FORMAT.md section 10 worked example; written by "
                       "generate_backup_vector.py",
        "password": PASSWORD,
        "iterations": ITERATIONS,
        "created": CREATED,
        "random_hex": rnd.hex(),
        "accounts": ACCOUNTS,
        "key_hex": key.hex(),
        "header_hex": header.hex(),
        "fields_hex": [f.hex() for f in fields],
        "payload_hex": payload.hex(),
        "file_hex": (header + sealed).hex(),
    }
    json.dump(vector, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
