// The demo's vault (`watchword --demo`): what a typical user keeps, seven
// accounts of every kind and two notes, with random secrets, made in memory
// and never written anywhere. Qt-free: core types only.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "vault/Vault.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::app {

// The demo vault's password, shown on its unlock page.
inline constexpr std::string_view demoPassword = "demo";

struct DemoVault
{
    vault::Vault vault;
    Bytes file; // the vault serialized: the demo's file, in memory only
};

// Made at the floor's iterations, so that it opens at once; the error's
// message if the core refused any step.
[[nodiscard]] Result<DemoVault, std::string> makeDemoVault(crypto::RandomSource& random,
                                                           std::int64_t now);

// The import preview's demo (the documentation's screenshot): an otpauth://
// list of two of accounts (duplicates), the third with a new secret (same
// name, another secret) and two new accounts. Fails if accounts has fewer
// than three.
[[nodiscard]] Result<SecureBuffer, std::string>
demoImportSample(const std::vector<vault::OtpAccount>& accounts, crypto::RandomSource& random);

// The receive preview's demo (the documentation's screenshot): a share to
// the demo vault from its verified contact Alice (her phrase is the keychain
// test vectors' first, public), signed by her: a copy of the demo's first
// account (a duplicate), a new account and a note. Fails if the vault has
// no account or no sharing identity.
[[nodiscard]] Result<Bytes, std::string>
demoShareSample(const vault::Vault& demo, crypto::RandomSource& random, std::int64_t now);

} // namespace watchword::app
