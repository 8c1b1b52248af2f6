#!/usr/bin/python3
"""The Watchword share envelope (docs/FORMAT.md section 12), written from the
text of that section independently of the C++ code, for the test vectors.

Interpreter: /usr/bin/python3 (Debian 12: Python 3.11, python3-cryptography 38).
`cryptography` gives secp256k1 ECDH, HKDF-SHA256 and ChaCha20-Poly1305; BIP340
Schnorr is not in it, so it is written out below after the reference code
printed in BIP-340 (github.com/bitcoin/bips, bip-0340/reference.py).
"""
import base64
import hashlib
import struct

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

MAGIC = b"WWSHARE"
VERSION = 1
MAX_SIZE = 1_048_576
MAX_RECIPIENTS = 16
MAX_RECORDS = 256
ENTRY_SIZE = 33 + 33 + 48
WRAP_INFO = b"watchword/share/v1 envelope key"
SIGNATURE_LABEL = b"watchword/share/v1 envelope signature"
ARMOUR_BEGIN = "-----BEGIN WATCHWORD SHARE-----"
ARMOUR_END = "-----END WATCHWORD SHARE-----"
QR_PREFIX = "watchword-share:"
QR_MAX_TEXT = 2331     # QR version 40, level M, byte mode
QR_MAX_ENVELOPE = 1734  # largest envelope whose QR text fits QR_MAX_TEXT
KIND_ACCOUNT = 1
KIND_NOTE = 2


# --- Outcomes of section 12.4 (and 12.5) -------------------------------------

class EnvelopeError(Exception):
    """Base of the outcomes; `outcome` is the class name."""

    @property
    def outcome(self):
        return type(self).__name__


class TooLarge(EnvelopeError):
    pass


class NotAnEnvelope(EnvelopeError):
    pass


class UnsupportedVersion(EnvelopeError):
    def __init__(self, version):
        super().__init__(f"unsupported version {version}")
        self.version = version


class Malformed(EnvelopeError):
    pass


class NotForMe(EnvelopeError):
    pass


class Tampered(EnvelopeError):
    pass


class ForgedSender(EnvelopeError):
    pass


class TooLargeForQr(EnvelopeError):
    pass


# --- secp256k1 and BIP340 ----------------------------------------------------
# Transcribed from the reference code printed in BIP-340 ("Schnorr Signatures
# for secp256k1", bip-0340/reference.py): tagged hashes, lift_x, x-only keys,
# the secret negated when its point has an odd y. Affine arithmetic, not
# constant time: for test vectors only.

P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
G = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
     0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8)


def tagged_hash(tag: str, msg: bytes) -> bytes:
    tag_hash = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(tag_hash + tag_hash + msg).digest()


def point_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    if p1[0] == p2[0] and p1[1] != p2[1]:
        return None
    if p1 == p2:
        lam = (3 * p1[0] * p1[0] * pow(2 * p1[1], P - 2, P)) % P
    else:
        lam = ((p2[1] - p1[1]) * pow(p2[0] - p1[0], P - 2, P)) % P
    x3 = (lam * lam - p1[0] - p2[0]) % P
    return (x3, (lam * (p1[0] - x3) - p1[1]) % P)


def point_mul(point, scalar: int):
    result = None
    for i in range(256):
        if (scalar >> i) & 1:
            result = point_add(result, point)
        point = point_add(point, point)
    return result


def int_from_bytes(b: bytes) -> int:
    return int.from_bytes(b, "big")


def bytes_from_int(x: int) -> bytes:
    return x.to_bytes(32, "big")


def bytes_from_point(point) -> bytes:
    """x-only encoding (BIP340)."""
    return bytes_from_int(point[0])


def has_even_y(point) -> bool:
    return point[1] % 2 == 0


def lift_x(x: int):
    """The point with x-coordinate x and an even y, or None (BIP340)."""
    if x >= P:
        return None
    y_sq = (pow(x, 3, P) + 7) % P
    y = pow(y_sq, (P + 1) // 4, P)
    if pow(y, 2, P) != y_sq:
        return None
    return (x, y if y & 1 == 0 else P - y)


def xor_bytes(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def bip340_pubkey(seckey: bytes) -> bytes:
    d0 = int_from_bytes(seckey)
    if not 1 <= d0 <= N - 1:
        raise ValueError("the secret key must be an integer in the range 1..n-1")
    return bytes_from_point(point_mul(G, d0))


def bip340_sign(msg: bytes, seckey: bytes, aux_rand: bytes) -> bytes:
    d0 = int_from_bytes(seckey)
    if not 1 <= d0 <= N - 1:
        raise ValueError("the secret key must be an integer in the range 1..n-1")
    if len(aux_rand) != 32:
        raise ValueError("aux_rand must be 32 bytes")
    point = point_mul(G, d0)
    d = d0 if has_even_y(point) else N - d0
    t = xor_bytes(bytes_from_int(d), tagged_hash("BIP0340/aux", aux_rand))
    k0 = int_from_bytes(tagged_hash("BIP0340/nonce", t + bytes_from_point(point) + msg)) % N
    if k0 == 0:
        raise RuntimeError("failure; this happens only with negligible probability")
    r_point = point_mul(G, k0)
    k = k0 if has_even_y(r_point) else N - k0
    e = int_from_bytes(tagged_hash("BIP0340/challenge",
                                   bytes_from_point(r_point) + bytes_from_point(point) + msg)) % N
    sig = bytes_from_point(r_point) + bytes_from_int((k + e * d) % N)
    if not bip340_verify(msg, bytes_from_point(point), sig):
        raise RuntimeError("the created signature does not pass verification")
    return sig


def bip340_verify(msg: bytes, pubkey: bytes, sig: bytes) -> bool:
    if len(pubkey) != 32:
        raise ValueError("the public key must be a 32-byte array")
    if len(sig) != 64:
        raise ValueError("the signature must be a 64-byte array")
    point = lift_x(int_from_bytes(pubkey))
    r = int_from_bytes(sig[0:32])
    s = int_from_bytes(sig[32:64])
    if point is None or r >= P or s >= N:
        return False
    e = int_from_bytes(tagged_hash("BIP0340/challenge", sig[0:32] + pubkey + msg)) % N
    r_point = point_add(point_mul(G, s), point_mul(point, N - e))
    if r_point is None or not has_even_y(r_point) or r_point[0] != r:
        return False
    return True


def is_compressed_point(data: bytes) -> bool:
    """Section 3's check: exactly 33 bytes, prefix 02 or 03, x on the curve
    (x < p and x^3 + 7 a square mod p)."""
    return len(data) == 33 and data[0] in (2, 3) and lift_x(int_from_bytes(data[1:])) is not None


def _scalar(secret: bytes) -> int:
    value = int_from_bytes(secret)
    if len(secret) != 32 or not 1 <= value <= N - 1:
        raise ValueError("a secret key is 32 bytes, 1 <= k < n")
    return value


def _private(secret: bytes):
    return ec.derive_private_key(_scalar(secret), ec.SECP256K1())


def _public(data: bytes):
    assert is_compressed_point(data)
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), data)


def public_key(secret: bytes) -> bytes:
    """Compressed SEC 1 encoding of secret·G (by `cryptography`, checked against
    the arithmetic above)."""
    data = _private(secret).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
    point = point_mul(G, _scalar(secret))
    assert data == bytes([2 + (point[1] & 1)]) + bytes_from_int(point[0])
    return data


def shared_x(secret: bytes, public: bytes) -> bytes:
    """x(secret·public), 32 bytes, not hashed (section 3)."""
    return _private(secret).exchange(ec.ECDH(), _public(public))


def wrap_key(shared: bytes, ephemeral_public: bytes, recipient_public: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=ephemeral_public + recipient_public,
                info=WRAP_INFO).derive(shared)


# --- Section 6.4 fields --------------------------------------------------------

OTP_KINDS = {"totp": 1, "hotp": 2, "steam": 3}
ALGORITHMS = {"SHA1": 1, "SHA256": 2, "SHA512": 3}


def _field(tag: int, value: bytes) -> bytes:
    return bytes([tag]) + struct.pack(">I", len(value)) + value


def _code(value, table):
    return table[value] if isinstance(value, str) else int(value)


def account_fields(*, issuer="", account_name="", secret: bytes, otp_kind, algorithm, digits,
                   period=None, counter=None, tags=(), note="", icon_reference="",
                   created: int, modified: int, last_used=None, sort_position=0) -> bytes:
    """An OTP account's fields (section 6.4), tags ascending; empty optional
    strings omitted. otp_kind: "totp"/"hotp"/"steam" or 1-3; algorithm:
    "SHA1"/"SHA256"/"SHA512" or 1-3."""
    out = b""
    if issuer:
        out += _field(0x01, issuer.encode())
    if account_name:
        out += _field(0x02, account_name.encode())
    out += _field(0x03, bytes(secret))
    out += _field(0x04, bytes([_code(otp_kind, OTP_KINDS)]))
    out += _field(0x05, bytes([_code(algorithm, ALGORITHMS)]))
    out += _field(0x06, bytes([digits]))
    if period is not None:
        out += _field(0x07, struct.pack(">I", period))
    if counter is not None:
        out += _field(0x08, struct.pack(">Q", counter))
    for label in tags:
        out += _field(0x09, label.encode())
    if note:
        out += _field(0x0a, note.encode())
    if icon_reference:
        out += _field(0x0b, icon_reference.encode())
    out += _field(0x0c, struct.pack(">q", created))
    out += _field(0x0d, struct.pack(">q", modified))
    if last_used is not None:
        out += _field(0x0e, struct.pack(">q", last_used))
    out += _field(0x0f, struct.pack(">I", sort_position))
    decode_fields(KIND_ACCOUNT, out)  # a writer writes only what reads back
    return out


def note_fields(*, title: str, body: str, created: int, modified: int, sort_position=0,
                tags=()) -> bytes:
    """A secure note's fields (section 6.4); title and body always written."""
    out = b""
    for label in tags:
        out += _field(0x09, label.encode())
    out += _field(0x0c, struct.pack(">q", created))
    out += _field(0x0d, struct.pack(">q", modified))
    out += _field(0x0f, struct.pack(">I", sort_position))
    out += _field(0x21, title.encode())
    out += _field(0x22, body.encode())
    decode_fields(KIND_NOTE, out)
    return out


ACCOUNT_TAGS = set(range(0x01, 0x10))
NOTE_TAGS = {0x09, 0x0c, 0x0d, 0x0f, 0x21, 0x22}
STRING_TAGS = {0x01, 0x02, 0x09, 0x0a, 0x0b, 0x21, 0x22}
INT_SIZES = {0x04: 1, 0x05: 1, 0x06: 1, 0x07: 4, 0x08: 8, 0x0c: 8, 0x0d: 8, 0x0e: 8, 0x0f: 4}
SIGNED = {0x0c, 0x0d, 0x0e}


def decode_fields(kind: int, data: bytes) -> dict:
    """Decodes and checks a record's fields by section 6.4; raises Malformed.

    Checked: the TLV structure (tag 1 || length 4 || value, nothing running
    past the end); tags strictly ascending except 0x09, which may repeat only
    right after itself; no unknown tag and none of the other kind (a note has
    0x09, 0x0c, 0x0d, 0x0f, 0x21, 0x22; an account 0x01 to 0x0f); integers of
    exactly 1/4/8 bytes; strings UTF-8 without NUL; the secret 1 to 1024
    bytes; tag labels 1 to 256 bytes and distinct; the required fields
    present; the OTP parameter table (kind and algorithm 1-3, digits,
    period/counter present or absent by kind, Steam = SHA-1/5/30).
    """
    if kind not in (KIND_ACCOUNT, KIND_NOTE):
        raise Malformed(f"record kind {kind}")
    allowed = ACCOUNT_TAGS if kind == KIND_ACCOUNT else NOTE_TAGS
    values, tags, pos, previous = {}, [], 0, 0
    while pos < len(data):
        if len(data) - pos < 5:
            raise Malformed("field header runs past the end")
        tag = data[pos]
        length = struct.unpack(">I", data[pos + 1:pos + 5])[0]
        pos += 5
        if length > len(data) - pos:
            raise Malformed("field value runs past the end")
        value = data[pos:pos + length]
        pos += length
        if tag not in allowed:
            raise Malformed(f"tag {tag:#04x} not of this kind")
        if not (tag > previous or (tag == previous == 0x09)):
            raise Malformed(f"tag {tag:#04x} out of order or repeated")
        previous = tag
        if tag in INT_SIZES:
            if len(value) != INT_SIZES[tag]:
                raise Malformed(f"tag {tag:#04x}: integer of the wrong size")
            value = int.from_bytes(value, "big", signed=tag in SIGNED)
        elif tag in STRING_TAGS:
            try:
                text = value.decode("utf-8")
            except UnicodeDecodeError:
                raise Malformed(f"tag {tag:#04x}: not UTF-8") from None
            if "\0" in text:
                raise Malformed(f"tag {tag:#04x}: NUL")
            value = text
        if tag == 0x09:
            if not 1 <= length <= 256 or value in tags:
                raise Malformed("tag label empty, too long or repeated")
            tags.append(value)
        else:
            values[tag] = value
    required = {0x0c, 0x0d, 0x0f} | ({0x03, 0x04, 0x05, 0x06} if kind == KIND_ACCOUNT
                                     else {0x21, 0x22})
    if not required <= values.keys():
        raise Malformed("a required field is missing")
    if kind == KIND_NOTE:
        return {"kind": "note", "tags": tags, "created": values[0x0c], "modified": values[0x0d],
                "sort_position": values[0x0f], "title": values[0x21], "body": values[0x22]}
    otp_kind, algorithm, digits = values[0x04], values[0x05], values[0x06]
    if not 1 <= len(values[0x03]) <= 1024:
        raise Malformed("secret size")
    if otp_kind not in (1, 2, 3) or algorithm not in (1, 2, 3):
        raise Malformed("OTP kind or algorithm code")
    if otp_kind in (1, 2) and not 6 <= digits <= 10:
        raise Malformed("digits")
    if otp_kind == 3 and (algorithm != 1 or digits != 5 or values.get(0x07) != 30):
        raise Malformed("Steam parameters")
    if otp_kind in (1, 3) and (values.get(0x07, 0) == 0 or 0x08 in values):
        raise Malformed("period required and counter absent for TOTP and Steam")
    if otp_kind == 2 and (0x08 not in values or 0x07 in values):
        raise Malformed("counter required and period absent for HOTP")
    return {"kind": "account", "issuer": values.get(0x01, ""),
            "account_name": values.get(0x02, ""), "secret": values[0x03],
            "otp_kind": {1: "totp", 2: "hotp", 3: "steam"}[otp_kind],
            "algorithm": {1: "SHA1", 2: "SHA256", 3: "SHA512"}[algorithm], "digits": digits,
            "period": values.get(0x07), "counter": values.get(0x08), "tags": tags,
            "note": values.get(0x0a, ""), "icon_reference": values.get(0x0b, ""),
            "created": values[0x0c], "modified": values[0x0d], "last_used": values.get(0x0e),
            "sort_position": values[0x0f]}


# --- Section 12.3: the payload plaintext P -------------------------------------

def encode_payload(records) -> bytes:
    """P = count (2) || per record kind (1) || length (4) || fields. No checks."""
    out = struct.pack(">H", len(records))
    for kind, fields in records:
        out += bytes([kind]) + struct.pack(">I", len(fields)) + fields
    return out


def decode_payload(plaintext: bytes) -> list:
    """Section 12.3 read strictly: count 1 to 256, that many records, kind 1 or
    2, each length within what is left, each record's fields passing
    decode_fields (section 6.4), nothing after the last record. Does not
    require sort position 0 or 0x0e absent (12.3 asks that of writers only).
    Raises Malformed."""
    if len(plaintext) < 2:
        raise Malformed("P shorter than its count")
    count = struct.unpack(">H", plaintext[:2])[0]
    if not 1 <= count <= MAX_RECORDS:
        raise Malformed(f"record count {count}")
    records, pos = [], 2
    for _ in range(count):
        if len(plaintext) - pos < 5:
            raise Malformed("record header runs past the end")
        kind = plaintext[pos]
        length = struct.unpack(">I", plaintext[pos + 1:pos + 5])[0]
        pos += 5
        if kind not in (KIND_ACCOUNT, KIND_NOTE):
            raise Malformed(f"record kind {kind}")
        if length > len(plaintext) - pos:
            raise Malformed("record runs past the end")
        fields = plaintext[pos:pos + length]
        pos += length
        decode_fields(kind, fields)
        records.append((kind, fields))
    if pos != len(plaintext):
        raise Malformed("bytes after the last record")
    return records


# --- Section 12.2: sealing -----------------------------------------------------

def seal_detailed(sender_secret: bytes, recipients, records, *, envelope_id: bytes, created: int,
                  content_key: bytes, ephemeral_secrets, payload_nonce: bytes, aux: bytes,
                  plaintext: bytes = None) -> dict:
    """Section 12.2 with every random input given. Returns the envelope and
    the intermediates. `plaintext`, if given, replaces P as encoded from
    `records` unchecked (for vectors of malformed payloads only)."""
    recipients = [bytes(r) for r in recipients]
    if not 1 <= len(recipients) <= MAX_RECIPIENTS:
        raise ValueError("1 to 16 recipients")
    if len(set(recipients)) != len(recipients):
        raise ValueError("recipient keys must be distinct")
    if not all(is_compressed_point(r) for r in recipients):
        raise ValueError("a recipient key is not a compressed point")
    if len(ephemeral_secrets) != len(recipients):
        raise ValueError("one ephemeral secret per recipient")
    if len(envelope_id) != 16 or len(content_key) != 32 or len(payload_nonce) != 12 \
            or len(aux) != 32:
        raise ValueError("wrong size of a random input")
    if not -2**63 <= created < 2**63:
        raise ValueError("created is an i64")
    if plaintext is None:
        if not 1 <= len(records) <= MAX_RECORDS:
            raise ValueError("1 to 256 records")
        plaintext = encode_payload(records)
        if decode_payload(plaintext) != [(k, bytes(f)) for k, f in records]:
            raise ValueError("records do not decode")
    sender_public = public_key(sender_secret)
    prefix = MAGIC + bytes([VERSION]) + envelope_id + struct.pack(">q", created) + sender_public
    assert len(prefix) == 65
    entries, details = b"", []
    for recipient, ephemeral in zip(recipients, ephemeral_secrets):
        ephemeral_public = public_key(ephemeral)
        shared = shared_x(ephemeral, recipient)
        key = wrap_key(shared, ephemeral_public, recipient)
        wrapped = ChaCha20Poly1305(key).encrypt(bytes(12), content_key,
                                                prefix + recipient + ephemeral_public)
        assert len(wrapped) == 48
        entries += recipient + ephemeral_public + wrapped
        details.append({"public_key": recipient, "ephemeral_secret_key": bytes(ephemeral),
                        "ephemeral_public_key": ephemeral_public, "shared_x": shared,
                        "wrap_key": key, "wrapped_key": wrapped})
    length = len(plaintext) + 16
    header = prefix + bytes([len(recipients)]) + entries + payload_nonce + struct.pack(">I", length)
    assert len(header) == 82 + ENTRY_SIZE * len(recipients)
    payload = ChaCha20Poly1305(content_key).encrypt(payload_nonce, plaintext, header)
    signed = header + payload
    message = hashlib.sha256(SIGNATURE_LABEL + signed).digest()
    signature = bip340_sign(message, sender_secret, aux)
    envelope = signed + signature
    assert len(envelope) == 146 + ENTRY_SIZE * len(recipients) + length
    if len(envelope) > MAX_SIZE:
        raise ValueError("an envelope is at most 1 MiB")
    return {"envelope": envelope, "sender_public_key": sender_public, "prefix": prefix,
            "recipients": details, "plaintext": plaintext, "header": header,
            "payload": payload, "signed_message": message, "signature": signature}


def seal(sender_secret: bytes, recipients, records, *, envelope_id: bytes, created: int,
         content_key: bytes, ephemeral_secrets, payload_nonce: bytes, aux: bytes) -> bytes:
    return seal_detailed(sender_secret, recipients, records, envelope_id=envelope_id,
                         created=created, content_key=content_key,
                         ephemeral_secrets=ephemeral_secrets, payload_nonce=payload_nonce,
                         aux=aux)["envelope"]


# --- Section 12.4: opening -----------------------------------------------------

def open(envelope: bytes, my_secret: bytes) -> dict:  # noqa: A001 (the brief's name)
    """Section 12.4, steps 1 to 9 in order; raises the first step's outcome."""
    envelope = bytes(envelope)
    # 1.
    if len(envelope) > MAX_SIZE:
        raise TooLarge(f"{len(envelope)} bytes")
    # 2.
    if len(envelope) < 8 or envelope[:7] != MAGIC:
        raise NotAnEnvelope()
    # 3.
    if envelope[7] != VERSION:
        raise UnsupportedVersion(envelope[7])
    # 4.
    if len(envelope) < 146 + ENTRY_SIZE + 16:
        raise Malformed("shorter than the smallest envelope")
    n = envelope[65]
    if not 1 <= n <= MAX_RECIPIENTS:
        raise Malformed(f"recipient count {n}")
    header_size = 82 + ENTRY_SIZE * n
    if len(envelope) < header_size:
        raise Malformed("shorter than its header")
    length = struct.unpack(">I", envelope[header_size - 4:header_size])[0]
    sender = envelope[32:65]
    entries = [envelope[66 + ENTRY_SIZE * i:66 + ENTRY_SIZE * (i + 1)] for i in range(n)]
    keys = [entry[:33] for entry in entries]
    ephemerals = [entry[33:66] for entry in entries]
    if not is_compressed_point(sender):
        raise Malformed("sender key")
    if not all(is_compressed_point(k) for k in keys + ephemerals):
        raise Malformed("a recipient or ephemeral key")
    if len(set(keys)) != n:
        raise Malformed("a recipient key twice")
    if length < 16 or len(envelope) != 146 + ENTRY_SIZE * n + length:
        raise Malformed("payload length")
    # 5.
    me = public_key(my_secret)
    if me not in keys:
        raise NotForMe()
    i = keys.index(me)
    # 6.
    prefix, ephemeral, wrapped = envelope[:65], ephemerals[i], entries[i][66:]
    key = wrap_key(shared_x(my_secret, ephemeral), ephemeral, me)
    try:
        content_key = ChaCha20Poly1305(key).decrypt(bytes(12), wrapped, prefix + me + ephemeral)
    except InvalidTag:
        raise Tampered("wrapped key") from None
    # 7.
    header = envelope[:header_size]
    nonce = header[header_size - 16:header_size - 4]
    payload = envelope[header_size:header_size + length]
    try:
        plaintext = ChaCha20Poly1305(content_key).decrypt(nonce, payload, header)
    except InvalidTag:
        raise Tampered("payload") from None
    # 8.
    message = hashlib.sha256(SIGNATURE_LABEL + envelope[:-64]).digest()
    if not bip340_verify(message, sender[1:], envelope[-64:]):
        raise ForgedSender()
    # 9.
    records = decode_payload(plaintext)
    created = struct.unpack(">q", envelope[24:32])[0]
    return {"sender_key": sender, "created": created, "envelope_id": envelope[8:24],
            "records": records, "recipient_index": i}


open_envelope = open


# --- Section 12.5: carriers ----------------------------------------------------

B64_ALPHABET = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def _strict_b64decode(text: str) -> bytes:
    """RFC 4648 section 4 with '=' padding, strictly: alphabet only, a multiple
    of 4 characters, '=' only as the last one or two, pad bits zero
    (RFC 4648 3.5 lets a decoder refuse non-zero ones; this one does)."""
    data = text.encode("ascii", "replace")
    if len(data) % 4:
        raise Malformed("Base64 length")
    body = data.rstrip(b"=")
    pad = len(data) - len(body)
    if pad > 2 or not set(body) <= B64_ALPHABET:
        raise Malformed("not Base64")
    decoded = base64.b64decode(data, validate=True)
    if base64.b64encode(decoded) != data:
        raise Malformed("Base64 pad bits not zero")
    return decoded


def armour(envelope: bytes) -> str:
    """BEGIN line, Base64 in lines of 64 characters, END line; each line
    ends with LF (including the last)."""
    text = base64.b64encode(envelope).decode("ascii")
    lines = [text[i:i + 64] for i in range(0, len(text), 64)]
    return "\n".join([ARMOUR_BEGIN] + lines + [ARMOUR_END]) + "\n"


def dearmour(text: str) -> bytes:
    """The first line that is the BEGIN marker (spaces, tabs and CR around it
    ignored), the next END line after it; anything outside them ignored;
    spaces, tabs, CR and LF between them dropped; strict Base64.
    No BEGIN line: NotAnEnvelope; no END line after it: Malformed."""
    lines = text.split("\n")
    stripped = [line.strip(" \t\r") for line in lines]
    if ARMOUR_BEGIN not in stripped:
        raise NotAnEnvelope("no BEGIN line")
    begin = stripped.index(ARMOUR_BEGIN)
    try:
        end = stripped.index(ARMOUR_END, begin + 1)
    except ValueError:
        raise Malformed("no END line") from None
    inner = "".join(lines[begin + 1:end])
    for c in " \t\r\n":
        inner = inner.replace(c, "")
    return _strict_b64decode(inner)


def qr_text(envelope: bytes) -> str:
    if len(envelope) > QR_MAX_ENVELOPE:
        raise TooLargeForQr(f"{len(envelope)} bytes")
    text = QR_PREFIX + base64.b64encode(envelope).decode("ascii")
    assert len(text.encode()) <= QR_MAX_TEXT
    return text


def from_qr_text(text: str) -> bytes:
    """`watchword-share:` (exact, lower case) then strict Base64 with nothing
    else; any other text is read as armoured text."""
    if text.startswith(QR_PREFIX):
        return _strict_b64decode(text[len(QR_PREFIX):])
    return dearmour(text)
