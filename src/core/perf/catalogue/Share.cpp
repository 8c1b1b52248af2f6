// share/*: a share envelope (docs/FORMAT.md section 12) sealed and opened,
// on the worked example of 12.6 (tests/data/share/envelope_vectors.json,
// vector a: one note of 49 bytes to one recipient), each against the same
// envelope written by hand in raw libsecp256k1 and OpenSSL EVP calls.
//
// The raw code is what an expert would write for one envelope: one
// EVP_CIPHER_CTX per envelope (EVP_chacha20_poly1305 at its first init, new
// key and nonce for the second message), the tags through EVP_CIPHER_CTX_ctrl,
// the envelope built in one buffer of its final size with the payload
// encrypted in place, and the signed message's SHA-256 through a new
// EVP_MD_CTX. The HKDF is crypto::hkdf, as the sender DH reference's, so
// that what the pair measures is our envelope code, not a different HKDF.
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/OpenSslHandles.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "keychain/Keychain.h"
#include "perf/catalogue/Catalogue.h"
#include "share/Envelope.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <optional>
#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace watchword::perf::entries {

namespace {

using crypto::PublicKey;
using crypto::SecretKey;

// ---- vector a (FORMAT.md 12.6) ------------------------------------------------

constexpr std::string_view kSenderSecretKey =
    "9267714d3ead32f5ea01d7e33eb38a6ec041a36a9e4f410089a04cd08636247b";
constexpr std::string_view kRecipientSecretKey =
    "29e8c3d9d6280a3dbcddda03b2f99b2a64d3c4ffaa653b9ab9296880781e5bf4";
constexpr std::int64_t kCreated = 1767312000; // 2026-01-02 00:00:00 UTC
// The random draws of the seal, in the order sealEnvelope makes them: the
// envelope id, K, e_1, the payload nonce and BIP340's auxiliary bytes.
constexpr std::string_view kEnvelopeId = "d3741f3cc52a2c7c0c13b29ca2bc0309";
constexpr std::string_view kContentKey =
    "ee3e363351d116a9a41c6f71dddd62e12a116a572d518f110be41b1e1309a1cf";
constexpr std::string_view kEphemeralSecretKey =
    "4378d96d8df12188dde4c975b66013a2f7cad52385e0e40eb770f1f4b6df4992";
constexpr std::string_view kPayloadNonce = "d912613cd3e9a16e9348e9c6";
constexpr std::string_view kAuxRandom =
    "45b70edc2b451a367bc3bdefba43246bb1063497b9521ea18e8043628c219546";
// The note "Door code" (49-byte body) as section 6.4 encodes its fields.
constexpr std::string_view kNoteFields =
    "0c0000000800000000695467800d00000008000000006955aaf00f000000040000000021000000"
    "09446f6f7220636f6465220000003146726f6e7420646f6f723a2034373131232c206761726167"
    "6520303831352a2c20616c61726d206f66663a20323538302e";
constexpr std::string_view kEnvelope =
    "5757534841524501d3741f3cc52a2c7c0c13b29ca2bc03090000000069570a80"
    "024e7823e01a0735aa2e1e3bf8ed09cb5382deab1ee250c272bc50c7cb60ba48"
    "640103af94d41bd7e6c68570485cfe71c67e5641822da580fb72bc8c770983dd"
    "92da8803cf607c138951732af0f5a3d57bce5feb698265db3680de4c986b1293"
    "233171200ad747b40888cc576e126718bfaff125a5475d63c81af5dee1d40634"
    "0a56fad9a3c3d86a4a66297776efe807a2d3db27d912613cd3e9a16e9348e9c6"
    "0000007ea4774c646b09582b5c70443e0c57f2e863cb3d8c43462d2d9702814a"
    "68764a9e66faa5c13fdc07ded790aec732e6b1bab7f75013f00b09379b89f7ba"
    "07a130745f547e8d0b82035055f8b52086f54a56b6143769a388a6da15b60715"
    "d04145728eabdb29f85a02f7a278530ebd0d9e5e1e6582607018273c9fc74512"
    "bc184f7950cd52ee30aa14ca43259ba6ea1a98e58d110465ebda39606bd25618"
    "985bef5684b68b08a4e1070bccad6cc8214da72ff489317ccbf143d2091ea494"
    "b895";

Bytes vectorARandom()
{
    Bytes script;
    for (const auto hex :
         {kEnvelopeId, kContentKey, kEphemeralSecretKey, kPayloadNonce, kAuxRandom})
        script = concatenate(script, bytesFromHex(hex));
    return script;
}

// ---- ours ---------------------------------------------------------------------

struct ShareInputs
{
    keychain::KeyPair sender;
    keychain::KeyPair recipient;
    std::vector<PublicKey> recipients; // the recipient's public key
    std::vector<share::SharedRecord> records;
};

std::optional<keychain::KeyPair> keyPairFromHex(std::string_view secretHex)
{
    auto secretKey = SecretKey::fromBytes(bytesFromHex(secretHex));
    if (!secretKey)
        return std::nullopt;
    auto publicKey = secretKey->publicKey();
    return keychain::KeyPair{std::move(secretKey).value(), std::move(publicKey)};
}

std::optional<ShareInputs> shareInputs()
{
    auto sender = keyPairFromHex(kSenderSecretKey);
    auto recipient = keyPairFromHex(kRecipientSecretKey);
    if (!sender || !recipient)
        return std::nullopt;
    ShareInputs inputs{std::move(*sender), std::move(*recipient), {}, {}};
    inputs.recipients.push_back(inputs.recipient.publicKey);
    inputs.records.push_back({share::sharedNoteKind, SecureBuffer(bytesFromHex(kNoteFields))});
    return inputs;
}

void appendBigEndian(Bytes& out, std::uint64_t value, int bytes)
{
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(value >> shift));
}

// What an opening gives, as bytes to compare: id, created (8, big-endian),
// sender, recipient count and keys, then the records as 12.3 encodes them.
// Records are anything with a kind and fields viewable as bytes.
template <typename Records>
Bytes describeOpened(ByteView id, std::int64_t created, ByteView sender,
                     const std::vector<ByteView>& recipients, const Records& records)
{
    Bytes out(id.begin(), id.end());
    appendBigEndian(out, static_cast<std::uint64_t>(created), 8);
    out.insert(out.end(), sender.begin(), sender.end());
    out.push_back(static_cast<std::uint8_t>(recipients.size()));
    for (const ByteView recipient : recipients)
        out.insert(out.end(), recipient.begin(), recipient.end());
    appendBigEndian(out, records.size(), 2);
    for (const auto& record : records) {
        const ByteView fields(record.fields);
        out.push_back(record.kind);
        appendBigEndian(out, fields.size(), 4);
        out.insert(out.end(), fields.begin(), fields.end());
    }
    return out;
}

Prepared prepareShareSeal()
{
    auto inputs = shareInputs();
    if (!inputs)
        return notPrepared("vector a's keys do not parse");
    if (ourFixedShareSeal() != bytesFromHex(kEnvelope))
        return notPrepared("share::sealEnvelope does not seal FORMAT.md 12.6's worked example");
    return prepared(loop([inputs = std::move(*inputs)] {
        auto sealed = share::sealEnvelope(crypto::systemRandom(), inputs.sender, inputs.recipients,
                                          inputs.records, kCreated);
        keep(sealed);
    }));
}

Prepared prepareShareOpen()
{
    auto inputs = shareInputs();
    if (!inputs)
        return notPrepared("vector a's keys do not parse");
    Bytes envelope = bytesFromHex(kEnvelope);
    if (!share::openEnvelope(envelope, inputs->recipient))
        return notPrepared("share::openEnvelope does not open FORMAT.md 12.6's worked example");
    return prepared(
        loop([recipient = std::move(inputs->recipient), envelope = std::move(envelope)] {
            auto opened = share::openEnvelope(envelope, recipient);
            keep(opened);
        }));
}

// ---- raw: libsecp256k1 and EVP ------------------------------------------------

// 12.1's layout.
constexpr std::size_t kKeySize = PublicKey::compressedSize;
constexpr std::size_t kIdAt = 8;
constexpr std::size_t kCreatedAt = 24;
constexpr std::size_t kSenderAt = 32;
constexpr std::size_t kPrefixSize = 65; // magic to S
constexpr std::size_t kCountAt = 65;
constexpr std::size_t kEntriesAt = 66;
constexpr std::size_t kWrappedAt = 2 * kKeySize; // in an entry: R || E || W
constexpr std::size_t kContentKeySize = 32;
constexpr std::size_t kNonceSize = 12;
constexpr std::size_t kTagSize = 16;
constexpr std::size_t kRecordHeaderSize = 5;
constexpr std::size_t kSignatureSize = share::envelopeSignatureSize;
constexpr std::array<std::uint8_t, kNonceSize> kZeroNonce{};

using SecretBytes = std::array<std::uint8_t, SecretKey::size>;

// A record as the raw code takes and gives it: its kind and a view of its
// fields.
struct RawRecord
{
    std::uint8_t kind = 0;
    ByteView fields;
};

// Vector a's keys as libsecp256k1 takes them, and its note.
struct RawInputs
{
    SecretBytes senderSecretKey{};
    secp256k1_pubkey senderPublicKey{};
    SecretBytes recipientSecretKey{};
    secp256k1_pubkey recipientPublicKey{};
    Bytes noteFields;
    std::array<RawRecord, 1> records{};

    RawInputs() = default;
    RawInputs(const RawInputs&) = delete;
    RawInputs& operator=(const RawInputs&) = delete;
    ~RawInputs()
    {
        secureWipe(senderSecretKey.data(), senderSecretKey.size());
        secureWipe(recipientSecretKey.data(), recipientSecretKey.size());
    }
};

bool rawKeyPair(std::string_view secretHex, SecretBytes& secretKey, secp256k1_pubkey& publicKey)
{
    const Bytes bytes = bytesFromHex(secretHex);
    if (bytes.size() != secretKey.size())
        return false;
    std::copy(bytes.begin(), bytes.end(), secretKey.begin());
    const secp256k1_context* context = crypto::secp256k1Context();
    return secp256k1_ec_seckey_verify(context, secretKey.data()) == 1 &&
           secp256k1_ec_pubkey_create(context, &publicKey, secretKey.data()) == 1;
}

std::unique_ptr<RawInputs> rawInputs()
{
    auto inputs = std::make_unique<RawInputs>();
    if (!rawKeyPair(kSenderSecretKey, inputs->senderSecretKey, inputs->senderPublicKey) ||
        !rawKeyPair(kRecipientSecretKey, inputs->recipientSecretKey, inputs->recipientPublicKey))
        return nullptr;
    inputs->noteFields = bytesFromHex(kNoteFields);
    inputs->records[0] = {share::sharedNoteKind, inputs->noteFields};
    return inputs;
}

void putBigEndian(std::uint8_t* at, std::uint64_t value, int bytes) noexcept
{
    for (int i = 0; i < bytes; ++i)
        at[i] = static_cast<std::uint8_t>(value >> (8 * (bytes - 1 - i)));
}

std::uint64_t readBigEndian(const std::uint8_t* at, int bytes) noexcept
{
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value = (value << 8) | at[i];
    return value;
}

bool addAssociatedData(EVP_CIPHER_CTX* context, ByteView data)
{
    int ignored = 0;
    return data.empty() || EVP_CipherUpdate(context, nullptr, &ignored, data.data(),
                                            static_cast<int>(data.size())) == 1;
}

// ChaCha20-Poly1305 of size bytes at in to out (in place allowed), the tag
// after them; the associated data in two pieces. cipher is
// EVP_chacha20_poly1305() at the context's first init, null after (the
// context keeps it; only key and nonce change).
bool evpSeal(EVP_CIPHER_CTX* context, const EVP_CIPHER* cipher, const std::uint8_t* key,
             const std::uint8_t* nonce, ByteView ad, ByteView moreAd, const std::uint8_t* in,
             std::size_t size, std::uint8_t* out)
{
    int written = 0;
    int finalWritten = 0;
    return EVP_EncryptInit_ex(context, cipher, nullptr, key, nonce) == 1 &&
           addAssociatedData(context, ad) && addAssociatedData(context, moreAd) &&
           EVP_EncryptUpdate(context, out, &written, in, static_cast<int>(size)) == 1 &&
           EVP_EncryptFinal_ex(context, out + written, &finalWritten) == 1 &&
           static_cast<std::size_t>(written + finalWritten) == size &&
           EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(kTagSize),
                               out + size) == 1;
}

// The opening of size bytes at in, their tag after them, into out.
bool evpOpen(EVP_CIPHER_CTX* context, const EVP_CIPHER* cipher, const std::uint8_t* key,
             const std::uint8_t* nonce, ByteView ad, ByteView moreAd, const std::uint8_t* in,
             std::size_t size, std::uint8_t* out)
{
    int written = 0;
    int finalWritten = 0;
    // EVP_CTRL_AEAD_SET_TAG only reads the tag, through a mutable pointer.
    auto* tag = const_cast<std::uint8_t*>(in + size);
    const bool opened =
        EVP_DecryptInit_ex(context, cipher, nullptr, key, nonce) == 1 &&
        addAssociatedData(context, ad) && addAssociatedData(context, moreAd) &&
        EVP_DecryptUpdate(context, out, &written, in, static_cast<int>(size)) == 1 &&
        static_cast<std::size_t>(written) == size &&
        EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(kTagSize), tag) == 1 &&
        EVP_DecryptFinal_ex(context, out + written, &finalWritten) == 1;
    if (!opened)
        ERR_clear_error();
    return opened;
}

// m = SHA-256(label || signed bytes), through a new EVP_MD_CTX.
bool evpSignedMessage(ByteView signedBytes, std::uint8_t* message)
{
    const crypto::DigestContext digest(EVP_MD_CTX_new());
    const ByteView label = asBytes(share::envelopeSignatureLabel);
    unsigned int size = 0;
    return digest && EVP_DigestInit_ex(digest.get(), EVP_sha256(), nullptr) == 1 &&
           EVP_DigestUpdate(digest.get(), label.data(), label.size()) == 1 &&
           EVP_DigestUpdate(digest.get(), signedBytes.data(), signedBytes.size()) == 1 &&
           EVP_DigestFinal_ex(digest.get(), message, &size) == 1 &&
           size == crypto::schnorrMessageSize;
}

// wrapKey = HKDF-SHA256(x(secret * point), salt = E || R, the envelope's label).
bool wrapKeyOf(const secp256k1_context* context, const std::uint8_t* secret,
               const secp256k1_pubkey& point, const std::uint8_t* ephemeral,
               const std::uint8_t* recipient, SecretBytes& shared, SecretBytes& wrapKey)
{
    std::array<std::uint8_t, 2 * kKeySize> salt;
    std::copy_n(ephemeral, kKeySize, salt.begin());
    std::copy_n(recipient, kKeySize, salt.begin() + kKeySize);
    return secp256k1_ecdh(context, shared.data(), &point, secret, perfCopyXCoordinate, nullptr) ==
               1 &&
           crypto::hkdf(crypto::HashAlgorithm::Sha256, shared, salt,
                        asBytes(share::envelopeKeyLabel), wrapKey)
               .ok();
}

bool serializeKey(const secp256k1_context* context, const secp256k1_pubkey& key, std::uint8_t* out)
{
    std::size_t size = kKeySize;
    return secp256k1_ec_pubkey_serialize(context, out, &size, &key, SECP256K1_EC_COMPRESSED) == 1 &&
           size == kKeySize;
}

// 12.4 step 4's check of a key (section 3): 02 or 03, then a point.
bool parseKey(const secp256k1_context* context, const std::uint8_t* at, secp256k1_pubkey& key)
{
    return (at[0] == 0x02 || at[0] == 0x03) &&
           secp256k1_ec_pubkey_parse(context, &key, at, kKeySize) == 1;
}

// The secrets of one seal or opening, wiped however it ends.
struct RawSecrets
{
    SecretBytes contentKey{};
    SecretBytes ephemeral{};
    SecretBytes shared{};
    SecretBytes wrapKey{};
    secp256k1_keypair keypair{};

    RawSecrets() = default;
    RawSecrets(const RawSecrets&) = delete;
    RawSecrets& operator=(const RawSecrets&) = delete;
    ~RawSecrets() { secureWipe(this, sizeof *this); }
};

// 12.2 into out, already of the envelope's size, with the checks of 12.1 made.
template <typename Random>
bool rawSealInto(const secp256k1_context* context, Random& random, const SecretBytes& senderSecret,
                 const secp256k1_pubkey& senderPublic, std::span<const secp256k1_pubkey> recipients,
                 std::span<const RawRecord> records, std::int64_t created, std::size_t payloadAt,
                 Bytes& out)
{
    std::uint8_t* const envelope = out.data();
    const std::size_t nonceAt = payloadAt - kNonceSize - 4;
    const std::size_t plaintextSize = out.size() - payloadAt - kTagSize - kSignatureSize;
    const std::size_t signatureAt = out.size() - kSignatureSize;
    RawSecrets secrets;

    std::memcpy(envelope, share::envelopeMagic.data(), share::envelopeMagic.size());
    envelope[share::envelopeMagic.size()] = share::envelopeVersion;
    random.fill(std::span(envelope + kIdAt, share::envelopeIdSize));
    putBigEndian(envelope + kCreatedAt, static_cast<std::uint64_t>(created), 8);
    if (!serializeKey(context, senderPublic, envelope + kSenderAt))
        return false;
    envelope[kCountAt] = static_cast<std::uint8_t>(recipients.size());

    random.fill(secrets.contentKey);
    const crypto::CipherContext cipher(EVP_CIPHER_CTX_new());
    if (!cipher)
        return false;
    for (std::size_t i = 0; i < recipients.size(); ++i) {
        std::uint8_t* const entry = envelope + kEntriesAt + share::recipientEntrySize * i;
        if (!serializeKey(context, recipients[i], entry))
            return false;
        for (std::uint8_t* earlier = envelope + kEntriesAt; earlier != entry;
             earlier += share::recipientEntrySize)
            if (std::memcmp(earlier, entry, kKeySize) == 0)
                return false;
        // e_i, drawn again while not a scalar (64 draws, as SecretKey::generate).
        int draws = 0;
        do
            random.fill(secrets.ephemeral);
        while (secp256k1_ec_seckey_verify(context, secrets.ephemeral.data()) != 1 && ++draws < 64);
        secp256k1_pubkey ephemeral;
        if (draws == 64 ||
            secp256k1_ec_pubkey_create(context, &ephemeral, secrets.ephemeral.data()) != 1 ||
            !serializeKey(context, ephemeral, entry + kKeySize) ||
            !wrapKeyOf(context, secrets.ephemeral.data(), recipients[i], entry + kKeySize, entry,
                       secrets.shared, secrets.wrapKey) ||
            !evpSeal(cipher.get(), i == 0 ? EVP_chacha20_poly1305() : nullptr,
                     secrets.wrapKey.data(), kZeroNonce.data(), ByteView(envelope, kPrefixSize),
                     ByteView(entry, 2 * kKeySize), secrets.contentKey.data(), kContentKeySize,
                     entry + kWrappedAt))
            return false;
    }

    random.fill(std::span(envelope + nonceAt, kNonceSize));
    putBigEndian(envelope + nonceAt + kNonceSize, plaintextSize + kTagSize, 4);
    // P (12.3) where its ciphertext goes, then encrypted over itself.
    std::uint8_t* const plaintext = envelope + payloadAt;
    putBigEndian(plaintext, records.size(), 2);
    std::size_t at = 2;
    for (const auto& record : records) {
        plaintext[at] = record.kind;
        putBigEndian(plaintext + at + 1, record.fields.size(), 4);
        std::copy(record.fields.begin(), record.fields.end(), plaintext + at + kRecordHeaderSize);
        at += kRecordHeaderSize + record.fields.size();
    }
    if (!evpSeal(cipher.get(), nullptr, secrets.contentKey.data(), envelope + nonceAt,
                 ByteView(envelope, payloadAt), {}, plaintext, plaintextSize, plaintext))
        return false;

    std::array<std::uint8_t, crypto::schnorrMessageSize> message;
    std::array<std::uint8_t, crypto::schnorrAuxSize> aux;
    random.fill(aux);
    return evpSignedMessage(ByteView(envelope, signatureAt), message.data()) &&
           secp256k1_keypair_create(context, &secrets.keypair, senderSecret.data()) == 1 &&
           secp256k1_schnorrsig_sign32(context, envelope + signatureAt, message.data(),
                                       &secrets.keypair, aux.data()) == 1;
}

// sealEnvelope in raw calls: the envelope, or empty if a check or a call
// failed. random gives what sealEnvelope's gives, in the same order (a final
// class: the call is direct).
template <typename Random>
Bytes rawSeal(const secp256k1_context* context, Random& random, const SecretBytes& senderSecret,
              const secp256k1_pubkey& senderPublic, std::span<const secp256k1_pubkey> recipients,
              std::span<const RawRecord> records, std::int64_t created)
{
    if (recipients.empty() || recipients.size() > share::maximumRecipients || records.empty() ||
        records.size() > share::maximumSharedRecords)
        return {};
    std::size_t plaintextSize = 2;
    for (const auto& record : records) {
        if (record.kind != share::sharedAccountKind && record.kind != share::sharedNoteKind)
            return {};
        plaintextSize += kRecordHeaderSize + record.fields.size();
    }
    const std::size_t payloadAt =
        kEntriesAt + share::recipientEntrySize * recipients.size() + kNonceSize + 4;
    if (plaintextSize > share::maximumEnvelopeSize - payloadAt - kTagSize - kSignatureSize)
        return {};
    Bytes out(payloadAt + plaintextSize + kTagSize + kSignatureSize);
    if (!rawSealInto(context, random, senderSecret, senderPublic, recipients, records, created,
                     payloadAt, out)) {
        // The plaintext may be there, not yet encrypted.
        secureWipe(out.data(), out.size());
        return {};
    }
    return out;
}

// What rawOpen gives: the envelope's own bytes for id, time, sender and
// recipients, and the records as views into the decrypted plaintext.
struct RawOpened
{
    ByteView envelope;
    std::size_t recipientCount = 0;
    Bytes plaintext;
    std::vector<RawRecord> records;

    RawOpened() = default;
    RawOpened(const RawOpened&) = delete;
    RawOpened& operator=(const RawOpened&) = delete;
    ~RawOpened() { secureWipe(plaintext.data(), plaintext.size()); }
};

// 12.3: the record list of plaintext, as views into it.
bool rawRecords(ByteView plaintext, std::vector<RawRecord>& records)
{
    if (plaintext.size() < 2)
        return false;
    const auto count = static_cast<std::size_t>(readBigEndian(plaintext.data(), 2));
    if (count == 0 || count > share::maximumSharedRecords)
        return false;
    records.reserve(count);
    std::size_t at = 2;
    for (std::size_t i = 0; i < count; ++i) {
        if (plaintext.size() - at < kRecordHeaderSize)
            return false;
        const std::uint8_t kind = plaintext[at];
        const auto length = readBigEndian(plaintext.data() + at + 1, 4);
        at += kRecordHeaderSize;
        if ((kind != share::sharedAccountKind && kind != share::sharedNoteKind) ||
            length > plaintext.size() - at)
            return false;
        records.push_back({kind, plaintext.subspan(at, length)});
        at += length;
    }
    return at == plaintext.size();
}

// openEnvelope in raw calls, in 12.4's order: false at the first failure.
bool rawOpen(const secp256k1_context* context, ByteView envelope, const SecretBytes& mySecret,
             const secp256k1_pubkey& myPublic, RawOpened& opened)
{
    // 1 to 4: size, magic, version, structure.
    const std::uint8_t* const bytes = envelope.data();
    const std::size_t size = envelope.size();
    if (size > share::maximumEnvelopeSize ||
        size < share::envelopeFixedSize + share::recipientEntrySize + kTagSize ||
        std::memcmp(bytes, share::envelopeMagic.data(), share::envelopeMagic.size()) != 0 ||
        bytes[share::envelopeMagic.size()] != share::envelopeVersion)
        return false;
    const std::size_t count = bytes[kCountAt];
    const std::size_t nonceAt = kEntriesAt + share::recipientEntrySize * count;
    const std::size_t payloadAt = nonceAt + kNonceSize + 4;
    if (count == 0 || count > share::maximumRecipients ||
        size < payloadAt + kTagSize + kSignatureSize)
        return false;
    const std::size_t payloadSize = readBigEndian(bytes + nonceAt + kNonceSize, 4);
    secp256k1_pubkey sender;
    if (payloadSize < kTagSize || payloadSize != size - payloadAt - kSignatureSize ||
        !parseKey(context, bytes + kSenderAt, sender))
        return false;
    std::array<std::uint8_t, kKeySize> myKey;
    if (!serializeKey(context, myPublic, myKey.data()))
        return false;
    const std::uint8_t* mine = nullptr;
    secp256k1_pubkey myEphemeral{};
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* const entry = bytes + kEntriesAt + share::recipientEntrySize * i;
        secp256k1_pubkey recipient;
        secp256k1_pubkey ephemeral;
        if (!parseKey(context, entry, recipient) || !parseKey(context, entry + kKeySize, ephemeral))
            return false;
        for (const std::uint8_t* earlier = bytes + kEntriesAt; earlier != entry;
             earlier += share::recipientEntrySize)
            if (std::memcmp(earlier, entry, kKeySize) == 0)
                return false;
        if (std::memcmp(entry, myKey.data(), kKeySize) == 0) {
            mine = entry;
            myEphemeral = ephemeral;
        }
    }
    // 5: my entry.
    if (mine == nullptr)
        return false;

    // 6: K; 7: the payload.
    RawSecrets secrets;
    const crypto::CipherContext cipher(EVP_CIPHER_CTX_new());
    opened.plaintext.resize(payloadSize - kTagSize);
    if (!cipher ||
        !wrapKeyOf(context, mySecret.data(), myEphemeral, mine + kKeySize, myKey.data(),
                   secrets.shared, secrets.wrapKey) ||
        !evpOpen(cipher.get(), EVP_chacha20_poly1305(), secrets.wrapKey.data(), kZeroNonce.data(),
                 ByteView(bytes, kPrefixSize), ByteView(mine, 2 * kKeySize), mine + kWrappedAt,
                 kContentKeySize, secrets.contentKey.data()) ||
        !evpOpen(cipher.get(), nullptr, secrets.contentKey.data(), bytes + nonceAt,
                 ByteView(bytes, payloadAt), {}, bytes + payloadAt, opened.plaintext.size(),
                 opened.plaintext.data()))
        return false;

    // 8: the sender; 9: the records.
    std::array<std::uint8_t, crypto::schnorrMessageSize> message;
    secp256k1_xonly_pubkey senderXOnly;
    if (!evpSignedMessage(envelope.first(size - kSignatureSize), message.data()) ||
        secp256k1_xonly_pubkey_from_pubkey(context, &senderXOnly, nullptr, &sender) != 1 ||
        secp256k1_schnorrsig_verify(context, bytes + size - kSignatureSize, message.data(),
                                    message.size(), &senderXOnly) != 1)
        return false;
    opened.envelope = envelope;
    opened.recipientCount = count;
    return rawRecords(opened.plaintext, opened.records);
}

Bytes describeRawOpened(const RawOpened& opened)
{
    std::vector<ByteView> recipients;
    for (std::size_t i = 0; i < opened.recipientCount; ++i)
        recipients.push_back(
            opened.envelope.subspan(kEntriesAt + share::recipientEntrySize * i, kKeySize));
    return describeOpened(
        opened.envelope.subspan(kIdAt, share::envelopeIdSize),
        static_cast<std::int64_t>(readBigEndian(opened.envelope.data() + kCreatedAt, 8)),
        opened.envelope.subspan(kSenderAt, kKeySize), recipients, opened.records);
}

class RawShareSeal final : public Routine
{
public:
    explicit RawShareSeal(std::unique_ptr<RawInputs> inputs) : m_inputs(std::move(inputs)) {}

    void run(std::uint64_t iterations) override
    {
        const secp256k1_context* context = crypto::secp256k1Context();
        const std::span<const secp256k1_pubkey> recipients(&m_inputs->recipientPublicKey, 1);
        for (std::uint64_t i = 0; i < iterations; ++i) {
            Bytes sealed =
                rawSeal(context, m_kernel, m_inputs->senderSecretKey, m_inputs->senderPublicKey,
                        recipients, m_inputs->records, kCreated);
            keep(sealed);
        }
    }

private:
    std::unique_ptr<RawInputs> m_inputs;
    // The same getrandom(2) source ours reads.
    crypto::SystemRandom m_kernel;
};

class RawShareOpen final : public Routine
{
public:
    explicit RawShareOpen(std::unique_ptr<RawInputs> inputs)
        : m_inputs(std::move(inputs)), m_envelope(bytesFromHex(kEnvelope))
    {}

    void run(std::uint64_t iterations) override
    {
        const secp256k1_context* context = crypto::secp256k1Context();
        for (std::uint64_t i = 0; i < iterations; ++i) {
            RawOpened opened;
            const bool ok = rawOpen(context, m_envelope, m_inputs->recipientSecretKey,
                                    m_inputs->recipientPublicKey, opened);
            keep(ok);
            keep(opened);
        }
    }

private:
    std::unique_ptr<RawInputs> m_inputs;
    Bytes m_envelope;
};

} // namespace

Bytes ourFixedShareSeal()
{
    const auto inputs = shareInputs();
    if (!inputs)
        return {};
    ScriptedRandom random(vectorARandom());
    auto sealed =
        share::sealEnvelope(random, inputs->sender, inputs->recipients, inputs->records, kCreated);
    if (!sealed || !random.usedExactly())
        return {};
    return std::move(*sealed);
}

Prepared prepareRawShareSeal(ByteView expected)
{
    auto inputs = rawInputs();
    if (!inputs)
        return notPrepared("vector a's keys do not parse");
    // The same random bytes on both sides, in the same order: the raw
    // envelope must be ours byte for byte.
    ScriptedRandom random(vectorARandom());
    const std::span<const secp256k1_pubkey> recipients(&inputs->recipientPublicKey, 1);
    const Bytes sealed = rawSeal(crypto::secp256k1Context(), random, inputs->senderSecretKey,
                                 inputs->senderPublicKey, recipients, inputs->records, kCreated);
    if (sealed.empty() || !random.usedExactly() ||
        sealed != Bytes(expected.begin(), expected.end()))
        return notTheSameWork("the raw libsecp256k1 and EVP share seal", "share::sealEnvelope");
    return prepared(std::make_unique<RawShareSeal>(std::move(inputs)));
}

Bytes ourShareOpen()
{
    const auto inputs = shareInputs();
    if (!inputs)
        return {};
    const auto opened = share::openEnvelope(bytesFromHex(kEnvelope), inputs->recipient);
    if (!opened)
        return {};
    std::vector<ByteView> recipients(opened->recipients.begin(), opened->recipients.end());
    return describeOpened(opened->id, opened->created, opened->sender, recipients, opened->records);
}

Prepared prepareRawShareOpen(ByteView expected)
{
    auto inputs = rawInputs();
    if (!inputs)
        return notPrepared("vector a's keys do not parse");
    const Bytes envelope = bytesFromHex(kEnvelope);
    RawOpened opened;
    if (!rawOpen(crypto::secp256k1Context(), envelope, inputs->recipientSecretKey,
                 inputs->recipientPublicKey, opened) ||
        describeRawOpened(opened) != Bytes(expected.begin(), expected.end()))
        return notTheSameWork("the raw libsecp256k1 and EVP share opening", "share::openEnvelope");
    return prepared(std::make_unique<RawShareOpen>(std::move(inputs)));
}

std::vector<Benchmark> shareBenchmarks()
{
    return {
        {"share/seal",
         "seal FORMAT.md 12.6's note (49-byte body) to one recipient: id, content key, ephemeral "
         "key, nonce and BIP340 aux from getrandom(2), ECDH and HKDF, two ChaCha20-Poly1305 "
         "seals, SHA-256 and a BIP340 signature",
         0, "", prepareShareSeal},
        {"share/open",
         "open that envelope as its recipient: every key parsed, ECDH and HKDF, two "
         "ChaCha20-Poly1305 opens, the BIP340 signature verified, the record list decoded",
         0, "", prepareShareOpen},
        {"ref/raw_share_seal",
         "share/seal in raw libsecp256k1 and EVP calls: one EVP_CIPHER_CTX per envelope, the "
         "payload encrypted in place (the same getrandom(2) draws and HKDF)",
         0, "",
         [] {
             return prepareRawShareSeal(ourFixedShareSeal());
         }},
        {"ref/raw_share_open",
         "share/open in raw libsecp256k1 and EVP calls: one EVP_CIPHER_CTX per envelope, the "
         "records as views into the plaintext (the same HKDF)",
         0, "",
         [] {
             return prepareRawShareOpen(ourShareOpen());
         }},
    };
}

} // namespace watchword::perf::entries
