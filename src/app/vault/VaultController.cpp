#include "app/vault/VaultController.h"

#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "app/vault/DemoVault.h"
#include "app/vault/FolderSync.h"
#include "app/vault/Passwords.h"
#include "app/vault/RecordIds.h"
#include "app/vault/RecoveryPhrase.h"
#include "app/vault/SharingIdentity.h"
#include "app/vault/UndoHistory.h"
#include "crypto/Random.h"
#include "keychain/Keychain.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPointer>
#include <algorithm>
#include <utility>

namespace watchword::app {

struct detail::Opened
{
    std::unique_ptr<vault::Vault> vault;
    std::unique_ptr<vault::VaultStorage> storage;
    QString error;
    Bytes file; // the demo's serialized vault
};

namespace {

using Opened = detail::Opened;

Opened failed(QString error)
{
    Opened opened;
    opened.error = std::move(error);
    return opened;
}

Opened openedWith(vault::Vault&& vault, std::unique_ptr<vault::VaultStorage> storage)
{
    Opened result;
    result.vault = std::make_unique<vault::Vault>(std::move(vault));
    result.storage = std::move(storage);
    return result;
}

} // namespace

VaultController::VaultController(QString path, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_phrase(new RecoveryPhrase(*this)),
      m_passwords(new Passwords(*this)), m_history(new UndoHistory(*this)),
      m_identity(new SharingIdentity(*this)), m_sync(new FolderSync(*this))
{
    m_saves.setRemerge([this](vault::VaultStorage& storage) { return m_sync->remerge(storage); });
    m_state = !m_path.isEmpty() && QFileInfo::exists(m_path) ? State::Locked : State::Missing;
    connect(&m_saves, &SaveQueue::savingChanged, this, &VaultController::savingChanged);
    connect(&m_saves, &SaveQueue::written, this, &VaultController::onWritten);
    connect(&m_saves, &SaveQueue::failed, this, [this](const QString& error) {
        const QString message =
            tr("Your change is kept in memory but was not saved: %1").arg(error);
        setError(message);
        emit saveFailed(message);
    });
    m_progressTimer.setInterval(50);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        if (m_expectedMilliseconds > 0)
            setProgress(std::min(0.99, double(m_kdfTimer.elapsed()) / m_expectedMilliseconds));
    });
}

VaultController::~VaultController() = default;

std::unique_ptr<VaultController> VaultController::makeDemo(QObject* parent)
{
    auto controller = std::make_unique<VaultController>(QString(), parent);
    controller->m_demo = true;
    controller->setState(State::Unlocking);
    auto* made = controller.get();
    runInBackground(
        made,
        [] {
            auto demo = makeDemoVault(crypto::systemRandom(), nowSeconds());
            if (!demo)
                return failed(text::fromCore(demo.error()));
            Opened result = openedWith(std::move(demo->vault), nullptr);
            result.file = std::move(demo->file);
            return result;
        },
        [made](Opened result) {
            if (!result.vault) {
                made->setError(result.error);
                made->setState(State::Missing);
                emit made->unlockFinished(false);
                return;
            }
            made->m_memoryFile = std::make_shared<const Bytes>(std::move(result.file));
            made->show(std::move(result.vault), nullptr);
            emit made->unlockFinished(true);
        });
    return controller;
}

// --- Properties ----------------------------------------------------------

void VaultController::setState(State state)
{
    assignAndNotify(this, m_state, state, &VaultController::stateChanged);
}

void VaultController::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &VaultController::errorChanged);
}

void VaultController::clearError()
{
    setError({});
}

void VaultController::setProgress(double progress)
{
    assignAndNotify(this, m_progress, progress, &VaultController::progressChanged);
}

void VaultController::setBusy(bool busy)
{
    if (assignAndNotify(this, m_busy, busy, &VaultController::busyChanged) && !busy &&
        m_lockWhenIdle)
        QTimer::singleShot(0, this, &VaultController::lock);
}

void VaultController::setUnlockTargetMilliseconds(int milliseconds)
{
    m_unlockTargetMilliseconds = std::clamp(milliseconds, 100, 10'000);
}

// --- Opening -------------------------------------------------------------

bool VaultController::adoptVaultFile(const QUrl& file)
{
    if (m_state != State::Missing || m_busy || m_demo || m_path.isEmpty()) {
        setError(tr("A vault file can be chosen only before a vault exists here."));
        return false;
    }
    if (!file.isLocalFile()) {
        setError(tr("Choose a vault file on this computer."));
        return false;
    }
    const QString name = QFileInfo(file.toLocalFile()).fileName();
    auto source =
        vault::VaultStorage::open(file.toLocalFile().toStdString(), crypto::systemRandom());
    if (!source) {
        setError(tr("%1 could not be read: %2").arg(name, text::fromCore(source.error().message)));
        return false;
    }
    if (const auto header = vault::decodeHeader(source->contents()); !header) {
        setError(tr("%1 is not a Watchword vault: %2")
                     .arg(name, text::fromCore(header.error().message)));
        return false;
    }
    // Written as a new vault is: 0600, atomically, never over a file. The
    // copy's lock goes with it; unlocking opens the file anew.
    if (auto copy = vault::VaultStorage::create(m_path.toStdString(), source->contents(),
                                                crypto::systemRandom());
        !copy) {
        setError(tr("%1 could not be copied to %2: %3")
                     .arg(name, m_path, text::fromCore(copy.error().message)));
        return false;
    }
    setError({});
    setState(State::Locked);
    return true;
}

void VaultController::startKdfProgress(double expectedMilliseconds)
{
    setError({});
    setProgress(0);
    m_expectedMilliseconds = expectedMilliseconds;
    m_kdfTimer.start();
    m_progressTimer.start();
}

void VaultController::startNewKeyProgress()
{
    setState(State::Unlocking);
    // Calibrating takes about 100 ms, then the new slot's KDF its target.
    startKdfProgress(double(m_unlockTargetMilliseconds) + 100);
}

void VaultController::finishOpening(Opened& result, State onFailure, bool written)
{
    m_progressTimer.stop();
    setProgress(result.vault ? 1 : 0);
    if (!result.vault) {
        setState(onFailure);
        setError(result.error);
        emit unlockFinished(false);
        return;
    }
    show(std::move(result.vault), std::move(result.storage));
    if (written)
        emit saved(m_path);
    emit unlockFinished(true);
}

void VaultController::create(std::shared_ptr<keychain::Keychain> keychain,
                             std::shared_ptr<SecureBuffer> password)
{
    setBusy(true);
    startNewKeyProgress();
    runInBackground(
        this,
        [keychain, password, path = m_path, target = m_unlockTargetMilliseconds] {
            const auto calibration = calibrationFor(target);
            if (!calibration)
                return failed(calibration.error());
            auto& random = crypto::systemRandom();
            const std::int64_t now = nowSeconds();
            auto created =
                vault::Vault::create(password->span(), *keychain, *calibration, random, now);
            if (!created)
                return failed(text::fromCore(created.error().message));
            created->setDevice(appDevice());
            auto bytes = created->serialize(random, now);
            if (!bytes)
                return failed(text::fromCore(bytes.error().message));
            auto storage = vault::VaultStorage::create(path.toStdString(), *bytes, random);
            if (!storage)
                return failed(text::fromCore(storage.error().message));
            storage->unlock();
            return openedWith(std::move(*created),
                              std::make_unique<vault::VaultStorage>(std::move(*storage)));
        },
        [this](Opened result) {
            setBusy(false);
            finishOpening(result, State::Missing, true);
        });
}

void VaultController::unlock(QString password)
{
    SecureBuffer typed = text::normalizeSecretText(password);
    if (m_state != State::Locked)
        return; // not now; the typed password is wiped all the same
    if (typed.empty()) {
        setError(tr("Enter the vault's password."));
        return;
    }
    auto secret = std::make_shared<SecureBuffer>(std::move(typed));
    setState(State::Unlocking);
    startKdfProgress(0); // until the worker has read the header
    // Reading the file is the worker's too: the GUI thread does no I/O.
    const std::shared_ptr<const Bytes> memoryFile = m_memoryFile;
    const QString path = m_path;
    QPointer<VaultController> guard(this);
    runInBackground(
        this,
        [memoryFile, path, secret, guard] {
            std::unique_ptr<vault::VaultStorage> storage;
            const Bytes* file = memoryFile.get();
            if (file == nullptr) {
                auto read = vault::VaultStorage::open(path.toStdString(), crypto::systemRandom());
                if (!read)
                    return failed(text::fromCore(read.error().message));
                storage = std::make_unique<vault::VaultStorage>(std::move(*read));
                file = &storage->contents();
            }
            // The expected KDF time, from the header's iteration count and the
            // rate measured when it was calibrated; about a second if unknown.
            double expected = 1000.0;
            if (const auto header = vault::decodeHeader(*file);
                header && header->passwordSlot.iterationsPerSecond > 0)
                expected = 1000.0 * double(header->passwordSlot.iterations) /
                           double(header->passwordSlot.iterationsPerSecond);
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [guard, expected] {
                    if (VaultController* controller = guard.data())
                        controller->m_expectedMilliseconds = expected;
                },
                Qt::QueuedConnection);
            auto unlocked = vault::Vault::unlockWithPassword(*file, secret->span());
            if (!unlocked)
                return failed(text::fromCore(unlocked.error().message));
            return openedWith(std::move(*unlocked), std::move(storage));
        },
        [this](Opened result) { finishOpening(result, State::Locked, false); });
}

void VaultController::recover(QString phrase, QString newPassword, QString repeat)
{
    SecureBuffer words = text::normalizeSecretText(phrase);
    const QString problem = newPasswordProblem(newPassword, repeat);
    auto password = std::make_shared<SecureBuffer>(text::normalizeSecretText(newPassword));
    text::wipe(repeat);
    if (m_state != State::Locked || m_demo)
        return;
    if (words.empty()) {
        setError(tr("Enter the recovery phrase."));
        return;
    }
    if (!problem.isEmpty()) {
        setError(problem);
        return;
    }
    auto mnemonic = std::make_shared<SecureBuffer>(std::move(words));
    startNewKeyProgress();
    runInBackground(
        this,
        [mnemonic, password, path = m_path, target = m_unlockTargetMilliseconds] {
            const std::string_view text(reinterpret_cast<const char*>(mnemonic->data()),
                                        mnemonic->size());
            auto keychain = keychain::Keychain::restore(text);
            if (!keychain)
                return failed(text::fromCore(keychain.error().message));
            auto& random = crypto::systemRandom();
            auto storage = vault::VaultStorage::open(path.toStdString(), random);
            if (!storage)
                return failed(text::fromCore(storage.error().message));
            auto recovered = vault::Vault::unlockWithRecovery(storage->contents(), *keychain);
            if (!recovered)
                return failed(text::fromCore(recovered.error().message));
            recovered->setDevice(appDevice());
            const auto calibration = calibrationFor(target);
            if (!calibration)
                return failed(calibration.error());
            if (auto changed = recovered->changePassword(password->span(), *calibration, random);
                !changed)
                return failed(text::fromCore(changed.error().message));
            auto bytes = recovered->serialize(random, nowSeconds());
            if (!bytes)
                return failed(text::fromCore(bytes.error().message));
            // Written before the vault is shown (on this worker thread).
            if (auto written = writeVaultFile(*storage, *bytes); !written.error.isEmpty())
                return failed(written.error);
            return openedWith(std::move(*recovered),
                              std::make_unique<vault::VaultStorage>(std::move(*storage)));
        },
        [this](Opened result) { finishOpening(result, State::Locked, true); });
}

void VaultController::show(std::unique_ptr<vault::Vault> unlocked,
                           std::unique_ptr<vault::VaultStorage> storage)
{
    m_vault = std::move(unlocked);
    m_vault->setDevice(appDevice());
    if (storage)
        m_phrase->noteFile(storage->contents());
    else if (m_memoryFile)
        m_phrase->noteFile(*m_memoryFile);
    if (storage)
        m_saves.setStorage(std::move(storage));
    emit opened();
    setState(State::Unlocked);
    // A version 1 file is written as version 2 at once: its records as they
    // are, its recovery slot wrapped again (the old file stays as the first
    // backup, <vault>.1).
    if (m_vault->readVersion() < vault::formatVersion && !m_memoryFile)
        requestSave();
}

void VaultController::lock()
{
    if (m_state != State::Unlocked)
        return;
    if (m_busy) {
        // A worker holds the vault (a password change): lock when it is back.
        m_lockWhenIdle = true;
        return;
    }
    m_lockWhenIdle = false;
    // Deferred changes ("recently used" times) go out with one last save.
    if (m_saveDeferred)
        requestSave();
    emit closing();
    m_history->clear();
    m_phrase->forget();
    m_vault.reset();
    setProgress(0);
    setState(State::Locked);
}

// --- The vault, for the parts that use it -----------------------------------

const vault::Vault* VaultController::vault() const
{
    return m_vault.get(); // set while unlocked (and while it is being shown)
}

vault::Vault* VaultController::editableVault()
{
    auto readable = readableVault();
    if (!readable) {
        setError(readable.error());
        return nullptr;
    }
    return m_vault.get();
}

Result<const vault::Vault*, QString> VaultController::readableVault() const
{
    if (m_busy)
        return fail(tr("Wait for the current operation to finish."));
    if (m_state != State::Unlocked || !m_vault)
        return fail(tr("Unlock the vault first."));
    return static_cast<const vault::Vault*>(m_vault.get());
}

std::shared_ptr<vault::Vault> VaultController::lendVault()
{
    setBusy(true);
    return std::shared_ptr<vault::Vault>(std::move(m_vault));
}

void VaultController::returnVault(vault::Vault&& vault)
{
    m_vault = std::make_unique<vault::Vault>(std::move(vault));
    setBusy(false);
}

// --- Saving --------------------------------------------------------------

void VaultController::deferSave()
{
    m_saveDeferred = true;
}

void VaultController::requestSave()
{
    if (!m_vault)
        return;
    auto bytes = m_vault->serialize(crypto::systemRandom(), nowSeconds());
    if (!bytes) {
        const QString error = tr("Could not save: %1").arg(text::fromCore(bytes.error().message));
        setError(error);
        emit saveFailed(error);
        return;
    }
    m_saveDeferred = false;
    auto file = std::make_shared<const Bytes>(std::move(*bytes));
    if (m_demo) {
        // The demo's file lives in memory: locked, it opens again from here.
        m_memoryFile = std::move(file);
        return;
    }
    m_saves.write(std::move(file));
}

void VaultController::announceAdded(const std::vector<vault::RecordId>& ids)
{
    emit recordsAdded(ids);
}

void VaultController::announceRemoved(const std::vector<vault::RecordId>& ids)
{
    emit recordsRemoved(ids);
}

void VaultController::saveOrUndo(std::shared_ptr<const Bytes> file, SaveQueue::Finished finished)
{
    m_saveDeferred = false;
    if (m_demo) {
        m_memoryFile = std::move(file);
        finished({});
        return;
    }
    // Busy until the file is written: no other change may come between the
    // change and its save, so that a failed write can take exactly it back.
    setBusy(true);
    m_saves.write(std::move(file), [this, finished = std::move(finished)](const QString& error) {
        setBusy(false);
        finished(error);
    });
}

void VaultController::takeBack(const std::vector<vault::RecordId>& ids)
{
    if (m_vault)
        for (const auto& id : ids)
            (void)m_vault->remove(id);
    announceRemoved(ids);
}

bool VaultController::saveAdded(std::vector<vault::RecordId> ids, SaveQueue::Finished finished)
{
    if (!m_vault) {
        finished(tr("The vault is locked."));
        return false;
    }
    // Serialized here rather than by requestSave(): if it fails, the records
    // come out again before anyone sees them.
    auto bytes = m_vault->serialize(crypto::systemRandom(), nowSeconds());
    if (!bytes) {
        takeBack(ids);
        finished(text::fromCore(bytes.error().message));
        return false;
    }
    announceAdded(ids);
    saveOrUndo(std::make_shared<const Bytes>(std::move(*bytes)),
               [this, ids = std::move(ids), finished = std::move(finished)](const QString& error) {
                   if (!error.isEmpty())
                       takeBack(ids);
                   finished(error);
               });
    return true;
}

void VaultController::onWritten(const std::shared_ptr<const Bytes>& file, const QString& warning)
{
    // Saved: a directory that could not be flushed afterwards is said (the
    // change is made), not turned into a failure.
    if (!warning.isEmpty())
        setError(warning);
    m_phrase->noteFile(*file);
    emit saved(m_path);
}

bool bindVault(QObject* owner, VaultController*& slot, VaultController* vault)
{
    if (slot == vault)
        return false;
    if (slot)
        QObject::disconnect(slot, nullptr, owner, nullptr);
    slot = vault;
    if (vault)
        QObject::connect(vault, &QObject::destroyed, owner, [&slot] { slot = nullptr; });
    return true;
}

} // namespace watchword::app
