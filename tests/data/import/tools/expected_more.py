#!/usr/bin/env python3
"""Writes the EXPECTED.json entries of the formats added after the first
(proton_authenticator/, lastpass/) from the files themselves, independently
of Watchword's C++ code (urllib for the URIs, argon2-cffi and cryptography
for the encrypted export). Run from tests/data/import:
python3 tools/expected_more.py"""
import base64
import csv
import io
import json
import xml.etree.ElementTree as ET
import zipfile
import urllib.parse

from argon2.low_level import Type, hash_secret_raw
from nacl import bindings as sodium
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
PROTON = [("aegis_proton_authenticator.json", None),
          ("stratum_protonauthenticator.json", None),
          ("ente_proton_authenticator_backup.json", None),
          ("ente_proton_authenticator_backup_encrypted_1231246.json", "1231246")]
LASTPASS = ["proton_lastpass.json", "proton_lastpass_ios_export.json",
            "proton_lastpass_missing_fields.json", "stratum_lastpass.json"]
ENTE = [("aegis_ente_auth.txt", None), ("proton_plain.txt", None),
        ("proton_plain_20_entries.txt", None), ("proton_plain_with_hotp.txt", None),
        ("proton_plain_with_missing_fields.txt", None),
        ("proton_plain_with_steam_and_hotp.txt", None), ("stratum_ente.unencrypted.txt", None),
        ("proton_encrypted.lowcomplexity.txt", "password"),
        ("proton_encrypted.nominalcomplexity.txt", "password"),
        ("stratum_ente.encrypted.json", "test")]
KEEPASS = ["keepassxc_stratum_aes256.aeskdf.csv", "keepassxc_stratum_aes256.aeskdf.xml",
           "keepassxc_stratum_groups.csv", "keepassxc_stratum_groups.xml"]
STEAM = ["aegis_steam.json", "aegis_steam_old.json", "steamguard-cli_sda_1234.maFile",
         "steamguard-cli_steamv2_sample.maFile", "steamguard-cli_v1_1234.maFile"]
WINAUTH = [("winauth/stratum_winauth.zip", "test"), ("winauth/stratum_winauth.txt", None),
           ("authenticator_plus/authenticator_plus.zip", "testtesttest")]
RAIVO = [("made_raivo-otp-export.json", None), ("made_raivo-otp-export-zipcrypto.zip", "raivo-test")]
FOLDERS = ("proton_authenticator/", "lastpass/", "ente/", "keepass/", "steam/", "winauth/",
           "authenticator_plus/", "raivo/")


def canonical(text):
    """Base32 text -> its bytes (bits after the last whole byte dropped) ->
    canonical unpadded upper-case Base32."""
    bits = "".join(format(ALPHABET.index(c), "05b") for c in text.upper() if c not in " -=")
    raw = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits) - len(bits) % 8, 8))
    return base64.b32encode(raw).decode().rstrip("=")


def entries_of(doc):
    out = []
    for entry in doc["entries"]:
        content = entry["content"]
        uri = content["uri"]
        if content["entry_type"] == "Steam":
            out.append({"type": "steam", "issuer": "Steam", "name": content["name"],
                        "secret": canonical(uri[len("steam://"):]), "algo": "SHA1",
                        "digits": 5, "period": 30})
            continue
        parts = urllib.parse.urlsplit(uri)
        query = dict(urllib.parse.parse_qsl(parts.query))
        label = urllib.parse.unquote(parts.path[1:])
        issuer = query.get("issuer", label.split(":", 1)[0] if ":" in label else "")
        out.append({"type": parts.netloc, "issuer": issuer, "name": content["name"],
                    "secret": canonical(query["secret"]),
                    "algo": query.get("algorithm", "SHA1").upper(),
                    "digits": int(query.get("digits", 6)),
                    "period": int(query.get("period", 30))})
    return out


def canonical_dropping_symbols(text):
    """Ente: a last group of 1, 3 or 6 symbols is left out, then decoded."""
    text = "".join(c for c in text.upper() if c not in " -=")
    if len(text) % 8 in (1, 3, 6):
        text = text[:-(len(text) % 8)]
    return canonical(text)


def ente_entries(text):
    """Ente: one otpauth URI a line; codeDisplay's trashed ones left out;
    "null" values are unset; an hotp URI without a counter counts from 0."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        parts = urllib.parse.urlsplit(line)
        query = {name: value for name, value in
                 urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
                 if value != "null"}
        display = json.loads(query.get("codeDisplay", "{}"))
        if display.get("trashed"):
            continue
        label = urllib.parse.unquote(parts.path[1:])
        prefix, _, name = label.rpartition(":") if ":" in label else ("", "", label)
        issuer = query.get("issuer") or prefix
        kind = parts.netloc.lower()
        entry = {"type": kind, "issuer": issuer.strip(), "name": name.strip(),
                 "secret": canonical_dropping_symbols(query["secret"]),
                 "algo": query.get("algorithm", "SHA1").upper(),
                 "digits": int(query.get("digits", 5 if kind == "steam" else 6))}
        if kind == "hotp":
            entry["counter"] = int(query.get("counter", 0))
        else:
            entry["period"] = int(query.get("period", 30))
        out.append(entry)
    return out


def lastpass_entries(doc):
    """LastPass: the user's issuer and user names, else the original ones;
    every account TOTP."""
    return [{"type": "totp",
             "issuer": account.get("issuerName") or account.get("originalIssuerName") or "",
             "name": account.get("userName") or account.get("originalUserName") or "",
             "secret": canonical(account["secret"]), "algo": account["algorithm"].upper(),
             "digits": account["digits"], "period": account["timeStep"]}
            for account in doc["accounts"]]


def keepass_entry(title, user, otp):
    """An entry's otp field (an otpauth URI as KeePassXC writes it) as an
    entry named by the entry's title and user name."""
    parts = urllib.parse.urlsplit(otp)
    query = dict(urllib.parse.parse_qsl(parts.query))
    steam = query.get("encoder") == "steam"
    return {"type": "steam" if steam else parts.netloc, "issuer": title, "name": user,
            "secret": canonical(query["secret"]), "algo": query.get("algorithm", "SHA1").upper(),
            "digits": 5 if steam else int(query.get("digits", 6)),
            "period": int(query.get("period", 30))}


def keepass_entries(name, raw):
    if name.endswith(".csv"):
        rows = list(csv.DictReader(io.StringIO(raw.decode())))
        return [keepass_entry(r["Title"], r["Username"], r["TOTP"]) for r in rows if r["TOTP"]]
    root = ET.fromstring(raw)
    meta = root.find("Meta")
    recycle = (meta.findtext("RecycleBinUUID")
               if meta.findtext("RecycleBinEnabled") != "False" else None)
    out = []

    def walk(group):
        for entry in group.findall("Entry"):  # direct children: never <History>
            fields = {s.findtext("Key"): s.findtext("Value") or "" for s in entry.findall("String")}
            if fields.get("otp"):
                out.append(keepass_entry(fields.get("Title", ""), fields.get("UserName", ""),
                                         fields["otp"]))
        for child in group.findall("Group"):
            if child.findtext("UUID") != recycle:
                walk(child)
    walk(root.find("Root").find("Group"))
    return out


def steam_entries(doc):
    """A .maFile's one account, or the Steam app's {"accounts": {...}}:
    issuer Steam, name account_name, key the Base64 shared_secret."""
    accounts = list(doc["accounts"].values()) if "accounts" in doc else [doc]
    return [{"type": "steam", "issuer": "Steam", "name": a["account_name"],
             "secret": base64.b32encode(base64.b64decode(a["shared_secret"])).decode().rstrip("="),
             "algo": "SHA1", "digits": 5, "period": 30} for a in accounts]


def uri_entries(text):
    """otpauth URIs, one a line: issuer parameter, else the label's prefix."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = urllib.parse.urlsplit(line.strip())
        query = dict(urllib.parse.parse_qsl(parts.query))
        label = urllib.parse.unquote(parts.path[1:])
        issuer, _, name = label.rpartition(":")
        entry = {"type": parts.netloc, "issuer": query.get("issuer", issuer), "name": name,
                 "secret": canonical(query["secret"]),
                 "algo": query.get("algorithm", "SHA1").upper(),
                 "digits": int(query.get("digits", 5 if parts.netloc == "steam" else 6))}
        if parts.netloc == "hotp":
            entry["counter"] = int(query.get("counter", 0))
        else:
            entry["period"] = int(query.get("period", 30))
        out.append(entry)
    return out


def finished(record, entries, notes):
    record["entry_count"] = len(entries)
    record["entries"] = entries
    record["notes"] = "Written by tools/expected_more.py: " + notes
    return record


def main():
    expected = json.load(open("EXPECTED.json"))
    records = []
    for name, password in PROTON:
        doc = json.load(open("proton_authenticator/" + name))
        record = {"file": "proton_authenticator/" + name, "app": "Proton Authenticator",
                  "format": "Proton Authenticator export JSON, version 1"
                            + (", encrypted" if password else ""),
                  "encrypted": bool(password)}
        if password:
            salt = base64.b64decode(doc["salt"])
            sealed = base64.b64decode(doc["content"])
            key = hash_secret_raw(password.encode(), salt, time_cost=2, memory_cost=19 * 1024,
                                  parallelism=1, hash_len=32, type=Type.ID)
            doc = json.loads(AESGCM(key).decrypt(sealed[:12], sealed[12:],
                                                 b"proton.authenticator.export.v1"))
            record["password"] = password
            record["crypto"] = ("Argon2id (19 MiB, 2 passes, 1 lane) of the password and "
                                "salt; AES-256-GCM, the nonce the first 12 bytes of content, "
                                "AD \"proton.authenticator.export.v1\"; verified by decrypting")
        records.append(finished(record, entries_of(doc),
                                "issuer from the URI's issuer parameter (else its label's "
                                "prefix), name from content.name (the name the app shows); a "
                                "Steam entry is issuer Steam."))
    for name in LASTPASS:
        doc = json.load(open("lastpass/" + name))
        record = {"file": "lastpass/" + name, "app": "LastPass Authenticator",
                  "format": "LastPass Authenticator export JSON, version %d (%s)"
                            % (doc["version"], doc.get("deviceName")),
                  "encrypted": False}
        records.append(finished(record, lastpass_entries(doc),
                                "issuerName and userName, else originalIssuerName and "
                                "originalUserName; secrets of an impossible Base32 length with "
                                "the bits after the last whole byte dropped."))
    for name, password in ENTE:
        raw = open("ente/" + name, "rb").read()
        record = {"file": "ente/" + name, "app": "Ente Auth",
                  "format": "Ente Auth export, " + ("encrypted JSON" if password else "plain text"),
                  "encrypted": bool(password)}
        if password:
            doc = json.loads(raw)
            kdf = doc["kdfParams"]
            key = hash_secret_raw(password.encode(), base64.b64decode(kdf["salt"]),
                                  time_cost=kdf["opsLimit"], memory_cost=kdf["memLimit"] // 1024,
                                  parallelism=1, hash_len=32, type=Type.ID)
            state = sodium.crypto_secretstream_xchacha20poly1305_state()
            sodium.crypto_secretstream_xchacha20poly1305_init_pull(
                state, base64.b64decode(doc["encryptionNonce"]), key)
            raw, _ = sodium.crypto_secretstream_xchacha20poly1305_pull(
                state, base64.b64decode(doc["encryptedData"]), None)
            record["password"] = password
            record["crypto"] = ("Argon2id (memLimit/1024 KiB, opsLimit passes, 1 lane) of the "
                                "password and kdfParams.salt; libsodium secretstream "
                                "XChaCha20-Poly1305 with encryptionNonce as its header; verified "
                                "by decrypting (memLimit %d, opsLimit %d)"
                                % (kdf["memLimit"], kdf["opsLimit"]))
        records.append(finished(record, ente_entries(raw.decode()),
                                "trashed codes left out; the issuer parameter, else the label's "
                                "prefix; secrets with a last Base32 group of 1, 3 or 6 symbols "
                                "without those symbols."))
    for name in KEEPASS:
        raw = open("keepass/" + name, "rb").read()
        kind = "CSV" if name.endswith(".csv") else "XML"
        record = {"file": "keepass/" + name, "app": "KeePassXC",
                  "format": "KeePassXC 2.7.4 " + kind + " export (keepassxc-cli export --format "
                            + kind.lower() + ")", "encrypted": False}
        records.append(finished(record, keepass_entries(name, raw),
                                "entries with an otp field (CSV: TOTP column) only, named by "
                                "their Title and UserName (the URI's label is KeePassXC's own, "
                                "\"none\" for an empty user name); recycle bin and history "
                                "left out; encoder=steam is a Steam entry."))
    for name in STEAM:
        doc = json.load(open("steam/" + name))
        record = {"file": "steam/" + name,
                  "app": "Steam (Aegis's test file)" if name.startswith("aegis")
                  else "Steam Desktop Authenticator / steamguard-cli",
                  "format": "Steam app Steamguard file" if "accounts" in doc
                  else ".maFile (one account's JSON)", "encrypted": False}
        records.append(finished(record, steam_entries(doc),
                                "shared_secret (Base64) is the key of a Steam Guard entry, "
                                "named by account_name; the uri member is not read."))
    for name, password in WINAUTH:
        raw = open(name, "rb").read()
        record = {"file": name,
                  "app": "Authenticator Plus" if "plus" in name else "WinAuth",
                  "format": ("ZIP archive, traditional PKWARE encryption, one deflated .txt"
                             if password else "text export, one otpauth URI a line"),
                  "encrypted": bool(password)}
        if password:
            archive = zipfile.ZipFile(io.BytesIO(raw))
            raw = archive.read(archive.infolist()[0], pwd=password.encode())
            record["password"] = password
            record["crypto"] = ("ZipCrypto (traditional PKWARE) with the password; verified by "
                                "Python's zipfile, which checks the CRC")
        records.append(finished(record, uri_entries(raw.decode()),
                                "the archive's one file read as an otpauth URI list; icon= "
                                "(WinAuth's) is not read; type steam is Steam Guard."))
    for name, password in RAIVO:
        raw = open("raivo/" + name, "rb").read()
        record = {"file": "raivo/" + name, "app": "Raivo OTP (written for the tests)",
                  "format": ("ZIP archive (traditional PKWARE), raivo-otp-export.json and .html"
                             if password else "raivo-otp-export.json"),
                  "encrypted": bool(password)}
        if password:
            raw = zipfile.ZipFile(io.BytesIO(raw)).read("raivo-otp-export.json",
                                                        pwd=password.encode())
            record["password"] = password
            record["crypto"] = "ZipCrypto; verified by Python's zipfile (CRC checked)"
        entries = []
        for e in json.loads(raw):
            entry = {"type": e["kind"].lower(), "issuer": e["issuer"], "name": e["account"],
                     "secret": canonical(e["secret"]), "algo": e["algorithm"],
                     "digits": int(e["digits"])}
            if e["kind"] == "HOTP":
                entry["counter"] = int(e["counter"])
            else:
                entry["period"] = int(e["timer"])
            entries.append(entry)
        records.append(finished(record, entries, "every value a string, as Raivo writes them; "
                                "timer is the period, counter HOTP's."))
    files = [f for f in expected["files"] if not f["file"].startswith(FOLDERS)]
    expected["files"] = files + records
    expected["counts"]["files"] = len(expected["files"])
    expected["counts"]["encrypted_files"] = sum(1 for f in expected["files"] if f["encrypted"])
    with open("EXPECTED.json", "w") as out:
        json.dump(expected, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
