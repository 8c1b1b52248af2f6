// Small POSIX file helpers shared by the vault's storage, the benchmark
// reports and baselines.
#pragma once

#include "base/Bytes.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace watchword {

// Writes every byte to descriptor, retrying short writes and EINTR. 0, or
// the errno of the write that failed.
int writeAll(int descriptor, ByteView bytes) noexcept;

// What writeFileAtomically does when path already exists.
enum class IfExists {
    Replace, // the new contents take its place in one rename
    Refuse,  // path is left alone and the error says it exists
};

// Writes path with contents atomically: a temp file in the same directory
// (exactly mode, whatever the umask), fsynced, then renamed over path
// (Replace) or hard-linked to it, which fails if path exists even when it
// appears between a check and the write (Refuse); the directory fsynced.
// On failure path is as it was and the temp file is gone; the error names
// the path.
std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               std::string_view contents, unsigned mode = 0644,
                                               IfExists ifExists = IfExists::Replace);

} // namespace watchword
