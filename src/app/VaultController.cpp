#include "VaultController.h"

#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "keychain/Keychain.h"
#include "text/SecretText.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QPointer>
#include <QThreadPool>
#include <optional>
#include <utility>

namespace watchword::app {

namespace {

// What a worker hands back to the GUI thread.
struct Outcome
{
    std::unique_ptr<vault::Vault> vault;
    QString error;
    Bytes file; // the demo's serialized vault
};

constexpr std::string_view demoPassword = "demo";

// The demo's accounts: what a typical user has, with random secrets.
Outcome makeDemoVault()
{
    auto& random = crypto::systemRandom();
    auto keychain = keychain::Keychain::create(random, keychain::Keychain::defaultWordCount);
    if (!keychain)
        return {nullptr, QString::fromStdString(keychain.error().message), {}};
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();
    auto created = vault::Vault::create(asBytes(demoPassword), *keychain,
                                        {vault::minimumPasswordIterations, 1000, 0}, random, now);
    if (!created)
        return {nullptr, QString::fromStdString(created.error().message), {}};
    struct Sample
    {
        const char* issuer;
        const char* account;
        otp::OtpParameters parameters;
        const char* tag;
    };
    otp::OtpParameters sha256Eight;
    sha256Eight.algorithm = crypto::HashAlgorithm::Sha256;
    sha256Eight.digits = 8;
    sha256Eight.period = 60;
    otp::OtpParameters hotp;
    hotp.kind = otp::OtpKind::Hotp;
    hotp.counter = 7;
    const Sample samples[] = {
        {"GitHub", "alice", {}, "work"},
        {"Google", "alice@example.com", {}, "personal"},
        {"Example Bank", "4417 12** ****", sha256Eight, "finance"},
        {"Steam", "alice_plays", otp::OtpParameters::steam(), "games"},
        {"Mastodon", "@alice@example.social", {}, "personal"},
        {"VPN gateway", "alice (token)", hotp, "work"},
        {"Cloud Console", "alice@example.org", {}, "work"},
    };
    std::uint32_t position = 0;
    for (const auto& sample : samples) {
        vault::OtpAccount account;
        account.issuer = sample.issuer;
        account.accountName = sample.account;
        account.parameters = sample.parameters;
        account.secret = SecureBuffer(20);
        random.fill(account.secret.span());
        account.tags = {sample.tag};
        account.created = now;
        account.modified = now;
        account.sortPosition = position++;
        if (auto added = created->add(std::move(account), random); !added)
            return {nullptr, QString::fromStdString(added.error().message), {}};
    }
    auto file = created->serialize(random, now);
    if (!file)
        return {nullptr, QString::fromStdString(file.error().message), {}};
    return {std::make_unique<vault::Vault>(std::move(*created)), {}, std::move(*file)};
}

// The bytes of the file at path, or an error.
std::optional<Bytes> readVaultFile(const QString& path, QString& error)
{
    auto storage = vault::VaultStorage::open(path.toStdString(), crypto::systemRandom());
    if (!storage) {
        error = QString::fromStdString(storage.error().message);
        return std::nullopt;
    }
    return storage->contents();
}

Outcome unlockBytes(const Bytes& file, const SecureBuffer& password)
{
    auto unlocked = vault::Vault::unlockWithPassword(file, password.span());
    if (!unlocked)
        return {nullptr, QString::fromStdString(unlocked.error().message), {}};
    return {std::make_unique<vault::Vault>(std::move(*unlocked)), {}, {}};
}

// Runs work on the thread pool and hands its Outcome to done on the GUI
// thread, unless the controller is gone by then.
template <typename Work, typename Done>
void runInBackground(QObject* controller, Work work, Done done)
{
    QPointer<QObject> guard(controller);
    QThreadPool::globalInstance()->start(
        [guard, work = std::move(work), done = std::move(done)]() mutable {
            auto outcome = std::make_shared<Outcome>(work());
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [guard, outcome, done = std::move(done)]() mutable {
                    if (guard)
                        done(std::move(*outcome));
                },
                Qt::QueuedConnection);
        });
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
            setProgress(std::min(0.99, double(m_unlockTimer.elapsed()) / m_expectedMilliseconds));
    });
}

VaultController::~VaultController() = default;

std::unique_ptr<VaultController>
VaultController::makeDemo(Clock* clock, ClipboardService* clipboard, QObject* parent)
{
    std::unique_ptr<VaultController> controller(
        new VaultController(QString(), clock, clipboard, parent));
    controller->m_demo = true;
    controller->setState(State::Unlocking);
    auto* made = controller.get();
    runInBackground(
        made, [] { return makeDemoVault(); },
        [made](Outcome outcome) {
            if (!outcome.vault) {
                made->setError(outcome.error);
                made->setState(State::Missing);
                emit made->unlockFinished(false);
                return;
            }
            made->m_memoryFile = std::make_shared<const Bytes>(std::move(outcome.file));
            made->showVault(std::move(outcome.vault));
            emit made->unlockFinished(true);
        });
    return controller;
}

void VaultController::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged();
}

void VaultController::setError(QString error)
{
    if (error == m_error)
        return;
    m_error = std::move(error);
    emit errorChanged();
}

void VaultController::setProgress(double progress)
{
    if (progress == m_progress)
        return;
    m_progress = progress;
    emit progressChanged();
}

void VaultController::unlock(QString password)
{
    if (m_state != State::Locked) {
        // Not now; the typed password is wiped all the same.
        secureWipe(password.data(), static_cast<std::size_t>(password.size()) * sizeof(QChar));
        return;
    }
    auto secret = std::make_shared<SecureBuffer>(text::normalizeSecretText(password));
    if (secret->empty()) {
        setError(tr("Enter the vault's password."));
        return;
    }
    setError({});
    setProgress(0);
    setState(State::Unlocking);
    m_expectedMilliseconds = 0; // until the worker has read the header
    m_unlockTimer.start();
    m_progressTimer.start();
    // Reading the file is the worker's too: the GUI thread does no I/O.
    const std::shared_ptr<const Bytes> memoryFile = m_memoryFile;
    const QString path = m_path;
    QPointer<VaultController> guard(this);
    runInBackground(
        this,
        [memoryFile, path, secret, guard] {
            std::shared_ptr<const Bytes> file = memoryFile;
            if (!file) {
                QString readError;
                auto bytes = readVaultFile(path, readError);
                if (!bytes)
                    return Outcome{nullptr, readError, {}};
                file = std::make_shared<const Bytes>(std::move(*bytes));
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
            return unlockBytes(*file, *secret);
        },
        [this](Outcome outcome) {
            m_progressTimer.stop();
            if (!outcome.vault) {
                setProgress(0);
                setState(State::Locked);
                setError(outcome.error);
                emit unlockFinished(false);
                return;
            }
            setProgress(1);
            showVault(std::move(outcome.vault));
            emit unlockFinished(true);
        });
}

void VaultController::showVault(std::unique_ptr<vault::Vault> unlocked)
{
    m_vault = std::move(unlocked);
    std::vector<AccountEntry> entries;
    for (std::size_t i = 0; i < m_vault->recordCount(); ++i) {
        const auto* account = std::get_if<vault::OtpAccount>(&m_vault->record(i));
        if (account == nullptr)
            continue;
        auto generator = otp::OtpGenerator::create(account->parameters, account->secret.span());
        if (!generator)
            continue; // validated when stored; a failure here means crypto is disabled
        QStringList tags;
        for (const auto& tag : account->tags)
            tags << QString::fromStdString(tag);
        entries.push_back({QByteArray::fromStdString(encoding::toHex(account->id)),
                           QString::fromStdString(account->issuer),
                           QString::fromStdString(account->accountName), tags,
                           std::move(*generator)});
    }
    m_accounts.setAccounts(std::move(entries), m_clock->second());
    setState(State::Unlocked);
}

void VaultController::lock()
{
    if (m_state != State::Unlocked)
        return;
    m_accounts.clear();
    m_vault.reset();
    m_clipboard->clearNow();
    setProgress(0);
    setState(State::Locked);
}

bool VaultController::copyCode(const QString& recordId)
{
    const QString code = m_accounts.plainCode(recordId.toLatin1());
    if (code.isEmpty())
        return false;
    m_clipboard->copy(code);
    return true;
}

} // namespace watchword::app
