#!/usr/bin/python3
"""An independent implementation of share envelopes checks watchword-cli share and receive.

The envelope (docs/FORMAT.md section 12) is tests/data/share/envelope.py, the
keychain (section 1), identity text (section 11), vault reader (section 6)
and one-time codes (section 4) are tests/cli/independent_vault.py: both were
written from the document alone, with the standard library and Debian's
python3-cryptography, and share no code with src/core. Against the CLI:

  1. vaults A, B and C made by `vault init`: each one's sharing key pair,
     derived here from its printed recovery phrase, is what `identity show
     --json` prints (public key, identity text, fingerprint);
  2. A and B are each other's contacts, C is A's; A holds a TOTP (SHA-256,
     8 digits), an HOTP (counter 5), a Steam account (encoder=steam) and a
     note with a non-ASCII body;
  3. what `share` writes (--out to B, --text to B, --out to B and C) opens
     here with B's (and C's) secret key: sender A's key, the recipients as
     named, a valid BIP340 signature, each record's fields those of A's vault
     record (read here) with sort position 0, no last used, no received from
     (0x10), created and modified kept; A and an outsider cannot open it;
  4. envelopes sealed here from A's secret key to B (a .wwshare file and
     armoured text) are added by `receive`, listed by `vault list`, give the
     codes computed here by `vault codes --at`, and are in B's vault (read
     here) with new ids, created = modified = the time of the add, sort
     positions after the others, and 0x10 = envelope id || A's key, also
     when the sender wrote a 0x10 of its own; received again: already
     received, nothing added; a received record shared on carries no 0x10;
  5. refused, with B's vault byte for byte as before: a share signed by C
     naming A as its sender ("not signed by the sender"), one with a note
     without a body ("damaged"), one not for B, one from a stranger.

Usage: /usr/bin/python3 independent_share.py PATH/TO/watchword-cli [--keep DIR]
"""
import argparse
import base64
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "data", "share"))

import envelope as env  # noqa: E402  (tests/data/share/envelope.py, section 12)
import independent_vault as iv  # noqa: E402  (sections 1, 4, 6 and 11; its checks run only as a script)

ENVELOPE_VECTORS = os.path.join(REPO, "tests", "data", "share", "envelope_vectors.json")
RECEIVED_FROM = 0x10
CHANGES = 0x11
LAST_USED = 0x0E
SORT_POSITION = 0x0F
PASSWORDS = {"A": "Alices Passwort: Grüße 東京 ✓ 1",
             "B": "bobs own long password, 2 words more",
             "C": "Carol's unguessable vault password 3"}
NOTE_TITLE = "Notiz für Bob ✓"
NOTE_BODY = "Grüße, 東京 ✓\r\nzweite Zeile — ½ ﬁ\n\tdritte: 🔑\n"
CODE_TIMES = [59, 1111111109, 1234567890, 2000000000, 4102444800]


class Failure(Exception):
    pass


checks = 0
sealed_here = 0


def ok(condition: bool, message: str, detail: str = "") -> None:
    global checks
    if not condition:
        raise Failure(message + (": " + detail if detail else ""))
    checks += 1
    print("ok  " + message)


def same(expected, actual, message: str) -> None:
    ok(expected == actual, message, "expected %r, got %r" % (expected, actual))


def read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def write(path: str, data) -> None:
    with open(path, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def secret_bytes(key_pair) -> bytes:
    return key_pair.secret.to_bytes(32, "big")


def tags_of(fields: bytes) -> list:
    return [tag for tag, _ in iv.fields_entries(fields)]


def share_view(fields: bytes) -> bytes:
    """A vault record's fields as 12.3 says a share holds them: sort position
    0, no last used (0x0e), no received from (0x10), no changes (0x11),
    everything else as is."""
    entries = []
    for tag, value in iv.fields_entries(fields):
        if tag in (LAST_USED, RECEIVED_FROM, CHANGES):
            continue
        entries.append((tag, struct.pack(">I", 0) if tag == SORT_POSITION else value))
    return iv.encode_fields(entries)


def open_share(data: bytes, secret: bytes, what: str) -> tuple:
    """envelope.open() (12.4 steps 1 to 9); returns (opened, P). A payload that
    does not decode is reported with its field tags."""
    captured = {}
    original = env.decode_payload

    def capture(plaintext):
        captured["P"] = plaintext
        return original(plaintext)

    env.decode_payload = capture
    try:
        opened = env.open(data, secret)
    except env.Malformed as error:
        detail = ""
        if "P" in captured:
            detail = "; P = %s" % captured["P"].hex()
        raise Failure("%s: envelope.py finds it malformed (%s)%s" % (what, error, detail)) from None
    except env.EnvelopeError as error:
        raise Failure("%s: envelope.py refuses it: %s %s" % (what, error.outcome, error)) from None
    finally:
        env.decode_payload = original
    return opened, captured["P"]


def recipients_of(data: bytes) -> list:
    n = data[65]
    return [data[66 + env.ENTRY_SIZE * i:66 + env.ENTRY_SIZE * i + 33] for i in range(n)]


def seal(sender_secret: bytes, recipients, records, created: int, plaintext: bytes = None) -> dict:
    global sealed_here
    sealed_here += 1
    return env.seal_detailed(sender_secret, recipients, records, envelope_id=os.urandom(16),
                             created=created, content_key=os.urandom(32),
                             ephemeral_secrets=[fresh_secret() for _ in recipients],
                             payload_nonce=os.urandom(12), aux=os.urandom(32), plaintext=plaintext)


def fresh_secret() -> bytes:
    while True:
        candidate = os.urandom(32)
        if 0 < int.from_bytes(candidate, "big") < env.N:
            return candidate


def self_check() -> None:
    """The two independent implementations reproduce the document's worked examples."""
    keychain = iv.Keychain(" ".join(["abandon"] * 11 + ["about"]))
    same("03ff42cfd942841e0cb79a15922820861dcc16216ae648a37d3659d3113d2514fc", keychain.sharing.public.hex(),
         "section 1 example: the sharing public key of 'abandon ... about'")
    same("bdc0a7be6d051beb8f7b26421bc0e46771e0387512461fda9d1524d71080018e",
         secret_bytes(keychain.sharing).hex(), "section 1 example: its sharing secret key")
    same("watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520cewspg5",
         iv.identity_text(keychain.sharing.public), "section 11 example: its identity text")
    with open(ENVELOPE_VECTORS, encoding="utf-8") as handle:
        vector = json.load(handle)["vectors"][0]
    h = bytes.fromhex
    again = env.seal(h(vector["sender_secret_key"]), [h(r["public_key"]) for r in vector["recipients"]],
                     [(2, env.decode_payload(h(vector["plaintext"]))[0][1])],
                     envelope_id=h(vector["envelope_id"]), created=vector["created"],
                     content_key=h(vector["content_key"]),
                     ephemeral_secrets=[h(r["ephemeral_secret_key"]) for r in vector["recipients"]],
                     payload_nonce=h(vector["payload_nonce"]), aux=h(vector["aux_rand"]))
    same(vector["envelope"], again.hex(), "section 12.6 example: envelope.py seals it again byte for byte")
    opened, _ = open_share(again, h(vector["recipients"][0]["secret_key"]), "section 12.6 example")
    same(h(vector["sender_public_key"]), opened["sender_key"], "section 12.6 example: envelope.py opens it")


class Person:
    def __init__(self, cli: str, directory: str, name: str):
        self.cli, self.name = cli, name
        self.path = os.path.join(directory, name + ".wwvault")
        self.password = PASSWORDS[name]

    def run(self, *args, stdin_lines=(), check=True):
        stdin = "".join(line + "\n" for line in stdin_lines)
        return iv.run([self.cli] + list(args), stdin, check)

    def vault(self, command, *args, more=(), check=True):
        return self.run("vault", command, self.path, *args, "--password-stdin",
                        stdin_lines=[self.password] + list(more), check=check)

    def vault_json(self, command, *args):
        _, out, _ = self.vault(command, *args, "--json")
        return json.loads(out)

    def records(self) -> dict:
        """B's vault read here (section 6), by record id (hex)."""
        vault = iv.Vault(read(self.path))
        master = vault.master_key_from_password(self.password)
        return {r["id"].hex(): r for r in vault.open_records(master)}


class Driver:
    def __init__(self, cli: str, directory: str):
        self.cli, self.dir = cli, directory
        self.people = {name: Person(cli, directory, name) for name in "ABC"}
        self.a, self.b, self.c = (self.people[n] for n in "ABC")
        self.cli_shares = 0

    def path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    # -- 1 ---------------------------------------------------------------------
    def make_vaults(self) -> None:
        for person in self.people.values():
            _, out, _ = person.run("vault", "init", person.path, "--target-ms", "1", "--password-stdin",
                                   stdin_lines=[person.password])
            phrase, _ = iv.printed_phrase(out, "vault init " + person.name)
            person.keychain = iv.Keychain(phrase)
            person.secret = secret_bytes(person.keychain.sharing)
            person.public = person.keychain.sharing.public
            same(person.public, env.public_key(person.secret),
                 "%s: the phrase's sharing key pair (section 1) agrees with envelope.py's s*G" % person.name)
            _, out, _ = person.run("identity", "show", person.path, "--json")
            shown = json.loads(out)
            same(person.public.hex(), shown["public_key"],
                 "%s: identity show prints the sharing public key derived from the phrase" % person.name)
            person.identity = iv.identity_text(person.public)
            same(person.identity, shown["identity"], "%s: identity text is section 11's Bech32m" % person.name)
            same(iv.identity_fingerprint(person.public), shown["fingerprint"],
                 "%s: fingerprint is section 11's eight words" % person.name)

    # -- 2 ---------------------------------------------------------------------
    def add_contacts_and_records(self) -> None:
        for owner, other, name in ((self.a, self.b, "Bob"), (self.a, self.c, "Carol"), (self.b, self.a, "Alice")):
            owner.run("contacts", "add", owner.path, "--text", other.identity, "--name", name, "--password-stdin",
                      stdin_lines=[owner.password])
        listed = {c["name"]: c["public_key"] for c in
                  json.loads(self.a.run("contacts", "list", self.a.path, "--json", "--password-stdin",
                                        stdin_lines=[self.a.password])[1])["contacts"]}
        same({"Bob": self.b.public.hex(), "Carol": self.c.public.hex()}, listed, "A's contacts are B and C")

        b32 = lambda secret: base64.b32encode(secret).decode().rstrip("=")  # noqa: E731
        self.accounts = [
            dict(issuer="Exämple Bänk", account_name="alice@example.com", secret=os.urandom(32), otp_kind="totp",
                 algorithm="SHA256", digits=8, period=30, counter=None),
            dict(issuer="Counter Co", account_name="hotp one", secret=os.urandom(20), otp_kind="hotp",
                 algorithm="SHA1", digits=6, period=None, counter=5),
            dict(issuer="Steam", account_name="me", secret=os.urandom(20), otp_kind="steam",
                 algorithm="SHA1", digits=5, period=30, counter=None),
        ]
        uris = [
            "otpauth://totp/Ex%C3%A4mple%20B%C3%A4nk:alice@example.com?secret={}&issuer=Ex%C3%A4mple%20B%C3%A4nk"
            "&algorithm=SHA256&digits=8&period=30".format(b32(self.accounts[0]["secret"])),
            "otpauth://hotp/Counter%20Co:hotp%20one?secret={}&issuer=Counter%20Co&counter=5".format(
                b32(self.accounts[1]["secret"])),
            "otpauth://totp/Steam:me?secret={}&issuer=Steam&encoder=steam".format(b32(self.accounts[2]["secret"])),
        ]
        for account, uri in zip(self.accounts, uris):
            _, out, _ = self.a.vault("add", more=[uri])
            account["id"] = out.split()[-1]
            ok(len(account["id"]) == 32, "vault add A (%s) prints an id" % account["otp_kind"], out)
        body_file = self.path("note-body.txt")
        write(body_file, NOTE_BODY)
        _, out, _ = self.a.vault("note", "--title", NOTE_TITLE, "--body-file", body_file)
        self.note_id = out.split()[-1]
        ok(len(self.note_id) == 32, "vault note A prints an id", out)
        self.a_records = self.a.records()
        same(sorted([a["id"] for a in self.accounts] + [self.note_id]),
             sorted(i for i, r in self.a_records.items() if r["kind"] in (1, 2)),
             "A's vault, read here, holds the three accounts and the note")
        # No command sets last used (0x0e) or received from (0x10) on A's own
        # records: written here (6.4 allows both), so that share must leave them out.
        vault = iv.Vault(read(self.a.path))
        master = vault.master_key_from_password(self.a.password)
        index = next(i for i, r in enumerate(vault.records) if r["id"].hex() == self.accounts[0]["id"])
        entries = iv.fields_entries(self.a_records[self.accounts[0]["id"]]["plaintext"])
        last_used = struct.pack(">q", int(time.time()) - 5)
        entries = sorted(entries + [(LAST_USED, last_used), (RECEIVED_FROM, os.urandom(16) + self.c.public)],
                         key=lambda entry: entry[0])
        write(self.a.path, iv.replace_record(vault, master, index, iv.encode_fields(entries)))
        self.a_records = self.a.records()
        fields = self.a_records[self.accounts[0]["id"]]["fields"]
        ok("last_used" in fields and "received_from" in fields,
           "A's TOTP record rewritten here with last used (0x0e) and received from (0x10)")
        listed = [r["id"] for r in self.a.vault_json("list")["records"]]
        ok(self.accounts[0]["id"] in listed, "vault list A still opens it and lists the record")

    # -- 3 ---------------------------------------------------------------------
    def check_cli_share(self, data: bytes, recipients, record_ids, started: int, finished: int, what: str) -> None:
        """What `share` wrote, opened here by every recipient; the others cannot."""
        self.cli_shares += 1
        ok(len(data) == 146 + env.ENTRY_SIZE * len(recipients) + struct.unpack(
            ">I", data[78 + env.ENTRY_SIZE * len(recipients):82 + env.ENTRY_SIZE * len(recipients)])[0],
            "%s: %d bytes, 146 + 114n + L (12.1)" % (what, len(data)))
        same([p.public for p in recipients], recipients_of(data), "%s: the recipients are %s, in that order"
             % (what, " and ".join(p.name for p in recipients)))
        first = None
        for index, person in enumerate(recipients):
            opened, plaintext = open_share(data, person.secret, what + " opened by " + person.name)
            same(index, opened["recipient_index"], "%s: %s opens it with the secret key derived from the phrase "
                 "(wrapped key, payload tag, BIP340 signature)" % (what, person.name))
            first = first or (opened, plaintext)
            same(first[1], plaintext, "%s: %s reads the same payload" % (what, person.name))
        opened, plaintext = first
        same(self.a.public, opened["sender_key"], what + ": the sender is A's sharing key")
        message = hashlib.sha256(env.SIGNATURE_LABEL + data[:-64]).digest()
        ok(env.bip340_verify(message, self.a.public[1:], data[-64:]),
           what + ": the signature verifies against x(S) (12.4 step 8)")
        ok(not env.bip340_verify(message, self.b.public[1:], data[-64:]),
           what + ": and not against another key")
        ok(started <= opened["created"] <= finished, what + ": created is the time of sharing",
           "%d not in [%d, %d]" % (opened["created"], started, finished))
        same(16, len(opened["envelope_id"]), what + ": a 16-byte envelope id")
        for outsider in self.people.values():
            if outsider in recipients:
                continue
            try:
                env.open(data, outsider.secret)
                raise Failure("%s: %s, not a recipient, opened it" % (what, outsider.name))
            except env.NotForMe:
                ok(True, "%s: %s, not a recipient, cannot open it (not for me)" % (what, outsider.name))
        same(len(record_ids), len(opened["records"]), what + ": the number of records")
        for record_id, (kind, fields) in zip(record_ids, opened["records"]):
            record = self.a_records[record_id]
            name = "%s: record %s (%s)" % (what, record_id[:8], "note" if kind == 2 else "account")
            same(record["kind"], kind, name + ": kind")
            decoded = env.decode_fields(kind, fields)
            present = tags_of(fields)
            ok(LAST_USED not in present and RECEIVED_FROM not in present,
               name + ": no last used (0x0e) and no received from (0x10)", "tags %s" % present)
            same(0, decoded["sort_position"], name + ": sort position 0")
            same(share_view(record["plaintext"]), fields,
                 name + ": the fields are A's vault record's, byte for byte, but for the sort position")
            same((record["fields"]["created"], record["fields"]["modified"]),
                 (decoded["created"], decoded["modified"]), name + ": created and modified are the record's own")
            if kind == 2:
                same((NOTE_TITLE, NOTE_BODY), (decoded["title"], decoded["body"]), name + ": title and body (UTF-8)")
                continue
            account = next(a for a in self.accounts if a["id"] == record_id)
            for key in ("issuer", "account_name", "secret", "otp_kind", "algorithm", "digits", "period", "counter"):
                same(account[key], decoded[key], "%s: %s" % (name, key))

    def cli_share(self, recipients, record_ids, carrier: str):
        args = ["share", self.a.path]
        for person in recipients:
            args += ["--to", {"B": "Bob", "C": "Carol"}[person.name]]
        for record_id in record_ids:
            args += ["--record", record_id]
        started = int(time.time())
        if carrier == "text":
            _, out, _ = self.a.run(*args, "--text", "--password-stdin", stdin_lines=[self.a.password])
            finished = int(time.time())
            data = env.dearmour(out)
            same(env.armour(data), out, "share --text prints the armour of 12.5 and nothing else (%d lines)"
                 % out.count("\n"))
        else:
            out_path = self.path("cli-%d.wwshare" % self.cli_shares)
            self.a.run(*args, "--out", out_path, "--password-stdin", stdin_lines=[self.a.password])
            finished = int(time.time())
            data = read(out_path)
        return data, started, finished

    def shares_from_cli(self) -> None:
        ids = [a["id"] for a in self.accounts] + [self.note_id]
        before = read(self.a.path)
        data, t0, t1 = self.cli_share([self.b], ids, "file")
        self.check_cli_share(data, [self.b], ids, t0, t1, "share A --to B --out (3 accounts, 1 note)")
        same(before, read(self.a.path), "share leaves A's vault byte for byte as it was")
        data, t0, t1 = self.cli_share([self.b], [self.note_id, self.accounts[1]["id"][:8]], "text")
        self.check_cli_share(data, [self.b], [self.note_id, self.accounts[1]["id"]], t0, t1,
                             "share A --to B --text (note, HOTP by 8 hex digits)")
        data, t0, t1 = self.cli_share([self.b, self.c], [self.accounts[0]["id"], self.note_id], "file")
        self.check_cli_share(data, [self.b, self.c], [self.accounts[0]["id"], self.note_id], t0, t1,
                             "share A --to B --to C --out (TOTP, note)")

    # -- 4 ---------------------------------------------------------------------
    def receive(self, share_path: str, check=True):
        return self.b.run("receive", self.b.path, share_path, "--json", "--password-stdin",
                          stdin_lines=[self.b.password], check=check)

    def receive_sealed(self, records, expected, what: str, carrier="file", plaintext=None) -> dict:
        """Seals `records` here from A to B, receives them, checks what B's vault holds then."""
        created = int(time.time()) - 3600
        sealed = seal(self.a.secret, [self.b.public], records, created, plaintext)
        data = sealed["envelope"]
        share_path = self.path("sealed-%d.%s" % (sealed_here, "wwshare" if carrier == "file" else "txt"))
        write(share_path, data if carrier == "file" else "Hi Bob, here it is:\n\n" + env.armour(data) + "\n-- A\n")
        before = self.b.records()
        started = int(time.time())
        _, out, _ = self.receive(share_path)
        finished = int(time.time())
        shown = json.loads(out)
        envelope_id = data[8:24]
        same(envelope_id.hex(), shown["envelope_id"], what + ": receive shows the envelope id")
        same(created, shown["created"], what + ": receive shows the created time")
        same((self.a.public.hex(), "Alice"), (shown["sender"]["public_key"], shown["sender"]["name"]),
             what + ": receive names the sender A, B's contact Alice")
        same(iv.identity_fingerprint(self.a.public), shown["sender"]["fingerprint"].split(),
             what + ": the sender's fingerprint")
        same((False, False, 0), (shown["already_received"], shown["dry_run"], shown["other_recipients"]),
             what + ": not received before, not a dry run, no other recipients")
        same(len(expected), len(shown["added"]), what + ": every record added")
        after = self.b.records()
        new_ids = [i for i in after if i not in before]
        same(sorted(shown["added"]), sorted(new_ids), what + ": the ids receive prints are the new records")
        highest = max(r["fields"]["sort_position"] for r in before.values())
        for position, (record_id, (kind, fields), want) in enumerate(zip(shown["added"], records, expected)):
            record = after[record_id]
            name = "%s: received record %d" % (what, position + 1)
            got = record["fields"]
            same(kind, record["kind"], name + ": kind")
            same(1, record["version"], name + ": version 1")
            ok(started <= got["created"] == got["modified"] <= finished,
               name + ": created = modified = the time of the add",
               "%r, %r not in [%d, %d]" % (got["created"], got["modified"], started, finished))
            ok("last_used" not in got, name + ": no last used")
            same(highest + 1 + position, got["sort_position"], name + ": the next sort position (6.3)")
            same(envelope_id + self.a.public, got.get("received_from"),
                 name + ": received from (0x10) = envelope id || A's key")
            for key, value in want.items():
                same(value, got.get(key), "%s: %s" % (name, key))
        listed = {r["id"]: r for r in self.b.vault_json("list")["records"]}
        for record_id, want in zip(shown["added"], expected):
            ok(record_id in listed, what + ": vault list B shows " + record_id[:8])
            if "title" in want:
                same(want["title"], listed[record_id].get("title"), what + ": vault list shows the note's title")
            else:
                same((want["issuer"], want["account_name"]),
                     (listed[record_id].get("issuer"), listed[record_id].get("account")),
                     what + ": vault list shows the account's issuer and name")
        for at in CODE_TIMES:
            codes = {c["id"]: c["code"] for c in self.b.vault_json("codes", "--at", str(at))["codes"]}
            for record_id, want in zip(shown["added"], expected):
                if "secret" in want:
                    same(iv.record_code(want, at), codes.get(record_id),
                         "%s: vault codes B --at %d gives the code computed here" % (what, at))
        return {"path": share_path, "data": data, "ids": shown["added"]}

    def shares_from_here(self) -> None:
        now = int(time.time())
        totp = dict(issuer="Indépendant", account_name="bob@example.org", secret=os.urandom(20), otp_kind="totp",
                    algorithm="SHA512", digits=7, period=45)
        note = dict(title="Von Alice ✓", body="Grüße, 東京 ✓\nzweite Zeile\r\n")
        records = [(1, env.account_fields(**totp, created=now - 86400, modified=now - 600, last_used=now - 60,
                                          sort_position=0)),
                   (2, env.note_fields(**note, created=now - 86400, modified=now - 86400))]
        totp_want = dict(totp, counter=None)
        first = self.receive_sealed(records, [totp_want, note], "sealed here, .wwshare (TOTP SHA-512, note)")

        hotp = dict(issuer="Zähler", account_name="zwei", secret=os.urandom(16), otp_kind="hotp",
                    algorithm="SHA256", digits=9, counter=2 ** 40 + 7)
        note2 = dict(title="", body="")
        self.receive_sealed([(1, env.account_fields(**hotp, created=now, modified=now)),
                             (2, env.note_fields(**note2, created=now, modified=now))],
                            [dict(hotp, period=None), note2], "sealed here, armoured text (HOTP, empty note)",
                            carrier="text")

        # A sender's own 0x10 is replaced by the receiver's (6.4, 12.3).
        steam = dict(issuer="Steam", account_name="gämer", secret=os.urandom(20), otp_kind="steam",
                     algorithm="SHA1", digits=5, period=30)
        fields = env.account_fields(**steam, created=now, modified=now)
        entries = iv.fields_entries(fields)
        entries.append((RECEIVED_FROM, os.urandom(16) + self.c.public))  # after 0x0f, the largest account tag
        with_own = [(1, iv.encode_fields(entries))]
        self.receive_sealed(with_own, [dict(steam, counter=None)], "sealed here with a 0x10 of the sender's (Steam)",
                            plaintext=env.encode_payload(with_own))

        for path, carrier in ((first["path"], "the .wwshare file"),
                              (self.path("again.txt"), "as armoured text")):
            if carrier.startswith("as"):
                write(path, env.armour(first["data"]))
            before = read(self.b.path)
            _, out, _ = self.receive(path)
            shown = json.loads(out)
            same((True, []), (shown["already_received"], shown["added"]),
                 "the first envelope received again (%s): already received, nothing added" % carrier)
            same(first["ids"], [r["duplicate_of"] for r in shown["records"]],
                 "received again: each record a duplicate of the one added")
            same(before, read(self.b.path), "received again: B's vault unchanged")

        # B shares a received record on: it carries no 0x10, and A opens it.
        out_path = self.path("forwarded.wwshare")
        self.b.run("share", self.b.path, "--to", "Alice", "--record", first["ids"][0], "--out", out_path,
                   "--password-stdin", stdin_lines=[self.b.password])
        opened, _ = open_share(read(out_path), self.a.secret, "B's share of a received record")
        (kind, fields), = opened["records"]
        same(self.b.public, opened["sender_key"], "B's share of a received record: the sender is B")
        ok(RECEIVED_FROM not in tags_of(fields), "B's share of a received record carries no received from (0x10)",
           "tags %s" % tags_of(fields))
        same(totp["secret"], env.decode_fields(kind, fields)["secret"], "B's share of a received record: its secret")

    # -- 5 ---------------------------------------------------------------------
    def refused(self, data: bytes, expected_outcome, message: str, what: str) -> None:
        share_path = self.path("refused-%s.wwshare" % expected_outcome.__name__)
        write(share_path, data)
        try:
            env.open(data, self.b.secret)
            raise Failure(what + ": envelope.py opens it")
        except env.EnvelopeError as error:
            ok(isinstance(error, expected_outcome), "%s: envelope.py refuses it (%s)" % (what, error.outcome),
               "expected %s" % expected_outcome.__name__)
        before = read(self.b.path)
        code, out, err = self.receive(share_path, check=False)
        same(1, code, what + ": receive exits 1")
        ok(message in err.lower() + out.lower(), "%s: receive says %r" % (what, message), err.strip())
        same(before, read(self.b.path), what + ": B's vault byte for byte as before")

    def refusals(self) -> None:
        now = int(time.time())
        account = env.account_fields(issuer="Forged", account_name="x", secret=os.urandom(20), otp_kind="totp",
                                     algorithm="SHA1", digits=6, period=30, created=now, modified=now)
        sealed = seal(self.a.secret, [self.b.public], [(1, account)], now)
        forged = sealed["envelope"][:-64] + env.bip340_sign(sealed["signed_message"], self.c.secret, os.urandom(32))
        same(self.a.public, forged[32:65], "forged share: names A as its sender")
        self.refused(forged, env.ForgedSender, "not signed by the sender", "signed by C, naming A")

        no_body = iv.encode_fields([(0x0c, struct.pack(">q", now)), (0x0d, struct.pack(">q", now)),
                                    (0x0f, struct.pack(">I", 0)), (0x21, "Kein Inhalt".encode())])
        sealed = seal(self.a.secret, [self.b.public], None, now,
                      plaintext=env.encode_payload([(1, account), (2, no_body)]))
        self.refused(sealed["envelope"], env.Malformed, "damaged", "a note without a body (0x22)")

        sealed = seal(self.a.secret, [self.c.public, self.a.public], [(1, account)], now)
        self.refused(sealed["envelope"], env.NotForMe, "not for you", "sealed to C and A only")

        # From C, who is not B's contact: opens, but is not added without --accept-unknown.
        sealed = seal(self.c.secret, [self.b.public], [(1, account)], now)
        share_path = self.path("stranger.wwshare")
        write(share_path, sealed["envelope"])
        open_share(sealed["envelope"], self.b.secret, "a share from C")
        before = read(self.b.path)
        code, out, err = self.receive(share_path, check=False)
        same(1, code, "a share from C, not B's contact: receive exits 1 without --accept-unknown")
        same(before, read(self.b.path), "a share from C: B's vault byte for byte as before")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cli", help="path to watchword-cli")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR (must not exist) and keep it")
    options = parser.parse_args()
    started = time.monotonic()
    directory = options.keep or tempfile.mkdtemp(prefix="independent-share-")
    if options.keep:
        os.makedirs(directory)
    driver = Driver(os.path.abspath(options.cli), directory)
    try:
        self_check()
        driver.make_vaults()
        driver.add_contacts_and_records()
        driver.shares_from_cli()
        driver.shares_from_here()
        driver.refusals()
    except (Failure, iv.Failure, iv.VaultError, env.EnvelopeError, subprocess.TimeoutExpired) as problem:
        print("independent_share: FAILED: %s" % problem, file=sys.stderr)
        if not options.keep:
            print("independent_share: files kept in %s" % directory, file=sys.stderr)
        return 1
    if not options.keep:
        shutil.rmtree(directory)
    print("independent_share: %d checks passed: %d shares by watchword-cli opened here, %d sealed here "
          "received or refused by it; %.1f s" % (checks, driver.cli_shares, sealed_here,
                                                 time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
