#include "app/interop/ImportController.h"

#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "app/vault/AccountCopies.h"
#include "app/vault/DemoVault.h"
#include "app/vault/RecordIds.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "interop/importers/Import.h"
#include "interop/importers/ImportPlan.h"
#include "share/Envelope.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/Vault.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <optional>
#include <utility>

namespace watchword::app {

namespace {

ByteView viewOf(const QByteArray& bytes)
{
    return {reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())};
}

// The UTF-8 of text in a wiped buffer; text is wiped. The other app's
// password is used as typed: no normalization it did not apply.
SecureBuffer utf8Secret(QString& text)
{
    QByteArray utf8 = text.toUtf8();
    SecureBuffer bytes(viewOf(utf8));
    secureWipe(utf8.data(), std::size_t(utf8.size()));
    text::wipe(text);
    return bytes;
}

// What the user is told when a read fails: the core's sentence names the
// entry or the position; a missing password is asked for plainly.
QString readError(const Error<importers::ImportError>& error)
{
    using importers::ImportError;
    switch (error.code) {
    case ImportError::PasswordRequired:
        return ImportController::tr("This file is encrypted: type the password it was exported "
                                    "with.");
    case ImportError::WrongPassword:
        return ImportController::tr("Wrong password: %1").arg(text::fromCore(error.message));
    case ImportError::Malformed:
        return ImportController::tr("The file is damaged or not in this format: %1")
            .arg(text::fromCore(error.message));
    default:
        return text::fromCore(error.message);
    }
}

struct ReadOutcome
{
    std::unique_ptr<importers::Imported> imported;
    QString error;
};

} // namespace

ImportController::ImportController(QObject* parent) : QObject(parent)
{
    connect(&m_source, &ImportSource::formatChosen, this, [this] { setError({}); });
}

ImportController::~ImportController() = default;

void ImportController::setVault(VaultController* vault)
{
    if (!bindVault(this, m_vault, vault))
        return;
    if (m_vault) {
        // Locking drops whatever was read, secrets and preview alike.
        connect(m_vault, &VaultController::stateChanged, this, [this] {
            if (m_vault && m_vault->state() != VaultController::State::Unlocked)
                reset();
        });
    }
    emit vaultChanged();
}

bool ImportController::openFile(const QUrl& url)
{
    const QString path = url.isLocalFile() ? url.toLocalFile() : url.toString();
    const QString name = QFileInfo(path).fileName();
    const std::string localPath = QFile::encodeName(path).toStdString();
    // Straight into a wiped buffer (a plain export holds every secret); a
    // FIFO or a device is refused, never waited on.
    auto data = readRegularFile(localPath, importers::maximumImportBytes);
    if (!data) {
        reset();
        setError(tr("Cannot import %1: %2").arg(name, QString::fromStdString(data.error())));
        return false;
    }
    // A Steam Desktop Authenticator manifest.json reads the .maFiles beside it.
    return openBytes(std::make_unique<SecureBuffer>(std::move(data).value()), name,
                     importers::companionFilesBeside(localPath));
}

bool ImportController::openData(const QByteArray& data, const QString& sourceName)
{
    return openBytes(std::make_unique<SecureBuffer>(viewOf(data)), sourceName);
}

bool ImportController::openText(QString text, const QString& sourceName)
{
    auto data = std::make_unique<SecureBuffer>(utf8Secret(text));
    if (!openBytes(std::move(data), sourceName))
        return false;
    read({});
    return true;
}

bool ImportController::openBytes(std::unique_ptr<SecureBuffer> data, const QString& sourceName,
                                 importers::CompanionFiles companions)
{
    reset();
    if (data->size() == 0) {
        setError(tr("%1 is empty.").arg(sourceName));
        return false;
    }
    // A share someone sealed to this vault is not an export: the dialog
    // for receiving it takes it (envelopes are ciphertext, not secret).
    if (const auto envelope = share::envelopeFromData(ByteView(data->data(), data->size()))) {
        emit shareFound(QByteArray(reinterpret_cast<const char*>(envelope->data()),
                                   qsizetype(envelope->size())),
                        sourceName);
        return true;
    }
    m_source.load(std::move(data), sourceName, std::move(companions));
    if (!m_source.recognised())
        setError(tr("This file is not in a format Watchword recognises (%1): if it is one, choose "
                    "its app below.")
                     .arg(m_source.unrecognisedHint()));
    setStage(Stage::Source);
    return true;
}

void ImportController::read(QString password)
{
    if (!m_source.loaded() || m_busy) {
        text::wipe(password);
        return;
    }
    const auto format = m_source.format();
    // Watchword's own backup takes the password as the vault does (NFKD,
    // docs/FORMAT.md section 10); other apps' files as typed.
    std::optional<SecureBuffer> secret;
    if (!password.isEmpty())
        secret = format == importers::Format::WatchwordBackup ? text::normalizeSecretText(password)
                                                              : utf8Secret(password);
    auto shared = std::make_shared<std::optional<SecureBuffer>>(std::move(secret));
    setError({});
    setBusy(true);
    const std::uint64_t request = ++m_request;
    runInBackground(
        this,
        [data = m_source.data(), format, shared, companions = m_source.companions()] {
            ReadOutcome outcome;
            std::optional<ByteView> typed;
            if (shared->has_value())
                typed = (*shared)->span();
            // Entries that cannot be imported are shown in the preview,
            // unticked, and the user adds the rest.
            auto imported = importers::importAccounts(
                format, data->span(), typed, importers::UnreadableEntries::Skip, companions);
            shared->reset(); // wiped as soon as it has served
            if (!imported)
                outcome.error = readError(imported.error());
            else
                outcome.imported = std::make_unique<importers::Imported>(std::move(*imported));
            return outcome;
        },
        [this, request](ReadOutcome outcome) {
            if (request != m_request)
                return; // superseded or reset meanwhile
            setBusy(false);
            if (!outcome.error.isEmpty()) {
                setError(outcome.error);
                return;
            }
            showPreview(std::move(outcome.imported));
        });
}

void ImportController::showPreview(std::unique_ptr<importers::Imported> imported)
{
    if (!m_vault) {
        setError(tr("No vault to import into."));
        return;
    }
    const auto readable = m_vault->readableVault();
    if (!readable) {
        setError(readable.error());
        return;
    }
    m_preview.show(*imported, importers::planImport(*imported, **readable));
    m_imported = std::move(imported);
    // The source is no longer needed: its secrets are in m_imported now.
    m_source.dropData();
    if (m_preview.count() == 0)
        setError(tr("The file holds no accounts."));
    else if (m_preview.count() == m_preview.unsupportedCount())
        setError(tr("No entry of this file can be imported."));
    setStage(Stage::Preview);
}

bool ImportController::addChecked()
{
    if (!m_vault || !m_imported || m_adding)
        return false;
    const auto chosen = m_preview.checkedRows();
    if (chosen.empty()) {
        setError(tr("Tick at least one account to import."));
        return false;
    }
    setError({});
    if (!commit(chosen)) {
        setError(m_vault->error());
        return false;
    }
    return true;
}

bool ImportController::commit(const std::vector<std::size_t>& chosen)
{
    VaultController* session = m_vault;
    vault::Vault* vault = session->editableVault();
    if (vault == nullptr)
        return false;
    auto added =
        importers::addImported(*vault, *m_imported, chosen, crypto::systemRandom(), nowSeconds());
    if (!added) {
        session->setError(
            tr("Nothing was imported: %1").arg(text::fromCore(added.error().message)));
        return false;
    }
    const int count = int(added->size());
    m_adding = true;
    setBusy(true);
    // Cleared before the save: a warning the save itself leaves (a folder
    // that could not be flushed) stays on show.
    session->setError({});
    QPointer<ImportController> self(this);
    return session->saveAdded(std::move(*added), [self, session, count](const QString& error) {
        if (error.isEmpty()) {
            if (self)
                self->onImportFinished(true, count == 1 ? tr("Imported 1 account.")
                                                        : tr("Imported %1 accounts.").arg(count));
            return;
        }
        const QString problem = tr("Nothing was imported: %1").arg(error);
        session->setError(problem);
        if (self)
            self->onImportFinished(false, problem);
    });
}

void ImportController::onImportFinished(bool added, const QString& message)
{
    if (!m_adding)
        return; // another controller's import
    m_adding = false;
    setBusy(false);
    if (!added) {
        setError(message);
        return;
    }
    const int leftOut = m_preview.unsupportedCount();
    reset();
    if (leftOut == 0)
        emit finished(message);
    else
        emit finished(message + QLatin1Char(' ') +
                      (leftOut == 1
                           ? tr("1 entry that cannot be imported was left out.")
                           : tr("%1 entries that cannot be imported were left out.").arg(leftOut)));
}

void ImportController::stopReading()
{
    if (!m_busy || m_adding)
        return;
    ++m_request;
    setBusy(false);
    setError(tr("Stopped reading the file."));
}

void ImportController::reset()
{
    ++m_request;
    m_imported.reset(); // every secret it holds wipes itself
    m_source.clear();
    m_preview.clear();
    if (!m_adding)
        setBusy(false);
    setError({});
    setStage(Stage::Empty);
}

bool ImportController::openDemoSample()
{
    if (!m_vault || !m_vault->demo())
        return false;
    auto copies = accountCopies(*m_vault, {});
    if (!copies)
        return false;
    auto sample = demoImportSample(*copies, crypto::systemRandom());
    if (!sample)
        return false;
    if (!openBytes(std::make_unique<SecureBuffer>(std::move(*sample)),
                   QStringLiteral("accounts.txt")))
        return false;
    read({});
    return true;
}

void ImportController::setStage(Stage stage)
{
    assignAndNotify(this, m_stage, stage, &ImportController::stageChanged);
}

void ImportController::setBusy(bool busy)
{
    assignAndNotify(this, m_busy, busy, &ImportController::busyChanged);
}

void ImportController::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &ImportController::errorChanged);
}

} // namespace watchword::app
