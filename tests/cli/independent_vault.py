#!/usr/bin/python3
"""A second vault reader, written from docs/FORMAT.md alone, checks watchword-cli.

The reader below (sections 1 to 4 and 6 of docs/FORMAT.md) shares no code with
src/core: the standard library's hashlib, hmac and unicodedata, and Debian's
python3-cryptography for AES-CBC, HKDF and secp256k1. It parses the whole
file, checks the checksum, the KDF bounds, every envelope tag and the
manifest, unlocks with a password or with the recovery phrase, and decodes
every record's fields, refusing whatever the document calls an error.

First it must reproduce the document's own worked examples (sections 1, 2, 3
and the vault of tests/data/vault/vectors.json). Then it drives the CLI:
init, accounts of every kind, a secure note, remove, passwd; and it requires
that
  * the new password and the recovery phrase both open the file, and every
    record holds exactly what was put in and what `vault list --json` shows;
  * the codes it computes itself (section 4) equal `vault codes --at T --json`;
  * the header agrees with `vault info --json` and section 6.6 (generation,
    backups, slots rewritten, unchanged records keeping their sealed bytes);
  * the old password and wrong phrases are refused;
  * flipped bits are refused: by the checksum, and with the checksum fixed up
    by the slot tag or the manifest, and with the manifest fixed up too by the
    record's own tag; records it seals itself with broken fields are refused
    as malformed; watchword-cli refuses each of these files as well.

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


class Keychain:
    def __init__(self, typed_phrase: str, passphrase: str = ""):
        self.mnemonic = normalize_mnemonic(typed_phrase)
        self.entropy = mnemonic_entropy(self.mnemonic)
        salt = b"mnemonic" + unicodedata.normalize("NFKD", passphrase).encode("utf-8")
        self.seed = hashlib.pbkdf2_hmac("sha512", self.mnemonic.encode("utf-8"), salt, 2048, 64)
        self.prk = hmac.new(b"watchword/keychain/v1", self.seed, hashlib.sha512).digest()
        self.identity_secret = self._identity_secret()
        self.private_key = ec.derive_private_key(self.identity_secret, ec.SECP256K1())
        self.identity_public = compressed(self.private_key.public_key())
        self.recovery_wrapping_key = hkdf_expand_sha512(self.prk, b"recovery wrapping key", 32)

    def _identity_secret(self) -> int:
        label = b"identity secp256k1"
        for info in [label] + [label + bytes([k]) for k in range(1, 256)]:
            candidate = int.from_bytes(hkdf_expand_sha512(self.prk, info, 32), "big")
            if 0 < candidate < SECP256K1_N:
                return candidate
        raise MnemonicError("no valid identity key")


def compressed(public_key) -> bytes:
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)


def parse_compressed_point(data: bytes):
    if len(data) != 33 or data[0] not in (2, 3):
        raise ValueError("not a 33-byte compressed point")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), data)


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

    def seal(self, plaintext: bytes, ad: bytes, iv: bytes = None) -> bytes:
        iv = os.urandom(16) if iv is None else iv
        n = 16 - len(plaintext) % 16
        encryptor = Cipher(algorithms.AES(self.ke), modes.CBC(iv)).encryptor()
        ciphertext = encryptor.update(plaintext + bytes([n]) * n) + encryptor.finalize()
        return iv + ciphertext + self._tag(ad, iv, ciphertext)


def note_key(shared_x: bytes, e_pub: bytes, r_pub: bytes) -> bytes:
    return hkdf_sha256(shared_x, b"watchword/share/v1 note key", salt=e_pub + r_pub)


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
PASSWORD_SLOT, RECOVERY_SLOT = 1, 2
SLOT_SIZES = {PASSWORD_SLOT: 145, RECOVERY_SLOT: 162}
ACCOUNT, NOTE = 1, 2
MIN_ITERATIONS, MAX_ITERATIONS = 600_000, 50_000_000
SLOT_AD = b"watchword/vault/v1 slot"
RECORD_AD = b"watchword/vault/v1 record"
MANIFEST_INFO = b"watchword/vault/v1 manifest"

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
    0x0C: ("created", {ACCOUNT, NOTE}, "i64"),
    0x0D: ("modified", {ACCOUNT, NOTE}, "i64"),
    0x0E: ("last_used", {ACCOUNT}, "i64"),
    0x0F: ("sort_position", {ACCOUNT, NOTE}, "u32"),
    0x21: ("title", {NOTE}, "string"),
    0x22: ("body", {NOTE}, "string"),
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
    """Steps 1 to 4 of section 6.5 happen on construction; no key is needed."""

    def __init__(self, data: bytes):
        self.data = data
        # Step 1.
        if data[:min(len(data), 8)] != MAGIC[:min(len(data), 8)]:
            raise VaultError("not a vault", 1)
        if len(data) < HEADER_LENGTH + 32 + 32:
            raise VaultError("truncated", 1, "%d bytes" % len(data))
        self.format_version = struct.unpack(">H", data[8:10])[0]
        if self.format_version != 1:
            raise VaultError("unsupported version %d" % self.format_version, 1)
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
        if self.slot_count not in (1, 2):
            raise VaultError("malformed", 2, "slot count %d" % self.slot_count)
        self.header = data[:HEADER_LENGTH]
        self.slots = {}
        self.slot_offsets = {}
        for index in range(self.slot_count):
            start = cursor.offset
            slot_type = cursor.u(1, "slot type")
            length = cursor.u(2, "slot length")
            if slot_type not in SLOT_SIZES:
                raise VaultError("malformed", 2, "unknown slot type %d" % slot_type)
            if slot_type in self.slots:
                raise VaultError("malformed", 2, "duplicate slot type %d" % slot_type)
            if index == 0 and slot_type != PASSWORD_SLOT:
                raise VaultError("malformed", 2, "the password slot is not first")
            if length != SLOT_SIZES[slot_type]:
                raise VaultError("malformed", 2, "slot %d length %d" % (slot_type, length))
            self.slot_offsets[slot_type] = (start, start + 3 + length)
            self.slots[slot_type] = cursor.take(length, "slot body")
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
            if kind not in (ACCOUNT, NOTE):
                raise VaultError("malformed", 2, "record kind %d" % kind)
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
        if RECOVERY_SLOT in self.slots:
            slot = self.slots[RECOVERY_SLOT]
            self.recovery_r, self.recovery_e, self.recovery_wrapped = slot[:33], slot[33:66], slot[66:]
        else:
            self.recovery_r = self.recovery_e = self.recovery_wrapped = None

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
        if keychain.identity_public != self.recovery_r:
            raise VaultError("wrong recovery phrase", 5, "identity key is not R")
        try:
            e_point = parse_compressed_point(self.recovery_e)
        except ValueError as error:
            raise VaultError("malformed", 5, "E: %s" % error)
        shared = keychain.private_key.exchange(ec.ECDH(), e_point)
        return note_key(shared, self.recovery_e, self.recovery_r)

    def master_key_from_phrase(self, phrase: str, passphrase: str = "") -> bytes:
        try:
            keychain = Keychain(phrase, passphrase)
        except MnemonicError as error:
            raise VaultError("not a recovery phrase", 5, str(error))
        kek = self.recovery_kek(keychain)
        try:
            master = Envelope(kek).open(self.recovery_wrapped, self._slot_ad(RECOVERY_SLOT))
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

    def open_records(self, master: bytes) -> list:
        expected = hmac.new(self.manifest_key(master), self.data[:self.body_end], hashlib.sha256).digest()
        if not hmac.compare_digest(expected, self.manifest):
            raise VaultError("tampered", 6, "manifest")
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


def in_written_order(records: list) -> bool:
    """6.3 asks writers for ascending (sort position, record id); 6.5 gives readers no error for it."""
    order = [(r["fields"]["sort_position"], r["id"]) for r in records]
    return order == sorted(order)


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
        elif tag == 0x09:
            label = decode_string(value)
            if not 1 <= length <= 256:
                raise ValueError("tag label of %d bytes" % length)
            if label in fields["tags"]:
                raise ValueError("repeated tag label %r" % label)
            fields["tags"].append(label)
        else:
            fields[name] = decode_string(value)
    for name in ("created", "modified", "sort_position"):
        if name not in fields:
            raise ValueError("%s missing" % name)
    if kind == NOTE:
        for name in ("title", "body"):
            if name not in fields:
                raise ValueError("%s missing" % name)
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
    # Section 1, vector 1.
    chain = Keychain("abandon " * 11 + "about")
    expect_equal("48a637680eea7fd2b3deafcc5d2c7c8cdd0a9524fb73ed1039f1698d7963985b",
                 "%064x" % chain.identity_secret, "section 1 identity secret")
    expect_equal("02dd44b228d37cb24a1c97873e950ee92964dd5267f30ea69c70a7b1ce08184ad1",
                 chain.identity_public.hex(), "section 1 identity public key")
    expect_equal("95eb33c09f959001ba1ebd473232086694acdabad733f87203e466dc4ff693f2",
                 chain.recovery_wrapping_key.hex(), "section 1 recovery wrapping key")
    expect_equal(entropy_mnemonic(bytes(16)), chain.mnemonic, "section 1 mnemonic")
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


def run(args, stdin: str = "", check: bool = True):
    result = subprocess.run(args, input=stdin.encode("utf-8"), capture_output=True, timeout=120)
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


class CliVault:
    def __init__(self, cli: str, path: str):
        self.cli, self.path = cli, path
        self.saves = 0

    def __call__(self, *args, stdin="", check=True):
        return run([self.cli, "vault"] + [args[0], self.path] + list(args[1:]), stdin, check)

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
    phrases = [line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("recovery phrase:")]
    expect_equal(1, len(phrases), "init printed one recovery phrase")
    return vault, phrases[0]


def check_record_fields(record: dict, account: dict, started: int, finished: int) -> None:
    got = record["fields"]
    what = "record %s (%s)" % (record["id"].hex(), account["name"])
    expect_equal(ACCOUNT, record["kind"], what + " kind")
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


def replace_record(vault: Vault, master: bytes, index: int, plaintext: bytes) -> bytes:
    """The file with record `index` sealed again over `plaintext`, manifest and checksum fixed up."""
    record = vault.records[index]
    sealed = Envelope(master).seal(plaintext, record_ad(vault.vault_id, record))
    head = vault.data[record["offset"]:record["offset"] + 25] + struct.pack(">I", len(sealed))
    data = bytearray(vault.data[:record["offset"]] + head + sealed + vault.data[record["end"]:])
    return fix_manifest(data, vault.manifest_key(master))


class Driver:
    def __init__(self, cli: str, directory: str):
        self.cli, self.dir = cli, directory
        self.counts = {"records": 0, "codes": 0, "refused": 0, "cli refused": 0}

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
        vault.mutate("passwd", "--password-stdin", stdin="%s\n%s\n" % (old_password, new_password))
        data = read(vault.path)

        # Section 6.6: backups, and what a save keeps.
        expect_equal(before_passwd, read(vault.path + ".1"), "backup .1 is the file before passwd")
        expect_equal(before_remove, read(vault.path + ".2"), "backup .2 is the file before remove")
        self.check_saves(Vault(before_remove), Vault(before_passwd), old_password, removed)

        opened = Vault(data)
        expect_equal(vault.saves, opened.generation, "generation after %d saves" % vault.saves)
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
        expect_equal([(r["id"], r["kind"], r["plaintext"]) for r in old.open_records(old_master)],
                     [(r["id"], r["kind"], r["plaintext"]) for r in records], "passwd kept every record's fields")
        expect(not {r["sealed"] for r in old.records} & {r["sealed"] for r in opened.records},
               "passwd left a record sealed with the old master key")
        expect_equal(old.vault_id, opened.vault_id, "vault id kept by passwd")
        expect_equal(old.created, opened.created, "created kept by passwd")
        expect(old.salt != opened.salt, "passwd kept the salt")
        expect_equal(old.recovery_r, opened.recovery_r, "passwd kept R")
        expect(old.recovery_e != opened.recovery_e, "passwd kept E")

        expect_equal(master, opened.master_key_from_phrase(phrase), "M by phrase")
        # 1.1: typed phrases are normalized.
        shouting = "  " + phrase.upper().replace(" ", " \t\n ") + "\n"
        expect_equal(master, opened.master_key_from_phrase(shouting), "M by the phrase typed loosely")

        expect_equal(len(ids) + 1, len(records), "records after remove")
        expect(removed not in [r["id"].hex() for r in records], "the removed record is still in the file")
        for record in records:
            expect(record["version"] >= 1, "record version %d" % record["version"])
            if record["id"].hex() == note_id:
                fields = record["fields"]
                expect_equal(NOTE, record["kind"], "note kind")
                expect_equal(NOTE_TITLE, fields["title"], "note title")
                expect_equal(NOTE_BODY, fields["body"], "note body")
                expect_equal([], fields["tags"], "note tags")
                expect(started <= fields["created"] <= fields["modified"] <= finished, "note times")
            else:
                check_record_fields(record, ids[record["id"].hex()], started, finished)
            self.counts["records"] += 1
        expect_equal(sorted(list(ids) + [note_id]), sorted(r["id"].hex() for r in records), "record ids")

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

        self.tamper(opened, master, new_password, phrase)
        self.break_fields(opened, master, new_password)

    def check_saves(self, before: Vault, after: Vault, password: str, removed: str) -> None:
        """Removing a record is a save that keeps the other records' sealed bytes (6.6)."""
        expect_equal(before.generation + 1, after.generation, "generation +1 on remove")
        master = before.master_key_from_password(password)
        expect_equal(master, after.master_key_from_password(password), "remove kept M")
        before_records, after_records = before.open_records(master), after.open_records(master)
        expect(in_written_order(before_records) and in_written_order(after_records),
               "records not in (sort position, id) order before or after remove")
        kept = [(r["id"], r["version"], r["kind"], r["sealed"]) for r in before_records if r["id"].hex() != removed]
        now = [(r["id"], r["version"], r["kind"], r["sealed"]) for r in after_records]
        expect_equal(kept, now, "records other than the removed one, byte for byte")
        expect(all(r["version"] == 1 for r in after.records), "records never changed have version 1")
        expect_equal(before.slots, after.slots, "slots unchanged by remove")

    def compare_info(self, vault: Vault, info: dict) -> None:
        ours = {"format_version": vault.format_version, "vault_id": vault.vault_id.hex(),
                "generation": vault.generation, "created": vault.created, "modified": vault.modified,
                "records": vault.record_count, "kdf": "PBKDF2-HMAC-SHA256", "iterations": vault.iterations,
                "target_ms": vault.target_ms, "measured_iterations_per_second": vault.rate,
                "recovery_slot": vault.recovery_r is not None,
                "recovery_public_key": vault.recovery_r.hex() if vault.recovery_r else None,
                "recovery_key_fingerprint": recovery_fingerprint(vault.recovery_r) if vault.recovery_r else None}
        for key, value in info.items():
            expect(key in ours, "vault info --json prints %r, which this test does not know how to check" % key)
            expect_equal(ours[key], value, "vault info " + key)
        expect_equal(MIN_ITERATIONS, vault.iterations, "iterations with --target-ms 1")
        expect_equal(1, vault.target_ms, "stored target")

    def tamper(self, vault: Vault, master: bytes, password: str, phrase: str) -> None:
        data = vault.data
        km = vault.manifest_key(master)
        pw_slot, _ = vault.slot_offsets[PASSWORD_SLOT]
        rec_slot, _ = vault.slot_offsets[RECOVERY_SLOT]
        pw_body, rec_body = pw_slot + 3, rec_slot + 3
        record = vault.records[len(vault.records) // 2]
        r0 = record["offset"]
        manifest = len(data) - 64

        # Without fixing the checksum: the structure checks or the checksum.
        structural = [("magic", 0, {"not a vault"}, {1}),
                      ("version", 9, {"unsupported version 3"}, {1}),
                      ("header length", 11, {"malformed"}, {2}),
                      ("reserved", 63, {"malformed"}, {2}),
                      ("slot count", 56, {"malformed"}, {2}),
                      ("record count", 55, {"truncated", "malformed"}, {2}),
                      ("slot type", pw_slot, {"malformed"}, {2}),
                      ("slot length", pw_slot + 2, {"malformed"}, {2}),
                      ("record kind", r0 + 24, {"malformed"}, {2}),
                      ("record length", r0 + 28, {"malformed"}, {2})]
        for name, offset, kinds, steps in structural:
            mask = 0x02 if name in ("version", "record kind") else 0x01
            bad = bytes(flip(data, offset, mask))
            self.refused(bad, "flipped " + name, kinds, steps)
            self.cli_refuses(bad, "raw-" + name.replace(" ", "-"))
        for name, offset in [("vault id", 12), ("generation", 35), ("modified", 51), ("salt", pw_body + 9),
                             ("password wrapped M", pw_body + 60), ("R", rec_body + 5), ("E", rec_body + 40),
                             ("recovery wrapped M", rec_body + 120), ("record id", r0 + 3),
                             ("record ciphertext", r0 + 50), ("record tag", record["end"] - 1),
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
            ("R", rec_body + 32, {"tampered"}, {"wrong recovery phrase"}),
            ("E", rec_body + 65, {"tampered"}, {"wrong recovery phrase", "malformed"}),
            ("recovery slot ciphertext", rec_body + 100, {"tampered"}, {"wrong recovery phrase"}),
            ("recovery slot tag", rec_body + 161, {"tampered"}, {"wrong recovery phrase"}),
            ("record id", r0, {"tampered"}, {"tampered"}),
            ("record version", r0 + 23, {"tampered"}, {"tampered"}),
            ("record IV", r0 + 29, {"tampered"}, {"tampered"}),
            ("record ciphertext", r0 + 60, {"tampered"}, {"tampered"}),
            ("record tag", record["end"] - 5, {"tampered"}, {"tampered"}),
            ("manifest", manifest, {"tampered"}, {"tampered"}),
        ]
        for name, offset, by_password, by_phrase in slot_or_manifest:
            bad = fix_checksum(flip(data, offset, 0x04))
            steps = {5} if by_password & {"wrong password", "wrong recovery phrase"} else {6}
            self.refused(bad, "flipped %s, checksum fixed, password" % name, by_password, steps, password=password)
            steps = {5} if by_phrase & {"wrong password", "wrong recovery phrase", "malformed"} else {6}
            self.refused(bad, "flipped %s, checksum fixed, phrase" % name, by_phrase, steps, phrase=phrase)
            self.cli_refuses(bad, "fixed-" + name.replace(" ", "-"), password)

        # Manifest and checksum fixed up: only the record's own tag can tell.
        for index, record in enumerate(vault.records):
            r0 = record["offset"]
            for name, offset, mask in [("id", r0 + 15, 0x01), ("version", r0 + 23, 0x01),
                                       ("kind", r0 + 24, 0x03), ("IV", r0 + 29 + index % 16, 0x40),
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

    def break_fields(self, vault: Vault, master: bytes, password: str) -> None:
        """Records sealed here with the right key: valid fields open, each broken rule is *malformed*."""
        account = next(i for i, r in enumerate(vault.records) if r["kind"] == ACCOUNT)
        note = next(i for i, r in enumerate(vault.records) if r["kind"] == NOTE)
        envelope = Envelope(master)
        entries = {}
        for index in (account, note):
            record = vault.records[index]
            entries[index] = fields_entries(envelope.open(record["sealed"], record_ad(vault.vault_id, record)))

        # Resealed unchanged (a new IV): both readers must still open it, or the cases below prove nothing.
        for index in (account, note):
            good = replace_record(vault, master, index, encode_fields(entries[index]))
            records = Vault(good).open_records(master)
            expect_equal(vault.records[index]["id"], records[index]["id"], "resealed record opens")
            path = os.path.join(self.dir, "resealed.wwv")
            write(path, good)
            listed = json.loads(run([self.cli, "vault", "list", path, "--json", "--password-stdin"],
                                    password + "\n")[1])
            expect_equal(len(vault.records), len(listed["records"]), "watchword-cli opens a resealed record")
            os.remove(path)

        def without(items, tag):
            return [(t, v) for t, v in items if t != tag]

        def replaced(items, tag, value):
            return [(t, value if t == tag else v) for t, v in items]

        acc, nte = entries[account], entries[note]
        cases = [
            (account, "unknown tag 0x10", sorted(acc + [(0x10, b"x")])),
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
            (note, "no body", without(nte, 0x22)),
            (note, "an account tag on a note", sorted(nte + [(0x03, b"secret")])),
            (note, "last used on a note", sorted(nte + [(0x0E, bytes(8))])),
        ]
        for index, name, items, *suffix in cases:
            plaintext = encode_fields(items) + b"".join(suffix)
            bad = replace_record(vault, master, index, plaintext)
            self.refused(bad, "record with " + name, {"malformed"}, {7}, master=master)
            self.cli_refuses(bad, "fields-" + name.replace(" ", "-").replace(",", ""), password)
        # A present empty optional string reads as empty (6.4); both readers accept it.
        empty_note = sorted(acc + [(0x0A, b"")])
        good = replace_record(vault, master, account, encode_fields(empty_note))
        expect_equal("", Vault(good).open_records(master)[account]["fields"]["note"], "empty optional string")

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
        check_record_fields(records[0], account, 0, int(time.time()))
        expect_equal(vault.saves, opened.generation, "generation of the small vault")


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
        shown.append({"id": record["id"].hex(), "version": record["version"],
                      "kind": "account" if record["kind"] == ACCOUNT else "note", "fields": fields})
    print(json.dumps({"vault_id": vault.vault_id.hex(), "generation": vault.generation, "created": vault.created,
                      "modified": vault.modified, "iterations": vault.iterations, "records": shown},
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
    except (Failure, VaultError) as problem:
        print("independent_vault: the reader does not reproduce docs/FORMAT.md: %s" % problem, file=sys.stderr)
        return 1
    directory = options.keep or tempfile.mkdtemp(prefix="independent-vault-")
    if options.keep:
        os.makedirs(directory)
    driver = Driver(os.path.abspath(options.cli), directory)
    try:
        driver.main_vault()
        driver.small_vault()
    except (Failure, VaultError, subprocess.TimeoutExpired) as problem:
        print("independent_vault: FAILED: %s" % problem, file=sys.stderr)
        if not options.keep:
            print("independent_vault: files kept in %s" % directory, file=sys.stderr)
        return 1
    if not options.keep:
        shutil.rmtree(directory)
    counts = driver.counts
    print("independent_vault: worked examples reproduced; %d records and %d codes agree with watchword-cli; "
          "%d damaged files refused by this reader, %d by watchword-cli; %.1f s"
          % (counts["records"], counts["codes"], counts["refused"], counts["cli refused"], time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
