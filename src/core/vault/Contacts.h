// The vault's contacts (docs/FORMAT.md section 6.4, kind 3): the people its
// owner shares with, each a sharing key (section 11) under a name. What the
// CLI and the app both need: finding the contact a person means, and adding,
// renaming and marking one verified with the rules the format leaves to
// writers (one contact per key; names, compared without regard to ASCII
// case, distinct; never the vault's own identity).
#pragma once

#include "base/Result.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "vault/Records.h"
#include "vault/Vault.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::vault {

enum class ContactError {
    InvalidName,     // empty, over 256 bytes once neutralised, or not UTF-8 without NUL
    NotFound,        // no contact has that name, fingerprint or id
    Ambiguous,       // an id prefix of several contacts
    AlreadyAContact, // a contact already has this public key
    NameTaken,       // another contact already has this name
    OwnIdentity,     // the key is the vault's own sharing identity
    VaultRefused,    // the vault refused the change (the record's checks)
};

template <typename T> using ContactResult = Result<T, Error<ContactError>>;

// The sharing identity a file someone handed over holds: a vault file's
// header identity (public: no password needed), or else the identity text
// that is the file's content (share::parseIdentityText, spaces around it
// allowed). The message says why there is none: a vault without an
// identity yet (its owner checks their recovery phrase once), a damaged
// header, or the text's own refusal.
[[nodiscard]] Result<crypto::PublicKey, std::string> identityInFile(ByteView file);

// The shortest id prefix findContact takes, in hex digits.
inline constexpr std::size_t minimumIdPrefixDigits = 4;

// The vault's contacts in list order (section 6.3).
[[nodiscard]] std::vector<const Contact*> contactsOf(const Vault& vault);

// The contact whose public key is key (compressed), or null.
[[nodiscard]] const Contact* contactWithKey(const Vault& vault,
                                            const std::array<std::uint8_t, contactKeySize>& key);

// The public key of a contact the vault holds (its key was checked when it
// was added or read, so this cannot fail for one).
[[nodiscard]] crypto::PublicKey publicKeyOf(const Contact& contact);

// A name as a contact keeps it: neutralised as every label is
// (encoding::neutralisedLabel), then 1 to 256 bytes of UTF-8: else
// InvalidName. For checking what was typed before the vault is opened.
[[nodiscard]] ContactResult<std::string> contactName(std::string_view typed);

// The contact a person means by which: its name (exact, but ASCII letters in
// either case), its eight fingerprint words (separated by any spaces, in
// either case), or the start of its id in hex (at least 4 digits), tried in
// that order. NotFound, or Ambiguous for an id prefix of several contacts.
[[nodiscard]] ContactResult<const Contact*> findContact(const Vault& vault, std::string_view which);

// Adds key as a contact named name (contactName's rules), not verified,
// created and modified now, after the vault's other records. Refuses the
// vault's own identity (OwnIdentity), a key that is a contact already
// (AlreadyAContact, "already a contact: NAME") and a name another contact
// has (NameTaken). Returns the new contact's id.
[[nodiscard]] ContactResult<RecordId> addContact(Vault& vault, const crypto::PublicKey& key,
                                                 std::string_view name, std::int64_t now,
                                                 crypto::RandomSource& random);

// Gives the contact with id a new name (NameTaken if another contact has
// it; the same name in another case is the contact's own), modified now.
[[nodiscard]] ContactResult<void> renameContact(Vault& vault, const RecordId& id,
                                                std::string_view name, std::int64_t now);

// Marks the contact with id verified or not, modified now. Returns whether
// anything changed (false if it already was so: nothing is written then).
[[nodiscard]] ContactResult<bool> setContactVerified(Vault& vault, const RecordId& id,
                                                     bool verified, std::int64_t now);

} // namespace watchword::vault
