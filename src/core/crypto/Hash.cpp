#include "crypto/Hash.h"

#include "crypto/detail/ShaBlocks.h"

#include <algorithm>
#include <cctype>
#include <openssl/evp.h>
#include <string>

namespace watchword::crypto {

std::optional<HashAlgorithm> parseHashName(std::string_view name) noexcept
{
    std::string folded;
    for (char c : name) {
        if (c == '-')
            continue;
        folded.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
    for (auto algorithm : {HashAlgorithm::Sha1, HashAlgorithm::Sha256, HashAlgorithm::Sha512}) {
        if (folded == hashName(algorithm))
            return algorithm;
    }
    return std::nullopt;
}

std::array<std::uint8_t, 32> sha256(std::span<const std::uint8_t> data) noexcept
{
    std::array<std::uint8_t, 32> digest;
    detail::ShaTraits<detail::Sha256Chain>::Context context;
    detail::ShaTraits<detail::Sha256Chain>::init(context);
    detail::finishHash<detail::Sha256Chain>(context, data, 0, digest.data());
    secureWipe(&context, sizeof context);
    return digest;
}

const EVP_MD* openSslDigest(HashAlgorithm algorithm) noexcept
{
    switch (algorithm) {
    case HashAlgorithm::Sha1:
        return EVP_sha1();
    case HashAlgorithm::Sha256:
        return EVP_sha256();
    case HashAlgorithm::Sha512:
        return EVP_sha512();
    }
    return nullptr;
}

} // namespace watchword::crypto
