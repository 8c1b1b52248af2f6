// encryption/*: ChaCha20-Poly1305 on the 49-byte note of the wallet
// reference, context prepared, nonce given. record/*: the vault's record
// envelope (AES-256-CBC + HMAC-SHA256, crypto/RecordSealer.h) on a 64-byte
// record with the IV from the system CSPRNG, against the same envelope written
// with plain EVP calls as an OpenSSL-based vault would write it.
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/ChaCha20Poly1305.h"
#include "crypto/OpenSslHandles.h"
#include "crypto/Random.h"
#include "crypto/RecordSealer.h"
#include "perf/catalogue/Catalogue.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <span>
#include <string_view>

namespace watchword::perf::entries {

namespace {

using crypto::ChaCha20Poly1305;
using crypto::RecordSealer;

constexpr std::string_view kKey =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr std::string_view kIv = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";

constexpr std::size_t kNoteSize = 49;   // the wallet reference's note
constexpr std::size_t kRecordSize = 64; // a typical account record

// Plaintext of the given size; the bytes do not change the cost.
Bytes plaintext(std::size_t size)
{
    Bytes bytes(size);
    for (std::size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<std::uint8_t>(i * 7 + 1);
    return bytes;
}

// What the vault binds a record to: a 16-byte record id and an 8-byte version.
Bytes recordAssociatedData()
{
    return bytesFromHex("7d1c2b9e4f6a40c8a3e15b0d9c2f4e61"
                        "0000000000000003");
}

// ---- encryption/*: ChaCha20-Poly1305, 49 bytes ---------------------------------

Prepared prepareNoteEncrypt()
{
    auto cipher = ChaCha20Poly1305::create(bytesFromHex(kKey));
    if (!cipher)
        return notPrepared(cipher.error().message);
    // A counter nonce, as a sender that keeps one key would use: unique per message.
    return prepared(loop([cipher = std::move(*cipher), note = plaintext(kNoteSize),
                          nonce = std::array<std::uint8_t, ChaCha20Poly1305::nonceSize>{},
                          messageNumber = std::uint64_t{0}]() mutable {
        ++messageNumber;
        std::copy_n(reinterpret_cast<const std::uint8_t*>(&messageNumber), sizeof messageNumber,
                    nonce.begin());
        auto sealed = cipher.encrypt(nonce, {}, note);
        keep(sealed);
    }));
}

Prepared prepareNoteDecrypt()
{
    auto cipher = ChaCha20Poly1305::create(bytesFromHex(kKey));
    if (!cipher)
        return notPrepared(cipher.error().message);
    const std::array<std::uint8_t, ChaCha20Poly1305::nonceSize> nonce{1};
    auto sealed = cipher->encrypt(nonce, {}, plaintext(kNoteSize));
    if (!sealed)
        return notPrepared(sealed.error().message);
    return prepared(
        loop([cipher = std::move(*cipher), nonce, sealed = std::move(*sealed)]() mutable {
            auto opened = cipher.decrypt(nonce, {}, sealed);
            keep(opened);
        }));
}

// ---- record/*: AES-256-CBC + HMAC-SHA256, 64 bytes --------------------------

// record/seal; with thenOpen, the watch reference's "seal + open a record"
// (record/seal_open): one seal, then one open of it.
template <bool thenOpen> Prepared prepareRecordSeal()
{
    auto sealer = RecordSealer::create(bytesFromHex(kKey));
    if (!sealer)
        return notPrepared(sealer.error().message);
    return prepared(loop([sealer = std::move(*sealer), associatedData = recordAssociatedData(),
                          record = plaintext(kRecordSize)]() mutable {
        auto sealed = sealer.seal(associatedData, record, crypto::systemRandom());
        if constexpr (thenOpen) {
            if (sealed) {
                auto opened = sealer.open(associatedData, *sealed);
                keep(opened);
            }
        }
        keep(sealed);
    }));
}

Prepared prepareRecordOpen()
{
    auto sealer = RecordSealer::create(bytesFromHex(kKey));
    if (!sealer)
        return notPrepared(sealer.error().message);
    Bytes associatedData = recordAssociatedData();
    auto sealed = sealer->seal(associatedData, plaintext(kRecordSize), crypto::systemRandom());
    if (!sealed)
        return notPrepared(sealed.error().message);
    if (!sealer->open(associatedData, *sealed))
        return notPrepared("record/open: the sealed record does not open");
    return prepared(loop([sealer = std::move(*sealer), associatedData = std::move(associatedData),
                          sealed = std::move(*sealed)]() mutable {
        auto opened = sealer.open(associatedData, sealed);
        keep(opened);
    }));
}

// ---- ref/evp_cbc_hmac_seal: the same envelope with plain EVP calls ------------

// The record keys, derived once with OpenSSL's HKDF as RecordSealer derives
// its own (outside the timing, as any vault would keep them), and the HMAC
// algorithm fetched once.
struct EvpSealer
{
    std::array<std::uint8_t, RecordSealer::keySize> encryptionKey{};
    std::array<std::uint8_t, RecordSealer::keySize> authenticationKey{};
    crypto::Mac hmac{EVP_MAC_fetch(nullptr, "HMAC", nullptr)};
    char digestName[7] = "SHA256";

    ~EvpSealer()
    {
        secureWipe(encryptionKey.data(), encryptionKey.size());
        secureWipe(authenticationKey.data(), authenticationKey.size());
    }
};

// HKDF-SHA256(masterKey, salt empty, info) into out, by EVP_KDF.
bool openSslHkdf(ByteView masterKey, std::string_view info, std::span<std::uint8_t> out)
{
    const crypto::Kdf kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
    if (!kdf)
        return false;
    const crypto::KdfContext context(EVP_KDF_CTX_new(kdf.get()));
    char digest[] = "SHA256";
    const OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
        OSSL_PARAM_construct_octet_string(
            OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(masterKey.data()), masterKey.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(info.data()),
                                          info.size()),
        OSSL_PARAM_construct_end()};
    return context && EVP_KDF_derive(context.get(), out.data(), out.size(), parameters) == 1;
}

// The envelope of RecordSealer::seal, written as an OpenSSL-based vault
// would: a new EVP_CIPHER_CTX and a new EVP_MAC_CTX for every record. Empty
// if OpenSSL failed.
Bytes evpSeal(EvpSealer& keys, ByteView iv, ByteView associatedData, ByteView record)
{
    Bytes sealed(RecordSealer::sealedSize(record.size()));
    std::copy(iv.begin(), iv.end(), sealed.begin());
    std::uint8_t* const ciphertext = sealed.data() + RecordSealer::ivSize;
    const std::size_t ciphertextSize = sealed.size() - RecordSealer::ivSize - RecordSealer::tagSize;

    const auto cipher = crypto::newCipherContext();
    int written = 0;
    int finalWritten = 0;
    if (!cipher ||
        EVP_EncryptInit_ex(cipher.get(), EVP_aes_256_cbc(), nullptr, keys.encryptionKey.data(),
                           iv.data()) != 1 ||
        EVP_EncryptUpdate(cipher.get(), ciphertext, &written, record.data(),
                          static_cast<int>(record.size())) != 1 ||
        EVP_EncryptFinal_ex(cipher.get(), ciphertext + written, &finalWritten) != 1 ||
        static_cast<std::size_t>(written + finalWritten) != ciphertextSize)
        return {};

    // tag = HMAC(0x01 || be64(len(AD)) || AD || IV || ciphertext)
    std::array<std::uint8_t, 9> header{RecordSealer::envelopeVersion};
    for (std::size_t i = 0; i < 8; ++i)
        header[1 + i] = static_cast<std::uint8_t>(associatedData.size() >> (56 - 8 * i));
    const OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, keys.digestName, 0),
        OSSL_PARAM_construct_end()};
    const crypto::MacContext mac(EVP_MAC_CTX_new(keys.hmac.get()));
    std::size_t tagSize = 0;
    if (!mac ||
        EVP_MAC_init(mac.get(), keys.authenticationKey.data(), keys.authenticationKey.size(),
                     parameters) != 1 ||
        EVP_MAC_update(mac.get(), header.data(), header.size()) != 1 ||
        EVP_MAC_update(mac.get(), associatedData.data(), associatedData.size()) != 1 ||
        EVP_MAC_update(mac.get(), sealed.data(), RecordSealer::ivSize + ciphertextSize) != 1 ||
        EVP_MAC_final(mac.get(), ciphertext + ciphertextSize, &tagSize, RecordSealer::tagSize) !=
            1 ||
        tagSize != RecordSealer::tagSize)
        return {};
    return sealed;
}

} // namespace

Bytes ourFixedIvSeal()
{
    auto sealer = RecordSealer::create(bytesFromHex(kKey));
    if (!sealer)
        return {};
    RepeatingRandom fixedIv(bytesFromHex(kIv));
    auto sealed = sealer->seal(recordAssociatedData(), plaintext(kRecordSize), fixedIv);
    return sealed ? std::move(*sealed) : Bytes();
}

Prepared prepareEvpCbcHmacSeal(ByteView expected)
{
    auto keys = std::make_unique<EvpSealer>();
    const Bytes masterKey = bytesFromHex(kKey);
    if (!keys->hmac ||
        !openSslHkdf(masterKey, RecordSealer::encryptionKeyInfo, keys->encryptionKey) ||
        !openSslHkdf(masterKey, RecordSealer::authenticationKeyInfo, keys->authenticationKey))
        return notPrepared("OpenSSL's HKDF or HMAC is not available");
    const Bytes associatedData = recordAssociatedData();
    const Bytes record = plaintext(kRecordSize);
    // The same IV as ourFixedIvSeal(): the envelopes must be equal byte for byte.
    const Bytes check = evpSeal(*keys, bytesFromHex(kIv), associatedData, record);
    if (check.empty() || check != Bytes(expected.begin(), expected.end()))
        return notTheSameWork("the EVP AES-CBC + HMAC seal", "RecordSealer::seal");
    // The IV from RAND_bytes, as an OpenSSL-based vault would draw it.
    return prepared(loop([keys = std::move(keys), associatedData, record,
                          iv = std::array<std::uint8_t, RecordSealer::ivSize>{}]() mutable {
        const bool random = RAND_bytes(iv.data(), static_cast<int>(iv.size())) == 1;
        auto sealed = evpSeal(*keys, iv, associatedData, record);
        keep(random);
        keep(sealed);
    }));
}

std::vector<Benchmark> noteBenchmarks()
{
    return {
        {"encryption/encrypt",
         "ChaCha20-Poly1305 encryption of a 49-byte note, key prepared, counter nonce",
         static_cast<double>(kNoteSize), "bytes", prepareNoteEncrypt},
        {"encryption/decrypt", "ChaCha20-Poly1305 decryption of a 49-byte note, key prepared",
         static_cast<double>(kNoteSize), "bytes", prepareNoteDecrypt},
    };
}

std::vector<Benchmark> recordBenchmarks()
{
    return {
        {"record/seal",
         "seal a 64-byte record: IV from getrandom(2), AES-256-CBC, HMAC-SHA256 over the "
         "record's id and version, IV and ciphertext",
         static_cast<double>(kRecordSize), "bytes", prepareRecordSeal<false>},
        {"record/open", "check the tag of a sealed 64-byte record and decrypt it",
         static_cast<double>(kRecordSize), "bytes", prepareRecordOpen},
        {"record/seal_open", "seal a 64-byte record, then open it",
         static_cast<double>(kRecordSize), "bytes", prepareRecordSeal<true>},
        {"ref/evp_cbc_hmac_seal",
         "record/seal with plain EVP calls: IV from RAND_bytes, a new cipher context and a new "
         "HMAC context per record",
         static_cast<double>(kRecordSize), "bytes",
         [] {
             return prepareEvpCbcHmacSeal(ourFixedIvSeal());
         }},
    };
}

} // namespace watchword::perf::entries
