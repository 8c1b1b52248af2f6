// Key derivation: PBKDF2 (RFC 8018) and HKDF (RFC 5869), both over HMAC with
// prepared keys (crypto/Hmac.h); scrypt (RFC 7914), over OpenSSL, for opening
// other apps' backups.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace watchword::crypto {

enum class KdfError {
    ZeroIterations, // PBKDF2 needs at least one iteration
    EmptyOutput,    // nothing to derive
    OutputTooLong,  // HKDF: more than 255 blocks; PBKDF2: more than 2^32 - 1 blocks
    CryptoDisabled, // the start-up self-test failed (crypto/CryptoState.h)
    BadParameters,  // scrypt: N not a power of two above 1, or r or p zero
    MemoryLimit,    // scrypt: the parameters would need more than scryptMemoryLimit bytes
    BackendFailure, // scrypt: OpenSSL refused (out of memory)
};

using KdfResult = Result<void, Error<KdfError>>;

// PBKDF2-HMAC-<algorithm> of password and salt, writing out.size() bytes.
// Bit-identical to OpenSSL's PKCS5_PBKDF2_HMAC; each iteration costs exactly
// two compressions of the hash.
[[nodiscard]] KdfResult pbkdf2(HashAlgorithm algorithm, ByteView password, ByteView salt,
                               std::uint32_t iterations, std::span<std::uint8_t> out);

// HKDF-Extract: prk = HMAC(salt, ikm). prk.size() must equal digestSize();
// an empty salt means digestSize() zero bytes, as RFC 5869 says.
void hkdfExtract(HashAlgorithm algorithm, ByteView salt, ByteView ikm,
                 std::span<std::uint8_t> prk) noexcept;

// HKDF-Expand of prk with info into out (at most 255 * digestSize() bytes).
[[nodiscard]] KdfResult hkdfExpand(HashAlgorithm algorithm, ByteView prk, ByteView info,
                                   std::span<std::uint8_t> out);

// Extract then expand.
[[nodiscard]] KdfResult hkdf(HashAlgorithm algorithm, ByteView ikm, ByteView salt, ByteView info,
                             std::span<std::uint8_t> out);

// The most memory scrypt() may use for its N * r * 128-byte table (and,
// separately, for its p * r * 128-byte blocks): the parameters come from the
// file being imported, and a hostile one would otherwise ask for any amount.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
// Fuzzing builds: 64 MiB (Aegis writes 32 MiB), so that a fuzzed file cannot
// push the fuzzer past its own memory limit.
inline constexpr std::uint64_t scryptMemoryLimit = std::uint64_t{1} << 26;
#else
inline constexpr std::uint64_t scryptMemoryLimit = std::uint64_t{1} << 30;
#endif

// Whether scrypt() would take cost n, block size r and parallelism p, without
// deriving anything: BadParameters (n not a power of two above 1, n too large
// for r, r or p zero) or MemoryLimit (n * r * 128 or p * r * 128 bytes over
// scryptMemoryLimit). The messages name the values and the bound. For callers
// that must check every set of parameters before deriving any key.
[[nodiscard]] KdfResult checkScryptParameters(std::uint64_t n, std::uint32_t r, std::uint32_t p);

// scrypt (RFC 7914) of password and salt with cost n (a power of two, at
// least 2), block size r and parallelism p: length bytes. Errors:
// BadParameters, EmptyOutput, MemoryLimit (before anything is allocated;
// both as checkScryptParameters), BackendFailure, CryptoDisabled.
[[nodiscard]] Result<SecureBuffer, Error<KdfError>> scrypt(ByteView password, ByteView salt,
                                                           std::uint64_t n, std::uint32_t r,
                                                           std::uint32_t p, std::size_t length);

} // namespace watchword::crypto
