// The process-wide switch behind "a failed self-test blocks all crypto".
//
// The start-up self-test (src/core/selftest) calls disable() when a
// known-answer test fails. From then on every entry point that derives or
// uses keys (pbkdf2, hkdf, and all that is built on them: keychain, record
// sealing, sharing, OTP generators) refuses with an error that names the
// failing test. Nothing re-enables it in a running program.
#pragma once

#include <string>

namespace watchword::crypto {

[[nodiscard]] bool isDisabled() noexcept;
// Why crypto is disabled: "self-test failed: <test name>"; empty if enabled.
[[nodiscard]] std::string disabledReason();
void disable(std::string reason);

namespace testing {
// For the self-test's own tests only: lift the switch again.
void reenable();
} // namespace testing

} // namespace watchword::crypto
