// Which devices changed a record, and how often: a version vector
// (docs/FORMAT.md sections 6.4, field 0x11, and 13). Every change a device
// makes to a record counts one more for that device; comparing two copies'
// counts tells whether one copy has seen every change of the other (it is
// newer) or each has changes the other lacks (they changed concurrently).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace watchword::vault {

inline constexpr std::size_t deviceIdSize = 8;
// A device: 8 random bytes per installation that writes the vault (the app
// on one machine, the command line tool on one machine). Not a secret.
using DeviceId = std::array<std::uint8_t, deviceIdSize>;

// The device under which a merge counts the changes it makes itself (a
// conflict resolved, a counter raised, a position moved). Every device
// merging the same two copies makes the same change under it, so their
// results agree. Never a real device's id.
inline constexpr DeviceId mergeDevice = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

// The most devices a record's changes name. A change by a 256th device drops
// the device with the fewest changes (the lowest id among equals): at worst
// a later merge sees a conflict where there was none, which its rules
// resolve without losing text.
inline constexpr std::size_t maximumChangeDevices = 255;

struct Change
{
    DeviceId device{};
    std::uint64_t count = 0; // at least 1

    friend bool operator==(const Change&, const Change&) = default;
};

// Ascending device id (bytes compared as unsigned), no device twice, every
// count at least 1. Empty: a record no device has changed since version 2 of
// the format (or one received from someone else and not changed since).
using Changes = std::vector<Change>;

enum class ChangeOrder {
    Same,      // the same changes
    Older,     // the first has seen a strict subset of the second's changes
    Newer,     // the first has seen every change of the second, and more
    Concurrent // each has changes the other has not seen
};

// How a's changes stand against b's.
[[nodiscard]] ChangeOrder compareChanges(const Changes& a, const Changes& b) noexcept;

// Every device's larger count: the changes of both.
[[nodiscard]] Changes combinedChanges(const Changes& a, const Changes& b);

// One more change by device (inserted in order if it is new). A count at
// 2^64 - 1 stays there.
void countChange(Changes& changes, const DeviceId& device);

// Whether changes keeps the rules above (ascending, distinct, counts >= 1,
// at most maximumChangeDevices).
[[nodiscard]] bool wellFormed(const Changes& changes) noexcept;

} // namespace watchword::vault
