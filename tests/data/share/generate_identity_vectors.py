#!/usr/bin/python3
"""Writes identity_vectors.json: Watchword identity texts and fingerprints
(docs/FORMAT.md section 11) of the sharing public keys of
../keychain/vectors.json, computed independently of the C++ code: Bech32m by
the reference algorithm printed in BIP-350 (written out here), the words
from resources/bip39/english.txt, SHA-256 from hashlib.

Run from this folder: python3 generate_identity_vectors.py > identity_vectors.json
"""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BECH32M_CONST = 0x2BC830A3
PREFIX = "watchword-id:"
HRP = "ww"
LABEL = b"watchword/share/v1 fingerprint"

with open(os.path.join(HERE, "..", "..", "..", "resources", "bip39", "english.txt"), "rb") as f:
    WORDS = f.read().decode("ascii").split("\n")[:-1]
assert len(WORDS) == 2048


def polymod(values):
    generator = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generator[i] if ((top >> i) & 1) else 0
    return check


def hrp_expand(hrp):
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def convert_bits(data, from_bits, to_bits):
    accumulator, bits, out = 0, 0, []
    for value in data:
        accumulator = (accumulator << from_bits) | value
        bits += from_bits
        while bits >= to_bits:
            bits -= to_bits
            out.append((accumulator >> bits) & ((1 << to_bits) - 1))
    if bits:
        out.append((accumulator << (to_bits - bits)) & ((1 << to_bits) - 1))
    return out


def bech32m(hrp, data):
    groups = convert_bits(data, 8, 5)
    check = polymod(hrp_expand(hrp) + groups + [0] * 6) ^ BECH32M_CONST
    checksum = [(check >> 5 * (5 - i)) & 31 for i in range(6)]
    text = hrp + "1" + "".join(CHARSET[g] for g in groups + checksum)
    assert polymod(hrp_expand(hrp) + groups + checksum) == BECH32M_CONST
    return text


def fingerprint(key):
    digest = int.from_bytes(hashlib.sha256(LABEL + key).digest(), "big")
    return [WORDS[(digest >> (256 - 11 * (i + 1))) & 0x7FF] for i in range(8)]


with open(os.path.join(HERE, "..", "keychain", "vectors.json")) as f:
    keychains = json.load(f)["vectors"]

vectors = []
for keychain in keychains:
    key = bytes.fromhex(keychain["sharing_public_key"])
    vectors.append({
        "name": keychain["name"],
        "sharing_public_key": key.hex(),
        "identity_text": PREFIX + bech32m(HRP, key),
        "fingerprint": fingerprint(key),
    })

print(json.dumps({
    "description": "Watchword identity text (\"watchword-id:\" + Bech32m, hrp \"ww\") and fingerprint "
                   "words (first 88 bits of SHA-256(\"watchword/share/v1 fingerprint\" || key), 11 bits "
                   "a word, BIP39 English list) of each keychain vector's sharing public key",
    "vectors": vectors,
}, indent=2))
