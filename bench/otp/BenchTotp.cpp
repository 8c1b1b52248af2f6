// totp/*, hotp/*, steam/*: one code from a prepared OtpGenerator, against the
// ways OpenSSL offers to compute the same string, and against the floor (the
// two bare hash compressions a code cannot avoid).
//
// Every side produces the same 6-digit string for the same time: the
// references run our generator once before timing and stop with an error if
// their code differs, so a pair always compares equal work.
#include "base/Bytes.h"
#include "crypto/Hash.h"
#include "crypto/OpenSslHandles.h"
#include "otp/OtpGenerator.h"
#include "otp/OtpParameters.h"

#include <array>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <string>
#include <string_view>

// The floor benchmark calls the raw block function, as our prepared HMAC does.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <openssl/sha.h>

namespace {

using watchword::asBytes;
using watchword::ByteView;
using watchword::crypto::HashAlgorithm;
using watchword::otp::OtpGenerator;
using watchword::otp::OtpKind;
using watchword::otp::OtpParameters;

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
// benchmark stops with an error instead of timing a failure path.
std::string codeFromMac(const unsigned char* mac, std::size_t macSize)
{
    if (mac == nullptr || macSize < 20)
        return {};
    return decimalCode(watchword::otp::dynamicTruncate(ByteView(mac, macSize)));
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
    const watchword::crypto::MacContext context(EVP_MAC_CTX_new(hmac));
    unsigned char mac[EVP_MAX_MD_SIZE];
    std::size_t macSize = 0;
    if (!context || EVP_MAC_init(context.get(), key.data(), key.size(), parameters) != 1 ||
        EVP_MAC_update(context.get(), message.data(), message.size()) != 1 ||
        EVP_MAC_final(context.get(), mac, &macSize, sizeof mac) != 1)
        return {};
    return codeFromMac(mac, macSize);
}

// Our code at kStartTime, for the references to check theirs against. An
// empty string if our side failed.
std::string ourCodeAtStart(HashAlgorithm algorithm)
{
    auto generator = OtpGenerator::create(totpParameters(algorithm), asBytes(seedFor(algorithm)));
    if (!generator)
        return {};
    auto code = generator->codeForTime(kStartTime);
    return code ? *code : std::string();
}

bool skipUnlessSameCode(benchmark::State& state, HashAlgorithm algorithm,
                        const std::string& referenceCode)
{
    const std::string ours = ourCodeAtStart(algorithm);
    if (!ours.empty() && ours == referenceCode)
        return false;
    state.SkipWithError("the reference code differs from OtpGenerator's: not the same work");
    return true;
}

// ---- benchmarks -------------------------------------------------------------

void totpWatchword(benchmark::State& state, HashAlgorithm algorithm)
{
    auto generator = OtpGenerator::create(totpParameters(algorithm), asBytes(seedFor(algorithm)));
    if (!generator) {
        state.SkipWithError(generator.error().message.c_str());
        return;
    }
    std::int64_t now = kStartTime;
    for (auto _ : state) {
        auto code = generator->codeForTime(now);
        benchmark::DoNotOptimize(code);
        now += kPeriod;
    }
}

void totpOpenSslOneShot(benchmark::State& state, HashAlgorithm algorithm)
{
    const EVP_MD* digest = watchword::crypto::openSslDigest(algorithm);
    const ByteView key = asBytes(seedFor(algorithm));
    if (skipUnlessSameCode(state, algorithm, oneShotHmacCode(digest, key, kStartTime)))
        return;
    std::int64_t now = kStartTime;
    for (auto _ : state) {
        auto code = oneShotHmacCode(digest, key, now);
        benchmark::DoNotOptimize(code);
        now += kPeriod;
    }
}

void totpOpenSslEvpMacFresh(benchmark::State& state)
{
    const watchword::crypto::Mac hmac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
    if (!hmac) {
        state.SkipWithError("EVP_MAC_fetch(HMAC) failed");
        return;
    }
    char digestName[] = "SHA1";
    const OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digestName, 0),
        OSSL_PARAM_construct_end()};
    const ByteView key = asBytes(kSeedSha1);
    if (skipUnlessSameCode(state, HashAlgorithm::Sha1,
                           freshEvpMacCode(hmac.get(), parameters, key, kStartTime)))
        return;
    std::int64_t now = kStartTime;
    for (auto _ : state) {
        auto code = freshEvpMacCode(hmac.get(), parameters, key, now);
        benchmark::DoNotOptimize(code);
        now += kPeriod;
    }
}

// Two SHA-1 compressions (inner block, outer block): below this no TOTP-SHA1
// implementation can go, whatever it prepares.
void totpSha1Floor(benchmark::State& state)
{
    SHA_CTX context;
    SHA1_Init(&context);
    alignas(8) unsigned char block[SHA_CBLOCK] = {1, 2, 3};
    for (auto _ : state) {
        SHA1_Transform(&context, block);
        SHA1_Transform(&context, block);
        benchmark::DoNotOptimize(context.h0);
    }
}

void hotpWatchword(benchmark::State& state)
{
    const OtpParameters parameters{OtpKind::Hotp, HashAlgorithm::Sha1, kDigits, kPeriod, 0};
    auto generator = OtpGenerator::create(parameters, asBytes(kSeedSha1));
    if (!generator) {
        state.SkipWithError(generator.error().message.c_str());
        return;
    }
    std::uint64_t counter = 0;
    for (auto _ : state) {
        auto code = generator->codeForCounter(counter++);
        benchmark::DoNotOptimize(code);
    }
}

void steamWatchword(benchmark::State& state)
{
    // A Steam shared secret is 20 bytes, like the RFC 6238 SHA-1 seed.
    auto generator = OtpGenerator::create(OtpParameters::steam(), asBytes(kSeedSha1));
    if (!generator) {
        state.SkipWithError(generator.error().message.c_str());
        return;
    }
    std::int64_t now = kStartTime;
    for (auto _ : state) {
        auto code = generator->codeForTime(now);
        benchmark::DoNotOptimize(code);
        now += watchword::otp::steamPeriod;
    }
}

// What adding or unlocking an account costs per row: validating the
// parameters and hashing the key into the inner/outer states.
void prepareKeySha1(benchmark::State& state)
{
    const OtpParameters parameters = totpParameters(HashAlgorithm::Sha1);
    const ByteView key = asBytes(kSeedSha1);
    for (auto _ : state) {
        auto generator = OtpGenerator::create(parameters, key);
        benchmark::DoNotOptimize(generator);
    }
}

BENCHMARK_CAPTURE(totpWatchword, sha1, HashAlgorithm::Sha1)->Name("totp/sha1/watchword");
BENCHMARK_CAPTURE(totpWatchword, sha256, HashAlgorithm::Sha256)->Name("totp/sha256/watchword");
BENCHMARK_CAPTURE(totpWatchword, sha512, HashAlgorithm::Sha512)->Name("totp/sha512/watchword");

BENCHMARK_CAPTURE(totpOpenSslOneShot, sha1, HashAlgorithm::Sha1)
    ->Name("totp/sha1/openssl_hmac_oneshot");
BENCHMARK_CAPTURE(totpOpenSslOneShot, sha256, HashAlgorithm::Sha256)
    ->Name("totp/sha256/openssl_hmac_oneshot");
BENCHMARK_CAPTURE(totpOpenSslOneShot, sha512, HashAlgorithm::Sha512)
    ->Name("totp/sha512/openssl_hmac_oneshot");

BENCHMARK(totpOpenSslEvpMacFresh)->Name("totp/sha1/openssl_evp_mac_fresh");
BENCHMARK(totpSha1Floor)->Name("totp/sha1/floor_2_compressions");

BENCHMARK(hotpWatchword)->Name("hotp/sha1/watchword");
BENCHMARK(steamWatchword)->Name("steam/watchword");
BENCHMARK(prepareKeySha1)->Name("totp/prepare_key/sha1");

} // namespace

#pragma GCC diagnostic pop
