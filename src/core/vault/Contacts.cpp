#include "vault/Contacts.h"

#include "encoding/DisplayText.h"
#include "encoding/Hex.h"
#include "encoding/Utf8.h"
#include "share/Identity.h"
#include "vault/VaultFile.h"

#include <algorithm>
#include <variant>

namespace watchword::vault {

namespace {

constexpr std::string_view asciiSpaces = " \t\r\n\v\f";

char lowerAscii(char c) noexcept
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalIgnoringAsciiCase(std::string_view a, std::string_view b) noexcept
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](char x, char y) { return lowerAscii(x) == lowerAscii(y); });
}

// text's words (runs of anything but ASCII white space) in lower case, one
// space between them, and how many there are.
std::pair<std::string, std::size_t> normalisedWords(std::string_view text)
{
    std::string words;
    std::size_t count = 0;
    std::size_t at = 0;
    while ((at = text.find_first_not_of(asciiSpaces, at)) != std::string_view::npos) {
        const std::size_t end = std::min(text.find_first_of(asciiSpaces, at), text.size());
        if (count++ != 0)
            words += ' ';
        for (const char c : text.substr(at, end - at))
            words += lowerAscii(c);
        at = end;
    }
    return {std::move(words), count};
}

// The contact (other than except) whose name equals name but for ASCII case.
const Contact* namedContact(const Vault& vault, std::string_view name,
                            const RecordId* except = nullptr)
{
    for (const Contact* contact : contactsOf(vault))
        if ((except == nullptr || contact->id != *except) &&
            equalIgnoringAsciiCase(contact->name, name))
            return contact;
    return nullptr;
}

Failure<Error<ContactError>> nameTaken(const Contact& other)
{
    return fail(ContactError::NameTaken,
                "another contact is already named \"" + other.name + "\": choose another name");
}

// The contact with id changed by change (which returns false to leave it as
// it is), modified now: whether it changed.
template <typename Change>
ContactResult<bool> changeContact(Vault& vault, const RecordId& id, std::int64_t now,
                                  Change&& change)
{
    const auto* stored = std::get_if<Contact>(vault.find(id));
    if (stored == nullptr)
        return fail(ContactError::NotFound,
                    "no contact with id " + encoding::toHex(ByteView(id.data(), id.size())));
    Contact changed = stored->clone();
    if (!change(changed))
        return false;
    changed.modified = now;
    if (auto updated = vault.update(std::move(changed)); !updated)
        return updated.failure(ContactError::VaultRefused);
    return true;
}

} // namespace

Result<crypto::PublicKey, std::string> identityInFile(ByteView file)
{
    if (file.size() >= fileMagic.size() &&
        std::equal(fileMagic.begin(), fileMagic.end(), file.begin())) {
        const auto info = decodeHeader(file);
        if (!info)
            return fail(info.error().message);
        if (!info->sharingPublicKey)
            return fail(std::string("this vault has no sharing identity yet: its owner gets one "
                                    "by checking the vault's recovery phrase once"));
        auto key = crypto::PublicKey::fromSec1(*info->sharingPublicKey);
        if (!key)
            return fail(std::string("the vault's sharing identity is not a valid key"));
        return std::move(key).value();
    }
    auto key = share::parseIdentityText(
        std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
    if (!key)
        return fail(key.error().message);
    return std::move(key).value();
}

std::vector<const Contact*> contactsOf(const Vault& vault)
{
    std::vector<const Contact*> contacts;
    for (const Record* record : sortedRecords(vault, RecordKind::Contact))
        contacts.push_back(&std::get<Contact>(*record));
    return contacts;
}

const Contact* contactWithKey(const Vault& vault,
                              const std::array<std::uint8_t, contactKeySize>& key)
{
    // One contact per key: the first found is the one.
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        if (const auto* contact = std::get_if<Contact>(&vault.record(i));
            contact != nullptr && contact->publicKey == key)
            return contact;
    return nullptr;
}

crypto::PublicKey publicKeyOf(const Contact& contact)
{
    return crypto::PublicKey::fromSec1(contact.publicKey).value();
}

ContactResult<std::string> contactName(std::string_view typed)
{
    std::string name = encoding::neutralisedLabel(typed);
    if (!encoding::isUtf8(name) || name.find('\0') != std::string::npos)
        return fail(ContactError::InvalidName, "a contact's name must be UTF-8 text");
    if (name.empty())
        return fail(ContactError::InvalidName, "a contact's name must not be empty");
    if (name.size() > maximumContactNameSize)
        return fail(ContactError::InvalidName,
                    "a contact's name must have at most 256 bytes, not " +
                        std::to_string(name.size()));
    return name;
}

ContactResult<const Contact*> findContact(const Vault& vault, std::string_view which)
{
    if (const Contact* contact = namedContact(vault, encoding::neutralisedLabel(which)))
        return contact;
    const auto contacts = contactsOf(vault);
    const auto [words, count] = normalisedWords(which);
    if (count == share::fingerprintWords)
        for (const Contact* contact : contacts)
            if (share::identityFingerprintText(publicKeyOf(*contact)) == words)
                return contact;
    // One word of hex digits: the start of an id.
    const std::string& prefix = words;
    if (count == 1 && prefix.size() >= minimumIdPrefixDigits && prefix.size() <= 2 * recordIdSize &&
        prefix.find_first_not_of("0123456789abcdef") == std::string::npos) {
        std::vector<const Contact*> matches;
        for (const Contact* contact : contacts)
            if (encoding::toHex(ByteView(contact->id.data(), contact->id.size()))
                    .starts_with(prefix))
                matches.push_back(contact);
        if (matches.size() == 1)
            return matches.front();
        if (matches.size() > 1)
            return fail(ContactError::Ambiguous,
                        "the id prefix " + prefix + " is the start of " +
                            std::to_string(matches.size()) +
                            " contacts' ids: give more digits, or the name");
    }
    return fail(ContactError::NotFound, "no contact is named \"" + std::string(which) +
                                            "\" or has it as fingerprint or id");
}

ContactResult<RecordId> addContact(Vault& vault, const crypto::PublicKey& key,
                                   std::string_view name, std::int64_t now,
                                   crypto::RandomSource& random)
{
    auto named = contactName(name);
    if (!named)
        return named.failure();
    if (const auto& own = vault.sharingKey(); own && own->publicKey == key)
        return fail(ContactError::OwnIdentity,
                    "that is your own identity: this vault's sharing key is not a contact");
    const auto compressed = key.compressed();
    if (const Contact* contact = contactWithKey(vault, compressed))
        return fail(ContactError::AlreadyAContact, "already a contact: " + contact->name);
    if (const Contact* other = namedContact(vault, *named))
        return nameTaken(*other);
    Contact contact;
    contact.name = std::move(named).value();
    contact.publicKey = compressed;
    contact.created = now;
    contact.modified = now;
    contact.sortPosition = nextSortPosition(vault);
    auto id = vault.add(std::move(contact), random);
    if (!id)
        return id.failure(ContactError::VaultRefused);
    return *id;
}

ContactResult<void> renameContact(Vault& vault, const RecordId& id, std::string_view name,
                                  std::int64_t now)
{
    auto named = contactName(name);
    if (!named)
        return named.failure();
    if (const Contact* other = namedContact(vault, *named, &id))
        return nameTaken(*other);
    auto renamed = changeContact(vault, id, now, [&](Contact& contact) {
        if (contact.name == *named)
            return false;
        contact.name = *named;
        return true;
    });
    if (!renamed)
        return renamed.failure();
    return {};
}

ContactResult<bool> setContactVerified(Vault& vault, const RecordId& id, bool verified,
                                       std::int64_t now)
{
    return changeContact(vault, id, now, [&](Contact& contact) {
        if (contact.verified == verified)
            return false;
        contact.verified = verified;
        return true;
    });
}

} // namespace watchword::vault
