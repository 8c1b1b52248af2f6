// pbkdf2/*: our PBKDF2 against OpenSSL's PKCS5_PBKDF2_HMAC and against the
// floor, the bare compressions it cannot avoid.
#include "base/SecureBuffer.h"
#include "crypto/Kdf.h"

#include <benchmark/benchmark.h>
#include <openssl/evp.h>

// The floor benchmark calls the raw block function, as our PBKDF2 does.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <openssl/sha.h>

namespace {

using watchword::asBytes;
using watchword::SecureBuffer;
using watchword::crypto::HashAlgorithm;

// The BIP39 shape: a 24-word mnemonic as password, "mnemonic" + passphrase as salt.
constexpr std::string_view kPassword =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon art";
constexpr std::string_view kSalt = "mnemonicTREZOR";

void ours(benchmark::State& state, HashAlgorithm algorithm, std::uint32_t iterations)
{
    SecureBuffer out(digestSize(algorithm));
    for (auto _ : state) {
        const auto result = watchword::crypto::pbkdf2(algorithm, asBytes(kPassword), asBytes(kSalt),
                                                      iterations, out.span());
        benchmark::DoNotOptimize(result.ok());
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["rounds/s"] = benchmark::Counter(static_cast<double>(iterations),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

void openssl(benchmark::State& state, HashAlgorithm algorithm, int iterations)
{
    SecureBuffer out(digestSize(algorithm));
    for (auto _ : state) {
        const int ok = PKCS5_PBKDF2_HMAC(kPassword.data(), static_cast<int>(kPassword.size()),
                                         reinterpret_cast<const unsigned char*>(kSalt.data()),
                                         static_cast<int>(kSalt.size()), iterations,
                                         watchword::crypto::openSslDigest(algorithm),
                                         static_cast<int>(out.size()), out.data());
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["rounds/s"] = benchmark::Counter(static_cast<double>(iterations),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

// 2 x 2048 SHA-512 compressions on one block: what PBKDF2 cannot go below.
void floorSha512(benchmark::State& state)
{
    SHA512_CTX context;
    SHA512_Init(&context);
    alignas(8) unsigned char block[128] = {1, 2, 3};
    for (auto _ : state) {
        for (int i = 0; i < 2 * 2048; ++i)
            SHA512_Transform(&context, block);
        benchmark::DoNotOptimize(context.h[0]);
    }
}

BENCHMARK_CAPTURE(ours, sha512_2048, HashAlgorithm::Sha512, 2048)
    ->Name("pbkdf2/sha512_2048/watchword")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(openssl, sha512_2048, HashAlgorithm::Sha512, 2048)
    ->Name("pbkdf2/sha512_2048/openssl_pkcs5")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(floorSha512)
    ->Name("pbkdf2/sha512_2048/floor_4096_compressions")
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(ours, sha256_1000, HashAlgorithm::Sha256, 1000)
    ->Name("pbkdf2/sha256_1000/watchword")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(openssl, sha256_1000, HashAlgorithm::Sha256, 1000)
    ->Name("pbkdf2/sha256_1000/openssl_pkcs5")
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(ours, sha1_1000, HashAlgorithm::Sha1, 1000)
    ->Name("pbkdf2/sha1_1000/watchword")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(openssl, sha1_1000, HashAlgorithm::Sha1, 1000)
    ->Name("pbkdf2/sha1_1000/openssl_pkcs5")
    ->Unit(benchmark::kMicrosecond);

} // namespace

#pragma GCC diagnostic pop
