// Bringing imported accounts into a vault: first a plan (the preview the
// app and `watchword-cli vault import --dry-run` show, with each account
// marked new or already there), then the chosen ones added all at once or
// not at all.
#pragma once

#include "crypto/Random.h"
#include "interop/importers/Import.h"
#include "vault/Vault.h"
#include "vault/VaultError.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace watchword::importers {

enum class ImportMatch {
    New,       // nothing like it in the vault
    Duplicate, // an account with the same secret and code parameters is in the vault
               // (or earlier in the same import): adding it would only repeat codes
    SameName,  // same issuer and account name as a vault account, but a different secret
               // or parameters: a re-enrolled account, worth adding beside the old one
};

struct PlannedAccount
{
    std::size_t index = 0; // into Imported::accounts
    ImportMatch match = ImportMatch::New;
    // The vault account it matches (Duplicate from the vault, SameName), if any.
    std::optional<vault::RecordId> existing;
    // Duplicate of an earlier entry of the same import (its index), if so.
    std::optional<std::size_t> earlierEntry;
};

// One row per imported account, in import order. Secrets are compared in
// constant time.
// Whether two accounts would show the same codes (vault/Records.h): the
// import's preview and the add dialog both ask this.
using vault::sameCodes;

[[nodiscard]] std::vector<PlannedAccount> planImport(const Imported& imported,
                                                     const vault::Vault& vault);

// Adds imported.accounts[i] for every i in chosen (in that order) to vault, after
// its present records (sort positions from vault::nextSortPosition, one after
// another, up to 2^32 - 1), with created = modified = now, no last used and no
// icon, the source's tags and note. Every account is
// checked first: on any error (InvalidRecord naming the entry) the vault is
// left exactly as it was. Returns the new records' ids in chosen's order.
[[nodiscard]] vault::VaultResult<std::vector<vault::RecordId>>
addImported(vault::Vault& vault, const Imported& imported, const std::vector<std::size_t>& chosen,
            crypto::RandomSource& random, std::int64_t now);

// The indexes a default import takes: every account not marked Duplicate.
[[nodiscard]] std::vector<std::size_t> defaultChoice(const std::vector<PlannedAccount>& plan);

} // namespace watchword::importers
