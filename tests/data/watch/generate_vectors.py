#!/usr/bin/python3
# Writes vectors.json: the worked example of docs/FORMAT.md section 8 (watch
# export), computed from the document with hashlib, hmac and
# python3-cryptography, independently of Watchword's code.
import hashlib
import hmac
import json
import struct

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

stream = b"".join(
    hashlib.sha256(b"watchword watch vector random" + struct.pack(">I", i)).digest()
    for i in range(16))
position = 0


def draw(n):
    global position
    out = stream[position:position + n]
    position += n
    return out


def hkdf(ikm, info):
    prk = hmac.new(b"\x00" * 32, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def seal(key, ad, plaintext, iv):
    ke = hkdf(key, b"watchword/record/v1 encryption")
    ka = hkdf(key, b"watchword/record/v1 authentication")
    n = 16 - len(plaintext) % 16
    padded = plaintext + bytes([n]) * n
    enc = Cipher(algorithms.AES(ke), modes.CBC(iv)).encryptor()
    c = enc.update(padded) + enc.finalize()
    tag = hmac.new(ka, b"\x01" + struct.pack(">Q", len(ad)) + ad + iv + c,
                   hashlib.sha256).digest()
    return iv + c + tag


def text(s):
    return struct.pack(">H", len(s)) + s


def account(kind, algorithm, digits, value, issuer, name, secret):
    return (bytes([kind, algorithm, digits]) + struct.pack(">Q", value) + text(issuer) +
            text(name) + text(secret))


device = "fr255"
created = 1767225600
iterations = 2000
pin = "482916"
accounts = [
    # TOTP, SHA-1, 6 digits, 30 s: RFC 6238's SHA-1 seed
    account(1, 1, 6, 30, b"Example", b"alice@example.com", b"12345678901234567890"),
    # TOTP, SHA-512, 8 digits, 60 s: RFC 6238's SHA-512 seed
    account(1, 3, 8, 60, "Bänk".encode(), b"bob",
            b"1234567890123456789012345678901234567890123456789012345678901234"),
    # HOTP, SHA-256, 6 digits, counter 42
    account(2, 2, 6, 42, b"", b"hotp-user", bytes(range(1, 33))),
    # Steam Guard: SHA-1, 5 symbols, 30 s
    account(3, 1, 5, 30, b"Steam", b"gamer", bytes(range(0xa0, 0xb4))),
]

salt = draw(16)
export_key = draw(32)
slot_iv = draw(16)
record_ivs = [draw(16) for _ in accounts]

pin_key = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations, 32)
slot_ad = (b"watchword/watch/v1 slot" + struct.pack(">HH", 1, len(device)) + device.encode() +
           struct.pack(">qI", created, iterations) + salt + struct.pack(">I", len(accounts)))
wrapped = seal(pin_key, slot_ad, export_key, slot_iv)
sealed = []
for i, (plaintext, iv) in enumerate(zip(accounts, record_ivs)):
    ad = b"watchword/watch/v1 account" + struct.pack(">II", i, len(accounts))
    sealed.append(seal(export_key, ad, plaintext, iv))

payload = json.dumps({
    "format": "watchword-watch-export",
    "version": 1,
    "device": device,
    "created": created,
    "slot": {"kdf": "pbkdf2-hmac-sha256", "iterations": iterations, "salt": salt.hex(),
             "key": wrapped.hex()},
    "accounts": [s.hex() for s in sealed],
}, separators=(",", ":"))

out = {
    "description": "docs/FORMAT.md section 8.6: a watch export with every intermediate value",
    "random_hex": stream[:position].hex(),
    "pin": pin,
    "device": device,
    "created": created,
    "iterations": iterations,
    "salt_hex": salt.hex(),
    "export_key_hex": export_key.hex(),
    "pin_key_hex": pin_key.hex(),
    "slot_encryption_key_hex": hkdf(pin_key, b"watchword/record/v1 encryption").hex(),
    "slot_authentication_key_hex": hkdf(pin_key, b"watchword/record/v1 authentication").hex(),
    "slot_ad_hex": slot_ad.hex(),
    "slot_key_hex": wrapped.hex(),
    "record_encryption_key_hex": hkdf(export_key, b"watchword/record/v1 encryption").hex(),
    "record_authentication_key_hex":
        hkdf(export_key, b"watchword/record/v1 authentication").hex(),
    "accounts": [{"plaintext_hex": p.hex(), "sealed_hex": s.hex()}
                 for p, s in zip(accounts, sealed)],
    "payload": payload,
    "payload_size": len(payload),
}
with open("vectors.json", "w") as f:
    json.dump(out, f, indent=2, ensure_ascii=False)
    f.write("\n")
