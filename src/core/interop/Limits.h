// The bounds every import and every export keeps to: far above any real
// export, and a bound for memory and for the fuzzer. Here, beside the backup
// format, so that the importers (which refuse more) and the exporters (which
// never write more than the importers would read back) share them without
// including each other.
#pragma once

#include <cstddef>

namespace watchword::interop {

inline constexpr std::size_t maximumImportBytes = 16 * 1024 * 1024;
inline constexpr std::size_t maximumImportedAccounts = 10'000;

} // namespace watchword::interop
