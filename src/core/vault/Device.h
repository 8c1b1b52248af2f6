// This machine's device id for a program that writes vaults (docs/FORMAT.md
// section 13): 8 random bytes, made once and kept in the user's
// configuration directory, so that every change the program makes is
// counted under one device for as long as the machine keeps the file. Not a
// secret. POSIX only.
#pragma once

#include "base/Result.h"
#include "crypto/Random.h"
#include "vault/Changes.h"

#include <string>
#include <string_view>

namespace watchword::vault {

// <config>/watchword/<program>.device, where <config> is $XDG_CONFIG_HOME
// if absolute, else <home>/.config. Pure; empty if neither is usable.
[[nodiscard]] std::string deviceIdPath(std::string_view xdgConfigHome, std::string_view home,
                                       std::string_view program);

// The id kept at path: 16 hex digits and a newline. Made if the file does
// not exist: random, never all zero nor the merge device, written 0600 (its
// directories 0700) so that two programs starting at once keep the same
// one. Fails, naming the path, if it cannot be read or made, or holds
// something else.
[[nodiscard]] Result<DeviceId, std::string> loadOrCreateDeviceId(const std::string& path,
                                                                 crypto::RandomSource& random);

// The same at deviceIdPath() from the environment ($XDG_CONFIG_HOME, $HOME,
// else the password database).
[[nodiscard]] Result<DeviceId, std::string> thisDevice(std::string_view program,
                                                       crypto::RandomSource& random);

// "5ca1ab1e00c0ffee": a device as messages show it.
[[nodiscard]] std::string deviceText(const DeviceId& device);

} // namespace watchword::vault
