#include "crypto/Secp256k1.h"

#include "crypto/CryptoState.h"
#include "crypto/OpenSslHandles.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>
#include <string>
#include <utility>

namespace watchword::crypto {

namespace {

// OpenSslDeleter is the project's generic "call this free function" deleter;
// it owns the libsecp256k1 context too.
using ContextHandle =
    std::unique_ptr<secp256k1_context, OpenSslDeleter<&secp256k1_context_destroy>>;

ContextHandle makeContext()
{
    // libsecp256k1 calls its error callback (abort) itself when it cannot
    // allocate, so a null handle never comes back.
    ContextHandle context(secp256k1_context_create(SECP256K1_CONTEXT_NONE));
    std::uint8_t seed[32];
    systemRandom().fill(seed);
    // Randomizing blinds the generator multiplication against timing and
    // power side channels (secp256k1.h, secp256k1_context_randomize).
    const int randomized = secp256k1_context_randomize(context.get(), seed);
    secureWipe(seed, sizeof seed);
    if (randomized != 1)
        std::abort(); // only fails on the static context, which this is not
    return context;
}

extern "C" {
// The ECDH "hash": copy x and ignore y, so the output is the plain x-coordinate.
static int copyXCoordinate(unsigned char* output, const unsigned char* x32,
                           const unsigned char* /*y32*/, void* /*data*/)
{
    std::memcpy(output, x32, ecdhSecretSize);
    return 1;
}
}

Failure<Error<Secp256k1Error>> invalidSecretKey(std::string message)
{
    return fail(Secp256k1Error::InvalidSecretKey, std::move(message));
}

// ---- strict DER, just enough for one SubjectPublicKeyInfo ----------------

namespace der {
constexpr std::uint8_t sequenceTag = 0x30;
constexpr std::uint8_t bitStringTag = 0x03;
constexpr std::uint8_t objectIdentifierTag = 0x06;

// The content octets of 1.2.840.10045.2.1 (id-ecPublicKey, RFC 5480 section
// 2.1.1) and 1.3.132.0.10 (secp256k1, SEC 2 section A.2.1).
constexpr std::uint8_t idEcPublicKey[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
constexpr std::uint8_t secp256k1Curve[] = {0x2b, 0x81, 0x04, 0x00, 0x0a};

Failure<Error<Secp256k1Error>> malformed(const std::string& where, const std::string& what)
{
    return fail(Secp256k1Error::MalformedDer, "SubjectPublicKeyInfo: " + where + ": " + what);
}

// Reads one element with the given tag from the front of input, returning its
// content and advancing input past it. Only the definite, minimal length
// forms are DER (X.690 section 10.1); two length octets are plenty for a key.
Secp256k1Result<ByteView> readElement(ByteView& input, std::uint8_t tag, const char* where)
{
    if (input.empty())
        return malformed(where, "missing");
    if (input[0] != tag)
        return malformed(where, "unexpected tag");
    if (input.size() < 2)
        return malformed(where, "no length");
    std::size_t length = input[1];
    std::size_t header = 2;
    if (length == 0x80)
        return malformed(where, "indefinite length is not DER");
    if (length > 0x80) {
        const std::size_t octets = length & 0x7f;
        if (octets > 2)
            return malformed(where, "length too large for a public key");
        if (input.size() < 2 + octets)
            return malformed(where, "truncated length");
        if (input[2] == 0)
            return malformed(where, "length has leading zero octets");
        length = 0;
        for (std::size_t i = 0; i < octets; ++i)
            length = (length << 8) | input[2 + i];
        if (length < 0x80)
            return malformed(where, "long-form length where the short form fits");
        header += octets;
    }
    if (input.size() - header < length)
        return malformed(where, "content runs past the end of the input");
    const ByteView content = input.subspan(header, length);
    input = input.subspan(header + length);
    return content;
}

bool equals(ByteView bytes, std::span<const std::uint8_t> expected)
{
    return std::equal(bytes.begin(), bytes.end(), expected.begin(), expected.end());
}
} // namespace der

} // namespace

const secp256k1_context* secp256k1Context()
{
    static const ContextHandle context = makeContext();
    return context.get();
}

// ---- SecretKey -----------------------------------------------------------

Secp256k1Result<SecretKey> SecretKey::fromBytes(ByteView bytes)
{
    if (bytes.size() != size)
        return invalidSecretKey("a secp256k1 secret key is 32 bytes, not " +
                                std::to_string(bytes.size()));
    return fromBytes(SecureBuffer(bytes));
}

Secp256k1Result<SecretKey> SecretKey::fromBytes(SecureBuffer&& bytes)
{
    if (bytes.size() != size)
        return invalidSecretKey("a secp256k1 secret key is 32 bytes, not " +
                                std::to_string(bytes.size()));
    if (secp256k1_ec_seckey_verify(secp256k1Context(), bytes.data()) != 1)
        return invalidSecretKey("the secret key is zero or not below the secp256k1 group order");
    return SecretKey(std::move(bytes));
}

SecretKey SecretKey::generate(RandomSource& random)
{
    SecureBuffer bytes(size);
    for (int attempt = 0; attempt < 64; ++attempt) {
        random.fill(bytes.span());
        if (secp256k1_ec_seckey_verify(secp256k1Context(), bytes.data()) == 1)
            return SecretKey(std::move(bytes));
    }
    std::abort(); // 64 invalid scalars in a row: the random source is broken
}

PublicKey SecretKey::publicKey() const
{
    PublicKey result;
    [[maybe_unused]] const int created =
        secp256k1_ec_pubkey_create(secp256k1Context(), &result.m_point, m_bytes.data());
    assert(created == 1); // the key was verified when it was made
    return result;
}

// ---- PublicKey -----------------------------------------------------------

Secp256k1Result<PublicKey> PublicKey::fromSec1(ByteView encoded)
{
    const bool compressedForm =
        encoded.size() == compressedSize && (encoded[0] == 0x02 || encoded[0] == 0x03);
    const bool uncompressedForm = encoded.size() == uncompressedSize && encoded[0] == 0x04;
    if (encoded.size() != compressedSize && encoded.size() != uncompressedSize)
        return fail(Secp256k1Error::InvalidPublicKey,
                    "a secp256k1 public key is 33 bytes (compressed) or 65 bytes (uncompressed), "
                    "not " +
                        std::to_string(encoded.size()));
    if (!compressedForm && !uncompressedForm)
        return fail(Secp256k1Error::InvalidPublicKey,
                    encoded.size() == compressedSize
                        ? "a compressed secp256k1 public key must start with 02 or 03"
                        : "an uncompressed secp256k1 public key must start with 04");
    PublicKey key;
    if (secp256k1_ec_pubkey_parse(secp256k1Context(), &key.m_point, encoded.data(),
                                  encoded.size()) != 1)
        return fail(Secp256k1Error::InvalidPublicKey, "the public key is not a point on secp256k1");
    return key;
}

Secp256k1Result<PublicKey> PublicKey::fromSubjectPublicKeyInfo(ByteView der)
{
    ByteView input = der;
    auto outer = der::readElement(input, der::sequenceTag, "outer SEQUENCE");
    if (!outer)
        return outer.failure();
    if (!input.empty())
        return der::malformed("outer SEQUENCE", "bytes follow it");

    ByteView fields = *outer;
    auto algorithm = der::readElement(fields, der::sequenceTag, "AlgorithmIdentifier");
    if (!algorithm)
        return algorithm.failure();
    auto bits = der::readElement(fields, der::bitStringTag, "subjectPublicKey BIT STRING");
    if (!bits)
        return bits.failure();
    if (!fields.empty())
        return der::malformed("SubjectPublicKeyInfo SEQUENCE", "bytes follow the BIT STRING");

    ByteView algorithmFields = *algorithm;
    auto oid = der::readElement(algorithmFields, der::objectIdentifierTag, "algorithm OID");
    if (!oid)
        return oid.failure();
    if (!der::equals(*oid, der::idEcPublicKey))
        return fail(Secp256k1Error::UnsupportedAlgorithm,
                    "SubjectPublicKeyInfo: the algorithm is not id-ecPublicKey");
    if (algorithmFields.empty() || algorithmFields[0] != der::objectIdentifierTag)
        return fail(Secp256k1Error::UnsupportedCurve,
                    "SubjectPublicKeyInfo: the curve must be named by an OID "
                    "(explicit or absent parameters are not supported)");
    auto curve = der::readElement(algorithmFields, der::objectIdentifierTag, "curve OID");
    if (!curve)
        return curve.failure();
    if (!der::equals(*curve, der::secp256k1Curve))
        return fail(Secp256k1Error::UnsupportedCurve,
                    "SubjectPublicKeyInfo: the curve is not secp256k1");
    if (!algorithmFields.empty())
        return der::malformed("AlgorithmIdentifier", "bytes follow the curve OID");

    // X.690 section 8.6.2: the first content octet counts the unused bits of
    // the last octet; a SEC 1 point is whole octets, so it must be zero.
    if (bits->empty())
        return der::malformed("subjectPublicKey BIT STRING", "no content");
    if ((*bits)[0] != 0)
        return der::malformed("subjectPublicKey BIT STRING", "unused bits must be zero");
    auto key = fromSec1(bits->subspan(1));
    if (!key)
        return key.failure(Secp256k1Error::InvalidPublicKey, "SubjectPublicKeyInfo: ");
    return std::move(key).value();
}

std::array<std::uint8_t, PublicKey::compressedSize> PublicKey::compressed() const noexcept
{
    std::array<std::uint8_t, compressedSize> out;
    std::size_t length = out.size();
    secp256k1_ec_pubkey_serialize(secp256k1Context(), out.data(), &length, &m_point,
                                  SECP256K1_EC_COMPRESSED);
    return out;
}

std::array<std::uint8_t, PublicKey::uncompressedSize> PublicKey::uncompressed() const noexcept
{
    std::array<std::uint8_t, uncompressedSize> out;
    std::size_t length = out.size();
    secp256k1_ec_pubkey_serialize(secp256k1Context(), out.data(), &length, &m_point,
                                  SECP256K1_EC_UNCOMPRESSED);
    return out;
}

bool operator==(const PublicKey& a, const PublicKey& b) noexcept
{
    return secp256k1_ec_pubkey_cmp(secp256k1Context(), &a.m_point, &b.m_point) == 0;
}

// ---- ECDH ----------------------------------------------------------------

Secp256k1Result<void> ecdh(const SecretKey& secretKey, const PublicKey& publicKey,
                           std::span<std::uint8_t, ecdhSecretSize> out)
{
    if (isDisabled())
        return fail(Secp256k1Error::CryptoDisabled, disabledReason());
    [[maybe_unused]] const int computed =
        secp256k1_ecdh(secp256k1Context(), out.data(), &publicKey.native(),
                       secretKey.bytes().data(), copyXCoordinate, nullptr);
    // secp256k1_ecdh fails only for an invalid scalar, which SecretKey excludes.
    assert(computed == 1);
    return {};
}

Secp256k1Result<SecureBuffer> ecdh(const SecretKey& secretKey, const PublicKey& publicKey)
{
    SecureBuffer secret(ecdhSecretSize);
    auto computed = ecdh(secretKey, publicKey,
                         std::span<std::uint8_t, ecdhSecretSize>(secret.data(), ecdhSecretSize));
    if (!computed)
        return computed.failure();
    return secret;
}

// ---- BIP340 Schnorr ------------------------------------------------------

Secp256k1Result<SchnorrSignature>
schnorrSign(const SecretKey& secretKey, std::span<const std::uint8_t, schnorrMessageSize> message,
            std::span<const std::uint8_t, schnorrAuxSize> auxRandom)
{
    if (isDisabled())
        return fail(Secp256k1Error::CryptoDisabled, disabledReason());
    // The keypair holds the secret scalar: wiped before returning.
    secp256k1_keypair keypair;
    [[maybe_unused]] const int created =
        secp256k1_keypair_create(secp256k1Context(), &keypair, secretKey.bytes().data());
    // Fails only for an invalid scalar, which SecretKey excludes.
    assert(created == 1);
    SchnorrSignature signature{};
    [[maybe_unused]] const int signedOk = secp256k1_schnorrsig_sign32(
        secp256k1Context(), signature.data(), message.data(), &keypair, auxRandom.data());
    secureWipe(&keypair, sizeof keypair);
    // Fails only for an invalid keypair.
    assert(signedOk == 1);
    return signature;
}

Secp256k1Result<bool> schnorrVerify(const PublicKey& publicKey,
                                    std::span<const std::uint8_t, schnorrMessageSize> message,
                                    const SchnorrSignature& signature)
{
    if (isDisabled())
        return fail(Secp256k1Error::CryptoDisabled, disabledReason());
    secp256k1_xonly_pubkey xonly;
    [[maybe_unused]] const int converted = secp256k1_xonly_pubkey_from_pubkey(
        secp256k1Context(), &xonly, nullptr, &publicKey.native());
    // Fails only for an invalid point, which PublicKey excludes.
    assert(converted == 1);
    return secp256k1_schnorrsig_verify(secp256k1Context(), signature.data(), message.data(),
                                       message.size(), &xonly) == 1;
}

} // namespace watchword::crypto
