#include "crypto/CryptoState.h"
#include "crypto/Hmac.h"
#include "crypto/Kdf.h"
#include "crypto/detail/ShaBlocks.h"

#include <string>

namespace watchword::crypto {

namespace {

// One PBKDF2 block: T = U_1 ^ U_2 ^ ... ^ U_c with U_1 = HMAC(P, S || INT(i)).
// From U_2 on, the message is one digest, so the inner and the outer hash each
// take exactly one block of the same shape: digest, 0x80, zeros, and the
// length of one key block plus one digest. One buffer serves both: the inner
// compression writes its digest into it for the outer, and back again.
template <typename ChainType>
void pbkdf2Block(const detail::HmacChains<ChainType>& chains, ByteView salt, std::uint32_t index,
                 std::uint32_t iterations, std::uint8_t* out, std::size_t outSize)
{
    using T = detail::ShaTraits<ChainType>;
    alignas(8) std::uint8_t block[T::blockSize];
    alignas(8) std::uint8_t sum[T::digestSize];

    SecureBuffer first(salt.size() + 4);
    std::copy(salt.begin(), salt.end(), first.begin());
    first[salt.size()] = static_cast<std::uint8_t>(index >> 24);
    first[salt.size() + 1] = static_cast<std::uint8_t>(index >> 16);
    first[salt.size() + 2] = static_cast<std::uint8_t>(index >> 8);
    first[salt.size() + 3] = static_cast<std::uint8_t>(index);
    detail::computeHmac(chains, first.span(), block);
    std::memcpy(sum, block, T::digestSize);
    detail::padFinalBlock<ChainType>(block, T::digestSize, T::blockSize + T::digestSize);

    typename T::Context c;
    for (std::uint32_t i = 1; i < iterations; ++i) {
        T::load(c, chains.inner);
        T::compress(c, block);
        T::storeDigest(c, block);
        T::load(c, chains.outer);
        T::compress(c, block);
        T::storeDigest(c, block);
        for (std::size_t j = 0; j < T::digestSize; ++j)
            sum[j] ^= block[j];
    }
    std::memcpy(out, sum, outSize);
    secureWipe(block, sizeof block);
    secureWipe(sum, sizeof sum);
    secureWipe(&c, sizeof c);
}

template <typename ChainType>
void pbkdf2With(const detail::HmacChains<ChainType>& chains, ByteView salt,
                std::uint32_t iterations, std::span<std::uint8_t> out)
{
    constexpr std::size_t digest = detail::ShaTraits<ChainType>::digestSize;
    std::uint32_t index = 1;
    for (std::size_t offset = 0; offset < out.size(); offset += digest, ++index) {
        const std::size_t take = std::min(digest, out.size() - offset);
        pbkdf2Block(chains, salt, index, iterations, out.data() + offset, take);
    }
}

} // namespace

KdfResult pbkdf2(HashAlgorithm algorithm, ByteView password, ByteView salt,
                 std::uint32_t iterations, std::span<std::uint8_t> out)
{
    if (isDisabled())
        return fail(KdfError::CryptoDisabled, disabledReason());
    if (iterations == 0)
        return fail(KdfError::ZeroIterations, "PBKDF2 needs at least one iteration");
    if (out.empty())
        return fail(KdfError::EmptyOutput, "PBKDF2 was asked for zero bytes");
    const std::uint64_t blocks = (out.size() + digestSize(algorithm) - 1) / digestSize(algorithm);
    if (blocks > 0xffffffffULL)
        return fail(KdfError::OutputTooLong, "PBKDF2 output longer than 2^32 - 1 blocks");

    const HmacKey key(algorithm, password);
    std::visit([&](const auto& chains) { pbkdf2With(chains, salt, iterations, out); },
               key.chains());
    return {};
}

} // namespace watchword::crypto
