#!/usr/bin/python3
"""An independent reader of what the exporters write, from the formats'
documentation alone: Aegis's encrypted vault (its docs/vault.md: scrypt slot,
AES-256-GCM master key and database) and the Watchword backup
(docs/FORMAT.md section 10, with section 6.4's fields). It shares no code
with src/core: the standard library's hashlib and Debian's
python3-cryptography.

It runs export_sample with a password on standard input, decrypts both files,
prints the entries, and requires that they are exactly the accounts
export_sample put in (its expected.json), in order; and that another password
and a changed byte are refused.

Usage: /usr/bin/python3 independent_aegis.py PATH/TO/export_sample
       /usr/bin/python3 independent_aegis.py --open-aegis FILE   (password on stdin)
"""
import base64
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

try:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:
    sys.exit("independent_aegis: the cryptography module is missing (Debian package "
             "python3-cryptography; use /usr/bin/python3)")

PASSWORD = "export p\u00e4ssword \u2713"
KINDS = {1: "totp", 2: "hotp", 3: "steam"}
ALGORITHMS = {1: "SHA1", 2: "SHA256", 3: "SHA512"}


def base32_decode(text):
    return base64.b32decode(text.upper() + "=" * (-len(text) % 8))


def open_aegis(data, password):
    """The entries of an encrypted Aegis vault, as Aegis's vault.md says."""
    vault = json.loads(data)
    assert vault["version"] == 1, "vault version"
    header = vault["header"]
    master = None
    for slot in header["slots"]:
        if slot["type"] != 1:
            continue
        key = hashlib.scrypt(password.encode(), salt=bytes.fromhex(slot["salt"]),
                             n=slot["n"], r=slot["r"], p=slot["p"], dklen=32,
                             maxmem=128 * 1024 * 1024)
        params = slot["key_params"]
        try:
            master = AESGCM(key).decrypt(bytes.fromhex(params["nonce"]),
                                         bytes.fromhex(slot["key"]) + bytes.fromhex(params["tag"]),
                                         None)
            break
        except InvalidTag:
            continue
    if master is None:
        raise InvalidTag("no password slot opens")
    params = header["params"]
    plain = AESGCM(master).decrypt(bytes.fromhex(params["nonce"]),
                                   base64.b64decode(vault["db"]) + bytes.fromhex(params["tag"]),
                                   None)
    db = json.loads(plain)
    assert db["version"] == 3, "database version"
    groups = {g["uuid"]: g["name"] for g in db.get("groups", [])}
    entries = []
    for e in db["entries"]:
        info = e["info"]
        entry = {
            "issuer": e["issuer"], "name": e["name"],
            "secret_hex": base32_decode(info["secret"]).hex(),
            "type": e["type"], "algo": info["algo"], "digits": info["digits"],
            "tags": [groups[g] for g in e.get("groups", [])], "note": e.get("note", ""),
        }
        if e["type"] == "hotp":
            entry["counter"] = str(info["counter"])
        else:
            entry["period"] = info["period"]
        entries.append(entry)
    return entries


def read_fields(fields):
    """An account's record fields, docs/FORMAT.md section 6.4."""
    values = {}
    tags = []
    at = 0
    last = 0
    while at < len(fields):
        tag = fields[at]
        (length,) = struct.unpack(">I", fields[at + 1:at + 5])
        value = fields[at + 5:at + 5 + length]
        assert len(value) == length, "field runs past the end"
        assert tag > last or (tag == 9 and last == 9), "tags out of order"
        last = tag
        at += 5 + length
        if tag == 9:
            tags.append(value.decode())
        else:
            values[tag] = value
    kind = values[4][0]
    entry = {
        "issuer": values.get(1, b"").decode(), "name": values.get(2, b"").decode(),
        "secret_hex": values[3].hex(), "type": KINDS[kind], "algo": ALGORITHMS[values[5][0]],
        "digits": values[6][0], "tags": tags, "note": values.get(10, b"").decode(),
        "created": struct.unpack(">q", values[12])[0],
    }
    if kind == 2:
        entry["counter"] = str(struct.unpack(">Q", values[8])[0])
    else:
        entry["period"] = struct.unpack(">I", values[7])[0]
    return entry


def open_backup(data, password):
    """The accounts of a Watchword backup, docs/FORMAT.md section 10."""
    header = data[:67]
    assert header[:8] == b"WWBACKUP", "magic"
    version, kdf, iterations = struct.unpack(">HBI", header[8:15])
    assert version == 1 and kdf == 1, "version or KDF"
    assert 600_000 <= iterations <= 50_000_000, "iterations out of bounds"
    salt, nonce = header[15:47], header[47:59]
    key = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations, 32)
    payload = AESGCM(key).decrypt(nonce, data[67:], header)
    (count,) = struct.unpack(">I", payload[:4])
    at = 4
    entries = []
    for _ in range(count):
        (length,) = struct.unpack(">I", payload[at:at + 4])
        entries.append(read_fields(payload[at + 4:at + 4 + length]))
        at += 4 + length
    assert at == len(payload), "bytes after the last account"
    return entries


def check(name, entries, expected, keys):
    print(f"{name}: {len(entries)} entries")
    for e in entries:
        shown = {k: v for k, v in e.items() if k != "secret_hex"}
        print("  ", json.dumps(shown, ensure_ascii=False))
    want = [{k: a[k] for k in keys if k in a} for a in expected]
    got = [{k: e[k] for k in keys if k in e} for e in entries]
    if got != want:
        for g, w in zip(got, want):
            if g != w:
                print(f"{name}: got      {json.dumps(g, ensure_ascii=False)}")
                print(f"{name}: expected {json.dumps(w, ensure_ascii=False)}")
        sys.exit(f"{name}: the entries differ from what was exported")


def refuses(name, opener, data, password):
    try:
        opener(data, password)
    except (InvalidTag, AssertionError, ValueError, KeyError):
        return
    sys.exit(f"{name}: opened although it should not")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--open-aegis":
        with open(sys.argv[2], "rb") as f:
            data = f.read()
        for e in open_aegis(data, sys.stdin.readline().rstrip("\n")):
            print(json.dumps(e, ensure_ascii=False))
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.argv[1], tmp], input=(PASSWORD + "\n").encode(), check=True)
        with open(os.path.join(tmp, "expected.json"), encoding="utf-8") as f:
            expected = json.load(f)
        with open(os.path.join(tmp, "aegis.json"), "rb") as f:
            aegis = f.read()
        with open(os.path.join(tmp, "backup.wwbackup"), "rb") as f:
            backup = f.read()

    common = ["issuer", "name", "secret_hex", "type", "algo", "digits", "period", "counter",
              "tags", "note"]
    check("aegis", open_aegis(aegis, PASSWORD), expected, common)
    check("watchword-backup", open_backup(backup, PASSWORD), expected, common + ["created"])

    refuses("aegis, another password", open_aegis, aegis, PASSWORD + "x")
    refuses("watchword-backup, another password", open_backup, backup, PASSWORD + "x")
    vault = json.loads(aegis)
    db = bytearray(base64.b64decode(vault["db"]))
    db[len(db) // 2] ^= 1
    vault["db"] = base64.b64encode(bytes(db)).decode()
    refuses("aegis, a changed byte", open_aegis, json.dumps(vault).encode(), PASSWORD)
    for at in (20, 60, 67, len(backup) - 1):
        changed = bytearray(backup)
        changed[at] ^= 1
        refuses(f"watchword-backup, byte {at} changed", open_backup, bytes(changed), PASSWORD)
    print("independent reader: both exports open and hold exactly the accounts exported")


if __name__ == "__main__":
    main()
