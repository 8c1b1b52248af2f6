#include "app/sharing/ContactBook.h"

#include "app/vault/RecordIds.h"
#include "app/vault/RecordViews.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "share/Identity.h"
#include "text/CoreText.h"
#include "vault/Contacts.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <QFile>
#include <QFileInfo>
#include <QVariantMap>

namespace watchword::app {

namespace {

QVariantMap entryOf(const vault::Contact& contact)
{
    const auto key = vault::publicKeyOf(contact);
    return {{QStringLiteral("recordId"), QString::fromLatin1(hexId(contact.id))},
            {QStringLiteral("name"), QString::fromStdString(contact.name)},
            {QStringLiteral("fingerprint"),
             QString::fromStdString(share::identityFingerprintText(key))},
            {QStringLiteral("identity"), QString::fromStdString(share::identityText(key))},
            {QStringLiteral("verified"), contact.verified}};
}

} // namespace

ContactBook::ContactBook(VaultController& session, QObject* parent)
    : QObject(parent), m_session(session)
{
    followRecords<vault::Contact>(m_session, this);
}

void ContactBook::fill()
{
    QVariantList contacts;
    if (const vault::Vault* vault = m_session.vault())
        for (const vault::Contact* contact : vault::contactsOf(*vault))
            contacts.push_back(entryOf(*contact));
    m_contacts = std::move(contacts);
    emit contactsChanged();
}

void ContactBook::empty()
{
    m_contacts.clear();
    emit contactsChanged();
    setError({});
}

void ContactBook::setError(QString error)
{
    if (m_error == error)
        return;
    m_error = std::move(error);
    emit errorChanged();
}

void ContactBook::clearError()
{
    setError({});
}

void ContactBook::changed()
{
    setError({});
    m_session.requestSave();
    fill();
}

QString ContactBook::identityAmong(const QStringList& texts)
{
    QString firstError;
    for (const auto& text : texts) {
        const auto key = share::parseIdentityText(text.toStdString());
        if (key) {
            setError({});
            return QString::fromStdString(share::identityText(*key));
        }
        if (firstError.isEmpty())
            firstError = text::fromCore(key.error().message);
    }
    setError(texts.isEmpty() ? tr("No QR code was found.")
                             : tr("That QR code is not a Watchword identity: %1").arg(firstError));
    return {};
}

QString ContactBook::identityInFile(const QUrl& file)
{
    const QString path = file.toLocalFile();
    if (path.isEmpty()) {
        setError(tr("Choose a file on this computer."));
        return {};
    }
    const auto read =
        readRegularFile(QFile::encodeName(path).toStdString(), vault::maximumVaultFileSize);
    if (!read) {
        setError(text::fromCore(read.error()));
        return {};
    }
    const auto key = vault::identityInFile(read->span());
    if (!key) {
        setError(tr("%1: %2").arg(QFileInfo(path).fileName(), text::fromCore(key.error())));
        return {};
    }
    setError({});
    return QString::fromStdString(share::identityText(*key));
}

void ContactBook::readFailed(const QString& why)
{
    setError(why.isEmpty() ? tr("No QR code was found.") : why);
}

QString ContactBook::add(const QString& identity, const QString& name)
{
    const auto key = share::parseIdentityText(identity.toStdString());
    if (!key) {
        setError(text::fromCore(key.error().message));
        return {};
    }
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr) {
        setError(m_session.error());
        return {};
    }
    const auto id = vault::addContact(*vault, *key, name.trimmed().toStdString(), nowSeconds(),
                                      crypto::systemRandom());
    if (!id) {
        setError(text::fromCore(id.error().message));
        return {};
    }
    changed();
    return QString::fromLatin1(hexId(*id));
}

const vault::Contact* ContactBook::editable(const QString& recordId)
{
    if (m_session.editableVault() == nullptr) {
        setError(m_session.error());
        return nullptr;
    }
    const auto* contact = findRecord<vault::Contact>(m_session, recordId);
    if (contact == nullptr)
        setError(tr("That contact is no longer in the vault."));
    return contact;
}

bool ContactBook::rename(const QString& recordId, const QString& name)
{
    const auto* contact = editable(recordId);
    if (contact == nullptr)
        return false;
    const auto renamed = vault::renameContact(*m_session.editableVault(), contact->id,
                                              name.trimmed().toStdString(), nowSeconds());
    if (!renamed) {
        setError(text::fromCore(renamed.error().message));
        return false;
    }
    changed();
    return true;
}

bool ContactBook::setVerified(const QString& recordId, bool verified)
{
    const auto* contact = editable(recordId);
    if (contact == nullptr)
        return false;
    const auto set =
        vault::setContactVerified(*m_session.editableVault(), contact->id, verified, nowSeconds());
    if (!set) {
        setError(text::fromCore(set.error().message));
        return false;
    }
    if (*set)
        changed();
    return true;
}

bool ContactBook::remove(const QString& recordId)
{
    const auto* contact = editable(recordId);
    if (contact == nullptr)
        return false;
    if (!m_session.history()->remove(
            contact->id, tr("Removed contact %1").arg(QString::fromStdString(contact->name)))) {
        setError(m_session.error());
        return false;
    }
    setError({});
    fill();
    return true;
}

} // namespace watchword::app
