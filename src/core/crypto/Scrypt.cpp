#include "base/SecureBuffer.h"
#include "crypto/CryptoState.h"
#include "crypto/Kdf.h"
#include "crypto/OpenSslHandles.h"

#include <cstdint>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <string>

namespace watchword::crypto {

KdfResult checkScryptParameters(std::uint64_t n, std::uint32_t r, std::uint32_t p)
{
    if (n < 2 || (n & (n - 1)) != 0)
        return fail(KdfError::BadParameters,
                    "scrypt cost N = " + std::to_string(n) + " is not a power of two above 1");
    if (r == 0 || p == 0)
        return fail(KdfError::BadParameters, "scrypt block size r = " + std::to_string(r) +
                                                 " and parallelism p = " + std::to_string(p) +
                                                 ": both must be at least 1");
    // RFC 7914 section 2: N < 2^(128 * r / 8); only r < 4 can reach it.
    if (r < 4 && n >= (std::uint64_t{1} << (16 * r)))
        return fail(KdfError::BadParameters, "scrypt cost N = " + std::to_string(n) +
                                                 " is too large for r = " + std::to_string(r) +
                                                 " (RFC 7914 needs N < 2^(16 r))");
    // Checked by division, so no product can overflow before the comparison.
    const std::uint64_t blockBytes = std::uint64_t{128} * r; // r <= 2^32: no overflow
    const std::string limit = scryptMemoryLimit % (std::uint64_t{1} << 30) == 0
                                  ? std::to_string(scryptMemoryLimit >> 30) + " GiB"
                                  : std::to_string(scryptMemoryLimit >> 20) + " MiB";
    if (n > scryptMemoryLimit / blockBytes)
        return fail(KdfError::MemoryLimit,
                    "scrypt parameters N = " + std::to_string(n) + ", r = " + std::to_string(r) +
                        " need N * r * 128 bytes, more than the " + limit + " allowed; refused");
    if (p > scryptMemoryLimit / blockBytes)
        return fail(KdfError::MemoryLimit,
                    "scrypt parameters r = " + std::to_string(r) + ", p = " + std::to_string(p) +
                        " need p * r * 128 bytes, more than the " + limit + " allowed; refused");
    return {};
}

Result<SecureBuffer, Error<KdfError>> scrypt(ByteView password, ByteView salt, std::uint64_t n,
                                             std::uint32_t r, std::uint32_t p, std::size_t length)
{
    if (isDisabled())
        return fail(KdfError::CryptoDisabled, disabledReason());
    if (auto checked = checkScryptParameters(n, r, p); !checked)
        return checked.failure();
    if (length == 0)
        return fail(KdfError::EmptyOutput, "scrypt was asked for zero bytes");
    const std::uint64_t blockBytes = std::uint64_t{128} * r;
    // What OpenSSL itself allocates: the table of N + 2 blocks and p blocks.
    // Its default cap (32 MiB) would refuse RFC 7914's own fourth example.
    std::uint64_t memoryNeeded = blockBytes * (n + 2) + blockBytes * p;

    const Kdf kdf(EVP_KDF_fetch(nullptr, "SCRYPT", nullptr));
    const KdfContext context(kdf ? EVP_KDF_CTX_new(kdf.get()) : nullptr);
    if (!context) {
        ERR_clear_error();
        return fail(KdfError::BackendFailure, "scrypt: OpenSSL has no scrypt (EVP_KDF_fetch)");
    }
    // OpenSSL reads, never writes, the octet strings; an empty password or
    // salt still needs a valid pointer.
    std::uint8_t empty = 0;
    auto octets = [&](const char* name, ByteView bytes) {
        return OSSL_PARAM_construct_octet_string(
            name, bytes.empty() ? &empty : const_cast<std::uint8_t*>(bytes.data()), bytes.size());
    };
    std::uint64_t nParameter = n;
    std::uint32_t rParameter = r;
    std::uint32_t pParameter = p;
    const OSSL_PARAM parameters[] = {
        octets(OSSL_KDF_PARAM_PASSWORD, password),
        octets(OSSL_KDF_PARAM_SALT, salt),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &nParameter),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &rParameter),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &pParameter),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &memoryNeeded),
        OSSL_PARAM_construct_end()};
    SecureBuffer out(length);
    if (EVP_KDF_derive(context.get(), out.data(), out.size(), parameters) != 1) {
        ERR_clear_error();
        return fail(KdfError::BackendFailure,
                    "scrypt: OpenSSL failed in EVP_KDF_derive (out of memory?)");
    }
    return out;
}

} // namespace watchword::crypto
