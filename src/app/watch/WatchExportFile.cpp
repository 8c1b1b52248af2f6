#include "app/watch/WatchExportFile.h"

#include "app/codes/AccountListModel.h"
#include "app/vault/AccountCopies.h"
#include "app/vault/VaultController.h"
#include "app/watch/WatchCosts.h"
#include "app/watch/WatchProfiles.h"
#include "app/watch/WatchSimulator.h"
#include "base/FileIo.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "text/CoreText.h"
#include "watch/CostModel.h"
#include "watch/WatchOpener.h"

#include <QDateTime>
#include <QFile>

namespace watchword::app {

using text::fromCore;

namespace {

// What a watch export needs of the accounts with these record ids (hex),
// secrets copied into wiped buffers, in the order given.
Result<std::vector<watch::WatchAccount>, QString> watchAccountsOf(const VaultController& vault,
                                                                  const QStringList& recordIds)
{
    if (!vault.readableVault())
        return fail(WatchExportFile::tr("Unlock the vault to choose accounts for the watch."));
    if (recordIds.isEmpty())
        return fail(WatchExportFile::tr("Choose at least one account for the watch."));
    auto copies = accountCopies(vault, recordIds);
    if (!copies)
        return copies.failure();
    std::vector<watch::WatchAccount> accounts;
    for (const auto& account : *copies)
        accounts.push_back(watch::watchAccountFrom(account));
    return accounts;
}

// The largest payload the pane reads: far above 256 accounts of the longest
// fields (docs/FORMAT.md section 8), far below anything that hurts.
constexpr qint64 maximumPayloadBytes = 4 * 1024 * 1024;

} // namespace

WatchExportFile::WatchExportFile(WatchSimulator& simulator)
    : QObject(&simulator), m_simulator(simulator)
{
    connect(&simulator, &WatchSimulator::accountsChanged, this, &WatchExportFile::followAccounts);
    // Made for this watch or for another.
    connect(simulator.profiles(), &WatchProfiles::deviceChanged, this, [this] {
        if (m_header)
            emit exportChanged();
    });
}

void WatchExportFile::followAccounts()
{
    if (AccountListModel* previous = m_choices)
        disconnect(previous, nullptr, this, nullptr);
    m_choices = m_simulator.accounts();
    if (AccountListModel* accounts = m_choices) {
        for (const auto signal :
             {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(accounts, signal, this, &WatchExportFile::choicesChanged);
        connect(accounts, &QAbstractItemModel::modelReset, this, &WatchExportFile::choicesChanged);
        connect(accounts, &QAbstractItemModel::layoutChanged, this,
                &WatchExportFile::choicesChanged);
        // Issuer and name edits; the codes' own changes are not choices.
        connect(accounts, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex&, const QModelIndex&, const QList<int>& roles) {
                    if (roles.isEmpty() || roles.contains(AccountListModel::IssuerRole) ||
                        roles.contains(AccountListModel::AccountNameRole))
                        emit choicesChanged();
                });
    }
    emit choicesChanged();
}

WatchExportInfo WatchExportFile::info() const
{
    if (!m_header)
        return {};
    WatchExportInfo info;
    info.deviceId = fromCore(m_header->deviceId);
    // The watch's name where it is one of ours (an export from elsewhere may
    // name a watch this app has no profile of: then its id).
    const WatchProfiles& profiles = *m_simulator.profiles();
    const auto* maker = profiles.find(m_header->deviceId);
    info.deviceName = fromCore(maker ? maker->name : m_header->deviceId);
    const auto* chosen = profiles.current();
    info.forThisDevice = chosen ? m_header->deviceId == chosen->id : m_header->deviceId.empty();
    info.accounts = qint64(m_accounts);
    info.bytes = qint64(m_payload ? m_payload->size() : 0);
    info.iterations = m_header->iterations;
    info.createdAt =
        QDateTime::fromSecsSinceEpoch(m_header->created, Qt::UTC).toString(Qt::ISODate);
    info.fromFile = m_fromFile;
    return info;
}

QList<WatchExportChoice> WatchExportFile::choices() const
{
    QList<WatchExportChoice> list;
    const AccountListModel* model = m_choices;
    if (!model)
        return list;
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto index = model->index(row, 0);
        WatchExportChoice choice;
        choice.id = model->data(index, AccountListModel::IdRole).toString();
        choice.title =
            accountTitle(model->data(index, AccountListModel::IssuerRole).toString(),
                         model->data(index, AccountListModel::AccountNameRole).toString());
        choice.kind = model->data(index, AccountListModel::KindRole).toString();
        list << choice;
    }
    return list;
}

bool WatchExportFile::create(const QStringList& recordIds, const QString& pin,
                             const QString& repeat)
{
    const auto* device = m_simulator.profiles()->current();
    if (!device) {
        m_simulator.setError(tr("Choose a watch first."));
        return false;
    }
    QByteArray latin = pin.toLatin1();
    const SecureBuffer pinBytes(asBytes(std::string_view(latin.constData(), latin.size())));
    secureWipe(latin.data(), std::size_t(latin.size()));
    if (auto valid = watch::checkPin(pinBytes.view()); !valid) {
        m_simulator.setError(tr("The watch PIN must be 4 to 12 digits."));
        return false;
    }
    if (pin != repeat) {
        m_simulator.setError(tr("The two watch PINs are not the same."));
        return false;
    }
    const VaultController* vault = m_simulator.vault();
    if (!vault) {
        m_simulator.setError(tr("Unlock the vault to choose accounts for the watch."));
        return false;
    }
    const auto accounts = watchAccountsOf(*vault, recordIds);
    if (!accounts) {
        m_simulator.setError(accounts.error());
        return false;
    }
    const auto targetMs = std::uint32_t(m_simulator.costs()->targetMs());
    const watch::ExportHeader header{device->id, m_simulator.nowSeconds(),
                                     watch::exportIterations(*device, targetMs)};
    auto payload = watch::writeExport(header, pinBytes.view(), *accounts, crypto::systemRandom());
    if (!payload) {
        m_simulator.setError(fromCore(payload.error().message));
        return false;
    }
    load(std::move(*payload), false);
    return true;
}

bool WatchExportFile::load(std::string payload, bool fromFile)
{
    const auto summary = watch::inspectExport(payload);
    if (!summary) {
        m_simulator.setError(
            tr("This is not a watch export: %1").arg(fromCore(summary.error().message)));
        return false;
    }
    m_payload = std::move(payload);
    m_fromFile = fromFile;
    m_header = summary->header;
    m_accounts = summary->accounts;
    m_simulator.clearError();
    emit payloadChanged();
    emit exportChanged();
    return true;
}

bool WatchExportFile::save(const QUrl& file, bool replace)
{
    if (!m_payload) {
        m_simulator.setError(tr("Make an export first."));
        return false;
    }
    if (!file.isLocalFile()) {
        m_simulator.setError(
            tr("An export is saved to a local file, not to %1.").arg(file.toString()));
        return false;
    }
    const QString path = file.toLocalFile();
    const auto written = writeFileAtomically(path.toStdString(), *m_payload, 0600,
                                             replace ? IfExists::Replace : IfExists::Refuse);
    if (!written) {
        m_simulator.setError(fromCore(written.error()));
        return false;
    }
    // Saved; a directory that could not be flushed is said, not hidden.
    m_simulator.setError(fromCore(written->notDurable));
    return true;
}

bool WatchExportFile::open(const QUrl& file)
{
    if (!file.isLocalFile()) {
        m_simulator.setError(
            tr("An export is opened from a local file, not from %1.").arg(file.toString()));
        return false;
    }
    const QString path = file.toLocalFile();
    // A FIFO or a device is refused, never waited on.
    const auto data =
        readRegularFile(QFile::encodeName(path).toStdString(), std::size_t(maximumPayloadBytes));
    if (!data) {
        m_simulator.setError(
            tr("Could not open the watch export: %1").arg(QString::fromStdString(data.error())));
        return false;
    }
    return load(std::string(data->view()), true);
}

} // namespace watchword::app
