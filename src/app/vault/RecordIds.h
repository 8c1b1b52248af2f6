// What the app's parts agree on about records: ids as the models show them
// (hex), a record's title, and the time a change is stamped with.
#pragma once

#include "vault/Records.h"

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>

namespace watchword::app {

[[nodiscard]] QByteArray hexId(const vault::RecordId& id);
// The record id a model row names (hex), or nothing if it names none.
[[nodiscard]] std::optional<vault::RecordId> recordIdFrom(const QString& hex);
// How a record is named to a person: an account's displayTitle, a note's
// title, a contact's name.
[[nodiscard]] QString recordTitle(const vault::Record& record);
// Now, in Unix seconds (the wall clock: what created and modified record).
[[nodiscard]] std::int64_t nowSeconds();
// The device the app counts its changes under on this machine
// (vault/Device.h: <config>/watchword/app.device, <config> Qt's generic
// configuration location); a new random one for this run if it cannot be
// kept.
[[nodiscard]] const vault::DeviceId& appDevice();

} // namespace watchword::app
