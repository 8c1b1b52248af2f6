// Fuzz target: decoding a record's fields (decodeFields), the plaintext that
// a record envelope seals. Only a writer that holds the vault's key gets bytes
// this far, but a buggy writer (another program, an older version) does, and
// this is the parser right after the envelope's tag check.
//
// Input: one byte for the kind (its remainder by 3: 1 OTP account, 2 secure
// note, 0 contact), then the fields. Besides not crashing, a decoded record must be one that
// validateRecord accepts and encodeFields writes back, and decoding that must
// give the same record. Writing may only drop fields: the optional strings
// that were present but empty (Records.h).
#include "FuzzCheck.h"
#include "vault/Records.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

namespace {

using namespace watchword;
using namespace watchword::vault;
using watchword::fuzz::equalBytes;
using watchword::fuzz::expect;
using watchword::fuzz::propertyBroken;

bool sameRecord(const OtpAccount& a, const OtpAccount& b)
{
    return a.id == b.id && a.version == b.version && a.issuer == b.issuer &&
           a.accountName == b.accountName && equalBytes(a.secret, b.secret) &&
           a.parameters == b.parameters && a.tags == b.tags && a.note == b.note &&
           a.iconReference == b.iconReference && a.created == b.created &&
           a.modified == b.modified && a.lastUsed == b.lastUsed &&
           a.sortPosition == b.sortPosition && a.receivedFrom == b.receivedFrom;
}

bool sameRecord(const SecureNote& a, const SecureNote& b)
{
    return a.id == b.id && a.version == b.version && a.title == b.title &&
           equalBytes(a.body, b.body) && a.tags == b.tags && a.created == b.created &&
           a.modified == b.modified && a.sortPosition == b.sortPosition &&
           a.receivedFrom == b.receivedFrom;
}

bool sameRecord(const Contact& a, const Contact& b)
{
    return a.id == b.id && a.version == b.version && a.name == b.name &&
           a.publicKey == b.publicKey && a.verified == b.verified && a.created == b.created &&
           a.modified == b.modified && a.sortPosition == b.sortPosition;
}

bool sameRecord(const Record& a, const Record& b)
{
    if (a.index() != b.index())
        return false;
    return std::visit(
        [&](const auto& first) {
            return sameRecord(first, std::get<std::decay_t<decltype(first)>>(b));
        },
        a);
}

constexpr RecordId recordId = {0xa1, 0xd9, 0xac, 0x0b, 0xc6, 0xe8, 0x6c, 0xc8,
                               0xc8, 0xab, 0xb4, 0x9e, 0x30, 0x1f, 0x9c, 0x06};
constexpr std::uint64_t recordVersion = 7;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const RecordKind kind = data[0] % 3 == 1   ? RecordKind::OtpAccount
                            : data[0] % 3 == 2 ? RecordKind::SecureNote
                                               : RecordKind::Contact;
    const ByteView fields(data + 1, size - 1);

    const auto decoded = decodeFields(kind, recordId, recordVersion, fields);
    if (!decoded) {
        expect(decoded.error().code == VaultError::Malformed, "a refused record is Malformed");
        return 0;
    }
    const Record& record = *decoded;
    expect(kindOf(record) == kind, "decoded: the kind asked for");
    expect(idOf(record) == recordId && versionOf(record) == recordVersion,
           "decoded: the id and version passed in");
    if (const auto valid = validateRecord(record); !valid)
        propertyBroken("decoded a record that validateRecord refuses: " + valid.error().message);

    const auto encoded = encodeFields(record);
    if (!encoded)
        propertyBroken("encodeFields refuses a decoded record: " + encoded.error().message);
    // Only empty optional strings (5 bytes each) may be dropped; with none
    // dropped, the encoding is the input itself (tags ascending, repeated
    // tags in their order, integers of fixed width).
    expect(encoded->size() <= fields.size() && (fields.size() - encoded->size()) % 5 == 0,
           "written back: at most some empty fields shorter");
    if (encoded->size() == fields.size())
        expect(equalBytes(*encoded, fields), "written back: the same bytes");

    const auto again = decodeFields(kind, recordId, recordVersion, *encoded);
    if (!again)
        propertyBroken("decodeFields refuses what encodeFields wrote: " + again.error().message);
    expect(sameRecord(*again, record), "written back: the same record");
    return 0;
}
