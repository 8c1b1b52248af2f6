// Small POSIX file helpers shared by the vault's storage and the benchmark
// reports.
#pragma once

#include "base/Bytes.h"

namespace watchword {

// Writes every byte to descriptor, retrying short writes and EINTR. 0, or
// the errno of the write that failed.
int writeAll(int descriptor, ByteView bytes) noexcept;

} // namespace watchword
