#include "app/vault/AccountCopies.h"

#include "app/vault/RecordIds.h"
#include "app/vault/VaultController.h"
#include "vault/Vault.h"

namespace watchword::app {

Result<std::vector<vault::OtpAccount>, QString> accountCopies(const VaultController& session,
                                                              const QStringList& recordIds)
{
    auto readable = session.readableVault();
    if (!readable)
        return readable.failure();
    const vault::Vault& vault = **readable;
    std::vector<vault::OtpAccount> accounts;
    if (recordIds.isEmpty()) {
        for (const vault::OtpAccount* account : listedAccounts(session))
            accounts.push_back(account->clone());
        if (accounts.empty())
            return fail(VaultController::tr("The vault holds no accounts."));
        return accounts;
    }
    for (const auto& hex : recordIds) {
        const auto id = recordIdFrom(hex);
        const auto* account = id ? std::get_if<vault::OtpAccount>(vault.find(*id)) : nullptr;
        if (account == nullptr)
            return fail(VaultController::tr("No account %1 in this vault.").arg(hex));
        accounts.push_back(account->clone());
    }
    return accounts;
}

std::vector<const vault::OtpAccount*> listedAccounts(const VaultController& session)
{
    std::vector<const vault::OtpAccount*> accounts;
    if (const vault::Vault* vault = session.vault())
        for (const vault::Record* record : vault::sortedRecords(*vault))
            if (const auto* account = std::get_if<vault::OtpAccount>(record))
                accounts.push_back(account);
    return accounts;
}

} // namespace watchword::app
