// The known-answer tests. Each answer comes from a published source, named
// beside it; the tests/ tree checks the same primitives against the full
// vector files.
#include "base/SecureBuffer.h"
#include "crypto/AesCbc.h"
#include "crypto/ChaCha20Poly1305.h"
#include "crypto/Hmac.h"
#include "crypto/Kdf.h"
#include "crypto/RecordSealer.h"
#include "crypto/Secp256k1.h"
#include "encoding/Base32.h"
#include "encoding/Hex.h"
#include "keychain/Bip39.h"
#include "keychain/Keychain.h"
#include "otp/OtpGenerator.h"
#include "selftest/SelfTest.h"
#include "share/SenderDh.h"

#include <algorithm>

namespace watchword::selftest {

namespace {

using crypto::HashAlgorithm;

// Hex constants below are known-good; a malformed one is a bug in this file,
// caught by the tests, and makes its test fail rather than crash.
Bytes hex(std::string_view text)
{
    auto bytes = encoding::fromHex(text);
    return bytes ? std::move(bytes).value() : Bytes{};
}

// Hands out fixed bytes (an IV, an ephemeral key) so a randomized operation
// has a known answer. Asked for more than it holds, it gives zeros, and the
// answer will not match.
class FixedRandom final : public crypto::RandomSource
{
public:
    explicit FixedRandom(Bytes bytes) : m_bytes(std::move(bytes)) {}
    void fill(std::span<std::uint8_t> out) override
    {
        const std::size_t take = std::min(out.size(), m_bytes.size() - m_used);
        std::copy_n(m_bytes.begin() + static_cast<std::ptrdiff_t>(m_used), take, out.begin());
        std::fill(out.begin() + static_cast<std::ptrdiff_t>(take), out.end(), std::uint8_t{0});
        m_used += take;
    }

private:
    Bytes m_bytes;
    std::size_t m_used = 0;
};

bool equalsHex(ByteView actual, std::string_view expectedHex)
{
    const auto expected = encoding::fromHex(expectedHex);
    return expected.ok() && constantTimeEqual(actual, *expected);
}

bool hmacAnswer(HashAlgorithm algorithm, std::string_view expectedHex)
{
    // RFC 2202 / RFC 4231 test case 2: key "Jefe".
    const crypto::HmacKey key(algorithm, asBytes("Jefe"));
    return equalsHex(key.compute(asBytes("what do ya want for nothing?")), expectedHex);
}

bool pbkdf2Answer(HashAlgorithm algorithm, std::string_view password, std::string_view salt,
                  std::uint32_t iterations, std::string_view expectedHex)
{
    SecureBuffer out(expectedHex.size() / 2);
    return crypto::pbkdf2(algorithm, asBytes(password), asBytes(salt), iterations, out.span())
               .ok() &&
           equalsHex(out, expectedHex);
}

bool hkdfAnswer()
{
    // RFC 5869 A.1.
    const auto ikm = encoding::fromHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
    const auto salt = encoding::fromHex("000102030405060708090a0b0c");
    const auto info = encoding::fromHex("f0f1f2f3f4f5f6f7f8f9");
    SecureBuffer okm(42);
    return crypto::hkdf(HashAlgorithm::Sha256, *ikm, *salt, *info, okm.span()).ok() &&
           equalsHex(okm, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                          "34007208d5b887185865");
}

bool hkdfSha512Answer()
{
    // Wycheproof hkdf_sha512_test.json, tcId 1.
    const auto ikm = encoding::fromHex("24aeff2645e3e0f5494a9a102778c43a");
    SecureBuffer okm(20);
    return crypto::hkdf(HashAlgorithm::Sha512, *ikm, {}, {}, okm.span()).ok() &&
           equalsHex(okm, "dd2599840b09699c6200b5cba79002b3aa75c61b");
}

bool aesCbcAnswer()
{
    // Wycheproof aes_cbc_pkcs5_test.json, tcId 146 (AES-256, one full block: padding adds one).
    auto cipher = crypto::AesCbc::create(
        hex("612e837843ceae7f61d49625faa7e7494f9253e20cb3adcea686512b043936cd"));
    if (!cipher)
        return false;
    const Bytes iv = hex("9ec7b863ac845cad5e4673da21f5b6a9");
    const Bytes message = hex("cc37fae15f745a2f40e2c8b192f2b38d");
    const auto ciphertext = cipher->encrypt(iv, message);
    if (!ciphertext || !equalsHex(*ciphertext, "299295be47e9f5441fe83a7a811c4aeb"
                                               "2650333e681e69fa6b767d28a6ccf282"))
        return false;
    const auto plaintext = cipher->decrypt(iv, *ciphertext);
    return plaintext && constantTimeEqual(*plaintext, message);
}

bool recordSealAnswer()
{
    // tests/data/record/vectors.json, vector 2 (computed independently).
    auto sealer = crypto::RecordSealer::create(
        hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"));
    if (!sealer)
        return false;
    const Bytes associatedData = hex("7265636f72643a372076657273696f6e3a33");
    const Bytes plaintext = hex("30313233343536373839616263646566");
    FixedRandom iv(hex("f0e1d2c3b4a5968778695a4b3c2d1e0f"));
    const auto sealed = sealer->seal(associatedData, plaintext, iv);
    if (!sealed ||
        !equalsHex(*sealed, "f0e1d2c3b4a5968778695a4b3c2d1e0f"
                            "9cdd80f851c6325b404bad0a26add03b353f00afeadca8addfd472cb7d703c9c"
                            "5f597c062b880c5391763f7727c9abeaf7f91d45224f1160e3719528a5c1e393"))
        return false;
    const auto opened = sealer->open(associatedData, *sealed);
    if (!opened || !constantTimeEqual(*opened, plaintext))
        return false;
    // One flipped bit must fail authentication.
    Bytes tampered = *sealed;
    tampered.at(20) ^= 0x01;
    const auto refused = sealer->open(associatedData, tampered);
    return !refused && refused.error().code == crypto::RecordError::AuthenticationFailed;
}

bool chaCha20Poly1305Answer()
{
    // RFC 8439 section 2.8.2 (Wycheproof chacha20_poly1305_test.json, tcId 1).
    auto aead = crypto::ChaCha20Poly1305::create(
        hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"));
    if (!aead)
        return false;
    const Bytes nonce = hex("070000004041424344454647");
    const Bytes aad = hex("50515253c0c1c2c3c4c5c6c7");
    const std::string_view message =
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
        "future, sunscreen would be it.";
    const auto sealed = aead->encrypt(nonce, aad, asBytes(message));
    if (!sealed ||
        !equalsHex(
            *sealed,
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282"
            "fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab3"
            "24e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
            "1ae10b594f09e26a7e902ecbd0600691"))
        return false;
    const auto opened = aead->decrypt(nonce, aad, *sealed);
    return opened && constantTimeEqual(*opened, asBytes(message));
}

bool totpAnswer(HashAlgorithm algorithm, std::string_view seed, std::string_view expected)
{
    // RFC 6238 Appendix B, T = 59 s, 8 digits, the per-algorithm seeds of Appendix A.
    otp::OtpParameters parameters;
    parameters.algorithm = algorithm;
    parameters.digits = 8;
    auto generator = otp::OtpGenerator::create(parameters, asBytes(seed));
    if (!generator)
        return false;
    const auto code = generator->codeForTime(59);
    return code && *code == expected;
}

bool hotpAnswer()
{
    // RFC 4226 Appendix D, counters 0 and 9.
    otp::OtpParameters parameters;
    parameters.kind = otp::OtpKind::Hotp;
    auto generator = otp::OtpGenerator::create(parameters, asBytes("12345678901234567890"));
    return generator && generator->codeForCounter(0) == "755224" &&
           generator->codeForCounter(9) == "520489";
}

bool steamAnswer()
{
    // tests/data/otp/steam_codes.json: Aegis's Steam test secret at 1700000000,
    // recomputed independently; the Base32 secret goes through our decoder.
    const auto secret = encoding::fromBase32("JRZCL47CMXVOQMNPZR2F7J4RGI");
    if (!secret)
        return false;
    auto generator = otp::OtpGenerator::create(otp::OtpParameters::steam(), *secret);
    if (!generator)
        return false;
    const auto code = generator->codeForTime(1700000000);
    return code && *code == "747JR";
}

bool bip39Answer()
{
    // BIP39 English vector 1 (trezor/python-mnemonic vectors.json), passphrase "TREZOR".
    const auto mnemonic = keychain::entropyToMnemonic(Bytes(16, 0));
    constexpr std::string_view expected = "abandon abandon abandon abandon abandon abandon abandon "
                                          "abandon abandon abandon abandon about";
    if (!mnemonic || mnemonic->view() != expected)
        return false;
    const auto seed = keychain::mnemonicToSeed(expected, "TREZOR");
    return seed &&
           equalsHex(*seed, "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553"
                            "1f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04");
}

bool keychainAnswer()
{
    // tests/data/keychain/vectors.json, vector 1 (computed independently).
    const auto restored =
        keychain::Keychain::restore("abandon abandon abandon abandon abandon abandon abandon "
                                    "abandon abandon abandon abandon about");
    return restored &&
           equalsHex(restored->versionOneRecoveryKey().publicKey.compressed(),
                     "02dd44b228d37cb24a1c97873e950ee92964dd5267f30ea69c70a7b1ce08184ad1") &&
           equalsHex(restored->recoveryWrappingKey(),
                     "95eb33c09f959001ba1ebd473232086694acdabad733f87203e466dc4ff693f2") &&
           equalsHex(restored->recoveryKey().publicKey.compressed(),
                     "038c57db34e731b282e67c26834db2e1b9f68117a6f45b32e750430f8263e91f85") &&
           equalsHex(restored->sharingKey().publicKey.compressed(),
                     "03ff42cfd942841e0cb79a15922820861dcc16216ae648a37d3659d3113d2514fc");
}

bool ecdhAnswer()
{
    // Wycheproof ecdh_secp256k1_test.json, tcId 1 (public key as DER SubjectPublicKeyInfo).
    const auto publicKey = crypto::PublicKey::fromSubjectPublicKeyInfo(hex(
        "3056301006072a8648ce3d020106052b8104000a03420004d8096af8a11e0b80037e1ee68246b5dcbb0aeb1c"
        "f1244fd767db80f3fa27da2b396812ea1686e7472e9692eaf3e958e50e9500d3b4c77243db1f2acd67ba9cc"
        "4"));
    const auto secretKey = crypto::SecretKey::fromBytes(
        hex("f4b7ff7cccc98813a69fae3df222bfe3f4e28f764bf91b4a10d8096ce446b254"));
    if (!publicKey || !secretKey)
        return false;
    const auto shared = crypto::ecdh(*secretKey, *publicKey);
    return shared &&
           equalsHex(*shared, "544dfae22af6af939042b1d85b71a1e49e9a5614123c4d6ad0c8af65baf87d65");
}

bool senderDhAnswer()
{
    // tests/data/share/vectors.json, vector 1 (computed independently).
    const auto recipientSecret = crypto::SecretKey::fromBytes(
        hex("0570eaa895fabf65ddbc11820af0fac0fa94303b2bf5f5eecff339555611bff0"));
    if (!recipientSecret)
        return false;
    const auto recipientPublic = recipientSecret->publicKey();
    FixedRandom ephemeral(hex("8fe7ce21a434a9bb427bf2bf059e5da3adddd45ad7ba281fd11f58cdd28b7603"));
    const auto sent = share::senderNoteKey(ephemeral, recipientPublic);
    constexpr std::string_view noteKey =
        "e56ae9de5c4667e54d8cc6fce554d8f486f50b56dad8396dc65ee76c654461c7";
    if (!sent ||
        !equalsHex(sent->ephemeralPublicKey,
                   "029117e047baa99d517ebd00c2f6b7f322da177ec5e049641b6f8c07260badc6b3") ||
        !equalsHex(sent->noteKey, noteKey))
        return false;
    const auto received =
        share::recipientNoteKey(*recipientSecret, recipientPublic, sent->ephemeralPublicKey);
    return received && equalsHex(*received, noteKey);
}

} // namespace

const std::vector<KnownAnswerTest>& knownAnswerTests()
{
    static const std::vector<KnownAnswerTest> tests = {
        {"HMAC-SHA1 (RFC 2202 case 2)",
         [] {
             return hmacAnswer(HashAlgorithm::Sha1, "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
         }},
        {"HMAC-SHA256 (RFC 4231 case 2)",
         [] {
             return hmacAnswer(HashAlgorithm::Sha256,
                               "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
         }},
        {"HMAC-SHA512 (RFC 4231 case 2)",
         [] {
             return hmacAnswer(HashAlgorithm::Sha512,
                               "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                               "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737");
         }},
        {"PBKDF2-HMAC-SHA1 (RFC 6070 case 2)",
         [] {
             return pbkdf2Answer(HashAlgorithm::Sha1, "password", "salt", 2,
                                 "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957");
         }},
        {"PBKDF2-HMAC-SHA256 (RFC 7914 section 11)",
         [] {
             return pbkdf2Answer(
                 HashAlgorithm::Sha256, "passwd", "salt", 1,
                 "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                 "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
         }},
        {"HKDF-SHA256 (RFC 5869 A.1)", hkdfAnswer},
        {"HKDF-SHA512 (Wycheproof tc 1)", hkdfSha512Answer},
        {"AES-256-CBC with PKCS#7 (Wycheproof tc 146)", aesCbcAnswer},
        {"Record seal and open, AES-256-CBC + HMAC-SHA256", recordSealAnswer},
        {"ChaCha20-Poly1305 (RFC 8439 section 2.8.2)", chaCha20Poly1305Answer},
        {"HOTP (RFC 4226 Appendix D)", hotpAnswer},
        {"TOTP SHA-1 (RFC 6238 Appendix B)",
         [] {
             return totpAnswer(HashAlgorithm::Sha1, "12345678901234567890", "94287082");
         }},
        {"TOTP SHA-256 (RFC 6238 Appendix B)",
         [] {
             return totpAnswer(HashAlgorithm::Sha256, "12345678901234567890123456789012",
                               "46119246");
         }},
        {"TOTP SHA-512 (RFC 6238 Appendix B)",
         [] {
             return totpAnswer(HashAlgorithm::Sha512,
                               "1234567890123456789012345678901234567890123456789012345678901234",
                               "90693936");
         }},
        {"Steam Guard code and Base32", steamAnswer},
        {"BIP39 mnemonic and seed (vector 1)", bip39Answer},
        {"Keychain derivations (recovery, sharing and version-1 keys, wrapping key)",
         keychainAnswer},
        {"secp256k1 ECDH (Wycheproof tc 1)", ecdhAnswer},
        {"Sender DH note key", senderDhAnswer},
    };
    return tests;
}

} // namespace watchword::selftest
