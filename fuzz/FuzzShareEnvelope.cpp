// Fuzz target: a share envelope as anyone can hand it over (docs/FORMAT.md
// section 12): a .wwshare file, pasted text or a QR code's text, opened by
// a fixed recipient (vector a's of tests/data/share/envelope_vectors.json).
//
// Input: one byte for the mode, then the data.
//   even  envelopeFromData then openEnvelope: the carriers' readers and the
//         structure checks of 12.4 (a tag or a signature stops a random
//         input long before the records; the seeds are real envelopes, so
//         mutations land in every field). What opens must be for this
//         recipient, from a valid key, with 1 to 256 records of kind 1 or 2.
//         Text that reads as an envelope must read back the same after
//         armourEnvelope.
//   odd   the data sealed as one note's fields to the recipient and opened
//         again: the round trip must give the same bytes, and every
//         truncation of the sealed envelope must be refused.
#include "FuzzCheck.h"
#include "crypto/Random.h"
#include "share/Envelope.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using namespace watchword;
using watchword::fuzz::equalBytes;
using watchword::fuzz::expect;

constexpr std::array<std::uint8_t, 32> recipientSecret = {
    0x29, 0xe8, 0xc3, 0xd9, 0xd6, 0x28, 0x0a, 0x3d, 0xbc, 0xdd, 0xda, 0x03, 0xb2, 0xf9, 0x9b, 0x2a,
    0x64, 0xd3, 0xc4, 0xff, 0xaa, 0x65, 0x3b, 0x9a, 0xb9, 0x29, 0x68, 0x80, 0x78, 0x1e, 0x5b, 0xf4};
constexpr std::array<std::uint8_t, 32> senderSecret = {
    0x92, 0x67, 0x71, 0x4d, 0x3e, 0xad, 0x32, 0xf5, 0xea, 0x01, 0xd7, 0xe3, 0x3e, 0xb3, 0x8a, 0x6e,
    0xc0, 0x41, 0xa3, 0x6a, 0x9e, 0x4f, 0x41, 0x00, 0x89, 0xa0, 0x4c, 0xd0, 0x86, 0x36, 0x24, 0x7b};

keychain::KeyPair keyPair(const std::array<std::uint8_t, 32>& secret)
{
    auto key = crypto::SecretKey::fromBytes(ByteView(secret)).value();
    auto publicKey = key.publicKey();
    return {std::move(key), publicKey};
}

// Not random at all: the fuzzer must be deterministic.
class CountingRandom final : public crypto::RandomSource
{
public:
    void fill(std::span<std::uint8_t> out) override
    {
        for (auto& byte : out)
            byte = static_cast<std::uint8_t>(++m_next * 0x9d + 0x21);
    }

private:
    std::uint32_t m_next = 0;
};

void openAny(ByteView data, const keychain::KeyPair& me)
{
    auto envelope = share::envelopeFromData(data);
    if (!envelope)
        return;
    const bool binary =
        data.size() >= share::envelopeMagic.size() &&
        std::equal(share::envelopeMagic.begin(), share::envelopeMagic.end(), data.begin());
    if (!binary) {
        const auto armoured = share::armourEnvelope(*envelope);
        const auto again = share::envelopeFromText(armoured);
        expect(again.ok() && *again == *envelope, "armoured text reads back the same bytes");
    }
    const auto opened = share::openEnvelope(*envelope, me);
    if (!opened)
        return;
    const auto mine = me.publicKey.compressed();
    expect(std::find(opened->recipients.begin(), opened->recipients.end(), mine) !=
               opened->recipients.end(),
           "an opened envelope names its reader");
    expect(crypto::PublicKey::fromSec1(opened->sender).ok(), "the sender is a valid key");
    expect(!opened->records.empty() && opened->records.size() <= share::maximumSharedRecords,
           "1 to 256 records");
    for (const auto& record : opened->records)
        expect(record.kind == share::sharedAccountKind || record.kind == share::sharedNoteKind,
               "records are accounts or notes");
}

void roundTrip(ByteView fields, const keychain::KeyPair& me)
{
    static const auto sender = keyPair(senderSecret);
    CountingRandom random;
    std::vector<share::SharedRecord> records;
    records.push_back({share::sharedNoteKind, SecureBuffer(fields)});
    const std::array<crypto::PublicKey, 1> to{me.publicKey};
    const auto sealed = share::sealEnvelope(random, sender, to, records, 1767312000);
    expect(sealed.ok(), "any fields up to the size limit can be sealed");
    const auto opened = share::openEnvelope(*sealed, me);
    expect(opened.ok() && opened->records.size() == 1 &&
               equalBytes(opened->records.front().fields, fields),
           "what is sealed opens to the same fields");
    for (const std::size_t cut : {sealed->size() - 1, sealed->size() / 2, std::size_t{8}})
        expect(!share::openEnvelope(ByteView(*sealed).first(cut), me).ok(),
               "a truncated envelope is refused");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    static const auto me = keyPair(recipientSecret);
    const ByteView input(data + 1, size - 1);
    if (data[0] % 2 == 0)
        openAny(input, me);
    else if (input.size() <= 64 * 1024)
        roundTrip(input, me);
    return 0;
}
