// watchword-make-vault: writes a vault of N accounts and M notes for
// measuring the app (bench/app_performance.py) and for tests.
//
//   watchword-make-vault FILE [--accounts N] [--notes M] < password
//
// The password is the first line of standard input, never an argument (a
// command line is visible to every user of the machine). The password slot
// uses the floor count, vault::minimumPasswordIterations, so that a script
// making and opening many vaults does not wait seconds for each; the
// measurements then subtract the KDF anyway. The recovery phrase is made and
// thrown away: these vaults are for measuring, not for keeping secrets.
//
// The accounts are a mix shaped like a real collection, fixed by their index
// so every run builds the same shape: mostly TOTP SHA-1, 6 digits, 30 s, with
// SHA-256 and SHA-512, 8 digits, 60 s, a few HOTP and Steam accounts, zero to
// two tags each. Secrets and record ids are random.
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Random.h"
#include "keychain/Keychain.h"
#include "otp/OtpParameters.h"
#include "vault/Calibration.h"
#include "vault/Records.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using namespace watchword;

constexpr std::string_view usage =
    "usage: watchword-make-vault FILE [--accounts N] [--notes M] < password\n"
    "Writes a new vault (never over an existing file) of N OTP accounts (default 1000)\n"
    "and M secure notes (default 0), with the password from the first line of stdin\n"
    "(printable ASCII) and the floor PBKDF2 count.\n";

// The largest vault the tool makes: far more than any measurement needs.
constexpr std::size_t maximumRecords = 1'000'000;

int badArguments(std::string_view message)
{
    std::fprintf(stderr, "watchword-make-vault: %.*s\n", int(message.size()), message.data());
    return 2;
}

int failed(std::string_view what, const std::string& message)
{
    std::fprintf(stderr, "watchword-make-vault: %.*s: %s\n", int(what.size()), what.data(),
                 message.c_str());
    return 1;
}

bool parseCount(std::string_view text, std::size_t& out)
{
    const auto* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, out);
    return error == std::errc() && stop == end && out <= maximumRecords;
}

// The first line of stdin, in a buffer that is wiped. The vault format wants
// the NFKD form of the password, and normalizing takes a Unicode library the
// core does not have: printable ASCII is its own NFKD form, so only that is
// accepted.
bool readPassword(SecureBuffer& out, std::string& error)
{
    // Byte by byte with read(2): stdio would keep a copy in its buffer.
    SecureBuffer line(1024);
    std::size_t size = 0;
    std::uint8_t c = 0;
    while (::read(STDIN_FILENO, &c, 1) == 1 && c != '\n') {
        if (size == line.size()) {
            error = "the password is longer than 1024 bytes";
            return false;
        }
        line[size++] = c;
    }
    secureWipe(&c, 1);
    if (size > 0 && line[size - 1] == '\r')
        --size;
    line.truncate(size);
    if (line.empty()) {
        error = "standard input is empty: expected the password on its first line";
        return false;
    }
    if (!std::all_of(line.begin(), line.end(),
                     [](std::uint8_t byte) { return byte >= 0x20 && byte < 0x7f; })) {
        error = "the password must be printable ASCII (this tool does not normalize Unicode)";
        return false;
    }
    out = std::move(line);
    return true;
}

constexpr std::string_view issuers[] = {
    "GitHub",    "Google",     "Microsoft", "Amazon Web Services",
    "Dropbox",   "Cloudflare", "GitLab",    "Mastodon",
    "Proton",    "Fastmail",   "Bitwarden", "Example Bank",
    "Tailscale", "npm",        "PyPI",      "DigitalOcean",
    "Hetzner",   "Discord",    "Reddit",    "Nextcloud",
    "Slack",     "Atlassian",  "Okta",      "Coinbase",
};
constexpr std::string_view tagNames[] = {"work", "personal", "finance", "dev", "family", "games"};

// The n-th account's parameters: out of every 100 accounts, 70 TOTP SHA-1
// 6 digits 30 s, 8 TOTP SHA-1 8 digits 30 s, 6 TOTP SHA-256 6 digits 30 s,
// 4 TOTP SHA-512 8 digits 30 s, 6 TOTP SHA-1 6 digits 60 s, 2 TOTP SHA-256
// 8 digits 60 s, 2 HOTP, 2 Steam. Shuffled within each hundred (37 is prime
// to 100), so that a small vault gets a mix too.
otp::OtpParameters parametersFor(std::size_t n)
{
    using crypto::HashAlgorithm;
    otp::OtpParameters p;
    const std::size_t slot = n % 100 * 37 % 100;
    if (slot < 70)
        return p;
    if (slot < 78) {
        p.digits = 8;
    } else if (slot < 84) {
        p.algorithm = HashAlgorithm::Sha256;
    } else if (slot < 88) {
        p.algorithm = HashAlgorithm::Sha512;
        p.digits = 8;
    } else if (slot < 94) {
        p.period = 60;
    } else if (slot < 96) {
        p.algorithm = HashAlgorithm::Sha256;
        p.digits = 8;
        p.period = 60;
    } else if (slot < 98) {
        p.kind = otp::OtpKind::Hotp;
        p.counter = n % 50;
    } else {
        p = otp::OtpParameters::steam();
    }
    return p;
}

// RFC 4226's advice: a secret as long as the hash's output.
std::size_t secretSizeFor(crypto::HashAlgorithm algorithm)
{
    switch (algorithm) {
    case crypto::HashAlgorithm::Sha256:
        return 32;
    case crypto::HashAlgorithm::Sha512:
        return 64;
    default:
        return 20;
    }
}

vault::OtpAccount accountFor(std::size_t n, crypto::RandomSource& random, std::int64_t now)
{
    vault::OtpAccount account;
    account.issuer = std::string(issuers[n % std::size(issuers)]);
    if (n >= std::size(issuers)) {
        account.issuer += ' ';
        account.issuer += std::to_string(n / std::size(issuers) + 1);
    }
    account.accountName = "user";
    account.accountName += std::to_string(n);
    account.accountName += "@example.com";
    account.parameters = parametersFor(n);
    account.secret = SecureBuffer(secretSizeFor(account.parameters.algorithm));
    random.fill(account.secret.span());
    // Zero, one or two tags, in a pattern that does not line up with the
    // parameters'.
    const std::size_t tagCount = n % 3;
    for (std::size_t t = 0; t < tagCount; ++t)
        account.tags.emplace_back(tagNames[(n / 3 + t) % std::size(tagNames)]);
    account.created = now - std::int64_t(n) * 3600;
    account.modified = account.created;
    if (n % 4 == 0)
        account.lastUsed = now - std::int64_t(n) * 60;
    account.sortPosition = std::uint32_t(n);
    return account;
}

vault::SecureNote noteFor(std::size_t n, std::int64_t now)
{
    vault::SecureNote note;
    note.title = "Note " + std::to_string(n + 1);
    const std::string body = "Server: host" + std::to_string(n) +
                             ".example.net\nUser: admin\nPassword: not-a-real-password-" +
                             std::to_string(n) + "\nNotes: rotated every quarter.\n";
    note.body = SecureBuffer::fromString(body);
    if (n % 2 == 0)
        note.tags.emplace_back(tagNames[n % std::size(tagNames)]);
    note.created = now - std::int64_t(n) * 86400;
    note.modified = note.created;
    note.sortPosition = std::uint32_t(n);
    return note;
}

} // namespace

int main(int argc, char* argv[])
{
    std::string path;
    std::size_t accounts = 1000;
    std::size_t notes = 0;
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--help" || arg == "-h") {
            std::fputs(usage.data(), stdout);
            return 0;
        }
        if (arg == "--accounts" || arg == "--notes") {
            if (i + 1 == args.size())
                return badArguments(std::string(arg) + " needs a number");
            if (!parseCount(args[++i], arg == "--accounts" ? accounts : notes))
                return badArguments(std::string(arg) + ": not a number from 0 to 1000000");
            continue;
        }
        if (arg.starts_with("-") || !path.empty())
            return badArguments("unexpected argument \"" + std::string(arg) + "\" (see --help)");
        path = arg;
    }
    if (path.empty())
        return badArguments("no FILE given (see --help)");

    SecureBuffer password;
    if (std::string error; !readPassword(password, error))
        return badArguments(error);

    auto& random = crypto::systemRandom();
    const std::int64_t now = std::time(nullptr);
    auto keychain = keychain::Keychain::create(random);
    if (!keychain)
        return failed("recovery keychain", keychain.error().message);
    // The measured rate goes into the header (the app's unlock progress
    // estimates its wait from it); the count is the floor.
    auto calibration = vault::calibratePasswordKdf();
    if (!calibration)
        return failed("calibration", calibration.error().message);
    calibration->iterations = vault::minimumPasswordIterations;
    calibration->targetMilliseconds = std::max<std::uint32_t>(
        1, std::uint32_t(1000 * std::uint64_t(calibration->iterations) /
                         std::max<std::uint64_t>(1, calibration->iterationsPerSecond)));
    auto made = vault::Vault::create(password.span(), *keychain, *calibration, random, now);
    if (!made)
        return failed("create", made.error().message);
    for (std::size_t n = 0; n < accounts; ++n)
        if (auto added = made->add(accountFor(n, random, now), random); !added)
            return failed("account " + std::to_string(n), added.error().message);
    for (std::size_t n = 0; n < notes; ++n)
        if (auto added = made->add(noteFor(n, now), random); !added)
            return failed("note " + std::to_string(n), added.error().message);
    auto bytes = made->serialize(random, now);
    if (!bytes)
        return failed("serialize", bytes.error().message);
    auto storage = vault::VaultStorage::create(path, *bytes, random);
    if (!storage)
        return failed(path, storage.error().message);
    storage->unlock();
    std::printf("%s: %zu accounts, %zu notes, %u PBKDF2 iterations\n", path.c_str(), accounts,
                notes, unsigned(calibration->iterations));
    return 0;
}
