#!/usr/bin/env python3
"""Writes the seed corpus in fuzz/corpus/<target>/ from the test data.

Seeds are derived, never hand-edited: rerun this after the test vectors
change (python3 fuzz/make_corpus.py). The files it writes are committed; the
fuzzer's own finds go to build/fuzz/corpus-work and are not.
"""

import hashlib
import json
import pathlib
import shutil
import sqlite3
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CORPUS = ROOT / "fuzz" / "corpus"

HEADER = 64
CHECKSUM = 32
MANIFEST = 32
SLOT_HEADER = 3
RECORD_HEADER = 29


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def with_checksum(body):
    return body + hashlib.sha256(body).digest()


def split_vault(file):
    """The worked example's parts (docs/FORMAT.md section 6)."""
    header = bytearray(file[:HEADER])
    at = HEADER
    slots = []
    for _ in range(header[56]):
        length = struct.unpack(">H", file[at + 1 : at + 3])[0]
        slots.append(file[at : at + SLOT_HEADER + length])
        at += SLOT_HEADER + length
    records = file[at : len(file) - MANIFEST - CHECKSUM]
    manifest = file[len(file) - MANIFEST - CHECKSUM : len(file) - CHECKSUM]
    return header, slots, records, manifest


def vault_seeds():
    vectors = json.loads((DATA / "vault" / "vectors.json").read_text())
    file = bytes.fromhex(vectors["file_hex"])
    header, slots, records, manifest = split_vault(file)
    password, recovery = slots
    write("fuzz-vault-file", "worked-example", file)

    # The variants keep a valid checksum so that they reach the later steps;
    # their manifests no longer match, which only unlocking would notice.
    one_slot = bytearray(header)
    one_slot[56] = 1
    write("fuzz-vault-file", "password-slot-only",
          with_checksum(bytes(one_slot) + password + records + manifest))

    no_records = bytearray(header)
    no_records[52:56] = struct.pack(">I", 0)
    write("fuzz-vault-file", "no-records",
          with_checksum(bytes(no_records) + password + recovery + manifest))

    # Refused: the password slot must come first (docs/FORMAT.md section 6.2).
    write("fuzz-vault-file", "recovery-slot-first",
          with_checksum(bytes(header) + recovery + password + records + manifest))

    low_iterations = bytearray(password)
    low_iterations[SLOT_HEADER + 1 : SLOT_HEADER + 5] = struct.pack(">I", 1)
    write("fuzz-vault-file", "iterations-out-of-bounds",
          with_checksum(bytes(no_records) + bytes(low_iterations) + manifest))

    write("fuzz-vault-file", "truncated", file[: HEADER + CHECKSUM])

    # Version 2: the worked example (three slots), its identity slot alone
    # beside the password slot, and the version 1 example migrated.
    v2 = json.loads((DATA / "vault" / "vectors_v2.json").read_text())
    file2 = bytes.fromhex(v2["file_hex"])
    header2, slots2, records2, manifest2 = split_vault(file2)
    write("fuzz-vault-file", "v2-worked-example", file2)
    two_slots = bytearray(header2)
    two_slots[56] = 2
    write("fuzz-vault-file", "v2-identity-slot-without-recovery",
          with_checksum(bytes(two_slots) + slots2[0] + slots2[2] + records2 + manifest2))
    write("fuzz-vault-file", "v2-migrated", bytes.fromhex(v2["migrated_file_hex"]))

    # Version 3: the worked example (four slots, a tombstone), the version 1
    # example migrated (no identity slot), and the example without its sync
    # slot (optional).
    v3 = json.loads((DATA / "vault" / "vectors_v3.json").read_text())
    file3 = bytes.fromhex(v3["file_hex"])
    header3, slots3, records3, manifest3 = split_vault(file3)
    write("fuzz-vault-file", "v3-worked-example", file3)
    write("fuzz-vault-file", "v3-migrated", bytes.fromhex(v3["migrated_file_hex"]))
    three_slots = bytearray(header3)
    three_slots[56] = 3
    write("fuzz-vault-file", "v3-without-sync-slot",
          with_checksum(bytes(three_slots) + slots3[0] + slots3[1] + slots3[2] + records3
                        + manifest3))


def fields_of(data):
    """(tag, value) pairs of a record's fields (docs/FORMAT.md section 6.4)."""
    at = 0
    while at < len(data):
        tag = data[at]
        length = struct.unpack(">I", data[at + 1 : at + 5])[0]
        yield tag, data[at + 5 : at + 5 + length]
        at += 5 + length


def record_seeds():
    # The fuzz target reads one byte for the kind, then the fields.
    vectors = json.loads((DATA / "vault" / "vectors.json").read_text())
    kinds = {"account": b"\x01", "note": b"\x02"}
    for index, record in enumerate(vectors["records"]):
        fields = bytes.fromhex(record["fields_hex"])
        name = "%s-%d" % (record["kind"], index)
        if record.get("otp_kind"):
            name += "-" + record["otp_kind"]
        write("fuzz-record-fields", name, kinds[record["kind"]] + fields)
        if record["kind"] == "account":
            # Optional strings present but empty: read as absent.
            spelled = b""
            for tag, value in fields_of(fields):
                if tag in (0x01, 0x02):  # issuer, account name
                    value = b""
                spelled += bytes([tag]) + struct.pack(">I", len(value)) + value
            write("fuzz-record-fields", name + "-empty-names", b"\x01" + spelled)
    # A contact (kind byte 3: its remainder by 3 is 0), with the key of
    # docs/FORMAT.md section 11's worked example.
    identity = json.loads((DATA / "share" / "identity_vectors.json").read_text())["vectors"][0]
    contact = [
        (0x0C, struct.pack(">q", 1767225600)),
        (0x0D, struct.pack(">q", 1767225900)),
        (0x0F, struct.pack(">I", 4)),
        (0x31, "Ålice".encode("utf-8")),
        (0x32, bytes.fromhex(identity["sharing_public_key"])),
        (0x33, b"\x01"),
    ]
    write("fuzz-record-fields", "contact-3",
          b"\x03" + b"".join(bytes([tag]) + struct.pack(">I", len(value)) + value for tag, value in contact))
    # A note received from a share (field 0x10: envelope id, sender key),
    # the note of docs/FORMAT.md section 12.6.
    envelope = json.loads((DATA / "share" / "envelope_vectors.json").read_text())["vectors"][0]
    received = []
    for tag, value in fields_of(bytes.fromhex(envelope["records"][0]["fields_hex"])):
        if tag == 0x21:
            received.append((0x10, bytes.fromhex(envelope["envelope_id"]) +
                             bytes.fromhex(envelope["sender_public_key"])))
        received.append((tag, value))
    write("fuzz-record-fields", "note-received",
          b"\x02" + b"".join(bytes([tag]) + struct.pack(">I", len(value)) + value for tag, value in received))


def otpauth_seeds():
    cases = json.loads((DATA / "otpauth" / "uris.json").read_text())["cases"]
    for case in cases:
        write("fuzz-otpauth-uri", case["id"], case["uri"].encode())
    # Steam Guard spellings (tests/core/otp/TestOtpauthUri.cpp).
    secret = "JRZCL47CMXVOQMNPZR2F7J4RGI"
    steam = {
        "steam-aegis": "otpauth://steam/Boeing:Sophia?secret=%s&issuer=Boeing&algorithm=SHA1"
                       "&digits=5&period=30",
        "steam-keepassxc": "otpauth://totp/Steam:gaben?secret=%s&period=30&digits=5"
                           "&issuer=Steam&encoder=steam",
        "steam-canonical": "otpauth://steam/Boeing:Sophia?secret=%s&issuer=Boeing&algorithm=SHA1"
                           "&digits=5&period=30&encoder=steam",
    }
    for name, uri in steam.items():
        write("fuzz-otpauth-uri", name, (uri % secret).encode())


def watch_seeds():
    # Device profiles: a round MIP watch, the Instinct's subscreen, an AMOLED
    # touch watch, and fr70 with its unknown facts as null.
    for name in ("fr255", "instinct2", "venu3", "fr70"):
        write("fuzz-device-profile", name + ".json",
              (ROOT / "resources" / "devices" / (name + ".json")).read_bytes())
    # The worked example of docs/FORMAT.md section 8 (PIN 482916, 2,000
    # rounds: FuzzWatchPayload.cpp opens with that PIN).
    vectors = json.loads((DATA / "watch" / "vectors.json").read_text())
    write("fuzz-watch-payload", "worked-example.json", vectors["payload"].encode())


def small_database(source, tables):
    """The tables of the SQLite database source, with their rows, in a fresh
    database of 512-byte pages: a seed of a few kilobytes, not forty."""
    data = bytearray(source.read_bytes())
    # An in-memory database has no write-ahead log: mark the copy as an
    # ordinary one (header bytes 18 and 19), as the importers do.
    if data[18:20] == b"\x02\x02":
        data[18:20] = b"\x01\x01"
    original = sqlite3.connect(":memory:")
    original.deserialize(bytes(data))
    small = sqlite3.connect(":memory:")
    small.execute("PRAGMA page_size = 512")
    for table in tables:
        (sql,) = original.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
        small.execute(sql)
        rows = original.execute(f'SELECT * FROM "{table}"').fetchall()
        if rows:
            marks = ", ".join("?" * len(rows[0]))
            small.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)
    small.commit()
    data = small.serialize()
    original.close()
    small.close()
    return data


def import_seeds():
    # Every export of tests/data/import, after the selector byte
    # FuzzImport.cpp reads: the format's index in importers::allFormats (its
    # low four bits, its fifth as 0x40), plus 0x10 to give the password of
    # the encrypted ones. The apps'
    # SQLite databases go in shrunk (small_database).
    formats = ["otpauth_list", "google_authenticator_migration", "aegis", "2fas", "andotp",
               "freeotp_plus", "freeotp", "bitwarden", "authenticator_pro",
               "google_authenticator", "watchword_backup", "proton_authenticator",
               "lastpass", "ente", "keepass", "steam", "winauth", "raivo"]
    # Folders of test files whose format is another app's.
    aliases = {"authenticator_plus": "winauth"}
    databases = {
        "authenticator_pro/stratum_internal.db": ["authenticator", "category",
                                                  "authenticatorcategory"],
        "google_authenticator/google_authenticator.sqlite": ["accounts"],
    }
    expected = json.loads((DATA / "import" / "EXPECTED.json").read_text())
    for file in expected["files"]:
        path = file["file"]
        folder = path.split("/")[0]
        folder = aliases.get(folder, folder)
        if folder not in formats:
            continue
        index = formats.index(folder)
        selector = (index & 0x0f) | ((index & 0x10) << 2) | (0x10 if file["encrypted"] else 0)
        if path in databases:
            data = small_database(DATA / "import" / path, databases[path])
        else:
            data = (DATA / "import" / path).read_bytes()
        write("fuzz-import", path.replace("/", "-"), bytes([selector]) + data)
    for name in ("example_export.txt", "test_plus_problem_export.txt"):
        write("fuzz-import", "google-" + name,
              bytes([1]) + (DATA / "import" / "google_authenticator_migration" / name).read_bytes())


def terminal_seeds():
    """Labels and paths as the importers and the command line hand them over."""
    for case in json.loads((DATA / "otpauth" / "uris.json").read_text())["cases"][:20]:
        write("fuzz-terminal-text", "uri-" + case["id"], case["uri"].encode())
    samples = {
        "forged-line": b"x\nwatchword-cli: all is well",
        "escape-sequence": b"\x1b[2J\x1b]0;title\x07",
        "override": "evil\u202egpj.exe".encode(),
        "zero-width": "Pay\u200bPal\u00adInc\ufeff".encode(),
        "emoji-joiner": "\U0001f469\u200d\U0001f4bb".encode(),
        "c1-and-invalid": b"a\xc2\x9b31m\xff\xc3(",
    }
    for name, data in samples.items():
        write("fuzz-terminal-text", name, data)


def argument_seeds():
    """Command lines of vault export, NUL between the arguments."""
    lines = [
        ["vault.wwv", "--to", "otpauth", "out.txt", "--plaintext"],
        ["vault.wwv", "out.json", "--to=aegis-encrypted", "--force", "--password-stdin"],
        ["--ids", "00112233445566778899aabbccddeeff,ffeeddccbbaa99887766554433221100",
         "vault.wwv", "--", "--not-an-option"],
        ["vault.wwv", "--target-ms", "1000", "--wait", "0", "--json", "-"],
        ["vault.wwv", "--to"],
        ["--force", "--force"],
    ]
    for index, line in enumerate(lines):
        write("fuzz-cli-arguments", "line-%d" % index, b"\0".join(a.encode() for a in line))


def share_seeds():
    vectors = json.loads((DATA / "share" / "envelope_vectors.json").read_text())
    for vector in vectors["vectors"]:
        name = vector["name"].replace(" ", "-")
        write("fuzz-share-envelope", name, b"\x00" + bytes.fromhex(vector["envelope"]))
        write("fuzz-share-envelope", name + "-armoured", b"\x00" + vector["armoured"].encode())
        write("fuzz-share-envelope", name + "-qr", b"\x00" + vector["qr_text"].encode())
        for index, record in enumerate(vector["records"]):
            write("fuzz-share-envelope", "%s-round-trip-%d" % (name, index),
                  b"\x01" + bytes.fromhex(record["fields_hex"]))


def main():
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    vault_seeds()
    record_seeds()
    otpauth_seeds()
    watch_seeds()
    import_seeds()
    terminal_seeds()
    argument_seeds()
    share_seeds()


if __name__ == "__main__":
    main()
