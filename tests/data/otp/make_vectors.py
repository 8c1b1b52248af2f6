#!/usr/bin/python3
"""Writes steam_codes.json and hotp_totp_extra.json in this folder.

Independent of Watchword's code: Python's standard library only (hmac,
hashlib, base64, struct), following RFC 4226 section 5.3, RFC 6238 section 4
and the Steam Guard rule (the 31-bit truncated value written as 5 symbols of
"23456789BCDFGHJKMNPQRTVWXY", least significant first). Run it from anywhere
with python3; the output is deterministic.
"""
import base64
import hashlib
import hmac
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
STEAM_ALPHABET = "23456789BCDFGHJKMNPQRTVWXY"
HASHES = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}


def truncated(key, counter, algorithm):
    mac = hmac.new(key, struct.pack(">Q", counter), HASHES[algorithm]).digest()
    offset = mac[-1] & 0x0F
    return struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF


def steam_code(value):
    out = ""
    for _ in range(5):
        out += STEAM_ALPHABET[value % 26]
        value //= 26
    return out


def write(name, document):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2, ensure_ascii=False)
        f.write("\n")


steam_secrets = [
    ("rfc-seed", b"12345678901234567890"),
    ("bytes-0-19", bytes(range(20))),
    ("aegis-boeing", base64.b32decode("JRZCL47CMXVOQMNPZR2F7J4RGI" + "======")),
]
steam_times = [0, 29, 30, 59, 60, 1111111109, 1234567890, 1700000000, 1700000009,
               1700000010, 2000000000, 20000000000]
steam_vectors = []
for secret_id, key in steam_secrets:
    for time in steam_times:
        value = truncated(key, time // 30, "SHA1")
        steam_vectors.append({"secret_id": secret_id, "time": time, "counter": time // 30,
                              "truncated_dec": value, "code": steam_code(value)})
write("steam_codes.json", {
    "source": "make_vectors.py in this folder (Python standard library hmac/hashlib only)",
    "algorithm": "Steam Guard: HMAC-SHA1 over the 8-byte big-endian counter floor(time / 30), "
                 "RFC 4226 dynamic truncation to 31 bits, then 5 times: symbol = "
                 "alphabet[value % 26], value //= 26",
    "alphabet": STEAM_ALPHABET,
    "period": 30,
    "notes": "aegis-boeing is the Steam entry of Aegis's test vault (issuer Boeing, account "
             "Sophia); Aegis's own expected code at time 1700000000 is 747JR, which this "
             "computation reproduces.",
    "secrets": {secret_id: {"hex": key.hex(),
                            "base32": base64.b32encode(key).decode().rstrip("=")}
                for secret_id, key in steam_secrets},
    "vectors": steam_vectors,
})

extra_secrets = {
    "SHA1": b"12345678901234567890",
    "SHA256": b"12345678901234567890123456789012",
    "SHA512": b"1234567890123456789012345678901234567890123456789012345678901234",
}
counters = [0, 1, 255, 256, 2**31 - 1, 2**32, 2**32 + 1, 2**53, 2**63 - 1, 2**63, 2**64 - 1]
hotp_vectors = []
for algorithm, key in extra_secrets.items():
    for counter in counters:
        value = truncated(key, counter, algorithm)
        for digits in range(6, 11):
            hotp_vectors.append({"algorithm": algorithm, "counter": str(counter), "digits": digits,
                                 "truncated_dec": value,
                                 "code": str(value % 10**digits).zfill(digits)})
totp_cases = [(1, 0), (1, 1), (1, 1700000000), (20, 19), (20, 20), (20, 1700000000),
              (30, 29), (30, 30), (50, 1700000000), (60, 59), (60, 60),
              (86400, 1700000000), (4294967295, 4294967294), (4294967295, 4294967295),
              (4294967295, 20000000000), (30, 9223372036854775807)]
totp_vectors = []
for algorithm, key in extra_secrets.items():
    for period, time in totp_cases:
        for digits in (6, 7, 10):
            value = truncated(key, time // period, algorithm)
            totp_vectors.append({"algorithm": algorithm, "period": period, "time": str(time),
                                 "counter": str(time // period), "digits": digits,
                                 "code": str(value % 10**digits).zfill(digits)})
write("hotp_totp_extra.json", {
    "source": "make_vectors.py in this folder (Python standard library hmac/hashlib only)",
    "notes": "Beyond the RFC tables: 6 to 10 digits, counters up to 2^64 - 1, periods from 1 s "
             "to 2^32 - 1 s, times up to 2^63 - 1. Seeds are the RFC 6238 per-algorithm "
             "seeds (seeds[algorithm], ASCII). code = truncated_dec mod 10^digits, zero-padded. "
             "counter and time are decimal strings: JSON numbers above 2^53 are not exact "
             "in every reader.",
    "seeds": {algorithm: {"ascii": key.decode(), "hex": key.hex()}
              for algorithm, key in extra_secrets.items()},
    "hotp": hotp_vectors,
    "totp": totp_vectors,
})
