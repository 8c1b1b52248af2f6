// Big-endian integers in byte buffers, as every integer of the vault format is
// stored. Callers check bounds before calling.
#pragma once

#include <cstddef>
#include <cstdint>

namespace watchword::vault::detail {

template <typename Unsigned> Unsigned readBigEndian(const std::uint8_t* in) noexcept
{
    Unsigned value = 0;
    for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
        value = static_cast<Unsigned>((value << 8) | in[i]);
    return value;
}

template <typename Unsigned> void writeBigEndian(std::uint8_t* out, Unsigned value) noexcept
{
    for (std::size_t i = sizeof(Unsigned); i-- > 0;) {
        out[i] = static_cast<std::uint8_t>(value & 0xff);
        value = static_cast<Unsigned>(value >> 8);
    }
}

} // namespace watchword::vault::detail
