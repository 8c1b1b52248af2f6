// secp256k1 keys and ECDH (SEC 1 v2, SEC 2 section 2.4.1) through
// libsecp256k1.
//
// One libsecp256k1 context serves the whole process: created and randomized
// (blinding against side channels) the first time it is needed, then only
// read, which libsecp256k1 allows from any number of threads at once.
//
// The types carry their validity: a SecretKey is always a scalar in [1, n-1],
// a PublicKey always a point on the curve (never infinity). So ECDH on them has
// no bad-input case left; it only refuses when the start-up self-test has
// disabled crypto (crypto/CryptoState.h).
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <secp256k1.h>
#include <span>
#include <utility>

namespace watchword::crypto {

enum class Secp256k1Error {
    InvalidSecretKey,     // not 32 bytes, zero, or not below the group order n
    InvalidPublicKey,     // wrong length or prefix, or not a point on the curve
    MalformedDer,         // SubjectPublicKeyInfo: not strict DER, or bytes left over
    UnsupportedAlgorithm, // SubjectPublicKeyInfo: not id-ecPublicKey (RFC 5480 section 2.1.1)
    UnsupportedCurve,     // SubjectPublicKeyInfo: a curve other than the named curve secp256k1
    CryptoDisabled,       // the start-up self-test failed
};

template <typename T> using Secp256k1Result = Result<T, Error<Secp256k1Error>>;

// The process-wide context, created and randomized with 32 bytes from
// systemRandom() on first use. Shared read-only; never destroy or randomize it
// again. Exposed so benchmarks can measure raw libsecp256k1 calls beside ours.
const secp256k1_context* secp256k1Context();

class PublicKey;

// A secp256k1 private scalar, 32 big-endian bytes in [1, n-1]. Move-only (the
// bytes are a secret); a moved-from key may only be destroyed or assigned to.
class SecretKey
{
public:
    static constexpr std::size_t size = 32;

    // Validates bytes (secp256k1_ec_seckey_verify). The caller's bytes stay the
    // caller's to wipe; the SecureBuffer overload takes them over instead.
    [[nodiscard]] static Secp256k1Result<SecretKey> fromBytes(ByteView bytes);
    [[nodiscard]] static Secp256k1Result<SecretKey> fromBytes(SecureBuffer&& bytes);

    // 32 bytes from random, drawn again while they are not a valid scalar (a
    // chance below 2^-127 per draw). A source that gives 64 invalid draws in a
    // row is broken and stops the process, as RandomSource promises.
    [[nodiscard]] static SecretKey generate(RandomSource& random);

    // The 32 secret bytes.
    ByteView bytes() const noexcept { return m_bytes.span(); }

    // d * G.
    [[nodiscard]] PublicKey publicKey() const;

private:
    explicit SecretKey(SecureBuffer bytes) noexcept : m_bytes(std::move(bytes)) {}

    SecureBuffer m_bytes;
};

// A point on secp256k1, not the point at infinity.
class PublicKey
{
public:
    static constexpr std::size_t compressedSize = 33;   // 02|03 || x
    static constexpr std::size_t uncompressedSize = 65; // 04 || x || y

    // A SEC 1 section 2.3.4 encoding: 33 bytes compressed or 65 bytes
    // uncompressed. The point is checked to lie on the curve and its
    // coordinates to be below p. The "hybrid" 06/07 prefixes of X9.62, which
    // libsecp256k1 would take, are refused: SEC 1 has no such encoding.
    [[nodiscard]] static Secp256k1Result<PublicKey> fromSec1(ByteView encoded);

    // An X.509 SubjectPublicKeyInfo (RFC 5280 section 4.1, RFC 5480 section
    // 2) in strict DER: algorithm id-ecPublicKey (1.2.840.10045.2.1) with the
    // named curve secp256k1 (1.3.132.0.10) as its only parameter, a BIT STRING
    // with no unused bits holding a SEC 1 point as fromSec1() takes it,
    // minimal lengths, nothing after the outer SEQUENCE. Explicit curve
    // parameters are refused: we support one curve and name it.
    [[nodiscard]] static Secp256k1Result<PublicKey> fromSubjectPublicKeyInfo(ByteView der);

    [[nodiscard]] std::array<std::uint8_t, compressedSize> compressed() const noexcept;
    [[nodiscard]] std::array<std::uint8_t, uncompressedSize> uncompressed() const noexcept;

    // The libsecp256k1 form, for calls this class does not wrap.
    const secp256k1_pubkey& native() const noexcept { return m_point; }

    friend bool operator==(const PublicKey& a, const PublicKey& b) noexcept;

private:
    friend class SecretKey;
    PublicKey() = default;

    secp256k1_pubkey m_point{};
};

inline constexpr std::size_t ecdhSecretSize = 32;

// ECDH (SEC 1 section 3.3.1): the x-coordinate of secretKey * publicKey, 32
// big-endian bytes, unhashed, as Wycheproof and most protocols define the
// shared secret (libsecp256k1's default would hash it). Feed it to a KDF;
// never use it as a key directly. Fails only with CryptoDisabled.
[[nodiscard]] Secp256k1Result<SecureBuffer> ecdh(const SecretKey& secretKey,
                                                 const PublicKey& publicKey);
// The same into out, with no allocation, for callers that keep the secret on
// their stack (and wipe it).
[[nodiscard]] Secp256k1Result<void> ecdh(const SecretKey& secretKey, const PublicKey& publicKey,
                                         std::span<std::uint8_t, ecdhSecretSize> out);

// ---- BIP340 Schnorr signatures --------------------------------------------

inline constexpr std::size_t schnorrMessageSize = 32;
inline constexpr std::size_t schnorrAuxSize = 32;
using SchnorrSignature = std::array<std::uint8_t, 64>;

// A BIP340 signature of a 32-byte message (libsecp256k1's schnorrsig
// module). BIP340 keys are x-only: a secret key whose point has an odd y
// signs as its negation, which libsecp256k1's keypair does; the signature
// verifies against the x-coordinate of secretKey.publicKey(). auxRandom is 32
// fresh random bytes, as BIP340 recommends (they harden the nonce against
// side channels; the nonce is still deterministic in key and message if
// they were constant). Fails only with CryptoDisabled.
[[nodiscard]] Secp256k1Result<SchnorrSignature>
schnorrSign(const SecretKey& secretKey, std::span<const std::uint8_t, schnorrMessageSize> message,
            std::span<const std::uint8_t, schnorrAuxSize> auxRandom);

// Whether signature is a valid BIP340 signature of message by the x-only
// form of publicKey (its y parity plays no part). Fails only with
// CryptoDisabled.
[[nodiscard]] Secp256k1Result<bool>
schnorrVerify(const PublicKey& publicKey, std::span<const std::uint8_t, schnorrMessageSize> message,
              const SchnorrSignature& signature);

} // namespace watchword::crypto
