#include "app/sharing/ReceiveController.h"

#include "app/vault/DemoVault.h"
#include "app/vault/RecordIds.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "otp/OtpParameters.h"
#include "share/Envelope.h"
#include "share/Identity.h"
#include "text/CoreText.h"
#include "vault/Exchange.h"
#include "vault/Vault.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QPointer>
#include <QVariantMap>
#include <algorithm>
#include <utility>

namespace watchword::app {

namespace {

// What kind of code an account makes, or how long a note is: enough to
// tell two records of the same title apart, nothing secret.
QString detailOf(const vault::Record& record)
{
    if (const auto* account = std::get_if<vault::OtpAccount>(&record)) {
        const auto& parameters = account->parameters;
        const auto kind = otp::kindTitle(parameters.kind);
        QString detail = QString::fromLatin1(kind.data(), qsizetype(kind.size()));
        if (parameters.kind == otp::OtpKind::Steam)
            return detail;
        detail += ReceiveController::tr(", %1 digits").arg(parameters.digits);
        if (parameters.isTimeBased())
            detail += ReceiveController::tr(", every %1 s").arg(parameters.period);
        return detail;
    }
    const auto& note = std::get<vault::SecureNote>(record);
    return note.body.size() == 1 ? ReceiveController::tr("Note of 1 byte")
                                 : ReceiveController::tr("Note of %1 bytes")
                                       .arg(QLocale().toString(qsizetype(note.body.size())));
}

// The records a QR code's texts or a file hold, at most this many bytes of
// text (a share of 1 MiB in armour, with room for words around it).
constexpr std::size_t maximumFileSize = share::maximumEnvelopeTextSize;

} // namespace

ReceiveController::ReceiveController(QObject* parent) : QObject(parent) {}

ReceiveController::~ReceiveController() = default;

void ReceiveController::setVault(VaultController* vault)
{
    if (!bindVault(this, m_vault, vault))
        return;
    if (vault)
        connect(vault, &VaultController::closing, this, &ReceiveController::reset);
    emit vaultChanged();
}

void ReceiveController::setError(QString error)
{
    if (m_error == error)
        return;
    m_error = std::move(error);
    emit errorChanged();
}

void ReceiveController::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

ReceiveController::Sender ReceiveController::sender() const
{
    if (!m_share)
        return Sender::Unknown;
    switch (m_share->senderStatus) {
    case vault::SenderStatus::VerifiedContact:
        return Sender::VerifiedContact;
    case vault::SenderStatus::UnverifiedContact:
        return Sender::UnverifiedContact;
    case vault::SenderStatus::Yourself:
        return Sender::Yourself;
    case vault::SenderStatus::Unknown:
        break;
    }
    return Sender::Unknown;
}

QString ReceiveController::senderName() const
{
    return m_share ? QString::fromStdString(m_share->senderName) : QString();
}

QString ReceiveController::senderFingerprint() const
{
    return m_share ? QString::fromStdString(m_share->senderFingerprint) : QString();
}

QString ReceiveController::senderIdentity() const
{
    if (!m_share)
        return {};
    const auto key = crypto::PublicKey::fromSec1(m_share->sender);
    return key ? QString::fromStdString(share::identityText(*key)) : QString();
}

QString ReceiveController::senderText() const
{
    if (!m_share)
        return {};
    switch (sender()) {
    case Sender::VerifiedContact:
        return tr("From %1, a contact you have verified.").arg(senderName());
    case Sender::UnverifiedContact:
        return tr("From %1, a contact you have not verified: compare these words with them by "
                  "another channel before you trust it: %2")
            .arg(senderName(), senderFingerprint());
    case Sender::Yourself:
        return tr("From yourself: sealed with this vault's own sharing identity.");
    case Sender::Unknown:
        break;
    }
    return tr("From someone who is not one of your contacts. Their fingerprint: %1. Add them "
              "as a contact after comparing these words with them, or add the records only if "
              "you know who sent them.")
        .arg(senderFingerprint());
}

QString ReceiveController::details() const
{
    if (!m_share)
        return {};
    const QString when =
        QLocale().toString(QDateTime::fromSecsSinceEpoch(m_share->created), QLocale::LongFormat);
    QString text = tr("Sealed %1 (the sender's clock).").arg(when);
    if (m_share->otherRecipients > 0)
        text += QLatin1Char(' ') +
                (m_share->otherRecipients == 1
                     ? tr("Also sent to 1 other person.")
                     : tr("Also sent to %1 other people.").arg(m_share->otherRecipients));
    return text;
}

bool ReceiveController::alreadyReceived() const
{
    return m_share && m_share->alreadyReceived;
}

QVariantList ReceiveController::checks() const
{
    QVariantList checks;
    for (const bool checked : m_checked)
        checks.push_back(checked);
    return checks;
}

int ReceiveController::checkedCount() const
{
    return int(std::count(m_checked.begin(), m_checked.end(), true));
}

bool ReceiveController::openText(const QString& text)
{
    if (refusedWhileBusy())
        return false;
    const QByteArray utf8 = text.toUtf8();
    const auto envelope =
        share::envelopeFromText(std::string_view(utf8.constData(), std::size_t(utf8.size())));
    if (!envelope) {
        reset();
        setError(text::fromCore(envelope.error().message));
        return false;
    }
    return openEnvelope(
        QByteArray(reinterpret_cast<const char*>(envelope->data()), qsizetype(envelope->size())));
}

bool ReceiveController::openFile(const QUrl& file)
{
    if (refusedWhileBusy())
        return false;
    const QString path = file.toLocalFile();
    if (path.isEmpty()) {
        reset();
        setError(tr("Choose a file on this computer."));
        return false;
    }
    const auto read = readRegularFile(QFile::encodeName(path).toStdString(), maximumFileSize);
    if (!read) {
        reset();
        setError(text::fromCore(read.error()));
        return false;
    }
    return openData(
        QByteArray(reinterpret_cast<const char*>(read->data()), qsizetype(read->size())),
        QFileInfo(path).fileName());
}

bool ReceiveController::openData(const QByteArray& data, const QString& sourceName)
{
    if (refusedWhileBusy())
        return false;
    const auto envelope = share::envelopeFromData(ByteView(
        reinterpret_cast<const std::uint8_t*>(data.constData()), std::size_t(data.size())));
    if (!envelope) {
        reset();
        setError(tr("%1: %2").arg(sourceName, text::fromCore(envelope.error().message)));
        return false;
    }
    return openEnvelope(
        QByteArray(reinterpret_cast<const char*>(envelope->data()), qsizetype(envelope->size())));
}

bool ReceiveController::openQrTexts(const QStringList& texts)
{
    if (refusedWhileBusy())
        return false;
    for (const auto& text : texts)
        if (text.startsWith(
                QLatin1String(share::qrTextPrefix.data(), qsizetype(share::qrTextPrefix.size()))))
            return openText(text);
    reset();
    setError(texts.isEmpty() ? tr("No QR code was found.")
                             : tr("That QR code is not a Watchword share."));
    return false;
}

void ReceiveController::readFailed(const QString& why)
{
    if (refusedWhileBusy())
        return;
    reset();
    setError(why.isEmpty() ? tr("No QR code was found.") : why);
}

bool ReceiveController::refusedWhileBusy()
{
    if (!m_busy)
        return false;
    // The preview being saved stays as it is.
    setError(tr("Wait until the records being added are saved."));
    return true;
}

bool ReceiveController::openEnvelope(QByteArray envelope)
{
    if (refusedWhileBusy())
        return false;
    forgetOpened();
    m_envelope = std::move(envelope);
    if (m_vault == nullptr) {
        setError(tr("Unlock the vault first."));
        emit openedChanged();
        return false;
    }
    const auto readable = m_vault->readableVault();
    if (!readable) {
        setError(readable.error());
        emit openedChanged();
        return false;
    }
    auto opened = vault::openShare(
        **readable, ByteView(reinterpret_cast<const std::uint8_t*>(m_envelope.constData()),
                             std::size_t(m_envelope.size())));
    if (!opened) {
        setError(tr("This share cannot be opened: %1").arg(text::fromCore(opened.error().message)));
        emit openedChanged();
        return false;
    }
    m_share = std::make_unique<vault::ReceivedShare>(std::move(*opened));
    m_checked.assign(m_share->records.size(), false);
    for (const auto index : vault::suggestedRecords(*m_share))
        m_checked[index] = true;
    setError({});
    showRecords();
    emit checksChanged();
    emit openedChanged();
    return true;
}

bool ReceiveController::reopen()
{
    if (m_envelope.isEmpty())
        return false;
    const std::vector<bool> checked = m_checked;
    QByteArray envelope = m_envelope;
    if (!openEnvelope(std::move(envelope)))
        return false;
    if (checked.size() == m_checked.size()) {
        m_checked = checked; // the person's ticks stay
        emit checksChanged();
    }
    return true;
}

void ReceiveController::showRecords()
{
    QVariantList records;
    const vault::Vault* vault = m_vault ? m_vault->vault() : nullptr;
    if (m_share)
        for (std::size_t i = 0; i < m_share->records.size(); ++i) {
            const auto& received = m_share->records[i];
            const bool account = std::holds_alternative<vault::OtpAccount>(received.record);
            QString duplicateText;
            if (received.duplicateOf) {
                const vault::Record* held = vault ? vault->find(*received.duplicateOf) : nullptr;
                duplicateText =
                    held ? tr("Already in the vault as \u201c%1\u201d.").arg(recordTitle(*held))
                         : tr("Already in the vault.");
            }
            records.push_back(QVariantMap{
                {QStringLiteral("kind"),
                 account ? QStringLiteral("account") : QStringLiteral("note")},
                {QStringLiteral("title"), recordTitle(received.record)},
                {QStringLiteral("detail"), detailOf(received.record)},
                {QStringLiteral("duplicate"), received.duplicateOf.has_value()},
                {QStringLiteral("duplicateText"), duplicateText},
            });
        }
    m_records = std::move(records);
    emit recordsChanged();
}

void ReceiveController::setChecked(int index, bool checked)
{
    if (index < 0 || std::size_t(index) >= m_checked.size() ||
        m_checked[std::size_t(index)] == checked)
        return;
    m_checked[std::size_t(index)] = checked;
    emit checksChanged();
}

bool ReceiveController::addChecked(bool knownSender)
{
    if (!m_share || !m_vault || m_busy)
        return false;
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < m_checked.size(); ++i)
        if (m_checked[i])
            chosen.push_back(i);
    if (chosen.empty()) {
        setError(tr("Tick at least one record to add."));
        return false;
    }
    if (m_share->senderStatus == vault::SenderStatus::Unknown && !knownSender) {
        setError(tr("The sender is not one of your contacts: add them as a contact, or say that "
                    "you know who sent this."));
        return false;
    }
    VaultController* session = m_vault;
    vault::Vault* vault = session->editableVault();
    if (vault == nullptr) {
        setError(session->error());
        return false;
    }
    auto added = vault::addReceived(*vault, *m_share, chosen, nowSeconds(), crypto::systemRandom());
    if (!added) {
        setError(tr("Nothing was added: %1").arg(text::fromCore(added.error().message)));
        return false;
    }
    const int count = int(added->size());
    const QString from = m_share->senderStatus == vault::SenderStatus::Unknown
                             ? tr("someone who is not a contact")
                         : m_share->senderStatus == vault::SenderStatus::Yourself
                             ? tr("yourself")
                             : QString::fromStdString(m_share->senderName);
    setError({});
    setBusy(true);
    QPointer<ReceiveController> self(this);
    return session->saveAdded(std::move(*added), [self, count, from](const QString& error) {
        if (!self)
            return;
        self->setBusy(false);
        if (!error.isEmpty()) {
            self->setError(tr("Nothing was added: %1").arg(error));
            return;
        }
        self->reset();
        emit self->finished(count == 1 ? tr("Added 1 record from %1.").arg(from)
                                       : tr("Added %1 records from %2.").arg(count).arg(from));
    });
}

bool ReceiveController::openDemoSample()
{
    const vault::Vault* vault = m_vault && m_vault->demo() ? m_vault->vault() : nullptr;
    if (vault == nullptr)
        return false;
    const auto sample = demoShareSample(*vault, crypto::systemRandom(), nowSeconds());
    if (!sample)
        return false;
    return openEnvelope(
        QByteArray(reinterpret_cast<const char*>(sample->data()), qsizetype(sample->size())));
}

void ReceiveController::forgetOpened()
{
    m_share.reset(); // the records' secrets wipe themselves
    if (!m_checked.empty()) {
        m_checked.clear();
        emit checksChanged();
    }
    if (!m_records.isEmpty()) {
        m_records.clear();
        emit recordsChanged();
    }
}

void ReceiveController::reset()
{
    const bool was = opened();
    forgetOpened();
    m_envelope.clear();
    setError({});
    if (was)
        emit openedChanged();
}

} // namespace watchword::app
