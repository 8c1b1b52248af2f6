#include "app/vault/AccountCopies.h"

#include "app/vault/RecordViews.h"
#include "app/vault/VaultController.h"
#include "vault/Vault.h"

namespace watchword::app {

Result<std::vector<vault::OtpAccount>, QString> accountCopies(const VaultController& session,
                                                              const QStringList& recordIds)
{
    auto readable = session.readableVault();
    if (!readable)
        return readable.failure();
    std::vector<vault::OtpAccount> accounts;
    if (recordIds.isEmpty()) {
        for (const vault::Record* record : vault::sortedRecords(**readable))
            if (const auto* account = std::get_if<vault::OtpAccount>(record))
                accounts.push_back(account->clone());
        if (accounts.empty())
            return fail(VaultController::tr("The vault holds no accounts."));
        return accounts;
    }
    for (const auto& hex : recordIds) {
        const auto* account = findRecord<vault::OtpAccount>(session, hex);
        if (account == nullptr)
            return fail(VaultController::tr("No account %1 in this vault.").arg(hex));
        accounts.push_back(account->clone());
    }
    return accounts;
}

bool holdsAccounts(const VaultController& session)
{
    const vault::Vault* vault = session.vault();
    if (vault == nullptr)
        return false;
    for (std::size_t i = 0; i < vault->recordCount(); ++i)
        if (std::holds_alternative<vault::OtpAccount>(vault->record(i)))
            return true;
    return false;
}

} // namespace watchword::app
