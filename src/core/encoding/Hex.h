// Hexadecimal (base 16) text for bytes: lower case out, either case in.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"

#include <string>
#include <string_view>

namespace watchword::encoding {

enum class HexError {
    OddLength,        // a byte needs two digits
    InvalidCharacter, // not 0-9, a-f, A-F
};

// The value of one hex digit (either case), or -1 if c is not one.
[[nodiscard]] int hexDigitValue(char c) noexcept;

[[nodiscard]] std::string toHex(ByteView bytes);
[[nodiscard]] Result<Bytes, Error<HexError>> fromHex(std::string_view text);

} // namespace watchword::encoding
