// Byte vocabulary shared by every core module.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace watchword {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

// The bytes of a string, without copying.
inline ByteView asBytes(std::string_view text) noexcept
{
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

} // namespace watchword
