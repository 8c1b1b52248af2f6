// watchword-cli contacts: the people a vault's owner shares with, kept sealed
// in the vault (docs/FORMAT.md section 6.4, kind 3), each their identity
// (section 11) under a name. The rules (one contact per key, distinct names,
// never the vault's own identity) and the finding are the core's
// (vault/Contacts.h); this file reads identities from text, QR images and
// files, and says what happened.
#include "Arguments.h"
#include "Cli.h"
#include "VaultCommand.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "share/Identity.h"
#include "vault/Contacts.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace watchword::cli {

namespace {

constexpr const char* usage =
    R"(usage: watchword-cli contacts add FILE (--text IDENTITY | --qr IMAGE | --from SOURCE)
                     --name NAME [--password-stdin] [--wait S]
       watchword-cli contacts list FILE [--json] [--password-stdin]
       watchword-cli contacts rename FILE CONTACT NEW-NAME [--password-stdin] [--wait S]
       watchword-cli contacts remove FILE CONTACT [--password-stdin] [--wait S]
       watchword-cli contacts verify FILE CONTACT [--not] [--password-stdin] [--wait S]

A contact is a person you share with: their identity (the watchword-id:...
text that 'watchword-cli identity show' prints on their computer) under a
name you choose, kept sealed in the vault FILE. Contacts are not accounts:
vault list, codes and export leave them out.

add      adds the identity as a contact named NAME, not verified, and prints
         its id and fingerprint. The identity comes from one of:
           --text IDENTITY  the text itself (it is public: the command line
                            is fine)
           --qr IMAGE       a PNG image of its QR code ('-': stdin)
           --from SOURCE    a file holding the text ('-': stdin), or their
                            vault file, whose header holds it
         Refused: a damaged identity (a letter changed or missing), your own
         identity, an identity that is a contact already, a NAME another
         contact has (names are compared without regard to case).
list     every contact: id, verified or not, name, fingerprint and identity
         text (--json: contacts [{id, name, verified, fingerprint, identity,
         public_key}]).
rename   gives CONTACT the name NEW-NAME.
remove   removes CONTACT from the vault.
verify   prints CONTACT's fingerprint, eight words, and marks CONTACT
         verified: do it after comparing the words with the person by another
         channel (aloud, side by side). --not marks it not verified again.

CONTACT is a contact's name (in any case), its eight fingerprint words, or
the first digits (4 or more) of its id, as contacts list prints them.

The vault password is never taken from the command line: it is asked on the
terminal with echo off, or read from the first line of standard input with
--password-stdin (then --qr - and --from - cannot take standard input too).
--wait S: a command that changes FILE waits up to S seconds (5 by default, 0
to 3600) while another process holds the vault's lock.

Exit status: 0 on success; 2 on bad arguments or input (an identity that is
damaged, not an identity or not found in IMAGE or SOURCE, an empty name; one
line on stderr, nothing on stdout); 1 if the operation failed or was refused:
the vault is missing, damaged or not a vault, wrong password, no such
contact, a contact already, a name taken, your own identity, the vault is
locked by another process. The vault file is never changed by a command that
fails.
)";

using KeyResult = Result<crypto::PublicKey, std::string>;

// The key of the identity text, or why it is not one, after what.
KeyResult keyOfText(std::string_view text, const std::string& what)
{
    auto key = share::parseIdentityText(text);
    if (!key)
        return fail(what + ": " + key.error().message);
    return std::move(key).value();
}

// The one identity among the QR codes of the PNG image at path.
KeyResult keyOfQrImage(const std::string& path)
{
    const auto texts = readQrTexts(path);
    if (!texts)
        return fail(texts.error().message);
    std::optional<crypto::PublicKey> found;
    std::string firstError;
    for (const auto& text : *texts) {
        auto key = keyOfText(text, path);
        if (!key) {
            if (firstError.empty())
                firstError = key.error();
            continue;
        }
        if (found && !(*found == *key))
            return fail(path + ": the image holds more than one identity: give one at a time");
        found = std::move(key).value();
    }
    if (!found)
        return fail(firstError);
    return std::move(*found);
}

// The identity in the file at path: its text, or, in a vault file, the
// identity its header names (as identity show reads it).
KeyResult keyOfFile(const std::string& path)
{
    const auto file = readInputFile(path, vault::maximumVaultFileSize);
    if (!file)
        return fail(file.error());
    auto key = vault::identityInFile(file->span());
    if (!key)
        return fail(path + ": " + key.error());
    return std::move(key).value();
}

KeyResult identityOf(const Arguments& arguments)
{
    if (const auto text = arguments.value("text"))
        return keyOfText(*text, "--text");
    if (const auto image = arguments.value("qr"))
        return keyOfQrImage(*image);
    return keyOfFile(*arguments.value("from"));
}

// Opens the vault at path (locked, to be changed), finds the contact that
// CONTACT (the second positional) names and runs change(open, contact);
// its exit status, or that of the failure reported on the way.
template <typename Change>
int withContact(const Arguments& arguments, const std::string& path, Change&& change)
{
    if (arguments.positionals()[1].empty())
        return reportError("CONTACT is empty: give a contact's name, fingerprint words or id");
    auto session = openSession(arguments, path, 1, lockWait(arguments));
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    const auto contact = vault::findContact(open.vault, arguments.positionals()[1]);
    if (!contact)
        return reportFileError(path, contact.error().message);
    return change(open, **contact);
}

int runAddContact(const Arguments& arguments, const std::string& path)
{
    const int sources =
        int(arguments.has("text")) + int(arguments.has("qr")) + int(arguments.has("from"));
    if (sources != 1)
        return reportError("contacts add takes the identity from one of --text IDENTITY, --qr "
                           "IMAGE and --from SOURCE");
    const auto typedName = arguments.value("name");
    if (!typedName)
        return reportError("contacts add needs --name NAME: what to call this person");
    if (arguments.has("password-stdin") &&
        (arguments.value("qr") == "-" || arguments.value("from") == "-"))
        return reportError("'-' takes the identity from standard input, so the password cannot "
                           "come from it too: leave out --password-stdin and type it at the "
                           "prompt");
    // Checked before the password is asked: neither needs the vault.
    const auto name = vault::contactName(*typedName);
    if (!name)
        return reportError("--name: " + name.error().message);
    const auto key = identityOf(arguments);
    if (!key)
        return reportError(key.error());

    auto session = openSession(arguments, path, 1, lockWait(arguments));
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    const auto id =
        vault::addContact(open.vault, *key, *name, currentUnixSeconds(), crypto::systemRandom());
    if (!id)
        return reportFileError(path, id.error().message);
    if (const int saved = save(open); saved != exitOk)
        return saved;
    printLine("added " + *name + ": " + recordIdHex(*id));
    printLine("fingerprint: " + share::identityFingerprintText(*key));
    printLine("not verified: compare the fingerprint with " + *name +
              " by another channel, then mark it with contacts verify");
    return exitOk;
}

int runListContacts(const Arguments& arguments, const std::string& path)
{
    auto session = openSession(arguments, path, 1, std::nullopt);
    if (!session.opened.open)
        return session.opened.status;
    const bool json = arguments.has("json");
    auto contacts = nlohmann::json::array();
    for (const auto* contact : vault::contactsOf(session.opened.open->vault)) {
        const auto key = vault::publicKeyOf(*contact);
        const std::string id = recordIdHex(contact->id);
        const std::string text = share::identityText(key);
        if (json) {
            auto words = nlohmann::json::array();
            for (const auto word : share::identityFingerprint(key))
                words.push_back(std::string(word));
            contacts.push_back({{"id", id},
                                {"name", contact->name},
                                {"verified", contact->verified},
                                {"fingerprint", words},
                                {"identity", text},
                                {"public_key", encoding::toHex(contact->publicKey)}});
        } else {
            printLine(id + (contact->verified ? "  verified      " : "  not verified  ") +
                      contact->name);
            printLine("    fingerprint: " + share::identityFingerprintText(key));
            printLine("    identity:    " + text);
        }
    }
    if (json)
        printJson({{"contacts", contacts}});
    return exitOk;
}

int runRenameContact(const Arguments& arguments, const std::string& path)
{
    const auto name = vault::contactName(arguments.positionals()[2]);
    if (!name)
        return reportError("NEW-NAME: " + name.error().message);
    return withContact(arguments, path, [&](OpenVault& open, const vault::Contact& contact) {
        const std::string before = contact.name;
        if (auto renamed =
                vault::renameContact(open.vault, contact.id, *name, currentUnixSeconds());
            !renamed)
            return reportFileError(path, renamed.error().message);
        if (const int saved = save(open); saved != exitOk)
            return saved;
        printLine("renamed " + before + " to " + *name);
        return exitOk;
    });
}

int runRemoveContact(const Arguments& arguments, const std::string& path)
{
    return withContact(arguments, path, [&](OpenVault& open, const vault::Contact& contact) {
        const std::string line = "removed " + contact.name + ": " + recordIdHex(contact.id);
        if (auto removed = open.vault.remove(contact.id); !removed)
            return reportFileError(path, removed.error().message);
        if (const int saved = save(open); saved != exitOk)
            return saved;
        printLine(line);
        return exitOk;
    });
}

int runVerifyContact(const Arguments& arguments, const std::string& path)
{
    const bool verified = !arguments.has("not");
    return withContact(arguments, path, [&](OpenVault& open, const vault::Contact& contact) {
        const std::string fingerprint = "fingerprint of " + contact.name + ": " +
                                        share::identityFingerprintText(vault::publicKeyOf(contact));
        const std::string name = contact.name;
        const auto changed =
            vault::setContactVerified(open.vault, contact.id, verified, currentUnixSeconds());
        if (!changed)
            return reportFileError(path, changed.error().message);
        if (*changed)
            if (const int saved = save(open); saved != exitOk)
                return saved;
        printLine(fingerprint);
        printLine(name + (*changed ? " is now marked " : " was already marked ") +
                  (verified ? "verified" : "not verified"));
        return exitOk;
    });
}

} // namespace

int runContacts(const std::vector<std::string>& args)
{
    static const std::vector<OptionSpec> changeOptions = {{"password-stdin"}, {"wait", true}};
    static const FileSubcommand subcommands[] = {
        {"add",
         {{"text", true},
          {"qr", true},
          {"from", true},
          {"name", true},
          {"password-stdin"},
          {"wait", true}},
         1,
         "FILE",
         runAddContact},
        {"list", {{"json"}, {"password-stdin"}}, 1, "FILE", runListContacts},
        {"rename", changeOptions, 3, "FILE, CONTACT and NEW-NAME", runRenameContact},
        {"remove", changeOptions, 2, "FILE and CONTACT", runRemoveContact},
        {"verify",
         {{"not"}, {"password-stdin"}, {"wait", true}},
         2,
         "FILE and CONTACT",
         runVerifyContact},
    };
    return runFileSubcommands("contacts", subcommands, usage, args);
}

} // namespace watchword::cli
