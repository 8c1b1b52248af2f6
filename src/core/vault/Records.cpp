#include "vault/Records.h"

#include "crypto/Secp256k1.h"
#include "encoding/DisplayText.h"
#include "encoding/Utf8.h"
#include "vault/BigEndian.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace watchword::vault {

namespace {

constexpr std::size_t fieldHeaderSize = 1 + 4;

// True if text is well-formed UTF-8 and holds no NUL.
bool isCleanUtf8(std::string_view text) noexcept
{
    return text.find('\0') == std::string_view::npos && encoding::isUtf8(text);
}

std::string_view textOf(ByteView bytes) noexcept
{
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::string tagName(std::uint8_t tag)
{
    static constexpr char digits[] = "0123456789abcdef";
    return std::string("field 0x") + digits[tag >> 4] + digits[tag & 0x0f];
}

// One device's count in field 0x11: device (8) || count (8).
constexpr std::size_t changeSize = deviceIdSize + 8;

// Writes fields, or only counts their size when out is null: the same code
// runs twice, once to size the SecureBuffer and once to fill it, so secret
// bytes never pass through a growing vector.
class FieldWriter
{
public:
    explicit FieldWriter(std::uint8_t* out) noexcept : m_out(out) {}

    std::size_t size() const noexcept { return m_size; }

    void bytes(std::uint8_t tag, ByteView value) noexcept
    {
        if (m_out) {
            m_out[m_size] = tag;
            detail::writeBigEndian(m_out + m_size + 1, static_cast<std::uint32_t>(value.size()));
            if (!value.empty())
                std::memcpy(m_out + m_size + fieldHeaderSize, value.data(), value.size());
        }
        m_size += fieldHeaderSize + value.size();
    }
    void text(std::uint8_t tag, std::string_view value) noexcept { bytes(tag, asBytes(value)); }
    void receivedFrom(const std::optional<ReceivedFrom>& from) noexcept
    {
        if (!from)
            return;
        std::array<std::uint8_t, receivedFromSize> value;
        std::copy(from->envelopeId.begin(), from->envelopeId.end(), value.begin());
        std::copy(from->sender.begin(), from->sender.end(),
                  value.begin() + from->envelopeId.size());
        bytes(field::receivedFrom, value);
    }
    // 0x11, written only when some device changed the record.
    void changes(const Changes& changes) noexcept
    {
        if (changes.empty())
            return;
        if (m_out) {
            m_out[m_size] = field::changes;
            detail::writeBigEndian(m_out + m_size + 1,
                                   static_cast<std::uint32_t>(changes.size() * changeSize));
            std::uint8_t* at = m_out + m_size + fieldHeaderSize;
            for (const auto& change : changes) {
                std::memcpy(at, change.device.data(), deviceIdSize);
                detail::writeBigEndian(at + deviceIdSize, change.count);
                at += changeSize;
            }
        }
        m_size += fieldHeaderSize + changes.size() * changeSize;
    }
    void optionalText(std::uint8_t tag, std::string_view value) noexcept
    {
        if (!value.empty())
            text(tag, value);
    }
    template <typename Integer> void integer(std::uint8_t tag, Integer value) noexcept
    {
        using Unsigned = std::make_unsigned_t<Integer>;
        std::uint8_t buffer[sizeof(Unsigned)];
        detail::writeBigEndian(buffer, static_cast<Unsigned>(value));
        bytes(tag, ByteView(buffer, sizeof buffer));
    }

private:
    std::uint8_t* m_out;
    std::size_t m_size = 0;
};

void writeFields(FieldWriter& writer, const OtpAccount& account) noexcept
{
    const auto& parameters = account.parameters;
    writer.optionalText(field::issuer, account.issuer);
    writer.optionalText(field::accountName, account.accountName);
    writer.bytes(field::secret, account.secret.span());
    writer.integer(field::otpKind, otpKindCode(parameters.kind));
    writer.integer(field::algorithm, algorithmCode(parameters.algorithm));
    writer.integer(field::digits, static_cast<std::uint8_t>(parameters.digits));
    if (parameters.isTimeBased())
        writer.integer(field::period, parameters.period);
    else
        writer.integer(field::counter, parameters.counter);
    for (const auto& tag : account.tags)
        writer.text(field::tag, tag);
    writer.optionalText(field::note, account.note);
    writer.optionalText(field::iconReference, account.iconReference);
    writer.integer(field::created, account.created);
    writer.integer(field::modified, account.modified);
    if (account.lastUsed)
        writer.integer(field::lastUsed, *account.lastUsed);
    writer.integer(field::sortPosition, account.sortPosition);
    writer.receivedFrom(account.receivedFrom);
    writer.changes(account.changes);
}

void writeFields(FieldWriter& writer, const SecureNote& note) noexcept
{
    for (const auto& tag : note.tags)
        writer.text(field::tag, tag);
    writer.integer(field::created, note.created);
    writer.integer(field::modified, note.modified);
    writer.integer(field::sortPosition, note.sortPosition);
    writer.receivedFrom(note.receivedFrom);
    writer.changes(note.changes);
    writer.text(field::title, note.title);
    writer.bytes(field::body, note.body.span());
}

void writeFields(FieldWriter& writer, const Contact& contact) noexcept
{
    writer.integer(field::created, contact.created);
    writer.integer(field::modified, contact.modified);
    writer.integer(field::sortPosition, contact.sortPosition);
    writer.changes(contact.changes);
    writer.text(field::contactName, contact.name);
    writer.bytes(field::publicKey, contact.publicKey);
    writer.integer(field::verified, static_cast<std::uint8_t>(contact.verified ? 1 : 0));
}

VaultResult<void> checkText(std::string_view value, const char* name)
{
    if (!isCleanUtf8(value))
        return fail(VaultError::InvalidRecord,
                    std::string(name) + " is not UTF-8 text without NUL characters");
    return {};
}

// The rules on tags besides their text: 1..256 bytes each, no two equal.
VaultResult<void> checkTagShapes(const std::vector<std::string>& tags)
{
    for (std::size_t i = 0; i < tags.size(); ++i) {
        if (tags[i].empty() || tags[i].size() > maximumTagSize)
            return fail(VaultError::InvalidRecord, "a tag must have 1 to 256 bytes");
        for (std::size_t j = 0; j < i; ++j)
            if (tags[j] == tags[i])
                return fail(VaultError::InvalidRecord, "the tag \"" + tags[i] + "\" appears twice");
    }
    return {};
}

VaultResult<void> checkTagTexts(const std::vector<std::string>& tags)
{
    for (const auto& tag : tags)
        if (auto checked = checkText(tag, "a tag"); !checked)
            return checked;
    return {};
}

// Everything validateRecord() checks of an account except that its strings
// are clean UTF-8, which decoding has checked already as it read them.
VaultResult<void> checkAccountShape(const OtpAccount& account)
{
    if (account.secret.empty() || account.secret.size() > maximumSecretSize)
        return fail(VaultError::InvalidRecord, "an account secret must have 1 to 1024 bytes");
    if (const auto valid = otp::validate(account.parameters, account.secret.size()); !valid)
        return valid.failure(VaultError::InvalidRecord,
                             "the account's OTP parameters are invalid: ");
    return checkTagShapes(account.tags);
}

VaultResult<void> validateAccount(const OtpAccount& account)
{
    for (const auto& [value, name] :
         {std::pair{&account.issuer, "the issuer"},
          std::pair{&account.accountName, "the account name"}, std::pair{&account.note, "the note"},
          std::pair{&account.iconReference, "the icon reference"}})
        if (auto checked = checkText(*value, name); !checked)
            return checked;
    if (auto checked = checkTagTexts(account.tags); !checked)
        return checked;
    return checkAccountShape(account);
}

VaultResult<void> validateNote(const SecureNote& note)
{
    if (auto checked = checkText(note.title, "the note title"); !checked)
        return checked;
    if (auto checked = checkText(note.body.view(), "the note body"); !checked)
        return checked;
    if (auto checked = checkTagTexts(note.tags); !checked)
        return checked;
    return checkTagShapes(note.tags);
}

// Section 3's check of a public key: 33 bytes, prefix 02 or 03, x the
// x-coordinate of a point on the curve.
bool isCompressedPoint(ByteView key)
{
    return key.size() == contactKeySize && (key[0] == 0x02 || key[0] == 0x03) &&
           crypto::PublicKey::fromSec1(key).ok();
}

// The rules on a contact besides the name's text: 1..256 bytes, and a key
// that is a compressed point on the curve.
VaultResult<void> checkContactShape(const Contact& contact)
{
    if (contact.name.empty() || contact.name.size() > maximumContactNameSize)
        return fail(VaultError::InvalidRecord, "a contact's name must have 1 to 256 bytes");
    if (!isCompressedPoint(contact.publicKey))
        return fail(VaultError::InvalidRecord,
                    "a contact's public key must be a compressed secp256k1 point");
    return {};
}

VaultResult<void> validateContact(const Contact& contact)
{
    if (auto checked = checkText(contact.name, "the contact's name"); !checked)
        return checked;
    return checkContactShape(contact);
}

// One decoded field, pointing into the plaintext.
struct Field
{
    std::uint8_t tag;
    ByteView value;
};

Failure<Error<VaultError>> malformed(std::uint8_t tag, std::string what)
{
    return fail(VaultError::Malformed, "record " + tagName(tag) + ": " + std::move(what));
}

// Reads f as a big-endian Integer (exactly its size) into out and notes that
// the field was present.
template <typename Integer, typename Out>
VaultResult<void> readInteger(const Field& f, Out& out, bool& present)
{
    using Unsigned = std::make_unsigned_t<Integer>;
    if (f.value.size() != sizeof(Unsigned))
        return malformed(f.tag, "must be " + std::to_string(sizeof(Unsigned)) + " bytes");
    out = static_cast<Out>(static_cast<Integer>(detail::readBigEndian<Unsigned>(f.value.data())));
    present = true;
    return {};
}

// Reads f as a one-byte code 1, 2 or 3 into out, mapped through values.
template <typename Out>
VaultResult<void> readCode(const Field& f, const char* what, const Out (&values)[3], Out& out,
                           bool& present)
{
    std::uint8_t code = 0;
    if (auto read = readInteger<std::uint8_t>(f, code, present); !read)
        return read;
    if (code < 1 || code > 3)
        return malformed(f.tag,
                         std::string(what) + " " + std::to_string(code) + " is not 1, 2 or 3");
    out = values[code - 1];
    return {};
}

constexpr otp::OtpKind otpKinds[3] = {otp::OtpKind::Totp, otp::OtpKind::Hotp, otp::OtpKind::Steam};
constexpr crypto::HashAlgorithm algorithms[3] = {
    crypto::HashAlgorithm::Sha1, crypto::HashAlgorithm::Sha256, crypto::HashAlgorithm::Sha512};

// Checks f is clean UTF-8 and stores it in out (assigned in place: no
// temporary string per field).
VaultResult<void> readText(const Field& f, std::string& out)
{
    const auto text = textOf(f.value);
    if (!isCleanUtf8(text))
        return malformed(f.tag, "is not UTF-8 text without NUL characters");
    out.assign(text);
    return {};
}

// The tags each kind may hold, as bit masks over the tag value.
constexpr std::uint64_t tagBit(std::uint8_t tag) noexcept
{
    return std::uint64_t{1} << tag;
}
constexpr std::uint64_t accountTags = [] {
    std::uint64_t mask = 0;
    for (std::uint8_t tag = field::issuer; tag <= field::changes; ++tag)
        mask |= tagBit(tag);
    return mask;
}();
constexpr std::uint64_t noteTags = tagBit(field::tag) | tagBit(field::created) |
                                   tagBit(field::modified) | tagBit(field::sortPosition) |
                                   tagBit(field::receivedFrom) | tagBit(field::changes) |
                                   tagBit(field::title) | tagBit(field::body);
constexpr std::uint64_t contactTags = tagBit(field::created) | tagBit(field::modified) |
                                      tagBit(field::sortPosition) | tagBit(field::changes) |
                                      tagBit(field::contactName) | tagBit(field::publicKey) |
                                      tagBit(field::verified);

constexpr std::uint64_t tagsOf(RecordKind kind) noexcept
{
    switch (kind) {
    case RecordKind::OtpAccount:
        return accountTags;
    case RecordKind::SecureNote:
        return noteTags;
    case RecordKind::Contact:
        return contactTags;
    case RecordKind::Tombstone:
        return tagBit(field::modified) | tagBit(field::changes);
    }
    return 0;
}

std::string notAFieldOf(RecordKind kind)
{
    return "is not a field of " + std::string(kind == RecordKind::OtpAccount ? "an " : "a ") +
           std::string(kindName(kind));
}

// Walks the (tag, value) pairs of fields once, checking the framing, the
// ascending order (0x09 may repeat) and that every tag is allowed for kind,
// and hands each field to visit, which returns VaultResult<void>. Nothing is
// allocated: decoding 10,000 records is part of every unlock.
template <typename Visit>
VaultResult<void> forEachField(RecordKind kind, ByteView fields, Visit&& visit)
{
    const std::uint64_t allowed = tagsOf(kind);
    std::size_t at = 0;
    int previous = -1;
    while (at < fields.size()) {
        if (fields.size() - at < fieldHeaderSize)
            return fail(VaultError::Malformed, "record fields: a field header runs past the end");
        const std::uint8_t tag = fields[at];
        const std::uint32_t length = detail::readBigEndian<std::uint32_t>(fields.data() + at + 1);
        at += fieldHeaderSize;
        if (length > fields.size() - at)
            return malformed(tag, "its length runs past the end of the record");
        if (tag >= 64 || (allowed & tagBit(tag)) == 0)
            return malformed(tag, notAFieldOf(kind));
        if (tag < previous || (tag == previous && tag != field::tag))
            return malformed(tag, "is out of order or repeated");
        previous = tag;
        if (auto visited = visit(Field{tag, fields.subspan(at, length)}); !visited)
            return visited;
        at += length;
    }
    return {};
}

// Every kind's created, modified and sort position are required.
VaultResult<void> checkTimesPresent(bool hasCreated, bool hasModified, bool hasSort)
{
    if (!hasCreated || !hasModified || !hasSort)
        return malformed(!hasCreated    ? field::created
                         : !hasModified ? field::modified
                                        : field::sortPosition,
                         "a required time or sort position is missing");
    return {};
}

// 0x10: the envelope id, then the sender's key, a compressed point.
VaultResult<void> readReceivedFrom(const Field& f, std::optional<ReceivedFrom>& out)
{
    if (f.value.size() != receivedFromSize)
        return malformed(f.tag, "must have " + std::to_string(receivedFromSize) + " bytes, not " +
                                    std::to_string(f.value.size()));
    ReceivedFrom from;
    std::copy_n(f.value.begin(), from.envelopeId.size(), from.envelopeId.begin());
    std::copy_n(f.value.begin() + from.envelopeId.size(), from.sender.size(), from.sender.begin());
    if (!isCompressedPoint(from.sender))
        return malformed(f.tag, "the sender's key is not a compressed secp256k1 point");
    out = from;
    return {};
}

// 0x11: device (8) || count (8), devices ascending, counts at least 1.
VaultResult<void> readChanges(const Field& f, Changes& out)
{
    if (f.value.empty() || f.value.size() % changeSize != 0)
        return malformed(f.tag, "must be a non-zero multiple of 16 bytes, not " +
                                    std::to_string(f.value.size()));
    const std::size_t count = f.value.size() / changeSize;
    if (count > maximumChangeDevices)
        return malformed(f.tag, "names " + std::to_string(count) + " devices, more than " +
                                    std::to_string(maximumChangeDevices));
    out.clear();
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        Change change;
        const auto* at = f.value.data() + i * changeSize;
        std::copy_n(at, deviceIdSize, change.device.begin());
        change.count = detail::readBigEndian<std::uint64_t>(at + deviceIdSize);
        if (change.count == 0)
            return malformed(f.tag, "a device with no changes");
        if (!out.empty() && !(out.back().device < change.device))
            return malformed(f.tag, "devices out of order or repeated");
        out.push_back(change);
    }
    return {};
}

VaultResult<void> decodeAccount(ByteView fields, OtpAccount& account)
{
    bool hasSecret = false, hasKind = false, hasAlgorithm = false, hasDigits = false;
    bool hasPeriod = false, hasCounter = false, hasCreated = false, hasModified = false;
    bool hasSort = false, hasLastUsed = false;
    const auto walked =
        forEachField(RecordKind::OtpAccount, fields, [&](const Field& f) -> VaultResult<void> {
            switch (f.tag) {
            case field::issuer:
            case field::accountName:
            case field::note:
            case field::iconReference:
            case field::tag: {
                std::string& out = f.tag == field::issuer          ? account.issuer
                                   : f.tag == field::accountName   ? account.accountName
                                   : f.tag == field::note          ? account.note
                                   : f.tag == field::iconReference ? account.iconReference
                                                                   : account.tags.emplace_back();
                return readText(f, out);
            }
            case field::secret:
                account.secret = SecureBuffer(f.value);
                hasSecret = true;
                break;
            case field::otpKind:
                return readCode(f, "OTP kind", otpKinds, account.parameters.kind, hasKind);
            case field::algorithm:
                return readCode(f, "algorithm", algorithms, account.parameters.algorithm,
                                hasAlgorithm);
            case field::digits:
                return readInteger<std::uint8_t>(f, account.parameters.digits, hasDigits);
            case field::period:
                return readInteger<std::uint32_t>(f, account.parameters.period, hasPeriod);
            case field::counter:
                return readInteger<std::uint64_t>(f, account.parameters.counter, hasCounter);
            case field::created:
                return readInteger<std::int64_t>(f, account.created, hasCreated);
            case field::modified:
                return readInteger<std::int64_t>(f, account.modified, hasModified);
            case field::lastUsed:
                return readInteger<std::int64_t>(f, account.lastUsed.emplace(), hasLastUsed);
            case field::sortPosition:
                return readInteger<std::uint32_t>(f, account.sortPosition, hasSort);
            case field::receivedFrom:
                return readReceivedFrom(f, account.receivedFrom);
            case field::changes:
                return readChanges(f, account.changes);
            default:
                return malformed(f.tag, notAFieldOf(RecordKind::OtpAccount));
            }
            return {};
        });
    if (!walked)
        return walked.failure();
    if (!hasSecret)
        return malformed(field::secret, "the secret is missing");
    if (!hasKind)
        return malformed(field::otpKind, "the OTP kind is missing");
    if (!hasAlgorithm)
        return malformed(field::algorithm, "the algorithm is missing");
    if (!hasDigits)
        return malformed(field::digits, "the digit count is missing");
    if (account.parameters.isTimeBased() && !hasPeriod)
        return malformed(field::period, "a time-based account needs a period");
    if (account.parameters.isTimeBased() && hasCounter)
        return malformed(field::counter, "only an HOTP account has a counter");
    if (!account.parameters.isTimeBased() && !hasCounter)
        return malformed(field::counter, "an HOTP account needs a counter");
    if (!account.parameters.isTimeBased() && hasPeriod)
        return malformed(field::period, "an HOTP account has no period");
    if (auto present = checkTimesPresent(hasCreated, hasModified, hasSort); !present)
        return present;
    if (const auto valid = checkAccountShape(account); !valid)
        return valid.failure(VaultError::Malformed, "record: ");
    return {};
}

VaultResult<void> decodeNote(ByteView fields, SecureNote& note)
{
    bool hasCreated = false, hasModified = false, hasSort = false, hasTitle = false,
         hasBody = false;
    const auto walked =
        forEachField(RecordKind::SecureNote, fields, [&](const Field& f) -> VaultResult<void> {
            switch (f.tag) {
            case field::tag:
            case field::title: {
                if (f.tag == field::title)
                    hasTitle = true;
                return readText(f, f.tag == field::tag ? note.tags.emplace_back() : note.title);
            }
            case field::body:
                if (!isCleanUtf8(textOf(f.value)))
                    return malformed(f.tag, "is not UTF-8 text without NUL characters");
                note.body = SecureBuffer(f.value);
                hasBody = true;
                break;
            case field::created:
                return readInteger<std::int64_t>(f, note.created, hasCreated);
            case field::modified:
                return readInteger<std::int64_t>(f, note.modified, hasModified);
            case field::sortPosition:
                return readInteger<std::uint32_t>(f, note.sortPosition, hasSort);
            case field::receivedFrom:
                return readReceivedFrom(f, note.receivedFrom);
            case field::changes:
                return readChanges(f, note.changes);
            default:
                return malformed(f.tag, notAFieldOf(RecordKind::SecureNote));
            }
            return {};
        });
    if (!walked)
        return walked.failure();
    if (!hasTitle)
        return malformed(field::title, "the title is missing");
    if (!hasBody)
        return malformed(field::body, "the body is missing");
    if (auto present = checkTimesPresent(hasCreated, hasModified, hasSort); !present)
        return present;
    if (const auto valid = checkTagShapes(note.tags); !valid)
        return valid.failure(VaultError::Malformed, "record: ");
    return {};
}

VaultResult<void> decodeContact(ByteView fields, Contact& contact)
{
    bool hasCreated = false, hasModified = false, hasSort = false, hasName = false, hasKey = false,
         hasVerified = false;
    const auto walked =
        forEachField(RecordKind::Contact, fields, [&](const Field& f) -> VaultResult<void> {
            switch (f.tag) {
            case field::contactName:
                if (f.value.empty() || f.value.size() > maximumContactNameSize)
                    return malformed(f.tag, "the name must have 1 to 256 bytes, not " +
                                                std::to_string(f.value.size()));
                hasName = true;
                return readText(f, contact.name);
            case field::publicKey:
                if (f.value.size() != contactKeySize)
                    return malformed(f.tag, "the public key must be 33 bytes, not " +
                                                std::to_string(f.value.size()));
                if (!isCompressedPoint(f.value))
                    return malformed(f.tag, "the public key is not a compressed secp256k1 point");
                std::copy(f.value.begin(), f.value.end(), contact.publicKey.begin());
                hasKey = true;
                break;
            case field::verified: {
                std::uint8_t value = 0;
                if (auto read = readInteger<std::uint8_t>(f, value, hasVerified); !read)
                    return read;
                if (value > 1)
                    return malformed(f.tag,
                                     "verified is " + std::to_string(value) + ", not 0 or 1");
                contact.verified = value == 1;
                break;
            }
            case field::created:
                return readInteger<std::int64_t>(f, contact.created, hasCreated);
            case field::modified:
                return readInteger<std::int64_t>(f, contact.modified, hasModified);
            case field::sortPosition:
                return readInteger<std::uint32_t>(f, contact.sortPosition, hasSort);
            case field::changes:
                return readChanges(f, contact.changes);
            default:
                return malformed(f.tag, notAFieldOf(RecordKind::Contact));
            }
            return {};
        });
    if (!walked)
        return walked.failure();
    if (!hasName)
        return malformed(field::contactName, "the name is missing");
    if (!hasKey)
        return malformed(field::publicKey, "the public key is missing");
    if (!hasVerified)
        return malformed(field::verified, "verified is missing");
    return checkTimesPresent(hasCreated, hasModified, hasSort);
}

} // namespace

OtpAccount OtpAccount::clone() const
{
    OtpAccount copy;
    copy.id = id;
    copy.version = version;
    copy.issuer = issuer;
    copy.accountName = accountName;
    copy.secret = secret.clone();
    copy.parameters = parameters;
    copy.tags = tags;
    copy.note = note;
    copy.iconReference = iconReference;
    copy.created = created;
    copy.modified = modified;
    copy.lastUsed = lastUsed;
    copy.sortPosition = sortPosition;
    copy.receivedFrom = receivedFrom;
    copy.changes = changes;
    return copy;
}

SecureNote SecureNote::clone() const
{
    SecureNote copy;
    copy.id = id;
    copy.version = version;
    copy.title = title;
    copy.body = body.clone();
    copy.tags = tags;
    copy.created = created;
    copy.modified = modified;
    copy.sortPosition = sortPosition;
    copy.receivedFrom = receivedFrom;
    copy.changes = changes;
    return copy;
}

RecordKind kindOf(const Record& record) noexcept
{
    struct Kind
    {
        RecordKind operator()(const OtpAccount&) const noexcept { return RecordKind::OtpAccount; }
        RecordKind operator()(const SecureNote&) const noexcept { return RecordKind::SecureNote; }
        RecordKind operator()(const Contact&) const noexcept { return RecordKind::Contact; }
    };
    return std::visit(Kind{}, record);
}

std::string_view kindName(RecordKind kind) noexcept
{
    switch (kind) {
    case RecordKind::OtpAccount:
        return "account";
    case RecordKind::SecureNote:
        return "note";
    case RecordKind::Contact:
        return "contact";
    case RecordKind::Tombstone:
        return "deleted record";
    }
    return "record";
}

const RecordId& idOf(const Record& record) noexcept
{
    return std::visit([](const auto& r) -> const RecordId& { return r.id; }, record);
}

std::uint64_t versionOf(const Record& record) noexcept
{
    return std::visit([](const auto& r) { return r.version; }, record);
}

std::uint32_t sortPositionOf(const Record& record) noexcept
{
    return std::visit([](const auto& r) { return r.sortPosition; }, record);
}

Record cloneRecord(const Record& record)
{
    return std::visit([](const auto& r) { return Record(r.clone()); }, record);
}

void neutraliseLabels(Record& record)
{
    const auto neutraliseTags = [](std::vector<std::string>& tags) {
        std::vector<std::string> kept;
        for (const auto& tag : tags) {
            std::string label = encoding::neutralisedLabel(tag);
            if (!label.empty() && std::find(kept.begin(), kept.end(), label) == kept.end())
                kept.push_back(std::move(label));
        }
        tags = std::move(kept);
    };
    if (auto* account = std::get_if<OtpAccount>(&record)) {
        account->issuer = encoding::neutralisedLabel(account->issuer);
        account->accountName = encoding::neutralisedLabel(account->accountName);
        neutraliseTags(account->tags);
    } else if (auto* note = std::get_if<SecureNote>(&record)) {
        note->title = encoding::neutralisedLabel(note->title);
        neutraliseTags(note->tags);
    } else {
        auto& contact = std::get<Contact>(record);
        contact.name = encoding::neutralisedLabel(contact.name);
    }
}

namespace {

std::string joined(std::string_view issuer, std::string_view accountName, std::string_view between,
                   std::string_view after)
{
    if (issuer.empty() || accountName.empty())
        return std::string(issuer.empty() ? accountName : issuer);
    std::string text(issuer);
    text.append(between).append(accountName).append(after);
    return text;
}

} // namespace

std::string displayTitle(std::string_view issuer, std::string_view accountName)
{
    return joined(issuer, accountName, " (", ")");
}

std::string labelText(std::string_view issuer, std::string_view accountName)
{
    return joined(issuer, accountName, ":", "");
}

VaultResult<void> validateRecord(const Record& record)
{
    if (!wellFormed(changesOf(record)))
        return fail(VaultError::InvalidRecord,
                    "the record's changes are not in device order, or count zero");
    const auto senderIsAKey = [](const std::optional<ReceivedFrom>& from) -> VaultResult<void> {
        if (from && !isCompressedPoint(from->sender))
            return fail(VaultError::InvalidRecord,
                        "the sender of a received record is not a compressed secp256k1 point");
        return {};
    };
    if (const auto* account = std::get_if<OtpAccount>(&record)) {
        if (auto sender = senderIsAKey(account->receivedFrom); !sender)
            return sender;
        return validateAccount(*account);
    }
    if (const auto* note = std::get_if<SecureNote>(&record)) {
        if (auto sender = senderIsAKey(note->receivedFrom); !sender)
            return sender;
        return validateNote(*note);
    }
    return validateContact(std::get<Contact>(record));
}

VaultResult<SecureBuffer> encodeFields(const Record& record)
{
    if (auto valid = validateRecord(record); !valid)
        return valid.failure();
    FieldWriter counter(nullptr);
    std::visit([&](const auto& r) { writeFields(counter, r); }, record);
    SecureBuffer out(counter.size());
    FieldWriter writer(out.data());
    std::visit([&](const auto& r) { writeFields(writer, r); }, record);
    return out;
}

VaultResult<void> decodeFieldsInto(RecordKind kind, const RecordId& id, std::uint64_t version,
                                   ByteView fields, Record& out)
{
    switch (kind) {
    case RecordKind::OtpAccount: {
        auto& account = out.emplace<OtpAccount>();
        account.id = id;
        account.version = version;
        return decodeAccount(fields, account);
    }
    case RecordKind::SecureNote: {
        auto& note = out.emplace<SecureNote>();
        note.id = id;
        note.version = version;
        return decodeNote(fields, note);
    }
    case RecordKind::Contact: {
        auto& contact = out.emplace<Contact>();
        contact.id = id;
        contact.version = version;
        return decodeContact(fields, contact);
    }
    case RecordKind::Tombstone:
        break;
    }
    return fail(VaultError::Malformed,
                "record: unknown kind " + std::to_string(static_cast<int>(kind)));
}

VaultResult<Record> decodeFields(RecordKind kind, const RecordId& id, std::uint64_t version,
                                 ByteView fields)
{
    Record record;
    if (auto decoded = decodeFieldsInto(kind, id, version, fields, record); !decoded)
        return decoded.failure();
    return record;
}

VaultResult<SecureBuffer> encodeTombstone(const Tombstone& tombstone)
{
    if (!wellFormed(tombstone.changes) || tombstone.changes.empty())
        return fail(VaultError::InvalidRecord, "a deleted record's changes are not well formed");
    const auto write = [&](FieldWriter& writer) {
        writer.integer(field::modified, tombstone.deleted);
        writer.changes(tombstone.changes);
    };
    FieldWriter counter(nullptr);
    write(counter);
    SecureBuffer out(counter.size());
    FieldWriter writer(out.data());
    write(writer);
    return out;
}

VaultResult<Tombstone> decodeTombstone(const RecordId& id, std::uint64_t version, ByteView fields)
{
    Tombstone tombstone{id, version, 0, {}};
    bool hasDeleted = false;
    const auto walked =
        forEachField(RecordKind::Tombstone, fields, [&](const Field& f) -> VaultResult<void> {
            if (f.tag == field::modified)
                return readInteger<std::int64_t>(f, tombstone.deleted, hasDeleted);
            return readChanges(f, tombstone.changes);
        });
    if (!walked)
        return walked.failure();
    if (!hasDeleted)
        return malformed(field::modified, "a deleted record's time is missing");
    if (tombstone.changes.empty())
        return malformed(field::changes, "a deleted record's changes are missing");
    return tombstone;
}

const Changes& changesOf(const Record& record) noexcept
{
    return std::visit([](const auto& r) -> const Changes& { return r.changes; }, record);
}

std::uint8_t otpKindCode(otp::OtpKind kind) noexcept
{
    switch (kind) {
    case otp::OtpKind::Totp:
        return 1;
    case otp::OtpKind::Hotp:
        return 2;
    case otp::OtpKind::Steam:
        return 3;
    }
    return 0;
}

std::uint8_t algorithmCode(crypto::HashAlgorithm algorithm) noexcept
{
    switch (algorithm) {
    case crypto::HashAlgorithm::Sha1:
        return 1;
    case crypto::HashAlgorithm::Sha256:
        return 2;
    case crypto::HashAlgorithm::Sha512:
        return 3;
    }
    return 0;
}

bool sameCodes(ByteView secretA, const otp::OtpParameters& a, ByteView secretB,
               const otp::OtpParameters& b)
{
    if (a.kind != b.kind || a.algorithm != b.algorithm || a.digits != b.digits)
        return false;
    if (a.isTimeBased() && a.period != b.period)
        return false;
    return constantTimeEqual(secretA, secretB);
}

} // namespace watchword::vault
