#include "app/codes/AccountStore.h"

#include "app/codes/AccountDraft.h"
#include "app/codes/Clock.h"
#include "app/desktop/ClipboardService.h"
#include "app/vault/RecordIds.h"
#include "app/vault/RecordViews.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "interop/importers/ImportPlan.h"
#include "text/CoreText.h"
#include "vault/Vault.h"

#include <algorithm>

namespace watchword::app {

namespace {

// The model's row for account, or nothing when its generator cannot be made
// (validated when stored: only a disabled crypto core refuses it).
std::optional<AccountEntry> accountEntry(const vault::OtpAccount& account)
{
    auto generator = otp::OtpGenerator::create(account.parameters, account.secret.span());
    if (!generator)
        return std::nullopt;
    return AccountEntry{hexId(account.id),
                        QString::fromStdString(account.issuer),
                        QString::fromStdString(account.accountName),
                        toQStringList(account.tags),
                        std::move(*generator),
                        account.lastUsed.value_or(0),
                        account.sortPosition};
}

QString titleOf(const vault::OtpAccount& account)
{
    return accountTitle(QString::fromStdString(account.issuer),
                        QString::fromStdString(account.accountName));
}

QString noLongerThere()
{
    return AccountStore::tr("That account is no longer in the vault.");
}

} // namespace

AccountStore::AccountStore(VaultController& session, Clock& clock, ClipboardService& clipboard,
                           QObject* parent)
    : QObject(parent), m_session(session), m_clock(clock), m_clipboard(clipboard)
{
    connect(&m_clock, &Clock::secondChanged, this, [this](qint64 second) { m_model.tick(second); });
    followRecords<vault::OtpAccount>(m_session, this);
}

void AccountStore::fill()
{
    std::vector<AccountEntry> entries;
    for (const vault::OtpAccount* account : recordsOf<vault::OtpAccount>(m_session))
        if (auto entry = accountEntry(*account))
            entries.push_back(std::move(*entry));
    m_model.setAccounts(std::move(entries), m_clock.second());
}

void AccountStore::empty()
{
    m_model.clear();
    m_clipboard.clearNow();
}

void AccountStore::hide(const QByteArray& recordId)
{
    m_model.remove(recordId);
}

const vault::OtpAccount* AccountStore::find(const QString& recordId) const
{
    return findRecord<vault::OtpAccount>(m_session, recordId);
}

void AccountStore::show(const vault::OtpAccount& account)
{
    if (auto entry = accountEntry(account))
        m_model.upsert(std::move(*entry), m_clock.second());
}

bool AccountStore::copyCode(const QString& recordId)
{
    const QString code = m_model.plainCode(recordId.toLatin1());
    if (code.isEmpty())
        return false;
    m_clipboard.copy(code);
    // Recently used: in memory now, written with the next save (not while a
    // key job holds the vault: the code is copied all the same).
    vault::Vault* vault = m_session.busy() ? nullptr : m_session.editableVault();
    if (const auto* account = vault != nullptr ? find(recordId) : nullptr) {
        auto used = account->clone();
        used.lastUsed = nowSeconds();
        const std::int64_t when = *used.lastUsed;
        if (vault->update(std::move(used))) {
            m_model.setLastUsed(recordId.toLatin1(), when);
            m_session.deferSave();
        }
    }
    return true;
}

bool AccountStore::add(AccountDraft* draft)
{
    vault::Vault* vault = draft != nullptr ? m_session.editableVault() : nullptr;
    if (vault == nullptr)
        return false;
    vault::OtpAccount account;
    if (const auto filled = draft->toAccount(account); !filled) {
        m_session.setError(filled.error());
        return false;
    }
    const std::int64_t now = nowSeconds();
    account.created = now;
    account.modified = now;
    account.sortPosition = vault::nextSortPosition(*vault);
    auto added = vault->add(std::move(account), crypto::systemRandom());
    if (!added) {
        m_session.setError(text::fromCore(added.error().message));
        return false;
    }
    m_session.setError({});
    show(std::get<vault::OtpAccount>(*vault->find(*added)));
    m_session.requestSave();
    return true;
}

QString AccountStore::duplicateOf(AccountDraft* draft) const
{
    const vault::Vault* vault = m_session.vault();
    if (draft == nullptr || vault == nullptr)
        return {};
    vault::OtpAccount candidate;
    if (!draft->toAccount(candidate))
        return {};
    for (std::size_t i = 0; i < vault->recordCount(); ++i) {
        const auto* existing = std::get_if<vault::OtpAccount>(&vault->record(i));
        if (existing == nullptr || QString::fromLatin1(hexId(existing->id)) == draft->recordId())
            continue;
        if (importers::sameCodes(candidate.secret.span(), candidate.parameters,
                                 existing->secret.span(), existing->parameters))
            return titleOf(*existing);
    }
    return {};
}

bool AccountStore::update(AccountDraft* draft)
{
    vault::Vault* vault = draft != nullptr ? m_session.editableVault() : nullptr;
    if (vault == nullptr)
        return false;
    const auto* existing = find(draft->recordId());
    if (existing == nullptr) {
        m_session.setError(noLongerThere());
        return false;
    }
    vault::OtpAccount edited;
    if (const auto filled = draft->toAccount(edited); !filled) {
        m_session.setError(filled.error());
        return false;
    }
    // What the form does not edit stays as stored.
    edited.id = existing->id;
    edited.iconReference = existing->iconReference;
    edited.created = existing->created;
    edited.lastUsed = existing->lastUsed;
    edited.sortPosition = existing->sortPosition;
    edited.modified = nowSeconds();
    const auto id = existing->id;
    if (auto updated = vault->update(std::move(edited)); !updated) {
        m_session.setError(text::fromCore(updated.error().message));
        return false;
    }
    m_session.setError({});
    show(std::get<vault::OtpAccount>(*vault->find(id)));
    m_session.requestSave();
    return true;
}

AccountDraft* AccountStore::draftFor(const QString& recordId)
{
    const auto* account = find(recordId);
    if (account == nullptr)
        return nullptr;
    auto* draft = new AccountDraft();
    draft->loadAccount(*account);
    return draft; // a returned QObject without parent belongs to JavaScript
}

bool AccountStore::remove(const QString& recordId)
{
    if (m_session.editableVault() == nullptr)
        return false;
    const auto* account = find(recordId);
    if (account == nullptr) {
        m_session.setError(noLongerThere());
        return false;
    }
    if (!m_session.history()->remove(account->id, tr("Deleted %1").arg(titleOf(*account))))
        return false;
    hide(recordId.toLatin1());
    return true;
}

bool AccountStore::advanceCounter(const QString& recordId)
{
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr)
        return false;
    const auto* account = find(recordId);
    if (account == nullptr || account->parameters.kind != otp::OtpKind::Hotp)
        return false;
    auto advanced = account->clone();
    advanced.parameters.counter += 1;
    advanced.modified = nowSeconds();
    const auto id = advanced.id;
    if (auto updated = vault->update(std::move(advanced)); !updated) {
        m_session.setError(text::fromCore(updated.error().message));
        return false;
    }
    show(std::get<vault::OtpAccount>(*vault->find(id)));
    m_session.requestSave();
    return true;
}

bool AccountStore::move(const QString& recordId, int to)
{
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr)
        return false;
    // The accounts in manual order, as the view shows them.
    std::vector<std::pair<std::uint32_t, vault::RecordId>> order;
    for (std::size_t i = 0; i < vault->recordCount(); ++i)
        if (const auto* account = std::get_if<vault::OtpAccount>(&vault->record(i)))
            order.emplace_back(account->sortPosition, account->id);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto id = recordIdFrom(recordId);
    const auto from = std::find_if(order.begin(), order.end(),
                                   [&](const auto& entry) { return id && entry.second == *id; });
    if (from == order.end() || to < 0 || std::size_t(to) >= order.size())
        return false;
    auto moved = *from;
    order.erase(from);
    order.insert(order.begin() + to, moved);
    // Positions 0..n-1 in the new order; only records whose position changes
    // are sealed again.
    for (std::uint32_t position = 0; position < order.size(); ++position) {
        if (order[position].first == position)
            continue;
        auto account = std::get<vault::OtpAccount>(*vault->find(order[position].second)).clone();
        account.sortPosition = position;
        if (auto updated = vault->update(std::move(account)); !updated) {
            m_session.setError(text::fromCore(updated.error().message));
            return false;
        }
        m_model.setSortPosition(hexId(order[position].second), position);
    }
    m_session.requestSave();
    return true;
}

} // namespace watchword::app
