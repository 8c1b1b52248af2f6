#include "vault/Changes.h"

#include <algorithm>
#include <limits>

namespace watchword::vault {

namespace {

// The device with the fewest changes, the lowest id among equals.
Changes::iterator fewestChanges(Changes& changes)
{
    return std::min_element(changes.begin(), changes.end(),
                            [](const Change& x, const Change& y) { return x.count < y.count; });
}

} // namespace

ChangeOrder compareChanges(const Changes& a, const Changes& b) noexcept
{
    bool aAhead = false; // a has a change b has not seen
    bool bAhead = false;
    auto i = a.begin();
    auto j = b.begin();
    while (i != a.end() || j != b.end()) {
        if (j == b.end() || (i != a.end() && i->device < j->device)) {
            aAhead = true;
            ++i;
        } else if (i == a.end() || j->device < i->device) {
            bAhead = true;
            ++j;
        } else {
            aAhead = aAhead || i->count > j->count;
            bAhead = bAhead || j->count > i->count;
            ++i;
            ++j;
        }
        if (aAhead && bAhead)
            return ChangeOrder::Concurrent;
    }
    return aAhead ? ChangeOrder::Newer : bAhead ? ChangeOrder::Older : ChangeOrder::Same;
}

Changes combinedChanges(const Changes& a, const Changes& b)
{
    Changes combined;
    combined.reserve(a.size() + b.size());
    auto i = a.begin();
    auto j = b.begin();
    while (i != a.end() || j != b.end()) {
        if (j == b.end() || (i != a.end() && i->device < j->device))
            combined.push_back(*i++);
        else if (i == a.end() || j->device < i->device)
            combined.push_back(*j++);
        else {
            combined.push_back({i->device, std::max(i->count, j->count)});
            ++i;
            ++j;
        }
    }
    while (combined.size() > maximumChangeDevices)
        combined.erase(fewestChanges(combined));
    return combined;
}

void countChange(Changes& changes, const DeviceId& device)
{
    const auto place = [&] {
        return std::lower_bound(changes.begin(), changes.end(), device,
                                [](const Change& c, const DeviceId& d) { return c.device < d; });
    };
    const auto at = place();
    if (at != changes.end() && at->device == device) {
        if (at->count != std::numeric_limits<std::uint64_t>::max())
            ++at->count;
        return;
    }
    if (changes.size() >= maximumChangeDevices)
        changes.erase(fewestChanges(changes));
    changes.insert(place(), Change{device, 1});
}

bool wellFormed(const Changes& changes) noexcept
{
    if (changes.size() > maximumChangeDevices)
        return false;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        if (changes[i].count == 0)
            return false;
        if (i > 0 && !(changes[i - 1].device < changes[i].device))
            return false;
    }
    return true;
}

} // namespace watchword::vault
