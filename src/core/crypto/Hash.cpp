#include "crypto/Hash.h"

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
