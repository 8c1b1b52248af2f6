#!/usr/bin/python3
"""Two machines, two Syncthing instances, one vault: nothing is lost.

Usage: syncthing_two_machines.py WATCHWORD_CLI

Two "machines" A and B run on this one: each has its own Syncthing (Debian's
/usr/bin/syncthing, its own home, listening on a free loopback port, with
discovery, relays, NAT, upgrades and usage reports off) sharing one folder
"vault" with the other (A dials B), and its own HOME and XDG_CONFIG_HOME for
watchword-cli, so that the CLI of each side has a device id of its own
(docs/FORMAT.md section 13). Each folder has the .stignore users are told to write: the CLI's
lock file, its rolling backups and the folder .watchword-merged stay local.

  1. A makes vault.wwv (two TOTP accounts, one note); both instances start
     and B's folder gets the same bytes.
  2. Round 1: the two devices pause each other. A adds an account; B adds a
     note and removes one of the first accounts. B's file is made the newer
     one, so Syncthing on A keeps B's vault.wwv and renames A's file to a
     conflict copy (vault.sync-conflict-YYYYMMDD-HHMMSS-XXXXXXX.wwv) that
     reaches both sides. On A, vault status lists the copy as Syncthing's
     (exit 3), vault merge takes A's account from it and moves it into
     .watchword-merged; the merged file and the copy's removal reach B. Both
     sides then hold the same bytes, no conflict copy (status exit 0), and
     every record added on either side, without the one B removed.
  3. Round 2, B merging: each side removes the first note and adds a note of
     its own in its place (the CLI has no command that edits a note: this is
     its edit) and one account. A's file is the newer now, so the conflict
     copy is B's, and B merges it. Both sides converge again on every record
     added on either side, and only what some side removed is gone.

Every wait has its deadline (the whole run well under the test's timeout),
and the time each took is printed at the end. On a failure the script prints
what it expected and found, both folders' listings, vault status of both and
the end of both Syncthing logs, then exits 1. Every process it started is
stopped on the way out (Ctrl-C included); its temporary folder is removed
unless WATCHWORD_KEEP_SYNC_TEST is set in the environment.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree
from pathlib import Path

SYNCTHING = "/usr/bin/syncthing"
FOLDER_ID = "vault"
VAULT = "vault.wwv"
MERGED_FOLDER = ".watchword-merged"
CONFLICT_NAME = re.compile(r"vault\.sync-conflict-\d{8}-\d{6}-[A-Z2-7]{7}\.wwv\Z")
DEVICE_ID = re.compile(r"[A-Z2-7]{7}(-[A-Z2-7]{7}){7}\Z")
# What users are told to put in the folder's .stignore: the CLI's lock file,
# its rolling backups (.1 to .5) and the conflict copies a merge set aside.
STIGNORE = "*.wwv.lock\n*.wwv.[0-9]\n.watchword-merged\n"
PASSWORD = "Seven lanterns over the harbour at Tromso, 1911!"
CODES_AT = 1111111109  # vault codes --at: every account's code then
# Each account's secret, by label: its codes must come out of every merge.
SECRETS = {}

RUN_SECONDS = 150           # the whole run
CLI_SECONDS = 60            # one watchword-cli command
START_SECONDS = 30          # an instance answering its REST API
FIRST_SYNC_SECONDS = 40     # the vault reaching B the first time
PAUSE_SECONDS = 15          # both sides seeing the connection paused
SYNC_SECONDS = 45           # a round's changes (and conflict copy) everywhere
SHUTDOWN_SECONDS = 10


class Failure(Exception):
    """A check that did not hold: the message says what was expected and found."""


class Deadline:
    """A step's deadline, never later than the run's."""

    run_end = None

    def __init__(self, seconds):
        self.end = time.monotonic() + seconds
        if Deadline.run_end is not None:
            self.end = min(self.end, Deadline.run_end)

    def left(self):
        return self.end - time.monotonic()

    def passed(self):
        return self.left() <= 0


def totp(secret, at, digits=6, period=30):
    """RFC 6238 with SHA-1, to check each account's secret survived."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", at // period), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = int.from_bytes(mac[offset:offset + 4], "big") & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tail(path, lines=40):
    try:
        text = Path(path).read_text(errors="replace")
    except OSError as error:
        return f"(cannot read {path}: {error})"
    return "\n".join(text.splitlines()[-lines:])


class Syncthing:
    """One machine's Syncthing: its home, config, process and REST API."""

    def __init__(self, name, root, folder, dials):
        self.name = name
        self.dials = dials
        self.home = root / "syncthing"
        self.folder = folder
        self.log_path = root / "syncthing.log"
        self.listen_port = free_port()
        self.gui_port = free_port()
        self.api_key = secrets.token_hex(16)
        self.env = dict(os.environ, HOME=str(root / "home"), STNORESTART="1",
                        STNOUPGRADE="1", STNODEFAULTFOLDER="1")
        self.process = None
        self.log_file = None
        self.device_id = None
        self.peer = None

    def generate(self):
        done = subprocess.run(
            [SYNCTHING, "generate", f"--home={self.home}", "--no-default-folder",
             "--skip-port-probing"],
            env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise Failure(f"{self.name}: syncthing generate exited {done.returncode}: "
                          f"{done.stdout}{done.stderr}")
        shown = subprocess.run([SYNCTHING, f"--home={self.home}", "--device-id"],
                               env=self.env, capture_output=True, text=True, timeout=60)
        self.device_id = shown.stdout.strip()
        if shown.returncode != 0 or not DEVICE_ID.match(self.device_id):
            raise Failure(f"{self.name}: expected a device id from syncthing --device-id, "
                          f"found exit {shown.returncode}: {shown.stdout!r} {shown.stderr!r}")

    def write_config(self, peer):
        """config.xml of version 36 (Syncthing 1.19): one folder shared with
        the peer, the devices at loopback addresses, nothing that reaches
        beyond this machine.

        Only one side dials: Syncthing 1.19 takes its connections one at a
        time, exchanging hellos with a 20 s deadline, so two instances that
        dial each other at the same moment (as both do when they resume) each
        wait for the other's hello until that deadline. The other side lists
        its peer as "dynamic", which, without discovery, it never dials."""
        self.peer = peer
        root = ElementTree.Element("configuration", version="36")
        folder = ElementTree.SubElement(
            root, "folder", id=FOLDER_ID, label=FOLDER_ID, path=str(self.folder),
            type="sendreceive", rescanIntervalS="3600", fsWatcherEnabled="false",
            fsWatcherDelayS="10", ignorePerms="false", autoNormalize="true")
        ElementTree.SubElement(folder, "filesystemType").text = "basic"
        for device in (self, peer):
            ElementTree.SubElement(folder, "device", id=device.device_id, introducedBy="")
        ElementTree.SubElement(folder, "maxConflicts").text = "-1"
        ElementTree.SubElement(folder, "markerName").text = ".stfolder"
        for device in (self, peer):
            element = ElementTree.SubElement(
                root, "device", id=device.device_id, name=device.name,
                compression="metadata", introducer="false",
                skipIntroductionRemovals="false", introducedBy="")
            ElementTree.SubElement(element, "address").text = \
                f"tcp://127.0.0.1:{device.listen_port}" \
                if device is self or self.dials else "dynamic"
            ElementTree.SubElement(element, "paused").text = "false"
            ElementTree.SubElement(element, "autoAcceptFolders").text = "false"
        gui = ElementTree.SubElement(root, "gui", enabled="true", tls="false")
        ElementTree.SubElement(gui, "address").text = f"127.0.0.1:{self.gui_port}"
        ElementTree.SubElement(gui, "apikey").text = self.api_key
        options = ElementTree.SubElement(root, "options")
        for key, value in (
                ("listenAddress", f"tcp://127.0.0.1:{self.listen_port}"),
                ("globalAnnounceEnabled", "false"),
                ("localAnnounceEnabled", "false"),
                ("relaysEnabled", "false"),
                ("natEnabled", "false"),
                ("urAccepted", "-1"),
                ("autoUpgradeIntervalH", "0"),
                ("crashReportingEnabled", "false"),
                ("startBrowser", "false"),
                ("reconnectionIntervalS", "1"),
                ("setLowPriority", "false")):
            ElementTree.SubElement(options, key).text = value
        ElementTree.indent(root)
        (self.home / "config.xml").write_bytes(ElementTree.tostring(root) + b"\n")

    def start(self):
        self.log_file = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [SYNCTHING, "serve", f"--home={self.home}", "--no-browser", "--no-upgrade",
             f"--gui-address=127.0.0.1:{self.gui_port}", f"--gui-apikey={self.api_key}",
             "--logfile=-"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=self.log_file,
            stderr=subprocess.STDOUT)

    def api(self, method, path, timeout=10, **query):
        url = f"http://127.0.0.1:{self.gui_port}{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        request = urllib.request.Request(url, method=method,
                                         headers={"X-API-Key": self.api_key})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body.strip() else None

    def wait_ready(self, deadline):
        last = None
        while not deadline.passed():
            if self.process.poll() is not None:
                raise Failure(f"{self.name}: syncthing exited {self.process.returncode} "
                              "while starting")
            try:
                if self.api("GET", "/rest/system/ping", timeout=2).get("ping") == "pong":
                    status = self.api("GET", "/rest/system/status")
                    if status.get("myID") != self.device_id:
                        raise Failure(f"{self.name}: expected myID {self.device_id}, "
                                      f"found {status.get('myID')}")
                    return
            except (OSError, ValueError) as error:
                last = error
            time.sleep(0.2)
        raise Failure(f"{self.name}: expected the REST API to answer on port "
                      f"{self.gui_port}, found {last}")

    def connected(self):
        connections = self.api("GET", "/rest/system/connections")["connections"]
        return bool(connections.get(self.peer.device_id, {}).get("connected"))

    def scan(self):
        self.api("POST", "/rest/db/scan", timeout=60, folder=FOLDER_ID, next="86400")

    def pause_peer(self):
        self.api("POST", "/rest/system/pause", device=self.peer.device_id)

    def resume_peer(self):
        self.api("POST", "/rest/system/resume", device=self.peer.device_id)

    def folder_state(self):
        status = self.api("GET", "/rest/db/status", folder=FOLDER_ID)
        completion = self.api("GET", "/rest/db/completion", folder=FOLDER_ID,
                              device=self.peer.device_id)
        return {
            "connected": self.connected(),
            "state": status.get("state"),
            "needTotalItems": status.get("needTotalItems"),
            "errors": status.get("errors", 0) + status.get("pullErrors", 0),
            "globalFiles": status.get("globalFiles"),
            "localFiles": status.get("localFiles"),
            "peerCompletion": completion.get("completion"),
        }

    def stop(self):
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                self.api("POST", "/rest/system/shutdown", timeout=5)
            except (OSError, ValueError):
                pass  # the connection may close before the reply
            try:
                self.process.wait(SHUTDOWN_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                try:
                    self.process.wait(5)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        if self.log_file is not None:
            self.log_file.close()


class Machine:
    """One side: a folder Syncthing syncs, and the CLI's own HOME and
    configuration (so its own watchword device)."""

    def __init__(self, name, base, cli, dials):
        self.name = name
        self.root = base / name
        self.folder = self.root / "Sync"
        self.home = self.root / "home"
        self.config = self.root / "config"
        for path in (self.folder / ".stfolder", self.home, self.config):
            path.mkdir(parents=True)
        (self.folder / ".stignore").write_text(STIGNORE)
        self.vault = self.folder / VAULT
        self.cli_path = cli
        self.syncthing = Syncthing(name, self.root, self.folder, dials)

    def cli(self, *args, secrets_in=(PASSWORD,), expect=(0,)):
        env = dict(os.environ, HOME=str(self.home), XDG_CONFIG_HOME=str(self.config))
        stdin = "".join(line + "\n" for line in secrets_in)
        done = subprocess.run([self.cli_path, *args], input=stdin, env=env,
                              cwd=self.root, capture_output=True, text=True,
                              timeout=CLI_SECONDS)
        if done.returncode not in expect:
            raise Failure(f"{self.name}: watchword-cli {' '.join(args)}: expected exit "
                          f"{' or '.join(map(str, expect))}, found {done.returncode}\n"
                          f"stdout: {done.stdout}stderr: {done.stderr}")
        return done

    def cli_json(self, *args, expect=(0,), **keywords):
        done = self.cli(*args, "--json", expect=expect, **keywords)
        try:
            return done.returncode, json.loads(done.stdout)
        except ValueError as error:
            raise Failure(f"{self.name}: watchword-cli {' '.join(args)} --json: expected "
                          f"JSON, found {done.stdout!r} ({error})") from None

    def records(self):
        return self.cli_json("vault", "list", str(self.vault), "--password-stdin")[1]["records"]

    def add_account(self, issuer, account, secret):
        SECRETS[("account", issuer, account)] = secret
        link = (f"otpauth://totp/{urllib.parse.quote(issuer)}:{urllib.parse.quote(account)}"
                f"?secret={secret}&issuer={urllib.parse.quote(issuer)}")
        self.cli("vault", "add", str(self.vault), "-", "--password-stdin",
                 secrets_in=(PASSWORD, link))

    def add_note(self, title, body):
        body_file = self.root / "note.txt"
        body_file.write_text(body)
        self.cli("vault", "note", str(self.vault), "--title", title, "--body-file",
                 str(body_file), "--password-stdin")
        body_file.unlink()

    def remove(self, label):
        matches = [record["id"] for record in self.records() if record_label(record) == label]
        if len(matches) != 1:
            raise Failure(f"{self.name}: expected one record {label}, found {len(matches)}")
        self.cli("vault", "remove", str(self.vault), matches[0], "--password-stdin")

    def conflict_copies(self):
        return sorted(entry.name for entry in self.folder.iterdir()
                      if CONFLICT_NAME.match(entry.name))

    def read(self, name=VAULT):
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None


def record_label(record):
    if record["kind"] == "account":
        return ("account", record["issuer"], record["account"])
    return (record["kind"], record.get("title"))


def labels(records):
    return sorted(record_label(record) for record in records)


def listing(folder):
    lines = []
    for path in sorted(folder.rglob("*")):
        if ".stfolder" in path.relative_to(folder).parts:
            continue
        info = path.lstat()
        kind = "dir " if path.is_dir() else f"{info.st_size:>6}"
        lines.append(f"  {kind}  {time.strftime('%H:%M:%S', time.localtime(info.st_mtime))}"
                     f".{int(info.st_mtime_ns % 10**9 // 10**6):03d}  "
                     f"{path.relative_to(folder)}")
    return "\n".join(lines) or "  (empty)"


class Test:
    def __init__(self, cli, base):
        # A dials B (see Syncthing.write_config): B starts and resumes first.
        self.a = Machine("A", base, cli, dials=True)
        self.b = Machine("B", base, cli, dials=False)
        self.machines = (self.a, self.b)
        self.timings = []
        self.synced_mtime = None  # vault.wwv's when the two last parted

    # -- waiting -----------------------------------------------------------

    def timed(self, label, started):
        self.timings.append((label, time.monotonic() - started))

    def both_synced(self):
        """Syncthing's own view: connected, idle, nothing needed, no errors,
        the peer complete, the same global file count; and its state."""
        states = [machine.syncthing.folder_state() for machine in self.machines]
        ok = all(state["connected"] and state["state"] == "idle"
                 and state["needTotalItems"] == 0 and state["errors"] == 0
                 and state["peerCompletion"] == 100 for state in states)
        ok = ok and states[0]["globalFiles"] == states[1]["globalFiles"]
        return ok, states

    def wait_synced(self, label, seconds, condition):
        """Waits until both sides are synced and condition() (the files
        expected on disk) holds, twice 250 ms apart."""
        started = time.monotonic()
        deadline = Deadline(seconds)
        states, found = None, None
        while not deadline.passed():
            for machine in self.machines:
                if machine.syncthing.process.poll() is not None:
                    raise Failure(f"{machine.name}: syncthing exited "
                                  f"{machine.syncthing.process.returncode}")
            try:
                synced, states = self.both_synced()
            except (OSError, ValueError) as error:
                synced, states = False, f"REST error: {error}"
            holds, found = condition()
            if synced and holds:
                time.sleep(0.25)
                synced, states = self.both_synced()
                holds, found = condition()
                if synced and holds:
                    self.timed(label, started)
                    return
            time.sleep(0.25)
        raise Failure(f"{label}: not reached in {seconds} s\n"
                      f"  Syncthing A, B: {states}\n  files: {found}")

    def wait_connected(self, label, want, seconds):
        started = time.monotonic()
        deadline = Deadline(seconds)
        found = None
        while not deadline.passed():
            found = [machine.syncthing.connected() for machine in self.machines]
            if found == [want, want]:
                self.timed(label, started)
                return
            time.sleep(0.2)
        raise Failure(f"{label}: expected connected={want} on both sides, found A, B = {found}")

    # -- checks ------------------------------------------------------------

    def same_vault(self, expected_copies):
        """Condition: the same vault.wwv on both sides, and the conflict
        copies expected (by count) in both folders, with the same bytes."""
        def condition():
            a, b = self.a.read(), self.b.read()
            copies = [machine.conflict_copies() for machine in self.machines]
            found = {
                "vault.wwv": f"A {len(a) if a else None} bytes, B {len(b) if b else None} "
                             f"bytes, {'identical' if a == b else 'different'}",
                "conflict copies": {"A": copies[0], "B": copies[1]},
            }
            ok = a is not None and a == b and copies[0] == copies[1] \
                and len(copies[0]) == expected_copies \
                and all(self.a.read(name) == self.b.read(name) for name in copies[0])
            return ok, found
        return condition

    def check_status(self, machine, copies):
        code, status = machine.cli_json("vault", "status", str(machine.vault),
                                        expect=(0, 3))
        listed = [(Path(copy["path"]).name, copy.get("engine"), copy.get("error"))
                  for copy in status["conflict_copies"]]
        expected = [(name, "Syncthing", None) for name in copies]
        want_code = 3 if copies else 0
        if code != want_code or listed != expected:
            raise Failure(f"{machine.name}: vault status: expected exit {want_code} listing "
                          f"{expected}, found exit {code} listing {listed}")
        return status

    def check_converged(self, label, expected):
        a, b = self.a.read(), self.b.read()
        if a != b:
            raise Failure(f"{label}: expected the same vault.wwv on both sides, found "
                          f"{len(a or b'')} and {len(b or b'')} bytes that differ")
        lists = {}
        for machine in self.machines:
            self.check_status(machine, [])
            lists[machine.name] = labels(machine.records())
        for name, found in lists.items():
            if found != sorted(expected):
                missing = sorted(set(expected) - set(found))
                extra = sorted(set(found) - set(expected))
                raise Failure(f"{label}: {name}'s vault list: expected {sorted(expected)}\n"
                              f"  found {found}\n  missing {missing}, unexpected {extra}")
        want = {entry: totp(SECRETS[entry], CODES_AT) for entry in expected
                if entry[0] == "account"}
        for machine in self.machines:
            codes = machine.cli_json("vault", "codes", str(machine.vault), "--at",
                                     str(CODES_AT), "--password-stdin")[1]["codes"]
            found = {("account", code["issuer"], code["account"]): code["code"]
                     for code in codes}
            if found != want:
                raise Failure(f"{label}: {machine.name}'s vault codes --at {CODES_AT}: "
                              f"expected {want}\n  found {found}")

    def check_merge_report(self, machine, copy, report, added):
        merged = report.get("merged", [])
        entry = merged[0] if len(merged) == 1 else {}
        zero = {"accounts": 0, "notes": 0, "contacts": 0}
        found = {"added": entry.get("added"), "removed": entry.get("removed"),
                 "conflicts": entry.get("conflicts"), "written": report.get("written"),
                 "set_aside": entry.get("set_aside") and
                 str(Path(entry["set_aside"]).resolve())}
        expected = {"added": dict(zero, **added), "removed": zero, "conflicts": 0,
                    "written": True,
                    "set_aside": str((machine.folder / MERGED_FOLDER / copy).resolve())}
        if found != expected:
            raise Failure(f"{machine.name}: vault merge --json: expected {expected}\n"
                          f"  found {found}\n  report: {json.dumps(report)}")

    # -- the scenario --------------------------------------------------------

    def pause(self, label):
        self.synced_mtime = self.a.vault.stat().st_mtime_ns
        for machine in self.machines:
            machine.syncthing.pause_peer()
        self.wait_connected(f"{label}: both sides paused", False, PAUSE_SECONDS)

    def resume_and_sync(self, label, winner, loser, winner_bytes, loser_bytes):
        """Makes winner's vault.wwv the newer, scans both, resumes, and
        waits for one conflict copy holding loser's file everywhere."""
        second = 10**9
        winner_time = time.time_ns() // second * second
        loser_time = winner_time - 4 * second
        for path, mtime in ((winner.vault, winner_time), (loser.vault, loser_time)):
            if mtime == self.synced_mtime:  # the file would look unchanged
                mtime -= second
            os.utime(path, ns=(mtime, mtime))
        for machine in self.machines:
            machine.syncthing.scan()
        for machine in (self.b, self.a):
            machine.syncthing.resume_peer()
        self.wait_synced(f"{label}: conflict copy on both sides", SYNC_SECONDS,
                         self.same_vault(1))
        copy = self.a.conflict_copies()[0]
        if self.a.read() != winner_bytes:
            raise Failure(f"{label}: expected vault.wwv to be {winner.name}'s file (the "
                          f"newer), found other bytes")
        if self.a.read(copy) != loser_bytes:
            raise Failure(f"{label}: expected {copy} to be {loser.name}'s file, found "
                          f"other bytes")
        print(f"{label}: Syncthing kept {winner.name}'s vault.wwv; {loser.name}'s is {copy}")
        return copy

    def merge(self, label, machine, copy, added):
        self.check_status(machine, [copy])
        shown = machine.cli("vault", "status", str(machine.vault), expect=(3,)).stdout
        if not any(copy in line and "(Syncthing)" in line for line in shown.splitlines()):
            raise Failure(f"{label}: expected {machine.name}'s vault status to list {copy} "
                          f"(Syncthing), found:\n{shown}")
        print(f"{label}: {machine.name}'s vault status lists {copy} (Syncthing), exit 3")
        copy_bytes = machine.read(copy)
        _, report = machine.cli_json("vault", "merge", str(machine.vault),
                                     str(machine.folder / copy), "--password-stdin")
        self.check_merge_report(machine, copy, report, added)
        entry = report["merged"][0]
        print(f"{label}: {machine.name} merged: added {entry['added']}, changed "
              f"{entry['changed']}, removed {entry['removed']}, conflicts "
              f"{entry['conflicts']}, positions moved {entry['positions_moved']}")
        kept = machine.folder / MERGED_FOLDER / copy
        if (machine.folder / copy).exists() or not kept.is_file() \
                or kept.read_bytes() != copy_bytes:
            raise Failure(f"{label}: expected {copy} moved, as it was, into {MERGED_FOLDER}/ "
                          f"of {machine.name}, found:\n{listing(machine.folder)}")
        machine.syncthing.scan()
        self.wait_synced(f"{label}: merged vault on both sides", SYNC_SECONDS,
                         self.same_vault(0))
        for other in self.machines:
            if other is not machine and (other.folder / MERGED_FOLDER / copy).exists():
                raise Failure(f"{label}: expected {copy} in {MERGED_FOLDER}/ of "
                              f"{machine.name} only (it is in .stignore), found it on "
                              f"{other.name} too")

    def run(self):
        a, b = self.a, self.b
        for machine in self.machines:
            machine.syncthing.generate()
        a.syncthing.write_config(b.syncthing)
        b.syncthing.write_config(a.syncthing)

        # 1. A's vault, then both instances; B gets the same bytes.
        a.cli("vault", "init", str(a.vault), "--password-stdin", "--target-ms", "100")
        first = ("account", "Example", "alice@example.com")
        second = ("account", "Example", "bob@example.com")
        note = ("note", "Door codes")
        a.add_account("Example", "alice@example.com", "JBSWY3DPEHPK3PXP")
        a.add_account("Example", "bob@example.com", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        a.add_note("Door codes", "Front door 4711, garage 0815.\n")
        expected = [first, second, note]
        if labels(a.records()) != sorted(expected):
            raise Failure(f"A: expected {sorted(expected)}, found {labels(a.records())}")
        started = time.monotonic()
        for machine in (b, a):
            machine.syncthing.start()
            machine.syncthing.wait_ready(Deadline(START_SECONDS))
        self.timed("both instances answering", started)
        self.wait_connected("first connection", True, FIRST_SYNC_SECONDS)
        self.wait_synced("vault.wwv reaching B", FIRST_SYNC_SECONDS, self.same_vault(0))
        print("start: B has A's vault.wwv, byte for byte")

        # 2. Round 1: both change it apart; A loses the file and merges.
        self.pause("round 1")
        only_a = ("account", "Only on A", "a@example.com")
        only_b = ("note", "Only on B")
        a.add_account("Only on A", "a@example.com", "MFRGGZDFMZTWQ2LK")
        b.add_note("Only on B", "Written on B while the two were apart.\n")
        b.remove(second)
        copy = self.resume_and_sync("round 1", b, a, b.read(), a.read())
        self.merge("round 1", a, copy, {"accounts": 1})
        expected = [first, note, only_a, only_b]
        self.check_converged("round 1", expected)
        print("round 1: the same vault.wwv on both sides, no conflict copy, records "
              + ", ".join(" / ".join(label[1:]) for label in sorted(expected)))

        # 3. Round 2: both edit the same note (remove it, add their own) and
        #    add an account; B loses the file this time and merges.
        self.pause("round 2")
        note_a = ("note", "Door codes (edited on A)")
        note_b = ("note", "Door codes (edited on B)")
        round_a = ("account", "Round two", "a2@example.com")
        round_b = ("account", "Round two", "b2@example.com")
        a.remove(note)
        a.add_note(note_a[1], "Front door 4711, garage 9999.\n")
        a.add_account("Round two", "a2@example.com", "KRUGS4ZANFZSAYJA")
        b.remove(note)
        b.add_note(note_b[1], "Front door 1234, garage 0815.\n")
        b.add_account("Round two", "b2@example.com", "ONSWG4TFOQQGC3TE")
        copy = self.resume_and_sync("round 2", a, b, a.read(), b.read())
        self.merge("round 2", b, copy, {"accounts": 1, "notes": 1})
        expected = [first, only_a, only_b, note_a, note_b, round_a, round_b]
        self.check_converged("round 2", expected)
        print("round 2: the same vault.wwv on both sides, no conflict copy, records "
              + ", ".join(" / ".join(label[1:]) for label in sorted(expected)))

    def report_failure(self):
        for machine in self.machines:
            print(f"--- {machine.name}: {machine.folder}")
            print(listing(machine.folder))
        for machine in self.machines:
            if machine.vault.exists():
                try:
                    done = machine.cli("vault", "status", str(machine.vault),
                                       expect=range(256))
                    print(f"--- {machine.name}: vault status (exit {done.returncode})")
                    print(done.stdout + done.stderr, end="")
                except (OSError, subprocess.SubprocessError) as error:
                    print(f"--- {machine.name}: vault status failed: {error}")
        for machine in self.machines:
            print(f"--- {machine.name}: the last 40 lines of the Syncthing log")
            print(tail(machine.syncthing.log_path))

    def stop(self):
        for machine in self.machines:
            try:
                machine.syncthing.stop()
            except Exception as error:  # stop the other one all the same
                print(f"{machine.name}: stopping syncthing: {error}", file=sys.stderr)


def terminated(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main():
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    cli = os.path.abspath(sys.argv[1])
    for program in (cli, SYNCTHING):
        if not os.access(program, os.X_OK):
            print(f"{program} is not an executable", file=sys.stderr)
            return 2
    signal.signal(signal.SIGTERM, terminated)
    started = time.monotonic()
    Deadline.run_end = started + RUN_SECONDS
    base = Path(tempfile.mkdtemp(prefix="watchword-sync-"))
    keep = bool(os.environ.get("WATCHWORD_KEEP_SYNC_TEST"))
    test = None
    status = 1
    try:
        test = Test(cli, base)
        try:
            test.run()
            elapsed = time.monotonic() - started
            if elapsed > RUN_SECONDS:
                raise Failure(f"expected the whole run in {RUN_SECONDS} s, found "
                              f"{elapsed:.1f} s")
            status = 0
        except Failure as failure:
            print(f"FAIL: {failure}")
            test.report_failure()
        except Exception:  # a REST call, a CLI run that hung: the same report
            print("FAIL:")
            traceback.print_exc(file=sys.stdout)
            test.report_failure()
    except KeyboardInterrupt as interrupt:
        print(f"interrupted{f' ({interrupt})' if str(interrupt) else ''}: stopping")
        status = 130
    finally:
        if test is not None:
            test.stop()
        if keep:
            print(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    if test is not None and test.timings:
        print("timings:")
        for label, seconds in test.timings:
            print(f"  {seconds:6.2f} s  {label}")
        print(f"  {time.monotonic() - started:6.2f} s  the whole run")
    print("PASS" if status == 0 else "FAILED")
    return status


if __name__ == "__main__":
    sys.exit(main())
