// The three kinds of vault record (OTP accounts, secure notes, contacts) and
// the encoding of their fields (the plaintext that a record envelope seals;
// docs/FORMAT.md section 6.4).
//
// Fields are a sequence of tag (1) || length (4, big-endian) || value, in
// ascending tag order; every tag at most once except 0x09 (one per tag
// label); unknown tags, and tags of the other kind, are errors. Strings are
// UTF-8 without NUL. Optional strings (issuer, account name, note, icon
// reference) are written only when non-empty; a reader takes a present empty
// one as empty, so both spellings decode to the same record.
#pragma once

#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "otp/OtpParameters.h"
#include "vault/Changes.h"
#include "vault/VaultError.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace watchword::vault {

inline constexpr std::size_t recordIdSize = 16;
using RecordId = std::array<std::uint8_t, recordIdSize>;

enum class RecordKind : std::uint8_t {
    OtpAccount = 1,
    SecureNote = 2,
    Contact = 3,   // version 2 and later files
    Tombstone = 4, // version 3: what is left of a deleted record (vault/Vault.h)
};

inline constexpr std::size_t maximumSecretSize = 1024;
inline constexpr std::size_t maximumTagSize = 256;
inline constexpr std::size_t maximumContactNameSize = 256;
inline constexpr std::size_t contactKeySize = 33; // a compressed secp256k1 point

// Field tags (docs/FORMAT.md section 6.4).
namespace field {
inline constexpr std::uint8_t issuer = 0x01;
inline constexpr std::uint8_t accountName = 0x02;
inline constexpr std::uint8_t secret = 0x03;
inline constexpr std::uint8_t otpKind = 0x04;
inline constexpr std::uint8_t algorithm = 0x05;
inline constexpr std::uint8_t digits = 0x06;
inline constexpr std::uint8_t period = 0x07;
inline constexpr std::uint8_t counter = 0x08;
inline constexpr std::uint8_t tag = 0x09;
inline constexpr std::uint8_t note = 0x0a;
inline constexpr std::uint8_t iconReference = 0x0b;
inline constexpr std::uint8_t created = 0x0c;
inline constexpr std::uint8_t modified = 0x0d;
inline constexpr std::uint8_t lastUsed = 0x0e;
inline constexpr std::uint8_t sortPosition = 0x0f;
inline constexpr std::uint8_t receivedFrom = 0x10;
inline constexpr std::uint8_t changes = 0x11;
inline constexpr std::uint8_t title = 0x21;
inline constexpr std::uint8_t body = 0x22;
inline constexpr std::uint8_t contactName = 0x31;
inline constexpr std::uint8_t publicKey = 0x32;
inline constexpr std::uint8_t verified = 0x33;
} // namespace field

// Where a record received from another person came from (field 0x10): the
// share envelope's id and its sender's sharing key (docs/FORMAT.md section
// 12). Set when a received record is added; never sent on.
struct ReceivedFrom
{
    std::array<std::uint8_t, 16> envelopeId{};
    std::array<std::uint8_t, contactKeySize> sender{}; // compressed, a point on the curve

    friend bool operator==(const ReceivedFrom&, const ReceivedFrom&) = default;
};
inline constexpr std::size_t receivedFromSize = 16 + contactKeySize;

// A one-time-password account. id and version belong to the vault: add()
// assigns them, update() bumps the version.
struct OtpAccount
{
    RecordId id{};
    std::uint64_t version = 0;
    std::string issuer;
    std::string accountName;
    SecureBuffer secret; // 1..maximumSecretSize bytes
    // period is stored for TOTP/Steam only, counter for HOTP only; the other
    // one decodes to its default.
    otp::OtpParameters parameters;
    std::vector<std::string> tags; // each 1..maximumTagSize bytes, no two equal
    std::string note;
    std::string iconReference;
    std::int64_t created = 0;  // Unix seconds
    std::int64_t modified = 0; // Unix seconds
    std::optional<std::int64_t> lastUsed;
    std::uint32_t sortPosition = 0;
    std::optional<ReceivedFrom> receivedFrom;
    Changes changes; // the vault counts them: add(), update(), merge()

    [[nodiscard]] OtpAccount clone() const;
};

// Moves what a person gives an account (issuer, account name, secret, code
// parameters, tags, note) from `from` into `to`, an OtpAccount or any type
// with those fields; what the vault keeps of its own (id, version, times,
// icon, place) stays as it was in `to`.
template <typename To> void moveEnteredFields(OtpAccount&& from, To& to)
{
    to.issuer = std::move(from.issuer);
    to.accountName = std::move(from.accountName);
    to.secret = std::move(from.secret);
    to.parameters = from.parameters;
    to.tags = std::move(from.tags);
    to.note = std::move(from.note);
}

// A sealed note: a title and a secret body.
struct SecureNote
{
    RecordId id{};
    std::uint64_t version = 0;
    std::string title;
    SecureBuffer body; // UTF-8 text
    std::vector<std::string> tags;
    std::int64_t created = 0;
    std::int64_t modified = 0;
    std::uint32_t sortPosition = 0;
    std::optional<ReceivedFrom> receivedFrom;
    Changes changes; // the vault counts them: add(), update(), merge()

    [[nodiscard]] SecureNote clone() const;
};

// A person the vault's owner shares with: their sharing key (the identity
// of docs/FORMAT.md section 11) under a name the owner chose. verified says
// the owner compared the key's fingerprint with that person by another
// channel; reading a key never sets it. Contacts are never exported, shared
// or shown as accounts (vault/Contacts.h finds, adds and changes them).
struct Contact
{
    RecordId id{};
    std::uint64_t version = 0;
    std::string name;                                     // 1..maximumContactNameSize bytes
    std::array<std::uint8_t, contactKeySize> publicKey{}; // compressed, a point on the curve
    bool verified = false;
    std::int64_t created = 0;
    std::int64_t modified = 0;
    std::uint32_t sortPosition = 0;
    Changes changes;

    [[nodiscard]] Contact clone() const { return *this; }
};

using Record = std::variant<OtpAccount, SecureNote, Contact>;

// What is left of a deleted record (kind 4, version 3 files): its id and
// its changes, the deletion counted, so that a merge with a copy made
// before the deletion deletes the record there too (docs/FORMAT.md section
// 13). Not a Record: a vault's records are the live ones.
struct Tombstone
{
    RecordId id{};
    std::uint64_t version = 0;
    std::int64_t deleted = 0; // Unix seconds (field 0x0d)
    Changes changes;          // field 0x11

    friend bool operator==(const Tombstone&, const Tombstone&) = default;
};

[[nodiscard]] VaultResult<SecureBuffer> encodeTombstone(const Tombstone& tombstone);
[[nodiscard]] VaultResult<Tombstone> decodeTombstone(const RecordId& id, std::uint64_t version,
                                                     ByteView fields);
[[nodiscard]] const Changes& changesOf(const Record& record) noexcept;

[[nodiscard]] RecordKind kindOf(const Record& record) noexcept;
// "account", "note" or "contact": a kind as messages name it.
[[nodiscard]] std::string_view kindName(RecordKind kind) noexcept;
[[nodiscard]] const RecordId& idOf(const Record& record) noexcept;
[[nodiscard]] std::uint64_t versionOf(const Record& record) noexcept;
[[nodiscard]] std::uint32_t sortPositionOf(const Record& record) noexcept;
[[nodiscard]] Record cloneRecord(const Record& record);

// Makes record's one-line labels (issuer, account name, note title, tags,
// contact name) show all they hold: encoding::neutralisedLabel on each (control characters
// become a space; bidirectional overrides and invisible characters go), then
// tags left empty or equal to an earlier one are dropped. Vault::add and
// Vault::update do this to every record they take.
void neutraliseLabels(Record& record);

// How an account is named to a person, in the app and in messages alike:
// "ACME (alice)", or whichever of the two is set.
[[nodiscard]] std::string displayTitle(std::string_view issuer, std::string_view accountName);
// The account as an otpauth label, as `watchword-cli vault list` shows it:
// "ACME:alice", or whichever of the two is set.
[[nodiscard]] std::string labelText(std::string_view issuer, std::string_view accountName);

// Checks that record can be stored: strings UTF-8 without NUL, tags 1..256
// bytes and distinct; accounts: a 1..1024-byte secret and parameters that
// otp::validate accepts; contacts: a 1..256-byte name and a public key that
// is a compressed secp256k1 point. Fails with InvalidRecord naming the field.
[[nodiscard]] VaultResult<void> validateRecord(const Record& record);

// The field encoding of record (validated first: InvalidRecord).
[[nodiscard]] VaultResult<SecureBuffer> encodeFields(const Record& record);

// Decodes the fields of a record of the given kind; id and version are copied
// into the result. Any violation of the encoding or of validateRecord() is
// Malformed, with the tag named.
[[nodiscard]] VaultResult<Record> decodeFields(RecordKind kind, const RecordId& id,
                                               std::uint64_t version, ByteView fields);
// The same, decoding straight into out (which it replaces), so that a vault
// opening thousands of records moves none of them. On failure out holds a
// partly decoded record of the given kind, to be discarded.
[[nodiscard]] VaultResult<void> decodeFieldsInto(RecordKind kind, const RecordId& id,
                                                 std::uint64_t version, ByteView fields,
                                                 Record& out);

// Whether two accounts would show the same codes: the same OTP kind,
// algorithm, digits and (time-based) period, and the same secret, compared
// in constant time. The HOTP counter is left out: it is where the account
// has got to, not what it is, so a copy taken a few codes later is still the
// same account.
[[nodiscard]] bool sameCodes(ByteView secretA, const otp::OtpParameters& a, ByteView secretB,
                             const otp::OtpParameters& b);

// The codes of docs/FORMAT.md section 6's OTP kind (TOTP 1, HOTP 2, Steam 3)
// and algorithm (SHA-1 1, SHA-256 2, SHA-512 3) fields; the watch export
// (section 8) uses the same.
[[nodiscard]] std::uint8_t otpKindCode(otp::OtpKind kind) noexcept;
[[nodiscard]] std::uint8_t algorithmCode(crypto::HashAlgorithm algorithm) noexcept;

} // namespace watchword::vault
