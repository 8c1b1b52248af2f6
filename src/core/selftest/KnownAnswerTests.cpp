// The known-answer tests. Each answer comes from a published source, named
// beside it; the tests/ tree checks the same primitives against the full
// vector files.
#include "selftest/SelfTest.h"

#include "base/SecureBuffer.h"
#include "crypto/Hmac.h"
#include "crypto/Kdf.h"
#include "encoding/Hex.h"

namespace watchword::selftest {

namespace {

using crypto::HashAlgorithm;

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
    return crypto::pbkdf2(algorithm, asBytes(password), asBytes(salt), iterations, out.span()).ok() &&
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

} // namespace

const std::vector<KnownAnswerTest>& knownAnswerTests()
{
    static const std::vector<KnownAnswerTest> tests = {
        {"HMAC-SHA1 (RFC 2202 case 2)",
         [] { return hmacAnswer(HashAlgorithm::Sha1, "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"); }},
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
             return pbkdf2Answer(HashAlgorithm::Sha256, "passwd", "salt", 1,
                                 "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                                 "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
         }},
        {"HKDF-SHA256 (RFC 5869 A.1)", hkdfAnswer},
        {"HKDF-SHA512 (Wycheproof tc 1)", hkdfSha512Answer},
    };
    return tests;
}

} // namespace watchword::selftest
