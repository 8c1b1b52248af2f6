// watchword-cli share and receive: accounts and notes sent from one vault to
// the people its contacts name, and taken into another (docs/FORMAT.md
// section 12). The envelope, its checks and what a vault makes of it are
// the core's (share/Envelope.h, vault/Exchange.h); this file picks the
// records and people, reads and writes the carriers, and says what happened.
#include "Arguments.h"
#include "Cli.h"
#include "VaultCommand.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "encoding/DisplayText.h"
#include "encoding/Hex.h"
#include "qr/QrCode.h"
#include "share/Envelope.h"
#include "share/Identity.h"
#include "vault/Contacts.h"
#include "vault/Exchange.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

using encoding::countText;

constexpr const char* shareUsage =
    R"(usage: watchword-cli share FILE --to CONTACT [--to CONTACT ...] --record ID [--record ID ...]
                          [--out SHARE | --text | --qr DIR] [--password-stdin]

Seals accounts and notes of the vault FILE to one or more people, signed by
your sharing identity (watchword-cli identity show FILE), so that only they
can open it and they can tell it is from you.

--to CONTACT   who it is for (up to 16): a contact's name, fingerprint words
               or id (watchword-cli contacts list FILE), or an identity text
               (watchword-id:...). Repeat for each person.
--record ID    an account or note to send (up to 256), by the id that
               'vault list FILE' prints, or its first 8 or more hex digits.
               Repeat for each record.
--out SHARE    writes the share to the new file SHARE (.wwshare); an
               existing file is never replaced.
--text         prints the share as text to paste into a message (the
               default).
--qr DIR       writes the share as a QR code, DIR/share.png (DIR is made if
               missing), when it fits one code (up to 1,734 bytes: a few
               records); else use --out or --text.

A record keeps its label, secret and settings; its place in your list and
when you last used it stay with you. Shares are not kept in FILE: nothing in
the vault changes. A contact you have not verified is named on stderr:
compare fingerprints (contacts verify) before you send secrets.

The vault password is asked on the terminal with echo off, or read from the
first line of standard input with --password-stdin; never from the command
line.

Exit status: 0 on success; 2 on bad arguments (nothing was written); 1 if
the share could not be made: wrong password, no sharing identity yet, an
unknown contact or record, too large for a QR code, SHARE exists.
)";

constexpr const char* receiveUsage =
    R"(usage: watchword-cli receive FILE SHARE [--record N ...] [--all] [--accept-unknown]
                            [--dry-run] [--json] [--password-stdin] [--wait S]

Opens a share sent to you (a .wwshare file, pasted text, or a PNG image of
its QR code; SHARE '-' reads standard input) with the sharing key of the
vault FILE, says who sent it and what it holds, and adds its records to
FILE.

Who sent it is shown as a verified contact, a contact not verified, or an
unknown person with their fingerprint. Records the vault already holds (the
same secret and code settings, or the same note) are marked as such.

What is added: every record that is not in the vault yet; --all adds the
ones that are too; --record N (1-based, repeatable) adds exactly those.
A share from someone who is not one of your contacts is shown but not added
unless --accept-unknown is given: add them first (contacts add) and compare
fingerprints. A share already received (something was added from it before)
adds nothing unless --record or --all says what.

--dry-run   opens and shows, and changes nothing (no password lock held).
--json      prints {"envelope_id", "created", "sender": {"public_key",
            "fingerprint", "status", "name"}, "other_recipients",
            "already_received", "records": [{"index", "kind", "title",
            "duplicate_of"}], "added": [ids], "dry_run"} instead of text.

Refused, with a message that says which: not a share, damaged (malformed),
too large, a version this Watchword does not read, not for you (your
identity is not among its recipients), changed after it was sealed
(tampered), or not signed by the sender it names (forged sender).

The vault password is asked on the terminal with echo off, or read from the
first line of standard input with --password-stdin (then SHARE cannot be
'-'). --wait S: waits up to S seconds (5 by default, 0 to 3600) while
another process holds the vault's lock.

Exit status: 0 on success (also when nothing was added); 2 on bad arguments
or a SHARE that cannot be read; 1 if the share is refused, the sender is
unknown without --accept-unknown, or the vault could not be opened or
saved. The vault file is never changed by a command that fails.
)";

// The largest SHARE file read: a PNG of a QR code (a photo of one can be
// large); text over share::maximumEnvelopeTextSize is refused as it is read.
constexpr std::size_t maximumShareInput =
    std::max<std::size_t>(share::maximumEnvelopeTextSize, qr::maximumImageFileBytes);
// The shortest record id prefix --record takes.
constexpr std::size_t minimumRecordPrefixDigits = 8;

std::string keyHex(ByteView key)
{
    return encoding::toHex(key);
}

// A person --to names: a contact, or an identity text.
struct Recipient
{
    crypto::PublicKey key;
    std::string name;
    bool verified = false;
    bool contact = false;
};

Result<Recipient, std::string> recipientNamed(const vault::Vault& vault, const std::string& which)
{
    if (which.starts_with(share::identityTextPrefix)) {
        auto key = share::parseIdentityText(which);
        if (!key)
            return fail("--to " + which + ": " + key.error().message);
        if (const auto* contact = vault::contactWithKey(vault, key->compressed()))
            return Recipient{std::move(*key), contact->name, contact->verified, true};
        const auto fingerprint = share::identityFingerprintText(*key);
        return Recipient{std::move(*key), "the identity " + fingerprint, false, false};
    }
    const auto contact = vault::findContact(vault, which);
    if (!contact)
        return fail("--to " + which + ": " + contact.error().message);
    return Recipient{vault::publicKeyOf(**contact), (*contact)->name, (*contact)->verified, true};
}

// --record's text in lower case, or nullopt if it cannot be (the start of)
// a record id.
std::optional<std::string> recordDigits(const std::string& which)
{
    std::string digits = which;
    std::transform(digits.begin(), digits.end(), digits.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (digits.size() < minimumRecordPrefixDigits || digits.size() > 2 * vault::recordIdSize ||
        digits.find_first_not_of("0123456789abcdef") != std::string::npos)
        return std::nullopt;
    return digits;
}

// An account or note by its id or the start of it (recordDigits checked).
Result<vault::RecordId, std::string> recordNamed(const vault::Vault& vault,
                                                 const std::string& which)
{
    const std::string digits = recordDigits(which).value_or(which);
    std::optional<vault::RecordId> found;
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const auto& record = vault.record(i);
        const auto id = vault::idOf(record);
        if (!recordIdHex(id).starts_with(digits))
            continue;
        if (vault::kindOf(record) == vault::RecordKind::Contact)
            return fail("--record " + which + " is a contact: only accounts and notes are shared");
        if (found)
            return fail("--record " + which +
                        " is the start of more than one record's id: "
                        "give more digits");
        found = id;
    }
    if (!found)
        return fail("--record " + which + ": the vault has no account or note with that id");
    return *found;
}

int writeShareFile(const std::string& out, ByteView envelope, std::string_view summary)
{
    const auto written = writeFileAtomically(
        out, std::string_view(reinterpret_cast<const char*>(envelope.data()), envelope.size()),
        0600, IfExists::Refuse);
    if (!written)
        return reportFileError(out, written.error());
    if (!written->notDurable.empty())
        reportError("warning: " + written->notDurable, exitOk);
    printLine(std::string(summary) + ": " + out + " (" + std::to_string(envelope.size()) +
              " bytes)");
    return exitOk;
}

int writeShareQr(const std::string& directory, ByteView envelope, std::string_view summary)
{
    const auto text = share::envelopeQrText(envelope);
    if (!text)
        return reportFileError(directory, text.error().message);
    const auto matrix = qr::encodeQr(*text);
    if (!matrix)
        return reportFileError(directory, matrix.error().message);
    const auto png = qr::encodePng(*matrix, 4);
    if (!png)
        return reportFileError(directory, png.error().message);
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        return reportFileError(directory, "cannot make the directory: " + error.message());
    return writeShareFile((std::filesystem::path(directory) / "share.png").string(), *png, summary);
}

int runShare(const Arguments& arguments, const std::string& path)
{
    const auto people = arguments.values("to");
    const auto records = arguments.values("record");
    if (people.empty())
        return reportError("share needs --to CONTACT: who it is for");
    if (records.empty())
        return reportError("share needs --record ID: what to send ('vault list FILE' shows ids)");
    const int carriers =
        int(arguments.has("out")) + int(arguments.has("text")) + int(arguments.has("qr"));
    if (carriers > 1)
        return reportError("give one of --out SHARE, --text and --qr DIR");
    const auto out = arguments.value("out");
    if (out && (out->empty() || std::filesystem::exists(*out)))
        return reportError(out->empty()
                               ? std::string("--out needs a file name")
                               : "--out " + *out + " exists: a share never replaces a file");
    if (const auto qrDirectory = arguments.value("qr"); qrDirectory && qrDirectory->empty())
        return reportError("--qr needs a directory");
    for (const auto& which : records)
        if (!recordDigits(which))
            return reportError("--record " + which +
                               ": give a record id as 'vault list' prints "
                               "it (" +
                               std::to_string(minimumRecordPrefixDigits) + " to 32 hex digits)");

    auto session = openSession(arguments, path, 1, std::nullopt);
    if (!session.opened.open)
        return session.opened.status;
    const vault::Vault& vault = session.opened.open->vault;

    std::vector<crypto::PublicKey> keys;
    std::vector<std::string> names;
    std::vector<std::string> notes; // said once the share is made
    for (const auto& which : people) {
        auto recipient = recipientNamed(vault, which);
        if (!recipient)
            return reportFileError(path, recipient.error());
        if (!recipient->verified)
            notes.push_back(
                "note: " + recipient->name +
                (recipient->contact ? " is not verified" : " is not one of your contacts") +
                ": compare fingerprints (watchword-cli contacts verify) before you "
                "send secrets");
        keys.push_back(std::move(recipient->key));
        names.push_back(std::move(recipient->name));
    }
    std::vector<vault::RecordId> ids;
    for (const auto& which : records) {
        auto id = recordNamed(vault, which);
        if (!id)
            return reportFileError(path, id.error());
        if (std::find(ids.begin(), ids.end(), *id) != ids.end())
            return reportError("--record " + which + " is given twice");
        ids.push_back(*id);
    }

    const auto envelope = vault::shareRecords(vault, ids, keys, currentUnixSeconds());
    if (!envelope)
        return reportFileError(path, envelope.error().message);
    for (const auto& note : notes)
        reportError(note, exitOk);

    std::string to;
    for (std::size_t i = 0; i < names.size(); ++i)
        to += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    const std::string summary =
        "shared " + countText(ids.size(), "record", "records") + " with " + to;
    if (out)
        return writeShareFile(*out, *envelope, summary);
    if (const auto directory = arguments.value("qr"))
        return writeShareQr(*directory, *envelope, summary);
    auto armoured = share::armourEnvelope(*envelope);
    armoured.pop_back(); // printLines ends the last line
    printLines(armoured);
    reportError(summary, exitOk);
    return exitOk;
}

// ---- receive ---------------------------------------------------------------

// The envelope in what SHARE holds: its bytes, text, or a PNG of its QR code.
Result<Bytes, std::string> readShare(const std::string& path)
{
    const auto file = readInputFile(path, maximumShareInput);
    if (!file)
        return fail(file.error());
    const std::string name = path == "-" ? std::string("standard input") : path;
    const auto bytes = file->span();
    if (qr::looksLikePng(bytes)) {
        const auto texts = qrTextsOf(bytes, name);
        if (!texts)
            return fail(texts.error().message);
        std::string firstError;
        for (const auto& text : *texts) {
            auto envelope = share::envelopeFromText(text);
            if (envelope)
                return std::move(*envelope);
            if (firstError.empty())
                firstError = envelope.error().message;
        }
        return fail(name + ": the QR code " +
                    (texts->size() == 1 ? std::string("does not hold") : "s do not hold") +
                    " a Watchword share (" + firstError + ")");
    }
    auto envelope = share::envelopeFromData(bytes);
    if (!envelope)
        return fail(name + ": " + envelope.error().message);
    return std::move(*envelope);
}

std::string_view statusName(vault::SenderStatus status)
{
    switch (status) {
    case vault::SenderStatus::VerifiedContact:
        return "verified";
    case vault::SenderStatus::UnverifiedContact:
        return "not_verified";
    case vault::SenderStatus::Unknown:
        return "unknown";
    case vault::SenderStatus::Yourself:
        return "yourself";
    }
    return "unknown";
}

std::string senderLine(const vault::ReceivedShare& share)
{
    switch (share.senderStatus) {
    case vault::SenderStatus::VerifiedContact:
        return "from " + share.senderName + " (a verified contact)";
    case vault::SenderStatus::UnverifiedContact:
        return "from " + share.senderName +
               " (a contact you have NOT verified: compare the fingerprint " +
               share.senderFingerprint + ")";
    case vault::SenderStatus::Yourself:
        return "from yourself (your own sharing identity)";
    case vault::SenderStatus::Unknown:
        break;
    }
    return "from someone who is not one of your contacts, fingerprint " + share.senderFingerprint;
}

std::string utcText(std::int64_t seconds)
{
    const std::time_t time = static_cast<std::time_t>(seconds);
    std::tm parts{};
    if (gmtime_r(&time, &parts) == nullptr)
        return std::to_string(seconds);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &parts);
    return text;
}

std::pair<std::string, std::string> describe(const vault::Record& record)
{
    if (const auto* account = std::get_if<vault::OtpAccount>(&record))
        return {"account", vault::labelText(account->issuer, account->accountName)};
    if (const auto* note = std::get_if<vault::SecureNote>(&record))
        return {"note", note->title};
    return {"contact", std::get<vault::Contact>(record).name};
}

// The 0-based indices of the records to add, or the usage message.
Result<std::vector<std::size_t>, std::string> chosenRecords(const Arguments& arguments,
                                                            const vault::ReceivedShare& share)
{
    std::vector<std::size_t> chosen;
    const auto numbers = arguments.values("record");
    if (!numbers.empty()) {
        for (const auto& number : numbers) {
            const auto n = parseInteger(number, 1, static_cast<long long>(share.records.size()));
            if (!n)
                return fail("--record " + number + ": the share holds records 1 to " +
                            std::to_string(share.records.size()));
            const auto index = static_cast<std::size_t>(*n - 1);
            if (std::find(chosen.begin(), chosen.end(), index) != chosen.end())
                return fail("--record " + number + " is given twice");
            chosen.push_back(index);
        }
        return chosen;
    }
    if (!arguments.has("all"))
        return vault::suggestedRecords(share);
    for (std::size_t i = 0; i < share.records.size(); ++i)
        chosen.push_back(i);
    return chosen;
}

int runReceive(const Arguments& arguments, const std::string& path)
{
    const std::string& source = arguments.positionals()[1];
    if (source.empty())
        return reportError("SHARE is empty: give a share file, or '-' for standard input");
    if (source == "-" && arguments.has("password-stdin"))
        return reportError("'-' reads the share from standard input, so the password cannot "
                           "come from it too: leave out --password-stdin and type it at the "
                           "prompt");
    if (arguments.has("all") && arguments.has("record"))
        return reportError("give --all or --record N, not both");
    // Read before the password is asked: it needs no vault.
    const auto envelope = readShare(source);
    if (!envelope)
        return reportError(envelope.error());

    const bool dryRun = arguments.has("dry-run");
    auto session =
        openSession(arguments, path, 1, dryRun ? std::nullopt : std::optional(lockWait(arguments)));
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    const auto share = vault::openShare(open.vault, *envelope);
    if (!share)
        return reportFileError(source == "-" ? "standard input" : source, share.error().message);

    const auto chosen = chosenRecords(arguments, *share);
    if (!chosen)
        return reportError(chosen.error());
    const bool unknown = share->senderStatus == vault::SenderStatus::Unknown;
    const bool refusedUnknown =
        unknown && !chosen->empty() && !dryRun && !arguments.has("accept-unknown");

    std::vector<vault::RecordId> added;
    if (!dryRun && !refusedUnknown && !chosen->empty()) {
        auto ids = vault::addReceived(open.vault, *share, *chosen, currentUnixSeconds());
        if (!ids)
            return reportFileError(path, ids.error().message);
        if (const int saved = save(open); saved != exitOk)
            return saved;
        added = std::move(*ids);
    }

    if (arguments.has("json")) {
        auto records = nlohmann::json::array();
        for (std::size_t i = 0; i < share->records.size(); ++i) {
            const auto& record = share->records[i];
            const auto [kind, title] = describe(record.record);
            records.push_back({{"index", i + 1},
                               {"kind", kind},
                               {"title", title},
                               {"duplicate_of", record.duplicateOf ? nlohmann::json(recordIdHex(
                                                                         *record.duplicateOf))
                                                                   : nlohmann::json(nullptr)}});
        }
        auto addedIds = nlohmann::json::array();
        for (const auto& id : added)
            addedIds.push_back(recordIdHex(id));
        printJson({{"envelope_id", keyHex(share->envelopeId)},
                   {"created", share->created},
                   {"sender",
                    {{"public_key", keyHex(share->sender)},
                     {"fingerprint", share->senderFingerprint},
                     {"status", statusName(share->senderStatus)},
                     {"name", share->senderName}}},
                   {"other_recipients", share->otherRecipients},
                   {"already_received", share->alreadyReceived},
                   {"records", records},
                   {"added", addedIds},
                   {"dry_run", dryRun}});
    } else {
        printLine("share " + senderLine(*share));
        printLine("sent " + utcText(share->created) +
                  (share->otherRecipients == 0
                       ? std::string(", to you only")
                       : ", to you and " +
                             countText(share->otherRecipients, "other person", "other people")));
        if (share->alreadyReceived)
            printLine("already received: records from this share are in the vault");
        for (std::size_t i = 0; i < share->records.size(); ++i) {
            const auto& record = share->records[i];
            const auto [kind, title] = describe(record.record);
            const bool adding = std::find(chosen->begin(), chosen->end(), i) != chosen->end();
            printLine(std::to_string(i + 1) + ". " + kind + " " + title +
                      (record.duplicateOf
                           ? "  [already in the vault: " + recordIdHex(*record.duplicateOf) + "]"
                           : "") +
                      (dryRun || refusedUnknown ? ""
                       : adding                 ? "  added"
                                                : "  not added"));
        }
        if (dryRun)
            printLine("dry run: nothing was added");
        else if (!refusedUnknown)
            printLine(added.empty() ? "nothing was added"
                                    : "added " + countText(added.size(), "record", "records") +
                                          " to " + path);
    }
    if (refusedUnknown)
        return reportFileError(path, "not added: the sender is not one of your contacts "
                                     "(fingerprint " +
                                         share->senderFingerprint +
                                         "). Add them with contacts add, compare the "
                                         "fingerprint, or receive with --accept-unknown");
    return exitOk;
}

} // namespace

int runShareCommand(const std::vector<std::string>& args)
{
    static const FileSubcommand command{"share",
                                        {{"to", true, true},
                                         {"record", true, true},
                                         {"out", true},
                                         {"text"},
                                         {"qr", true},
                                         {"password-stdin"}},
                                        1,
                                        "FILE",
                                        runShare};
    return runFileCommand(command, shareUsage, args);
}

int runReceiveCommand(const std::vector<std::string>& args)
{
    static const FileSubcommand command{"receive",
                                        {{"record", true, true},
                                         {"all"},
                                         {"accept-unknown"},
                                         {"dry-run"},
                                         {"json"},
                                         {"password-stdin"},
                                         {"wait", true}},
                                        2,
                                        "FILE and SHARE",
                                        runReceive};
    return runFileCommand(command, receiveUsage, args);
}

} // namespace watchword::cli
