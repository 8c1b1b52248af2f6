#include "crypto/Hash.h"

#include <algorithm>
#include <cctype>
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

} // namespace watchword::crypto
