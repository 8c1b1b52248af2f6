// The CLI's --json output: documents built as nlohmann::json (the core's JSON
// library) and written as one line of compact text.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace watchword::cli {

// value as compact JSON, byte for byte what the CLI wrote before it used
// nlohmann (Qt's QJsonDocument::Compact), since other programs read it
// (docs/ARCHITECTURE.md, "JSON"): members in key order (the keys are ASCII),
// no spaces; text with one leading byte order mark dropped and each byte that
// is not UTF-8 replaced by U+FFFD, as Qt's UTF-8 decoding did, then escaped as
// nlohmann escapes it; integers, booleans and null as nlohmann writes them.
// Doubles are the one step of its own, where nlohmann would write "5.0" and
// "0.0001": a whole number of magnitude up to 2^53 is written as an integer
// ("5"); any other double as its shortest digits that read back as it, in
// fixed or exponent notation, whichever is shorter (fixed on a tie: "0.5",
// "1e-04", "1e+16", "12345678901234568"); NaN and infinities as null.
// tests/cli/TestCliJson.cpp compares it with QJsonDocument.
[[nodiscard]] std::string compactJson(const nlohmann::json& value);

} // namespace watchword::cli
