// Key derivation: PBKDF2 (RFC 8018) and HKDF (RFC 5869), both over HMAC with
// prepared keys (crypto/Hmac.h).
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "crypto/Hash.h"

#include <cstdint>
#include <span>

namespace watchword::crypto {

enum class KdfError {
    ZeroIterations, // PBKDF2 needs at least one iteration
    EmptyOutput,    // nothing to derive
    OutputTooLong,  // HKDF: more than 255 blocks; PBKDF2: more than 2^32 - 1 blocks
    CryptoDisabled, // the start-up self-test failed (crypto/CryptoState.h)
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

} // namespace watchword::crypto
