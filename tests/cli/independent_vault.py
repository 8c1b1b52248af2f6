#!/usr/bin/python3
"""A second vault reader, written from docs/FORMAT.md alone, checks watchword-cli.

The reader below (sections 1 to 4, 6 and 13 of docs/FORMAT.md: the vault file
of versions 1, 2 and 3) shares no code with src/core: the standard library's
hashlib, hmac and unicodedata, and Debian's python3-cryptography for AES-CBC,
HKDF and secp256k1. It parses the whole file (version 1, 2 or 3: the sync
slot, type 5, included), checks the checksum, the KDF bounds, every envelope
tag and the manifest, unlocks with a password or with the recovery phrase
(the keychain's key of the recovery slot's kind), checks the identity slot
(the sharing key opens under KI, s is valid, s·G = S), and decodes every
record's fields (field 0x11, the changes, in any kind; tombstones, kind 4),
refusing whatever the document calls an error.

First it must reproduce the document's own worked examples (sections 1, 2, 3,
every key pair of tests/data/keychain/vectors.json, the version-1 vault of
tests/data/vault/vectors.json and, if there, the version-2 vault and the
migration of vectors_v2.json and the version-3 vault, with a tombstone, and
the migration of vectors_v3.json, written again byte for byte). Then it
drives the CLI (its device in a configuration folder of its own): init,
accounts of every kind, a secure note, remove, passwd, contacts; and it
requires that
  * a new vault is version 3 with a password slot, a recovery slot of kind 2
    whose R is the phrase's recovery key, an identity slot whose S is the
    phrase's sharing key, and a sync slot naming the CLI's device as the last
    writer, the maker of the key and the writer of the generation (and init
    prints R's fingerprint);
  * the new password and the recovery phrase both open the file, and every
    record holds exactly what was put in and what `vault list --json` shows,
    with one change of the CLI's device per version (field 0x11);
  * a removed record leaves a tombstone (kind 4, after the live records:
    version + 1, the time of the save that removed it, one more change),
    counted in the header's record count;
  * the codes it computes itself (section 4) equal `vault codes --at T --json`;
  * the header agrees with `vault info --json` and section 6.6 (generation,
    backups, slots rewritten: R and kind kept, E new, the identity slot
    sealed again under the new M, the sync slot's key made at the save;
    unchanged records keeping their sealed bytes);
  * the old password and wrong phrases are refused, and vault check-phrase agrees;
  * flipped bits are refused: by the structure checks (slot types, counts and
    kinds of each version, the sync slot's length and writers), by the
    checksum, and with the checksum fixed up by the slot tag or the manifest,
    and with the manifest fixed up too by the identity slot's checks or the
    record's own tag; slots, sync slots, records, changes and tombstones it
    seals itself wrongly are refused; watchword-cli refuses each of these
    files as well, and opens the slot layouts the format allows;
  * vault recover and passwd --new-phrase (of a 12-word vault) write the
    phrase's recovery and sharing keys;
  * contacts (kind 3, versions 2 and 3) that `contacts add`, `verify` and
    `rename` wrote hold the name, the 33-byte key and the verified flag that
    `contacts list --json` shows, with section 11's identity text and
    fingerprint computed here; `vault list` leaves them out; broken contact
    fields, and a contact in a version 1 file, are refused by both readers;
  * the version-1 example is read as it is, and its first save is version 3:
    the password slot and records byte for byte, a recovery slot of kind 1
    with the same R, no identity slot, a sync slot with no key maker; passwd
    keeps that, recover adds an identity slot (kind 1 and R kept), passwd
    --new-phrase gives kind 2 and an identity slot; the version-2 example's
    first save keeps every slot and record byte for byte and adds the sync
    slot.

Usage: /usr/bin/python3 independent_vault.py PATH/TO/watchword-cli [--keep DIR]
       /usr/bin/python3 independent_vault.py --open VAULT [--recovery]
         (the password, or with --recovery the phrase, on standard input;
          prints the records as JSON, secrets as their length only)
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.parse

try:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand
except ImportError:
    sys.exit("independent_vault: the cryptography module is missing (Debian package "
             "python3-cryptography; use /usr/bin/python3)")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
WORDLIST = os.path.join(REPO, "resources", "bip39", "english.txt")
VAULT_VECTORS = os.path.join(REPO, "tests", "data", "vault", "vectors.json")
KEYCHAIN_VECTORS = os.path.join(REPO, "tests", "data", "keychain", "vectors.json")
VAULT_V2_VECTORS = os.path.join(REPO, "tests", "data", "vault", "vectors_v2.json")
VAULT_V3_VECTORS = os.path.join(REPO, "tests", "data", "vault", "vectors_v3.json")
IDENTITY_VECTORS = os.path.join(REPO, "tests", "data", "share", "identity_vectors.json")


# ---------------------------------------------------------------------------
# Errors. Each carries the step of section 6.5 that found it, so the tests
# can require that the right check (not merely some check) refused a file.

class VaultError(Exception):
    def __init__(self, kind: str, step: int, detail: str = ""):
        super().__init__("%s (step %d)%s" % (kind, step, ": " + detail if detail else ""))
        self.kind = kind
        self.step = step


class MnemonicError(Exception):
    pass


# ---------------------------------------------------------------------------
# Section 1: keychain derivations.

SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_words = None


def wordlist():
    global _words
    if _words is None:
        with open(WORDLIST, encoding="ascii") as handle:
            _words = handle.read().split("\n")
        if _words and _words[-1] == "":
            _words.pop()
        if len(_words) != 2048 or len(set(_words)) != 2048:
            raise RuntimeError("%s is not a 2048-word list" % WORDLIST)
    return _words


def normalize_mnemonic(text: str) -> str:
    # 1.1: ASCII letters to lower case, runs of ASCII whitespace to one space.
    lowered = "".join(c.lower() if "A" <= c <= "Z" else c for c in text)
    return " ".join(part for part in _split_ascii_whitespace(lowered) if part)


def _split_ascii_whitespace(text: str):
    part = []
    for c in text:
        if c in " \t\n\r\x0b\x0c":
            yield "".join(part)
            part = []
        else:
            part.append(c)
    yield "".join(part)


def mnemonic_entropy(mnemonic: str) -> bytes:
    words = mnemonic.split(" ")
    if len(words) not in (12, 15, 18, 21, 24):
        raise MnemonicError("wrong word count %d" % len(words))
    index = {word: i for i, word in enumerate(wordlist())}
    bits = 0
    for word in words:
        if word not in index:
            raise MnemonicError("unknown word %r" % word)
        bits = (bits << 11) | index[word]
    total = 11 * len(words)
    checksum_bits = total // 33
    entropy_bits = total - checksum_bits
    entropy = (bits >> checksum_bits).to_bytes(entropy_bits // 8, "big")
    expected = hashlib.sha256(entropy).digest()[0] >> (8 - checksum_bits)
    if bits & ((1 << checksum_bits) - 1) != expected:
        raise MnemonicError("wrong checksum")
    return entropy


def entropy_mnemonic(entropy: bytes) -> str:
    if len(entropy) not in (16, 20, 24, 28, 32):
        raise ValueError("entropy length")
    checksum_bits = len(entropy) * 8 // 32
    bits = (int.from_bytes(entropy, "big") << checksum_bits) | (
        hashlib.sha256(entropy).digest()[0] >> (8 - checksum_bits))
    count = (len(entropy) * 8 + checksum_bits) // 11
    words = wordlist()
    return " ".join(words[(bits >> (11 * (count - 1 - i))) & 0x7FF] for i in range(count))


def hkdf_expand_sha512(prk: bytes, info: bytes, length: int) -> bytes:
    return HKDFExpand(algorithm=hashes.SHA512(), length=length, info=info).derive(prk)


class KeyPair:
    """One secp256k1 key pair of the keychain (section 1 item 4)."""

    def __init__(self, prk: bytes, label: bytes):
        self.label = label
        self.secret = self._secret(prk, label)
        self.private_key = ec.derive_private_key(self.secret, ec.SECP256K1())
        self.public = compressed(self.private_key.public_key())

    @staticmethod
    def _secret(prk: bytes, label: bytes) -> int:
        # d0 from info = L; while 0 or >= n, L || k for the single byte k = 1..255.
        for info in [label] + [label + bytes([k]) for k in range(1, 256)]:
            candidate = int.from_bytes(hkdf_expand_sha512(prk, info, 32), "big")
            if 0 < candidate < SECP256K1_N:
                return candidate
        raise MnemonicError("no valid %s key" % label.decode())


class Keychain:
    def __init__(self, typed_phrase: str, passphrase: str = ""):
        self.mnemonic = normalize_mnemonic(typed_phrase)
        self.entropy = mnemonic_entropy(self.mnemonic)
        salt = b"mnemonic" + unicodedata.normalize("NFKD", passphrase).encode("utf-8")
        self.seed = hashlib.pbkdf2_hmac("sha512", self.mnemonic.encode("utf-8"), salt, 2048, 64)
        self.prk = hmac.new(b"watchword/keychain/v1", self.seed, hashlib.sha512).digest()
        # Three key pairs, one purpose each: what version-2 vaults wrap M to,
        # the sharing identity, and what version-1 vaults wrap M to (the
        # "identity key" of format 1).
        self.recovery = KeyPair(self.prk, b"recovery secp256k1")
        self.sharing = KeyPair(self.prk, b"sharing secp256k1")
        self.version1_recovery = KeyPair(self.prk, b"identity secp256k1")
        self.recovery_wrapping_key = hkdf_expand_sha512(self.prk, b"recovery wrapping key", 32)

    def recovery_key(self, kind: int) -> KeyPair:
        """The key pair a recovery slot of this kind wraps to (kind 1: version-1 key, 2: recovery key)."""
        return {RECOVERY_KIND_V1: self.version1_recovery, RECOVERY_KIND_CURRENT: self.recovery}[kind]


def compressed(public_key) -> bytes:
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)


def parse_compressed_point(data: bytes):
    if len(data) != 33 or data[0] not in (2, 3):
        raise ValueError("not a 33-byte compressed point")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), data)


# ---------------------------------------------------------------------------
# Section 11: the identity text (Bech32m, BIP-350) and fingerprint of a sharing key.

BECH32_ALPHABET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BECH32M_CONSTANT = 0x2BC830A3


def _bech32_polymod(values) -> int:
    generator = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generator[i] if (top >> i) & 1 else 0
    return check


def identity_text(public_key: bytes) -> str:
    bits = int.from_bytes(public_key, "big") << (5 * 53 - 8 * len(public_key))  # zero padding at the end
    data = [(bits >> (5 * (52 - i))) & 31 for i in range(53)]
    hrp = "ww"
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    polymod = _bech32_polymod(expanded + data + [0] * 6) ^ BECH32M_CONSTANT
    checksum = [(polymod >> (5 * (5 - i))) & 31 for i in range(6)]
    return "watchword-id:" + hrp + "1" + "".join(BECH32_ALPHABET[d] for d in data + checksum)


def identity_fingerprint(public_key: bytes) -> list:
    h = int.from_bytes(hashlib.sha256(b"watchword/share/v1 fingerprint" + public_key).digest(), "big")
    return [wordlist()[(h >> (256 - 11 * (i + 1))) & 0x7FF] for i in range(8)]


# ---------------------------------------------------------------------------
# Section 2: the record envelope; section 3: the note key.

def hkdf_sha256(ikm: bytes, info: bytes, salt: bytes = None, length: int = 32) -> bytes:
    # salt None is RFC 5869's HashLen zero bytes, the document's "empty salt".
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class EnvelopeError(Exception):
    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind  # "malformed" or "authentication failed" (section 2)


class Envelope:
    def __init__(self, key: bytes):
        self.ke = hkdf_sha256(key, b"watchword/record/v1 encryption")
        self.ka = hkdf_sha256(key, b"watchword/record/v1 authentication")

    def _tag(self, ad: bytes, iv: bytes, ciphertext: bytes) -> bytes:
        mac_input = b"\x01" + struct.pack(">Q", len(ad)) + ad + iv + ciphertext
        return hmac.new(self.ka, mac_input, hashlib.sha256).digest()

    def open(self, sealed: bytes, ad: bytes) -> bytes:
        if len(sealed) < 64 or (len(sealed) - 48) % 16:
            raise EnvelopeError("malformed")
        iv, ciphertext, tag = sealed[:16], sealed[16:-32], sealed[-32:]
        if not hmac.compare_digest(self._tag(ad, iv, ciphertext), tag):
            raise EnvelopeError("authentication failed")
        decryptor = Cipher(algorithms.AES(self.ke), modes.CBC(iv)).decryptor()
        padded = decryptor.update(ciphertext) + decryptor.finalize()
        n = padded[-1]
        if not 1 <= n <= 16 or padded[-n:] != bytes([n]) * n:
            raise EnvelopeError("malformed")  # a valid tag: a faulty writer's
        return padded[:-n]

    def seal(self, plaintext: bytes, ad: bytes, iv: bytes = None, padded: bool = False) -> bytes:
        """padded: plaintext is sealed as it is, its padding already there (or broken, for a test)."""
        iv = os.urandom(16) if iv is None else iv
        n = 16 - len(plaintext) % 16
        encryptor = Cipher(algorithms.AES(self.ke), modes.CBC(iv)).encryptor()
        ciphertext = encryptor.update(plaintext if padded else plaintext + bytes([n]) * n) + encryptor.finalize()
        return iv + ciphertext + self._tag(ad, iv, ciphertext)


def note_key(shared_x: bytes, e_pub: bytes, r_pub: bytes) -> bytes:
    return hkdf_sha256(shared_x, b"watchword/share/v1 note key", salt=e_pub + r_pub)


def recovery_slot_kek(shared_x: bytes, e_pub: bytes, r_pub: bytes) -> bytes:
    """The version-2 recovery slot's KEK: section 3's agreement under its own label."""
    return hkdf_sha256(shared_x, RECOVERY_KEK_INFO, salt=e_pub + r_pub)


def identity_key(master: bytes) -> bytes:
    """KI, the key the identity slot's sharing secret is sealed under."""
    return hkdf_sha256(master, IDENTITY_KEY_INFO)


# ---------------------------------------------------------------------------
# Section 4: one-time codes.

DIGESTS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}
STEAM_ALPHABET = "23456789BCDFGHJKMNPQRTVWXY"


def truncated_value(secret: bytes, counter: int, algorithm: str) -> int:
    mac = hmac.new(secret, struct.pack(">Q", counter), DIGESTS[algorithm]).digest()
    offset = mac[-1] & 0x0F
    return struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF


def hotp(secret: bytes, counter: int, algorithm: str, digits: int) -> str:
    return str(truncated_value(secret, counter, algorithm) % 10 ** digits).zfill(digits)


def totp(secret: bytes, unix_time: int, period: int, algorithm: str, digits: int) -> str:
    if unix_time < 0:
        raise ValueError("times before 1970 are refused")
    return hotp(secret, unix_time // period, algorithm, digits)


def steam(secret: bytes, unix_time: int) -> str:
    if unix_time < 0:
        raise ValueError("times before 1970 are refused")
    value = truncated_value(secret, unix_time // 30, "SHA1")
    symbols = []
    for _ in range(5):
        symbols.append(STEAM_ALPHABET[value % 26])
        value //= 26
    return "".join(symbols)


def record_code(fields: dict, unix_time: int) -> str:
    if fields["otp_kind"] == "steam":
        return steam(fields["secret"], unix_time)
    if fields["otp_kind"] == "hotp":
        return hotp(fields["secret"], fields["counter"], fields["algorithm"], fields["digits"])
    return totp(fields["secret"], unix_time, fields["period"], fields["algorithm"], fields["digits"])


# ---------------------------------------------------------------------------
# Section 6: the vault file.

MAGIC = b"WWVAULT\x00"
HEADER_LENGTH = 64
RECORD_MIN = 16 + 8 + 1 + 4 + 64  # 93, section 6.5 step 2
PASSWORD_SLOT, RECOVERY_SLOT_V1, RECOVERY_SLOT, IDENTITY_SLOT, SYNC_SLOT = 1, 2, 3, 4, 5
# Per format version: the slot types allowed and their sizes, and the slot counts.
# The sync slot (version 3) has 25 bytes and 16 per writer: None here, checked on its own.
SLOT_SIZES = {1: {PASSWORD_SLOT: 145, RECOVERY_SLOT_V1: 162},
              2: {PASSWORD_SLOT: 145, RECOVERY_SLOT: 163, IDENTITY_SLOT: 129},
              3: {PASSWORD_SLOT: 145, RECOVERY_SLOT: 163, IDENTITY_SLOT: 129, SYNC_SLOT: None}}
SLOT_COUNTS = {1: (1, 2), 2: (1, 2, 3), 3: (1, 2, 3, 4)}
SYNC_FIXED, SYNC_WRITER, MAX_SYNC_WRITERS = 25, 16, 64
RECOVERY_KIND_V1, RECOVERY_KIND_CURRENT = 1, 2  # the version-2 recovery slot's kind byte
ACCOUNT, NOTE, CONTACT, TOMBSTONE = 1, 2, 3, 4
KIND_NAMES = {ACCOUNT: "account", NOTE: "note", CONTACT: "contact", TOMBSTONE: "tombstone"}
# The record kinds each format version allows (section 6.3).
RECORD_KINDS = {1: (ACCOUNT, NOTE), 2: (ACCOUNT, NOTE, CONTACT), 3: (ACCOUNT, NOTE, CONTACT, TOMBSTONE)}
MAX_CHANGE_DEVICES = 255  # field 0x11 (section 13)
MERGE_DEVICE = b"\xff" * 8
MIN_ITERATIONS, MAX_ITERATIONS = 600_000, 50_000_000
SLOT_AD = b"watchword/vault/v1 slot"
RECORD_AD = b"watchword/vault/v1 record"
MANIFEST_INFO = b"watchword/vault/v1 manifest"
RECOVERY_KEK_INFO = b"watchword/vault/v2 recovery key"
IDENTITY_KEY_INFO = b"watchword/vault/v2 sharing identity"

OTP_KINDS = {1: "totp", 2: "hotp", 3: "steam"}
ALGORITHMS = {1: "SHA1", 2: "SHA256", 3: "SHA512"}
# tag: (name, kinds it belongs to, type)
FIELD_TAGS = {
    0x01: ("issuer", {ACCOUNT}, "string"),
    0x02: ("account_name", {ACCOUNT}, "string"),
    0x03: ("secret", {ACCOUNT}, "bytes"),
    0x04: ("otp_kind", {ACCOUNT}, "u8"),
    0x05: ("algorithm", {ACCOUNT}, "u8"),
    0x06: ("digits", {ACCOUNT}, "u8"),
    0x07: ("period", {ACCOUNT}, "u32"),
    0x08: ("counter", {ACCOUNT}, "u64"),
    0x09: ("tags", {ACCOUNT, NOTE}, "string"),
    0x0A: ("note", {ACCOUNT}, "string"),
    0x0B: ("icon_reference", {ACCOUNT}, "string"),
    0x0C: ("created", {ACCOUNT, NOTE, CONTACT}, "i64"),
    0x0D: ("modified", {ACCOUNT, NOTE, CONTACT, TOMBSTONE}, "i64"),  # a tombstone's: the time of deletion
    0x0E: ("last_used", {ACCOUNT}, "i64"),
    0x0F: ("sort_position", {ACCOUNT, NOTE, CONTACT}, "u32"),
    0x10: ("received_from", {ACCOUNT, NOTE}, "bytes"),
    0x11: ("changes", {ACCOUNT, NOTE, CONTACT, TOMBSTONE}, "changes"),
    0x21: ("title", {NOTE}, "string"),
    0x22: ("body", {NOTE}, "string"),
    0x31: ("name", {CONTACT}, "string"),
    0x32: ("public_key", {CONTACT}, "bytes"),
    0x33: ("verified", {CONTACT}, "u8"),
}
INT_SIZES = {"u8": 1, "u32": 4, "u64": 8, "i64": 8}


class Cursor:
    """Bounds-checked reads; running past `end` is *truncated*."""

    def __init__(self, data: bytes, offset: int, end: int):
        self.data, self.offset, self.end = data, offset, end

    def take(self, n: int, what: str) -> bytes:
        if self.offset + n > self.end:
            raise VaultError("truncated", 2, "%s runs past the end" % what)
        chunk = self.data[self.offset:self.offset + n]
        self.offset += n
        return chunk

    def u(self, n: int, what: str) -> int:
        return int.from_bytes(self.take(n, what), "big")


class Vault:
    """Steps 1 to 4 of section 6.5 happen on construction; no key is needed.

    Versions 1 (docs/FORMAT.md section 6), 2 (its delta: slot types 3 and 4, record kind 3) and
    3 (slot type 5, record kind 4; section 13)."""

    def __init__(self, data: bytes):
        self.data = data
        # Step 1.
        if data[:min(len(data), 8)] != MAGIC[:min(len(data), 8)]:
            raise VaultError("not a vault", 1)
        if len(data) < HEADER_LENGTH + 32 + 32:
            raise VaultError("truncated", 1, "%d bytes" % len(data))
        self.format_version = struct.unpack(">H", data[8:10])[0]
        if self.format_version not in SLOT_SIZES:
            raise VaultError("unsupported version %d" % self.format_version, 1)
        slot_sizes = SLOT_SIZES[self.format_version]
        # Step 2: structure, over the bytes before the manifest.
        end = len(data) - 64
        self.body_end = end
        cursor = Cursor(data, 0, end)
        cursor.take(10, "header")
        header_length = cursor.u(2, "header")
        if header_length != HEADER_LENGTH:
            raise VaultError("malformed", 2, "header length %d" % header_length)
        self.vault_id = cursor.take(16, "header")
        self.generation = cursor.u(8, "header")
        self.created = struct.unpack(">q", cursor.take(8, "header"))[0]
        self.modified = struct.unpack(">q", cursor.take(8, "header"))[0]
        self.record_count = cursor.u(4, "header")
        self.slot_count = cursor.u(1, "header")
        reserved = cursor.take(7, "header")
        if reserved != bytes(7):
            raise VaultError("malformed", 2, "reserved header bytes %s" % reserved.hex())
        if self.slot_count not in SLOT_COUNTS[self.format_version]:
            raise VaultError("malformed", 2, "slot count %d in version %d" % (self.slot_count, self.format_version))
        self.header = data[:HEADER_LENGTH]
        # Without a sync slot (versions 1 and 2, or a version 3 file without one): all zero, no writers.
        self.sync = {"last_writer": bytes(8), "key_made": 0, "key_device": bytes(8), "writers": []}
        self.slots = {}
        self.slot_offsets = {}
        self.slot_order = []
        for index in range(self.slot_count):
            start = cursor.offset
            slot_type = cursor.u(1, "slot type")
            length = cursor.u(2, "slot length")
            if slot_type == RECOVERY_SLOT_V1 and self.format_version >= 2:
                raise VaultError("malformed", 2, "vault slot %d: a version 1 recovery slot in a version %d file"
                                 % (index + 1, self.format_version))
            if slot_type not in slot_sizes:
                raise VaultError("malformed", 2, "slot type %d in version %d" % (slot_type, self.format_version))
            if index == 0 and slot_type != PASSWORD_SLOT:
                raise VaultError("malformed", 2, "the password slot is not first")
            if slot_type in self.slots:
                raise VaultError("malformed", 2, "duplicate slot type %d" % slot_type)
            if slot_type == SYNC_SLOT:
                if length < SYNC_FIXED or (length - SYNC_FIXED) % SYNC_WRITER:
                    raise VaultError("malformed", 2, "sync slot length %d is not 25 + 16n" % length)
            elif length != slot_sizes[slot_type]:
                raise VaultError("malformed", 2, "slot %d length %d" % (slot_type, length))
            body = cursor.take(length, "slot body")
            if slot_type == RECOVERY_SLOT and body[0] not in (RECOVERY_KIND_V1, RECOVERY_KIND_CURRENT):
                raise VaultError("malformed", 2, "recovery slot kind %d" % body[0])
            if slot_type == SYNC_SLOT:
                self.sync = parse_sync_slot(body)
            self.slot_offsets[slot_type] = (start, start + 3 + length)
            self.slots[slot_type] = body
            self.slot_order.append(slot_type)
        if PASSWORD_SLOT not in self.slots:
            raise VaultError("malformed", 2, "no password slot")
        self.records_start = cursor.offset
        if self.record_count * RECORD_MIN > end - cursor.offset:
            raise VaultError("truncated", 2, "%d records cannot fit" % self.record_count)
        self.records = []
        seen = set()
        for _ in range(self.record_count):
            start = cursor.offset
            record_id = cursor.take(16, "record id")
            version = cursor.u(8, "record version")
            kind = cursor.u(1, "record kind")
            length = cursor.u(4, "record length")
            if kind not in RECORD_KINDS[self.format_version]:
                raise VaultError("malformed", 2, "record kind %d in version %d" % (kind, self.format_version))
            # Step 2's order (docs/FORMAT.md section 6.5): L must fit, then be an envelope size.
            sealed = cursor.take(length, "record envelope")
            if length < 64 or (length - 48) % 16:
                raise VaultError("malformed", 2, "record length %d" % length)
            self.records.append({"id": record_id, "version": version, "kind": kind, "sealed": sealed,
                                 "offset": start, "end": cursor.offset})
        if cursor.offset != end:
            raise VaultError("malformed", 2, "%d bytes left before the manifest" % (end - cursor.offset))
        for record in self.records:
            if record["id"] in seen:
                raise VaultError("malformed", 2, "duplicate record id %s" % record["id"].hex())
            seen.add(record["id"])
        self.manifest = data[end:end + 32]
        self.checksum = data[end + 32:]
        # Step 3.
        if hashlib.sha256(data[:end + 32]).digest() != self.checksum:
            raise VaultError("corrupted", 3)
        # Step 4.
        slot = self.slots[PASSWORD_SLOT]
        self.kdf = slot[0]
        self.iterations = int.from_bytes(slot[1:5], "big")
        self.salt = slot[5:37]
        self.target_ms = int.from_bytes(slot[37:41], "big")
        self.rate = int.from_bytes(slot[41:49], "big")
        self.password_wrapped = slot[49:145]
        if self.kdf != 1 or not MIN_ITERATIONS <= self.iterations <= MAX_ITERATIONS \
                or not 1 <= self.target_ms <= 60_000:
            raise VaultError("KDF parameters out of bounds", 4, "kdf %d, %d iterations, target %d ms"
                             % (self.kdf, self.iterations, self.target_ms))
        # The recovery slot: version 1, R || E || wrapped (type 2); version 2,
        # kind || R || E || wrapped (type 3).
        self.recovery_type = self.recovery_kind = None
        self.recovery_r = self.recovery_e = self.recovery_wrapped = None
        for slot_type in (RECOVERY_SLOT_V1, RECOVERY_SLOT):
            if slot_type in self.slots:
                slot = self.slots[slot_type]
                self.recovery_type = slot_type
                if slot_type == RECOVERY_SLOT:
                    self.recovery_kind, slot = slot[0], slot[1:]
                else:
                    self.recovery_kind = RECOVERY_KIND_V1
                self.recovery_r, self.recovery_e, self.recovery_wrapped = slot[:33], slot[33:66], slot[66:]
        # The identity slot (version 2): S || wrapped s.
        if IDENTITY_SLOT in self.slots:
            slot = self.slots[IDENTITY_SLOT]
            self.sharing_public, self.identity_wrapped = slot[:33], slot[33:]
        else:
            self.sharing_public = self.identity_wrapped = None

    def live(self, records: list = None) -> list:
        """The records that are not tombstones (of records, default: as parsed)."""
        return [r for r in (self.records if records is None else records) if r["kind"] != TOMBSTONE]

    def tombstones(self, records: list = None) -> list:
        return [r for r in (self.records if records is None else records) if r["kind"] == TOMBSTONE]

    # Step 5.
    def _slot_ad(self, slot_type: int) -> bytes:
        return SLOT_AD + self.vault_id + bytes([slot_type])

    def password_kek(self, password) -> bytes:
        if isinstance(password, str):
            password = unicodedata.normalize("NFKD", password).encode("utf-8")
        return hashlib.pbkdf2_hmac("sha256", password, self.salt, self.iterations, 32)

    def master_key_from_password(self, password) -> bytes:
        kek = self.password_kek(password)
        try:
            master = Envelope(kek).open(self.password_wrapped, self._slot_ad(PASSWORD_SLOT))
        except EnvelopeError as error:
            if error.kind == "malformed":
                raise VaultError("malformed", 5, "password slot envelope: %s" % error.kind)
            raise VaultError("wrong password", 5, error.kind)
        if len(master) != 32:
            raise VaultError("malformed", 5, "wrapped master key of %d bytes" % len(master))
        return master

    def recovery_kek(self, keychain: Keychain) -> bytes:
        if self.recovery_r is None:
            raise VaultError("no recovery slot", 5)
        key = keychain.recovery_key(self.recovery_kind)
        if key.public != self.recovery_r:
            raise VaultError("wrong recovery phrase", 5, "the phrase's %s public key is not R"
                             % key.label.decode())
        try:
            e_point = parse_compressed_point(self.recovery_e)
        except ValueError as error:
            raise VaultError("malformed", 5, "E: %s" % error)
        shared = key.private_key.exchange(ec.ECDH(), e_point)
        if self.recovery_type == RECOVERY_SLOT_V1:
            return note_key(shared, self.recovery_e, self.recovery_r)
        return recovery_slot_kek(shared, self.recovery_e, self.recovery_r)

    def master_key_from_phrase(self, phrase: str, passphrase: str = "") -> bytes:
        try:
            keychain = Keychain(phrase, passphrase)
        except MnemonicError as error:
            raise VaultError("not a recovery phrase", 5, str(error))
        kek = self.recovery_kek(keychain)
        try:
            master = Envelope(kek).open(self.recovery_wrapped, self._slot_ad(self.recovery_type))
        except EnvelopeError as error:
            if error.kind == "malformed":
                raise VaultError("malformed", 5, "recovery slot envelope: %s" % error.kind)
            raise VaultError("wrong recovery phrase", 5, error.kind)
        if len(master) != 32:
            raise VaultError("malformed", 5, "wrapped master key of %d bytes" % len(master))
        return master

    # Steps 6 and 7.
    def manifest_key(self, master: bytes) -> bytes:
        return hkdf_sha256(master, MANIFEST_INFO)

    def sharing_secret(self, master: bytes) -> int:
        """The identity slot's s, checked as step 6 asks (after the manifest): opens, valid, s·G = S."""
        try:
            opened = Envelope(identity_key(master)).open(self.identity_wrapped, self._slot_ad(IDENTITY_SLOT))
        except EnvelopeError as error:
            raise VaultError("malformed", 6, "identity slot: the sharing key does not open (%s)" % error.kind)
        secret = int.from_bytes(opened, "big")
        if len(opened) != 32 or not 0 < secret < SECP256K1_N:
            raise VaultError("malformed", 6, "identity slot: not a valid secret key (%d bytes)" % len(opened))
        if compressed(ec.derive_private_key(secret, ec.SECP256K1()).public_key()) != self.sharing_public:
            raise VaultError("malformed", 6, "identity slot: s·G is not S")
        return secret

    def open_records(self, master: bytes) -> list:
        expected = hmac.new(self.manifest_key(master), self.data[:self.body_end], hashlib.sha256).digest()
        if not hmac.compare_digest(expected, self.manifest):
            raise VaultError("tampered", 6, "manifest")
        if self.recovery_r is not None:
            try:
                parse_compressed_point(self.recovery_r)
            except ValueError as error:
                raise VaultError("malformed", 6, "recovery slot: R: %s" % error)
        self.sharing_secret_key = self.sharing_secret(master) if self.sharing_public is not None else None
        envelope = Envelope(master)
        opened = []
        for record in self.records:
            try:
                plaintext = envelope.open(record["sealed"], record_ad(self.vault_id, record))
            except EnvelopeError as error:
                kind = "malformed" if error.kind == "malformed" else "tampered"
                raise VaultError(kind, 7, "record %s: %s" % (record["id"].hex(), error.kind))
            try:
                fields = decode_fields(plaintext, record["kind"])
            except ValueError as error:
                raise VaultError("malformed", 7, "record %s: %s" % (record["id"].hex(), error))
            opened.append(dict(record, fields=fields, plaintext=plaintext))
        return opened


def parse_sync_slot(body: bytes) -> dict:
    """The sync slot (type 5), its length already 25 + 16k: n (byte 24) must give the length, be at
    most 64, and the writers' devices must ascend (as unsigned bytes), none twice (section 6.5 step 2.5)."""
    count = body[24]
    if len(body) != SYNC_FIXED + SYNC_WRITER * count:
        raise VaultError("malformed", 2, "sync slot: %d writers in %d bytes" % (count, len(body)))
    if count > MAX_SYNC_WRITERS:
        raise VaultError("malformed", 2, "sync slot: %d writers, more than 64" % count)
    writers = []
    for i in range(count):
        at = SYNC_FIXED + SYNC_WRITER * i
        writers.append((body[at:at + 8], int.from_bytes(body[at + 8:at + 16], "big")))
        if i and not writers[i - 1][0] < writers[i][0]:
            raise VaultError("malformed", 2, "sync slot: writers out of order or repeated")
    return {"last_writer": body[:8], "key_made": struct.unpack(">q", body[8:16])[0],
            "key_device": body[16:24], "writers": writers}


def encode_sync_slot(last_writer: bytes, key_made: int, key_device: bytes, writers) -> bytes:
    return (last_writer + struct.pack(">q", key_made) + key_device + bytes([len(writers)])
            + b"".join(device + struct.pack(">Q", generation) for device, generation in writers))


def in_written_order(records: list) -> bool:
    """6.3 asks writers for ascending (sort position, record id), then the tombstones in ascending id;
    6.5 gives readers no error for it."""
    kinds = [r["kind"] == TOMBSTONE for r in records]
    if kinds != sorted(kinds):  # a live record after a tombstone
        return False
    order = [(r["fields"]["sort_position"], r["id"]) for r in records if r["kind"] != TOMBSTONE]
    dead = [r["id"] for r in records if r["kind"] == TOMBSTONE]
    return order == sorted(order) and dead == sorted(dead)


def record_ad(vault_id: bytes, record: dict) -> bytes:
    return RECORD_AD + vault_id + record["id"] + struct.pack(">QB", record["version"], record["kind"])


def decode_string(value: bytes) -> str:
    text = value.decode("utf-8")  # strict: no surrogates, no overlong forms
    if "\x00" in text:
        raise ValueError("NUL in a string")
    return text


def decode_fields(plaintext: bytes, kind: int) -> dict:
    fields = {"tags": []}
    offset = 0
    last_tag = 0
    while offset < len(plaintext):
        if offset + 5 > len(plaintext):
            raise ValueError("field header runs past the end")
        tag = plaintext[offset]
        length = int.from_bytes(plaintext[offset + 1:offset + 5], "big")
        offset += 5
        if offset + length > len(plaintext):
            raise ValueError("field 0x%02x runs past the end" % tag)
        value = plaintext[offset:offset + length]
        offset += length
        if tag not in FIELD_TAGS:
            raise ValueError("unknown tag 0x%02x" % tag)
        name, kinds, value_type = FIELD_TAGS[tag]
        if kind not in kinds:
            raise ValueError("tag 0x%02x does not belong to kind %d" % (tag, kind))
        if tag < last_tag or (tag == last_tag and tag != 0x09):
            raise ValueError("tag 0x%02x out of order or repeated" % tag)
        last_tag = tag
        if value_type in INT_SIZES:
            if length != INT_SIZES[value_type]:
                raise ValueError("tag 0x%02x: %d bytes for %s" % (tag, length, value_type))
            number = int.from_bytes(value, "big", signed=value_type == "i64")
            fields[name] = number
        elif value_type == "bytes":
            fields[name] = value
        elif value_type == "changes":
            fields[name] = decode_changes(value)
        elif tag == 0x09:
            label = decode_string(value)
            if not 1 <= length <= 256:
                raise ValueError("tag label of %d bytes" % length)
            if label in fields["tags"]:
                raise ValueError("repeated tag label %r" % label)
            fields["tags"].append(label)
        else:
            fields[name] = decode_string(value)
    if kind == TOMBSTONE:
        # Only 0x0d and 0x11 belong to a tombstone (FIELD_TAGS), and both are required.
        for name in ("modified", "changes"):
            if name not in fields:
                raise ValueError("a tombstone without %s" % name)
        del fields["tags"]
        return fields
    for name in ("created", "modified", "sort_position"):
        if name not in fields:
            raise ValueError("%s missing" % name)
    if "received_from" in fields:
        # 0x10: the envelope id (16 bytes), then the sender's key (33).
        if len(fields["received_from"]) != 49:
            raise ValueError("received from: %d bytes" % len(fields["received_from"]))
        parse_compressed_point(fields["received_from"][16:])
    if kind == NOTE:
        for name in ("title", "body"):
            if name not in fields:
                raise ValueError("%s missing" % name)
        return fields
    if kind == CONTACT:
        for name in ("name", "public_key", "verified"):
            if name not in fields:
                raise ValueError("%s missing" % name)
        if not 1 <= len(fields["name"].encode("utf-8")) <= 256:
            raise ValueError("a contact name of %d bytes" % len(fields["name"].encode("utf-8")))
        parse_compressed_point(fields["public_key"])  # section 3's check: 33 bytes, 02 or 03, on the curve
        if fields["verified"] not in (0, 1):
            raise ValueError("verified %d" % fields["verified"])
        fields["verified"] = fields["verified"] == 1
        del fields["tags"]  # a contact has none (0x09 is not among its tags)
        return fields
    for name in ("secret", "otp_kind", "algorithm", "digits"):
        if name not in fields:
            raise ValueError("%s missing" % name)
    if not 1 <= len(fields["secret"]) <= 1024:
        raise ValueError("secret of %d bytes" % len(fields["secret"]))
    if fields["otp_kind"] not in OTP_KINDS:
        raise ValueError("OTP kind %d" % fields["otp_kind"])
    if fields["algorithm"] not in ALGORITHMS:
        raise ValueError("algorithm %d" % fields["algorithm"])
    fields["otp_kind"] = OTP_KINDS[fields["otp_kind"]]
    fields["algorithm"] = ALGORITHMS[fields["algorithm"]]
    for name in ("issuer", "account_name", "note", "icon_reference"):
        fields.setdefault(name, "")
    if fields["otp_kind"] == "hotp":
        if "period" in fields or "counter" not in fields:
            raise ValueError("HOTP needs a counter and no period")
        if not 6 <= fields["digits"] <= 10:
            raise ValueError("%d digits" % fields["digits"])
        return fields
    if "counter" in fields or "period" not in fields:
        raise ValueError("%s needs a period and no counter" % fields["otp_kind"])
    if fields["period"] == 0:
        raise ValueError("period 0")
    if fields["otp_kind"] == "steam":
        if fields["digits"] != 5 or fields["period"] != 30 or fields["algorithm"] != "SHA1":
            raise ValueError("Steam Guard needs SHA1, 5 digits, period 30")
    elif not 6 <= fields["digits"] <= 10:
        raise ValueError("%d digits" % fields["digits"])
    return fields


def decode_changes(value: bytes) -> list:
    """Field 0x11: n x (device (8) || count (u64)), 1 <= n <= 255, devices ascending and distinct
    (as unsigned bytes), every count at least 1."""
    if not value or len(value) % 16:
        raise ValueError("changes of %d bytes, not a non-zero multiple of 16" % len(value))
    if len(value) // 16 > MAX_CHANGE_DEVICES:
        raise ValueError("changes of %d devices, more than 255" % (len(value) // 16))
    changes = []
    for at in range(0, len(value), 16):
        device, count = value[at:at + 8], int.from_bytes(value[at + 8:at + 16], "big")
        if count == 0:
            raise ValueError("changes: a device with count 0")
        if changes and not changes[-1][0] < device:
            raise ValueError("changes: devices out of order or repeated")
        changes.append((device, count))
    return changes


def encode_changes(changes) -> bytes:
    return b"".join(device + struct.pack(">Q", count) for device, count in changes)


def encode_fields(entries) -> bytes:
    """(tag, value bytes) pairs as written, in the given order (tests break the rules on purpose)."""
    return b"".join(bytes([tag]) + struct.pack(">I", len(value)) + value for tag, value in entries)


def fields_entries(plaintext: bytes):
    entries, offset = [], 0
    while offset < len(plaintext):
        tag, length = plaintext[offset], int.from_bytes(plaintext[offset + 1:offset + 5], "big")
        entries.append((tag, plaintext[offset + 5:offset + 5 + length]))
        offset += 5 + length
    return entries


# ---------------------------------------------------------------------------
# The test driver.

class Failure(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


def expect_equal(ours, theirs, what: str) -> None:
    if ours != theirs:
        raise Failure("%s: expected %r, got %r" % (what, ours, theirs))


def expect_refused(action, kinds, steps, what: str) -> VaultError:
    try:
        action()
    except VaultError as error:
        if error.kind not in kinds or error.step not in steps:
            raise Failure("%s: refused as %s, expected %s at step %s" % (what, error, kinds, steps))
        return error
    raise Failure("%s: accepted, must be refused" % what)


def self_check() -> None:
    """The reader must reproduce every worked example of docs/FORMAT.md first."""
    # Section 1, vector 1, and every key pair of tests/data/keychain/vectors.json.
    chain = Keychain("abandon " * 11 + "about")
    expect_equal("48a637680eea7fd2b3deafcc5d2c7c8cdd0a9524fb73ed1039f1698d7963985b",
                 "%064x" % chain.version1_recovery.secret, "section 1 version-1 recovery secret")
    expect_equal("02dd44b228d37cb24a1c97873e950ee92964dd5267f30ea69c70a7b1ce08184ad1",
                 chain.version1_recovery.public.hex(), "section 1 version-1 recovery public key")
    expect_equal("b6a79004c974aac18521676f57ecc89012d9f5b9d0516ad0b1efe7b6be1d04ba",
                 "%064x" % chain.recovery.secret, "section 1 recovery secret")
    expect_equal("038c57db34e731b282e67c26834db2e1b9f68117a6f45b32e750430f8263e91f85",
                 chain.recovery.public.hex(), "section 1 recovery public key")
    expect_equal("bdc0a7be6d051beb8f7b26421bc0e46771e0387512461fda9d1524d71080018e",
                 "%064x" % chain.sharing.secret, "section 1 sharing secret")
    expect_equal("03ff42cfd942841e0cb79a15922820861dcc16216ae648a37d3659d3113d2514fc",
                 chain.sharing.public.hex(), "section 1 sharing public key")
    expect_equal("95eb33c09f959001ba1ebd473232086694acdabad733f87203e466dc4ff693f2",
                 chain.recovery_wrapping_key.hex(), "section 1 recovery wrapping key")
    expect_equal(entropy_mnemonic(bytes(16)), chain.mnemonic, "section 1 mnemonic")
    with open(KEYCHAIN_VECTORS, encoding="utf-8") as handle:
        keychain_vectors = json.load(handle)
    for vector in keychain_vectors["vectors"]:
        chain = Keychain(vector["mnemonic"], bytes.fromhex(vector["passphrase_utf8"]).decode("utf-8"))
        what = "keychain vector %r" % vector["name"]
        expect_equal(vector["seed"], chain.seed.hex(), what + " seed")
        for name, pair in (("identity", chain.version1_recovery), ("recovery", chain.recovery),
                           ("sharing", chain.sharing)):
            expect_equal(vector[name + "_secret_key"], "%064x" % pair.secret, "%s %s secret" % (what, name))
            expect_equal(vector[name + "_public_key"], pair.public.hex(), "%s %s public key" % (what, name))
        expect_equal(vector["recovery_wrapping_key"], chain.recovery_wrapping_key.hex(),
                     what + " recovery wrapping key")
    # Section 2, vector 2 and the empty example.
    envelope = Envelope(bytes(range(32)))
    expect_equal("e9562554e3cd1efee91aa1d9ef5b85196c9a630f82c6e199f0030259df302142",
                 envelope.ke.hex(), "section 2 Ke")
    expect_equal("b987d1ac83768da4fd842ba83526da33aa589ba047230934d2ff0a5b1445e0eb",
                 envelope.ka.hex(), "section 2 Ka")
    iv = bytes.fromhex("f0e1d2c3b4a5968778695a4b3c2d1e0f")
    sealed = envelope.seal(b"0123456789abcdef", b"record:7 version:3", iv)
    expect_equal("f0e1d2c3b4a5968778695a4b3c2d1e0f9cdd80f851c6325b404bad0a26add03b353f00afeadca8addfd472cb7d703c9c"
                 "5f597c062b880c5391763f7727c9abeaf7f91d45224f1160e3719528a5c1e393", sealed.hex(), "section 2 sealed")
    expect_equal(b"0123456789abcdef", envelope.open(sealed, b"record:7 version:3"), "section 2 opened")
    empty = bytes.fromhex("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf7532cb44d82610920682a0523c8dbe4d"
                          "376a5b856ba7f893bd0c17ca967fa4c7cc0235dc29a17d8548b422e58ec422ec")
    expect_equal(b"", envelope.open(empty, b""), "section 2 empty")
    for bad_ad in (b"record:7 version:4", b"x"):
        try:
            envelope.open(sealed, bad_ad)
            raise Failure("section 2: a wrong AD opened")
        except EnvelopeError as error:
            expect_equal("authentication failed", error.kind, "section 2 wrong AD")
    # Section 3.
    recipient = ec.derive_private_key(0x0570eaa895fabf65ddbc11820af0fac0fa94303b2bf5f5eecff339555611bff0,
                                      ec.SECP256K1())
    e_pub = bytes.fromhex("029117e047baa99d517ebd00c2f6b7f322da177ec5e049641b6f8c07260badc6b3")
    shared = recipient.exchange(ec.ECDH(), parse_compressed_point(e_pub))
    expect_equal("047c525cb9aff3cd951a196b6fdddb349c1c62305405d4d4a52ca0c0d2c6f132", shared.hex(), "section 3 shared")
    expect_equal("e56ae9de5c4667e54d8cc6fce554d8f486f50b56dad8396dc65ee76c654461c7",
                 note_key(shared, e_pub, compressed(recipient.public_key())).hex(), "section 3 note key")
    # Section 4: RFC 4226 / 6238 and the Steam value cross_check.py uses.
    expect_equal("755224", hotp(b"12345678901234567890", 0, "SHA1", 6), "RFC 4226")
    expect_equal("47863826", totp((b"1234567890" * 7)[:64], 20000000000, 30, "SHA512", 8), "RFC 6238")
    expect_equal("747JR", steam(bytes.fromhex("4c7225f3e265eae831afcc745fa79132"), 1700000000), "Steam")
    # Section 6.7: the whole file, with the password and with the phrase.
    with open(VAULT_VECTORS, encoding="utf-8") as handle:
        vectors = json.load(handle)
    vault = Vault(bytes.fromhex(vectors["file_hex"]))
    expect_equal("6363db3f7a77f3199868043cecac2f82", vault.vault_id.hex(), "section 6.7 vault id")
    expect_equal((1, [PASSWORD_SLOT, RECOVERY_SLOT_V1], RECOVERY_KIND_V1, None),
                 (vault.format_version, vault.slot_order, vault.recovery_kind, vault.sharing_public),
                 "section 6.7: version 1, a password and a version-1 recovery slot")
    phrase_keys = Keychain(vectors["recovery_mnemonic"])
    expect_equal((vectors["recovery_public_key"], vectors["recovery_public_key"]),
                 (phrase_keys.version1_recovery.public.hex(), vault.recovery_r.hex()),
                 "section 6.7 R: the phrase's version-1 recovery key")
    expect(phrase_keys.recovery.public != vault.recovery_r, "section 6.7: R is not the phrase's recovery key")
    expect_equal("DA30 2939 EB46 62CC DCEB", recovery_fingerprint(vault.recovery_r), "section 6.8 fingerprint")
    expect_equal(("0000000000000001", 1767225600, 1767229200, 4, 600000, 1000, 9400000),
                 (vault.data[28:36].hex(), vault.created, vault.modified, vault.record_count,
                  vault.iterations, vault.target_ms, vault.rate), "section 6.7 header and slot")
    expect_equal("7c52761cc4410a7f650578c51ee111b8a6f35ce1f23d785f1557e654fd9c7009", vault.manifest.hex(),
                 "section 6.7 manifest")
    expect_equal("94b4ac3c828812f9333b2a6a5f4389faf60c37eddb358bfcea0e291b0827c407", vault.checksum.hex(),
                 "section 6.7 checksum")
    password = unicodedata.normalize("NFKD", "correct horse battery staple \u2713 \u00c5ngstr\u00f6m")
    expect_equal(vectors["password_hex"], password.encode("utf-8").hex(), "section 6.7 password")
    expect_equal("d2b6dd7cd1a253c59da0893d6e8aff9ae80aed0577940cee120106a76950144e",
                 vault.password_kek(password).hex(), "section 6.7 password KEK")
    by_password = vault.master_key_from_password(password)
    by_phrase = vault.master_key_from_phrase(vectors["recovery_mnemonic"])
    expect_equal("441e1c8f51fb1195930565d37c863e2abb883f46bd6fbfb2589ec32c1fddb01c", by_password.hex(),
                 "section 6.7 M by password")
    expect_equal(by_password, by_phrase, "section 6.7 M by phrase")
    expect_equal("bc35de075fc201d2374be7610ad1fdc7c5fc03ac4278785555d7ae5e4d24c20a",
                 vault.manifest_key(by_password).hex(), "section 6.7 Km")
    expect_equal("7e1d8ef8a12503c9e70dac83e7cc70d6211e7b607c3b3c9d173796f728db2058",
                 vault.recovery_kek(Keychain(vectors["recovery_mnemonic"])).hex(), "section 6.7 recovery KEK")
    records = vault.open_records(by_password)
    expect(in_written_order(records), "section 6.7 record order")
    expect_equal(vectors["file_order"], [r["id"].hex() for r in records], "section 6.7 file order")
    wanted = {r["id"]: r for r in vectors["records"]}
    for record in records:
        want = wanted[record["id"].hex()]
        got = record["fields"]
        expect_equal(want["fields_hex"], record["plaintext"].hex(), "section 6.7 fields of " + want["id"])
        expect_equal(want["sealed_hex"], record["sealed"].hex(), "section 6.7 sealed " + want["id"])
        for name, value in want.items():
            if name in ("id", "fields_hex", "sealed_hex"):
                continue
            if name == "kind":
                expect_equal(value, "account" if record["kind"] == ACCOUNT else "note", "6.7 kind")
            elif name == "secret_hex":
                expect_equal(value, got["secret"].hex(), "6.7 secret")
            elif value is None or (name in ("note", "icon_reference") and value == ""):
                expect(got.get(name, "") in (None, ""), "6.7 %s: %r should be absent" % (name, got.get(name)))
            else:
                expect_equal(value, got[name], "section 6.7 %s of %s" % (name, want["id"]))


def assemble(version: int, vault_id: bytes, generation: int, created: int, modified: int, slots,
             records: bytes, record_count: int, km: bytes) -> bytes:
    """A whole file: the header, the (type, body) slots in the order given, the records' bytes, then
    the manifest under km and the checksum."""
    header = (MAGIC + struct.pack(">HH", version, HEADER_LENGTH) + vault_id
              + struct.pack(">QqqIB", generation, created, modified, record_count, len(slots)) + bytes(7))
    body = header + b"".join(bytes([t]) + struct.pack(">H", len(b)) + b for t, b in slots) + records
    return fix_manifest(bytearray(body + bytes(64)), km)


def insert_changes(plaintext: bytes, changes) -> bytes:
    """A record's fields with field 0x11 put in its place (after the tags below 0x11, before 0x21 or 0x31)."""
    entries = [(t, v) for t, v in fields_entries(plaintext) if t != 0x11]
    below = [(t, v) for t, v in entries if t < 0x11]
    return encode_fields(below + [(0x11, encode_changes(changes))] + entries[len(below):])


def self_check_examples(path: str, version: int) -> bool:
    """The worked examples of version 2 (tests/data/vault/vectors_v2.json) or version 3
    (vectors_v3.json), if there: the reader opens them (the slots, every record and, in version 3,
    the tombstone and the sync slot), and writes them again byte for byte from their random bytes (a
    new vault, with a deleted record in version 3, and the version-1 example migrated). False if the
    file is not there."""
    assert version in (2, 3)
    if not os.path.exists(path):
        return False
    with open(path, encoding="utf-8") as handle:
        vectors = json.load(handle)
    with open(VAULT_VECTORS, encoding="utf-8") as handle:
        version1 = json.load(handle)
    password = bytes.fromhex(vectors["password_hex"])
    keychain = Keychain(vectors["recovery_mnemonic"])
    device = bytes.fromhex(vectors["device"]) if version == 3 else None
    what = "version %d example: " % version
    vault = Vault(bytes.fromhex(vectors["file_hex"]))
    slot_types = [PASSWORD_SLOT, RECOVERY_SLOT, IDENTITY_SLOT] + ([SYNC_SLOT] if version == 3 else [])
    expect_equal((version, slot_types, RECOVERY_KIND_CURRENT),
                 (vault.format_version, vault.slot_order, vault.recovery_kind), what + "slots")
    slot_names = {PASSWORD_SLOT: "password_slot", RECOVERY_SLOT: "recovery_slot", IDENTITY_SLOT: "identity_slot",
                  SYNC_SLOT: "sync_slot"}
    expect_equal([vectors["header"]] + [vectors[slot_names[t]] for t in slot_types],
                 [vault.header.hex()] + [vault.slots[t].hex() for t in slot_types], what + "header and slots")
    # Version 3's example has five records, one of them deleted (a tombstone), and a sync slot.
    record_count, slot_count = (4, 3) if version == 2 else (5, 4)
    expect_equal((1, vectors["created"], vectors["saved"], record_count, slot_count),
                 (vault.generation, vault.created, vault.modified, vault.record_count, vault.slot_count),
                 what + "generation, times, %d records, %d slots" % (record_count, slot_count))
    if version == 3:
        expect_equal({"last_writer": device, "key_made": vectors["saved"], "key_device": device,
                      "writers": [(device, 1)]}, vault.sync, what + "the sync slot")
    expect_equal((vectors["recovery_public_key"], vectors["sharing_public_key"]),
                 (keychain.recovery.public.hex(), keychain.sharing.public.hex()), what + "R and S")
    expect_equal((keychain.recovery.public, keychain.sharing.public), (vault.recovery_r, vault.sharing_public),
                 what + "R and S in the file")
    expect_equal(vectors["password_kek"], vault.password_kek(password).hex(), what + "password KEK")
    master = vault.master_key_from_password(password)
    expect_equal(vectors["master_key"], master.hex(), what + "M")
    expect_equal(master, vault.master_key_from_phrase(vectors["recovery_mnemonic"]), what + "M by phrase")
    expect_equal(vectors["ephemeral_public_key"], vault.recovery_e.hex(), what + "E")
    expect_equal(vectors["recovery_kek"], vault.recovery_kek(keychain).hex(), what + "recovery KEK")
    expect_equal(vectors["identity_key"], identity_key(master).hex(), what + "KI")
    expect_equal(vectors["manifest_key"], vault.manifest_key(master).hex(), what + "Km")
    expect_equal((vectors["manifest"], vectors["checksum"]), (vault.manifest.hex(), vault.checksum.hex()),
                 what + "manifest and checksum")
    records = vault.open_records(master)
    expect_equal(keychain.sharing.secret, vault.sharing_secret_key, what + "the sharing secret")
    expect(in_written_order(records), what + "the live records in (sort position, id) order, then the tombstones")
    expect_equal(vectors["file_order"], [r["id"].hex() for r in records], what + "file order")
    wanted = {r["id"]: r for r in vectors["records"]}
    live, dead = vault.live(records), vault.tombstones(records)
    expect_equal((4, 0 if version == 2 else 1), (len(live), len(dead)), what + "four records and the tombstones")
    for record in live:
        want = wanted[record["id"].hex()]
        expect_equal((want["fields_hex"], want["sealed_hex"], 1),
                     (record["plaintext"].hex(), record["sealed"].hex(), record["version"]),
                     what + "record " + want["id"])
        if version == 2:
            expect("changes" not in record["fields"], what + "changes in a version-2 record")
            continue
        expect(not want["deleted"], what + "a deleted record is live")
        expect_equal([(device, 1)], record["fields"]["changes"], what + "one change of the device in " + want["id"])
        expect_equal(want["changes"], [{"device": d.hex(), "count": c} for d, c in record["fields"]["changes"]],
                     what + "changes of " + want["id"])
    if version == 3:
        deleted = [r for r in vectors["records"] if r["deleted"]]
        expect_equal([vectors["records"][-1]["id"]], [r["id"] for r in deleted], what + "the last record added deleted")
        tombstone, want = dead[0], vectors["tombstones"][0]
        expect_equal((deleted[0]["id"], 2, TOMBSTONE, {"modified": vectors["saved"], "changes": [(device, 2)]}),
                     (tombstone["id"].hex(), tombstone["version"], tombstone["kind"], tombstone["fields"]),
                     what + "the tombstone: version 2, deleted at the save, two changes")
        expect_equal((want["id"], want["version"], want["kind"], want["deleted"], want["fields_hex"],
                      want["sealed_hex"]),
                     (tombstone["id"].hex(), tombstone["version"], tombstone["kind"], tombstone["fields"]["modified"],
                      tombstone["plaintext"].hex(), tombstone["sealed"].hex()), what + "the tombstone as listed")
    # The recovery slot's own label and AD: the note key's label, or AD type 2, do not open it.
    shared = keychain.recovery.private_key.exchange(ec.ECDH(), parse_compressed_point(vault.recovery_e))
    for label, kek, slot_type in [("the note key's label", note_key(shared, vault.recovery_e, vault.recovery_r),
                                   RECOVERY_SLOT),
                                  ("AD type 2", vault.recovery_kek(keychain), RECOVERY_SLOT_V1)]:
        try:
            Envelope(kek).open(vault.recovery_wrapped, vault._slot_ad(slot_type))
            raise Failure(what + "the recovery slot opens with " + label)
        except EnvelopeError as error:
            expect_equal("authentication failed", error.kind, what + "the recovery slot with " + label)

    # Written again from its random bytes, in the order of random_order.
    random = bytes.fromhex(vectors["random_hex"])
    used = 0

    def draw(n):
        nonlocal used
        used += n
        return random[used - n:used]
    vault_id, m, salt, password_iv, e, recovery_iv, identity_iv = (draw(n) for n in (16, 32, 32, 16, 32, 16, 16))
    record_ids = [draw(16).hex() for _ in vectors["records"]]
    expect_equal([r["id"] for r in vectors["records"]], record_ids, what + "record ids as drawn")
    record_ivs = [draw(16) for _ in vectors["file_order"]]  # the live records', then the tombstones'
    expect_equal(len(random), used, what + "every random byte drawn")
    expect_equal((vault_id, m), (vault.vault_id, master), what + "vault id and M as drawn")
    ad = lambda slot_type: SLOT_AD + vault_id + bytes([slot_type])
    password_slot = (b"\x01" + struct.pack(">I", vectors["iterations"]) + salt
                     + struct.pack(">IQ", vectors["target_milliseconds"], vectors["iterations_per_second"])
                     + Envelope(vault.password_kek(password)).seal(m, ad(PASSWORD_SLOT), password_iv))
    ephemeral = ec.derive_private_key(int.from_bytes(e, "big"), ec.SECP256K1())
    e_pub = compressed(ephemeral.public_key())
    expect_equal(vectors["ephemeral_public_key"], e_pub.hex(), what + "E as drawn")
    shared = ephemeral.exchange(ec.ECDH(), parse_compressed_point(keychain.recovery.public))
    expect_equal(vectors["recovery_shared_x"], shared.hex(), what + "shared x")
    recovery_slot = (bytes([RECOVERY_KIND_CURRENT]) + keychain.recovery.public + e_pub
                     + Envelope(recovery_slot_kek(shared, e_pub, keychain.recovery.public)).seal(
                         m, ad(RECOVERY_SLOT), recovery_iv))
    identity_slot = keychain.sharing.public + Envelope(identity_key(m)).seal(
        keychain.sharing.secret.to_bytes(32, "big"), ad(IDENTITY_SLOT), identity_iv)
    slots = [(PASSWORD_SLOT, password_slot), (RECOVERY_SLOT, recovery_slot), (IDENTITY_SLOT, identity_slot)]
    if version == 3:
        slots.append((SYNC_SLOT, encode_sync_slot(device, vectors["saved"], device, [(device, 1)])))
    # The live records' fields: the version-1 example's (the same inputs, added in the same order),
    # in version 3 with field 0x11 in its place; sealed in file order, then the tombstones.
    plaintexts = {new["id"]: bytes.fromhex(old["fields_hex"])
                  for new, old in zip(vectors["records"], version1["records"])}
    if version == 3:
        plaintexts = {record_id: insert_changes(plaintext, [(device, 1)])
                      for record_id, plaintext in plaintexts.items()}
    kinds = {r["id"]: ACCOUNT if r["kind"] == "account" else NOTE for r in vectors["records"]}
    body = b""
    for record_id, iv in zip(vectors["file_order"][:len(live)], record_ivs):
        record = {"id": bytes.fromhex(record_id), "version": 1, "kind": kinds[record_id]}
        sealed = Envelope(m).seal(plaintexts[record_id], record_ad(vault_id, record), iv)
        body += record["id"] + struct.pack(">QBI", 1, record["kind"], len(sealed)) + sealed
    for record_id, iv in zip(vectors["file_order"][len(live):], record_ivs[len(live):]):
        dead_id = bytes.fromhex(record_id)
        dead_fields = encode_fields([(0x0D, struct.pack(">q", vectors["saved"])),
                                     (0x11, encode_changes([(device, 2)]))])
        sealed = Envelope(m).seal(dead_fields, record_ad(vault_id, {"id": dead_id, "version": 2, "kind": TOMBSTONE}),
                                  iv)
        body += dead_id + struct.pack(">QBI", 2, TOMBSTONE, len(sealed)) + sealed
    written = assemble(version, vault_id, 1, vectors["created"], vectors["saved"], slots, body,
                       len(vectors["file_order"]), hkdf_sha256(m, MANIFEST_INFO))
    expect_equal(vectors["file_hex"], written.hex(), what + "written again")

    # The migration: the version-1 example saved again as this version (in version 3 by the device).
    what = "version %d migration example: " % version
    old = Vault(bytes.fromhex(version1["file_hex"]))
    master = old.master_key_from_password(password)
    random = bytes.fromhex(vectors["migration_random_hex"])
    expect_equal(48, len(random), what + "random bytes")
    ephemeral = ec.derive_private_key(int.from_bytes(random[:32], "big"), ec.SECP256K1())
    e_pub = compressed(ephemeral.public_key())
    expect_equal(vectors["migrated_ephemeral_public_key"], e_pub.hex(), what + "E")
    shared = ephemeral.exchange(ec.ECDH(), parse_compressed_point(old.recovery_r))
    expect_equal(vectors["migrated_recovery_shared_x"], shared.hex(), what + "shared x")
    kek = recovery_slot_kek(shared, e_pub, old.recovery_r)
    expect_equal(vectors["migrated_recovery_kek"], kek.hex(), what + "recovery KEK")
    recovery_slot = (bytes([RECOVERY_KIND_V1]) + old.recovery_r + e_pub
                     + Envelope(kek).seal(master, old._slot_ad(RECOVERY_SLOT), random[32:48]))
    slots = [(PASSWORD_SLOT, old.slots[PASSWORD_SLOT]), (RECOVERY_SLOT, recovery_slot)]
    if version == 3:  # the key was not made by this writer: no key maker
        slots.append((SYNC_SLOT, encode_sync_slot(device, 0, bytes(8), [(device, old.generation + 1)])))
    written = assemble(version, old.vault_id, old.generation + 1, old.created, vectors["migrated_at"], slots,
                       old.data[old.records_start:old.body_end], old.record_count, old.manifest_key(master))
    expect_equal(vectors["migrated_file_hex"], written.hex(), what + "written again")
    migrated = Vault(written)
    expect_equal((version, 2, [PASSWORD_SLOT, RECOVERY_SLOT] + ([SYNC_SLOT] if version == 3 else []),
                  RECOVERY_KIND_V1, vectors["migrated_recovery_public_key"], None),
                 (migrated.format_version, migrated.generation, migrated.slot_order, migrated.recovery_kind,
                  migrated.recovery_r.hex(), migrated.sharing_public), what + "slots")
    names = ["migrated_header", "migrated_recovery_slot", "migrated_manifest", "migrated_checksum"]
    theirs = [migrated.header.hex(), migrated.slots[RECOVERY_SLOT].hex(), migrated.manifest.hex(),
              migrated.checksum.hex()]
    if version == 3:
        expect_equal({"last_writer": device, "key_made": 0, "key_device": bytes(8), "writers": [(device, 2)]},
                     migrated.sync, what + "the sync slot: no key maker, the device wrote generation 2")
        names.insert(2, "migrated_sync_slot")
        theirs.insert(2, migrated.slots[SYNC_SLOT].hex())
    expect_equal([vectors[name] for name in names], theirs,
                 what + "header, recovery slot, %smanifest, checksum" % ("sync slot, " if version == 3 else ""))
    expect_equal(master, migrated.master_key_from_password(password), what + "M by password")
    expect_equal(master, migrated.master_key_from_phrase(version1["recovery_mnemonic"]), what + "M by phrase")
    opened = migrated.open_records(master)
    expect_equal([(r["id"], r["version"], r["kind"], r["sealed"], r["plaintext"]) for r in old.open_records(master)],
                 [(r["id"], r["version"], r["kind"], r["sealed"], r["plaintext"]) for r in opened],
                 what + "the records byte for byte")
    expect(all("changes" not in r["fields"] for r in opened), what + "records without changes")
    return True


def run(args, stdin: str = "", check: bool = True, env: dict = None):
    result = subprocess.run(args, input=stdin.encode("utf-8"), capture_output=True, timeout=120, env=env)
    out, err = result.stdout.decode("utf-8"), result.stderr.decode("utf-8", "replace")
    if check and result.returncode != 0:
        raise Failure("%s failed (exit %d): %s" % (" ".join(args[1:3]), result.returncode, err.strip()))
    return result.returncode, out, err


def label_quote(text: str) -> str:
    return urllib.parse.quote(text, safe="@")


def build_uri(account: dict) -> str:
    label = label_quote(account["account_name"])
    if account.get("label_issuer"):
        label = label_quote(account["label_issuer"]) + ":" + label
    params = [("secret", base64.b32encode(account["secret"]).decode().rstrip("="))]
    if account.get("issuer_param"):
        params.append(("issuer", account["issuer_param"]))
    if account["otp_kind"] != "steam":
        params += [("algorithm", account["algorithm"]), ("digits", str(account["digits"]))]
        if account["otp_kind"] == "totp":
            params.append(("period", str(account["period"])))
        else:
            params.append(("counter", str(account["counter"])))
    params += account.get("extra", [])
    kind = "totp" if account.get("encoder_steam") else account["otp_kind"]
    if account.get("encoder_steam"):
        params.append(("encoder", "steam"))
    return "otpauth://%s/%s?%s" % (kind, label, urllib.parse.urlencode(params, quote_via=urllib.parse.quote))


def test_accounts() -> list:
    """Every OTP kind, algorithm and a spread of digits, periods and counters."""
    s = secrets.token_bytes
    return [
        dict(name="totp-sha1", otp_kind="totp", algorithm="SHA1", digits=6, period=30, secret=s(20),
             label_issuer="Exämple Bänk", issuer_param="Exämple Bänk", issuer="Exämple Bänk",
             account_name="alïce@example.com"),
        dict(name="totp-sha256", otp_kind="totp", algorithm="SHA256", digits=8, period=60, secret=s(32),
             label_issuer="Ελληνικά", issuer="Ελληνικά", account_name="βήτα user",
             extra=[("image", "https://example.com/λογότυπο.png")], icon="https://example.com/λογότυπο.png"),
        dict(name="totp-sha512", otp_kind="totp", algorithm="SHA512", digits=10, period=17, secret=s(64),
             issuer_param="日本語 🔐", issuer="日本語 🔐", account_name="", extra=[("tag", "work")]),
        dict(name="totp-7", otp_kind="totp", algorithm="SHA1", digits=7, period=1, secret=s(1),
             issuer="", account_name="solo"),
        dict(name="hotp-sha1", otp_kind="hotp", algorithm="SHA1", digits=6, counter=5, secret=s(10),
             label_issuer="Counter Co", issuer="Counter Co", account_name="hotp one"),
        dict(name="hotp-sha512", otp_kind="hotp", algorithm="SHA512", digits=9, counter=2 ** 40 + 7,
             secret=s(40), issuer_param="Zähler", issuer="Zähler", account_name="zwei"),
        dict(name="steam", otp_kind="steam", algorithm="SHA1", digits=5, period=30, secret=s(20),
             issuer_param="Steam", issuer="Steam", account_name="gämer"),
        dict(name="steam-encoder", otp_kind="steam", algorithm="SHA1", digits=5, period=30, secret=s(20),
             encoder_steam=True, label_issuer="Valve", issuer="Valve", account_name="keepass"),
        dict(name="removed", otp_kind="totp", algorithm="SHA256", digits=6, period=30, secret=s(16),
             issuer="Gone", issuer_param="Gone", account_name="soon removed"),
    ]


NOTE_TITLE = "Notizen — Zugänge ✓"
NOTE_BODY = "Zeile eins: Grüße aus Köln\r\nzweite Zeile — ½ ﬁ\n\tdritte: 日本 🔑\n\n"
CODE_TIMES = [59, 1111111109, 1234567890, 2000000000, 4102444800]
RECOVERED_PASSWORD = "nach der Wiederherstellung: Ω ﬁ ✓ 42"


class CliVault:
    def __init__(self, cli: str, path: str, env: dict = None):
        """env: the environment watchword-cli runs in (None: this one), so another device's configuration."""
        self.cli, self.path, self.env = cli, path, env
        self.saves = 0

    def __call__(self, *args, stdin="", check=True):
        return run([self.cli, "vault"] + [args[0], self.path] + list(args[1:]), stdin, check, self.env)

    def mutate(self, *args, stdin=""):
        result = self(*args, stdin=stdin)
        self.saves += 1
        return result


def read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def write(path: str, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)


def recovery_fingerprint(r: bytes) -> str:
    """Section 6.8: SHA-256 over the label and R, 10 bytes, groups of four."""
    digits = hashlib.sha256(b"watchword/vault/v1 recovery fingerprint" + r).digest()[:10].hex().upper()
    return " ".join(digits[i:i + 4] for i in range(0, 20, 4))


def make_vault(cli: str, directory: str, name: str, password: str, words=None):
    vault = CliVault(cli, os.path.join(directory, name))
    args = ["init", "--target-ms", "1", "--password-stdin"]
    if words:
        args += ["--words", str(words)]
    _, out, _ = vault.mutate(*args, stdin=password + "\n")
    phrase, vault.fingerprint = printed_phrase(out, "init")
    return vault, phrase


def printed_phrase(out: str, what: str):
    """The recovery phrase and its fingerprint, as init and --new-phrase print them."""
    phrases = [line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("recovery phrase:")]
    expect_equal(1, len(phrases), what + " printed one recovery phrase")
    prints = [line.split(":", 1)[1].strip() for line in out.splitlines()
              if line.startswith("recovery key fingerprint:")]
    expect_equal(1, len(prints), what + " printed one recovery key fingerprint")
    return phrases[0], prints[0]


def check_new_slots(vault: Vault, keychain: Keychain, master: bytes, what: str, device: bytes,
                    kind: int = RECOVERY_KIND_CURRENT) -> None:
    """What a version-3 writer writes once it has the phrase (init, recover, --new-phrase):
    password, recovery (kind 2, R = the recovery key; a vault first written as version 1 keeps
    kind 1, R = the version-1 recovery key, until a new phrase), identity (S = the sharing key) and
    sync slots; each of these saves made M, so the sync slot says device made it at this save."""
    expect_equal(3, vault.format_version, what + ": format version")
    expect_equal([PASSWORD_SLOT, RECOVERY_SLOT, IDENTITY_SLOT, SYNC_SLOT], vault.slot_order,
                 what + ": slots in order")
    expect_equal(kind, vault.recovery_kind, what + ": recovery slot kind")
    expect_equal(keychain.recovery_key(kind).public.hex(), vault.recovery_r.hex(),
                 what + ": R is the phrase's key of the slot's kind")
    expect_equal(keychain.sharing.public.hex(), vault.sharing_public.hex(), what + ": S is the phrase's sharing key")
    expect_equal(keychain.sharing.secret, vault.sharing_secret(master), what + ": s is the phrase's sharing secret")
    try:
        parse_compressed_point(vault.recovery_e)
    except ValueError as error:
        raise Failure("%s: E is not a point: %s" % (what, error))
    check_sync(vault, device, what, key_made=vault.modified, key_device=device)


def check_sync(vault: Vault, device: bytes, what: str, key_made: int = None, key_device: bytes = None,
               writers=None) -> None:
    """The sync slot a save by device leaves (sections 6.6 and 13): device is the last writer and the
    writer of this generation; key made, key device and all the writers as given (None: not checked)."""
    expect(SYNC_SLOT in vault.slots, what + ": no sync slot")
    sync = vault.sync
    expect_equal(device.hex(), sync["last_writer"].hex(), what + ": the sync slot's last writer")
    expect((device, vault.generation) in sync["writers"],
           "%s: the sync slot's writers %r lack this device at generation %d"
           % (what, [(d.hex(), g) for d, g in sync["writers"]], vault.generation))
    if key_made is not None:
        expect_equal((key_made, key_device.hex()), (sync["key_made"], sync["key_device"].hex()),
                     what + ": the sync slot's key made and key device")
    if writers is not None:
        expect_equal([(d.hex(), g) for d, g in writers], [(d.hex(), g) for d, g in sync["writers"]],
                     what + ": the sync slot's writers")


def count_writer(writers, device: bytes, generation: int) -> list:
    """The sync slot's writers after device wrote generation (section 13)."""
    counts = dict(writers)
    counts[device] = max(counts.get(device, 0), generation)
    return sorted(counts.items())


def count_change(changes, device: bytes) -> list:
    """One more change by device (section 13): its count + 1, or a new pair in device order."""
    counts = dict(changes)
    counts[device] = counts.get(device, 0) + 1
    return sorted(counts.items())


def check_phrase(cli: str, path: str, phrase: str) -> int:
    """vault check-phrase's exit status (0: the phrase opens the vault, 1: it does not)."""
    return run([cli, "vault", "check-phrase", path, "--password-stdin"], phrase + "\n", check=False)[0]


def rebuild(vault: Vault, km: bytes, slots, version: int = None) -> bytes:
    """vault's file with the given (type, body) slots, the slot count (and version) to match,
    the same records, the manifest and checksum fixed up."""
    header = bytearray(vault.header)
    header[56] = len(slots)
    if version is not None:
        header[8:10] = struct.pack(">H", version)
    body = bytes(header) + b"".join(bytes([t]) + struct.pack(">H", len(b)) + b for t, b in slots)
    return fix_manifest(bytearray(body + vault.data[vault.records_start:vault.body_end] + bytes(64)), km)


def wrap_recovery(vault: Vault, master: bytes, kind: int, r_pub: bytes, info: bytes = None,
                  ad_type: int = RECOVERY_SLOT) -> bytes:
    """A version-2 recovery slot body wrapping master to r_pub (for a test: the label and AD may be wrong)."""
    while True:
        e = int.from_bytes(secrets.token_bytes(32), "big")
        if 0 < e < SECP256K1_N:
            break
    ephemeral = ec.derive_private_key(e, ec.SECP256K1())
    e_pub = compressed(ephemeral.public_key())
    shared = ephemeral.exchange(ec.ECDH(), parse_compressed_point(r_pub))
    kek = hkdf_sha256(shared, RECOVERY_KEK_INFO if info is None else info, salt=e_pub + r_pub)
    return bytes([kind]) + r_pub + e_pub + Envelope(kek).seal(master, vault._slot_ad(ad_type))


def seal_identity(vault: Vault, master: bytes, secret: bytes, s_pub: bytes, key: bytes = None,
                  ad_type: int = IDENTITY_SLOT, padded: bool = False) -> bytes:
    """An identity slot body: s_pub || secret sealed under KI (for a test: the key, AD or padding may be wrong)."""
    key = identity_key(master) if key is None else key
    return s_pub + Envelope(key).seal(secret, vault._slot_ad(ad_type), padded=padded)


def check_record_fields(record: dict, account: dict, started: int, finished: int, device: bytes) -> None:
    got = record["fields"]
    what = "record %s (%s)" % (record["id"].hex(), account["name"])
    expect_equal(ACCOUNT, record["kind"], what + " kind")
    # Added (version 1, one change) and never changed, by the one device.
    expect_equal((1, [(device, 1)]), (record["version"], got.get("changes")), what + " version and changes")
    for name in ("otp_kind", "algorithm", "digits", "secret", "issuer", "account_name"):
        expect_equal(account[name], got[name], "%s %s" % (what, name))
    expect_equal(account.get("period"), got.get("period"), what + " period")
    expect_equal(account.get("counter"), got.get("counter"), what + " counter")
    expect_equal([], got["tags"], what + " tags")  # the URI form carries none
    # image= is kept as the icon reference (docs/FORMAT.md section 5), as text.
    expect_equal(("", account.get("icon", "")), (got["note"], got["icon_reference"]), what + " note, icon")
    expect("last_used" not in got, what + " was never used, yet has last used %r" % got.get("last_used"))
    expect(started <= got["created"] <= got["modified"] <= finished,
           "%s: created %d, modified %d outside the run %d..%d"
           % (what, got["created"], got["modified"], started, finished))


def compare_list(records: list, listed: dict) -> None:
    """vault list shows the accounts and notes; contacts and tombstones never."""
    records = [r for r in records if r["kind"] in (ACCOUNT, NOTE)]
    entries = listed["records"]
    expect_equal(sorted(r["id"].hex() for r in records), sorted(e["id"] for e in entries), "vault list ids")
    by_id = {r["id"].hex(): r for r in records}
    for entry in entries:
        record = by_id[entry["id"]]
        fields = record["fields"]
        for key, value in entry.items():
            if key == "id":
                continue
            elif key == "kind":
                expect_equal("account" if record["kind"] == ACCOUNT else "note", value, "list kind " + entry["id"])
            elif key == "issuer":
                expect_equal(fields["issuer"], value, "list issuer " + entry["id"])
            elif key == "account":
                expect_equal(fields["account_name"], value, "list account " + entry["id"])
            elif key == "type":
                expect_equal(fields["otp_kind"], value, "list type " + entry["id"])
            elif key == "tags":
                expect_equal(fields["tags"], value, "list tags " + entry["id"])
            elif key == "title":
                expect_equal(fields["title"], value, "list title " + entry["id"])
            else:
                raise Failure("vault list --json prints %r, which this test does not know how to check" % key)
        needed = {"id", "kind", "tags"} | ({"issuer", "account", "type"} if record["kind"] == ACCOUNT else {"title"})
        expect(needed <= set(entry), "vault list entry %s lacks %s" % (entry["id"], needed - set(entry)))


def compare_codes(records: list, printed: dict, unix_time: int) -> int:
    expect_equal(unix_time, printed["time"], "vault codes time")
    accounts = {r["id"].hex(): r["fields"] for r in records if r["kind"] == ACCOUNT}
    expect_equal(sorted(accounts), sorted(e["id"] for e in printed["codes"]), "vault codes ids at %d" % unix_time)
    for entry in printed["codes"]:
        fields = accounts[entry["id"]]
        what = "code of %s at %d" % (entry["id"], unix_time)
        expect_equal(record_code(fields, unix_time), entry["code"], what)
        expect_equal(fields["otp_kind"], entry["type"], what + " type")
        expect_equal(fields["issuer"], entry["issuer"], what + " issuer")
        expect_equal(fields["account_name"], entry["account"], what + " account")
        known = {"id", "code", "type", "issuer", "account"}
        if fields["otp_kind"] == "hotp":
            expect_equal(fields["counter"], entry["counter"], what + " counter")
            known |= {"counter"}
        else:
            expect_equal(fields["period"], entry["period"], what + " period")
            expect_equal(fields["period"] - unix_time % fields["period"], entry["seconds_remaining"],
                         what + " seconds remaining")
            known |= {"period", "seconds_remaining"}
        expect(set(entry) == known, "%s: printed keys %s, expected %s" % (what, sorted(entry), sorted(known)))
    return len(printed["codes"])


def flip(data: bytes, offset: int, mask: int = 0x01) -> bytearray:
    changed = bytearray(data)
    changed[offset] ^= mask
    return changed


def fix_checksum(data: bytearray) -> bytes:
    data[-32:] = hashlib.sha256(bytes(data[:-32])).digest()
    return bytes(data)


def fix_manifest(data: bytearray, km: bytes) -> bytes:
    end = len(data) - 64
    data[end:end + 32] = hmac.new(km, bytes(data[:end]), hashlib.sha256).digest()
    return fix_checksum(data)


def replace_record(vault: Vault, master: bytes, index: int, plaintext: bytes, kind: int = None) -> bytes:
    """The file with record `index` sealed again over `plaintext` (as another kind if given, in its
    header and AD), manifest and checksum fixed up."""
    record = dict(vault.records[index])
    if kind is not None:
        record["kind"] = kind
    sealed = Envelope(master).seal(plaintext, record_ad(vault.vault_id, record))
    head = record["id"] + struct.pack(">QBI", record["version"], record["kind"], len(sealed))
    data = bytearray(vault.data[:record["offset"]] + head + sealed + vault.data[record["end"]:])
    return fix_manifest(data, vault.manifest_key(master))


class Driver:
    def __init__(self, cli: str, directory: str, config: str):
        self.cli, self.dir, self.config = cli, directory, config
        self.counts = {"records": 0, "contacts": 0, "codes": 0, "refused": 0, "cli refused": 0}
        self._device = None

    @property
    def device(self) -> bytes:
        """The device watchword-cli counts its changes under (section 13): made on its first write
        and kept in the configuration folder it was given ($XDG_CONFIG_HOME), one file under
        watchword/ holding 16 hex digits (and a newline); never all zero nor the merge device."""
        if self._device is None:
            folder = os.path.join(self.config, "watchword")
            names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
            expect(len(names) == 1, "watchword-cli keeps one device file in %s, found %r" % (folder, names))
            text = read(os.path.join(folder, names[0])).decode("ascii", "replace")
            digits = text[:-1] if text.endswith("\n") else text
            expect(len(digits) == 16 and all(c in "0123456789abcdefABCDEF" for c in digits),
                   "the device file %s holds %r, not 16 hex digits" % (names[0], text))
            device = bytes.fromhex(digits)
            expect(device not in (bytes(8), MERGE_DEVICE), "the CLI's device is %s" % device.hex())
            self._device = device
        return self._device

    def cli_refuses(self, data: bytes, name: str, password: str = None) -> None:
        """watchword-cli must refuse the file too, and leave it as it was."""
        path = os.path.join(self.dir, "bad-%s.wwv" % name)
        write(path, data)
        if password is None:
            args, stdin = [self.cli, "vault", "info", path, "--json"], ""
        else:
            args, stdin = [self.cli, "vault", "list", path, "--json", "--password-stdin"], password + "\n"
        code, out, err = run(args, stdin, check=False)
        expect(code == 1 and out == "", "watchword-cli %s accepted %s (exit %d): %r" % (args[2], name, code, out))
        expect_equal(data, read(path), "watchword-cli left %s unchanged" % name)
        os.remove(path)
        self.counts["cli refused"] += 1

    def refused(self, data: bytes, name: str, kinds, steps, password=None, phrase=None, master=None) -> None:
        def attempt():
            vault = Vault(bytes(data))
            if password is not None:
                vault.open_records(vault.master_key_from_password(password))
            elif phrase is not None:
                vault.open_records(vault.master_key_from_phrase(phrase))
            elif master is not None:
                vault.open_records(master)
        expect_refused(attempt, kinds, steps, name)
        self.counts["refused"] += 1

    def main_vault(self) -> None:
        started = int(time.time())
        old_password = "Erstes Kennwort: Å ﬁ ① ✓"  # NFKD changes Å, ﬁ and ①
        new_password = "zweites Passwort ½ Ω ℌ"
        vault, phrase = make_vault(self.cli, self.dir, "main.wwv", old_password)
        expect(len(phrase.split(" ")) == 24, "init printed %d words" % len(phrase.split(" ")))
        keychain = Keychain(phrase)
        # A new vault is version 3: its recovery slot wraps M to the phrase's
        # recovery key (kind 2), its identity slot holds the phrase's sharing key,
        # its sync slot says that the CLI's device made M and wrote generation 1.
        fresh = Vault(read(vault.path))
        fresh_master = fresh.master_key_from_password(old_password)
        expect_equal(fresh_master, fresh.master_key_from_phrase(phrase), "new vault: M by phrase")
        expect_equal([], fresh.open_records(fresh_master), "new vault: no records")
        check_new_slots(fresh, keychain, fresh_master, "vault init", self.device)
        check_sync(fresh, self.device, "vault init", writers=[(self.device, 1)])
        expect_equal(recovery_fingerprint(fresh.recovery_r), vault.fingerprint, "init's recovery key fingerprint")
        expect_equal(0, check_phrase(self.cli, vault.path, phrase), "vault check-phrase with the phrase")
        accounts = test_accounts()
        ids = {}
        for account in accounts:
            uri = build_uri(account)
            if account["name"] == "totp-sha256":
                _, out, _ = vault.mutate("add", "-", "--password-stdin", stdin="%s\n%s\n" % (old_password, uri))
            else:
                _, out, _ = vault.mutate("add", "--password-stdin", stdin="%s\n%s\n" % (old_password, uri))
            record_id = out.strip()
            expect(len(record_id) == 32 and all(c in "0123456789abcdef" for c in record_id),
                   "vault add printed %r, not an id" % out)
            ids[record_id] = account
        body_path = os.path.join(self.dir, "body.txt")
        write(body_path, NOTE_BODY.encode("utf-8"))
        _, out, _ = vault.mutate("note", "--title", NOTE_TITLE, "--body-file", body_path, "--password-stdin",
                                 stdin=old_password + "\n")
        note_id = out.strip()
        expect(len(note_id) == 32, "vault note printed %r, not an id" % out)
        before_remove = read(vault.path)
        removed = [i for i, a in ids.items() if a["name"] == "removed"][0]
        vault.mutate("remove", removed, "--password-stdin", stdin=old_password + "\n")
        del ids[removed]
        before_passwd = read(vault.path)
        # Every save but init's copied the key's maker from the file it read.
        check_sync(Vault(before_passwd), self.device, "after remove", key_made=fresh.modified,
                   key_device=self.device, writers=[(self.device, vault.saves)])
        _, passwd_out, _ = vault.mutate("passwd", "--password-stdin", stdin="%s\n%s\n" % (old_password, new_password))
        data = read(vault.path)

        # Section 6.6: backups, and what a save keeps.
        expect_equal(before_passwd, read(vault.path + ".1"), "backup .1 is the file before passwd")
        expect_equal(before_remove, read(vault.path + ".2"), "backup .2 is the file before remove")
        self.check_saves(Vault(before_remove), Vault(before_passwd), old_password, removed)

        opened = Vault(data)
        expect_equal(vault.saves, opened.generation, "generation after %d saves" % vault.saves)
        # passwd made M: the sync slot says when, and by this device.
        check_sync(opened, self.device, "after passwd", key_made=opened.modified, key_device=self.device,
                   writers=[(self.device, vault.saves)])
        info = json.loads(vault("info", "--json")[1])
        self.compare_info(opened, info)
        finished = int(time.time())
        expect(started <= opened.created <= opened.modified <= finished,
               "header times %d, %d outside the run" % (opened.created, opened.modified))

        master = opened.master_key_from_password(new_password)
        records = opened.open_records(master)
        expect(in_written_order(records), "records not in (sort position, id) order")
        old = Vault(before_passwd)
        old_master = old.master_key_from_password(old_password)
        expect(old_master != master, "passwd kept M")
        expect_equal([(r["id"], r["version"], r["kind"], r["plaintext"]) for r in old.open_records(old_master)],
                     [(r["id"], r["version"], r["kind"], r["plaintext"]) for r in records],
                     "passwd kept every record's and tombstone's version and fields")
        expect(not {r["sealed"] for r in old.records} & {r["sealed"] for r in opened.records},
               "passwd left a record sealed with the old master key")
        expect_equal(old.vault_id, opened.vault_id, "vault id kept by passwd")
        expect_equal(old.created, opened.created, "created kept by passwd")
        expect(old.salt != opened.salt, "passwd kept the salt")
        expect_equal(old.recovery_r, opened.recovery_r, "passwd kept R")
        expect_equal(old.recovery_kind, opened.recovery_kind, "passwd kept the recovery slot's kind")
        expect(old.recovery_e != opened.recovery_e, "passwd kept E")
        expect(old.recovery_wrapped != opened.recovery_wrapped, "passwd kept the recovery slot's wrapped M")
        # The identity slot: the same S, sealed again under the new M's KI.
        check_new_slots(opened, keychain, master, "after passwd", self.device)
        expect_equal(old.sharing_public, opened.sharing_public, "passwd kept S")
        expect(old.identity_wrapped[:16] != opened.identity_wrapped[:16], "passwd kept the identity slot's IV")
        expect_refused(lambda: opened.sharing_secret(old_master), {"malformed"}, {6},
                       "the new identity slot under the old M's KI")
        expect(("recovery key fingerprint %s " % recovery_fingerprint(opened.recovery_r)) in passwd_out,
               "passwd printed the recovery key fingerprint of R: %r" % passwd_out)

        expect_equal(master, opened.master_key_from_phrase(phrase), "M by phrase")
        # 1.1: typed phrases are normalized.
        shouting = "  " + phrase.upper().replace(" ", " \t\n ") + "\n"
        expect_equal(master, opened.master_key_from_phrase(shouting), "M by the phrase typed loosely")

        # The removed record left a tombstone, the last record in the file and counted in the header.
        live, dead = opened.live(records), opened.tombstones(records)
        expect_equal(len(ids) + 1, len(live), "records after remove")
        expect_equal(len(records), opened.record_count, "the header's record count: live records and tombstones")
        expect(removed not in [r["id"].hex() for r in live], "the removed record is still in the file")
        expect_equal([(removed, 2)], [(r["id"].hex(), r["version"]) for r in dead], "the tombstone of the removed one")
        expect_equal({"modified": Vault(before_passwd).modified, "changes": [(self.device, 2)]}, dead[0]["fields"],
                     "the tombstone: the time of the save that removed it, and one more change")
        for record in live:
            expect(record["version"] >= 1, "record version %d" % record["version"])
            if record["id"].hex() == note_id:
                fields = record["fields"]
                expect_equal(NOTE, record["kind"], "note kind")
                expect_equal(NOTE_TITLE, fields["title"], "note title")
                expect_equal(NOTE_BODY, fields["body"], "note body")
                expect_equal([], fields["tags"], "note tags")
                expect_equal((1, [(self.device, 1)]), (record["version"], fields.get("changes")),
                             "note version and changes")
                expect(started <= fields["created"] <= fields["modified"] <= finished, "note times")
            else:
                check_record_fields(record, ids[record["id"].hex()], started, finished, self.device)
            self.counts["records"] += 1
        expect_equal(sorted(list(ids) + [note_id]), sorted(r["id"].hex() for r in live), "record ids")

        listed = json.loads(vault("list", "--json", "--password-stdin", stdin=new_password + "\n")[1])
        compare_list(records, listed)
        for unix_time in CODE_TIMES:
            printed = json.loads(vault("codes", "--at", str(unix_time), "--json", "--password-stdin",
                                       stdin=new_password + "\n")[1])
            self.counts["codes"] += compare_codes(records, printed, unix_time)
        expect_equal(data, read(vault.path), "list and codes left the file unchanged")

        # The old password, wrong phrases.
        self.refused(data, "the old password", {"wrong password"}, {5}, password=old_password)
        self.refused(data, "an empty password", {"wrong password"}, {5}, password="")
        other = entropy_mnemonic(secrets.token_bytes(32))
        self.refused(data, "another valid phrase", {"wrong recovery phrase"}, {5}, phrase=other)
        words = phrase.split(" ")
        swapped = " ".join(words[1:2] + words[:1] + words[2:]) if words[0] != words[1] else other
        # Swapped words break the checksum but for 1 time in 256 (then it is another valid phrase).
        self.refused(data, "the phrase with two words swapped", {"not a recovery phrase", "wrong recovery phrase"},
                     {5}, phrase=swapped)
        self.refused(data, "the phrase without its last word", {"not a recovery phrase"}, {5},
                     phrase=" ".join(words[:-1]))
        expect_refused(lambda: opened.master_key_from_phrase(phrase, "x"), {"wrong recovery phrase"}, {5},
                       "the phrase with a BIP39 passphrase")
        code, _, _ = vault("list", "--password-stdin", stdin=old_password + "\n", check=False)
        expect_equal(1, code, "watchword-cli with the old password: exit")
        expect_equal(0, check_phrase(self.cli, vault.path, phrase), "vault check-phrase after passwd")
        expect_equal(1, check_phrase(self.cli, vault.path, other), "vault check-phrase with another phrase")

        self.tamper(opened, master, new_password, phrase)
        self.tamper_slots(opened, master, new_password, phrase)
        self.break_fields(opened, master, new_password)

    def check_saves(self, before: Vault, after: Vault, password: str, removed: str) -> None:
        """Removing a record is a save that keeps the other records' sealed bytes and every slot but
        the sync slot, and leaves a tombstone after them (6.6, 13)."""
        expect_equal(before.generation + 1, after.generation, "generation +1 on remove")
        master = before.master_key_from_password(password)
        expect_equal(master, after.master_key_from_password(password), "remove kept M")
        before_records, after_records = before.open_records(master), after.open_records(master)
        expect(in_written_order(before_records) and in_written_order(after_records),
               "records not in (sort position, id) order, then the tombstones, before or after remove")
        kept = [(r["id"], r["version"], r["kind"], r["sealed"]) for r in before_records if r["id"].hex() != removed]
        now = [(r["id"], r["version"], r["kind"], r["sealed"]) for r in after.live(after_records)]
        expect_equal(kept, now, "records other than the removed one, byte for byte")
        expect(all(r["version"] == 1 for r in after.live()), "records never changed have version 1")
        expect_equal([], before.tombstones(), "no tombstone before remove")
        gone = next(r for r in before_records if r["id"].hex() == removed)
        dead = after.tombstones(after_records)
        expect_equal([(gone["id"], gone["version"] + 1)], [(r["id"], r["version"]) for r in dead],
                     "remove left a tombstone: the record's id, its version + 1")
        expect_equal({"modified": after.modified, "changes": count_change(gone["fields"]["changes"], self.device)},
                     dead[0]["fields"], "the tombstone: the time of the save, the record's changes and one more")
        expect_equal(before.record_count, after.record_count, "remove: one record fewer, one tombstone more")
        expect_equal({t: b for t, b in before.slots.items() if t != SYNC_SLOT},
                     {t: b for t, b in after.slots.items() if t != SYNC_SLOT}, "slots unchanged by remove")
        expect_equal(before.slot_order, after.slot_order, "slot order unchanged by remove")
        check_sync(after, self.device, "remove", key_made=before.sync["key_made"],
                   key_device=before.sync["key_device"],
                   writers=count_writer(before.sync["writers"], self.device, after.generation))

    def compare_info(self, vault: Vault, info: dict, target_ms: int = 1) -> None:
        ours = {"format_version": vault.format_version, "vault_id": vault.vault_id.hex(),
                "generation": vault.generation, "created": vault.created, "modified": vault.modified,
                "records": vault.record_count, "kdf": "PBKDF2-HMAC-SHA256", "iterations": vault.iterations,
                "target_ms": vault.target_ms, "measured_iterations_per_second": vault.rate,
                "recovery_slot": vault.recovery_r is not None,
                "recovery_public_key": vault.recovery_r.hex() if vault.recovery_r else None,
                "recovery_key_fingerprint": recovery_fingerprint(vault.recovery_r) if vault.recovery_r else None,
                "recovery_key_kind": ({RECOVERY_KIND_V1: "version-1", RECOVERY_KIND_CURRENT: "recovery"}
                                      [vault.recovery_kind] if vault.recovery_r else None),
                "sharing_identity": vault.sharing_public is not None,
                "sharing_public_key": vault.sharing_public.hex() if vault.sharing_public else None}
        for key, value in info.items():
            expect(key in ours, "vault info --json prints %r, which this test does not know how to check" % key)
            expect_equal(ours[key], value, "vault info " + key)
        if target_ms == 1:
            expect_equal(MIN_ITERATIONS, vault.iterations, "iterations with --target-ms 1")
        expect_equal(target_ms, vault.target_ms, "stored target")

    def tamper(self, vault: Vault, master: bytes, password: str, phrase: str) -> None:
        data = vault.data
        km = vault.manifest_key(master)
        expect_equal((3, [PASSWORD_SLOT, RECOVERY_SLOT, IDENTITY_SLOT, SYNC_SLOT], RECOVERY_KIND_CURRENT, 1),
                     (vault.format_version, vault.slot_order, vault.recovery_kind, len(vault.sync["writers"])),
                     "the vault tampered with")
        expect_equal(1, len(vault.tombstones()), "the vault tampered with has a tombstone")
        pw_slot, _ = vault.slot_offsets[PASSWORD_SLOT]
        rec_slot, _ = vault.slot_offsets[RECOVERY_SLOT]
        id_slot, _ = vault.slot_offsets[IDENTITY_SLOT]
        sync_slot, _ = vault.slot_offsets[SYNC_SLOT]
        pw_body, rec_body, id_body, sync_body = pw_slot + 3, rec_slot + 3, id_slot + 3, sync_slot + 3
        # The recovery slot: kind (1) || R (33) || E (33) || wrapped (96); identity: S (33) || wrapped (96);
        # sync: last writer (8) || key made (8) || key device (8) || n (1) || device (8) || generation (8).
        r_off, e_off, w_off = rec_body + 1, rec_body + 34, rec_body + 67
        s_off, sw_off = id_body, id_body + 33
        live = vault.live()
        record = live[len(live) // 2]
        r0 = record["offset"]
        tombstone = vault.tombstones()[0]
        t0 = tombstone["offset"]
        dead_length = len(tombstone["sealed"])  # 96: 0x0d and one device's 0x11 take 34 bytes, 3 blocks
        expect_equal((len(data) - 64, 96), (tombstone["end"], dead_length), "the tombstone: the last record, 96 bytes")
        manifest = len(data) - 64

        # Without fixing the checksum: the structure checks or the checksum.
        structural = [("magic", 0, 0x01, {"not a vault"}, {1}),
                      ("version 7", 9, 0x04, {"unsupported version 7"}, {1}),
                      ("version 0", 9, 0x03, {"unsupported version 0"}, {1}),
                      ("version 3 read as 2", 9, 0x01, {"malformed"}, {2}),  # 4 slots are not version 2's
                      ("version 3 read as 1", 9, 0x02, {"malformed"}, {2}),  # nor version 1's
                      ("header length", 11, 0x01, {"malformed"}, {2}),
                      ("reserved", 63, 0x01, {"malformed"}, {2}),
                      ("slot count 5", 56, 0x01, {"malformed"}, {2}),
                      ("slot count 0", 56, 0x04, {"malformed"}, {2}),
                      # Three slots: the sync slot is read as a record, which cannot fit.
                      ("slot count 3", 56, 0x07, {"truncated", "malformed"}, {2}),
                      ("record count", 55, 0x01, {"truncated", "malformed"}, {2}),
                      ("slot type", pw_slot, 0x01, {"malformed"}, {2}),
                      ("slot length", pw_slot + 2, 0x01, {"malformed"}, {2}),
                      ("recovery slot type 2", rec_slot, 0x01, {"malformed"}, {2}),  # version 1's, in version 3
                      ("recovery slot length", rec_slot + 2, 0x01, {"malformed"}, {2}),
                      ("recovery slot kind 3", rec_body, 0x01, {"malformed"}, {2}),
                      ("recovery slot kind 0", rec_body, 0x02, {"malformed"}, {2}),
                      ("identity slot type 3", id_slot, 0x07, {"malformed"}, {2}),  # a second recovery slot
                      ("identity slot type 5", id_slot, 0x01, {"malformed"}, {2}),  # a sync slot of 129 bytes
                      ("identity slot type 6", id_slot, 0x02, {"malformed"}, {2}),
                      ("identity slot length", id_slot + 2, 0x01, {"malformed"}, {2}),
                      ("sync slot type 4", sync_slot, 0x01, {"malformed"}, {2}),  # a second identity slot
                      ("sync slot type 7", sync_slot, 0x02, {"malformed"}, {2}),
                      ("sync slot type 1", sync_slot, 0x04, {"malformed"}, {2}),  # a second password slot
                      ("sync slot length 40", sync_slot + 2, 0x01, {"malformed"}, {2}),  # not 25 + 16n
                      ("sync slot length 57", sync_slot + 2, 0x10, {"malformed"}, {2}),  # not 25 + 16 x 1
                      ("sync slot length 25", sync_slot + 2, 0x30, {"malformed"}, {2}),  # 0 writers, n = 1
                      ("sync slot writer count 3", sync_body + 24, 0x02, {"malformed"}, {2}),
                      ("sync slot writer count 0", sync_body + 24, 0x01, {"malformed"}, {2}),
                      ("record kind", r0 + 24, 0x04, {"malformed"}, {2}),
                      # Kinds 1 to 4 are all version 3's: the structure allows them, the checksum does not.
                      ("record kind made another", r0 + 24, record["kind"] ^ (2 if record["kind"] == 1 else 1),
                       {"corrupted"}, {3}),
                      ("record kind made 3", r0 + 24, record["kind"] ^ CONTACT, {"corrupted"}, {3}),
                      ("record kind made 4", r0 + 24, record["kind"] ^ TOMBSTONE, {"corrupted"}, {3}),
                      ("record length", r0 + 28, 0x01, {"malformed"}, {2}),
                      ("tombstone kind 0", t0 + 24, 0x04, {"malformed"}, {2}),
                      ("tombstone kind made 1", t0 + 24, 0x05, {"corrupted"}, {3}),
                      # The last record: one byte more runs past the end; 32 bytes fewer leave 32 over.
                      ("tombstone length + 1", t0 + 28, 0x01, {"truncated"}, {2}),
                      ("tombstone length - 32", t0 + 28, (dead_length & 0xFF) ^ (dead_length - 32), {"malformed"}, {2}),
                      ("tombstone length 32", t0 + 28, (dead_length & 0xFF) ^ 32, {"malformed"}, {2})]
        for name, offset, mask, kinds, steps in structural:
            bad = bytes(flip(data, offset, mask))
            self.refused(bad, "flipped " + name, kinds, steps)
            self.cli_refuses(bad, "raw-" + name.replace(" ", "-"))
        for name, offset in [("vault id", 12), ("generation", 35), ("modified", 51), ("salt", pw_body + 9),
                             ("password wrapped M", pw_body + 60), ("R", r_off + 5), ("E", e_off + 6),
                             ("recovery wrapped M", w_off + 53), ("S", s_off + 7),
                             ("identity wrapped s", sw_off + 70), ("sync slot last writer", sync_body + 2),
                             ("sync slot key made", sync_body + 12), ("sync slot key device", sync_body + 20),
                             ("sync slot writer", sync_body + 30), ("sync slot generation", sync_body + 37),
                             ("record id", r0 + 3),
                             ("record ciphertext", r0 + 50), ("record tag", record["end"] - 1),
                             ("tombstone id", t0 + 5), ("tombstone version", t0 + 16),
                             ("tombstone ciphertext", t0 + 40),
                             ("manifest", manifest + 7), ("checksum", len(data) - 1)]:
            bad = bytes(flip(data, offset, 0x80))
            self.refused(bad, "flipped %s, checksum not fixed" % name, {"corrupted"}, {3})
            self.cli_refuses(bad, "sum-" + name.replace(" ", "-"))

        # KDF parameters out of bounds, checksum fixed: refused before any KDF work.
        def slot_patch(offset, value: bytes):
            changed = bytearray(data)
            changed[pw_body + offset:pw_body + offset + len(value)] = value
            return fix_checksum(changed)
        for name, offset, value in [("KDF 0", 0, b"\x00"), ("KDF 2", 0, b"\x02"),
                                    ("599,999 iterations", 1, struct.pack(">I", 599_999)),
                                    ("50,000,001 iterations", 1, struct.pack(">I", 50_000_001)),
                                    ("2^32-1 iterations", 1, b"\xff\xff\xff\xff"),
                                    ("target 0 ms", 37, struct.pack(">I", 0)),
                                    ("target 60,001 ms", 37, struct.pack(">I", 60_001))]:
            bad = slot_patch(offset, value)
            self.refused(bad, name, {"KDF parameters out of bounds"}, {4})
            self.cli_refuses(bad, "kdf-" + name.replace(" ", "-").replace(",", ""))

        # Checksum fixed up: the key checks catch it, with the password and with the phrase.
        slot_or_manifest = [
            ("vault id", 12, {"wrong password"}, {"wrong recovery phrase"}),
            ("generation", 35, {"tampered"}, {"tampered"}),
            ("created", 43, {"tampered"}, {"tampered"}),
            ("modified", 51, {"tampered"}, {"tampered"}),
            ("iterations", pw_body + 4, {"wrong password"}, {"tampered"}),
            ("salt", pw_body + 20, {"wrong password"}, {"tampered"}),
            ("calibration target", pw_body + 40, {"tampered"}, {"tampered"}),
            ("calibration rate", pw_body + 48, {"tampered"}, {"tampered"}),
            ("password slot IV", pw_body + 49, {"wrong password"}, {"tampered"}),
            ("password slot ciphertext", pw_body + 80, {"wrong password"}, {"tampered"}),
            ("password slot tag", pw_body + 144, {"wrong password"}, {"tampered"}),
            ("recovery slot kind 2 to 1", rec_body, {"tampered"}, {"wrong recovery phrase"}, 0x03),
            ("R", r_off + 32, {"tampered"}, {"wrong recovery phrase"}),
            ("R prefix", r_off, {"tampered"}, {"wrong recovery phrase"}),
            ("E", e_off + 32, {"tampered"}, {"wrong recovery phrase", "malformed"}),
            ("recovery slot IV", w_off + 3, {"tampered"}, {"wrong recovery phrase"}),
            ("recovery slot ciphertext", w_off + 33, {"tampered"}, {"wrong recovery phrase"}),
            ("recovery slot tag", w_off + 95, {"tampered"}, {"wrong recovery phrase"}),
            ("S", s_off + 32, {"tampered"}, {"tampered"}),
            ("S prefix", s_off, {"tampered"}, {"tampered"}, 0x01),
            ("identity slot IV", sw_off + 2, {"tampered"}, {"tampered"}),
            ("identity slot ciphertext", sw_off + 30, {"tampered"}, {"tampered"}),
            ("identity slot tag", sw_off + 95, {"tampered"}, {"tampered"}),
            ("sync slot last writer", sync_body, {"tampered"}, {"tampered"}),
            ("sync slot key made", sync_body + 15, {"tampered"}, {"tampered"}),
            ("sync slot key device", sync_body + 16, {"tampered"}, {"tampered"}),
            ("sync slot writer", sync_body + 25 + 7, {"tampered"}, {"tampered"}),
            ("sync slot generation", sync_body + 25 + 15, {"tampered"}, {"tampered"}),
            ("sync slot generation, high bit", sync_body + 25 + 8, {"tampered"}, {"tampered"}, 0x80),
            ("record id", r0, {"tampered"}, {"tampered"}),
            ("record version", r0 + 23, {"tampered"}, {"tampered"}),
            ("record IV", r0 + 29, {"tampered"}, {"tampered"}),
            ("record ciphertext", r0 + 60, {"tampered"}, {"tampered"}),
            ("record tag", record["end"] - 5, {"tampered"}, {"tampered"}),
            ("tombstone id", t0 + 15, {"tampered"}, {"tampered"}),
            ("tombstone version", t0 + 23, {"tampered"}, {"tampered"}),
            ("tombstone IV", t0 + 29, {"tampered"}, {"tampered"}),
            ("tombstone tag", tombstone["end"] - 1, {"tampered"}, {"tampered"}),
            ("manifest", manifest, {"tampered"}, {"tampered"}),
        ]
        for name, offset, by_password, by_phrase, *mask in slot_or_manifest:
            bad = fix_checksum(flip(data, offset, mask[0] if mask else 0x04))
            steps = {5} if by_password & {"wrong password", "wrong recovery phrase"} else {6}
            self.refused(bad, "flipped %s, checksum fixed, password" % name, by_password, steps, password=password)
            steps = {5} if by_phrase & {"wrong password", "wrong recovery phrase", "malformed"} else {6}
            self.refused(bad, "flipped %s, checksum fixed, phrase" % name, by_phrase, steps, phrase=phrase)
            self.cli_refuses(bad, "fixed-" + name.replace(" ", "-"), password)

        # Manifest and checksum fixed up: only the record's own tag can tell.
        for index, record in enumerate(vault.records):
            r0 = record["offset"]
            # The kind made another of version 3's kinds (1 to 4), so that the structure allows it.
            kind_mask = record["kind"] ^ (2 if record["kind"] == 1 else 1)
            for name, offset, mask in [("id", r0 + 15, 0x01), ("version", r0 + 23, 0x01),
                                       ("kind", r0 + 24, kind_mask), ("IV", r0 + 29 + index % 16, 0x40),
                                       ("ciphertext", r0 + 45 + index, 0x10), ("tag", record["end"] - 1 - index, 0x08)]:
                bad = fix_manifest(flip(data, offset, mask), km)
                self.refused(bad, "record %d %s flipped, manifest fixed" % (index, name), {"tampered"}, {7},
                             master=master)
                if index == 0:
                    self.cli_refuses(bad, "record-" + name, password)
        # Records moved: the manifest covers their order.
        first, second = vault.records[0], vault.records[1]
        swapped = bytearray(data[:first["offset"]] + data[second["offset"]:second["end"]]
                            + data[first["offset"]:first["end"]] + data[second["end"]:])
        self.refused(fix_checksum(swapped), "two records swapped", {"tampered"}, {6}, password=password)
        self.cli_refuses(fix_checksum(bytearray(swapped)), "records-swapped", password)

    def cli_opens(self, data: bytes, name: str, password: str, records: int) -> None:
        """watchword-cli opens the file with the password and lists its records, writing nothing."""
        path = os.path.join(self.dir, "good-%s.wwv" % name)
        write(path, data)
        listed = json.loads(run([self.cli, "vault", "list", path, "--json", "--password-stdin"], password + "\n")[1])
        expect_equal(records, len(listed["records"]), "watchword-cli lists %s" % name)
        expect_equal(data, read(path), "watchword-cli left %s unchanged" % name)
        os.remove(path)

    def cli_recovers(self, data: bytes, name: str, phrase: str) -> tuple:
        """watchword-cli vault recover FILE: its exit status and the file it leaves."""
        path = os.path.join(self.dir, "recover-%s.wwv" % name)
        write(path, data)
        code, _, _ = run([self.cli, "vault", "recover", path, "--target-ms", "1", "--password-stdin"],
                         "%s\n%s\n" % (phrase, RECOVERED_PASSWORD), check=False)
        after = read(path)
        for suffix in ("", ".1", ".lock"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        return code, after

    def tamper_slots(self, vault: Vault, master: bytes, password: str, phrase: str) -> None:
        """The version-3 slots rewritten here with M (manifest and checksum fixed up): layouts that
        section 6 allows open in both readers, the others are refused by both."""
        km = vault.manifest_key(master)
        keychain = Keychain(phrase)
        slots = {t: vault.slots[t] for t in vault.slot_order}
        pw, rec, ident, sync = ((t, slots[t]) for t in (PASSWORD_SLOT, RECOVERY_SLOT, IDENTITY_SLOT, SYNC_SLOT))
        count, total = len(vault.live()), len(vault.records)  # what vault list shows; with the tombstone

        # Allowed: any order after the password slot; the recovery, identity and sync slots each optional.
        for name, layout in [("identity before recovery", [pw, ident, rec, sync]),
                             ("sync slot second", [pw, sync, rec, ident]),
                             ("no sync slot", [pw, rec, ident]), ("no identity slot", [pw, rec, sync]),
                             ("no recovery slot", [pw, ident, sync]), ("the password and sync slots", [pw, sync]),
                             ("the password slot alone", [pw])]:
            good = rebuild(vault, km, layout)
            opened = Vault(good)
            expect_equal(master, opened.master_key_from_password(password), name + ": M by password")
            expect_equal(total, len(opened.open_records(master)), name + ": records")
            if opened.recovery_r is not None:
                expect_equal(master, opened.master_key_from_phrase(phrase), name + ": M by phrase")
            else:
                self.refused(good, name + ", phrase", {"no recovery slot"}, {5}, phrase=phrase)
            self.cli_opens(good, name.replace(" ", "-"), password, count)
            if SYNC_SLOT not in opened.slots:  # read as all zero, no writers
                expect_equal({"last_writer": bytes(8), "key_made": 0, "key_device": bytes(8), "writers": []},
                             opened.sync, name + ": the sync information")
        # Refused at step 2. (The file holds a tombstone, so version 2 would refuse it for that too.)
        version1_layout = slots[RECOVERY_SLOT][1:]  # R || E || wrapped: 162 bytes, version 1's layout
        for name, layout, version in [
                ("a version-1 recovery slot in version 3", [pw, (RECOVERY_SLOT_V1, version1_layout), ident], None),
                ("a version-1 recovery slot alone in version 3", [pw, (RECOVERY_SLOT_V1, version1_layout)], None),
                ("two identity slots", [pw, ident, ident], None),
                ("two recovery slots", [pw, rec, rec], None),
                ("two sync slots", [pw, sync, rec, sync], None),
                ("five slots", [pw, rec, ident, sync, sync], None),
                ("the recovery slot first", [rec, pw, ident], None),
                ("the identity slot first", [ident, pw], None),
                ("the sync slot first", [sync, pw, rec, ident], None),
                ("two password slots", [pw, pw, rec], None),
                ("a slot of type 6", [pw, rec, ident, (6, slots[SYNC_SLOT])], None),
                ("a sync slot in version 2", [pw, rec, sync], 2),
                ("a tombstone in version 2", [pw, rec, ident], 2),  # the slots are version 2's, kind 4 is not
                ("four slots in version 2", [pw, rec, ident, sync], 2),
                ("version-2 slots in version 1", [pw, rec], 1),
                ("an identity slot in version 1", [pw, ident], 1),
                ("a sync slot in version 1", [pw, sync], 1),
                ("three slots in version 1", [pw, (RECOVERY_SLOT_V1, version1_layout), ident], 1)]:
            bad = rebuild(vault, km, layout, version)
            self.refused(bad, name, {"malformed"}, {2})
            self.cli_refuses(bad, "layout-" + name.replace(" ", "-"), password)

        # Sync slots written here: any writers in ascending device order, up to 64, any times and
        # generations, open in both readers; a count that does not give the length, more than 64
        # writers, or writers out of order or repeated are malformed at step 2.
        device = self.device
        devices = sorted({secrets.token_bytes(8) for _ in range(70)})[:65]
        writers64 = [(d, i + 1) for i, d in enumerate(devices[:64])]
        low, high = b"\x00" * 8, b"\xff" * 7 + b"\xfe"
        allowed = [
            ("no writers", encode_sync_slot(device, 0, bytes(8), [])),
            ("64 writers", encode_sync_slot(device, vault.modified, device, writers64)),
            ("two writers", encode_sync_slot(low, -1, high, [(low, 0), (high, 2 ** 64 - 1)])),
            ("writers without the last writer", encode_sync_slot(MERGE_DEVICE, 2 ** 63 - 1, device,
                                                                 [(devices[0], 7)])),
        ]
        for name, body in allowed:
            good = rebuild(vault, km, [pw, rec, ident, (SYNC_SLOT, body)])
            opened = Vault(good)
            expect_equal(body, opened.slots[SYNC_SLOT], "sync slot with %s: read" % name)
            expect_equal(total, len(opened.open_records(master)), "sync slot with %s: records" % name)
            self.cli_opens(good, "sync-" + name.replace(" ", "-"), password, count)
        one = encode_sync_slot(device, 0, bytes(8), [(device, 1)])
        refused = [
            ("65 writers", encode_sync_slot(device, 0, bytes(8), [(d, 1) for d in devices])),
            ("255 writers", encode_sync_slot(device, 0, bytes(8), [(i.to_bytes(8, "big"), 1) for i in range(255)])),
            ("writers out of order", encode_sync_slot(device, 0, bytes(8), [(high, 1), (low, 1)])),
            ("a writer twice", encode_sync_slot(device, 0, bytes(8), [(device, 1), (device, 2)])),
            ("a count of 2 in 41 bytes", one[:24] + b"\x02" + one[25:]),
            ("a count of 0 in 41 bytes", one[:24] + b"\x00" + one[25:]),
            ("a count of 1 in 25 bytes", one[:25]),
            ("24 bytes", one[:24]),
            ("an empty body", b""),
            ("42 bytes", one + b"\x00"),
            ("40 bytes", one[:40]),
        ]
        for name, body in refused:
            bad = rebuild(vault, km, [pw, rec, ident, (SYNC_SLOT, body)])
            self.refused(bad, "sync slot with " + name, {"malformed"}, {2})
            self.cli_refuses(bad, "sync-" + name.replace(" ", "-"), password)

        # The identity slot, sealed again here: it must open under KI with AD type 4, hold a valid s, and s·G = S.
        sharing = keychain.sharing
        secret = sharing.secret.to_bytes(32, "big")
        stranger = KeyPair(secrets.token_bytes(64), b"sharing secp256k1")
        resealed = [
            ("the same s and S", seal_identity(vault, master, secret, sharing.public), None),
            ("another valid key pair", seal_identity(vault, master, stranger.secret.to_bytes(32, "big"),
                                                     stranger.public), None),
            ("S of another key", seal_identity(vault, master, secret, stranger.public), "malformed"),
            ("S with the other prefix",
             seal_identity(vault, master, secret, bytes([sharing.public[0] ^ 1]) + sharing.public[1:]), "malformed"),
            ("s = 0", seal_identity(vault, master, bytes(32), sharing.public), "malformed"),
            ("s = n", seal_identity(vault, master, SECP256K1_N.to_bytes(32, "big"), sharing.public), "malformed"),
            # A 96-byte envelope holds 32 to 47 bytes; other lengths would not fit the slot's size.
            ("s of 33 bytes", seal_identity(vault, master, b"\x00" + secret, sharing.public), "malformed"),
            ("s of 47 bytes", seal_identity(vault, master, bytes(15) + secret, sharing.public), "malformed"),
            ("s with invalid padding", seal_identity(vault, master, secret + bytes(16), sharing.public, padded=True),
             "malformed"),
            ("s under M instead of KI", seal_identity(vault, master, secret, sharing.public, key=master), "malformed"),
            ("s under the recovery AD", seal_identity(vault, master, secret, sharing.public, ad_type=RECOVERY_SLOT),
             "malformed"),
        ]
        for name, body, refusal in resealed:
            changed = rebuild(vault, km, [pw, rec, (IDENTITY_SLOT, body), sync])
            if refusal is None:
                opened = Vault(changed)
                expect_equal(total, len(opened.open_records(master)), "identity slot with " + name)
                self.cli_opens(changed, "identity-" + name.replace(" ", "-"), password, count)
                continue
            self.refused(changed, "identity slot with " + name, {refusal}, {6}, password=password)
            self.refused(changed, "identity slot with %s, phrase" % name, {refusal}, {6}, phrase=phrase)
            self.cli_refuses(changed, "identity-" + name.replace(" ", "-"), password)
        # Bits flipped in the identity slot, the manifest fixed up.
        id_body = vault.slot_offsets[IDENTITY_SLOT][0] + 3
        for name, offset, mask in [("S", id_body + 20, 0x10), ("S prefix", id_body, 0x01), ("IV", id_body + 40, 0x01),
                                   ("ciphertext", id_body + 33 + 16 + 47, 0x80), ("tag", id_body + 128, 0x02)]:
            bad = fix_manifest(flip(vault.data, offset, mask), km)
            self.refused(bad, "identity slot %s flipped, manifest fixed" % name, {"malformed"}, {6}, master=master)
            self.cli_refuses(bad, "identity-flipped-" + name.replace(" ", "-"), password)

        # The recovery slot, wrapped again here.
        rec_body = vault.slot_offsets[RECOVERY_SLOT][0] + 3
        bad_r = bytearray(vault.data)
        bad_r[rec_body + 1] = 0x05  # R's prefix: not a point
        bad_r = fix_manifest(bad_r, km)
        self.refused(bad_r, "R not a point, manifest fixed, password", {"malformed"}, {6}, password=password)
        self.refused(bad_r, "R not a point, manifest fixed, phrase", {"wrong recovery phrase"}, {5}, phrase=phrase)
        self.cli_refuses(bad_r, "recovery-R-not-a-point", password)
        v1 = keychain.version1_recovery.public
        rewrapped = [
            # name, body, opens by phrase, vault recover's exit, check-phrase's exit
            ("the recovery key, kind 2", wrap_recovery(vault, master, 2, keychain.recovery.public), True, 0, 0),
            ("the version-1 recovery key, kind 1", wrap_recovery(vault, master, 1, v1), True, 0, 0),
            ("the version-1 recovery key, kind 2", wrap_recovery(vault, master, 2, v1), False, 1, 1),
            ("the recovery key, kind 1", wrap_recovery(vault, master, 1, keychain.recovery.public), False, 1, 1),
            ("the note key's label", wrap_recovery(vault, master, 2, keychain.recovery.public,
                                                   info=b"watchword/share/v1 note key"), False, 1, 0),
            ("the version-1 slot's AD", wrap_recovery(vault, master, 2, keychain.recovery.public,
                                                      ad_type=RECOVERY_SLOT_V1), False, 1, 0),
        ]
        for name, body, opens, recover_exit, check_exit in rewrapped:
            changed = rebuild(vault, km, [pw, (RECOVERY_SLOT, body), ident, sync])
            opened = Vault(changed)
            expect_equal(total, len(opened.open_records(opened.master_key_from_password(password))),
                         "recovery slot to %s: by password" % name)
            if opens:
                expect_equal(master, opened.master_key_from_phrase(phrase), "recovery slot to %s: M by phrase" % name)
            else:
                self.refused(changed, "recovery slot to %s, phrase" % name, {"wrong recovery phrase"}, {5},
                             phrase=phrase)
            what = "recovery slot to " + name
            path = os.path.join(self.dir, "check-phrase.wwv")
            write(path, changed)
            expect_equal(check_exit, check_phrase(self.cli, path, phrase), what + ": vault check-phrase exit")
            os.remove(path)
            code, after = self.cli_recovers(changed, "slot-" + name.replace(" ", "-").replace(",", ""), phrase)
            expect_equal(recover_exit, code, what + ": vault recover exit")
            if code == 0:
                # The vault adopts the phrase: an identity slot; the recovery slot's kind and R kept.
                recovered = Vault(after)
                new_master = recovered.master_key_from_password(RECOVERED_PASSWORD)
                expect_equal(new_master, recovered.master_key_from_phrase(phrase), what + ": recovered, M by phrase")
                expect_equal([r["plaintext"] for r in opened.open_records(master)],
                             [r["plaintext"] for r in recovered.open_records(new_master)], what + ": recovered records")
                check_new_slots(recovered, keychain, new_master, what + ", recovered", self.device,
                                opened.recovery_kind)
                check_sync(recovered, self.device, what + ", recovered",
                           writers=count_writer(opened.sync["writers"], self.device, opened.generation + 1))
            else:
                expect_equal(changed, after, what + ": vault recover left the file as it was")

    def break_fields(self, vault: Vault, master: bytes, password: str) -> None:
        """Records sealed here with the right key: valid fields open, each broken rule is *malformed*."""
        account = next(i for i, r in enumerate(vault.records) if r["kind"] == ACCOUNT)
        note = next(i for i, r in enumerate(vault.records) if r["kind"] == NOTE)
        dead = next(i for i, r in enumerate(vault.records) if r["kind"] == TOMBSTONE)
        live = len(vault.live())
        envelope = Envelope(master)
        entries = {}
        for index in (account, note, dead):
            record = vault.records[index]
            entries[index] = fields_entries(envelope.open(record["sealed"], record_ad(vault.vault_id, record)))

        # Resealed unchanged (a new IV): both readers must still open it, or the cases below prove nothing.
        for index in (account, note, dead):
            good = replace_record(vault, master, index, encode_fields(entries[index]))
            records = Vault(good).open_records(master)
            expect_equal(vault.records[index]["id"], records[index]["id"], "resealed record opens")
            path = os.path.join(self.dir, "resealed.wwv")
            write(path, good)
            listed = json.loads(run([self.cli, "vault", "list", path, "--json", "--password-stdin"],
                                    password + "\n")[1])
            expect_equal(live, len(listed["records"]), "watchword-cli opens a resealed record")
            os.remove(path)

        def without(items, tag):
            return [(t, v) for t, v in items if t != tag]

        def replaced(items, tag, value):
            return [(t, value if t == tag else v) for t, v in items]

        acc, nte, tomb = entries[account], entries[note], entries[dead]
        expect_equal([(self.device, 1)], decode_changes(dict(acc)[0x11]), "the account's changes")
        expect_equal([0x0D, 0x11], [t for t, _ in tomb], "the tombstone's fields")
        device = self.device
        low, high = b"\x00" * 8, b"\xff" * 8
        many = [(i.to_bytes(8, "big"), 1) for i in range(256)]
        cases = [
            (account, "received from of 1 byte", sorted(acc + [(0x10, b"x")])),
            (account, "unknown tag 0x12", sorted(acc + [(0x12, b"x")])),
            (account, "unknown tag 0x20", sorted(acc + [(0x20, b"x")])),
            (account, "tags out of order", acc[1:] + acc[:1]),
            (account, "a repeated field", sorted(acc + [t for t in acc if t[0] == 0x0F])),
            (account, "a note tag on an account", sorted(acc + [(0x21, b"title")])),
            (account, "no secret", without(acc, 0x03)),
            (account, "empty secret", replaced(acc, 0x03, b"")),
            (account, "secret of 1025 bytes", replaced(acc, 0x03, bytes(1025))),
            (account, "OTP kind 4", replaced(acc, 0x04, b"\x04")),
            (account, "algorithm 0", replaced(acc, 0x05, b"\x00")),
            (account, "digits as u32", replaced(acc, 0x06, b"\x00\x00\x00\x06")),
            (account, "no created", without(acc, 0x0C)),
            (account, "no sort position", without(acc, 0x0F)),
            (account, "created of 4 bytes", replaced(acc, 0x0C, b"\x00\x00\x00\x01")),
            (account, "NUL in a string", sorted(without(acc, 0x0A) + [(0x0A, b"a\x00b")])),
            (account, "invalid UTF-8", sorted(without(acc, 0x0A) + [(0x0A, b"\xc3\x28")])),
            (account, "an empty tag label", sorted(acc + [(0x09, b"")])),
            (account, "a repeated tag label", sorted(acc + [(0x09, b"work"), (0x09, b"work")])),
            (account, "a field cut short at the end", acc, b"\x0f\x00"),
            # Field 0x11, the changes (section 6.4).
            (account, "changes of 0 bytes", replaced(acc, 0x11, b"")),
            (account, "changes of 15 bytes", replaced(acc, 0x11, encode_changes([(device, 1)])[:15])),
            (account, "changes of 17 bytes", replaced(acc, 0x11, encode_changes([(device, 1)]) + b"\x00")),
            (account, "changes of 24 bytes", replaced(acc, 0x11, encode_changes([(low, 1)]) + device)),
            (account, "a count of 0", replaced(acc, 0x11, encode_changes([(device, 0)]))),
            (account, "a count of 0 after another", replaced(acc, 0x11, encode_changes([(low, 1), (high, 0)]))),
            (account, "devices out of order", replaced(acc, 0x11, encode_changes([(high, 1), (low, 1)]))),
            (account, "a device twice", replaced(acc, 0x11, encode_changes([(device, 1), (device, 2)]))),
            (account, "256 devices", replaced(acc, 0x11, encode_changes(many))),
            (account, "changes twice", sorted(acc + [t for t in acc if t[0] == 0x11])),
            (note, "no body", without(nte, 0x22)),
            (note, "an account tag on a note", sorted(nte + [(0x03, b"secret")])),
            (note, "last used on a note", sorted(nte + [(0x0E, bytes(8))])),
            (note, "changes after the title", without(nte, 0x11) + [t for t in nte if t[0] == 0x11]),
            (note, "changes of 8 bytes", replaced(nte, 0x11, device)),
            # A tombstone (kind 4): 0x0d and 0x11, both required, nothing else.
            (dead, "a tombstone without changes", without(tomb, 0x11)),
            (dead, "a tombstone without its time", without(tomb, 0x0D)),
            (dead, "a tombstone without fields", []),
            (dead, "a tombstone with empty changes", replaced(tomb, 0x11, b"")),
            (dead, "a tombstone with a count of 0", replaced(tomb, 0x11, encode_changes([(device, 0)]))),
            (dead, "a tombstone's time of 4 bytes", replaced(tomb, 0x0D, b"\x00\x00\x00\x01")),
            (dead, "a tombstone with created", sorted(tomb + [(0x0C, bytes(8))])),
            (dead, "a tombstone with a sort position", sorted(tomb + [(0x0F, bytes(4))])),
            (dead, "a tombstone with a tag", sorted(tomb + [(0x09, b"gone")])),
            (dead, "a tombstone with a title", sorted(tomb + [(0x21, b"gone")])),
            (dead, "a tombstone with a secret", sorted(tomb + [(0x03, b"gone")])),
            (dead, "a tombstone with a contact name", sorted(tomb + [(0x31, b"gone")])),
            (dead, "a tombstone's fields in reverse", tomb[::-1]),
            (dead, "a tombstone with the note's fields", nte),
        ]
        for index, name, items, *suffix in cases:
            plaintext = encode_fields(items) + b"".join(suffix)
            bad = replace_record(vault, master, index, plaintext)
            self.refused(bad, "record with " + name, {"malformed"}, {7}, master=master)
            self.cli_refuses(bad, "fields-" + name.replace(" ", "-").replace(",", "").replace("'", ""), password)
        # Fields sealed under another kind (the record header and the AD both say it): malformed.
        for index, name, kind in [(account, "an account as a tombstone", TOMBSTONE),
                                  (note, "a note as a tombstone", TOMBSTONE),
                                  (dead, "a tombstone as a note", NOTE),
                                  (dead, "a tombstone as an account", ACCOUNT),
                                  (dead, "a tombstone as a contact", CONTACT)]:
            bad = replace_record(vault, master, index, encode_fields(entries[index]), kind)
            self.refused(bad, name, {"malformed"}, {7}, master=master)
            self.cli_refuses(bad, "kind-" + name.replace(" ", "-"), password)
        # A present empty optional string reads as empty (6.4); both readers accept it.
        empty_note = sorted(acc + [(0x0A, b"")])
        good = replace_record(vault, master, account, encode_fields(empty_note))
        expect_equal("", Vault(good).open_records(master)[account]["fields"]["note"], "empty optional string")
        # Changes are optional in a live record, may name up to 255 devices, the merge device too, with
        # any count from 1; a tombstone's may name several, its time may be any i64. Both readers accept.
        accepted = [
            (account, "no changes", without(acc, 0x11), None),
            (note, "a note without changes", without(nte, 0x11), None),
            (account, "255 devices", replaced(acc, 0x11, encode_changes(many[:255])), many[:255]),
            (account, "the merge device", replaced(acc, 0x11, encode_changes([(device, 2 ** 64 - 1),
                                                                              (MERGE_DEVICE, 1)])),
             [(device, 2 ** 64 - 1), (MERGE_DEVICE, 1)]),
            (dead, "a tombstone of two devices", replaced(tomb, 0x11, encode_changes([(device, 2), (MERGE_DEVICE, 3)])),
             [(device, 2), (MERGE_DEVICE, 3)]),
            (dead, "a tombstone deleted at -1", replaced(tomb, 0x0D, struct.pack(">q", -1)), [(device, 2)]),
        ]
        for index, name, items, changes in accepted:
            good = replace_record(vault, master, index, encode_fields(items))
            fields = Vault(good).open_records(master)[index]["fields"]
            expect_equal(changes, fields.get("changes"), name + ": the changes read")
            self.cli_opens(good, "fields-" + name.replace(" ", "-"), password, live)

    def small_vault(self) -> None:
        """A 12-word phrase opens the recovery slot the same way."""
        password = "kurz, aber lang genug"
        vault, phrase = make_vault(self.cli, self.dir, "small.wwv", password, words=12)
        expect_equal(12, len(phrase.split(" ")), "--words 12 printed 12 words")
        account = test_accounts()[4]
        vault.mutate("add", "--password-stdin", stdin="%s\n%s\n" % (password, build_uri(account)))
        opened = Vault(read(vault.path))
        master = opened.master_key_from_phrase(phrase)
        expect_equal(master, opened.master_key_from_password(password), "12-word phrase: M")
        records = opened.open_records(master)
        expect_equal(1, len(records), "12-word vault records")
        check_record_fields(records[0], account, 0, int(time.time()), self.device)
        expect_equal(vault.saves, opened.generation, "generation of the small vault")
        check_new_slots(Vault(read(vault.path + ".1")), Keychain(phrase), master, "12-word vault, new",
                        self.device)
        check_sync(opened, self.device, "12-word vault", key_made=Vault(read(vault.path + ".1")).modified,
                   key_device=self.device, writers=[(self.device, 2)])

        # vault recover: the phrase opens it and sets a new password; the vault keeps the phrase's
        # recovery key (kind 2) and sharing key, both wrapped and sealed again for the new M.
        before = read(vault.path)
        vault.mutate("recover", "--target-ms", "1", "--password-stdin",
                     stdin="%s\n%s\n" % (phrase, RECOVERED_PASSWORD))
        recovered = Vault(read(vault.path))
        expect_equal(before, read(vault.path + ".1"), "backup .1 is the file before recover")
        self.check_rekeyed(opened, master, recovered, RECOVERED_PASSWORD, phrase, "vault recover")
        expect_equal((opened.recovery_r, opened.sharing_public), (recovered.recovery_r, recovered.sharing_public),
                     "vault recover kept R and S")
        self.refused(recovered.data, "the password before recover", {"wrong password"}, {5}, password=password)

        # vault passwd --new-phrase: a new phrase's recovery and sharing keys; the old phrase stops opening it.
        newer_password = "drittes Kennwort, ganz neu: ℌ ② ✓"
        _, out, _ = vault.mutate("passwd", "--new-phrase", "--words", "12", "--target-ms", "1", "--password-stdin",
                                 stdin="%s\n%s\n" % (RECOVERED_PASSWORD, newer_password))
        new_phrase, fingerprint = printed_phrase(out, "passwd --new-phrase")
        expect_equal(12, len(new_phrase.split(" ")), "passwd --new-phrase --words 12 printed 12 words")
        renewed = Vault(read(vault.path))
        self.check_rekeyed(recovered, recovered.master_key_from_password(RECOVERED_PASSWORD), renewed, newer_password,
                           new_phrase, "vault passwd --new-phrase")
        expect_equal(recovery_fingerprint(renewed.recovery_r), fingerprint, "passwd --new-phrase's fingerprint")
        self.refused(renewed.data, "the phrase before passwd --new-phrase", {"wrong recovery phrase"}, {5},
                     phrase=phrase)
        expect_equal(1, check_phrase(self.cli, vault.path, phrase), "check-phrase with the replaced phrase")
        expect_equal(0, check_phrase(self.cli, vault.path, new_phrase), "check-phrase with the new phrase")

        # vault recover --new-phrase: opened with the phrase, then given a new one.
        last_password = "viertes Kennwort nach der Wiederherstellung ③"
        _, out, _ = vault.mutate("recover", "--new-phrase", "--target-ms", "1", "--password-stdin",
                                 stdin="%s\n%s\n" % (new_phrase, last_password))
        last_phrase, fingerprint = printed_phrase(out, "recover --new-phrase")
        expect_equal(24, len(last_phrase.split(" ")), "recover --new-phrase printed 24 words")
        last = Vault(read(vault.path))
        self.check_rekeyed(renewed, renewed.master_key_from_password(newer_password), last, last_password,
                           last_phrase, "vault recover --new-phrase")
        expect_equal(recovery_fingerprint(last.recovery_r), fingerprint, "recover --new-phrase's fingerprint")
        self.refused(last.data, "the phrase before recover --new-phrase", {"wrong recovery phrase"}, {5},
                     phrase=new_phrase)
        expect_equal(vault.saves, last.generation, "generation of the small vault at the end")

    def check_rekeyed(self, old: Vault, old_master: bytes, new: Vault, password: str, phrase: str, what: str,
                      kind: int = RECOVERY_KIND_CURRENT) -> None:
        """A save that made a new M (passwd, recover): same vault, same records, every slot and record
        wrapped or sealed again, and (with the phrase known) the version-3 slots of check_new_slots."""
        master = new.master_key_from_password(password)
        expect(master != old_master, what + " kept M")
        expect_equal(master, new.master_key_from_phrase(phrase), what + ": M by phrase")
        records = new.open_records(master)
        expect_equal([(r["id"], r["version"], r["kind"], r["plaintext"]) for r in old.open_records(old_master)],
                     [(r["id"], r["version"], r["kind"], r["plaintext"]) for r in records],
                     what + " kept every record's id, version and fields")
        expect(not {r["sealed"] for r in old.records} & {r["sealed"] for r in new.records},
               what + " left a record sealed with the old master key")
        expect_equal((old.vault_id, old.created, old.generation + 1), (new.vault_id, new.created, new.generation),
                     what + ": vault id, created, generation + 1")
        expect(old.salt != new.salt, what + " kept the salt")
        expect(old.recovery_e != new.recovery_e, what + " kept E")
        check_new_slots(new, Keychain(phrase), master, what, self.device, kind)
        check_sync(new, self.device, what, writers=count_writer(old.sync["writers"], self.device, new.generation))
        if old.identity_wrapped is not None:
            expect(old.identity_wrapped != new.identity_wrapped, what + " kept the sealed identity slot")
        self.refused(new.data, what + ": the old M", {"tampered"}, {6}, master=old_master)

    def version1_vault(self) -> None:
        """The version-1 file of tests/data/vault/vectors.json through watchword-cli: read as it is,
        written as version 3 (the migration), then passwd, recover and passwd --new-phrase on it."""
        with open(VAULT_VECTORS, encoding="utf-8") as handle:
            vectors = json.load(handle)
        original = bytes.fromhex(vectors["file_hex"])
        password = bytes.fromhex(vectors["password_hex"]).decode("utf-8")
        phrase = vectors["recovery_mnemonic"]
        keychain = Keychain(phrase)
        v1 = Vault(original)
        v1_master = v1.master_key_from_password(password)
        v1_records = v1.open_records(v1_master)

        # Read without a save: the file stays version 1.
        vault = CliVault(self.cli, os.path.join(self.dir, "version1.wwv"))
        write(vault.path, original)
        self.compare_info(v1, json.loads(vault("info", "--json")[1]), target_ms=vectors["target_milliseconds"])
        listed = json.loads(vault("list", "--json", "--password-stdin", stdin=password + "\n")[1])
        compare_list(v1_records, listed)
        printed = json.loads(vault("codes", "--at", str(CODE_TIMES[1]), "--json", "--password-stdin",
                                   stdin=password + "\n")[1])
        self.counts["codes"] += compare_codes(v1_records, printed, CODE_TIMES[1])
        expect_equal(0, check_phrase(self.cli, vault.path, phrase), "check-phrase on the version-1 file")
        expect_equal(1, check_phrase(self.cli, vault.path, entropy_mnemonic(secrets.token_bytes(32))),
                     "check-phrase on the version-1 file with another phrase")
        expect_equal(original, read(vault.path), "reading a version-1 file left it as it was")
        # Readers accept field 0x11 in a record of any version (section 6.4).
        with_changes = replace_record(v1, v1_master, 1, insert_changes(v1_records[1]["plaintext"],
                                                                       [(self.device, 3)]))
        expect_equal([(self.device, 3)], Vault(with_changes).open_records(v1_master)[1]["fields"]["changes"],
                     "a version-1 record with changes")
        self.cli_opens(with_changes, "version1-changes", password, len(v1_records))

        # The first save with the password writes version 3: the password slot and the records
        # byte for byte, a recovery slot of type 3, kind 1, the same R, no identity slot, and a
        # sync slot that names this device as the writer but not as the maker of the key.
        account = test_accounts()[0]
        started = int(time.time())
        _, out, _ = vault("add", "--password-stdin", stdin="%s\n%s\n" % (password, build_uri(account)))
        added = out.strip()
        migrated = Vault(read(vault.path))
        expect_equal(original, read(vault.path + ".1"), "backup .1 is the version-1 file")
        expect_equal((3, [PASSWORD_SLOT, RECOVERY_SLOT, SYNC_SLOT], RECOVERY_KIND_V1, None),
                     (migrated.format_version, migrated.slot_order, migrated.recovery_kind, migrated.sharing_public),
                     "migrated: version 3, a password slot, a kind 1 recovery slot, no identity slot, a sync slot")
        check_sync(migrated, self.device, "migrated", key_made=0, key_device=bytes(8),
                   writers=[(self.device, v1.generation + 1)])
        expect_equal(v1.slots[PASSWORD_SLOT], migrated.slots[PASSWORD_SLOT], "migrated: the password slot unchanged")
        expect_equal(v1.recovery_r, migrated.recovery_r, "migrated: the same R")
        expect_equal(keychain.version1_recovery.public, migrated.recovery_r, "migrated: R the version-1 recovery key")
        expect(v1.recovery_e != migrated.recovery_e, "migrated: a fresh E")
        expect_equal((v1.vault_id, v1.created, v1.generation + 1), (migrated.vault_id, migrated.created,
                     migrated.generation), "migrated: vault id, created, generation + 1")
        expect(started <= migrated.modified <= int(time.time()), "migrated: modified is the time of the save")
        master = migrated.master_key_from_password(password)
        expect_equal(v1_master, master, "migrated: the same M")
        expect_equal(master, migrated.master_key_from_phrase(phrase), "migrated: M by the phrase (version-1 key)")
        records = migrated.open_records(master)
        kept = [(r["id"], r["version"], r["kind"], r["sealed"]) for r in v1.records]
        expect_equal(kept, [(r["id"], r["version"], r["kind"], r["sealed"]) for r in migrated.records
                            if r["id"].hex() != added], "migrated: the records byte for byte")
        check_record_fields(next(r for r in records if r["id"].hex() == added), account, started, int(time.time()),
                            self.device)
        expect(all("changes" not in r["fields"] for r in records if r["id"].hex() != added),
               "migrated: the records kept have no changes")
        self.counts["records"] += len(records)
        self.compare_info(migrated, json.loads(vault("info", "--json")[1]), target_ms=vectors["target_milliseconds"])
        expect_equal(0, check_phrase(self.cli, vault.path, phrase), "check-phrase on the migrated file")

        # A password change of the migrated vault keeps R and kind 1: it has no phrase to adopt.
        passwd = CliVault(self.cli, os.path.join(self.dir, "version1-passwd.wwv"))
        write(passwd.path, migrated.data)
        new_password = "ein neues Kennwort für die alte Datei ✓"
        passwd("passwd", "--target-ms", "1", "--password-stdin", stdin="%s\n%s\n" % (password, new_password))
        changed = Vault(read(passwd.path))
        changed_master = changed.master_key_from_password(new_password)
        expect(changed_master != master, "passwd of the migrated vault kept M")
        expect_equal((3, [PASSWORD_SLOT, RECOVERY_SLOT, SYNC_SLOT], RECOVERY_KIND_V1, migrated.recovery_r, None),
                     (changed.format_version, changed.slot_order, changed.recovery_kind, changed.recovery_r,
                      changed.sharing_public), "passwd of the migrated vault: kind 1, the same R, no identity slot")
        check_sync(changed, self.device, "passwd of the migrated vault", key_made=changed.modified,
                   key_device=self.device, writers=[(self.device, migrated.generation + 1)])
        expect(changed.recovery_e != migrated.recovery_e, "passwd of the migrated vault kept E")
        expect_equal(changed_master, changed.master_key_from_phrase(phrase), "passwd of the migrated vault: phrase")
        expect_equal([(r["id"], r["version"], r["plaintext"]) for r in records],
                     [(r["id"], r["version"], r["plaintext"]) for r in changed.open_records(changed_master)],
                     "passwd of the migrated vault: records")

        # The phrase used on it (vault recover): an identity slot; R and kind 1 kept, so the
        # fingerprint written down with the phrase stays true.
        passwd("recover", "--target-ms", "1", "--password-stdin", stdin="%s\n%s\n" % (phrase, RECOVERED_PASSWORD))
        adopted = Vault(read(passwd.path))
        self.check_rekeyed(changed, changed_master, adopted, RECOVERED_PASSWORD, phrase,
                           "vault recover of the migrated vault", RECOVERY_KIND_V1)
        expect_equal(migrated.recovery_r, adopted.recovery_r, "vault recover of the migrated vault kept R")
        expect_equal(0, check_phrase(self.cli, passwd.path, phrase), "check-phrase after recover of the migrated vault")

        # vault recover straight from the version-1 file.
        recover = CliVault(self.cli, os.path.join(self.dir, "version1-recover.wwv"))
        write(recover.path, original)
        recover("recover", "--target-ms", "1", "--password-stdin", stdin="%s\n%s\n" % (phrase, RECOVERED_PASSWORD))
        self.check_rekeyed(v1, v1_master, Vault(read(recover.path)), RECOVERED_PASSWORD, phrase,
                           "vault recover of the version-1 file", RECOVERY_KIND_V1)

        # vault passwd --new-phrase straight from the version-1 file.
        renew = CliVault(self.cli, os.path.join(self.dir, "version1-new-phrase.wwv"))
        write(renew.path, original)
        _, out, _ = renew("passwd", "--new-phrase", "--target-ms", "1", "--password-stdin",
                          stdin="%s\n%s\n" % (password, new_password))
        new_phrase, fingerprint = printed_phrase(out, "passwd --new-phrase of the version-1 file")
        renewed = Vault(read(renew.path))
        self.check_rekeyed(v1, v1_master, renewed, new_password, new_phrase,
                           "passwd --new-phrase of the version-1 file")
        expect_equal(recovery_fingerprint(renewed.recovery_r), fingerprint, "passwd --new-phrase's fingerprint")
        self.refused(renewed.data, "the version-1 file's phrase after --new-phrase", {"wrong recovery phrase"}, {5},
                     phrase=phrase)

    def examples_vaults(self) -> None:
        """The version-2 and version-3 worked examples through watchword-cli: read as they are; the
        version-2 file's first save is version 3 with every slot and record byte for byte and a sync
        slot added (key made 0, key device zero: the key was not made here); a removal from either
        leaves a tombstone with the record's changes and one more of this device, and the sync slot
        gains this device as a writer, the other devices' entries and the key's maker kept."""
        for path, version in [(VAULT_V2_VECTORS, 2), (VAULT_V3_VECTORS, 3)]:
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as handle:
                vectors = json.load(handle)
            what = "the version %d example" % version
            original = bytes.fromhex(vectors["file_hex"])
            password = bytes.fromhex(vectors["password_hex"]).decode("utf-8")
            old = Vault(original)
            master = old.master_key_from_password(password)
            records = old.open_records(master)
            vault = CliVault(self.cli, os.path.join(self.dir, "example-v%d.wwv" % version))
            write(vault.path, original)
            self.compare_info(old, json.loads(vault("info", "--json")[1]), target_ms=vectors["target_milliseconds"])
            compare_list(records, json.loads(vault("list", "--json", "--password-stdin", stdin=password + "\n")[1]))
            printed = json.loads(vault("codes", "--at", str(CODE_TIMES[2]), "--json", "--password-stdin",
                                       stdin=password + "\n")[1])
            self.counts["codes"] += compare_codes(records, printed, CODE_TIMES[2])
            expect_equal(0, check_phrase(self.cli, vault.path, vectors["recovery_mnemonic"]),
                         what + ": check-phrase")
            expect_equal(original, read(vault.path), "reading %s left it as it was" % what)

            # Remove the HOTP account: the file is version 3; the other records, the tombstones
            # there were and every slot but the sync slot are kept byte for byte.
            gone = next(r for r in records if r["kind"] == ACCOUNT and r["fields"]["otp_kind"] == "hotp")
            started = int(time.time())
            vault("remove", gone["id"].hex(), "--password-stdin", stdin=password + "\n")
            new = Vault(read(vault.path))
            expect_equal(original, read(vault.path + ".1"), what + ": backup .1 is the file before")
            expect_equal((3, old.vault_id, old.created, old.generation + 1, old.record_count),
                         (new.format_version, new.vault_id, new.created, new.generation, new.record_count),
                         what + " after remove: version 3, vault id, created, generation + 1, as many records")
            expect(started <= new.modified <= int(time.time()), what + " after remove: modified is the save's time")
            expect_equal(old.slot_order + ([] if SYNC_SLOT in old.slots else [SYNC_SLOT]), new.slot_order,
                         what + " after remove: the slots, a sync slot last if there was none")
            expect_equal({t: b for t, b in old.slots.items() if t != SYNC_SLOT},
                         {t: b for t, b in new.slots.items() if t != SYNC_SLOT},
                         what + " after remove: every slot but the sync slot byte for byte")
            check_sync(new, self.device, what + " after remove", key_made=old.sync["key_made"],
                       key_device=old.sync["key_device"],
                       writers=count_writer(old.sync["writers"], self.device, new.generation))
            expect_equal(master, new.master_key_from_password(password), what + " after remove: M")
            expect_equal(master, new.master_key_from_phrase(vectors["recovery_mnemonic"]),
                         what + " after remove: M by phrase")
            opened = new.open_records(master)
            expect(in_written_order(opened), what + " after remove: records, then tombstones by id")
            kept = [(r["id"], r["version"], r["kind"], r["sealed"]) for r in records if r["id"] != gone["id"]]
            expect_equal(kept, [(r["id"], r["version"], r["kind"], r["sealed"]) for r in opened
                                if r["id"] != gone["id"]],
                         what + " after remove: the other records and tombstones byte for byte")
            dead = [r for r in opened if r["id"] == gone["id"]]
            expect_equal([(TOMBSTONE, gone["version"] + 1)], [(r["kind"], r["version"]) for r in dead],
                         what + " after remove: a tombstone, version + 1")
            expect_equal({"modified": new.modified,
                          "changes": count_change(gone["fields"].get("changes", []), self.device)},
                         dead[0]["fields"], what + " after remove: the tombstone's time and changes")
            self.counts["records"] += len(opened)

    def merge_vaults(self) -> None:
        """Section 13 through watchword-cli vault merge: a copy changed on another device (its own
        configuration folder, so its own device) merged into a copy changed here. The merged file is
        version 3 as this reader reads it: the deletion made there is kept (its tombstone byte for byte),
        the records added on each side are kept, the one of the two added at the same sort position with
        the greater id moved after the others with a merge change, the generation one above both, the
        writers of both; merging the same copy again writes nothing, an older copy and another vault's
        are refused."""
        password = "Zusammenführen: zwei Geräte ✓"
        vault, phrase = make_vault(self.cli, self.dir, "merge.wwv", password)
        accounts = test_accounts()
        ids = []
        for account in (accounts[0], accounts[4], accounts[6]):  # TOTP, HOTP, Steam at positions 0, 1, 2
            ids.append(vault.mutate("add", "--password-stdin",
                                    stdin="%s\n%s\n" % (password, build_uri(account)))[1].strip())
        common = read(vault.path)
        base = Vault(common)
        # The other machine: its own configuration, so its own device, and its own copy.
        other_config = os.path.join(self.dir, "config-b")
        os.makedirs(other_config)
        other_env = dict(os.environ, XDG_CONFIG_HOME=other_config)
        os.makedirs(os.path.join(self.dir, "machine-b"))
        other = CliVault(self.cli, os.path.join(self.dir, "machine-b", "merge.wwv"), other_env)
        write(other.path, common)
        other("remove", ids[0], "--password-stdin", stdin=password + "\n")
        added_there = other("add", "--password-stdin", stdin="%s\n%s\n" % (password, build_uri(accounts[1])))[1].strip()
        there = Vault(read(other.path))
        device_b = there.sync["last_writer"]
        expect(device_b not in (self.device, bytes(8), MERGE_DEVICE), "the other machine's device %s" % device_b.hex())
        check_sync(there, device_b, "the other copy", key_made=base.sync["key_made"], key_device=self.device,
                   writers=count_writer(base.sync["writers"], device_b, base.generation + 2))
        added_here = vault.mutate("add", "--password-stdin", stdin="%s\n%s\n" % (password, build_uri(accounts[2])))[1]
        added_here = added_here.strip()
        here = Vault(read(vault.path))
        master = here.master_key_from_password(password)
        here_records = {r["id"]: r for r in here.open_records(master)}
        there_records = {r["id"]: r for r in there.open_records(master)}
        expect_equal(3, there_records[bytes.fromhex(added_there)]["fields"]["sort_position"],
                     "the record added there: the next sort position")
        expect_equal(3, here_records[bytes.fromhex(added_here)]["fields"]["sort_position"],
                     "the record added here: the same sort position")

        _, out, _ = vault("merge", other.path, "--json", "--password-stdin", stdin=password + "\n")
        report = json.loads(out)
        merged = Vault(read(vault.path))
        expect_equal(here.data, read(vault.path + ".1"), "merge: backup .1 is the file before")
        expect_equal(there.data, read(other.path), "merge left the other copy as it was")
        expect_equal((True, max(here.generation, there.generation) + 1),
                     (report["written"], report["generation"]), "merge: written, the generation printed")
        expect_equal((1, {"accounts": 1, "notes": 0, "contacts": 0}, {"accounts": 1, "notes": 0, "contacts": 0}),
                     (len(report["merged"]), report["merged"][0]["added"], report["merged"][0]["removed"]),
                     "merge: one account added, one removed")
        expect_equal(max(here.generation, there.generation) + 1, merged.generation,
                     "merge: the generation one above both copies'")
        expect_equal((3, here.vault_id, here.created), (merged.format_version, merged.vault_id, merged.created),
                     "merge: version 3, the same vault")
        expect_equal({t: b for t, b in here.slots.items() if t != SYNC_SLOT},
                     {t: b for t, b in merged.slots.items() if t != SYNC_SLOT}, "merge: the same M, the same slots")
        writers = dict(count_writer(here.sync["writers"], self.device, merged.generation))
        writers[device_b] = dict(there.sync["writers"])[device_b]
        writers = sorted(writers.items())
        check_sync(merged, self.device, "merge", key_made=here.sync["key_made"], key_device=self.device,
                   writers=writers)
        expect_equal(master, merged.master_key_from_phrase(phrase), "merge: M by phrase")
        records = merged.open_records(master)
        expect(in_written_order(records), "merge: records in (sort position, id) order, then the tombstones")
        by_id = {r["id"]: r for r in records}
        expect_equal(sorted(set(here_records) | set(there_records)), sorted(by_id),
                     "merge: every record and tombstone of either copy")
        # The deletion made there wins over the record unchanged here: its tombstone, byte for byte.
        gone = bytes.fromhex(ids[0])
        expect_equal((TOMBSTONE, there_records[gone]["sealed"]), (by_id[gone]["kind"], by_id[gone]["sealed"]),
                     "merge: the record deleted there is deleted, its tombstone as written there")
        for record_id in (bytes.fromhex(ids[1]), bytes.fromhex(ids[2])):
            expect_equal(here_records[record_id]["sealed"], by_id[record_id]["sealed"],
                         "merge: a record neither side changed keeps its bytes")
        # Added on both sides at position 3: the smaller id keeps it and its bytes; the other moves to 4,
        # with a merge change (version + 1, one more change of the merge device).
        both = sorted([(bytes.fromhex(added_here), here_records), (bytes.fromhex(added_there), there_records)])
        (stays, stays_from), (moves, moves_from) = both
        expect_equal(stays_from[stays]["sealed"], by_id[stays]["sealed"], "merge: the added record that stays")
        before, after = moves_from[moves], by_id[moves]
        expect_equal((2, 4, count_change(before["fields"]["changes"], MERGE_DEVICE)),
                     (after["version"], after["fields"]["sort_position"], after["fields"]["changes"]),
                     "merge: the added record that moves after the others, with a merge change")
        expect_equal({k: v for k, v in before["fields"].items() if k not in ("sort_position", "changes")},
                     {k: v for k, v in after["fields"].items() if k not in ("sort_position", "changes")},
                     "merge: the moved record's other fields")
        self.counts["records"] += len(records)

        # The same copy again: nothing new, nothing written.
        merged_bytes = read(vault.path)
        _, out, _ = vault("merge", other.path, "--json", "--password-stdin", stdin=password + "\n")
        expect_equal(False, json.loads(out)["written"], "merging the same copy again writes nothing")
        expect_equal(merged_bytes, read(vault.path), "merging the same copy again left the file as it was")
        # An older copy (the other machine's write before its last) and another vault's are refused.
        for name, data, status in [("an older copy", read(other.path + ".1"), 2),
                                   ("another vault", read(os.path.join(self.dir, "small.wwv")), 2)]:
            path = os.path.join(self.dir, "merge-refused.wwv")
            write(path, data)
            code, out, _ = vault("merge", path, "--password-stdin", stdin=password + "\n", check=False)
            expect_equal((status, ""), (code, out), "merge of %s: exit status, nothing printed" % name)
            expect_equal(merged_bytes, read(vault.path), "merge of %s left the vault as it was" % name)
            os.remove(path)

    def contacts_vault(self) -> None:
        """Contacts (kind 3) that watchword-cli writes, read here from section 6.4 alone."""
        with open(IDENTITY_VECTORS, encoding="utf-8") as handle:
            for vector in json.load(handle)["vectors"]:
                key = bytes.fromhex(vector["sharing_public_key"])
                expect_equal(vector["identity_text"], identity_text(key), "section 11: identity text")
                expect_equal(vector["fingerprint"], identity_fingerprint(key), "section 11: fingerprint")
        started = int(time.time())
        password = "Kontakte: Ω ﬁ ✓ 7"
        vault, phrase = make_vault(self.cli, self.dir, "contacts.wwv", password)
        account = test_accounts()[0]
        vault.mutate("add", "--password-stdin", stdin="%s\n%s\n" % (password, build_uri(account)))

        def contacts(*args, check=True):
            return run([self.cli, "contacts", args[0], vault.path] + list(args[1:]) + ["--password-stdin"],
                       password + "\n", check)

        def someone() -> bytes:
            return Keychain(entropy_mnemonic(secrets.token_bytes(16))).sharing.public

        people = {"Ålice Ünïcødé ✓": someone(), "bob": someone(), "Carol": someone()}
        for name, key in people.items():
            contacts("add", "--text", identity_text(key), "--name", name)
            vault.saves += 1
        contacts("verify", "BOB")
        contacts("rename", "carol", "Carol Ann")
        vault.saves += 2
        people["Carol Ann"] = people.pop("Carol")
        before = read(vault.path)
        own = identity_text(Keychain(phrase).sharing.public)
        code, _, err = contacts("add", "--text", own, "--name", "Me", check=False)
        expect(code == 1 and "your own identity" in err, "contacts add of the vault's own identity: %d %r" % (code, err))
        expect_equal(before, read(vault.path), "a refused contact left the file unchanged")
        finished = int(time.time())

        opened = Vault(read(vault.path))
        expect_equal(vault.saves, opened.generation, "generation after the contacts' saves")
        master = opened.master_key_from_password(password)
        records = opened.open_records(master)
        expect(in_written_order(records), "records with contacts not in (sort position, id) order")
        found = [r for r in records if r["kind"] == CONTACT]
        listed = json.loads(contacts("list", "--json")[1])["contacts"]
        expect_equal([r["id"].hex() for r in found], [entry["id"] for entry in listed], "contacts list: ids, in order")
        for record, entry in zip(found, listed):
            fields = record["fields"]
            what = "contact %s" % record["id"].hex()
            expect_equal({"id", "name", "verified", "fingerprint", "identity", "public_key"}, set(entry),
                         what + ": what contacts list --json shows")
            expect_equal(people[fields["name"]], fields["public_key"], what + ": the key added under its name")
            expect_equal(fields["name"] == "bob", fields["verified"], what + ": verified")
            expect_equal(1 if fields["name"] == "Ålice Ünïcødé ✓" else 2, record["version"], what + ": version")
            # One device made every change: one per version (added, then verified or renamed).
            expect_equal([(self.device, record["version"])], fields.get("changes"), what + ": changes")
            expect((fields["name"], fields["verified"], fields["public_key"].hex()) ==
                   (entry["name"], entry["verified"], entry["public_key"]), what + ": listed as read here")
            expect_equal(identity_text(fields["public_key"]), entry["identity"], what + ": identity text")
            expect_equal(identity_fingerprint(fields["public_key"]), entry["fingerprint"], what + ": fingerprint")
            expect(started <= fields["created"] <= fields["modified"] <= finished, what + ": times")
            self.counts["contacts"] += 1
        expect_equal(len(people), len(found), "contacts in the file")
        compare_list(records, json.loads(vault("list", "--json", "--password-stdin", stdin=password + "\n")[1]))

        # Contact fields sealed here with the right key: each broken rule is malformed for both readers.
        index = next(i for i, r in enumerate(opened.records) if r["kind"] == CONTACT)
        record = opened.records[index]
        items = fields_entries(Envelope(master).open(record["sealed"], record_ad(opened.vault_id, record)))
        good = replace_record(opened, master, index, encode_fields(items))
        expect_equal(len(records), len(Vault(good).open_records(master)), "a resealed contact opens")

        def without(tag):
            return [(t, v) for t, v in items if t != tag]

        def replaced(tag, value):
            return [(t, value if t == tag else v) for t, v in items]

        key = dict(items)[0x32]
        cases = [
            ("no name", without(0x31)),
            ("an empty name", replaced(0x31, b"")),
            ("a name of 257 bytes", replaced(0x31, b"n" * 257)),
            ("no public key", without(0x32)),
            ("key prefix 04", replaced(0x32, b"\x04" + key[1:])),
            ("a key not on the curve", replaced(0x32, b"\x02" + bytes(32))),
            ("a key of 32 bytes", replaced(0x32, key[:32])),
            ("no verified", without(0x33)),
            ("verified 2", replaced(0x33, b"\x02")),
            ("a tag label on a contact", sorted(items + [(0x09, b"friends")])),
            ("an account field on a contact", sorted(items + [(0x01, b"issuer")])),
            ("a note field on a contact", sorted(items + [(0x21, b"title")])),
        ]
        for name, broken in cases:
            bad = replace_record(opened, master, index, encode_fields(broken))
            self.refused(bad, "contact with " + name, {"malformed"}, {7}, master=master)
            self.cli_refuses(bad, "contact-" + name.replace(" ", "-"), password)

        # A version 1 file has no contacts: a record of kind 3 in one is malformed (step 2).
        with open(VAULT_VECTORS, encoding="utf-8") as handle:
            v1 = Vault(bytes.fromhex(json.load(handle)["file_hex"]))
        relabelled = bytearray(v1.data)
        relabelled[v1.records[1]["offset"] + 24] = CONTACT
        relabelled = fix_checksum(relabelled)
        self.refused(relabelled, "a contact in a version 1 file", {"malformed"}, {2})
        self.cli_refuses(relabelled, "version1-contact")
        # Nor a tombstone (kind 4, version 3 only) a version 1 or 2 file.
        relabelled = bytearray(v1.data)
        relabelled[v1.records[1]["offset"] + 24] = TOMBSTONE
        relabelled = fix_checksum(relabelled)
        self.refused(relabelled, "a tombstone in a version 1 file", {"malformed"}, {2})
        self.cli_refuses(relabelled, "version1-tombstone")
        if os.path.exists(VAULT_V2_VECTORS):
            with open(VAULT_V2_VECTORS, encoding="utf-8") as handle:
                v2 = Vault(bytes.fromhex(json.load(handle)["file_hex"]))
            relabelled = bytearray(v2.data)
            relabelled[v2.records[2]["offset"] + 24] = TOMBSTONE
            relabelled = fix_checksum(relabelled)
            self.refused(relabelled, "a tombstone in a version 2 file", {"malformed"}, {2})
            self.cli_refuses(relabelled, "version2-tombstone")

def open_command(path: str, recovery: bool) -> int:
    secret = sys.stdin.readline().rstrip("\n")
    try:
        vault = Vault(read(path))
        master = vault.master_key_from_phrase(secret) if recovery else vault.master_key_from_password(secret)
        records = vault.open_records(master)
    except VaultError as error:
        print("independent_vault: %s" % error, file=sys.stderr)
        return 1
    shown = []
    for record in records:
        fields = dict(record["fields"])
        if "secret" in fields:
            fields["secret"] = "%d bytes" % len(fields["secret"])
        for name in ("public_key", "received_from"):
            if name in fields:
                fields[name] = fields[name].hex()
        if "changes" in fields:
            fields["changes"] = [{"device": device.hex(), "count": count} for device, count in fields["changes"]]
        shown.append({"id": record["id"].hex(), "version": record["version"], "kind": KIND_NAMES[record["kind"]],
                      "fields": fields})
    print(json.dumps({"format_version": vault.format_version, "vault_id": vault.vault_id.hex(),
                      "recovery_kind": vault.recovery_kind,
                      "recovery_public_key": vault.recovery_r.hex() if vault.recovery_r else None,
                      "sharing_public_key": vault.sharing_public.hex() if vault.sharing_public else None,
                      "generation": vault.generation, "created": vault.created,
                      "modified": vault.modified, "iterations": vault.iterations,
                      "sync": {"last_writer": vault.sync["last_writer"].hex(), "key_made": vault.sync["key_made"],
                               "key_device": vault.sync["key_device"].hex(),
                               "writers": [{"device": device.hex(), "generation": generation}
                                           for device, generation in vault.sync["writers"]]},
                      "records": shown},
                     ensure_ascii=False, indent=1))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cli", nargs="?", help="path to watchword-cli")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR (must not exist) and keep it")
    parser.add_argument("--open", metavar="VAULT", help="only read VAULT with the secret on standard input")
    parser.add_argument("--recovery", action="store_true", help="with --open: the secret is the recovery phrase")
    options = parser.parse_args()
    if options.open:
        return open_command(options.open, options.recovery)
    if not options.cli:
        parser.error("the path of watchword-cli is required")

    started = time.monotonic()
    try:
        self_check()
        version2_examples = self_check_examples(VAULT_V2_VECTORS, 2)
        version3_examples = self_check_examples(VAULT_V3_VECTORS, 3)
    except (Failure, VaultError) as problem:
        print("independent_vault: the reader does not reproduce docs/FORMAT.md: %s" % problem, file=sys.stderr)
        return 1
    directory = options.keep or tempfile.mkdtemp(prefix="independent-vault-")
    if options.keep:
        os.makedirs(directory)
    # watchword-cli keeps its device in the configuration folder: one of the test's own, so that the
    # device is known (and the user's is left alone).
    config = os.path.join(os.path.abspath(directory), "config")
    os.makedirs(config)
    os.environ["XDG_CONFIG_HOME"] = config
    driver = Driver(os.path.abspath(options.cli), directory, config)
    try:
        driver.main_vault()
        driver.small_vault()
        driver.version1_vault()
        driver.examples_vaults()
        driver.merge_vaults()
        driver.contacts_vault()
    except (Failure, VaultError, subprocess.TimeoutExpired) as problem:
        print("independent_vault: FAILED: %s" % problem, file=sys.stderr)
        if not options.keep:
            print("independent_vault: files kept in %s" % directory, file=sys.stderr)
        return 1
    if not options.keep:
        shutil.rmtree(directory)
    counts = driver.counts
    print("independent_vault: worked examples reproduced (%s); %d records, %d contacts and %d codes agree with "
          "watchword-cli; %d damaged files refused by this reader, %d by watchword-cli; %.1f s"
          % ("versions 1, 2 and 3" if version2_examples and version3_examples else
             "versions 1 and 2; no vectors_v3.json" if version2_examples else "version 1; no vectors_v2.json",
             counts["records"], counts["contacts"], counts["codes"], counts["refused"], counts["cli refused"],
             time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
