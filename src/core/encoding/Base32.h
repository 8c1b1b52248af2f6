// Base32 text (RFC 4648 section 6) for bytes: the alphabet A-Z 2-7 that
// otpauth URIs and authenticator exports use for OTP secrets.
//
// Encoding writes upper case, with or without '=' padding. Decoding is lenient
// where people and exporters are (lower case, spaces and hyphens between
// groups, missing padding) and strict everywhere else: each rejection names
// what is wrong and where, with a 1-based byte position into the input.
//
// Both directions return a SecureBuffer: the bytes are usually an OTP secret,
// and so is the Base32 text of one.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <cstddef>
#include <string_view>

namespace watchword::encoding {

enum class Base32Error {
    InvalidCharacter,   // not A-Z, a-z, 2-7, '=', space or '-'
    MisplacedPadding,   // '=' where padding cannot start, or a symbol after '='
    WrongPaddingLength, // padding present but not exactly filling the last group
    ImpossibleLength,   // 1, 3 or 6 symbols in the last group: no byte count encodes to that
};

enum class Base32Padding {
    Include, // pad the last group to 8 symbols with '=' (RFC 4648 canonical form)
    Omit,    // no '=' (what the otpauth Key Uri Format asks for)
};

// Number of characters toBase32() writes for size bytes.
[[nodiscard]] constexpr std::size_t base32Length(std::size_t size, Base32Padding padding) noexcept
{
    if (padding == Base32Padding::Include)
        return (size + 4) / 5 * 8;
    return (size * 8 + 4) / 5;
}

// The upper-case Base32 text of bytes, as text in a SecureBuffer (view()).
[[nodiscard]] SecureBuffer toBase32(ByteView bytes, Base32Padding padding = Base32Padding::Include);

// What decoding does with a last group of 1, 3 or 6 symbols, which no
// Base32 encoder writes but people type (a secret copied with a character
// missing, or made up by hand) and some apps store. Each app decodes such a
// secret its own way, and an import must do as the app that wrote the file
// did, or the codes differ from the ones the user had (docs/FORMAT.md
// section 9, "Base32 secrets").
enum class Base32Tail {
    Refuse,      // ImpossibleLength (RFC 4648)
    DropBits,    // the whole bytes the symbols hold, the bits after them dropped:
                 // 17 symbols are 85 bits, 10 bytes
    DropSymbols, // the 1, 3 or 6 symbols dropped, then decoded: 17 symbols are
                 // 16, 10 bytes; 19 are 16, 10 bytes (DropBits: 11)
    ZeroFill,    // the bits after the last whole byte filled with zero bits to one
                 // more byte: 17 symbols are 11 bytes
};

// Decodes Base32 text. Letters of either case are accepted; ' ' and '-' are
// ignored anywhere (secrets are often shown in groups of four); padding is
// optional, but when present it must be complete (fill the last group of 8)
// and come last.
//
// Bits left over after the last whole byte are ignored even when they are not
// zero (RFC 4648 section 3.5 lets a decoder accept that). Services commonly
// issue secrets as random Base32 strings whose length is not a multiple of 8,
// and their own decoders drop those bits; rejecting them would refuse secrets
// that work everywhere else.
//
// tail says what a last group of 1, 3 or 6 symbols does (Refuse: an error).
[[nodiscard]] Result<SecureBuffer, Error<Base32Error>>
fromBase32(std::string_view text, Base32Tail tail = Base32Tail::Refuse);

} // namespace watchword::encoding
