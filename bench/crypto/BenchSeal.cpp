// encryption/*: ChaCha20-Poly1305 on the 49-byte note of the reference
// benchmark, context prepared, nonce given. record/*: the vault's record
// envelope on 64 bytes, with the IV from the system CSPRNG and, to separate
// that cost, from a constant source. random/*: the two CSPRNG calls an IV can
// come from. aes_cbc/*: AES-256-CBC on 64 bytes with the key schedule prepared
// once, against a fresh EVP context per message.
#include "BenchSupport.h"
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/AesCbc.h"
#include "crypto/ChaCha20Poly1305.h"
#include "crypto/OpenSslHandles.h"
#include "crypto/Random.h"
#include "crypto/RecordSealer.h"

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <span>
#include <string_view>

namespace {

using watchword::Bytes;
using watchword::ByteView;
using watchword::bench::bytesFromHex;
using watchword::bench::RepeatingRandom;
using watchword::crypto::AesCbc;
using watchword::crypto::ChaCha20Poly1305;
using watchword::crypto::RecordSealer;

constexpr std::string_view kKey =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr std::string_view kIv = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";

constexpr std::size_t kNoteSize = 49;   // the reference benchmark's note
constexpr std::size_t kRecordSize = 64; // a typical account record
constexpr std::size_t kRandomSize = 16; // one IV

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

void setBytes(benchmark::State& state, std::size_t bytesPerIteration)
{
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytesPerIteration));
}

// ---- encryption/*: ChaCha20-Poly1305, 49 bytes ------------------------------

void noteEncrypt(benchmark::State& state)
{
    auto cipher = ChaCha20Poly1305::create(bytesFromHex(kKey));
    if (!cipher) {
        state.SkipWithError(cipher.error().message.c_str());
        return;
    }
    const Bytes note = plaintext(kNoteSize);
    // A counter nonce, as a sender that keeps one key would use: unique per message.
    std::array<std::uint8_t, ChaCha20Poly1305::nonceSize> nonce{};
    std::uint64_t messageNumber = 0;
    for (auto _ : state) {
        ++messageNumber;
        std::copy_n(reinterpret_cast<const std::uint8_t*>(&messageNumber), sizeof messageNumber,
                    nonce.begin());
        auto sealed = cipher->encrypt(nonce, {}, note);
        benchmark::DoNotOptimize(sealed);
    }
    setBytes(state, kNoteSize);
}

void noteDecrypt(benchmark::State& state)
{
    auto cipher = ChaCha20Poly1305::create(bytesFromHex(kKey));
    if (!cipher) {
        state.SkipWithError(cipher.error().message.c_str());
        return;
    }
    const std::array<std::uint8_t, ChaCha20Poly1305::nonceSize> nonce{1};
    auto sealed = cipher->encrypt(nonce, {}, plaintext(kNoteSize));
    if (!sealed) {
        state.SkipWithError(sealed.error().message.c_str());
        return;
    }
    for (auto _ : state) {
        auto opened = cipher->decrypt(nonce, {}, *sealed);
        benchmark::DoNotOptimize(opened);
    }
    setBytes(state, kNoteSize);
}

// ---- record/*: AES-256-CBC + HMAC-SHA256, 64 bytes --------------------------

void recordSeal(benchmark::State& state, watchword::crypto::RandomSource& random)
{
    auto sealer = RecordSealer::create(bytesFromHex(kKey));
    if (!sealer) {
        state.SkipWithError(sealer.error().message.c_str());
        return;
    }
    const Bytes associatedData = recordAssociatedData();
    const Bytes record = plaintext(kRecordSize);
    for (auto _ : state) {
        auto sealed = sealer->seal(associatedData, record, random);
        benchmark::DoNotOptimize(sealed);
    }
    setBytes(state, kRecordSize);
}

void recordSealSystemRandom(benchmark::State& state)
{
    recordSeal(state, watchword::crypto::systemRandom());
}

void recordSealFixedIv(benchmark::State& state)
{
    RepeatingRandom constantIv(bytesFromHex(kIv));
    recordSeal(state, constantIv);
}

void recordOpen(benchmark::State& state)
{
    auto sealer = RecordSealer::create(bytesFromHex(kKey));
    if (!sealer) {
        state.SkipWithError(sealer.error().message.c_str());
        return;
    }
    const Bytes associatedData = recordAssociatedData();
    auto sealed =
        sealer->seal(associatedData, plaintext(kRecordSize), watchword::crypto::systemRandom());
    if (!sealed) {
        state.SkipWithError(sealed.error().message.c_str());
        return;
    }
    for (auto _ : state) {
        auto opened = sealer->open(associatedData, *sealed);
        benchmark::DoNotOptimize(opened);
    }
    setBytes(state, kRecordSize);
}

// ---- random/*: 16 bytes, one call -------------------------------------------

void randomGetrandom(benchmark::State& state)
{
    auto& random = watchword::crypto::systemRandom();
    std::array<std::uint8_t, kRandomSize> bytes;
    for (auto _ : state) {
        random.fill(bytes);
        benchmark::DoNotOptimize(bytes);
    }
    setBytes(state, kRandomSize);
}

void randomOpenSslRandBytes(benchmark::State& state)
{
    std::array<std::uint8_t, kRandomSize> bytes;
    for (auto _ : state) {
        const int ok = RAND_bytes(bytes.data(), static_cast<int>(bytes.size()));
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(bytes);
    }
    setBytes(state, kRandomSize);
}

// ---- aes_cbc/*: AES-256-CBC, 64 bytes (80 with PKCS#7 padding) ---------------

// The obvious OpenSSL code: a new context, key schedule and all, per message.
// False if OpenSSL failed.
bool encryptWithFreshContext(ByteView key, ByteView iv, ByteView input, std::span<std::uint8_t> out)
{
    const auto context = watchword::crypto::newCipherContext();
    int written = 0;
    int finalWritten = 0;
    return context &&
           EVP_EncryptInit_ex(context.get(), EVP_aes_256_cbc(), nullptr, key.data(), iv.data()) ==
               1 &&
           EVP_EncryptUpdate(context.get(), out.data(), &written, input.data(),
                             static_cast<int>(input.size())) == 1 &&
           EVP_EncryptFinal_ex(context.get(), out.data() + written, &finalWritten) == 1 &&
           static_cast<std::size_t>(written + finalWritten) == out.size();
}

void aesCbcPrepared(benchmark::State& state)
{
    auto cipher = AesCbc::create(bytesFromHex(kKey));
    if (!cipher) {
        state.SkipWithError(cipher.error().message.c_str());
        return;
    }
    const Bytes iv = bytesFromHex(kIv);
    const Bytes input = plaintext(kRecordSize);
    std::array<std::uint8_t, AesCbc::ciphertextSize(kRecordSize)> out;
    for (auto _ : state) {
        auto encrypted = cipher->encrypt(iv, input, out);
        benchmark::DoNotOptimize(encrypted);
        benchmark::DoNotOptimize(out);
    }
    setBytes(state, kRecordSize);
}

void aesCbcFreshContext(benchmark::State& state)
{
    const Bytes key = bytesFromHex(kKey);
    const Bytes iv = bytesFromHex(kIv);
    const Bytes input = plaintext(kRecordSize);
    std::array<std::uint8_t, AesCbc::ciphertextSize(kRecordSize)> out;

    // Both sides must write the same ciphertext, or the pair compares nothing.
    auto ours = AesCbc::create(key);
    std::array<std::uint8_t, AesCbc::ciphertextSize(kRecordSize)> expected;
    if (!ours || !ours->encrypt(iv, input, expected) ||
        !encryptWithFreshContext(key, iv, input, out) || out != expected) {
        state.SkipWithError("the fresh-context AES-CBC does not write AesCbc's ciphertext");
        return;
    }
    for (auto _ : state) {
        const bool ok = encryptWithFreshContext(key, iv, input, out);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(out);
    }
    setBytes(state, kRecordSize);
}

BENCHMARK(noteEncrypt)->Name("encryption/encrypt");
BENCHMARK(noteDecrypt)->Name("encryption/decrypt");
BENCHMARK(recordSealSystemRandom)->Name("record/seal_64");
BENCHMARK(recordSealFixedIv)->Name("record/seal_64_fixed_iv");
BENCHMARK(recordOpen)->Name("record/open_64");
BENCHMARK(randomGetrandom)->Name("random/getrandom_16");
BENCHMARK(randomOpenSslRandBytes)->Name("random/openssl_rand_bytes_16");
BENCHMARK(aesCbcPrepared)->Name("aes_cbc/encrypt_64_prepared");
BENCHMARK(aesCbcFreshContext)->Name("aes_cbc/encrypt_64_fresh_context");

} // namespace
