#include "keychain/Wordlist.h"

#include <algorithm>

namespace watchword::keychain {

std::optional<std::uint16_t> wordIndex(std::string_view word) noexcept
{
    const auto words = englishWordlist();
    const auto found = std::lower_bound(words.begin(), words.end(), word);
    if (found == words.end() || *found != word)
        return std::nullopt;
    return static_cast<std::uint16_t>(found - words.begin());
}

} // namespace watchword::keychain
