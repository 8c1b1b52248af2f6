#!/usr/bin/python3
"""Writes envelope_vectors.json: Watchword share envelopes (docs/FORMAT.md
section 12), computed independently of the C++ code by envelope.py in this
folder (python3-cryptography for ECDH, HKDF-SHA256 and ChaCha20-Poly1305;
BIP340 Schnorr written out after BIP-340's reference code).

Every random input is fixed: secret keys are SHA-256 of a label (checked to lie
in [1, n-1]); ids, content keys, nonces and aux are SHA-256 of a label, cut to
size. The script checks what it writes: every envelope opens for each of its
recipients and for no one else, its signature verifies, the carriers read
back, and each tamper case gives the outcome section 12.4 names.

Run from this folder: /usr/bin/python3 generate_envelope_vectors.py > envelope_vectors.json
"""
import builtins
import csv
import hashlib
import hmac
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # leave no __pycache__ in tests/data
sys.path.insert(0, HERE)
import envelope as E  # noqa: E402

# --- BIP340 self-check: every row of BIP-340's own test-vectors.csv (copied
# as published into ../bip340/, see ../SOURCES.md). Rows with a secret key
# must sign to the published signature; every row must verify as published
# (a public key that does not lift to a point is a row that must fail).
with builtins.open(os.path.join(HERE, "..", "bip340", "test-vectors.csv")) as f:
    BIP340_ROWS = list(csv.DictReader(f))
assert len(BIP340_ROWS) == 15
for row in BIP340_ROWS:
    pk, msg, sig = (bytes.fromhex(row[k]) for k in ("public key", "message", "signature"))
    if row["secret key"]:
        sk, aux = bytes.fromhex(row["secret key"]), bytes.fromhex(row["aux_rand"])
        assert E.bip340_pubkey(sk) == pk
        assert E.bip340_sign(msg, sk, aux) == sig
    assert E.bip340_verify(msg, pk, sig) == (row["verification result"] == "TRUE"), row["index"]
assert E.public_key((3).to_bytes(32, "big"))[1:] == bytes.fromhex(BIP340_ROWS[0]["public key"])

# --- Fixed inputs ---------------------------------------------------------------


def secret(label: str) -> bytes:
    value = hashlib.sha256(label.encode()).digest()
    assert 1 <= int.from_bytes(value, "big") < E.N
    return value


def fixed(label: str, size: int) -> bytes:
    return hashlib.sha256(label.encode()).digest()[:size]


with open(os.path.join(HERE, "..", "keychain", "vectors.json"), encoding="utf-8") as f:
    KEYCHAIN = json.load(f)["vectors"][0]
assert KEYCHAIN["mnemonic"] == " ".join(["abandon"] * 11 + ["about"])
ABANDON_SECRET = bytes.fromhex(KEYCHAIN["sharing_secret_key"])
ABANDON_PUBLIC = bytes.fromhex(KEYCHAIN["sharing_public_key"])
assert E.public_key(ABANDON_SECRET) == ABANDON_PUBLIC

DOOR_BODY = "Front door: 4711#, garage 0815*, alarm off: 2580."
assert len(DOOR_BODY.encode("ascii")) == 49


def hkdf_by_hand(shared, salt):
    """HKDF-SHA256 for one block over hmac, to cross-check `cryptography`."""
    prk = hmac.new(salt, shared, hashlib.sha256).digest()
    return hmac.new(prk, E.WRAP_INFO + b"\x01", hashlib.sha256).digest()


def record_json(kind, fields, summary):
    return {"kind": kind, "kind_name": {1: "account", 2: "note"}[kind],
            "summary": summary, "fields_hex": fields.hex()}


def expect_failure(envelope, secret_key, outcome):
    try:
        E.open(envelope, secret_key)
    except E.EnvelopeError as error:
        assert error.outcome == outcome, (error.outcome, outcome, error)
        return
    raise AssertionError(f"opened, expected {outcome}")


def make_vector(name, description, sender_label, sender_secret, recipient_keys, records,
                created):
    """recipient_keys: [(label, secret)]; records: [(kind, fields, summary)]."""
    ephemerals = [secret(f"watchword envelope {name} ephemeral {i + 1}")
                  for i in range(len(recipient_keys))]
    inputs = {
        "envelope_id": fixed(f"watchword envelope {name} envelope id", 16),
        "created": created,
        "content_key": fixed(f"watchword envelope {name} content key", 32),
        "ephemeral_secrets": ephemerals,
        "payload_nonce": fixed(f"watchword envelope {name} payload nonce", 12),
        "aux": fixed(f"watchword envelope {name} aux", 32),
    }
    sealed = E.seal_detailed(sender_secret, [E.public_key(s) for _, s in recipient_keys],
                             [(k, f) for k, f, _ in records], **inputs)
    env = sealed["envelope"]
    assert env == E.seal(sender_secret, [E.public_key(s) for _, s in recipient_keys],
                         [(k, f) for k, f, _ in records], **inputs)

    # Checks: every recipient opens it, from its own side of the DH.
    for index, ((_, key), entry) in enumerate(zip(recipient_keys, sealed["recipients"])):
        assert E.shared_x(key, entry["ephemeral_public_key"]) == entry["shared_x"]
        assert hkdf_by_hand(entry["shared_x"], entry["ephemeral_public_key"]
                            + entry["public_key"]) == entry["wrap_key"]
        opened = E.open(env, key)
        assert opened == {"sender_key": sealed["sender_public_key"], "created": created,
                          "envelope_id": inputs["envelope_id"],
                          "records": [(k, f) for k, f, _ in records], "recipient_index": index}
    outsider = secret(f"watchword envelope {name} outsider")
    expect_failure(env, outsider, "NotForMe")
    message = hashlib.sha256(E.SIGNATURE_LABEL + env[:-64]).digest()
    assert message == sealed["signed_message"] and env[-64:] == sealed["signature"]
    assert E.bip340_verify(message, sealed["sender_public_key"][1:], sealed["signature"])
    armoured, qr = E.armour(env), E.qr_text(env)
    assert E.dearmour(armoured) == env and E.from_qr_text(qr) == env
    assert E.from_qr_text(armoured) == env
    assert E.dearmour("Hi,\r\n\r\n" + armoured.replace("\n", "\r\n") + "\r\nbye") == env

    sender_public = sealed["sender_public_key"]
    vector = {
        "name": name,
        "description": description,
        "sender_label": sender_label,
        "sender_secret_key": sender_secret.hex(),
        "sender_public_key": sender_public.hex(),
        "sender_y": "even" if sender_public[0] == 2 else "odd",
        "recipients": [],
        "outsider_secret_key": outsider.hex(),
        "envelope_id": inputs["envelope_id"].hex(),
        "created": created,
        "content_key": inputs["content_key"].hex(),
        "payload_nonce": inputs["payload_nonce"].hex(),
        "aux_rand": inputs["aux"].hex(),
        "records": [record_json(k, f, s) for k, f, s in records],
        "plaintext": sealed["plaintext"].hex(),
        "prefix": sealed["prefix"].hex(),
        "header": sealed["header"].hex(),
        "payload": sealed["payload"].hex(),
        "signed_message": message.hex(),
        "signature": sealed["signature"].hex(),
        "envelope_size": len(env),
        "envelope": env.hex(),
        "armoured": armoured,
        "qr_text": qr,
    }
    for (label, key), entry in zip(recipient_keys, sealed["recipients"]):
        vector["recipients"].append({
            "label": label,
            "secret_key": key.hex(),
            "public_key": entry["public_key"].hex(),
            "ephemeral_secret_key": entry["ephemeral_secret_key"].hex(),
            "ephemeral_public_key": entry["ephemeral_public_key"].hex(),
            "shared_x": entry["shared_x"].hex(),
            "wrap_key": entry["wrap_key"].hex(),
            "wrapped_key": entry["wrapped_key"].hex(),
        })
    return vector, sealed, [key for _, key in recipient_keys], inputs


def keys(name, count):
    labels = [f"watchword envelope vector {name} recipient {i + 1}" for i in range(count)]
    return [(label, secret(label)) for label in labels]


# --- Tamper cases ------------------------------------------------------------


def flip(data, offset, bit):
    out = bytearray(data)
    out[offset] ^= 1 << bit
    return bytes(out)


def region(n, length, offset):
    """The field of section 12.1 at offset: (name, recipient entry or None)."""
    header = 82 + E.ENTRY_SIZE * n
    if offset < 7:
        return "magic", None
    if offset == 7:
        return "version", None
    if offset < 24:
        return "envelope id", None
    if offset < 32:
        return "created", None
    if offset < 65:
        return "sender key", None
    if offset == 65:
        return "recipient count", None
    if offset < header - 16:
        entry, within = divmod(offset - 66, E.ENTRY_SIZE)
        name = "recipient key" if within < 33 else "ephemeral key" if within < 66 else \
            "wrapped key" if within < 82 else "wrapped key tag"
        return name, entry
    if offset < header - 4:
        return "payload nonce", None
    if offset < header:
        return "payload length", None
    if offset < header + length - 16:
        return "payload", None
    if offset < header + length:
        return "payload tag", None
    return "signature", None


def expected_outcome(env, n, length, offset, bit, opener):
    """The outcome section 12.4 names for env with one bit flipped, worked out
    from the field hit (not by opening): returns (outcome, step, reason)."""
    name, entry = region(n, length, offset)
    changed = flip(env, offset, bit)
    if name == "magic":
        return "NotAnEnvelope", 2, "magic is not WWSHARE"
    if name == "version":
        return "UnsupportedVersion", 3, f"version {changed[7]}"
    if name in ("envelope id", "created"):
        return "Tampered", 6, "the prefix is in every wrapped key's AD"
    if name == "sender key":
        if not E.is_compressed_point(changed[32:65]):
            return "Malformed", 4, "S is not a valid compressed point"
        return "Tampered", 6, "S is still a valid point; the prefix is in the wrapped key's AD"
    if name == "recipient count":
        return "Malformed", 4, f"n = {changed[65]}: out of range or total length wrong"
    if name == "recipient key":
        start = 66 + E.ENTRY_SIZE * entry
        key = changed[start:start + 33]
        others = [changed[66 + E.ENTRY_SIZE * j:66 + E.ENTRY_SIZE * j + 33]
                  for j in range(n) if j != entry]
        if not E.is_compressed_point(key):
            return "Malformed", 4, "R_i is not a valid compressed point"
        if key in others:
            return "Malformed", 4, "two R_i equal"
        if entry == opener:
            return "NotForMe", 5, "R_i is a valid point but no longer the opener's key"
        return "Tampered", 7, "another entry changed: the header is the payload's AD"
    if name == "ephemeral key":
        start = 66 + E.ENTRY_SIZE * entry + 33
        if not E.is_compressed_point(changed[start:start + 33]):
            return "Malformed", 4, "E_i is not a valid compressed point"
        if entry == opener:
            return "Tampered", 6, "E_i is a valid point, but another wrap key and AD"
        return "Tampered", 7, "another entry changed: the header is the payload's AD"
    if name in ("wrapped key", "wrapped key tag"):
        if entry == opener:
            return "Tampered", 6, "W_i fails its tag"
        return "Tampered", 7, "another entry changed: the header is the payload's AD"
    if name == "payload nonce":
        return "Tampered", 7, "the payload opens under another nonce"
    if name == "payload length":
        return "Malformed", 4, "total length is not 146 + 114n + L"
    if name in ("payload", "payload tag"):
        return "Tampered", 7, "the payload fails its tag"
    return "ForgedSender", 8, "the signature does not verify"


def find_bit(env, start, end, want_valid, key_start):
    """The first (offset, bit) in [start, end) whose flip leaves the 33-byte key
    at key_start valid (want_valid) or not."""
    for offset in range(start, end):
        for bit in range(8):
            changed = flip(env, offset, bit)
            if E.is_compressed_point(changed[key_start:key_start + 33]) == want_valid:
                return offset, bit
    raise AssertionError("no such bit")


def tamper_cases(env, n, secrets, picks):
    length = struct.unpack(">I", env[78 + E.ENTRY_SIZE * n:82 + E.ENTRY_SIZE * n])[0]
    cases = []
    for offset, bit, opener in picks:
        outcome, step, reason = expected_outcome(env, n, length, offset, bit, opener)
        expect_failure(flip(env, offset, bit), secrets[opener], outcome)
        name, entry = region(n, length, offset)
        cases.append({"offset": offset, "bit": bit, "field": name,
                      "entry": entry, "opened_by_recipient": opener,
                      "expected": outcome, "step": step, "reason": reason})
    fields_hit = {c["field"] for c in cases}
    return cases, fields_hit


# --- Vectors ------------------------------------------------------------------

CREATED = 1767225600  # 2026-01-01T00:00:00Z

# a. The benchmark case: one 49-byte note to one recipient.
note_a = E.note_fields(title="Door code", body=DOOR_BODY, created=CREATED - 86400,
                       modified=CREATED - 3600)
sender_a = secret("watchword envelope vector a sender")
vector_a, sealed_a, secrets_a, inputs_a = make_vector(
    "vector a", "one note of 49 bytes (title 'Door code') to one recipient: the benchmark case",
    "watchword envelope vector a sender", sender_a, keys("a", 1),
    [(2, note_a, {"title": "Door code", "body": DOOR_BODY, "created": CREATED - 86400,
                  "modified": CREATED - 3600, "sort_position": 0})],
    CREATED + 86400)
assert vector_a["sender_y"] == "even"

env_a = sealed_a["envelope"]
n_a = 1
header_a = 82 + E.ENTRY_SIZE * n_a
end_a = len(env_a)
picks = [(0, 0, 0), (6, 7, 0), (7, 1, 0), (8, 0, 0), (23, 7, 0), (31, 0, 0),
         (32, 0, 0), (32, 2, 0),
         find_bit(env_a, 33, 65, False, 32) + (0,), find_bit(env_a, 33, 65, True, 32) + (0,),
         (65, 0, 0), (65, 1, 0),
         (66, 0, 0), find_bit(env_a, 67, 99, False, 66) + (0,),
         find_bit(env_a, 67, 99, True, 66) + (0,),
         (99, 0, 0), find_bit(env_a, 100, 132, False, 99) + (0,),
         find_bit(env_a, 100, 132, True, 99) + (0,),
         (132, 0, 0), (179, 7, 0),
         (180, 0, 0), (191, 7, 0),
         (192, 7, 0), (195, 0, 0),
         (header_a, 0, 0), (end_a - 65, 7, 0),
         (end_a - 64, 0, 0), (end_a - 32, 0, 0), (end_a - 1, 7, 0)]
vector_a["tamper_cases"], hit = tamper_cases(env_a, n_a, secrets_a, picks)
assert hit == {"magic", "version", "envelope id", "created", "sender key", "recipient count",
               "recipient key", "ephemeral key", "wrapped key", "wrapped key tag",
               "payload nonce", "payload length", "payload", "payload tag", "signature"}
assert {c["expected"] for c in vector_a["tamper_cases"]} == {
    "NotAnEnvelope", "UnsupportedVersion", "Malformed", "NotForMe", "Tampered", "ForgedSender"}

# Whole-envelope cases for vector a (opened by its recipient).
outsider_a = bytes.fromhex(vector_a["outsider_secret_key"])
forged = E.seal_detailed(sender_a, [E.public_key(secrets_a[0])], [(2, note_a)], **inputs_a)
forged_env = forged["envelope"][:-64] + E.bip340_sign(forged["signed_message"], outsider_a,
                                                      inputs_a["aux"])
assert forged["envelope"] == env_a
other_cases = [
    {"description": "the envelope opened with the outsider's secret key",
     "envelope": env_a.hex(), "opened_with": "outsider", "expected": "NotForMe"},
    {"description": "the envelope without its last byte", "envelope": env_a[:-1].hex(),
     "opened_with": "recipient", "expected": "Malformed"},
    {"description": "the envelope followed by one zero byte", "envelope": (env_a + b"\0").hex(),
     "opened_with": "recipient", "expected": "Malformed"},
    {"description": "no bytes", "envelope": "", "opened_with": "recipient",
     "expected": "NotAnEnvelope"},
    {"description": "its first 7 bytes (WWSHARE)", "envelope": env_a[:7].hex(),
     "opened_with": "recipient", "expected": "NotAnEnvelope"},
    {"description": "its first 8 bytes", "envelope": env_a[:8].hex(),
     "opened_with": "recipient", "expected": "Malformed"},
    {"description": "its first 275 bytes (one short of the smallest envelope)",
     "envelope": env_a[:275].hex(), "opened_with": "recipient", "expected": "Malformed"},
    {"description": "version byte 0", "envelope": (env_a[:7] + b"\0" + env_a[8:]).hex(),
     "opened_with": "recipient", "expected": "UnsupportedVersion"},
    {"description": "the same bytes, signed (BIP340, same aux) with the outsider's secret key "
                    "instead of the sender's", "envelope": forged_env.hex(),
     "opened_with": "recipient", "expected": "ForgedSender"},
    {"description": "the envelope followed by zero bytes up to 1,048,576 bytes in all "
                    "(not too large; the length does not match)",
     "construct": "envelope || zero bytes, 1048576 bytes", "opened_with": "recipient",
     "expected": "Malformed"},
    {"description": "the envelope followed by zero bytes up to 1,048,577 bytes in all",
     "construct": "envelope || zero bytes, 1048577 bytes", "opened_with": "recipient",
     "expected": "TooLarge"},
]
for case in other_cases:
    data = bytes.fromhex(case["envelope"]) if "envelope" in case else \
        env_a + bytes(int(case["construct"].split(", ")[1].split()[0]) - len(env_a))
    key = outsider_a if case["opened_with"] == "outsider" else secrets_a[0]
    expect_failure(data, key, case["expected"])
vector_a["other_cases"] = other_cases

# Payloads that are sealed, wrapped and signed correctly but are not a valid P
# (section 12.3): step 9, malformed.
P_note = struct.pack(">H", 1) + bytes([2]) + struct.pack(">I", len(note_a)) + note_a
note_no_body = E._field(0x0c, struct.pack(">q", CREATED)) + \
    E._field(0x0d, struct.pack(">q", CREATED)) + E._field(0x0f, bytes(4)) + \
    E._field(0x21, b"Door code")
totp_five = (E._field(0x03, b"12345678901234567890") + E._field(0x04, b"\x01") +
             E._field(0x05, b"\x01") + E._field(0x06, b"\x05") +
             E._field(0x07, struct.pack(">I", 30)) + E._field(0x0c, struct.pack(">q", CREATED)) +
             E._field(0x0d, struct.pack(">q", CREATED)) + E._field(0x0f, bytes(4)))
bad_payloads = [
    ("record count 0, nothing after it", struct.pack(">H", 0)),
    ("record count 2, one record", struct.pack(">H", 2) + P_note[2:]),
    ("record count 1, kind 3 (contact) with the note's fields",
     P_note[:2] + b"\x03" + P_note[3:]),
    ("record count 1, kind 0", P_note[:2] + b"\x00" + P_note[3:]),
    ("the note, then one zero byte", P_note + b"\0"),
    ("the note's length one more than its fields", P_note[:3]
     + struct.pack(">I", len(note_a) + 1) + note_a),
    ("a note without its body (0x22): section 6.4", struct.pack(">H", 1) + b"\x02"
     + struct.pack(">I", len(note_no_body)) + note_no_body),
    ("a TOTP account with 5 digits: section 6.4", struct.pack(">H", 1) + b"\x01"
     + struct.pack(">I", len(totp_five)) + totp_five),
]
payload_cases = []
for i, (description, plaintext) in enumerate(bad_payloads):
    label = f"watchword envelope vector a bad payload {i + 1}"
    sealed = E.seal_detailed(sender_a, [E.public_key(secrets_a[0])], None, plaintext=plaintext,
                             envelope_id=fixed(label + " envelope id", 16), created=CREATED,
                             content_key=fixed(label + " content key", 32),
                             ephemeral_secrets=[secret(label + " ephemeral 1")],
                             payload_nonce=fixed(label + " payload nonce", 12),
                             aux=fixed(label + " aux", 32))
    expect_failure(sealed["envelope"], secrets_a[0], "Malformed")
    payload_cases.append({"description": description, "plaintext": plaintext.hex(),
                          "envelope": sealed["envelope"].hex(), "expected": "Malformed",
                          "step": 9})
vector_a["malformed_payload_cases"] = payload_cases

# Carrier cases (section 12.5) for vector a.
armoured_a = vector_a["armoured"]
b64_a = "".join(armoured_a.split("\n")[1:-2])
carrier_cases = [
    {"description": "armoured text inside a message, CR LF line ends, Base64 lines indented",
     "text": "Here it is:\r\n" + E.ARMOUR_BEGIN + "\r\n"
             + "".join(f"\t{line} \r\n" for line in armoured_a.split("\n")[1:-2])
             + E.ARMOUR_END + "\r\nThanks", "expected": "envelope"},
    {"description": "the Base64 on one line between the markers",
     "text": f"{E.ARMOUR_BEGIN}\n{b64_a}\n{E.ARMOUR_END}\n", "expected": "envelope"},
    {"description": "no BEGIN line", "text": armoured_a.split("\n", 1)[1],
     "expected": "NotAnEnvelope"},
    {"description": "a character outside Base64 between the markers",
     "text": armoured_a.replace(b64_a[:4], b64_a[:3] + "*", 1), "expected": "Malformed"},
    {"description": "a padding character missing",
     "text": armoured_a.replace("=\n", "\n", 1), "expected": "Malformed"},
    {"description": "QR text", "text": vector_a["qr_text"], "expected": "envelope",
     "reader": "qr"},
    {"description": "armoured text read from a QR code", "text": armoured_a,
     "expected": "envelope", "reader": "qr"},
]
assert armoured_a.split("\n")[-3].endswith("=")  # the padding case above removes one
for case in carrier_cases:
    read = E.from_qr_text if case.get("reader") == "qr" else E.dearmour
    case.setdefault("reader", "armour")
    try:
        assert read(case["text"]) == env_a and case["expected"] == "envelope"
    except E.EnvelopeError as error:
        assert error.outcome == case["expected"], (case, error.outcome)
vector_a["carrier_cases"] = carrier_cases

# b. A TOTP account (RFC 6238's SHA-1 secret) and a note, to three recipients.
account_b = E.account_fields(issuer="ACME", account_name="alice@example.com",
                             secret=b"12345678901234567890", otp_kind="totp", algorithm="SHA1",
                             digits=6, period=30, created=CREATED - 30 * 86400,
                             modified=CREATED - 7 * 86400)
note_b = E.note_fields(title="Wi-Fi", body="SSID: ACME guest\npassword: correct horse battery",
                       created=CREATED - 2 * 86400, modified=CREATED - 2 * 86400)
recipients_b = keys("b", 3)
vector_b, sealed_b, secrets_b, _ = make_vector(
    "vector b", "a TOTP account and a note to three recipients",
    "watchword envelope vector b sender", secret("watchword envelope vector b sender"),
    recipients_b,
    [(1, account_b, {"issuer": "ACME", "account_name": "alice@example.com",
                     "secret_ascii": "12345678901234567890", "otp_kind": "totp",
                     "algorithm": "SHA1", "digits": 6, "period": 30,
                     "created": CREATED - 30 * 86400, "modified": CREATED - 7 * 86400,
                     "sort_position": 0}),
     (2, note_b, {"title": "Wi-Fi", "body": "SSID: ACME guest\npassword: correct horse battery",
                  "created": CREATED - 2 * 86400, "modified": CREATED - 2 * 86400,
                  "sort_position": 0})],
    CREATED + 2 * 86400)
assert vector_b["sender_y"] == "even"
env_b = sealed_b["envelope"]
entry = lambda i: 66 + E.ENTRY_SIZE * i  # noqa: E731
vector_b["tamper_cases"], _ = tamper_cases(env_b, 3, secrets_b, [
    (entry(1) + 70, 3, 0), (entry(1) + 70, 3, 1),     # W_2: others step 7, its own step 6
    (entry(2), 0, 0), (entry(2), 0, 2),               # R_3's prefix 02<->03
    (entry(0) + 33, 0, 1), (entry(0) + 33, 0, 0),     # E_1's prefix
    (65, 0, 0),                                        # n = 3 -> 2
    (len(env_b) - 1, 0, 2),                            # signature
])

# c. A sender whose sharing key has an odd y, to the "abandon ... about" key.
vector_c, sealed_c, secrets_c, _ = make_vector(
    "vector c", "a sender whose sharing key has an odd y (03): BIP340 negates its secret; "
                "the recipient is the sharing key of the 'abandon ... about' phrase "
                "(../keychain/vectors.json, vector 1)",
    "watchword envelope vector c sender", secret("watchword envelope vector c sender"),
    [("keychain vector 1 sharing key (abandon ... about)", ABANDON_SECRET)],
    [(2, E.note_fields(title="Hello", body="Sent with an odd-y sharing key.",
                       created=CREATED, modified=CREATED),
      {"title": "Hello", "body": "Sent with an odd-y sharing key.", "created": CREATED,
       "modified": CREATED, "sort_position": 0})],
    CREATED + 3 * 86400)
assert vector_c["sender_y"] == "odd"
assert vector_c["recipients"][0]["public_key"] == ABANDON_PUBLIC.hex()

# The QR limit of section 12.5: 1,734 bytes fit, 1,735 do not.
assert len(E.QR_PREFIX) + 4 * ((E.QR_MAX_ENVELOPE + 2) // 3) <= E.QR_MAX_TEXT
assert len(E.QR_PREFIX) + 4 * ((E.QR_MAX_ENVELOPE + 3) // 3) > E.QR_MAX_TEXT
try:
    E.qr_text(bytes(E.QR_MAX_ENVELOPE + 1))
    raise AssertionError("QR text of 1,735 bytes")
except E.TooLargeForQr:
    pass

print(json.dumps({
    "description": "Watchword share envelopes (docs/FORMAT.md section 12), with every random "
                   "input fixed; computed by envelope.py independently of the C++ code",
    "wrap_info": E.WRAP_INFO.decode(),
    "signature_label": E.SIGNATURE_LABEL.decode(),
    "outcomes": ["TooLarge", "NotAnEnvelope", "UnsupportedVersion", "Malformed", "NotForMe",
                 "Tampered", "ForgedSender"],
    "vectors": [vector_a, vector_b, vector_c],
}, indent=2))
