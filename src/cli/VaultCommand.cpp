#include "Arguments.h"
#include "Cli.h"
#include "Secrets.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "exporters/Export.h"
#include "importers/Import.h"
#include "importers/ImportPlan.h"
#include "keychain/Keychain.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpauthUri.h"
#include "vault/Calibration.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QJsonArray>
#include <QString>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace watchword::cli {

namespace {

constexpr const char* usage =
    R"(usage: watchword-cli vault init FILE [--target-ms N] [--words 12|24] [--password-stdin]
       watchword-cli vault info FILE [--json]
       watchword-cli vault add FILE ('otpauth://...' | -) [--password-stdin]
       watchword-cli vault note FILE --title T --body-file F [--password-stdin]
       watchword-cli vault list FILE [--json] [--password-stdin]
       watchword-cli vault codes FILE [--at UNIX_SECONDS] [--json] [--password-stdin]
       watchword-cli vault remove FILE ID [--password-stdin]
       watchword-cli vault passwd FILE [--target-ms N] [--password-stdin]
       watchword-cli vault recover FILE [--target-ms N] [--password-stdin]
       watchword-cli vault import FILE --from FORMAT SOURCE [--dry-run]
                     [--include-duplicates] [--password-stdin]
       watchword-cli vault export FILE --to FORMAT OUT [--ids ID,...] [--force]
                     [--plaintext] [--target-ms N] [--password-stdin]

init     creates a new vault at FILE (never over an existing file): calibrates
         the password KDF (PBKDF2-HMAC-SHA256) for --target-ms milliseconds per
         unlock (1000 by default, never below 600,000 iterations), makes a
         recovery phrase (24 words by default) and prints it ONCE, with the
         iteration count and the rate measured.
info     the format version, KDF parameters and record count; no password.
add      adds an OTP account from an otpauth URI ('-': the URI from stdin) and
         prints its id.
note     adds a secure note titled T whose body is the content of file F.
list     every record: id, kind, issuer and account (or title), tags.
codes    every account's code now (or at --at), with the seconds remaining;
         for HOTP the code of the stored counter, which is not incremented.
remove   removes the record with the given id (32 hex digits, from list).
passwd   changes the password (a new master key; every record sealed again).
recover  opens the vault with the recovery phrase and sets a new password.
import   adds the accounts of another app's export SOURCE ('-': stdin). FORMAT:
         otpauth, google-migration, aegis, 2fas, andotp, freeotp-plus,
         freeotp, bitwarden, authenticator-pro, google-authenticator-db,
         watchword-backup, or auto (the first guess that reads, named in the
         output). Prints a preview, one line per account: new, duplicate (the
         same secret and code as an account in the vault, or as an earlier
         entry) or same name (same issuer and account, another secret); then
         the source's warnings and the count. Duplicates are skipped unless
         --include-duplicates. --dry-run stops after the preview and writes
         nothing. All accounts are added, or none.
export   writes the vault's accounts (or those of --ids, in that order) to OUT
         as FORMAT: watchword-backup (encrypted, its own password; the KDF
         calibrated for --target-ms, 1000 by default), aegis-encrypted,
         aegis, otpauth or google-migration. aegis, otpauth and
         google-migration hold every secret readable by anyone who can read
         OUT: they need --plaintext, and only they may go to stdout (OUT '-').
         OUT is written 0600 and never replaces a file without --force.
         Accounts a format cannot hold are left out with a warning on stderr.

Secrets are never taken from the command line. Without --password-stdin they
are asked on the terminal with echo off (a new password twice). With
--password-stdin, standard input holds one secret per line, in this order:
  init, list, codes, note, remove, add URI:  the password
  add -:    the password, then the otpauth URI
  passwd:   the current password, then the new one
  recover:  the recovery phrase, then the new password
  import:   the password, then the password of SOURCE if it is encrypted
            (SOURCE '-' takes stdin: the passwords are then asked on the
            terminal, and --password-stdin is refused)
  export:   the password, then the password of OUT for encrypted formats
(add - without --password-stdin reads the URI from the first line of stdin.)
Passwords are normalized to Unicode NFKD; an empty password is refused. The
password of an import SOURCE or export OUT is normalized only for
watchword-backup: the other apps take theirs as typed.
--target-ms for passwd and recover defaults to the vault's stored target.

Exit status: 0 on success; 2 on bad arguments or input (one line on stderr,
nothing on stdout); 1 if the operation failed: the file is missing, damaged,
tampered with or not a vault, wrong password or phrase, the vault is locked
by another process or changed on disk, the disk is full, or the self-test
failed. The vault file is never changed by a command that fails. For import,
a SOURCE that cannot be read, is damaged or is not FORMAT is bad input (2); a
wrong password of SOURCE is a failure (1). export never leaves OUT half
written.
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

// A new password: from stdin once, or typed twice on the terminal.
std::optional<SecureBuffer> readNewPassword(SecretSource& source, std::string& error)
{
    auto password = readPassword(source, "the new password", "New vault password: ", error);
    if (!password || source.fromStdin())
        return password;
    auto again = readPassword(source, "the new password", "Repeat the new password: ", error);
    if (!again)
        return std::nullopt;
    if (!constantTimeEqual(password->span(), again->span())) {
        error = "the two passwords differ; nothing was changed";
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

std::optional<vault::VaultStorage> openStorage(const std::string& path, bool forWriting,
                                               int& status)
{
    auto storage = vault::VaultStorage::open(path, crypto::systemRandom());
    if (!storage) {
        status = reportFileError(path, storage.error().message);
        return std::nullopt;
    }
    if (forWriting) {
        if (auto locked = storage->lock(); !locked) {
            status = reportFileError(path, locked.error().message);
            return std::nullopt;
        }
    }
    return std::move(storage).value();
}

Opened unlockWithPassword(const std::string& path, SecretSource& secrets, bool forWriting)
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
    auto storage = openStorage(path, forWriting, result.status);
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
    return exitOk;
}

// A vault subcommand: its options, how many positional arguments it takes
// (FILE first) and their names for the error message, and what runs it.
struct VaultSubcommand
{
    std::string_view name;
    std::vector<OptionSpec> options;
    std::size_t positionals;
    std::string_view positionalNames;
    int (*run)(const Arguments& arguments, const std::string& path);
};

// Parses args for subcommand and runs it on FILE.
int runWithFile(const VaultSubcommand& subcommand, const std::vector<std::string>& args)
{
    auto arguments = Arguments::parse(args, subcommand.options);
    if (!arguments.ok())
        return reportError(arguments.error() + " (see watchword-cli vault --help)");
    const std::string name(subcommand.name);
    if (arguments.positionals().size() != subcommand.positionals)
        return reportError("vault " + name + " takes " + std::string(subcommand.positionalNames) +
                           ", got " + std::to_string(arguments.positionals().size()) +
                           (arguments.positionals().size() == 1 ? " argument" : " arguments"));
    if (arguments.positionals().front().empty())
        return reportError("vault " + name + ": FILE is empty");
    return subcommand.run(arguments, arguments.positionals().front());
}

int runInit(const Arguments& arguments, const std::string& path)
{
    std::string error;
    const auto target = parseTarget(arguments, error);
    if (!error.empty())
        return reportError(error);
    std::size_t words = keychain::Keychain::defaultWordCount;
    if (const auto text = arguments.value("words")) {
        const auto value = parseInteger(*text, 0, 1000);
        if (!value || (*value != 12 && *value != 24))
            return reportError("--words: '" + *text + "' is not 12 or 24");
        words = static_cast<std::size_t>(*value);
    }
    // Checked again atomically when the file is written; here so that nobody
    // types a password twice for nothing.
    struct stat existing
    {};
    if (::lstat(path.c_str(), &existing) == 0)
        return reportFileError(path, "a file already exists there; vault init never replaces one");

    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    auto password = readNewPassword(*secrets, error);
    if (!password)
        return reportError(error);

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    const auto calibration =
        vault::calibratePasswordKdf(target.value_or(vault::defaultTargetMilliseconds));
    if (!calibration)
        return reportError(calibration.error().message, exitFailure);
    auto keychain = keychain::Keychain::create(crypto::systemRandom(), words);
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

    std::fputs("recovery phrase: ", stdout);
    printLine(keychain->mnemonic().view());
    printLine("Write the recovery phrase down now and keep it offline: it is shown only this "
              "once, and it opens the vault (vault recover) without the password.");
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
    auto storage = openStorage(path, false, status);
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
        if (info->recoveryPublicKey)
            json.insert("recovery_public_key", qText(recoveryKey));
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
    return exitOk;
}

int runAdd(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    const std::string& uriArgument = arguments.positionals()[1];
    const bool uriFromStdin = uriArgument == "-";
    const bool passwordFromStdin = arguments.has("password-stdin");
    std::string error;

    SecureBuffer uriText;
    std::optional<SecretSource> secrets;
    if (passwordFromStdin) {
        secrets = SecretSource::make(true, uriFromStdin ? 2 : 1, error);
        if (!secrets)
            return reportError(error);
    } else {
        secrets = SecretSource::make(false, 0, error);
        if (uriFromStdin) {
            auto input = readStdinLines(1);
            if (!input.error.empty())
                return reportError(input.error);
            if (input.lines.empty())
                return reportError("standard input is empty: expected an otpauth URI");
            uriText = std::move(input.lines.front());
        }
    }
    // With both on stdin the password comes first: read it before the URI.
    auto password = readPassword(*secrets, "the password", "Vault password: ", error);
    if (!password)
        return reportError(error);
    if (uriFromStdin && passwordFromStdin) {
        auto line = secrets->next("the otpauth URI", "", error);
        if (!line)
            return reportError(error);
        uriText = std::move(*line);
    } else if (!uriFromStdin) {
        uriText = SecureBuffer::fromString(uriArgument);
    }
    auto parsed = otp::parseOtpauthUri(uriText.view());
    if (!parsed)
        return reportError(parsed.error().message);

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto storage = openStorage(path, true, status);
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

// The whole file at path into wiped memory, at most maximumNoteBodySize bytes.
std::optional<SecureBuffer> readBodyFile(const std::string& path, std::string& error)
{
    const int file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file < 0) {
        error = "--body-file: cannot open '" + path + "': " + std::strerror(errno);
        return std::nullopt;
    }
    SecureBuffer body(maximumNoteBodySize + 1);
    std::size_t size = 0;
    while (size < body.size()) {
        const ssize_t got = ::read(file, body.data() + size, body.size() - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            error = "--body-file: cannot read '" + path + "': " + std::strerror(errno);
            ::close(file);
            return std::nullopt;
        }
        if (got == 0)
            break;
        size += static_cast<std::size_t>(got);
    }
    ::close(file);
    if (size > maximumNoteBodySize) {
        error = "--body-file: '" + path + "' is larger than 1 MiB";
        return std::nullopt;
    }
    body.truncate(size);
    return body;
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
    std::string error;
    auto body = readBodyFile(*bodyFile, error);
    if (!body)
        return reportError(error);
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

    auto opened = unlockWithPassword(path, *secrets, true);
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

std::string accountLabel(const vault::OtpAccount& account)
{
    if (account.issuer.empty())
        return account.accountName;
    return account.issuer + ":" + account.accountName;
}

int runList(const Arguments& arguments, const std::string& path)
{
    std::string error;
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1, error);
    if (!secrets)
        return reportError(error);
    auto opened = unlockWithPassword(path, *secrets, false);
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
    auto opened = unlockWithPassword(path, *secrets, false);
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
    auto opened = unlockWithPassword(path, *secrets, true);
    if (!opened.open)
        return opened.status;
    if (auto removed = opened.open->vault.remove(id); !removed)
        return reportFileError(opened.open->storage.path(), removed.error().message);
    if (const int saved = save(*opened.open); saved != exitOk)
        return saved;
    printLine("removed " + recordIdHex(id));
    return exitOk;
}

// Sets a new password (calibrated for target, else the stored target) and saves.
int changePasswordAndSave(OpenVault& open, SecretSource& secrets,
                          std::optional<std::uint32_t> target)
{
    std::string error;
    auto password = readNewPassword(secrets, error);
    if (!password)
        return reportError(error);
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
    printLine("password changed: PBKDF2-HMAC-SHA256, " + std::to_string(calibration->iterations) +
              " iterations (target " + std::to_string(calibration->targetMilliseconds) +
              " ms, measured rate " + std::to_string(calibration->iterationsPerSecond) +
              " iterations/s)");
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
    auto opened = unlockWithPassword(path, *secrets, true);
    if (!opened.open)
        return opened.status;
    return changePasswordAndSave(*opened.open, *secrets, target);
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
    auto phrase = secrets->next("the recovery phrase", "Recovery phrase: ", error);
    if (!phrase)
        return reportError(error);
    if (phrase->empty())
        return reportError("the recovery phrase is empty");
    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto keychain = keychain::Keychain::restore(phrase->view());
    if (!keychain)
        return reportError("the recovery phrase: " + keychain.error().message);
    auto storage = openStorage(path, true, status);
    if (!storage)
        return status;
    auto unlocked = vault::Vault::unlockWithRecovery(storage->contents(), *keychain);
    if (!unlocked)
        return reportFileError(path, unlocked.error().message);
    OpenVault open{std::move(*storage), std::move(unlocked).value()};
    return changePasswordAndSave(open, *secrets, target);
}

// ---- import, export --------------------------------------------------------

std::string formatNames()
{
    std::string names;
    for (const auto format : importers::allFormats)
        names += std::string(importers::formatName(format)) + ", ";
    return names + "or auto";
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
    if (account.issuer.empty())
        return account.accountName;
    return account.issuer + ":" + account.accountName;
}

// The source read as format: its password asked (once) only if the source
// is encrypted. A wrong password is reported, exit 1; anything else about
// the source is bad input, exit 2. Either way the status is in status.
std::optional<importers::Imported> importSource(importers::Format format, ByteView data,
                                                const std::string& sourceName,
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
    auto imported = importers::importAccounts(format, data, password);
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
        return reportError(sourceName +
                           ": not a format this version recognises; name it with --from");
    std::optional<SecureBuffer> sourcePassword;
    std::optional<importers::Imported> imported;
    std::optional<Error<importers::ImportError>> firstError;
    for (const auto format : candidates) {
        std::optional<Error<importers::ImportError>> failure;
        imported =
            importSource(format, data->span(), sourceName, *secrets, sourcePassword, failure);
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
    auto storage = openStorage(path, !dryRun, status);
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

    std::string preview = "source: " + std::string(importers::formatTitle(imported->format)) +
                          " (" + std::string(importers::formatName(imported->format)) + ")\n";
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
        preview += line + "\n";
    }
    for (const auto& warning : imported->warnings)
        preview += "warning: " + warning + "\n";
    const std::size_t skipped = plan.size() - chosen.size();
    preview += countText(chosen.size(), "account", "accounts") + " to add, " +
               countText(skipped, "duplicate", "duplicates") + " skipped";
    printLine(preview);
    if (dryRun) {
        printLine("dry run: " + path + " was not changed");
        return exitOk;
    }
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
    auto opened = unlockWithPassword(path, *secrets, false);
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
    if (const auto failed = writeFileAtomically(out, exported->data.view(), 0600,
                                                replace ? IfExists::Replace : IfExists::Refuse))
        return reportFileError(out, *failed);
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
    static const VaultSubcommand subcommands[] = {
        {"init", {{"target-ms", true}, {"words", true}, {"password-stdin"}}, 1, "FILE", runInit},
        {"info", {{"json"}}, 1, "FILE", runInfo},
        {"add", {{"password-stdin"}}, 2, "FILE and an otpauth URI (or -)", runAdd},
        {"note", {{"title", true}, {"body-file", true}, {"password-stdin"}}, 1, "FILE", runNote},
        {"list", {{"json"}, {"password-stdin"}}, 1, "FILE", runList},
        {"codes", {{"at", true}, {"json"}, {"password-stdin"}}, 1, "FILE", runCodes},
        {"remove", {{"password-stdin"}}, 2, "FILE and a record ID", runRemove},
        {"passwd", {{"target-ms", true}, {"password-stdin"}}, 1, "FILE", runPasswd},
        {"recover", {{"target-ms", true}, {"password-stdin"}}, 1, "FILE", runRecover},
        {"import",
         {{"from", true}, {"dry-run"}, {"include-duplicates"}, {"password-stdin"}},
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
