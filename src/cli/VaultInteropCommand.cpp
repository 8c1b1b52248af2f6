// watchword-cli vault import and export: other apps' formats in and out.
#include "VaultCommand.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "encoding/DisplayText.h"
#include "interop/exporters/Export.h"
#include "interop/importers/Import.h"
#include "interop/importers/ImportPlan.h"
#include "vault/Calibration.h"

#include <algorithm>
#include <sys/stat.h>

namespace watchword::cli {

using encoding::countText;

namespace {

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

// The source read as format: its password asked (once) only if the source
// is encrypted. The error says whether the password was missing or wrong
// (PasswordRequired, WrongPassword) or what else is wrong with the source.
importers::ImportResult<importers::Imported>
importSource(importers::Format format, ByteView data, const std::string& sourceName,
             const importers::CompanionFiles& companions, SecretSource& secrets,
             std::optional<SecureBuffer>& sourcePassword)
{
    std::optional<ByteView> password;
    if (importers::isEncrypted(format, data)) {
        if (!sourcePassword) {
            auto typed = secrets.next("the password of SOURCE", "Password of " + sourceName + ": ");
            if (!typed)
                return fail(importers::ImportError::PasswordRequired, typed.error());
            sourcePassword = std::move(*typed);
        }
        password = sourcePassword->span();
    }
    // A Watchword backup's password is NFKD text, as the vault's (FORMAT.md
    // section 10); other apps' files take the password as typed, since their
    // apps do not normalize it.
    std::optional<SecureBuffer> normalized;
    if (password && format == importers::Format::WatchwordBackup) {
        auto text = normalizeSecretText(*sourcePassword, "the password of SOURCE");
        if (!text)
            return fail(importers::ImportError::WrongPassword, text.error());
        normalized = std::move(*text);
        password = normalized->span();
    }
    // Entries that cannot be imported are listed, not fatal here: runImport
    // shows them and refuses unless --skip-unsupported.
    return importers::importAccounts(format, data, password, importers::UnreadableEntries::Skip,
                                     companions);
}

} // namespace

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

    auto data = readInputFile(source, importers::maximumImportBytes);
    if (!data)
        return reportError("SOURCE: " + data.error());
    auto secrets = SecretSource::make(passwordFromStdin, 2);
    if (!secrets)
        return reportError(secrets.error());
    auto password = readPassword(*secrets, "the password", "Vault password: ");
    if (!password)
        return reportError(password.error());
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
        auto attempt =
            importSource(format, data->span(), sourceName, companions, *secrets, sourcePassword);
        if (attempt) {
            imported = std::move(attempt).value();
            break;
        }
        // A password that does not open the file ends the guessing: the
        // format is right, the password is not.
        const auto& failure = attempt.error();
        if (failure.code == importers::ImportError::WrongPassword ||
            failure.code == importers::ImportError::PasswordRequired) {
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

    auto opened = openWithPassword(path, password->span(),
                                   dryRun ? std::nullopt : std::optional(lockWait(arguments)));
    if (!opened.open)
        return opened.status;
    OpenVault& open = *opened.open;

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
        line += vault::labelText(account.issuer, account.accountName);
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

namespace {

// The password of OUT: from stdin once, or typed twice on the terminal. A
// Watchword backup's is NFKD text, as the vault's (FORMAT.md section 10);
// Aegis takes the password as typed, so it is left as it is.
Result<SecureBuffer, std::string> readFilePassword(SecretSource& source, const std::string& out,
                                                   bool normalize)
{
    const auto read = [&](std::string_view prompt) -> Result<SecureBuffer, std::string> {
        auto typed = source.next("the password of OUT", prompt);
        if (!typed)
            return typed.failure();
        if (typed->empty())
            return fail(
                std::string("the password of OUT is empty: an encrypted export needs a password"));
        if (!normalize)
            return typed;
        return normalizeSecretText(*typed, "the password of OUT");
    };
    auto password = read("New password of " + out + ": ");
    if (!password || source.fromStdin())
        return password;
    auto again = read("Repeat the password of " + out + ": ");
    if (!again)
        return again.failure();
    if (!constantTimeEqual(password->span(), again->span()))
        return fail(std::string("the two passwords differ; nothing was written"));
    return password;
}

} // namespace

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
    const auto targetOption = parseTarget(arguments);
    if (!targetOption)
        return reportError(targetOption.error());
    const std::optional<std::uint32_t> target = *targetOption;
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
    auto session = openSession(arguments, path, needsPassword ? 2 : 1, std::nullopt);
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    const vault::Vault& vault = open.vault;

    std::vector<vault::OtpAccount> accounts;
    if (ids.empty()) {
        for (const auto* record : vault::sortedRecords(vault))
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
        auto typed = readFilePassword(*session.secrets, out,
                                      *format == exporters::ExportFormat::WatchwordBackup);
        if (!typed)
            return reportError(typed.error());
        filePassword = std::move(typed).value();
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

} // namespace watchword::cli
