// totp/*, hotp/*, steam/*: one code from a prepared OtpGenerator, against the
// ways OpenSSL offers to compute the same string, and against the floor (the
// two bare hash compressions a code cannot avoid).
//
// Every side produces the same 6-digit string for the same time: a reference
// is prepared only if its code at the start time is OtpGenerator's, so a pair
// always compares equal work.
#include "base/Bytes.h"
#include "crypto/Hash.h"
#include "crypto/OpenSslHandles.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpParameters.h"
#include "perf/catalogue/Catalogue.h"

#include <array>
#include <cstdint>
#include <memory>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <string>
#include <string_view>

// The floor calls the raw block function, as our prepared HMAC does.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <openssl/sha.h>

namespace watchword::perf::entries {

namespace {

using crypto::HashAlgorithm;
using otp::OtpGenerator;
using otp::OtpKind;
using otp::OtpParameters;

// RFC 6238 Appendix B seeds: 20, 32 and 64 ASCII bytes for SHA-1/256/512.
constexpr std::string_view kSeedSha1 = "12345678901234567890";
constexpr std::string_view kSeedSha256 = "12345678901234567890123456789012";
constexpr std::string_view kSeedSha512 =
    "1234567890123456789012345678901234567890123456789012345678901234";

// A realistic account: 6 digits, 30 s (the Key Uri Format defaults), and a
// clock in this decade. Each iteration moves one step on, so every code is
// computed for a new counter.
constexpr int kDigits = 6;
constexpr std::uint32_t kPeriod = 30;
constexpr std::int64_t kStartTime = 1'700'000'000;
constexpr std::uint32_t kCodeModulus = [] { // 10^kDigits
    std::uint32_t modulus = 1;
    for (int i = 0; i < kDigits; ++i)
        modulus *= 10;
    return modulus;
}();

std::string_view seedFor(HashAlgorithm algorithm)
{
    return algorithm == HashAlgorithm::Sha1     ? kSeedSha1
           : algorithm == HashAlgorithm::Sha256 ? kSeedSha256
                                                : kSeedSha512;
}

OtpParameters totpParameters(HashAlgorithm algorithm)
{
    return {OtpKind::Totp, algorithm, kDigits, kPeriod, 0};
}

// ---- the reference side: OpenSSL MAC, then the same truncation and digits ---

// RFC 4226 section 5.2: the counter as 8 big-endian bytes.
std::array<std::uint8_t, 8> counterMessage(std::int64_t unixSeconds)
{
    auto counter = static_cast<std::uint64_t>(unixSeconds) / kPeriod;
    std::array<std::uint8_t, 8> message{};
    for (auto byte = message.rbegin(); byte != message.rend(); ++byte) {
        *byte = static_cast<std::uint8_t>(counter);
        counter >>= 8;
    }
    return message;
}

// The value modulo 10^kDigits, zero-padded: what OtpGenerator::formatCode does
// for a 6-digit TOTP, written out so the reference does not call our code.
std::string decimalCode(std::uint32_t truncated)
{
    std::uint32_t value = truncated % kCodeModulus;
    std::string code(kDigits, '0');
    for (std::size_t i = code.size(); i-- > 0 && value != 0;) {
        code[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
    return code;
}

// An empty string if OpenSSL failed: it then differs from our code and the
// reference is refused instead of timing a failure path.
std::string codeFromMac(const unsigned char* mac, std::size_t macSize)
{
    if (mac == nullptr || macSize < 20)
        return {};
    return decimalCode(otp::dynamicTruncate(ByteView(mac, macSize)));
}

std::string oneShotHmacCode(const EVP_MD* digest, ByteView key, std::int64_t unixSeconds)
{
    const auto message = counterMessage(unixSeconds);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int macSize = 0;
    const unsigned char* result = HMAC(digest, key.data(), static_cast<int>(key.size()),
                                       message.data(), message.size(), mac, &macSize);
    return codeFromMac(result, macSize);
}

// What a careful naive implementation pays with the OpenSSL 3 API: the HMAC
// algorithm fetched once, a new EVP_MAC_CTX keyed for every code.
std::string freshEvpMacCode(EVP_MAC* hmac, const OSSL_PARAM* parameters, ByteView key,
                            std::int64_t unixSeconds)
{
    const auto message = counterMessage(unixSeconds);
    const crypto::MacContext context(EVP_MAC_CTX_new(hmac));
    unsigned char mac[EVP_MAX_MD_SIZE];
    std::size_t macSize = 0;
    if (!context || EVP_MAC_init(context.get(), key.data(), key.size(), parameters) != 1 ||
        EVP_MAC_update(context.get(), message.data(), message.size()) != 1 ||
        EVP_MAC_final(context.get(), mac, &macSize, sizeof mac) != 1)
        return {};
    return codeFromMac(mac, macSize);
}

// ---- ours ---------------------------------------------------------------------

// A generator of parameters over seed, each iteration one code step later.
Prepared prepareOurs(const OtpParameters& parameters, std::string_view seed)
{
    auto generator = OtpGenerator::create(parameters, asBytes(seed));
    if (!generator)
        return notPrepared(generator.error().message);
    if (parameters.kind == OtpKind::Hotp)
        return prepared(
            loop([generator = std::move(*generator), counter = std::uint64_t{0}]() mutable {
                auto code = generator.codeForCounter(counter++);
                keep(code);
            }));
    return prepared(loop(
        [generator = std::move(*generator), now = kStartTime, step = parameters.period]() mutable {
            auto code = generator.codeForTime(now);
            keep(code);
            now += step;
        }));
}

Benchmark totp(std::string name, HashAlgorithm algorithm, std::string description)
{
    return {std::move(name), std::move(description), 0, "", [algorithm] {
                return prepareOurs(totpParameters(algorithm), seedFor(algorithm));
            }};
}

Benchmark oneShotReference(std::string name, HashAlgorithm algorithm, std::string description)
{
    return {std::move(name), std::move(description), 0, "", [algorithm] {
                return prepareOneShotHmacTotp(algorithm, ourTotpCode(algorithm));
            }};
}

// Two SHA-1 compressions (inner block, outer block): below this no TOTP-SHA1
// implementation can go, whatever it prepares.
Prepared prepareSha1Floor()
{
    SHA_CTX context;
    SHA1_Init(&context);
    return prepared(
        loop([context, block = std::array<unsigned char, SHA_CBLOCK>{1, 2, 3}]() mutable {
            SHA1_Transform(&context, block.data());
            SHA1_Transform(&context, block.data());
            keep(context.h0);
        }));
}

} // namespace

std::string ourTotpCode(HashAlgorithm algorithm)
{
    auto generator = OtpGenerator::create(totpParameters(algorithm), asBytes(seedFor(algorithm)));
    if (!generator)
        return {};
    auto code = generator->codeForTime(kStartTime);
    return code ? *code : std::string();
}

Prepared prepareOneShotHmacTotp(HashAlgorithm algorithm, const std::string& expected)
{
    const EVP_MD* digest = crypto::openSslDigest(algorithm);
    const ByteView key = asBytes(seedFor(algorithm));
    const std::string check = oneShotHmacCode(digest, key, kStartTime);
    if (check.empty() || check != expected)
        return notTheSameWork("HMAC() one-shot", "OtpGenerator");
    return prepared(loop([digest, key, now = kStartTime]() mutable {
        auto code = oneShotHmacCode(digest, key, now);
        keep(code);
        now += kPeriod;
    }));
}

Prepared prepareFreshEvpMacTotp(const std::string& expected)
{
    // The parameters point at the digest name: both live on the heap, so the
    // routine can be moved.
    struct State
    {
        crypto::Mac hmac{EVP_MAC_fetch(nullptr, "HMAC", nullptr)};
        char digestName[5] = "SHA1";
        OSSL_PARAM parameters[2] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digestName, 0),
            OSSL_PARAM_construct_end()};
    };
    auto state = std::make_unique<State>();
    if (!state->hmac)
        return notPrepared("EVP_MAC_fetch(HMAC) failed");
    const ByteView key = asBytes(kSeedSha1);
    const std::string check =
        freshEvpMacCode(state->hmac.get(), state->parameters, key, kStartTime);
    if (check.empty() || check != expected)
        return notTheSameWork("a fresh EVP_MAC_CTX per code", "OtpGenerator");
    return prepared(loop([state = std::move(state), key, now = kStartTime]() mutable {
        auto code = freshEvpMacCode(state->hmac.get(), state->parameters, key, now);
        keep(code);
        now += kPeriod;
    }));
}

std::vector<Benchmark> totpBenchmarks()
{
    return {
        totp("totp/sha1", HashAlgorithm::Sha1,
             "one 6-digit TOTP SHA-1 code from a prepared key (20-byte secret)"),
        totp("totp/sha256", HashAlgorithm::Sha256,
             "one 6-digit TOTP SHA-256 code from a prepared key (32-byte secret)"),
        totp("totp/sha512", HashAlgorithm::Sha512,
             "one 6-digit TOTP SHA-512 code from a prepared key (64-byte secret)"),
        {"hotp/sha1", "one 6-digit HOTP SHA-1 code from a prepared key, the counter counting up", 0,
         "",
         [] {
             return prepareOurs({OtpKind::Hotp, HashAlgorithm::Sha1, kDigits, kPeriod, 0},
                                kSeedSha1);
         }},
        // A Steam shared secret is 20 bytes, like the RFC 6238 SHA-1 seed.
        {"steam/code", "one 5-character Steam Guard code from a prepared key", 0, "",
         [] {
             return prepareOurs(OtpParameters::steam(), kSeedSha1);
         }},
        oneShotReference("ref/openssl_hmac_oneshot_totp_sha1", HashAlgorithm::Sha1,
                         "totp/sha1 with OpenSSL's one-shot HMAC() (key hashed per code), then "
                         "the same truncation and digits"),
        oneShotReference("ref/openssl_hmac_oneshot_totp_sha256", HashAlgorithm::Sha256,
                         "totp/sha256 with OpenSSL's one-shot HMAC(), then the same truncation "
                         "and digits"),
        oneShotReference("ref/openssl_hmac_oneshot_totp_sha512", HashAlgorithm::Sha512,
                         "totp/sha512 with OpenSSL's one-shot HMAC(), then the same truncation "
                         "and digits"),
        {"ref/openssl_evp_mac_fresh_totp_sha1",
         "totp/sha1 with a new EVP_MAC_CTX keyed per code (the HMAC algorithm fetched once)", 0, "",
         [] {
             return prepareFreshEvpMacTotp(ourTotpCode(HashAlgorithm::Sha1));
         }},
        {"ref/sha1_floor_2_compressions",
         "two bare SHA-1 compressions: the least any TOTP SHA-1 code can cost", 0, "",
         prepareSha1Floor},
    };
}

} // namespace watchword::perf::entries

#pragma GCC diagnostic pop
