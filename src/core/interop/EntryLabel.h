// How an import's or an export's entry is named in a message: "entry 3
// (ACME)", by its place (1-based) and its issuer, else its account name.
// The importers and the exporters both name entries this way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace watchword::interop {

[[nodiscard]] std::string entryLabel(std::size_t index, std::string_view issuer,
                                     std::string_view accountName);

} // namespace watchword::interop
