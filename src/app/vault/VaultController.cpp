#include "app/vault/VaultController.h"

#include "app/codes/AccountDraft.h"
#include "app/codes/AccountFilterModel.h"
#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "app/vault/DemoVault.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "interop/importers/ImportPlan.h"
#include "keychain/Keychain.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/Calibration.h"
#include "vault/PasswordStrength.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QPointer>
#include <QRandomGenerator>
#include <algorithm>
#include <utility>

namespace watchword::app {

struct detail::WorkerOutcome
{
    std::unique_ptr<vault::Vault> vault;
    std::unique_ptr<vault::VaultStorage> storage;
    std::unique_ptr<keychain::Keychain> keychain;
    QString error;
    Bytes file; // the demo's serialized vault
};

// A deleted record, kept for undo.
struct VaultController::Deleted
{
    QString description;
    vault::Record record;
};

namespace {

using Outcome = detail::WorkerOutcome;

Outcome failed(QString error)
{
    Outcome outcome;
    outcome.error = std::move(error);
    return outcome;
}

std::int64_t nowSeconds()
{
    return QDateTime::currentSecsSinceEpoch();
}

QByteArray hexId(const vault::RecordId& id)
{
    return QByteArray::fromStdString(encoding::toHex(id));
}

// The record id a model row names (hex), or nothing if it names none.
std::optional<vault::RecordId> recordIdFrom(const QString& hex)
{
    const auto bytes = encoding::fromHex(hex.toStdString());
    vault::RecordId id{};
    if (!bytes || bytes->size() != id.size())
        return std::nullopt;
    std::copy(bytes->begin(), bytes->end(), id.begin());
    return id;
}

QString accountLabel(const vault::OtpAccount& account)
{
    return accountTitle(QString::fromStdString(account.issuer),
                        QString::fromStdString(account.accountName));
}

std::vector<std::string> toStrings(const QStringList& strings)
{
    std::vector<std::string> out;
    for (const auto& s : strings)
        if (const auto trimmed = s.trimmed(); !trimmed.isEmpty())
            out.push_back(trimmed.toStdString());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

NoteEntry noteEntry(const vault::SecureNote& note)
{
    return {hexId(note.id), QString::fromStdString(note.title), toQStringList(note.tags),
            note.modified};
}

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

// The calibration for a new password slot at targetMilliseconds.
std::optional<vault::Calibration> calibrate(int targetMilliseconds, QString& error)
{
    auto calibration = vault::calibratePasswordKdf(std::uint32_t(targetMilliseconds));
    if (!calibration) {
        error = text::fromCore(calibration.error().message);
        return std::nullopt;
    }
    return *calibration;
}

// Writes bytes through storage: lock, save, unlock. The error, or "" when
// saved; a save that succeeded may leave storage.warning().
QString writeVault(vault::VaultStorage& storage, ByteView bytes)
{
    if (auto locked = storage.lock(); !locked)
        return text::fromCore(locked.error().message);
    const auto saved = storage.save(bytes);
    storage.unlock();
    if (!saved)
        return text::fromCore(saved.error().message);
    return {};
}

// The bytes the vault would derive from for a typed password (NFKD), in a
// wiped buffer: no unwiped copy is made.
SecureBuffer normalizedCopy(const QString& password)
{
    QString copy = password; // shares the text; the copy is what gets wiped
    return text::normalizeSecretText(copy);
}

vault::PasswordStrength strengthOf(const QString& password)
{
    return vault::estimatePasswordStrength(normalizedCopy(password).view());
}

// What is wrong with a new password and its repetition, or "" if nothing.
QString newPasswordProblem(const QString& password, const QString& repeat)
{
    if (password.isEmpty())
        return VaultController::tr("Enter a password.");
    if (password != repeat)
        return VaultController::tr("The two passwords are not the same.");
    if (const auto refusal = vault::newPasswordRefusal(normalizedCopy(password).view())) {
        QString text = QString::fromStdString(*refusal);
        text[0] = text[0].toUpper();
        return text;
    }
    return {};
}

} // namespace

VaultController::VaultController(QString path, Clock* clock, ClipboardService* clipboard,
                                 QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_clock(clock), m_clipboard(clipboard)
{
    m_state = !m_path.isEmpty() && QFileInfo::exists(m_path) ? State::Locked : State::Missing;
    connect(m_clock, &Clock::secondChanged, this,
            [this](qint64 second) { m_accounts.tick(second); });
    m_progressTimer.setInterval(50);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] {
        if (m_expectedMilliseconds > 0)
            setProgress(std::min(0.99, double(m_kdfTimer.elapsed()) / m_expectedMilliseconds));
    });
}

VaultController::~VaultController() = default;

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

std::unique_ptr<VaultController>
VaultController::makeDemo(Clock* clock, ClipboardService* clipboard, QObject* parent)
{
    std::unique_ptr<VaultController> controller(
        new VaultController(QString(), clock, clipboard, parent));
    controller->m_demo = true;
    controller->setState(State::Unlocking);
    auto* made = controller.get();
    runInBackground(
        made,
        [] {
            auto demo = makeDemoVault(crypto::systemRandom(), nowSeconds());
            if (!demo)
                return failed(text::fromCore(demo.error()));
            Outcome outcome;
            outcome.vault = std::make_unique<vault::Vault>(std::move(demo->vault));
            outcome.file = std::move(demo->file);
            return outcome;
        },
        [made](Outcome outcome) {
            if (!outcome.vault) {
                made->setError(outcome.error);
                made->setState(State::Missing);
                emit made->unlockFinished(false);
                return;
            }
            made->m_memoryFile = std::make_shared<const Bytes>(std::move(outcome.file));
            made->showVault(std::move(outcome.vault), nullptr);
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

void VaultController::setSaving(bool saving)
{
    assignAndNotify(this, m_saving, saving, &VaultController::savingChanged);
}

void VaultController::setUnlockTargetMilliseconds(int milliseconds)
{
    assignAndNotify(this, m_unlockTargetMilliseconds, std::clamp(milliseconds, 100, 10'000),
                    &VaultController::unlockTargetMillisecondsChanged);
}

QString VaultController::undoText() const
{
    return m_undo.empty() ? QString() : m_undo.back()->description;
}

int VaultController::passwordStrength(const QString& password) const
{
    return strengthOf(password).score;
}

QString VaultController::passwordStrengthHint(const QString& password) const
{
    static const char* const names[] = {QT_TR_NOOP("Very weak"), QT_TR_NOOP("Weak"),
                                        QT_TR_NOOP("Fair"), QT_TR_NOOP("Strong"),
                                        QT_TR_NOOP("Very strong")};
    const auto strength = strengthOf(password);
    QString text = tr(names[std::clamp(strength.score, 0, 4)]);
    if (!strength.hint.empty())
        text += QStringLiteral(": ") + QString::fromStdString(strength.hint);
    return text;
}

// --- Progress of a KDF on a worker ----------------------------------------

void VaultController::startKdfProgress(double expectedMilliseconds)
{
    setError({});
    setProgress(0);
    m_expectedMilliseconds = expectedMilliseconds;
    m_kdfTimer.start();
    m_progressTimer.start();
}

void VaultController::finishKdfProgress(bool succeeded)
{
    m_progressTimer.stop();
    setProgress(succeeded ? 1 : 0);
}

void VaultController::finishOpening(Outcome& outcome, State onFailure, bool written)
{
    finishKdfProgress(bool(outcome.vault));
    if (!outcome.vault) {
        setState(onFailure);
        setError(outcome.error);
        emit unlockFinished(false);
        return;
    }
    showVault(std::move(outcome.vault), std::move(outcome.storage));
    if (written)
        emit saved(m_path);
    emit unlockFinished(true);
}

// --- First run -------------------------------------------------------------

bool VaultController::beginCreate(QString password, QString repeat)
{
    const QString problem = newPasswordProblem(password, repeat);
    SecureBuffer secret = text::normalizeSecretText(password);
    text::wipe(repeat);
    if (m_state != State::Missing || m_busy) {
        setError(tr("A vault already exists here."));
        return false;
    }
    if (!problem.isEmpty()) {
        setError(problem);
        return false;
    }
    setError({});
    m_pendingPassword = std::move(secret);
    setBusy(true);
    runInBackground(
        this,
        [] {
            auto made = keychain::Keychain::create(crypto::systemRandom(),
                                                   keychain::Keychain::defaultWordCount);
            if (!made)
                return failed(text::fromCore(made.error().message));
            Outcome outcome;
            outcome.keychain = std::make_unique<keychain::Keychain>(std::move(*made));
            return outcome;
        },
        [this](Outcome outcome) {
            setBusy(false);
            if (!outcome.keychain) {
                m_pendingPassword = {};
                setError(outcome.error);
                return;
            }
            showRecoveryPhrase(std::move(outcome.keychain), PhrasePurpose::Create);
        });
    return true;
}

void VaultController::showRecoveryPhrase(std::unique_ptr<keychain::Keychain> keychain,
                                         PhrasePurpose purpose)
{
    m_pendingKeychain = std::move(keychain);
    m_phrasePurpose = purpose;
    const auto& mnemonic = m_pendingKeychain->mnemonic();
    m_recoveryWords = QString::fromUtf8(reinterpret_cast<const char*>(mnemonic.data()),
                                        qsizetype(mnemonic.size()))
                          .split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // Three distinct positions, in order, from the system's CSPRNG-backed
    // generator: which words are asked must not be guessable in advance.
    QList<int> positions;
    while (positions.size() < confirmWordCount) {
        const int p = int(QRandomGenerator::system()->bounded(m_recoveryWords.size())) + 1;
        if (!positions.contains(p))
            positions << p;
    }
    std::sort(positions.begin(), positions.end());
    m_confirmPositions = positions;
    emit recoveryPhraseChanged();
}

QString VaultController::newRecoveryFingerprint() const
{
    if (!m_pendingKeychain)
        return {};
    return QString::fromStdString(vault::recoveryKeyFingerprint(*m_pendingKeychain));
}

QString VaultController::recoveryFingerprint() const
{
    return m_fileHeader ? QString::fromStdString(vault::recoveryKeyFingerprint(*m_fileHeader))
                        : QString();
}

void VaultController::noteRecoveryKey(ByteView file)
{
    auto header = vault::decodeHeader(file);
    const auto recoveryKeyOf = [](const std::optional<vault::VaultHeaderInfo>& info) {
        return info ? info->recoveryPublicKey : std::nullopt;
    };
    std::optional<vault::VaultHeaderInfo> read;
    if (header)
        read = std::move(header).value();
    const bool changed = recoveryKeyOf(read) != recoveryKeyOf(m_fileHeader);
    m_fileHeader = std::move(read);
    if (changed)
        emit recoveryKeyChanged();
}

void VaultController::checkRecoveryPhrase(QString phrase)
{
    const SecureBuffer typed = text::composedText(phrase);
    const auto keychain = keychain::Keychain::restore(typed.view());
    m_phraseMatches = false;
    if (!keychain) {
        m_phraseCheck = tr("This is not a recovery phrase: %1")
                            .arg(QString::fromStdString(keychain.error().message));
    } else if (!m_fileHeader || !m_fileHeader->recoveryPublicKey) {
        m_phraseCheck = tr("This vault has no recovery key to compare with.");
    } else {
        const QString fingerprint =
            QString::fromStdString(vault::recoveryKeyFingerprint(*keychain));
        m_phraseMatches = vault::isRecoveryKeyOf(*m_fileHeader, *keychain);
        m_phraseCheck =
            m_phraseMatches
                ? tr("This phrase opens the vault (recovery key %1).").arg(fingerprint)
                : tr("This phrase does not open the vault: its recovery key is %1, the vault's "
                     "is %2. If it is the phrase you wrote down for this vault, someone who "
                     "had your password replaced the vault's recovery key: make a new "
                     "recovery phrase now.")
                      .arg(fingerprint, recoveryFingerprint());
    }
    emit phraseCheckChanged();
}

void VaultController::clearPhraseCheck()
{
    m_phraseCheck.clear();
    m_phraseMatches = false;
    emit phraseCheckChanged();
}

void VaultController::forgetRecoveryPhrase()
{
    m_pendingKeychain.reset();
    m_pendingPassword = {};
    for (auto& word : m_recoveryWords)
        text::wipe(word);
    m_recoveryWords.clear();
    m_confirmPositions.clear();
    emit recoveryPhraseChanged();
}

void VaultController::cancelRecoveryPhrase()
{
    if (m_busy)
        return;
    forgetRecoveryPhrase();
    setError({});
}

bool VaultController::confirmRecoveryPhrase(const QStringList& words)
{
    if (!m_pendingKeychain || m_busy)
        return false;
    if (words.size() != m_confirmPositions.size()) {
        setError(tr("Type the %n requested words.", nullptr, int(m_confirmPositions.size())));
        return false;
    }
    for (qsizetype i = 0; i < words.size(); ++i) {
        const int position = m_confirmPositions[i];
        if (words[i].trimmed().toCaseFolded() != m_recoveryWords[position - 1]) {
            setError(tr("Word %1 is not right. Check what you wrote down.").arg(position));
            return false;
        }
    }
    setError({});
    if (m_phrasePurpose == PhrasePurpose::Replace) {
        if (!editable())
            return false;
        const auto replaced =
            m_vault->replaceRecoveryKey(*m_pendingKeychain, crypto::systemRandom());
        forgetRecoveryPhrase();
        if (!replaced) {
            setError(text::fromCore(replaced.error().message));
            emit operationFinished(false);
            return false;
        }
        requestSave();
        emit operationFinished(true);
        return true;
    }

    // Create the vault: calibrate, derive, write, on a worker.
    auto keychain = std::shared_ptr<keychain::Keychain>(std::move(m_pendingKeychain));
    auto password = std::make_shared<SecureBuffer>(std::move(m_pendingPassword));
    forgetRecoveryPhrase();
    setBusy(true);
    setState(State::Unlocking);
    startKdfProgress(double(m_unlockTargetMilliseconds) + 100);
    const QString path = m_path;
    const int target = m_unlockTargetMilliseconds;
    runInBackground(
        this,
        [keychain, password, path, target] {
            QString calibrationError;
            const auto calibration = calibrate(target, calibrationError);
            if (!calibration)
                return failed(calibrationError);
            auto& random = crypto::systemRandom();
            const std::int64_t now = nowSeconds();
            auto created =
                vault::Vault::create(password->span(), *keychain, *calibration, random, now);
            if (!created)
                return failed(text::fromCore(created.error().message));
            auto bytes = created->serialize(random, now);
            if (!bytes)
                return failed(text::fromCore(bytes.error().message));
            auto storage = vault::VaultStorage::create(path.toStdString(), *bytes, random);
            if (!storage)
                return failed(text::fromCore(storage.error().message));
            storage->unlock();
            Outcome outcome;
            outcome.vault = std::make_unique<vault::Vault>(std::move(*created));
            outcome.storage = std::make_unique<vault::VaultStorage>(std::move(*storage));
            return outcome;
        },
        [this](Outcome outcome) {
            setBusy(false);
            finishOpening(outcome, State::Missing, true);
        });
    return true;
}

// --- Unlocking ---------------------------------------------------------------

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
                auto opened = vault::VaultStorage::open(path.toStdString(), crypto::systemRandom());
                if (!opened)
                    return failed(text::fromCore(opened.error().message));
                storage = std::make_unique<vault::VaultStorage>(std::move(*opened));
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
            Outcome outcome;
            outcome.vault = std::make_unique<vault::Vault>(std::move(*unlocked));
            outcome.storage = std::move(storage);
            return outcome;
        },
        [this](Outcome outcome) { finishOpening(outcome, State::Locked, false); });
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
    setState(State::Unlocking);
    startKdfProgress(double(m_unlockTargetMilliseconds) + 100);
    const QString path = m_path;
    const int target = m_unlockTargetMilliseconds;
    runInBackground(
        this,
        [mnemonic, password, path, target] {
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
            QString calibrationError;
            const auto calibration = calibrate(target, calibrationError);
            if (!calibration)
                return failed(calibrationError);
            if (auto changed = recovered->changePassword(password->span(), *calibration, random);
                !changed)
                return failed(text::fromCore(changed.error().message));
            auto bytes = recovered->serialize(random, nowSeconds());
            if (!bytes)
                return failed(text::fromCore(bytes.error().message));
            if (auto written = writeVault(*storage, *bytes); !written.isEmpty())
                return failed(written);
            Outcome outcome;
            outcome.vault = std::make_unique<vault::Vault>(std::move(*recovered));
            outcome.storage = std::make_unique<vault::VaultStorage>(std::move(*storage));
            return outcome;
        },
        [this](Outcome outcome) { finishOpening(outcome, State::Locked, true); });
}

void VaultController::showVault(std::unique_ptr<vault::Vault> unlocked,
                                std::unique_ptr<vault::VaultStorage> storage)
{
    m_vault = std::move(unlocked);
    m_storage = std::move(storage);
    if (m_storage)
        noteRecoveryKey(m_storage->contents());
    else if (m_memoryFile)
        noteRecoveryKey(*m_memoryFile);
    std::vector<AccountEntry> entries;
    std::vector<NoteEntry> notes;
    for (std::size_t i = 0; i < m_vault->recordCount(); ++i) {
        const auto& record = m_vault->record(i);
        if (const auto* note = std::get_if<vault::SecureNote>(&record))
            notes.push_back(noteEntry(*note));
        else if (auto entry = accountEntry(std::get<vault::OtpAccount>(record)))
            entries.push_back(std::move(*entry));
    }
    m_accounts.setAccounts(std::move(entries), m_clock->second());
    m_notes.setNotes(std::move(notes));
    setState(State::Unlocked);
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
    // "Recently used" times not yet written go out with one last save.
    if (m_usageUnsaved)
        requestSave();
    m_accounts.clear();
    m_notes.clear();
    m_undo.clear();
    emit undoChanged();
    forgetRecoveryPhrase();
    m_vault.reset();
    m_clipboard->clearNow();
    setProgress(0);
    setState(State::Locked);
}

// --- Password and phrase -----------------------------------------------------

bool VaultController::changePassword(QString current, QString newPassword, QString repeat)
{
    const QString problem = newPasswordProblem(newPassword, repeat);
    auto currentSecret = std::make_shared<SecureBuffer>(text::normalizeSecretText(current));
    auto newSecret = std::make_shared<SecureBuffer>(text::normalizeSecretText(newPassword));
    text::wipe(repeat);
    if (!editable())
        return false;
    if (currentSecret->empty()) {
        setError(tr("Enter the current password."));
        return false;
    }
    if (!problem.isEmpty()) {
        setError(problem);
        return false;
    }
    setError({});
    setBusy(true);
    auto held = std::shared_ptr<vault::Vault>(std::move(m_vault));
    const int target = m_unlockTargetMilliseconds;
    runInBackground(
        this,
        [held, currentSecret, newSecret, target] {
            Outcome outcome;
            if (auto verified = held->verifyPassword(currentSecret->span()); !verified) {
                outcome.error = verified.error().code == vault::VaultError::WrongPassword
                                    ? tr("The current password is wrong.")
                                    : text::fromCore(verified.error().message);
                return outcome;
            }
            QString calibrationError;
            const auto calibration = calibrate(target, calibrationError);
            if (!calibration) {
                outcome.error = calibrationError;
                return outcome;
            }
            if (auto changed =
                    held->changePassword(newSecret->span(), *calibration, crypto::systemRandom());
                !changed)
                outcome.error = text::fromCore(changed.error().message);
            return outcome;
        },
        [this, held](Outcome outcome) {
            // The vault comes back whatever happened: a refused change left
            // it as it was.
            m_vault = std::make_unique<vault::Vault>(std::move(*held));
            setBusy(false);
            if (!outcome.error.isEmpty()) {
                setError(outcome.error);
                emit operationFinished(false);
                return;
            }
            requestSave();
            emit operationFinished(true);
        });
    return true;
}

bool VaultController::beginNewRecoveryPhrase(QString password)
{
    auto secret = std::make_shared<SecureBuffer>(text::normalizeSecretText(password));
    if (!editable())
        return false;
    if (m_demo) {
        setError(tr("The demo vault has no recovery phrase to replace."));
        return false;
    }
    if (secret->empty()) {
        setError(tr("Enter the vault's password."));
        return false;
    }
    setError({});
    setBusy(true);
    auto held = std::shared_ptr<vault::Vault>(std::move(m_vault));
    runInBackground(
        this,
        [held, secret] {
            if (auto verified = held->verifyPassword(secret->span()); !verified)
                return failed(verified.error().code == vault::VaultError::WrongPassword
                                  ? tr("The password is wrong.")
                                  : text::fromCore(verified.error().message));
            auto made = keychain::Keychain::create(crypto::systemRandom(),
                                                   keychain::Keychain::defaultWordCount);
            if (!made)
                return failed(text::fromCore(made.error().message));
            Outcome outcome;
            outcome.keychain = std::make_unique<keychain::Keychain>(std::move(*made));
            return outcome;
        },
        [this, held](Outcome outcome) {
            m_vault = std::make_unique<vault::Vault>(std::move(*held));
            setBusy(false);
            if (!outcome.keychain) {
                setError(outcome.error);
                emit operationFinished(false);
                return;
            }
            showRecoveryPhrase(std::move(outcome.keychain), PhrasePurpose::Replace);
        });
    return true;
}

// --- Saving --------------------------------------------------------------------

bool VaultController::editable()
{
    if (m_state != State::Unlocked || !m_vault) {
        setError(tr("Unlock the vault first."));
        return false;
    }
    if (m_busy) {
        setError(tr("Wait for the current operation to finish."));
        return false;
    }
    return true;
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
    m_usageUnsaved = false;
    auto file = std::make_shared<const Bytes>(std::move(*bytes));
    if (m_demo) {
        // The demo's file lives in memory: locked, it opens again from here.
        m_memoryFile = std::move(file);
        return;
    }
    if (!m_storage) {
        m_queuedFile = std::move(file); // a save job holds the storage
        return;
    }
    writeBytes(std::move(file));
}

void VaultController::writeBytes(std::shared_ptr<const Bytes> file)
{
    setSaving(true);
    auto storage = std::shared_ptr<vault::VaultStorage>(std::move(m_storage));
    runInBackground(
        this,
        [storage, file] {
            Outcome outcome;
            outcome.error = writeVault(*storage, *file);
            return outcome;
        },
        [this, storage, file](Outcome outcome) {
            m_storage = std::make_unique<vault::VaultStorage>(std::move(*storage));
            if (m_import && m_import->file == file) {
                // An import's save answers importFinished() rather than
                // saveFailed(): on failure the import is undone in memory.
                if (outcome.error.isEmpty())
                    emit saved(m_path);
                finishImport(outcome.error);
            } else if (!outcome.error.isEmpty()) {
                const QString error =
                    tr("Your change is kept in memory but was not saved: %1").arg(outcome.error);
                setError(error);
                emit saveFailed(error);
            } else {
                // Saved: a directory that could not be flushed afterwards is
                // said (the change is made), not turned into a failure.
                if (!m_storage->warning().empty())
                    setError(text::fromCore(m_storage->warning()));
                noteRecoveryKey(*file);
                emit saved(m_path);
            }
            if (m_queuedFile) {
                writeBytes(std::exchange(m_queuedFile, nullptr));
                return;
            }
            setSaving(false);
        });
}

// --- Accounts ------------------------------------------------------------------

template <typename Kind> const Kind* VaultController::findRecord(const QString& recordId) const
{
    const auto id = recordIdFrom(recordId);
    if (!m_vault || !id)
        return nullptr;
    return std::get_if<Kind>(m_vault->find(*id));
}

void VaultController::refreshAccount(const vault::OtpAccount& account)
{
    if (auto entry = accountEntry(account))
        m_accounts.upsert(std::move(*entry), m_clock->second());
}

std::vector<watch::WatchAccount> VaultController::watchAccounts(const QStringList& recordIds,
                                                                QString& error) const
{
    std::vector<watch::WatchAccount> accounts;
    if (m_state != State::Unlocked || m_busy || !m_vault) {
        error = tr("Unlock the vault to choose accounts for the watch.");
        return accounts;
    }
    if (recordIds.isEmpty()) {
        error = tr("Choose at least one account for the watch.");
        return accounts;
    }
    for (const auto& account : accountCopies(recordIds, error))
        accounts.push_back(watch::watchAccountFrom(account));
    return accounts;
}

std::vector<vault::OtpAccount> VaultController::accountCopies(const QStringList& recordIds,
                                                              QString& error) const
{
    std::vector<vault::OtpAccount> accounts;
    if (m_state != State::Unlocked || m_busy || !m_vault) {
        error = m_busy ? tr("Wait for the current operation to finish.")
                       : tr("Unlock the vault first.");
        return accounts;
    }
    if (recordIds.isEmpty()) {
        for (const vault::Record* record : vault::sortedRecords(*m_vault))
            if (const auto* account = std::get_if<vault::OtpAccount>(record))
                accounts.push_back(account->clone());
        if (accounts.empty())
            error = tr("The vault holds no accounts.");
        return accounts;
    }
    for (const auto& id : recordIds) {
        const auto* account = findRecord<vault::OtpAccount>(id);
        if (!account) {
            error = tr("No account %1 in this vault.").arg(id);
            accounts.clear();
            return accounts;
        }
        accounts.push_back(account->clone());
    }
    return accounts;
}

std::vector<importers::PlannedAccount>
VaultController::planImport(const importers::Imported& imported, QString& error) const
{
    if (m_state != State::Unlocked || m_busy || !m_vault) {
        error = m_busy ? tr("Wait for the current operation to finish.")
                       : tr("Unlock the vault first.");
        return {};
    }
    return importers::planImport(imported, *m_vault);
}

bool VaultController::addImported(const importers::Imported& imported,
                                  const std::vector<std::size_t>& chosen)
{
    if (!editable())
        return false;
    if (chosen.empty()) {
        setError(tr("Tick at least one account to import."));
        return false;
    }
    auto added =
        importers::addImported(*m_vault, imported, chosen, crypto::systemRandom(), nowSeconds());
    if (!added) {
        setError(tr("Nothing was imported: %1").arg(text::fromCore(added.error().message)));
        return false;
    }
    // Serialized here rather than by requestSave(): if it fails, the
    // accounts come out again before anyone sees them.
    auto bytes = m_vault->serialize(crypto::systemRandom(), nowSeconds());
    if (!bytes) {
        removeAdded(*added);
        setError(tr("Nothing was imported: %1").arg(text::fromCore(bytes.error().message)));
        return false;
    }
    setError({});
    for (const auto& id : *added)
        if (const auto* stored = std::get_if<vault::OtpAccount>(m_vault->find(id)))
            refreshAccount(*stored);
    m_usageUnsaved = false;
    auto file = std::make_shared<const Bytes>(std::move(*bytes));
    m_import = PendingImport{file, std::move(*added)};
    if (m_demo) {
        m_memoryFile = std::move(file);
        finishImport({});
        return true;
    }
    // Busy until the file is written: no other change may come between the
    // import and its save, so that a failed write can take exactly it back.
    setBusy(true);
    if (!m_storage)
        m_queuedFile = std::move(file); // written when the running save ends
    else
        writeBytes(std::move(file));
    return true;
}

void VaultController::finishImport(const QString& error)
{
    auto pending = std::exchange(m_import, std::nullopt);
    if (!pending)
        return;
    const int count = int(pending->ids.size());
    if (error.isEmpty()) {
        setBusy(false);
        emit importFinished(true, count == 1 ? tr("Imported 1 account.")
                                             : tr("Imported %1 accounts.").arg(count));
        return;
    }
    removeAdded(pending->ids);
    const QString problem = tr("Nothing was imported: the vault could not be saved: %1").arg(error);
    setError(problem);
    setBusy(false);
    emit importFinished(false, problem);
}

void VaultController::removeAdded(const std::vector<vault::RecordId>& ids)
{
    for (const auto& id : ids) {
        if (m_vault)
            (void)m_vault->remove(id);
        m_accounts.remove(hexId(id));
    }
}

bool VaultController::copyCode(const QString& recordId)
{
    const QString code = m_accounts.plainCode(recordId.toLatin1());
    if (code.isEmpty())
        return false;
    m_clipboard->copy(code);
    // Recently used: in memory now, written with the next save.
    const auto* account = m_busy ? nullptr : findRecord<vault::OtpAccount>(recordId);
    if (account != nullptr) {
        auto used = account->clone();
        used.lastUsed = nowSeconds();
        const std::int64_t when = *used.lastUsed;
        if (m_vault->update(std::move(used))) {
            m_accounts.setLastUsed(recordId.toLatin1(), when);
            m_usageUnsaved = true;
        }
    }
    return true;
}

bool VaultController::addAccount(AccountDraft* draft)
{
    if (draft == nullptr || !editable())
        return false;
    vault::OtpAccount account;
    QString error;
    if (!draft->toAccount(account, error)) {
        setError(error);
        return false;
    }
    const std::int64_t now = nowSeconds();
    account.created = now;
    account.modified = now;
    account.sortPosition = vault::nextSortPosition(*m_vault);
    auto added = m_vault->add(std::move(account), crypto::systemRandom());
    if (!added) {
        setError(text::fromCore(added.error().message));
        return false;
    }
    setError({});
    if (const auto* stored = std::get_if<vault::OtpAccount>(m_vault->find(*added)))
        refreshAccount(*stored);
    requestSave();
    return true;
}

QString VaultController::duplicateOf(AccountDraft* draft) const
{
    if (draft == nullptr || m_state != State::Unlocked || !m_vault)
        return {};
    vault::OtpAccount candidate;
    QString error;
    if (!draft->toAccount(candidate, error))
        return {};
    for (std::size_t i = 0; i < m_vault->recordCount(); ++i) {
        const auto* existing = std::get_if<vault::OtpAccount>(&m_vault->record(i));
        if (existing == nullptr || QString::fromLatin1(hexId(existing->id)) == draft->recordId())
            continue;
        if (importers::sameCodes(candidate.secret.span(), candidate.parameters,
                                 existing->secret.span(), existing->parameters))
            return accountLabel(*existing);
    }
    return {};
}

bool VaultController::updateAccount(AccountDraft* draft)
{
    if (draft == nullptr || !editable())
        return false;
    const auto* existing = findRecord<vault::OtpAccount>(draft->recordId());
    if (existing == nullptr) {
        setError(tr("That account is no longer in the vault."));
        return false;
    }
    vault::OtpAccount edited;
    QString error;
    if (!draft->toAccount(edited, error)) {
        setError(error);
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
    if (auto updated = m_vault->update(std::move(edited)); !updated) {
        setError(text::fromCore(updated.error().message));
        return false;
    }
    setError({});
    refreshAccount(std::get<vault::OtpAccount>(*m_vault->find(id)));
    requestSave();
    return true;
}

AccountDraft* VaultController::draftFor(const QString& recordId)
{
    const auto* account = findRecord<vault::OtpAccount>(recordId);
    if (account == nullptr)
        return nullptr;
    auto* draft = new AccountDraft();
    draft->loadAccount(*account);
    return draft; // a returned QObject without parent belongs to JavaScript
}

void VaultController::pushUndo(QString description, const vault::Record& record)
{
    auto deleted =
        std::make_unique<Deleted>(Deleted{std::move(description), vault::cloneRecord(record)});
    m_undo.push_back(std::move(deleted));
    if (m_undo.size() > undoDepth)
        m_undo.erase(m_undo.begin());
    emit undoChanged();
}

bool VaultController::removeAccount(const QString& recordId)
{
    return removeRecord(recordId, vault::RecordKind::OtpAccount);
}

bool VaultController::removeRecord(const QString& recordId, vault::RecordKind kind)
{
    if (!editable())
        return false;
    const auto id = recordIdFrom(recordId);
    const auto* found = m_vault && id ? m_vault->find(*id) : nullptr;
    if (found == nullptr || vault::kindOf(*found) != kind) {
        setError(kind == vault::RecordKind::OtpAccount
                     ? tr("That account is no longer in the vault.")
                     : tr("That note is no longer in the vault."));
        return false;
    }
    if (const auto* account = std::get_if<vault::OtpAccount>(found))
        pushUndo(tr("Deleted %1").arg(accountLabel(*account)), *found);
    else
        pushUndo(tr("Deleted note %1")
                     .arg(QString::fromStdString(std::get<vault::SecureNote>(*found).title)),
                 *found);
    if (auto removed = m_vault->remove(*id); !removed) {
        m_undo.pop_back();
        emit undoChanged();
        setError(text::fromCore(removed.error().message));
        return false;
    }
    if (kind == vault::RecordKind::OtpAccount)
        m_accounts.remove(recordId.toLatin1());
    else
        m_notes.remove(recordId.toLatin1());
    requestSave();
    return true;
}

bool VaultController::undo()
{
    if (m_undo.empty() || !editable())
        return false;
    auto deleted = std::move(m_undo.back());
    m_undo.pop_back();
    emit undoChanged();
    // It comes back under a new id (ids belong to the vault), with its place.
    auto added = m_vault->add(std::move(deleted->record), crypto::systemRandom());
    if (!added) {
        setError(text::fromCore(added.error().message));
        return false;
    }
    const auto* record = m_vault->find(*added);
    if (const auto* account = std::get_if<vault::OtpAccount>(record))
        refreshAccount(*account);
    else if (const auto* note = std::get_if<vault::SecureNote>(record))
        m_notes.upsert(noteEntry(*note));
    requestSave();
    return true;
}

bool VaultController::advanceCounter(const QString& recordId)
{
    if (!editable())
        return false;
    const auto* account = findRecord<vault::OtpAccount>(recordId);
    if (account == nullptr || account->parameters.kind != otp::OtpKind::Hotp)
        return false;
    auto advanced = account->clone();
    advanced.parameters.counter += 1;
    advanced.modified = nowSeconds();
    const auto id = advanced.id;
    if (auto updated = m_vault->update(std::move(advanced)); !updated) {
        setError(text::fromCore(updated.error().message));
        return false;
    }
    refreshAccount(std::get<vault::OtpAccount>(*m_vault->find(id)));
    requestSave();
    return true;
}

bool VaultController::moveAccount(const QString& recordId, int to)
{
    if (!editable())
        return false;
    // The accounts in manual order, as the view shows them.
    std::vector<std::pair<std::uint32_t, vault::RecordId>> order;
    for (std::size_t i = 0; i < m_vault->recordCount(); ++i)
        if (const auto* account = std::get_if<vault::OtpAccount>(&m_vault->record(i)))
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
        auto account = std::get<vault::OtpAccount>(*m_vault->find(order[position].second)).clone();
        account.sortPosition = position;
        if (auto updated = m_vault->update(std::move(account)); !updated) {
            setError(text::fromCore(updated.error().message));
            return false;
        }
        m_accounts.setSortPosition(hexId(order[position].second), position);
    }
    requestSave();
    return true;
}

// --- Notes ---------------------------------------------------------------------

QString VaultController::addNote(const QString& title, QString body, const QStringList& tags)
{
    SecureBuffer bodyText = text::composedText(body);
    if (!editable())
        return {};
    if (title.trimmed().isEmpty()) {
        setError(tr("Give the note a title."));
        return {};
    }
    vault::SecureNote note;
    note.title = title.trimmed().toStdString();
    note.body = std::move(bodyText);
    note.tags = toStrings(tags);
    note.created = note.modified = nowSeconds();
    note.sortPosition = vault::nextSortPosition(*m_vault);
    auto added = m_vault->add(std::move(note), crypto::systemRandom());
    if (!added) {
        setError(text::fromCore(added.error().message));
        return {};
    }
    setError({});
    m_notes.upsert(noteEntry(std::get<vault::SecureNote>(*m_vault->find(*added))));
    requestSave();
    return QString::fromLatin1(hexId(*added));
}

bool VaultController::updateNote(const QString& recordId, const QString& title, QString body,
                                 const QStringList& tags)
{
    SecureBuffer bodyText = text::composedText(body);
    if (!editable())
        return false;
    const auto* existing = findRecord<vault::SecureNote>(recordId);
    if (existing == nullptr) {
        setError(tr("That note is no longer in the vault."));
        return false;
    }
    if (title.trimmed().isEmpty()) {
        setError(tr("Give the note a title."));
        return false;
    }
    auto note = existing->clone();
    note.title = title.trimmed().toStdString();
    note.body = std::move(bodyText);
    note.tags = toStrings(tags);
    note.modified = nowSeconds();
    const auto id = note.id;
    if (auto updated = m_vault->update(std::move(note)); !updated) {
        setError(text::fromCore(updated.error().message));
        return false;
    }
    setError({});
    m_notes.upsert(noteEntry(std::get<vault::SecureNote>(*m_vault->find(id))));
    requestSave();
    return true;
}

bool VaultController::removeNote(const QString& recordId)
{
    return removeRecord(recordId, vault::RecordKind::SecureNote);
}

QString VaultController::revealNote(const QString& recordId) const
{
    const auto* note = findRecord<vault::SecureNote>(recordId);
    if (note == nullptr)
        return {};
    return QString::fromUtf8(reinterpret_cast<const char*>(note->body.data()),
                             qsizetype(note->body.size()));
}

bool VaultController::noteMatches(const QString& recordId, const QString& query) const
{
    const QString needle = foldForSearch(query.trimmed());
    if (needle.isEmpty())
        return true;
    const auto* note = findRecord<vault::SecureNote>(recordId);
    if (note == nullptr)
        return false;
    if (foldForSearch(QString::fromStdString(note->title)).contains(needle))
        return true;
    for (const auto& tag : note->tags) {
        if (foldForSearch(QString::fromStdString(tag)).contains(needle))
            return true;
    }
    QString body = QString::fromUtf8(reinterpret_cast<const char*>(note->body.data()),
                                     qsizetype(note->body.size()));
    QString folded = foldForSearch(body);
    text::wipe(body);
    const bool found = folded.contains(needle);
    text::wipe(folded);
    return found;
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
