#include "interop/importers/ImportPlan.h"

#include "crypto/Hash.h"
#include "interop/EntryLabel.h"

#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace watchword::importers {

namespace {

// The vault's accounts in the order the vault shows them (sort position,
// then id), so that a match names the same account on every run.
std::vector<const vault::OtpAccount*> vaultAccounts(const vault::Vault& vault)
{
    std::vector<const vault::OtpAccount*> accounts;
    for (const vault::Record* record : vault::sortedRecords(vault))
        if (const auto* account = std::get_if<vault::OtpAccount>(record))
            accounts.push_back(account);
    return accounts;
}

// The bucket of an account by what sameCodes compares: 8 bytes of the
// secret's SHA-256, mixed with the parameters that must be equal (the
// period only for time-based codes; the HOTP counter never).
std::uint64_t codesKey(ByteView secret, const otp::OtpParameters& parameters)
{
    const auto digest = crypto::sha256(secret);
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 8; ++i)
        key = key << 8 | digest[i];
    const std::uint64_t period = parameters.isTimeBased() ? parameters.period : 0;
    const std::uint64_t shape = (static_cast<std::uint64_t>(parameters.kind) << 56) ^
                                (static_cast<std::uint64_t>(parameters.algorithm) << 48) ^
                                (static_cast<std::uint64_t>(parameters.digits) << 40) ^ period;
    return key ^ (shape * 0x9E3779B97F4A7C15ull);
}

// The bucket of an account by its names: issuer and account name, joined by
// a byte neither holds (makeAccount refuses control characters).
std::string nameKey(const std::string& issuer, const std::string& accountName)
{
    return issuer + '\x1f' + accountName;
}

std::string entryName(std::size_t index, const ImportedAccount& account)
{
    return interop::entryLabel(index, account.issuer, account.accountName);
}

} // namespace

std::vector<PlannedAccount> planImport(const Imported& imported, const vault::Vault& vault)
{
    // Hash first, then compare: the vault's accounts and the entries read so
    // far are bucketed by what sameCodes compares (the secret through
    // SHA-256, so that a bucket's place says nothing usable about it), and
    // only the few in the same bucket are compared, in constant time, in the
    // order a linear search would meet them. Names are bucketed as they are.
    const auto existing = vaultAccounts(vault);
    std::unordered_multimap<std::uint64_t, std::size_t> vaultCodes, earlierCodes;
    std::unordered_multimap<std::string, std::size_t> vaultNames;
    vaultCodes.reserve(existing.size());
    vaultNames.reserve(existing.size());
    for (std::size_t k = 0; k < existing.size(); ++k) {
        vaultCodes.emplace(codesKey(existing[k]->secret, existing[k]->parameters), k);
        vaultNames.emplace(nameKey(existing[k]->issuer, existing[k]->accountName), k);
    }
    earlierCodes.reserve(imported.accounts.size());
    // The first of a bucket's members (in the order given) that matches.
    const auto firstMatch = [](const auto& buckets, auto key, auto matches) {
        std::optional<std::size_t> first;
        const auto [begin, end] = buckets.equal_range(key);
        for (auto it = begin; it != end; ++it)
            if ((!first || it->second < *first) && matches(it->second))
                first = it->second;
        return first;
    };

    std::vector<PlannedAccount> plan;
    plan.reserve(imported.accounts.size());
    for (std::size_t i = 0; i < imported.accounts.size(); ++i) {
        const ImportedAccount& account = imported.accounts[i];
        PlannedAccount row;
        row.index = i;
        const std::uint64_t codes = codesKey(account.secret, account.parameters);
        if (const auto k = firstMatch(vaultCodes, codes, [&](std::size_t candidate) {
                return sameCodes(account.secret, account.parameters, existing[candidate]->secret,
                                 existing[candidate]->parameters);
            })) {
            row.match = ImportMatch::Duplicate;
            row.existing = existing[*k]->id;
        } else if (const auto j = firstMatch(earlierCodes, codes, [&](std::size_t candidate) {
                       const ImportedAccount& earlier = imported.accounts[candidate];
                       return sameCodes(account.secret, account.parameters, earlier.secret,
                                        earlier.parameters);
                   })) {
            row.match = ImportMatch::Duplicate;
            row.earlierEntry = *j;
        } else if (const auto named = firstMatch(
                       vaultNames, nameKey(account.issuer, account.accountName),
                       [&](std::size_t candidate) {
                           return existing[candidate]->issuer == account.issuer &&
                                  existing[candidate]->accountName == account.accountName;
                       })) {
            row.match = ImportMatch::SameName;
            row.existing = existing[*named]->id;
        }
        earlierCodes.emplace(codes, i);
        plan.push_back(row);
    }
    return plan;
}

vault::VaultResult<std::vector<vault::RecordId>>
addImported(vault::Vault& vault, const Imported& imported, const std::vector<std::size_t>& chosen,
            crypto::RandomSource& random, std::int64_t now)
{
    // Each account gets the position vault::nextSortPosition would give it
    // if they were added one at a time: one after another, from after the
    // vault's records, up to 2^32 - 1, which the rest then share.
    std::uint32_t next = vault::nextSortPosition(vault);

    // Every record is made and checked before the first is added.
    std::vector<vault::Record> records;
    records.reserve(chosen.size());
    for (const std::size_t index : chosen) {
        if (index >= imported.accounts.size())
            return fail(vault::VaultError::InvalidRecord,
                        "entry " + std::to_string(index + 1) + ": the import has only " +
                            std::to_string(imported.accounts.size()) + " entries");
        const ImportedAccount& source = imported.accounts[index];
        vault::OtpAccount account;
        account.issuer = source.issuer;
        account.accountName = source.accountName;
        account.secret = source.secret.clone();
        account.parameters = source.parameters;
        account.tags = source.tags;
        account.note = source.note;
        account.created = now;
        account.modified = now;
        account.sortPosition = next;
        if (next != std::numeric_limits<std::uint32_t>::max())
            ++next;
        vault::Record record = std::move(account);
        if (auto valid = vault::validateRecord(record); !valid)
            return valid.failure(vault::VaultError::InvalidRecord, entryName(index, source) + ": ");
        records.push_back(std::move(record));
    }

    std::vector<vault::RecordId> ids;
    ids.reserve(records.size());
    for (auto& record : records) {
        auto added = vault.add(std::move(record), random);
        if (!added) {
            // Not expected after validateRecord; undo what went in.
            for (const auto& id : ids)
                (void)vault.remove(id);
            return added.failure();
        }
        ids.push_back(*added);
    }
    return ids;
}

std::vector<std::size_t> defaultChoice(const std::vector<PlannedAccount>& plan)
{
    std::vector<std::size_t> chosen;
    for (const auto& row : plan)
        if (row.match != ImportMatch::Duplicate)
            chosen.push_back(row.index);
    return chosen;
}

} // namespace watchword::importers
