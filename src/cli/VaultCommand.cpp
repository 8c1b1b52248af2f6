#include "Arguments.h"
#include "Cli.h"
#include "Secrets.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
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

Secrets are never taken from the command line. Without --password-stdin they
are asked on the terminal with echo off (a new password twice). With
--password-stdin, standard input holds one secret per line, in this order:
  init, list, codes, note, remove, add URI:  the password
  add -:    the password, then the otpauth URI
  passwd:   the current password, then the new one
  recover:  the recovery phrase, then the new password
(add - without --password-stdin reads the URI from the first line of stdin.)
Passwords are normalized to Unicode NFKD; an empty password is refused.
--target-ms for passwd and recover defaults to the vault's stored target.

Exit status: 0 on success; 2 on bad arguments or input (one line on stderr,
nothing on stdout); 1 if the operation failed: the file is missing, damaged,
tampered with or not a vault, wrong password or phrase, the vault is locked
by another process or changed on disk, the disk is full, or the self-test
failed. The vault file is never changed by a command that fails.
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

// The records sorted as the file stores them: sort position, then id.
std::vector<const vault::Record*> sortedRecords(const vault::Vault& vault)
{
    std::vector<const vault::Record*> records;
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        records.push_back(&vault.record(i));
    std::sort(records.begin(), records.end(), [](const auto* left, const auto* right) {
        const auto leftKey = std::make_pair(vault::sortPositionOf(*left), vault::idOf(*left));
        const auto rightKey = std::make_pair(vault::sortPositionOf(*right), vault::idOf(*right));
        return leftKey < rightKey;
    });
    return records;
}

std::uint32_t nextSortPosition(const vault::Vault& vault)
{
    std::uint32_t next = 0;
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const std::uint32_t position = vault::sortPositionOf(vault.record(i));
        if (position != std::numeric_limits<std::uint32_t>::max())
            next = std::max(next, position + 1);
    }
    return next;
}

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
    };
    std::vector<Subcommand> table;
    for (const auto& subcommand : subcommands)
        table.push_back({subcommand.name, [&subcommand](const std::vector<std::string>& rest) {
                             return runWithFile(subcommand, rest);
                         }});
    return runSubcommand("vault", table, usage, args);
}

} // namespace watchword::cli
