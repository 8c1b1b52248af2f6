#include "base/SecureBuffer.h"
#include "crypto/CryptoState.h"
#include "crypto/Hmac.h"
#include "crypto/Kdf.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace watchword::crypto {

void hkdfExtract(HashAlgorithm algorithm, ByteView salt, ByteView ikm,
                 std::span<std::uint8_t> prk) noexcept
{
    assert(prk.size() == digestSize(algorithm));
    // An absent salt is HashLen zeros; HMAC pads a shorter key with zeros to a
    // block anyway, so the empty key gives the same result.
    HmacKey(algorithm, salt).compute(ikm, prk);
}

KdfResult hkdfExpand(HashAlgorithm algorithm, ByteView prk, ByteView info,
                     std::span<std::uint8_t> out)
{
    if (isDisabled())
        return fail(KdfError::CryptoDisabled, disabledReason());
    const std::size_t hashLength = digestSize(algorithm);
    if (out.empty())
        return fail(KdfError::EmptyOutput, "HKDF was asked for zero bytes");
    if (out.size() > 255 * hashLength)
        return fail(KdfError::OutputTooLong, "HKDF output of " + std::to_string(out.size()) +
                                                 " bytes exceeds 255 * " +
                                                 std::to_string(hashLength));

    const HmacKey key(algorithm, prk);
    // T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty.
    SecureBuffer message(hashLength + info.size() + 1);
    SecureBuffer block(hashLength);
    std::size_t previous = 0;
    std::uint8_t counter = 1;
    for (std::size_t offset = 0; offset < out.size(); offset += hashLength, ++counter) {
        std::copy(block.begin(), block.begin() + previous, message.begin());
        std::copy(info.begin(), info.end(), message.begin() + previous);
        message[previous + info.size()] = counter;
        key.compute(ByteView(message.data(), previous + info.size() + 1), block.span());
        previous = hashLength;
        std::copy_n(block.begin(), std::min(hashLength, out.size() - offset), out.begin() + offset);
    }
    return {};
}

KdfResult hkdf(HashAlgorithm algorithm, ByteView ikm, ByteView salt, ByteView info,
               std::span<std::uint8_t> out)
{
    SecureBuffer prk(digestSize(algorithm));
    hkdfExtract(algorithm, salt, ikm, prk.span());
    return hkdfExpand(algorithm, prk, info, out);
}

} // namespace watchword::crypto
