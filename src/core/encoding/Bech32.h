// Bech32m (BIP-350, on BIP-173's Bech32): a human-readable part, the
// separator '1', data in 5-bit groups from a 32-letter alphabet, and a
// six-letter checksum that finds any four substituted letters. Used for text
// a person copies or reads out (share/Identity.h). Only Bech32m is produced
// and accepted; Bech32's checksum (the other constant) is refused.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::encoding {

enum class Bech32Error {
    TooLong,      // more than 90 characters
    MixedCase,    // upper and lower case letters together
    NoSeparator,  // no '1', or nothing before it (empty human-readable part)
    BadCharacter, // outside 33..126 in the human-readable part, or not in
                  // the alphabet in the data part
    TooShort,     // fewer than six letters after the separator
    BadChecksum,  // the checksum does not match (a letter changed, or a Bech32 string)
    BadPadding,   // the 5-bit groups do not end on a byte (more than 4 bits left,
                  // or bits left that are not zero)
};

// A string's letters as the checksum sees them: the human-readable part
// (lower case) and the data's 5-bit groups, the checksum taken off.
struct Bech32Groups
{
    std::string humanReadablePart;
    std::vector<std::uint8_t> groups;
};

struct Bech32Decoded
{
    std::string humanReadablePart; // lower case
    Bytes data;                    // the 5-bit groups turned back into bytes
};

// The Bech32m string of hrp (lower case, 1 to 83 characters of 33..126) and
// data (bytes, regrouped into 5 bits, the last group padded with zeros).
// hrp must be valid and the result at most 90 characters: the caller's
// constants, checked by an assertion.
[[nodiscard]] std::string toBech32m(std::string_view hrp, ByteView data);

// Checks a Bech32m string (all lower or all upper case: length, case,
// separator, letters, checksum) and gives its groups.
[[nodiscard]] Result<Bech32Groups, Error<Bech32Error>> bech32mGroups(std::string_view text);

// The same, and the groups turned back into bytes (BadPadding if they do not
// end on a byte).
[[nodiscard]] Result<Bech32Decoded, Error<Bech32Error>> fromBech32m(std::string_view text);

} // namespace watchword::encoding
