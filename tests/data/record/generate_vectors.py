#!/usr/bin/python3
# Writes vectors.json: known answers for the record envelope (docs/FORMAT.md),
# computed with python3-cryptography alone, independently of the C++ code.
# Run with Debian's /usr/bin/python3 (python3-cryptography 38).
import json
import struct

from cryptography.hazmat.primitives import hashes, hmac, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ENCRYPTION_INFO = b"watchword/record/v1 encryption"
AUTHENTICATION_INFO = b"watchword/record/v1 authentication"
VERSION = b"\x01"


def derive(master, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(master)


def seal(master, iv, associated_data, plaintext):
    encryption_key = derive(master, ENCRYPTION_INFO)
    authentication_key = derive(master, AUTHENTICATION_INFO)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(encryption_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    mac_input = VERSION + struct.pack(">Q", len(associated_data)) + associated_data + iv + ciphertext
    mac = hmac.HMAC(authentication_key, hashes.SHA256())
    mac.update(mac_input)
    tag = mac.finalize()
    return {
        "encryption_key_hex": encryption_key.hex(),
        "authentication_key_hex": authentication_key.hex(),
        "ciphertext_hex": ciphertext.hex(),
        "mac_input_hex": mac_input.hex(),
        "tag_hex": tag.hex(),
        "sealed_hex": (iv + ciphertext + tag).hex(),
    }


CASES = [
    ("empty plaintext, empty associated data", bytes(range(32)), bytes(range(0xA0, 0xB0)), b"", b""),
    ("one full block: padding adds a second block", bytes(range(32)),
     bytes.fromhex("f0e1d2c3b4a5968778695a4b3c2d1e0f"), b"record:7 version:3",
     b"0123456789abcdef"),
    ("an otpauth URI", bytes.fromhex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
     bytes.fromhex("000102030405060708090a0b0c0d0e0f"), b"record:42 version:1",
     b"otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example"),
]

def seal_raw_blocks(master, iv, associated_data, blocks):
    """A correctly tagged envelope whose decrypted last block has bad PKCS#7
    padding: what a faulty sealer would write. Opening must report it as corrupt."""
    encryption_key = derive(master, ENCRYPTION_INFO)
    authentication_key = derive(master, AUTHENTICATION_INFO)
    encryptor = Cipher(algorithms.AES(encryption_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(blocks) + encryptor.finalize()
    mac = hmac.HMAC(authentication_key, hashes.SHA256())
    mac.update(VERSION + struct.pack(">Q", len(associated_data)) + associated_data + iv + ciphertext)
    return (iv + ciphertext + mac.finalize()).hex()


CORRUPT_CASES = [
    ("last byte 0x00", bytes(16) + bytes(15) + b"\x00"),
    ("last byte 0x11 (over one block)", bytes(15) + b"\x11"),
    ("last byte 0x02 over ..0x03 0x02", bytes(14) + b"\x03\x02"),
    ("last byte 0x10 over a block not all 0x10", b"A" * 16 + b"\x0f" + b"\x10" * 15),
]

vectors = []
for comment, master, iv, associated_data, plaintext in CASES:
    entry = {
        "comment": comment,
        "master_key_hex": master.hex(),
        "iv_hex": iv.hex(),
        "associated_data_hex": associated_data.hex(),
        "plaintext_hex": plaintext.hex(),
    }
    entry.update(seal(master, iv, associated_data, plaintext))
    vectors.append(entry)

document = {
    "source": "tests/data/record/generate_vectors.py with Debian python3-cryptography "
              "(independent of the C++ implementation)",
    "envelope": "IV(16) || AES-256-CBC(encryption key, IV, PKCS#7(plaintext)) || "
                "HMAC-SHA256(authentication key, 0x01 || be64(len(AD)) || AD || IV || ciphertext)",
    "keys": "HKDF-SHA256(master key, salt empty, info 'watchword/record/v1 encryption' / "
            "'watchword/record/v1 authentication', 32 bytes each)",
    "vectors": vectors,
    "corrupt": [
        {
            "comment": comment,
            "master_key_hex": bytes(range(32)).hex(),
            "associated_data_hex": b"record:9 version:1".hex(),
            "padded_plaintext_hex": blocks.hex(),
            "sealed_hex": seal_raw_blocks(bytes(range(32)), bytes(range(0xA0, 0xB0)),
                                          b"record:9 version:1", blocks),
        }
        for comment, blocks in CORRUPT_CASES
    ],
}
with open(__file__.rsplit("/", 1)[0] + "/vectors.json", "w") as out:
    json.dump(document, out, indent=2)
    out.write("\n")
