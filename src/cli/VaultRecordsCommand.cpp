// watchword-cli vault add, note, list, codes and remove: the records (accounts
// and notes; contacts have a command of their own, ContactsCommand.cpp).
#include "VaultCommand.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpauthUri.h"

#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr std::size_t maximumNoteBodySize = 1024 * 1024;

} // namespace

int runAdd(const Arguments& arguments, const std::string& path)
{
    const auto& positionals = arguments.positionals();
    if (positionals.size() == 2 && positionals[1] != "-")
        return reportError(
            "vault add takes no link on the command line: a link holds the account's secret, "
            "and every user of this computer can read a command line (ps, /proc/PID/cmdline) "
            "while it runs. Leave it out to paste it at a hidden prompt, or give '-' and pipe "
            "it in on standard input");
    const bool passwordFromStdin = arguments.has("password-stdin");
    const bool uriFromStdin = passwordFromStdin || positionals.size() == 2;

    // With --password-stdin: the password, then the link. With '-' alone:
    // the link is stdin's line and the password is asked on the terminal.
    // Neither: both asked on the terminal, echo off.
    SecureBuffer uriText;
    auto secrets = SecretSource::make(passwordFromStdin, passwordFromStdin ? 2 : 0);
    if (!secrets)
        return reportError(secrets.error());
    if (!passwordFromStdin && uriFromStdin) {
        auto input = readStdinLines(1);
        if (!input.error.empty())
            return reportError(input.error);
        if (input.lines.empty())
            return reportError("standard input is empty: expected an otpauth link");
        uriText = std::move(input.lines.front());
    }
    auto password = readPassword(*secrets, "the password", "Vault password: ");
    if (!password)
        return reportError(password.error());
    if (passwordFromStdin || !uriFromStdin) {
        auto line = secrets->next("the otpauth link", "otpauth link (not shown): ");
        if (!line)
            return reportError(line.error());
        uriText = std::move(*line);
    }
    auto parsed = otp::parseOtpauthUri(uriText.view());
    if (!parsed)
        return reportError(parsed.error().message);

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    auto opened = openWithPassword(path, password->span(), lockWait(arguments));
    if (!opened.open)
        return opened.status;
    OpenVault& open = *opened.open;

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
    account.sortPosition = vault::nextSortPosition(open.vault);
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
    auto body = readInputFile(*bodyFile, maximumNoteBodySize);
    if (!body)
        return reportError("--body-file: " + body.error());
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1);
    if (!secrets)
        return reportError(secrets.error());

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
    note.sortPosition = vault::nextSortPosition(opened.open->vault);
    auto id = opened.open->vault.add(std::move(note), crypto::systemRandom());
    if (!id)
        return reportError(id.error().message);
    if (const int saved = save(*opened.open); saved != exitOk)
        return saved;
    printLine(recordIdHex(*id));
    return exitOk;
}

namespace {

nlohmann::json tagsJson(const std::vector<std::string>& tags)
{
    auto array = nlohmann::json::array();
    for (const auto& tag : tags)
        array.push_back(tag);
    return array;
}

std::string tagsText(const std::vector<std::string>& tags)
{
    std::string text;
    for (const auto& tag : tags)
        text += (text.empty() ? "  [" : ", ") + tag;
    return text.empty() ? text : text + "]";
}

} // namespace

int runList(const Arguments& arguments, const std::string& path)
{
    auto session = openSession(arguments, path, 1, std::nullopt);
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    const bool json = arguments.has("json");
    auto records = nlohmann::json::array();
    for (const auto* record : vault::sortedRecords(open.vault)) {
        const std::string id = recordIdHex(vault::idOf(*record));
        if (const auto* account = std::get_if<vault::OtpAccount>(record)) {
            if (json) {
                records.push_back({{"id", id},
                                   {"kind", "account"},
                                   {"type", otp::kindName(account->parameters.kind)},
                                   {"issuer", account->issuer},
                                   {"account", account->accountName},
                                   {"tags", tagsJson(account->tags)}});
            } else {
                printLine(id + "  account  " +
                          vault::labelText(account->issuer, account->accountName) +
                          tagsText(account->tags));
            }
        } else if (const auto* note = std::get_if<vault::SecureNote>(record)) {
            if (json) {
                records.push_back({{"id", id},
                                   {"kind", "note"},
                                   {"title", note->title},
                                   {"tags", tagsJson(note->tags)}});
            } else {
                printLine(id + "  note     " + note->title + tagsText(note->tags));
            }
        }
        // Contacts are listed by watchword-cli contacts list, never here.
    }
    if (json)
        printJson({{"records", records}});
    return exitOk;
}

int runCodes(const Arguments& arguments, const std::string& path)
{
    const auto atOption = parseAtOption(arguments);
    if (!atOption)
        return reportError(atOption.error());
    const std::optional<std::int64_t> at = *atOption;
    auto session = openSession(arguments, path, 1, std::nullopt);
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    const std::int64_t now = at ? *at : currentUnixSeconds();
    const bool json = arguments.has("json");
    auto codes = nlohmann::json::array();
    for (const auto* record : vault::sortedRecords(open.vault)) {
        const auto* account = std::get_if<vault::OtpAccount>(record);
        if (!account)
            continue;
        const std::string id = recordIdHex(account->id);
        const auto& parameters = account->parameters;
        auto generator = otp::OtpGenerator::create(parameters, account->secret);
        if (!generator)
            return reportFileError(open.storage.path(),
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
            nlohmann::json entry{{"id", id},
                                 {"issuer", account->issuer},
                                 {"account", account->accountName},
                                 {"type", otp::kindName(parameters.kind)},
                                 {"code", code}};
            if (parameters.isTimeBased()) {
                entry["period"] = parameters.period;
                entry["seconds_remaining"] = generator->secondsRemaining(now);
            } else if (parameters.counter <= (std::uint64_t{1} << 53)) {
                entry["counter"] = parameters.counter;
            } else {
                entry["counter"] = std::to_string(parameters.counter);
            }
            codes.push_back(std::move(entry));
        } else {
            const std::string remaining =
                parameters.isTimeBased() ? std::to_string(generator->secondsRemaining(now)) + "s"
                                         : "counter " + std::to_string(parameters.counter);
            printLine(id + "  " + code + "  " + remaining + "  " +
                      vault::labelText(account->issuer, account->accountName));
        }
    }
    if (json)
        printJson({{"time", now}, {"codes", codes}});
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
    auto session = openSession(arguments, path, 1, lockWait(arguments));
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    if (auto removed = open.vault.remove(id); !removed)
        return reportFileError(open.storage.path(), removed.error().message);
    if (const int saved = save(open); saved != exitOk)
        return saved;
    printLine("removed " + recordIdHex(id));
    return exitOk;
}

} // namespace watchword::cli
