#include "app/sharing/ShareController.h"

#include "app/vault/RecordIds.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "share/Envelope.h"
#include "text/CoreText.h"
#include "vault/Contacts.h"
#include "vault/Exchange.h"
#include "vault/Vault.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QVariantMap>
#include <string_view>
#include <vector>

namespace watchword::app {

namespace {

QVariantMap entryOf(const vault::Record& record)
{
    const bool account = std::holds_alternative<vault::OtpAccount>(record);
    return {{QStringLiteral("recordId"), QString::fromLatin1(hexId(vault::idOf(record)))},
            {QStringLiteral("kind"), account ? QStringLiteral("account") : QStringLiteral("note")},
            {QStringLiteral("title"), recordTitle(record)}};
}

} // namespace

ShareController::ShareController(QObject* parent) : QObject(parent) {}

void ShareController::setVault(VaultController* vault)
{
    if (!bindVault(this, m_vault, vault))
        return;
    if (vault)
        connect(vault, &VaultController::closing, this, [this] {
            clear();
            m_records.clear();
            emit recordsChanged();
        });
    emit vaultChanged();
}

void ShareController::setError(QString error)
{
    if (m_error == error)
        return;
    m_error = std::move(error);
    emit errorChanged();
}

void ShareController::refresh()
{
    QVariantList records;
    if (const vault::Vault* vault = m_vault ? m_vault->vault() : nullptr)
        for (const auto kind : {vault::RecordKind::OtpAccount, vault::RecordKind::SecureNote})
            for (const vault::Record* record : vault::sortedRecords(*vault, kind))
                records.push_back(entryOf(*record));
    m_records = std::move(records);
    emit recordsChanged();
}

QString ShareController::problem(const QStringList& recordIds, const QStringList& contactIds) const
{
    const vault::Vault* vault = m_vault ? m_vault->vault() : nullptr;
    if (vault == nullptr)
        return tr("Unlock the vault first.");
    if (!vault->sharingKey())
        return tr("This vault has no sharing identity yet: check its recovery phrase once in "
                  "Settings to give it one.");
    if (recordIds.isEmpty())
        return tr("Tick at least one account or note.");
    if (contactIds.isEmpty())
        return tr("Tick at least one person.");
    if (contactIds.size() > int(share::maximumRecipients))
        return tr("A share goes to at most %1 people.").arg(share::maximumRecipients);
    if (recordIds.size() > int(share::maximumSharedRecords))
        return tr("A share holds at most %1 records.").arg(share::maximumSharedRecords);
    return {};
}

bool ShareController::seal(const QStringList& recordIds, const QStringList& contactIds)
{
    clear();
    if (const QString why = problem(recordIds, contactIds); !why.isEmpty()) {
        setError(why);
        return false;
    }
    const auto readable = m_vault->readableVault();
    if (!readable) {
        setError(readable.error());
        return false;
    }
    const vault::Vault& vault = **readable;
    std::vector<vault::RecordId> ids;
    for (const auto& hex : recordIds) {
        const auto id = recordIdFrom(hex);
        if (!id || vault.find(*id) == nullptr) {
            setError(tr("A ticked record is no longer in the vault."));
            return false;
        }
        ids.push_back(*id);
    }
    std::vector<crypto::PublicKey> recipients;
    QStringList names;
    for (const auto& hex : contactIds) {
        const auto id = recordIdFrom(hex);
        const auto* contact = id ? std::get_if<vault::Contact>(vault.find(*id)) : nullptr;
        if (contact == nullptr) {
            setError(tr("A ticked person is no longer among your contacts."));
            return false;
        }
        recipients.push_back(vault::publicKeyOf(*contact));
        names << QString::fromStdString(contact->name);
    }
    const auto envelope =
        vault::shareRecords(vault, ids, recipients, nowSeconds(), crypto::systemRandom());
    if (!envelope) {
        setError(text::fromCore(envelope.error().message));
        return false;
    }
    setError({});
    m_envelope =
        QByteArray(reinterpret_cast<const char*>(envelope->data()), qsizetype(envelope->size()));
    m_text = QString::fromStdString(share::armourEnvelope(*envelope));
    if (const auto qr = share::envelopeQrText(*envelope))
        m_qrText = QString::fromStdString(*qr);
    else
        m_qrProblem = text::fromCore(qr.error().message);
    const QString people = QLocale().createSeparatedList(names);
    m_summary = (ids.size() == 1 ? tr("1 record for %1").arg(people)
                                 : tr("%1 records for %2").arg(ids.size()).arg(people)) +
                tr(" (%1 bytes), signed as you.").arg(QLocale().toString(m_envelope.size()));
    m_fileName = tr("share-%1.wwshare")
                     .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    emit sealedChanged();
    return true;
}

bool ShareController::fileExists(const QUrl& file) const
{
    return QFileInfo::exists(file.toLocalFile());
}

bool ShareController::saveTo(const QUrl& file, bool overwrite)
{
    if (!sealed()) {
        setError(tr("Nothing to save: make the share first."));
        return false;
    }
    const QString path = file.toLocalFile();
    if (path.isEmpty()) {
        setError(tr("Choose a file on this computer."));
        return false;
    }
    // Never over the vault itself, its backups or its lock.
    const QString vaultPath = QFileInfo(m_vault ? m_vault->path() : QString()).absoluteFilePath();
    const QString target = QFileInfo(path).absoluteFilePath();
    if (!vaultPath.isEmpty() &&
        (target == vaultPath || target.startsWith(vaultPath + QLatin1Char('.')))) {
        setError(tr("%1 is your vault or one of its backups: choose another name.")
                     .arg(QFileInfo(path).fileName()));
        return false;
    }
    const auto written = writeFileAtomically(
        QFile::encodeName(path).toStdString(),
        std::string_view(m_envelope.constData(), std::size_t(m_envelope.size())), 0600,
        overwrite ? IfExists::Replace : IfExists::Refuse);
    if (!written) {
        setError(text::fromCore(written.error()));
        return false;
    }
    setError(written->notDurable.empty() ? QString() : text::fromCore(written->notDurable));
    emit saved(tr("Saved the share to %1. Send it to the people it is for by any channel: only "
                  "they can open it.")
                   .arg(QFileInfo(path).fileName()));
    return true;
}

void ShareController::clear()
{
    const bool had = sealed();
    m_envelope.clear();
    m_summary.clear();
    m_text.clear();
    m_qrText.clear();
    m_qrProblem.clear();
    m_fileName.clear();
    setError({});
    if (had)
        emit sealedChanged();
}

} // namespace watchword::app
