#include "Arguments.h"
#include "Cli.h"
#include "Secrets.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "interop/exporters/Export.h"
#include "interop/importers/Import.h"
#include "interop/importers/ImportPlan.h"
#include "keychain/Keychain.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpauthUri.h"
#include "vault/Calibration.h"
#include "vault/PasswordStrength.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QJsonArray>
#include <QString>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace watchword::cli {

namespace {

constexpr const char* usage =
    R"(usage: watchword-cli vault init FILE [--target-ms N] [--words 12|24] [--password-stdin]
                     [--allow-weak-password]
       watchword-cli vault info FILE [--json]
       watchword-cli vault add FILE [-] [--password-stdin] [--wait S]
       watchword-cli vault note FILE --title T --body-file F [--password-stdin] [--wait S]
       watchword-cli vault list FILE [--json] [--password-stdin]
       watchword-cli vault codes FILE [--at UNIX_SECONDS] [--json] [--password-stdin]
       watchword-cli vault remove FILE ID [--password-stdin] [--wait S]
       watchword-cli vault passwd FILE [--target-ms N] [--new-phrase [--words 12|24]]
                     [--password-stdin] [--allow-weak-password] [--wait S]
       watchword-cli vault recover FILE [--target-ms N] [--new-phrase [--words 12|24]]
                     [--password-stdin] [--allow-weak-password] [--wait S]
       watchword-cli vault check-phrase FILE [--password-stdin]
       watchword-cli vault import FILE --from FORMAT SOURCE [--dry-run]
                     [--include-duplicates] [--skip-unsupported]
                     [--password-stdin] [--wait S]
       watchword-cli vault export FILE --to FORMAT OUT [--ids ID,...] [--force]
                     [--plaintext] [--target-ms N] [--password-stdin]

init     creates a new vault at FILE (never over an existing file): calibrates
         the password KDF (PBKDF2-HMAC-SHA256) for --target-ms milliseconds per
         unlock (1000 by default, never below 600,000 iterations), makes a
         recovery phrase (24 words by default) and prints it ONCE, with its
         recovery key fingerprint, the iteration count and the rate measured.
info     the format version, KDF parameters, record count and the recovery
         key's fingerprint; no password.
add      adds an OTP account from an otpauth link and prints its id. The link
         holds the secret, so it is never taken from the command line (where
         every local user can read it): it is pasted at a hidden prompt, or
         read from stdin with '-' (or after the password with
         --password-stdin).
note     adds a secure note titled T whose body is the content of file F
         ('-': stdin).
list     every record: id, kind, issuer and account (or title), tags.
codes    every account's code now (or at --at), with the seconds remaining;
         for HOTP the code of the stored counter, which is not incremented.
remove   removes the record with the given id (32 hex digits, from list).
passwd   changes the password (a new master key; every record sealed again)
         and prints the fingerprint of the recovery key the new key is
         wrapped for. --new-phrase also makes a new recovery phrase (printed
         ONCE): the old phrase, and any recovery key someone else put in the
         file, stop opening the vault.
recover  opens the vault with the recovery phrase and sets a new password
         (--new-phrase: and a new phrase, as for passwd).
check-phrase
         says whether a recovery phrase opens the vault: compares the
         phrase's recovery key with the vault's; no password. Exit 1 if not.
import   adds the accounts of another app's export SOURCE ('-': stdin). FORMAT:
         otpauth, google-migration, aegis, 2fas, andotp, freeotp-plus,
         freeotp, bitwarden, authenticator-pro, google-authenticator-db,
         watchword-backup, proton-authenticator, lastpass, ente, keepass,
         steam, winauth, raivo, or auto (the first guess that reads, named in the output). Prints a preview, one line per account: new, duplicate (the
         same secret and code as an account in the vault, or as an earlier
         entry) or same name (same issuer and account, another secret); then
         the source's warnings and the count. Duplicates are skipped unless
         --include-duplicates. An entry Watchword cannot compute (mOTP,
         Yandex, SHA384, a secret that does not decode) is listed as "cannot
         import" with the reason; with one, the import adds nothing (exit 2)
         unless --skip-unsupported, which adds the others and leaves those
         out. --dry-run stops after the preview and writes nothing. The
         accounts added are added all together, or none.
export   writes the vault's accounts (or those of --ids, in that order) to OUT
         as FORMAT: watchword-backup (encrypted, its own password; the KDF
         calibrated for --target-ms, 1000 by default), aegis-encrypted,
         aegis, otpauth, google-migration, 2fas or ente. aegis, otpauth,
         google-migration, 2fas and ente hold every secret readable by anyone
         who can read OUT: they need --plaintext, and only they may go to
         stdout (OUT '-').
         OUT is written 0600 and never replaces a file without --force; its
         contents never exist under another name, even if the command is
         killed. Accounts a format cannot hold are left out with a warning on
         stderr.

Secrets are never taken from the command line. Without --password-stdin they
are asked on the terminal with echo off (a new password twice). With
--password-stdin, standard input holds one secret per line, in this order:
  init, list, codes, note, remove:  the password
  add:      the password, then the otpauth link
  passwd:   the current password, then the new one
  recover:  the recovery phrase, then the new password
  check-phrase: the recovery phrase
  import:   the password, then the password of SOURCE if it is encrypted
            (SOURCE '-' takes stdin: the passwords are then asked on the
            terminal, and --password-stdin is refused)
  export:   the password, then the password of OUT for encrypted formats
(add - without --password-stdin reads the link from the first line of stdin.)
Passwords are normalized to Unicode NFKD; an empty password is refused. A new
password (init, passwd, recover) that is too easy to guess (the strength
estimate's lowest score: a common password, a keyboard run, a short word) is
refused; --allow-weak-password takes it anyway, for a throw-away vault only:
anyone with a copy of the file opens it by guessing. The password of an
import SOURCE or export OUT is normalized only for watchword-backup: the other
apps take theirs as typed.
--target-ms for passwd and recover defaults to the vault's stored target.
--wait S: a command that changes FILE waits up to S seconds (5 by default, 0
to 3600) while another process holds the vault's lock, then gives up; once
it has the lock it reads FILE again, so it changes what the other saved.

Labels and file names are printed with control characters and invisible
formatting characters (bidirectional overrides, zero-width spaces) escaped,
as \n, \e or \u202e: nothing printed can forge a line or command the terminal.

Exit status: 0 on success; 2 on bad arguments or input (one line on stderr,
nothing on stdout); 1 if the operation failed: the file is missing, damaged,
tampered with or not a vault, wrong password or phrase, the vault is locked
by another process or changed on disk, the disk is full, or the self-test
failed. The vault file is never changed by a command that fails. A change
that was made but whose directory could not be flushed afterwards (a power
cut in the next moments could undo it) is a success, exit 0, with a line
"watchword-cli: warning: ..." on stderr that says so. For import, a SOURCE
that cannot be read, is damaged or is not FORMAT is bad input (2); a wrong
password of SOURCE is a failure (1). export never leaves OUT half written.
)";

constexpr std::size_t maximumNoteBodySize = 1024 * 1024;

// A password, NFKD-normalized, not empty.
std::optional<SecureBuffer> readPassword(SecretSource& source, std::string_view what,
                                         std::string_view prompt, std::string& error)
{
    auto raw = source.next(what, prompt, error);
    if (!raw)
        return std::nullopt;
    if (raw->empty()) {
        error = std::string(what) + " is empty: a vault needs a password";
        return std::nullopt;
    }
    return normalizeSecretText(*raw, what, error);
}

// A new password: from stdin once, or typed twice on the terminal; refused
// if vault::newPasswordRefusal says it is too easy to guess, unless the
// command has --allow-weak-password.
std::optional<SecureBuffer> readNewPassword(SecretSource& source, const Arguments& arguments,
                                            std::string& error)
{
    auto password = readPassword(source, "the new password", "New vault password: ", error);
    if (!password)
        return std::nullopt;
    if (!source.fromStdin()) {
        auto again = readPassword(source, "the new password", "Repeat the new password: ", error);
        if (!again)
            return std::nullopt;
        if (!constantTimeEqual(password->span(), again->span())) {
            error = "the two passwords differ; nothing was changed";
            return std::nullopt;
        }
    }
    if (arguments.has("allow-weak-password"))
        return password;
    if (const auto refusal = vault::newPasswordRefusal(password->view())) {
        error = "the new password: " + *refusal +
                " Nothing was written. (--allow-weak-password takes it anyway: only for a vault "
                "that guards nothing, since a stolen copy of the file is then opened by "
                "guessing.)";
        return std::nullopt;
    }
    return password;
}

// "FILE: message", the exit status 1: the operation failed on this file.
int reportFileError(const std::string& path, const std::string& message)
{
    // Storage messages already name the file; others get it as a prefix.
    if (message.starts_with(path))
        return reportError(message, exitFailure);
    return reportError(path + ": " + message, exitFailure);
}

std::optional<std::uint32_t> parseTarget(const Arguments& arguments, std::string& error)
{
    const auto text = arguments.value("target-ms");
    if (!text)
        return std::nullopt;
    const auto value =
        parseInteger(*text, vault::minimumTargetMilliseconds, vault::maximumTargetMilliseconds);
    if (!value) {
        error =
            "--target-ms: '" + *text + "' is not a whole number of milliseconds from 1 to 60000";
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(*value);
}

std::string recordIdHex(const vault::RecordId& id)
{
    return encoding::toHex(ByteView(id.data(), id.size()));
}

QString qText(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The list order and the next sort position, as the core defines them.
using vault::nextSortPosition;
using vault::sortedRecords;

// An opened and unlocked vault, with its storage (locked when it will be
// written).
struct OpenVault
{
    vault::VaultStorage storage;
    vault::Vault vault;
};

// Either an open vault or the exit status of the failure already reported.
struct Opened
{
    std::optional<OpenVault> open;
    int status = exitOk;
};

// How long a writing command waits for another writer's lock: --wait
// SECONDS (0 to 3600; checked by runWithFile), else defaultLockWait.
constexpr std::chrono::seconds defaultLockWait{5};

std::optional<std::chrono::seconds> parseWait(const Arguments& arguments)
{
    const auto text = arguments.value("wait");
    if (!text)
        return defaultLockWait;
    const auto value = parseInteger(*text, 0, 3600);
    if (!value)
        return std::nullopt;
    return std::chrono::seconds(*value);
}

std::chrono::milliseconds lockWait(const Arguments& arguments)
{
    return parseWait(arguments).value_or(defaultLockWait);
}

// The vault at path, read; locked too (waiting up to lockFor) when given.
std::optional<vault::VaultStorage>
openStorage(const std::string& path, std::optional<std::chrono::milliseconds> lockFor, int& status)
{
    auto storage = lockFor ? vault::VaultStorage::openLocked(path, crypto::systemRandom(), *lockFor)
                           : vault::VaultStorage::open(path, crypto::systemRandom());
    if (!storage) {
        status = reportFileError(path, storage.error().message);
        return std::nullopt;
    }
    return std::move(storage).value();
}

Opened unlockWithPassword(const std::string& path, SecretSource& secrets,
                          std::optional<std::chrono::milliseconds> lockFor)
{
    Opened result;
    std::string error;
    auto password = readPassword(secrets, "the password", "Vault password: ", error);
    if (!password) {
        result.status = reportError(error);
        return result;
    }
    if (const auto failure = requireSelfTest()) {
        result.status = reportError(*failure, exitFailure);
        return result;
    }
    auto storage = openStorage(path, lockFor, result.status);
    if (!storage)
        return result;
    auto unlocked = vault::Vault::unlockWithPassword(storage->contents(), password->span());
    if (!unlocked) {
        result.status = reportFileError(path, unlocked.error().message);
        return result;
    }
    result.open.emplace(OpenVault{std::move(*storage), std::move(unlocked).value()});
    return result;
}

int save(OpenVault& open)
{
    auto bytes = open.vault.serialize(crypto::systemRandom(), currentUnixSeconds());
    if (!bytes)
        return reportFileError(open.storage.path(), bytes.error().message);
    if (auto saved = open.storage.save(*bytes); !saved)
        return reportFileError(open.storage.path(), saved.error().message);
    // The change is made: what could not be done after it is a warning.
    if (!open.storage.warning().empty())
        reportError("warning: " + open.storage.warning(), exitOk);
    return exitOk;
}

// A vault subcommand: its options, how many positional arguments it takes
// (FILE first) and their names for the error message, and what runs it.
struct VaultSubcommand
{
    std::string_view name;
    std::vector<OptionSpec> options;
    std::size_t positionals; // at most, FILE included
    std::string_view positionalNames;
    int (*run)(const Arguments& arguments, const std::string& path);
    std::size_t fewestPositionals = 0; // at least; 0: exactly positionals
};

// Parses args for subcommand and runs it on FILE.
int runWithFile(const VaultSubcommand& subcommand, const std::vector<std::string>& args)
{
    auto arguments = Arguments::parse(args, subcommand.options);
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli vault --help)");
    const std::string name(subcommand.name);
    const std::size_t count = arguments.positionals().size();
    const std::size_t fewest =
        subcommand.fewestPositionals != 0 ? subcommand.fewestPositionals : subcommand.positionals;
    if (count < fewest || count > subcommand.positionals)
        return reportError("vault " + name + " takes " + std::string(subcommand.positionalNames) +
                           ", got " + std::to_string(arguments.positionals().size()) +
                           (arguments.positionals().size() == 1 ? " argument" : " arguments"));
    if (arguments.positionals().front().empty())
        return reportError("vault " + name + ": FILE is empty");
    if (!parseWait(arguments))
        return reportError("--wait: '" + *arguments.value("wait") +
                           "' is not a whole number of seconds from 0 to 3600");
    return subcommand.run(arguments, arguments.positionals().front());
}

// A new recovery phrase, shown once, with the fingerprint to keep beside it.
void printRecoveryPhrase(const keychain::Keychain& keychain)
{
    std::fputs("recovery phrase: ", stdout);
    printLine(keychain.mnemonic().view());
    printLine("recovery key fingerprint: " + vault::recoveryKeyFingerprint(keychain));
    printLine("Write the recovery phrase down now, with the fingerprint, and keep it offline: it "
              "is shown only this once, and it opens the vault (vault recover) without the "
              "password. vault info shows the vault's recovery key fingerprint: if it ever "
              "differs from this one, the phrase no longer opens the vault.");
}

// --words: 12 or 24 (the default).
std::optional<std::size_t> parseWordCount(const Arguments& arguments, std::string& error)
{
    const auto text = arguments.value("words");
    if (!text)
        return keychain::Keychain::defaultWordCount;
    const auto value = parseInteger(*text, 0, 1000);
    if (!value || (*value != 12 && *value != 24)) {
        error = "--words: '" + *text + "' is not 12 or 24";
        return std::nullopt;
    }
    return static_cast<std::size_t>(*value);
}

int runInit(const Arguments& arguments, const std::string& path)
{
    std::string error;
    const auto target = parseTarget(arguments, error);
    if (!error.empty())
        return reportError(error);
    const auto words = parseWordCount(arguments, error);
    if (!words)
        return reportError(error);
    // Checked again atomically when the file is written; here so that nobody
    // types a password twice for nothing.
    struct stat existing
    {};
    if (::lstat(path.c_str(), &existing) == 0)
        return reportFileError(path, "a file already exists there; vault init never replaces one");

    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    auto password = readNewPassword(*secrets, arguments, error);
    if (!password)
        return reportError(error);

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    const auto calibration =
        vault::calibratePasswordKdf(target.value_or(vault::defaultTargetMilliseconds));
    if (!calibration)
        return reportError(calibration.error().message, exitFailure);
    auto keychain = keychain::Keychain::create(crypto::systemRandom(), *words);
    if (!keychain)
        return reportError(keychain.error().message, exitFailure);
    const std::int64_t now = currentUnixSeconds();
    auto created = vault::Vault::create(password->span(), *keychain, *calibration,
                                        crypto::systemRandom(), now);
    if (!created)
        return reportFileError(path, created.error().message);
    auto bytes = created->serialize(crypto::systemRandom(), now);
    if (!bytes)
        return reportFileError(path, bytes.error().message);
    auto storage = vault::VaultStorage::create(path, *bytes, crypto::systemRandom());
    if (!storage)
        return reportFileError(path, storage.error().message);
    if (!storage->warning().empty())
        reportError("warning: " + storage->warning(), exitOk);

    printRecoveryPhrase(*keychain);
    printLine("password KDF: PBKDF2-HMAC-SHA256, " + std::to_string(calibration->iterations) +
              " iterations (target " + std::to_string(calibration->targetMilliseconds) +
              " ms, measured rate " + std::to_string(calibration->iterationsPerSecond) +
              " iterations/s)");
    printLine("created " + path);
    return exitOk;
}

int runInfo(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    auto storage = openStorage(path, std::nullopt, status);
    if (!storage)
        return status;
    const auto info = vault::decodeHeader(storage->contents());
    if (!info)
        return reportFileError(path, info.error().message);
    const auto& slot = info->passwordSlot;
    const std::string vaultId =
        encoding::toHex(ByteView(info->vaultId.data(), info->vaultId.size()));
    const std::string recoveryKey = info->recoveryPublicKey
                                        ? encoding::toHex(ByteView(info->recoveryPublicKey->data(),
                                                                   info->recoveryPublicKey->size()))
                                        : std::string();
    const std::string fingerprint = vault::recoveryKeyFingerprint(*info);
    if (arguments.has("json")) {
        QJsonObject json{
            {"format_version", info->version},
            {"vault_id", qText(vaultId)},
            {"generation", static_cast<qint64>(info->generation)},
            {"created", static_cast<qint64>(info->created)},
            {"modified", static_cast<qint64>(info->modified)},
            {"records", static_cast<qint64>(info->recordCount)},
            {"kdf", "PBKDF2-HMAC-SHA256"},
            {"iterations", static_cast<qint64>(slot.iterations)},
            {"target_ms", static_cast<qint64>(slot.targetMilliseconds)},
            {"measured_iterations_per_second", static_cast<qint64>(slot.iterationsPerSecond)},
            {"recovery_slot", info->recoveryPublicKey.has_value()}};
        if (info->recoveryPublicKey) {
            json.insert("recovery_public_key", qText(recoveryKey));
            json.insert("recovery_key_fingerprint", qText(fingerprint));
        }
        printJson(json);
        return exitOk;
    }
    printLine("format version: " + std::to_string(info->version));
    printLine("vault id: " + vaultId);
    printLine("generation: " + std::to_string(info->generation));
    printLine("created: " + std::to_string(info->created));
    printLine("modified: " + std::to_string(info->modified));
    printLine("records: " + std::to_string(info->recordCount));
    printLine("kdf: PBKDF2-HMAC-SHA256");
    printLine("iterations: " + std::to_string(slot.iterations));
    printLine("calibration: target " + std::to_string(slot.targetMilliseconds) +
              " ms, measured rate " + std::to_string(slot.iterationsPerSecond) + " iterations/s");
    printLine("recovery slot: " + (info->recoveryPublicKey
                                       ? "yes, identity public key " + recoveryKey
                                       : std::string("no")));
    if (info->recoveryPublicKey)
        printLine("recovery key fingerprint: " + fingerprint +
                  " (must match the one written with the phrase; vault check-phrase compares)");
    return exitOk;
}

int runAdd(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    const auto& positionals = arguments.positionals();
    if (positionals.size() == 2 && positionals[1] != "-")
        return reportError(
            "vault add takes no link on the command line: a link holds the account's secret, "
            "and every user of this computer can read a command line (ps, /proc/PID/cmdline) "
            "while it runs. Leave it out to paste it at a hidden prompt, or give '-' and pipe "
            "it in on standard input");
    const bool passwordFromStdin = arguments.has("password-stdin");
    const bool uriFromStdin = passwordFromStdin || positionals.size() == 2;
    std::string error;

    // With --password-stdin: the password, then the link. With '-' alone:
    // the link is stdin's line and the password is asked on the terminal.
    // Neither: both asked on the terminal, echo off.
    SecureBuffer uriText;
    std::optional<SecretSource> secrets;
    if (passwordFromStdin) {
        secrets = SecretSource::make(true, 2, error);
        if (!secrets)
            return reportError(error);
    } else {
        secrets = SecretSource::make(false, 0, error);
        if (uriFromStdin) {
            auto input = readStdinLines(1);
            if (!input.error.empty())
                return reportError(input.error);
            if (input.lines.empty())
                return reportError("standard input is empty: expected an otpauth link");
            uriText = std::move(input.lines.front());
        }
    }
    auto password = readPassword(*secrets, "the password", "Vault password: ", error);
    if (!password)
        return reportError(error);
    if (passwordFromStdin || !uriFromStdin) {
        auto line = secrets->next("the otpauth link", "otpauth link (not shown): ", error);
        if (!line)
            return reportError(error);
        uriText = std::move(*line);
    }
    auto parsed = otp::parseOtpauthUri(uriText.view());
    if (!parsed)
        return reportError(parsed.error().message);

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto storage = openStorage(path, lockWait(arguments), status);
    if (!storage)
        return status;
    auto unlocked = vault::Vault::unlockWithPassword(storage->contents(), password->span());
    if (!unlocked)
        return reportFileError(path, unlocked.error().message);
    OpenVault open{std::move(*storage), std::move(unlocked).value()};

    const std::int64_t now = currentUnixSeconds();
    vault::OtpAccount account;
    account.issuer = parsed->issuer();
    account.accountName = parsed->account;
    // A logo URL some services put in the URI: kept as text, never fetched.
    account.iconReference = parsed->image.value_or(std::string());
    account.secret = std::move(parsed->secret);
    account.parameters = parsed->parameters;
    account.created = now;
    account.modified = now;
    account.sortPosition = nextSortPosition(open.vault);
    auto id = open.vault.add(std::move(account), crypto::systemRandom());
    if (!id)
        return reportError(id.error().message);
    if (const int saved = save(open); saved != exitOk)
        return saved;
    printLine(recordIdHex(*id));
    return exitOk;
}

int runNote(const Arguments& arguments, const std::string& path)
{
    const auto title = arguments.value("title");
    const auto bodyFile = arguments.value("body-file");
    if (!title || title->empty())
        return reportError("vault note needs a non-empty --title");
    if (!bodyFile)
        return reportError("vault note needs --body-file F: the body is never taken from the "
                           "command line");
    if (*bodyFile == "-" && arguments.has("password-stdin"))
        return reportError("--body-file - takes standard input, so the password cannot come "
                           "from it too: leave out --password-stdin and type it at the prompt");
    std::string error;
    auto body = readInputFile(*bodyFile, maximumNoteBodySize, error);
    if (!body)
        return reportError("--body-file: " + error);
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);

    // Checked before the password is asked: validation needs no key.
    const std::int64_t now = currentUnixSeconds();
    vault::SecureNote note;
    note.title = *title;
    note.body = std::move(*body);
    note.created = now;
    note.modified = now;
    if (auto valid = vault::validateRecord(vault::Record(note.clone())); !valid)
        return reportError(valid.error().message);

    auto opened = unlockWithPassword(path, *secrets, lockWait(arguments));
    if (!opened.open)
        return opened.status;
    note.sortPosition = nextSortPosition(opened.open->vault);
    auto id = opened.open->vault.add(std::move(note), crypto::systemRandom());
    if (!id)
        return reportError(id.error().message);
    if (const int saved = save(*opened.open); saved != exitOk)
        return saved;
    printLine(recordIdHex(*id));
    return exitOk;
}

QJsonArray tagsJson(const std::vector<std::string>& tags)
{
    QJsonArray array;
    for (const auto& tag : tags)
        array.append(qText(tag));
    return array;
}

std::string tagsText(const std::vector<std::string>& tags)
{
    std::string text;
    for (const auto& tag : tags)
        text += (text.empty() ? "  [" : ", ") + tag;
    return text.empty() ? text : text + "]";
}

// "ACME:alice"; "ACME" or "alice" when the other is empty.
std::string labelOf(const std::string& issuer, const std::string& accountName)
{
    if (issuer.empty() || accountName.empty())
        return issuer.empty() ? accountName : issuer;
    return issuer + ":" + accountName;
}

std::string accountLabel(const vault::OtpAccount& account)
{
    return labelOf(account.issuer, account.accountName);
}

int runList(const Arguments& arguments, const std::string& path)
{
    std::string error;
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    auto opened = unlockWithPassword(path, *secrets, std::nullopt);
    if (!opened.open)
        return opened.status;
    const bool json = arguments.has("json");
    QJsonArray records;
    for (const auto* record : sortedRecords(opened.open->vault)) {
        const std::string id = recordIdHex(vault::idOf(*record));
        if (const auto* account = std::get_if<vault::OtpAccount>(record)) {
            if (json) {
                records.append(QJsonObject{{"id", qText(id)},
                                           {"kind", "account"},
                                           {"type", qText(otp::kindName(account->parameters.kind))},
                                           {"issuer", qText(account->issuer)},
                                           {"account", qText(account->accountName)},
                                           {"tags", tagsJson(account->tags)}});
            } else {
                printLine(id + "  account  " + accountLabel(*account) + tagsText(account->tags));
            }
        } else {
            const auto& note = std::get<vault::SecureNote>(*record);
            if (json) {
                records.append(QJsonObject{{"id", qText(id)},
                                           {"kind", "note"},
                                           {"title", qText(note.title)},
                                           {"tags", tagsJson(note.tags)}});
            } else {
                printLine(id + "  note     " + note.title + tagsText(note.tags));
            }
        }
    }
    if (json)
        printJson(QJsonObject{{"records", records}});
    return exitOk;
}

int runCodes(const Arguments& arguments, const std::string& path)
{
    std::optional<std::int64_t> at;
    if (const auto text = arguments.value("at")) {
        const auto value = parseInteger(*text, 0, std::numeric_limits<std::int64_t>::max());
        if (!value)
            return reportError("--at: '" + *text +
                               "' is not a whole number of seconds since 1970 (>= 0)");
        at = *value;
    }
    std::string error;
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    auto opened = unlockWithPassword(path, *secrets, std::nullopt);
    if (!opened.open)
        return opened.status;
    const std::int64_t now = at ? *at : currentUnixSeconds();
    const bool json = arguments.has("json");
    QJsonArray codes;
    for (const auto* record : sortedRecords(opened.open->vault)) {
        const auto* account = std::get_if<vault::OtpAccount>(record);
        if (!account)
            continue;
        const std::string id = recordIdHex(account->id);
        const auto& parameters = account->parameters;
        auto generator = otp::OtpGenerator::create(parameters, account->secret);
        if (!generator)
            return reportFileError(opened.open->storage.path(),
                                   "record " + id + ": " + generator.error().message);
        std::string code;
        if (parameters.isTimeBased()) {
            auto result = generator->codeForTime(now);
            if (!result)
                return reportError(result.error().message);
            code = std::move(result).value();
        } else {
            code = generator->codeForCounter(parameters.counter);
        }
        if (json) {
            QJsonObject entry{{"id", qText(id)},
                              {"issuer", qText(account->issuer)},
                              {"account", qText(account->accountName)},
                              {"type", qText(otp::kindName(parameters.kind))},
                              {"code", qText(code)}};
            if (parameters.isTimeBased()) {
                entry.insert("period", static_cast<qint64>(parameters.period));
                entry.insert("seconds_remaining",
                             static_cast<qint64>(generator->secondsRemaining(now)));
            } else if (parameters.counter <= (std::uint64_t{1} << 53)) {
                entry.insert("counter", static_cast<qint64>(parameters.counter));
            } else {
                entry.insert("counter", QString::number(parameters.counter));
            }
            codes.append(entry);
        } else {
            const std::string remaining =
                parameters.isTimeBased() ? std::to_string(generator->secondsRemaining(now)) + "s"
                                         : "counter " + std::to_string(parameters.counter);
            printLine(id + "  " + code + "  " + remaining + "  " + accountLabel(*account));
        }
    }
    if (json)
        printJson(QJsonObject{{"time", static_cast<qint64>(now)}, {"codes", codes}});
    return exitOk;
}

int runRemove(const Arguments& arguments, const std::string& path)
{
    const std::string& idText = arguments.positionals()[1];
    const auto parsed = parseRecordId(idText);
    if (!parsed)
        return reportError("ID: '" + idText +
                           "' is not a record id (32 hex digits, as vault list "
                           "prints them)");
    const vault::RecordId id = *parsed;
    std::string error;
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    auto opened = unlockWithPassword(path, *secrets, lockWait(arguments));
    if (!opened.open)
        return opened.status;
    if (auto removed = opened.open->vault.remove(id); !removed)
        return reportFileError(opened.open->storage.path(), removed.error().message);
    if (const int saved = save(*opened.open); saved != exitOk)
        return saved;
    printLine("removed " + recordIdHex(id));
    return exitOk;
}

// Sets a new password (calibrated for target, else the stored target) and,
// with --new-phrase, a new recovery phrase; saves.
int changePasswordAndSave(OpenVault& open, SecretSource& secrets, const Arguments& arguments,
                          std::optional<std::uint32_t> target)
{
    std::string error;
    const bool newPhrase = arguments.has("new-phrase");
    const auto words = parseWordCount(arguments, error);
    if (!words)
        return reportError(error);
    if (arguments.has("words") && !newPhrase)
        return reportError("--words goes with --new-phrase");
    auto password = readNewPassword(secrets, arguments, error);
    if (!password)
        return reportError(error);
    std::optional<keychain::Keychain> keychain;
    if (newPhrase) {
        auto made = keychain::Keychain::create(crypto::systemRandom(), *words);
        if (!made)
            return reportError(made.error().message, exitFailure);
        if (auto replaced = open.vault.replaceRecoveryKey(*made, crypto::systemRandom()); !replaced)
            return reportFileError(open.storage.path(), replaced.error().message);
        keychain.emplace(std::move(*made));
    }
    const auto calibration =
        vault::calibratePasswordKdf(target.value_or(open.vault.passwordSlot().targetMilliseconds));
    if (!calibration)
        return reportError(calibration.error().message, exitFailure);
    if (auto changed =
            open.vault.changePassword(password->span(), *calibration, crypto::systemRandom());
        !changed)
        return reportFileError(open.storage.path(), changed.error().message);
    if (const int saved = save(open); saved != exitOk)
        return saved;
    std::string changed = "password changed: PBKDF2-HMAC-SHA256, " +
                          std::to_string(calibration->iterations) + " iterations (target " +
                          std::to_string(calibration->targetMilliseconds) + " ms, measured rate " +
                          std::to_string(calibration->iterationsPerSecond) + " iterations/s)";
    if (keychain) {
        printLine(changed);
        printRecoveryPhrase(*keychain);
        printLine("The old recovery phrase no longer opens this vault.");
        return exitOk;
    }
    // The new master key is wrapped to the recovery key the file holds:
    // said, so that a key someone put there in place of the owner's shows.
    const auto header = vault::decodeHeader(open.storage.contents());
    if (header && header->recoveryPublicKey)
        changed += "; recovery key fingerprint " + vault::recoveryKeyFingerprint(*header) +
                   " (the phrase that opens the vault; if it is not the one written with yours, "
                   "use --new-phrase)";
    printLine(changed);
    return exitOk;
}

// The recovery phrase (stdin or a hidden prompt), checked and derived after
// the self-test; nullopt with the failure reported into status.
std::optional<keychain::Keychain> readRecoveryPhrase(SecretSource& secrets, int& status)
{
    std::string error;
    auto phrase = secrets.next("the recovery phrase", "Recovery phrase: ", error);
    if (!phrase) {
        status = reportError(error);
        return std::nullopt;
    }
    if (phrase->empty()) {
        status = reportError("the recovery phrase is empty");
        return std::nullopt;
    }
    if (const auto failure = requireSelfTest()) {
        status = reportError(*failure, exitFailure);
        return std::nullopt;
    }
    auto keychain = keychain::Keychain::restore(phrase->view());
    if (!keychain) {
        status = reportError("the recovery phrase: " + keychain.error().message);
        return std::nullopt;
    }
    return std::move(keychain).value();
}

int runCheckPhrase(const Arguments& arguments, const std::string& path)
{
    std::string error;
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    int status = exitOk;
    auto keychain = readRecoveryPhrase(*secrets, status);
    if (!keychain)
        return status;
    auto storage = openStorage(path, std::nullopt, status);
    if (!storage)
        return status;
    const auto header = vault::decodeHeader(storage->contents());
    if (!header)
        return reportFileError(path, header.error().message);
    if (!header->recoveryPublicKey)
        return reportFileError(path, "this vault has no recovery slot");
    if (!vault::isRecoveryKeyOf(*header, *keychain))
        return reportFileError(
            path, "the recovery phrase does not open this vault: the vault's recovery key is " +
                      vault::recoveryKeyFingerprint(*header) + ", the phrase's is " +
                      vault::recoveryKeyFingerprint(*keychain) +
                      ". If this is the phrase you wrote down for this vault, someone who had "
                      "the password replaced its recovery key: make a new phrase now (vault "
                      "passwd FILE --new-phrase)");
    printLine("the recovery phrase opens this vault: recovery key fingerprint " +
              vault::recoveryKeyFingerprint(*header));
    return exitOk;
}

int runPasswd(const Arguments& arguments, const std::string& path)
{
    std::string error;
    const auto target = parseTarget(arguments, error);
    if (!error.empty())
        return reportError(error);
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 2, error);
    if (!secrets)
        return reportError(error);
    auto opened = unlockWithPassword(path, *secrets, lockWait(arguments));
    if (!opened.open)
        return opened.status;
    return changePasswordAndSave(*opened.open, *secrets, arguments, target);
}

int runRecover(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    std::string error;
    const auto target = parseTarget(arguments, error);
    if (!error.empty())
        return reportError(error);
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 2, error);
    if (!secrets)
        return reportError(error);
    auto keychain = readRecoveryPhrase(*secrets, status);
    if (!keychain)
        return status;
    auto storage = openStorage(path, lockWait(arguments), status);
    if (!storage)
        return status;
    auto unlocked = vault::Vault::unlockWithRecovery(storage->contents(), *keychain);
    if (!unlocked)
        return reportFileError(path, unlocked.error().message);
    OpenVault open{std::move(*storage), std::move(unlocked).value()};
    return changePasswordAndSave(open, *secrets, arguments, target);
}

// ---- import, export --------------------------------------------------------

// "otpauth, google-migration, ..., watchword-backup, or auto" (withAuto) or
// "otpauth, ..., authenticator-pro, google-authenticator-db or
// watchword-backup".
std::string formatNames(bool withAuto = true)
{
    std::string names;
    for (std::size_t i = 0; i < importers::allFormats.size(); ++i) {
        if (i > 0)
            names += withAuto || i + 1 < importers::allFormats.size() ? ", " : " or ";
        names += importers::formatName(importers::allFormats[i]);
    }
    return withAuto ? names + ", or auto" : names;
}

std::string exportFormatNames()
{
    std::string names;
    for (const auto format : exporters::allExportFormats) {
        if (!names.empty())
            names += format == exporters::allExportFormats.back() ? " or " : ", ";
        names += exporters::exportFormatName(format);
    }
    return names;
}

std::string countText(std::size_t count, std::string_view one, std::string_view many)
{
    return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

// "ACME:alice", as vault list shows an account.
std::string importedLabel(const importers::ImportedAccount& account)
{
    return labelOf(account.issuer, account.accountName);
}

// The source read as format: its password asked (once) only if the source
// is encrypted. A wrong password is reported, exit 1; anything else about
// the source is bad input, exit 2. Either way the status is in status.
std::optional<importers::Imported> importSource(importers::Format format, ByteView data,
                                                const std::string& sourceName,
                                                const importers::CompanionFiles& companions,
                                                SecretSource& secrets,
                                                std::optional<SecureBuffer>& sourcePassword,
                                                std::optional<Error<importers::ImportError>>& error)
{
    std::optional<ByteView> password;
    if (importers::isEncrypted(format, data)) {
        if (!sourcePassword) {
            std::string message;
            auto typed =
                secrets.next("the password of SOURCE", "Password of " + sourceName + ": ", message);
            if (!typed) {
                error = Error<importers::ImportError>{importers::ImportError::PasswordRequired,
                                                      message};
                return std::nullopt;
            }
            sourcePassword = std::move(*typed);
        }
        password = sourcePassword->span();
    }
    // A Watchword backup's password is NFKD text, as the vault's (FORMAT.md
    // section 10); other apps' files take the password as typed, since their
    // apps do not normalize it.
    std::optional<SecureBuffer> normalized;
    if (password && format == importers::Format::WatchwordBackup) {
        std::string message;
        normalized = normalizeSecretText(*sourcePassword, "the password of SOURCE", message);
        if (!normalized) {
            error = Error<importers::ImportError>{importers::ImportError::WrongPassword, message};
            return std::nullopt;
        }
        password = normalized->span();
    }
    // Entries that cannot be imported are listed, not fatal here: runImport
    // shows them and refuses unless --skip-unsupported.
    auto imported = importers::importAccounts(format, data, password,
                                              importers::UnreadableEntries::Skip, companions);
    if (!imported) {
        error = imported.error();
        return std::nullopt;
    }
    return std::move(imported).value();
}

int runImport(const Arguments& arguments, const std::string& path)
{
    const std::string& source = arguments.positionals()[1];
    if (source.empty())
        return reportError("vault import: SOURCE is empty");
    const auto formatText = arguments.value("from");
    if (!formatText)
        return reportError("vault import needs --from FORMAT: " + formatNames());
    const bool automatic = *formatText == "auto";
    const auto named = importers::formatNamed(*formatText);
    if (!automatic && !named)
        return reportError("--from: '" + *formatText + "' is not a format; expected " +
                           formatNames());
    const bool sourceFromStdin = source == "-";
    const bool passwordFromStdin = arguments.has("password-stdin");
    if (sourceFromStdin && passwordFromStdin)
        return reportError("SOURCE '-' takes standard input, so the passwords cannot come from "
                           "it too: leave out --password-stdin and type them at the prompts");
    const bool dryRun = arguments.has("dry-run");

    std::string error;
    auto data = readInputFile(source, importers::maximumImportBytes, error);
    if (!data)
        return reportError("SOURCE: " + error);
    auto secrets = SecretSource::make(passwordFromStdin, 2, error);
    if (!secrets)
        return reportError(error);
    auto password = readPassword(*secrets, "the password", "Vault password: ", error);
    if (!password)
        return reportError(error);
    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);

    // The source first: a file that does not read costs no vault unlock.
    const std::string sourceName = sourceFromStdin ? "standard input" : source;
    std::vector<importers::Format> candidates;
    if (automatic)
        candidates = importers::guessFormats(data->span());
    else
        candidates.push_back(*named);
    if (candidates.empty())
        return reportError(sourceName + ": not a format this version reads (" +
                           std::string(importers::describeUnrecognised(data->span())) +
                           "); it is none of " + formatNames(false) +
                           " (if it is one, name it with --from)");
    // A Steam Desktop Authenticator manifest.json reads the .maFiles beside it.
    const importers::CompanionFiles companions =
        sourceFromStdin ? importers::CompanionFiles() : importers::companionFilesBeside(source);
    std::optional<SecureBuffer> sourcePassword;
    std::optional<importers::Imported> imported;
    std::optional<Error<importers::ImportError>> firstError;
    for (const auto format : candidates) {
        std::optional<Error<importers::ImportError>> failure;
        imported = importSource(format, data->span(), sourceName, companions, *secrets,
                                sourcePassword, failure);
        if (imported)
            break;
        // A password that does not open the file ends the guessing: the
        // format is right, the password is not.
        if (failure->code == importers::ImportError::WrongPassword ||
            failure->code == importers::ImportError::PasswordRequired) {
            firstError = failure;
            break;
        }
        if (!firstError)
            firstError = failure;
    }
    if (!imported) {
        const bool wrongPassword = firstError->code == importers::ImportError::WrongPassword;
        return reportError(sourceName + ": " + firstError->message,
                           wrongPassword ? exitFailure : exitUsage);
    }

    int status = exitOk;
    auto storage =
        openStorage(path, dryRun ? std::nullopt : std::optional(lockWait(arguments)), status);
    if (!storage)
        return status;
    auto unlocked = vault::Vault::unlockWithPassword(storage->contents(), password->span());
    if (!unlocked)
        return reportFileError(path, unlocked.error().message);
    OpenVault open{std::move(*storage), std::move(unlocked).value()};

    const auto plan = importers::planImport(*imported, open.vault);
    std::vector<std::size_t> chosen;
    if (arguments.has("include-duplicates"))
        for (std::size_t i = 0; i < plan.size(); ++i)
            chosen.push_back(i);
    else
        chosen = importers::defaultChoice(plan);

    // One line at a time: each label passes printLine's escaping on its own,
    // so a name holding a line break cannot forge a line of the preview.
    printLine("source: " + std::string(importers::formatTitle(imported->format)) + " (" +
              std::string(importers::formatName(imported->format)) + ")");
    for (const auto& row : plan) {
        const auto& account = imported->accounts[row.index];
        std::string line;
        switch (row.match) {
        case importers::ImportMatch::New:
            line = "new        ";
            break;
        case importers::ImportMatch::Duplicate:
            line = "duplicate  ";
            break;
        case importers::ImportMatch::SameName:
            line = "same name  ";
            break;
        }
        line += importedLabel(account);
        if (row.earlierEntry)
            line += "  (duplicate of entry " + std::to_string(*row.earlierEntry + 1) + ")";
        else if (row.existing && row.match == importers::ImportMatch::Duplicate)
            line += "  (already in the vault: " + recordIdHex(*row.existing) + ")";
        else if (row.existing)
            line += "  (beside " + recordIdHex(*row.existing) + ")";
        printLine(line);
    }
    for (const auto& entry : imported->skipped)
        printLine("cannot import  " + entry.reason);
    for (const auto& warning : imported->warnings)
        printLine("warning: " + warning);
    const std::size_t skipped = plan.size() - chosen.size();
    std::string counts = countText(chosen.size(), "account", "accounts") + " to add, " +
                         countText(skipped, "duplicate", "duplicates") + " skipped";
    if (!imported->skipped.empty())
        counts += ", " + countText(imported->skipped.size(), "entry", "entries") +
                  " that cannot be imported";
    printLine(counts);
    const bool skipUnsupported = arguments.has("skip-unsupported");
    if (dryRun) {
        if (!imported->skipped.empty() && !skipUnsupported)
            printLine("(an import adds these only with --skip-unsupported)");
        printLine("dry run: " + path + " was not changed");
        return exitOk;
    }
    if (!imported->skipped.empty() && !skipUnsupported)
        return reportError(sourceName + ": " +
                               countText(imported->skipped.size(), "entry", "entries") +
                               " cannot be imported (listed above), so nothing was added; "
                               "--skip-unsupported adds the rest (" +
                               countText(chosen.size(), "account", "accounts") + ")",
                           exitUsage);
    if (chosen.empty()) {
        printLine("nothing to add: " + path + " was not changed");
        return exitOk;
    }
    auto added = importers::addImported(open.vault, *imported, chosen, crypto::systemRandom(),
                                        currentUnixSeconds());
    if (!added)
        return reportError(sourceName + ": " + added.error().message);
    if (const int saved = save(open); saved != exitOk)
        return saved;
    printLine("added " + countText(added->size(), "account", "accounts") + " to " + path);
    return exitOk;
}

// The password of OUT: from stdin once, or typed twice on the terminal. A
// Watchword backup's is NFKD text, as the vault's (FORMAT.md section 10);
// Aegis takes the password as typed, so it is left as it is.
std::optional<SecureBuffer> readFilePassword(SecretSource& source, const std::string& out,
                                             bool normalize, std::string& error)
{
    const auto read = [&](std::string_view prompt) -> std::optional<SecureBuffer> {
        auto typed = source.next("the password of OUT", prompt, error);
        if (!typed)
            return std::nullopt;
        if (typed->empty()) {
            error = "the password of OUT is empty: an encrypted export needs a password";
            return std::nullopt;
        }
        if (!normalize)
            return typed;
        return normalizeSecretText(*typed, "the password of OUT", error);
    };
    auto password = read("New password of " + out + ": ");
    if (!password || source.fromStdin())
        return password;
    auto again = read("Repeat the password of " + out + ": ");
    if (!again)
        return std::nullopt;
    if (!constantTimeEqual(password->span(), again->span())) {
        error = "the two passwords differ; nothing was written";
        return std::nullopt;
    }
    return password;
}

int runExport(const Arguments& arguments, const std::string& path)
{
    const std::string& out = arguments.positionals()[1];
    if (out.empty())
        return reportError("vault export: OUT is empty");
    const auto formatText = arguments.value("to");
    if (!formatText)
        return reportError("vault export needs --to FORMAT: " + exportFormatNames());
    const auto format = exporters::exportFormatNamed(*formatText);
    if (!format)
        return reportError("--to: '" + *formatText + "' is not a format; expected " +
                           exportFormatNames());
    const bool plaintext = exporters::exportIsPlaintext(*format);
    if (plaintext && !arguments.has("plaintext"))
        return reportError(std::string(exporters::exportFormatName(*format)) +
                           " writes every secret in clear: anyone who can read OUT can make "
                           "your codes. Add --plaintext to write it anyway");
    if (!plaintext && arguments.has("plaintext"))
        return reportError("--plaintext: " + std::string(exporters::exportFormatName(*format)) +
                           " is encrypted, nothing to allow");
    const bool toStdout = out == "-";
    if (toStdout && !plaintext)
        return reportError("OUT '-' (standard output) is only for the plaintext formats");
    if (toStdout && arguments.has("force"))
        return reportError("--force: OUT '-' replaces no file");
    std::string error;
    const auto target = parseTarget(arguments, error);
    if (!error.empty())
        return reportError(error);
    if (target && *format != exporters::ExportFormat::WatchwordBackup)
        return reportError("--target-ms: only watchword-backup has a calibrated password KDF");
    std::vector<vault::RecordId> ids;
    if (const auto list = arguments.value("ids")) {
        std::size_t start = 0;
        while (start <= list->size()) {
            const auto comma = list->find(',', start);
            const std::string item =
                list->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            const auto id = parseRecordId(item);
            if (!id)
                return reportError("--ids: '" + item +
                                   "' is not a record id (32 hex digits, as vault list prints "
                                   "them)");
            if (std::find(ids.begin(), ids.end(), *id) != ids.end())
                return reportError("--ids: " + item + " is given more than once");
            ids.push_back(*id);
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
    }
    const bool replace = arguments.has("force");
    // Checked again atomically when the file is written; here so that nobody
    // types passwords for nothing.
    struct stat existing
    {};
    if (!toStdout && !replace && ::lstat(out.c_str(), &existing) == 0)
        return reportFileError(out, "a file already exists there; add --force to replace it");

    const bool needsPassword = exporters::exportNeedsPassword(*format);
    auto secrets =
        SecretSource::make(arguments.has("password-stdin"), needsPassword ? 2 : 1, error);
    if (!secrets)
        return reportError(error);
    auto opened = unlockWithPassword(path, *secrets, std::nullopt);
    if (!opened.open)
        return opened.status;
    const vault::Vault& vault = opened.open->vault;

    std::vector<vault::OtpAccount> accounts;
    if (ids.empty()) {
        for (const auto* record : sortedRecords(vault))
            if (const auto* account = std::get_if<vault::OtpAccount>(record))
                accounts.push_back(account->clone());
    } else {
        for (const auto& id : ids) {
            const auto* account = std::get_if<vault::OtpAccount>(vault.find(id));
            if (account == nullptr)
                return reportFileError(path, "no account with id " + recordIdHex(id));
            accounts.push_back(account->clone());
        }
    }
    if (accounts.empty())
        return reportFileError(path, "the vault holds no accounts to export");

    exporters::ExportOptions options;
    std::optional<SecureBuffer> filePassword;
    if (needsPassword) {
        filePassword = readFilePassword(*secrets, out,
                                        *format == exporters::ExportFormat::WatchwordBackup, error);
        if (!filePassword)
            return reportError(error);
        options.password = filePassword->span();
    }
    if (*format == exporters::ExportFormat::WatchwordBackup) {
        const auto calibration =
            vault::calibratePasswordKdf(target.value_or(vault::defaultTargetMilliseconds));
        if (!calibration)
            return reportError(calibration.error().message, exitFailure);
        options.backupIterations =
            std::max(calibration->iterations, vault::minimumPasswordIterations);
    }
    options.now = currentUnixSeconds();
    auto exported = exporters::exportAccounts(*format, accounts, options, crypto::systemRandom());
    if (!exported)
        return reportFileError(out, exported.error().message);
    for (const auto& warning : exported->warnings)
        reportError("warning: " + warning, exitOk);
    if (toStdout) {
        std::fwrite(exported->data.data(), 1, exported->data.size(), stdout);
        return exitOk;
    }
    const auto saved = writeFileAtomically(out, exported->data.view(), 0600,
                                           replace ? IfExists::Replace : IfExists::Refuse);
    if (!saved)
        return reportFileError(out, saved.error());
    if (!saved->notDurable.empty())
        reportError("warning: " + saved->notDurable, exitOk);
    const std::size_t warnings = exported->warnings.size();
    const std::string written =
        out + " (" + std::string(exporters::exportFormatName(*format)) + ")";
    if (warnings == 0)
        printLine("exported " + countText(accounts.size(), "account", "accounts") + " to " +
                  written);
    else
        printLine("exported to " + written + " from " +
                  countText(accounts.size(), "account", "accounts") + ", with " +
                  countText(warnings, "warning", "warnings") +
                  " on stderr (accounts changed or left out)");
    return exitOk;
}

} // namespace

int runVault(const std::vector<std::string>& args)
{
    // passwd and recover: both set a new password (and maybe a new phrase).
    static const std::vector<OptionSpec> newPasswordOptions = {
        {"target-ms", true}, {"password-stdin"}, {"allow-weak-password"},
        {"new-phrase"},      {"words", true},    {"wait", true}};
    static const VaultSubcommand subcommands[] = {
        {"init",
         {{"target-ms", true}, {"words", true}, {"password-stdin"}, {"allow-weak-password"}},
         1,
         "FILE",
         runInit},
        {"info", {{"json"}}, 1, "FILE", runInfo},
        {"add",
         {{"password-stdin"}, {"wait", true}},
         2,
         "FILE (and - for a link on standard input)",
         runAdd,
         1},
        {"note",
         {{"title", true}, {"body-file", true}, {"password-stdin"}, {"wait", true}},
         1,
         "FILE",
         runNote},
        {"list", {{"json"}, {"password-stdin"}}, 1, "FILE", runList},
        {"codes", {{"at", true}, {"json"}, {"password-stdin"}}, 1, "FILE", runCodes},
        {"remove", {{"password-stdin"}, {"wait", true}}, 2, "FILE and a record ID", runRemove},
        {"passwd", newPasswordOptions, 1, "FILE", runPasswd},
        {"recover", newPasswordOptions, 1, "FILE", runRecover},
        {"check-phrase", {{"password-stdin"}}, 1, "FILE", runCheckPhrase},
        {"import",
         {{"from", true},
          {"dry-run"},
          {"include-duplicates"},
          {"skip-unsupported"},
          {"password-stdin"},
          {"wait", true}},
         2,
         "FILE and SOURCE",
         runImport},
        {"export",
         {{"to", true},
          {"ids", true},
          {"force"},
          {"plaintext"},
          {"target-ms", true},
          {"password-stdin"}},
         2,
         "FILE and OUT",
         runExport},
    };
    std::vector<Subcommand> table;
    for (const auto& subcommand : subcommands)
        table.push_back({subcommand.name, [&subcommand](const std::vector<std::string>& rest) {
                             return runWithFile(subcommand, rest);
                         }});
    return runSubcommand("vault", table, usage, args);
}

} // namespace watchword::cli
