#!/usr/bin/python3
"""Cross-checks `watchword-cli code` against independent implementations.

On N random accounts (seeded: the seed is printed, --seed or the environment
variable WATCHWORD_TEST_SEED replays a run) the code printed by watchword-cli
must equal the code of:

  * oathtool (OATH Toolkit): HOTP with SHA-1, TOTP with SHA-1/256/512; it
    supports 6, 7 and 8 digits only;
  * pyotp (Debian python3-pyotp): HOTP and TOTP with SHA-1/256/512 and any
    number of digits, so 9 and 10 digits are checked against pyotp alone;
  * for Steam Guard, the small reference below over the standard library's
    hmac: HMAC-SHA1 of floor(t / 30), RFC 4226 dynamic truncation, then five
    symbols of "23456789BCDFGHJKMNPQRTVWXY", least significant first.

Secrets are 1 to 64 random bytes, given to watchword-cli as Base32 in the
spellings people and exporters use (lower case, groups with spaces, no
padding), either through --secret/--secret-stdin or inside an otpauth URI
built here. Any mismatch fails the run with every input printed.

Usage: /usr/bin/python3 cross_check.py PATH/TO/watchword-cli [--seed S] [--count N]
"""
import argparse
import base64
import hashlib
import hmac
import os
import random
import secrets
import shutil
import struct
import subprocess
import sys
import time
import urllib.parse

try:
    import pyotp
except ImportError:
    sys.exit("cross_check: the pyotp module is missing (Debian package python3-pyotp; "
             "run scripts/deps.sh install, and use /usr/bin/python3)")

OATHTOOL = shutil.which("oathtool")
if OATHTOOL is None:
    sys.exit("cross_check: oathtool is missing (Debian package oathtool; run scripts/deps.sh install)")

# pyotp turns a Unix time into a counter through local time (fromtimestamp,
# then mktime): in a zone with daylight saving, times near a transition come
# out an hour off. UTC has no transitions.
os.environ["TZ"] = "UTC"
time.tzset()

DIGESTS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}
OATHTOOL_DIGITS = (6, 7, 8)  # "oathtool: only digits 6, 7 and 8 are supported"
STEAM_ALPHABET = "23456789BCDFGHJKMNPQRTVWXY"
MAX_TIME = 2 ** 33
MAX_COUNTER = 2 ** 40


class Mismatch(Exception):
    pass


def steam_code(secret: bytes, unix_time: int) -> str:
    mac = hmac.new(secret, struct.pack(">Q", unix_time // 30), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    symbols = []
    for _ in range(5):
        symbols.append(STEAM_ALPHABET[value % len(STEAM_ALPHABET)])
        value //= len(STEAM_ALPHABET)
    return "".join(symbols)


def canonical_base32(secret: bytes) -> str:
    return base64.b32encode(secret).decode("ascii")


def as_typed(rng: random.Random, secret: bytes) -> str:
    """The secret's Base32 as a person or an exporter might write it."""
    text = canonical_base32(secret)
    if rng.random() < 0.5:
        text = text.rstrip("=")
    if rng.random() < 0.3:
        text = text.lower()
    if rng.random() < 0.3:
        bare = text.rstrip("=")
        text = " ".join(bare[i:i + 4] for i in range(0, len(bare), 4))
    return text


def make_case(rng: random.Random, index: int) -> dict:
    kind = rng.choices(["totp", "hotp", "steam"], weights=[6, 3, 1])[0]
    secret = rng.randbytes(rng.randint(1, 64))
    case = {"index": index, "kind": kind, "secret_hex": secret.hex(), "secret": secret}
    if kind == "steam":
        case.update(algorithm="SHA1", digits=5, period=30, time=rng.randint(0, MAX_TIME))
    else:
        case["algorithm"] = rng.choice(["SHA1", "SHA256", "SHA512"])
        case["digits"] = rng.randint(6, 10)
        if kind == "totp":
            case["period"] = 30 if rng.random() < 0.25 else rng.randint(1, 300)
            case["time"] = rng.randint(0, MAX_TIME)
        else:
            case["counter"] = rng.randint(0, MAX_COUNTER)
    case["via"] = rng.choice(["secret", "secret-stdin", "uri", "uri-stdin"])
    case["typed_secret"] = as_typed(rng, secret)
    return case


def build_uri(case: dict) -> str:
    label = urllib.parse.quote("Cross Check:case %d" % case["index"], safe=":@")
    params = [("secret", case["typed_secret"])]  # spaces become "+", as form encoding writes them
    params.append(("issuer", "Cross Check"))
    if case["kind"] == "steam":
        return "otpauth://steam/%s?%s" % (label, urllib.parse.urlencode(params))
    params += [("algorithm", case["algorithm"]), ("digits", str(case["digits"]))]
    if case["kind"] == "totp":
        params.append(("period", str(case["period"])))
    else:
        params.append(("counter", str(case["counter"])))
    return "otpauth://%s/%s?%s" % (case["kind"], label, urllib.parse.urlencode(params))


def cli_command(cli: str, case: dict):
    """The argument list and standard input that ask watchword-cli for this case's code."""
    args = [cli, "code"]
    stdin = b""
    if case["kind"] != "hotp":
        args += ["--at", str(case["time"])]
    if case["via"] in ("uri", "uri-stdin"):
        uri = build_uri(case)
        case["uri"] = uri
        if case["via"] == "uri":
            args.append(uri)
        else:
            args.append("-")
            stdin = (uri + "\n").encode()
        return args, stdin
    if case["via"] == "secret":
        args += ["--secret", case["typed_secret"]]
    else:
        args.append("--secret-stdin")
        stdin = (case["typed_secret"] + "\n").encode()
    if case["kind"] == "steam":
        args.append("--steam")
        return args, stdin
    args += ["--algorithm", case["algorithm"], "--digits", str(case["digits"])]
    if case["kind"] == "totp":
        args += ["--period", str(case["period"])]
    else:
        args += ["--hotp", "--counter", str(case["counter"])]
    return args, stdin


def run(args, stdin=b""):
    result = subprocess.run(args, input=stdin, capture_output=True, timeout=60)
    return result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")


def oathtool_code(case: dict):
    """oathtool's code, or None where oathtool cannot compute it."""
    if case["kind"] == "steam" or case["digits"] not in OATHTOOL_DIGITS:
        return None
    if case["kind"] == "hotp" and case["algorithm"] != "SHA1":
        return None  # oathtool's HOTP is HMAC-SHA1 only
    args = [OATHTOOL, "-b", "-d", str(case["digits"])]
    if case["kind"] == "totp":
        args += ["--totp=" + case["algorithm"].lower(), "-s", "%ds" % case["period"], "-N", "@%d" % case["time"]]
    else:
        args += ["-c", str(case["counter"])]
    args.append(canonical_base32(case["secret"]))
    code, out, err = run(args)
    if code != 0:
        raise Mismatch("oathtool failed (exit %d): %s" % (code, err.strip()))
    return out.strip()


def pyotp_code(case: dict):
    if case["kind"] == "steam":
        return None
    secret = canonical_base32(case["secret"])
    digest = DIGESTS[case["algorithm"]]
    if case["kind"] == "totp":
        return pyotp.TOTP(secret, digits=case["digits"], digest=digest, interval=case["period"]).at(case["time"])
    return pyotp.HOTP(secret, digits=case["digits"], digest=digest).at(case["counter"])


def describe(case: dict, args, stdin) -> str:
    shown = {k: v for k, v in case.items() if k != "secret"}
    return "%s\n  command: %r\n  stdin: %r" % (shown, args, stdin)


def self_check() -> None:
    """The references must reproduce published codes before they judge anything."""
    rfc_seed = b"12345678901234567890"
    assert pyotp.HOTP(canonical_base32(rfc_seed)).at(0) == "755224"  # RFC 4226 App. D
    assert pyotp.TOTP(canonical_base32(rfc_seed), digits=8).at(59) == "94287082"  # RFC 6238 App. B
    seed64 = (b"1234567890" * 7)[:64]
    assert pyotp.TOTP(canonical_base32(seed64), digits=8, digest=hashlib.sha512).at(20000000000) == "47863826"
    assert steam_code(bytes.fromhex("4c7225f3e265eae831afcc745fa79132"), 1700000000) == "747JR"  # Aegis
    code, out, err = run([OATHTOOL, "--totp=sha256", "-b", "-d", "8", "-N", "@1111111109",
                          canonical_base32((b"1234567890" * 4)[:32])])
    assert code == 0 and out.strip() == "68084774", (code, out, err)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cli", help="path to watchword-cli")
    parser.add_argument("--seed", type=lambda text: int(text, 0), default=None,
                        help="replay a run (default: WATCHWORD_TEST_SEED, else a fresh seed)")
    parser.add_argument("--count", type=int, default=300, help="random cases (default 300)")
    options = parser.parse_args()
    seed = options.seed
    if seed is None and os.environ.get("WATCHWORD_TEST_SEED"):
        seed = int(os.environ["WATCHWORD_TEST_SEED"], 0)
    if seed is None:
        seed = secrets.randbits(64)
    print("cross_check: seed %d (replay with --seed %d)" % (seed, seed), flush=True)
    rng = random.Random(seed)

    self_check()

    counts = {"oathtool": 0, "pyotp": 0, "steam reference": 0}
    failures = []
    started = time.monotonic()
    for index in range(options.count):
        case = make_case(rng, index)
        args, stdin = cli_command(options.cli, case)
        try:
            exit_code, out, err = run(args, stdin)
            # A secret given as an argument is said to be one, every time.
            warning = "watchword-cli: warning: the secret was given on the command line"
            in_arguments = any(a == "--secret" or a.startswith("--secret=") or a.lower().startswith("otpauth")
                               for a in args)
            if exit_code == 0 and in_arguments:
                if not err.startswith(warning) or err.count("\n") != 1:
                    raise Mismatch("no command-line warning on stderr: %r" % err)
                err = ""
            if exit_code != 0 or err:
                raise Mismatch("watchword-cli failed (exit %d): %s" % (exit_code, err.strip()))
            if not out.endswith("\n") or out.count("\n") != 1:
                raise Mismatch("watchword-cli printed not exactly one line: %r" % out)
            ours = out.strip()
            references = {}
            if case["kind"] == "steam":
                references["steam reference"] = steam_code(case["secret"], case["time"])
            else:
                references["pyotp"] = pyotp_code(case)
                oath = oathtool_code(case)
                if oath is not None:
                    references["oathtool"] = oath
            for name, theirs in references.items():
                if theirs != ours:
                    raise Mismatch("watchword-cli printed %s, %s computes %s" % (ours, name, theirs))
                counts[name] += 1
        except (Mismatch, subprocess.TimeoutExpired) as problem:
            failures.append("case %d: %s\n  %s" % (index, problem, describe(case, args, stdin)))

    elapsed = time.monotonic() - started
    print("cross_check: %d cases in %.1f s; agreed with oathtool %d, pyotp %d, steam reference %d"
          % (options.count, elapsed, counts["oathtool"], counts["pyotp"], counts["steam reference"]))
    for failure in failures:
        print("MISMATCH " + failure, file=sys.stderr)
    if failures:
        print("cross_check: %d of %d cases failed (seed %d)" % (len(failures), options.count, seed),
              file=sys.stderr)
        return 1
    # Every reference must have judged something, or the run proved nothing.
    if min(counts.values()) == 0:
        print("cross_check: a reference was never used: %s (seed %d)" % (counts, seed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
