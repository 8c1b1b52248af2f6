// The setter of a notifying Q_PROPERTY, written once: the member takes the
// new value and the owner's NOTIFY signal is emitted, only if it changed.
#pragma once

#include <utility>

namespace watchword::app {

// True if member changed (and changed() was emitted on owner).
template <typename Owner, typename T, typename V>
bool assignAndNotify(Owner* owner, T& member, V&& value, void (Owner::*changed)())
{
    if (member == value)
        return false;
    member = std::forward<V>(value);
    emit(owner->*changed)();
    return true;
}

} // namespace watchword::app
