#include "share/Envelope.h"

#include "crypto/ChaCha20Poly1305.h"
#include "crypto/Hash.h"
#include "encoding/Base64.h"
#include "encoding/DisplayText.h"
#include "share/SenderDh.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace watchword::share {

namespace {

// 12.1 offsets.
constexpr std::size_t versionAt = 7;
constexpr std::size_t idAt = 8;
constexpr std::size_t createdAt = 24;
constexpr std::size_t senderAt = 32;
constexpr std::size_t prefixSize = 65; // magic to S
constexpr std::size_t countAt = 65;
constexpr std::size_t entriesAt = 66;
constexpr std::size_t keySize = crypto::PublicKey::compressedSize;
constexpr std::size_t contentKeySize = crypto::ChaCha20Poly1305::keySize;
constexpr std::size_t wrappedKeySize = contentKeySize + crypto::ChaCha20Poly1305::tagSize;
constexpr std::size_t nonceSize = crypto::ChaCha20Poly1305::nonceSize;
constexpr std::size_t recordHeaderSize = 5; // kind (1) || length (4)

static_assert(recipientEntrySize == 2 * keySize + wrappedKeySize);
static_assert(envelopeFixedSize == prefixSize + 1 + nonceSize + 4 + envelopeSignatureSize);

// The wrap AD: prefix || R_i || E_i.
using WrapAd = std::array<std::uint8_t, prefixSize + 2 * keySize>;

void appendBigEndian(Bytes& out, std::uint64_t value, int bytes)
{
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(value >> shift));
}

std::uint64_t readBigEndian(const std::uint8_t* at, int bytes) noexcept
{
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value = (value << 8) | at[i];
    return value;
}

Failure<Error<EnvelopeError>> malformed(std::string why)
{
    return fail(EnvelopeError::Malformed, "the share is damaged: " + std::move(why));
}

template <typename E> Failure<Error<EnvelopeError>> cryptoFailure(const Error<E>& error)
{
    return fail(EnvelopeError::CryptoDisabled, error.message);
}

WrapAd wrapAd(ByteView prefix, ByteView recipient, ByteView ephemeral)
{
    WrapAd ad;
    auto at = std::copy(prefix.begin(), prefix.end(), ad.begin());
    at = std::copy(recipient.begin(), recipient.end(), at);
    std::copy(ephemeral.begin(), ephemeral.end(), at);
    return ad;
}

// m = SHA-256(label || signed bytes).
std::array<std::uint8_t, crypto::schnorrMessageSize> signedMessage(ByteView signedBytes)
{
    Bytes input;
    input.reserve(envelopeSignatureLabel.size() + signedBytes.size());
    const auto label = asBytes(envelopeSignatureLabel);
    input.insert(input.end(), label.begin(), label.end());
    input.insert(input.end(), signedBytes.begin(), signedBytes.end());
    return crypto::sha256(input);
}

// 12.3: count (2) then kind (1) || length (4) || fields per record.
EnvelopeResult<std::vector<SharedRecord>> decodePlaintext(ByteView plaintext)
{
    if (plaintext.size() < 2)
        return malformed("its contents hold no record count");
    const auto count = static_cast<std::size_t>(readBigEndian(plaintext.data(), 2));
    if (count == 0 || count > maximumSharedRecords)
        return malformed("it holds " + std::to_string(count) + " records; a share holds 1 to " +
                         std::to_string(maximumSharedRecords));
    std::vector<SharedRecord> records;
    records.reserve(count);
    std::size_t at = 2;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string where = "record " + std::to_string(i + 1);
        if (plaintext.size() - at < recordHeaderSize)
            return malformed(where + " is cut off");
        const std::uint8_t kind = plaintext[at];
        if (kind != sharedAccountKind && kind != sharedNoteKind)
            return malformed(where + " is of kind " + std::to_string(kind) +
                             ", not an account (1) or a note (2)");
        const auto length = readBigEndian(plaintext.data() + at + 1, 4);
        at += recordHeaderSize;
        if (length > plaintext.size() - at)
            return malformed(where + " runs past the end of the contents");
        records.push_back({kind, SecureBuffer(plaintext.subspan(at, length))});
        at += length;
    }
    if (at != plaintext.size())
        return malformed(std::to_string(plaintext.size() - at) + " bytes follow the last record");
    return records;
}

} // namespace

EnvelopeResult<Bytes> sealEnvelope(crypto::RandomSource& random, const keychain::KeyPair& sender,
                                   std::span<const crypto::PublicKey> recipients,
                                   std::span<const SharedRecord> records, std::int64_t created)
{
    if (recipients.empty() || recipients.size() > maximumRecipients)
        return fail(EnvelopeError::InvalidContents,
                    "a share goes to 1 to " + std::to_string(maximumRecipients) + " people, not " +
                        std::to_string(recipients.size()));
    if (records.empty() || records.size() > maximumSharedRecords)
        return fail(EnvelopeError::InvalidContents,
                    "a share holds 1 to " + std::to_string(maximumSharedRecords) +
                        " records, not " + std::to_string(records.size()));
    std::vector<CompressedKey> recipientKeys;
    recipientKeys.reserve(recipients.size());
    for (const auto& recipient : recipients) {
        const auto key = recipient.compressed();
        if (std::find(recipientKeys.begin(), recipientKeys.end(), key) != recipientKeys.end())
            return fail(EnvelopeError::InvalidContents, "the same person is named twice");
        recipientKeys.push_back(key);
    }
    std::size_t plaintextSize = 2;
    for (const auto& record : records) {
        if (record.kind != sharedAccountKind && record.kind != sharedNoteKind)
            return fail(EnvelopeError::InvalidContents,
                        "only accounts and notes can be shared, not records of kind " +
                            std::to_string(record.kind));
        plaintextSize += recordHeaderSize + record.fields.size();
    }
    const std::size_t overhead = envelopeFixedSize + recipientEntrySize * recipients.size() +
                                 crypto::ChaCha20Poly1305::tagSize;
    if (plaintextSize > maximumEnvelopeSize - overhead)
        return fail(EnvelopeError::TooLarge,
                    "these records make a share of more than 1 MiB; share fewer at a time");

    SecureBuffer plaintext(plaintextSize);
    plaintext[0] = static_cast<std::uint8_t>(records.size() >> 8);
    plaintext[1] = static_cast<std::uint8_t>(records.size());
    std::size_t at = 2;
    for (const auto& record : records) {
        plaintext[at] = record.kind;
        for (int i = 0; i < 4; ++i)
            plaintext[at + 1 + i] = static_cast<std::uint8_t>(record.fields.size() >> (24 - 8 * i));
        std::copy(record.fields.begin(), record.fields.end(), plaintext.begin() + at + 5);
        at += recordHeaderSize + record.fields.size();
    }

    Bytes out;
    out.reserve(overhead + plaintextSize);
    const auto magic = asBytes(envelopeMagic);
    out.insert(out.end(), magic.begin(), magic.end());
    out.push_back(envelopeVersion);
    EnvelopeId id;
    random.fill(id);
    out.insert(out.end(), id.begin(), id.end());
    appendBigEndian(out, static_cast<std::uint64_t>(created), 8);
    const auto senderKey = sender.publicKey.compressed();
    out.insert(out.end(), senderKey.begin(), senderKey.end());
    out.push_back(static_cast<std::uint8_t>(recipients.size()));

    SecureBuffer contentKey(contentKeySize);
    random.fill(contentKey.span());
    constexpr std::array<std::uint8_t, nonceSize> zeroNonce{};
    for (std::size_t i = 0; i < recipients.size(); ++i) {
        auto wrapKey = senderNoteKey(random, recipients[i], envelopeKeyLabel);
        if (!wrapKey)
            return cryptoFailure(wrapKey.error());
        const auto& ephemeral = wrapKey->ephemeralPublicKey;
        auto aead = crypto::ChaCha20Poly1305::create(wrapKey->noteKey);
        if (!aead)
            return cryptoFailure(aead.error());
        const auto ad = wrapAd(ByteView(out).first(prefixSize), recipientKeys[i], ephemeral);
        auto wrapped = aead->encrypt(zeroNonce, ad, contentKey);
        if (!wrapped)
            return cryptoFailure(wrapped.error());
        out.insert(out.end(), recipientKeys[i].begin(), recipientKeys[i].end());
        out.insert(out.end(), ephemeral.begin(), ephemeral.end());
        out.insert(out.end(), wrapped->begin(), wrapped->end());
    }

    std::array<std::uint8_t, nonceSize> nonce;
    random.fill(nonce);
    out.insert(out.end(), nonce.begin(), nonce.end());
    appendBigEndian(out, plaintextSize + crypto::ChaCha20Poly1305::tagSize, 4);
    auto aead = crypto::ChaCha20Poly1305::create(contentKey);
    if (!aead)
        return cryptoFailure(aead.error());
    auto payload = aead->encrypt(nonce, out, plaintext);
    if (!payload)
        return cryptoFailure(payload.error());
    out.insert(out.end(), payload->begin(), payload->end());

    std::array<std::uint8_t, crypto::schnorrAuxSize> aux;
    random.fill(aux);
    auto signature = crypto::schnorrSign(sender.secretKey, signedMessage(out), aux);
    if (!signature)
        return cryptoFailure(signature.error());
    out.insert(out.end(), signature->begin(), signature->end());
    return out;
}

EnvelopeResult<OpenedEnvelope> openEnvelope(ByteView envelope, const keychain::KeyPair& me)
{
    // 1 to 3: size, magic, version.
    if (envelope.size() > maximumEnvelopeSize)
        return fail(EnvelopeError::TooLarge,
                    "the share is " + std::to_string(envelope.size()) +
                        " bytes; a share is at most 1 MiB (1,048,576 bytes)");
    const auto magic = asBytes(envelopeMagic);
    if (envelope.size() < magic.size() + 1 ||
        !std::equal(magic.begin(), magic.end(), envelope.begin()))
        return fail(EnvelopeError::NotAnEnvelope, "this is not a Watchword share");
    if (envelope[versionAt] != envelopeVersion)
        return fail(EnvelopeError::UnsupportedVersion, "this share is of version " +
                                                           std::to_string(envelope[versionAt]) +
                                                           "; this Watchword opens version 1 only");

    // 4: structure, and every key a point.
    if (envelope.size() <
        envelopeFixedSize + recipientEntrySize + crypto::ChaCha20Poly1305::tagSize)
        return malformed("it is cut off (" + std::to_string(envelope.size()) + " bytes)");
    const std::size_t count = envelope[countAt];
    if (count == 0 || count > maximumRecipients)
        return malformed("it names " + std::to_string(count) + " recipients; a share has 1 to " +
                         std::to_string(maximumRecipients));
    const std::size_t nonceAt = entriesAt + recipientEntrySize * count;
    const std::size_t payloadAt = nonceAt + nonceSize + 4;
    if (envelope.size() < payloadAt + crypto::ChaCha20Poly1305::tagSize + envelopeSignatureSize)
        return malformed("it is cut off (" + std::to_string(envelope.size()) + " bytes)");
    const auto payloadSize = readBigEndian(envelope.data() + nonceAt + nonceSize, 4);
    if (payloadSize < crypto::ChaCha20Poly1305::tagSize ||
        payloadSize != envelope.size() - payloadAt - envelopeSignatureSize)
        return malformed(
            "its length field says " + std::to_string(payloadSize) + " bytes of contents, and " +
            std::to_string(envelope.size() - payloadAt - envelopeSignatureSize) + " are there");
    auto senderKey = crypto::PublicKey::fromSec1(envelope.subspan(senderAt, keySize));
    if (!senderKey)
        return malformed("the sender's key is not a secp256k1 point");

    OpenedEnvelope opened;
    std::copy_n(envelope.begin() + idAt, envelopeIdSize, opened.id.begin());
    opened.created = static_cast<std::int64_t>(readBigEndian(envelope.data() + createdAt, 8));
    std::copy_n(envelope.begin() + senderAt, keySize, opened.sender.begin());
    opened.recipients.reserve(count);
    const auto myKey = me.publicKey.compressed();
    std::optional<std::size_t> mine;
    std::optional<crypto::PublicKey> myEphemeral;
    for (std::size_t i = 0; i < count; ++i) {
        const auto entry = envelope.subspan(entriesAt + recipientEntrySize * i, recipientEntrySize);
        const std::string where = "recipient " + std::to_string(i + 1) + "'s ";
        if (!crypto::PublicKey::fromSec1(entry.first(keySize)))
            return malformed(where + "key is not a secp256k1 point");
        auto ephemeral = crypto::PublicKey::fromSec1(entry.subspan(keySize, keySize));
        if (!ephemeral)
            return malformed(where + "ephemeral key is not a secp256k1 point");
        CompressedKey key;
        std::copy_n(entry.begin(), keySize, key.begin());
        if (std::find(opened.recipients.begin(), opened.recipients.end(), key) !=
            opened.recipients.end())
            return malformed("it names the same recipient twice");
        opened.recipients.push_back(key);
        if (key == myKey) {
            mine = i;
            myEphemeral = std::move(*ephemeral);
        }
    }

    // 5: my entry.
    if (!mine)
        return fail(EnvelopeError::NotForMe,
                    "this share is not for you: it is sealed to " +
                        encoding::countText(count, "other person", "other people") +
                        ", and your sharing key is not one of them");

    // 6: K.
    const auto entry = envelope.subspan(entriesAt + recipientEntrySize * *mine, recipientEntrySize);
    auto wrapKey = recipientNoteKey(me.secretKey, me.publicKey, *myEphemeral, envelopeKeyLabel);
    if (!wrapKey)
        return cryptoFailure(wrapKey.error());
    auto unwrap = crypto::ChaCha20Poly1305::create(*wrapKey);
    if (!unwrap)
        return cryptoFailure(unwrap.error());
    constexpr std::array<std::uint8_t, nonceSize> zeroNonce{};
    const auto ad =
        wrapAd(envelope.first(prefixSize), entry.first(keySize), entry.subspan(keySize, keySize));
    auto contentKey = unwrap->decrypt(zeroNonce, ad, entry.subspan(2 * keySize));
    if (!contentKey) {
        if (contentKey.error().code != crypto::ChaCha20Poly1305Error::AuthenticationFailed)
            return cryptoFailure(contentKey.error());
        return fail(EnvelopeError::Tampered,
                    "the share was changed after it was sealed: your copy of its key does not "
                    "open");
    }

    // 7: the payload.
    auto aead = crypto::ChaCha20Poly1305::create(*contentKey);
    if (!aead)
        return cryptoFailure(aead.error());
    auto plaintext = aead->decrypt(envelope.subspan(nonceAt, nonceSize), envelope.first(payloadAt),
                                   envelope.subspan(payloadAt, payloadSize));
    if (!plaintext) {
        if (plaintext.error().code != crypto::ChaCha20Poly1305Error::AuthenticationFailed)
            return cryptoFailure(plaintext.error());
        return fail(EnvelopeError::Tampered,
                    "the share was changed after it was sealed: its contents do not open");
    }

    // 8: the sender.
    const auto signedBytes = envelope.first(envelope.size() - envelopeSignatureSize);
    crypto::SchnorrSignature signature;
    std::copy_n(envelope.end() - envelopeSignatureSize, envelopeSignatureSize, signature.begin());
    auto verified = crypto::schnorrVerify(*senderKey, signedMessage(signedBytes), signature);
    if (!verified)
        return cryptoFailure(verified.error());
    if (!*verified)
        return fail(EnvelopeError::ForgedSender,
                    "the share is not signed by the sender it names: someone else made it, or "
                    "its signature was damaged");

    // 9: the records.
    auto records = decodePlaintext(*plaintext);
    if (!records)
        return records.failure();
    opened.records = std::move(*records);
    return opened;
}

// ---- Carriers --------------------------------------------------------------

std::string armourEnvelope(ByteView envelope)
{
    const auto body = encoding::toBase64(envelope);
    std::string out;
    out.reserve(armourBegin.size() + armourEnd.size() + body.size() +
                body.size() / armourLineLength + 3);
    out.append(armourBegin).push_back('\n');
    for (std::size_t at = 0; at < body.size(); at += armourLineLength)
        out.append(body, at, armourLineLength).push_back('\n');
    out.append(armourEnd).push_back('\n');
    return out;
}

EnvelopeResult<std::string> envelopeQrText(ByteView envelope)
{
    std::string text(qrTextPrefix);
    text += encoding::toBase64(envelope);
    if (text.size() > qrCapacity)
        return fail(EnvelopeError::TooLargeForQr,
                    "this share is " + std::to_string(envelope.size()) +
                        " bytes, too large for one QR code (up to 1,734 bytes): send it as a "
                        "file or as text");
    return text;
}

namespace {

bool isSpace(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

EnvelopeResult<Bytes> decodeBody(std::string_view body, std::string_view where)
{
    std::string compact;
    compact.reserve(body.size());
    for (const char c : body)
        if (!isSpace(c))
            compact.push_back(c);
    auto bytes = encoding::fromBase64(compact, encoding::Base64Alphabet::Standard);
    if (!bytes)
        return malformed(std::string(where) +
                         " is not valid Base64: a character was changed, lost or added");
    if (bytes->size() > maximumEnvelopeSize)
        return fail(EnvelopeError::TooLarge, "the share is more than 1 MiB");
    return std::move(*bytes);
}

} // namespace

EnvelopeResult<Bytes> envelopeFromText(std::string_view text)
{
    if (text.size() > maximumEnvelopeTextSize)
        return fail(EnvelopeError::TooLarge, "the text is " + std::to_string(text.size()) +
                                                 " bytes, more than a share of 1 MiB can be");
    if (const auto begin = text.find(armourBegin); begin != std::string_view::npos) {
        const auto bodyAt = begin + armourBegin.size();
        const auto end = text.find(armourEnd, bodyAt);
        if (end == std::string_view::npos)
            return malformed("the text has no \"" + std::string(armourEnd) +
                             "\" line: it was cut off");
        return decodeBody(text.substr(bodyAt, end - bodyAt), "the text between the lines");
    }
    auto trimmed = text;
    while (!trimmed.empty() && isSpace(trimmed.front()))
        trimmed.remove_prefix(1);
    while (!trimmed.empty() && isSpace(trimmed.back()))
        trimmed.remove_suffix(1);
    if (trimmed.starts_with(qrTextPrefix))
        return decodeBody(trimmed.substr(qrTextPrefix.size()), "the QR code's text");
    return fail(EnvelopeError::NotAnEnvelope, "this is not a Watchword share: it has no \"" +
                                                  std::string(armourBegin) + "\" line");
}

EnvelopeResult<Bytes> envelopeFromData(ByteView data)
{
    const auto magic = asBytes(envelopeMagic);
    if (data.size() >= magic.size() && std::equal(magic.begin(), magic.end(), data.begin())) {
        if (data.size() > maximumEnvelopeSize)
            return fail(EnvelopeError::TooLarge,
                        "the share is " + std::to_string(data.size()) +
                            " bytes; a share is at most 1 MiB (1,048,576 bytes)");
        return Bytes(data.begin(), data.end());
    }
    return envelopeFromText(
        std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
}

} // namespace watchword::share
