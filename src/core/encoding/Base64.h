// Base64 text (RFC 4648 section 4, and the URL-safe alphabet of section 5)
// for bytes: what other apps' exports carry keys and secrets in, and the
// body of an armoured share envelope (docs/FORMAT.md section 12.5).
//
// Decoding is strict: '=' padding to a whole group of four is required, no
// other character (no spaces, no line breaks: callers that allow them drop
// them first), and the bits past the last byte must be zero, so that one
// byte string has exactly one text.
#pragma once

#include "base/Bytes.h"
#include "base/SecureBuffer.h"

#include <optional>
#include <string>
#include <string_view>

namespace watchword::encoding {

enum class Base64Alphabet {
    Standard, // A-Z a-z 0-9 + /
    UrlSafe,  // A-Z a-z 0-9 - _
};

// Standard alphabet, with '=' padding.
[[nodiscard]] std::string toBase64(ByteView bytes);
// The same into a wiped buffer, for the text of a secret.
[[nodiscard]] SecureBuffer toBase64Secure(ByteView bytes);

// nullopt on any character outside alphabet (and '=' padding), a length that
// is not a multiple of 4, or nonzero bits after the last byte.
[[nodiscard]] std::optional<Bytes> fromBase64(std::string_view text, Base64Alphabet alphabet);

} // namespace watchword::encoding
