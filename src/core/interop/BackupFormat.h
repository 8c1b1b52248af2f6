// The layout of the Watchword backup (docs/FORMAT.md section 10), shared by
// its writer (interop/exporters/WatchwordBackup.cpp) and its reader
// (interop/importers/WatchwordBackup.cpp), so that the two cannot drift apart
// and neither folder includes the other.
#pragma once

#include "vault/Calibration.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace watchword::interop::backup {

// "WWBACKUP": 57 57 42 41 43 4b 55 50.
inline constexpr std::string_view magic = "WWBACKUP";
inline constexpr std::uint16_t version = 1;
// The KDF byte: 1 = PBKDF2-HMAC-SHA256, the only one.
inline constexpr std::uint8_t kdfPbkdf2Sha256 = 1;
// The vault's own bounds: a backup is as hard to guess as the vault it was
// taken from, and a crafted file cannot ask for hours of work.
inline constexpr std::uint32_t minimumIterations = vault::minimumPasswordIterations;
inline constexpr std::uint32_t maximumIterations = vault::maximumPasswordIterations;

inline constexpr std::size_t saltSize = 32;
inline constexpr std::size_t nonceSize = 12; // AES-256-GCM's 96-bit IV
inline constexpr std::size_t keySize = 32;
inline constexpr std::size_t tagSize = 16;

// Header offsets; the whole header is the AEAD's associated data.
inline constexpr std::size_t versionOffset = 8;     // u16
inline constexpr std::size_t kdfOffset = 10;        // u8
inline constexpr std::size_t iterationsOffset = 11; // u32
inline constexpr std::size_t saltOffset = 15;       // 32 bytes
inline constexpr std::size_t nonceOffset = 47;      // 12 bytes
inline constexpr std::size_t createdOffset = 59;    // i64, Unix seconds
inline constexpr std::size_t headerSize = 67;

// The payload: u32 account count, then per account u32 length || the
// account's record fields (section 6.4).
inline constexpr std::size_t countSize = 4;
inline constexpr std::size_t lengthSize = 4;

} // namespace watchword::interop::backup
