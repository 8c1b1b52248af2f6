#include "importers/ImportPlan.h"

#include <limits>
#include <string>
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

std::string entryName(std::size_t index, const ImportedAccount& account)
{
    std::string name = "entry " + std::to_string(index + 1);
    const std::string& label = !account.issuer.empty() ? account.issuer : account.accountName;
    if (!label.empty())
        name += " (" + label + ")";
    return name;
}

} // namespace

bool sameCodes(ByteView secretA, const otp::OtpParameters& a, ByteView secretB,
               const otp::OtpParameters& b)
{
    if (a.kind != b.kind || a.algorithm != b.algorithm || a.digits != b.digits)
        return false;
    if (a.isTimeBased() && a.period != b.period)
        return false;
    return constantTimeEqual(secretA, secretB);
}

std::vector<PlannedAccount> planImport(const Imported& imported, const vault::Vault& vault)
{
    const auto existing = vaultAccounts(vault);
    std::vector<PlannedAccount> plan;
    plan.reserve(imported.accounts.size());
    for (std::size_t i = 0; i < imported.accounts.size(); ++i) {
        const ImportedAccount& account = imported.accounts[i];
        PlannedAccount row;
        row.index = i;
        for (const auto* present : existing) {
            if (sameCodes(account.secret, account.parameters, present->secret,
                          present->parameters)) {
                row.match = ImportMatch::Duplicate;
                row.existing = present->id;
                break;
            }
        }
        if (row.match == ImportMatch::New) {
            for (std::size_t j = 0; j < i; ++j) {
                const ImportedAccount& earlier = imported.accounts[j];
                if (sameCodes(account.secret, account.parameters, earlier.secret,
                              earlier.parameters)) {
                    row.match = ImportMatch::Duplicate;
                    row.earlierEntry = j;
                    break;
                }
            }
        }
        if (row.match == ImportMatch::New) {
            for (const auto* present : existing) {
                if (present->issuer == account.issuer &&
                    present->accountName == account.accountName) {
                    row.match = ImportMatch::SameName;
                    row.existing = present->id;
                    break;
                }
            }
        }
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
            return fail(vault::VaultError::InvalidRecord,
                        entryName(index, source) + ": " + valid.error().message);
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
            return fail(added.error());
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
