#include "app/watch/WatchSimulator.h"

#include "app/codes/AccountListModel.h"
#include "app/codes/Clock.h"
#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "app/desktop/AppSettings.h"
#include "app/vault/AccountCopies.h"
#include "app/vault/VaultController.h"
#include "base/FileIo.h"
#include "crypto/Random.h"
#include "encoding/Decimal.h"
#include "otp/OtpGenerator.h"
#include "watch/Describe.h"
#include "watch/Screen.h"
#include "watch/WatchOpener.h"

#include <QDateTime>
#include <QFile>
#include <algorithm>
#include <cmath>

namespace watchword::app {

namespace {

// What a watch export needs of the accounts with these record ids (hex),
// secrets copied into wiped buffers, in the order given.
Result<std::vector<watch::WatchAccount>, QString> watchAccountsOf(const VaultController& vault,
                                                                  const QStringList& recordIds)
{
    if (!vault.readableVault())
        return fail(WatchSimulator::tr("Unlock the vault to choose accounts for the watch."));
    if (recordIds.isEmpty())
        return fail(WatchSimulator::tr("Choose at least one account for the watch."));
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

QString text(std::string_view value)
{
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

std::optional<watch::Operation> operationNamed(const QString& key)
{
    for (const auto operation : watch::allOperations)
        if (text(watch::operationKey(operation)) == key)
            return operation;
    return std::nullopt;
}

// "2.1 - 10.4 s", "850 ms": an unlock as the watch screen says it.
QString unlockText(const watch::Span& ms)
{
    const auto seconds = [](double value) {
        return text(encoding::fixedNumber(value / 1000, 1));
    };
    if (ms.high < 1000)
        return text(watch::spanText(ms));
    if (ms.low == ms.high)
        return seconds(ms.low) + QStringLiteral(" s");
    return seconds(ms.low) + QStringLiteral(" - ") + seconds(ms.high) + QStringLiteral(" s");
}

QString viewName(watch::View view)
{
    switch (view) {
    case watch::View::NoExport:
        return QStringLiteral("noExport");
    case watch::View::Pin:
        return QStringLiteral("pin");
    case watch::View::Unlocking:
        return QStringLiteral("unlocking");
    case watch::View::Code:
        return QStringLiteral("code");
    case watch::View::List:
        return QStringLiteral("list");
    case watch::View::Glance:
        return QStringLiteral("glance");
    }
    return {};
}

// What a checked PIN hands back to the GUI thread: the accounts' labels and
// their generators (the secrets live on only as HMAC states), or an error.
struct UnlockOutcome
{
    std::vector<watch::AccountLabel> labels;
    std::vector<otp::OtpGenerator> generators;
    QString error;
    bool wrongPin = false;
};

} // namespace

struct WatchSimulator::Opened
{
    std::vector<otp::OtpGenerator> generators;
};

WatchSimulator::WatchSimulator(QObject* parent) : QObject(parent)
{
    if (const auto directory = watch::defaultDeviceDirectory())
        m_deviceDirectory = QString::fromStdString(*directory);
    loadDevices();
}

WatchSimulator::~WatchSimulator() = default;

void WatchSimulator::setVault(VaultController* vault)
{
    if (m_vault == vault)
        return;
    if (VaultController* previous = m_vault)
        disconnect(previous, nullptr, this, nullptr);
    m_vault = vault;
    if (vault) {
        // The vault locked: what the watch opened goes with it.
        connect(vault, &VaultController::stateChanged, this, [this, vault] {
            if (vault->state() != VaultController::State::Unlocked)
                lockWatch();
        });
    }
    emit vaultChanged();
}

void WatchSimulator::setAccounts(AccountListModel* accounts)
{
    if (m_accounts == accounts)
        return;
    if (AccountListModel* previous = m_accounts)
        disconnect(previous, nullptr, this, nullptr);
    m_accounts = accounts;
    if (accounts) {
        for (const auto signal :
             {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(accounts, signal, this, &WatchSimulator::exportChoicesChanged);
        connect(accounts, &QAbstractItemModel::modelReset, this,
                &WatchSimulator::exportChoicesChanged);
        connect(accounts, &QAbstractItemModel::layoutChanged, this,
                &WatchSimulator::exportChoicesChanged);
        // Issuer and name edits; the codes' own changes are not choices.
        connect(accounts, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex&, const QModelIndex&, const QList<int>& roles) {
                    if (roles.isEmpty() || roles.contains(AccountListModel::IssuerRole) ||
                        roles.contains(AccountListModel::AccountNameRole))
                        emit exportChoicesChanged();
                });
    }
    emit accountsChanged();
    emit exportChoicesChanged();
}

void WatchSimulator::setClock(Clock* clock)
{
    if (m_clock == clock)
        return;
    if (m_clock)
        disconnect(m_clock, nullptr, this, nullptr);
    m_clock = clock;
    // A watch app redraws once a second (its timer), and so does this.
    if (m_clock)
        connect(m_clock, &Clock::secondChanged, this, [this] {
            if (m_opened)
                emit frameChanged();
        });
    emit clockChanged();
    emit frameChanged();
}

void WatchSimulator::setDeviceDirectory(const QString& directory)
{
    if (directory == m_deviceDirectory)
        return;
    m_deviceDirectory = directory;
    loadDevices();
}

void WatchSimulator::setSettings(AppSettings* settings)
{
    if (settings == m_settings)
        return;
    m_settings = settings;
    emit settingsChanged();
    loadDevices(false);
}

void WatchSimulator::loadDevices(bool keepCurrent)
{
    const QString previous = deviceId();
    m_devices.clear();
    m_loadError.clear();
    if (m_deviceDirectory.isEmpty()) {
        m_loadError = tr("No device profiles were found (looked in %1).").arg(text([] {
            std::string joined;
            for (const auto& path : watch::deviceSearchPath())
                joined += (joined.empty() ? "" : ", ") + path;
            return joined;
        }()));
    } else if (auto loaded = watch::loadDevices(m_deviceDirectory.toStdString()); !loaded) {
        m_loadError = text(loaded.error().message);
    } else {
        m_devices = std::move(*loaded);
    }
    if (m_settings) {
        for (auto& device : m_devices)
            for (const auto operation : watch::allOperations) {
                const double value =
                    m_settings->watchMeasuredMs(text(device.id), text(operationKey(operation)));
                if (value > 0)
                    device.performance.measuredMs[operation] = value;
            }
    }
    emit devicesChanged();
    // The device shown, else the last one chosen, else the first that can
    // be drawn.
    const QString wanted = keepCurrent && !previous.isEmpty() ? previous
                           : m_settings                       ? m_settings->watchDevice()
                                                              : QString();
    m_current = 0;
    auto found = std::find_if(m_devices.begin(), m_devices.end(),
                              [&](const auto& device) { return text(device.id) == wanted; });
    if (found == m_devices.end())
        found = std::find_if(m_devices.begin(), m_devices.end(), [](const auto& device) {
            return watch::geometryOf(device.display).has_value();
        });
    if (found != m_devices.end())
        m_current = std::size_t(found - m_devices.begin());
    recompute();
    emit deviceChanged();
    emit frameChanged();
}

const watch::Device* WatchSimulator::current() const
{
    return m_current < m_devices.size() ? &m_devices[m_current] : nullptr;
}

QList<WatchProfile> WatchSimulator::devices() const
{
    QList<WatchProfile> list;
    list.reserve(qsizetype(m_devices.size()));
    for (const auto& device : m_devices)
        list << WatchProfile::from(device);
    return list;
}

QString WatchSimulator::deviceId() const
{
    const auto* device = current();
    return device ? text(device->id) : QString();
}

void WatchSimulator::setDeviceId(const QString& id)
{
    const auto found = std::find_if(m_devices.begin(), m_devices.end(),
                                    [&](const auto& device) { return text(device.id) == id; });
    if (found == m_devices.end() || std::size_t(found - m_devices.begin()) == m_current)
        return;
    m_current = std::size_t(found - m_devices.begin());
    if (m_settings)
        m_settings->setWatchDevice(id);
    recompute();
    emit deviceChanged();
    emit frameChanged();
    if (m_header)
        emit exportChanged(); // made for this watch or for another
}

WatchProfile WatchSimulator::device() const
{
    const auto* device = current();
    return device ? WatchProfile::from(*device) : WatchProfile();
}

bool WatchSimulator::drawable() const
{
    const auto* device = current();
    return device && watch::geometryOf(device->display).has_value();
}

QString WatchSimulator::undrawableReason() const
{
    const auto* device = current();
    if (!device)
        return m_loadError.isEmpty() ? tr("No device is chosen.") : m_loadError;
    if (drawable())
        return {};
    return tr("%1: the screen's shape and resolution are not known, so it cannot be drawn. "
              "The costs below use only what is known.")
        .arg(text(device->name));
}

int WatchSimulator::screenWidth() const
{
    const auto* device = current();
    return device ? device->display.width.value_or(0) : 0;
}

int WatchSimulator::screenHeight() const
{
    const auto* device = current();
    return device ? device->display.height.value_or(0) : 0;
}

bool WatchSimulator::touch() const
{
    const auto* device = current();
    return device && device->input.touch.value_or(false);
}

void WatchSimulator::recompute()
{
    const auto* device = current();
    if (!device) {
        m_estimate.reset();
    } else {
        const std::optional<std::uint32_t> iterations =
            m_iterations > 0 ? std::optional<std::uint32_t>(m_iterations) : std::nullopt;
        const std::optional<std::uint64_t> payloadBytes =
            m_payload ? std::optional<std::uint64_t>(m_payload->size()) : std::nullopt;
        m_estimate = watch::estimate(*device, iterations, m_targetMs,
                                     std::uint32_t(m_payloadAccounts), payloadBytes);
    }
    emit costsChanged();
}

QList<WatchCost> WatchSimulator::costs() const
{
    QList<WatchCost> list;
    if (!m_estimate)
        return list;
    for (const auto& cost : m_estimate->operations)
        list << WatchCost::from(cost, *current());
    return list;
}

WatchUnlock WatchSimulator::unlock() const
{
    return m_estimate ? WatchUnlock::from(m_estimate->unlock) : WatchUnlock();
}

WatchCalibration WatchSimulator::calibration() const
{
    return m_estimate ? WatchCalibration::from(m_estimate->calibration) : WatchCalibration();
}

WatchMemory WatchSimulator::memory() const
{
    return m_estimate ? WatchMemory::from(m_estimate->memory) : WatchMemory();
}

WatchInconsistency WatchSimulator::inconsistency() const
{
    return m_estimate ? WatchInconsistency::from(*m_estimate) : WatchInconsistency();
}

QStringList WatchSimulator::notes() const
{
    QStringList list;
    if (!m_estimate)
        return list;
    // The inconsistency has a place of its own.
    for (const auto& note : m_estimate->notes)
        if (note != m_estimate->inconsistency)
            list << text(note);
    return list;
}

void WatchSimulator::setTargetMs(int milliseconds)
{
    const auto clamped = std::uint32_t(std::clamp(milliseconds, 100, 10'000));
    if (clamped == m_targetMs)
        return;
    m_targetMs = clamped;
    recompute();
}

void WatchSimulator::setIterations(int iterations)
{
    const auto value = iterations <= 0
                           ? 0u
                           : std::clamp(std::uint32_t(iterations), watch::minimumIterations,
                                        watch::maximumIterations);
    if (value == m_iterations)
        return;
    m_iterations = value;
    recompute();
}

bool WatchSimulator::setMeasured(const QString& operationKey, double milliseconds)
{
    auto* device = m_current < m_devices.size() ? &m_devices[m_current] : nullptr;
    const auto operation = operationNamed(operationKey);
    if (!device || !operation) {
        setError(tr("There is no operation called '%1'.").arg(operationKey));
        return false;
    }
    if (!std::isfinite(milliseconds) || milliseconds > 3'600'000) {
        setError(tr("A measured time must be a number of milliseconds up to an hour."));
        return false;
    }
    clearError();
    if (milliseconds > 0)
        device->performance.measuredMs[*operation] = milliseconds;
    else
        device->performance.measuredMs.erase(*operation);
    if (m_settings)
        m_settings->setWatchMeasuredMs(text(device->id), operationKey, milliseconds);
    recompute();
    emit frameChanged(); // the unlock estimate on the watch
    return true;
}

WatchExportInfo WatchSimulator::exportInfo() const
{
    if (!m_header)
        return {};
    WatchExportInfo info;
    info.deviceId = text(m_header->deviceId);
    // The watch's name where it is one of ours (an export from elsewhere may
    // name a watch this app has no profile of: then its id).
    const auto maker = std::find_if(m_devices.begin(), m_devices.end(), [&](const auto& device) {
        return device.id == m_header->deviceId;
    });
    info.deviceName = text(maker != m_devices.end() ? maker->name : m_header->deviceId);
    info.forThisDevice = m_header->deviceId == deviceId().toStdString();
    info.accounts = qint64(m_payloadAccounts);
    info.bytes = qint64(m_payload ? m_payload->size() : 0);
    info.iterations = m_header->iterations;
    info.createdAt =
        QDateTime::fromSecsSinceEpoch(m_header->created, Qt::UTC).toString(Qt::ISODate);
    info.fromFile = m_payloadFromFile;
    return info;
}

QList<WatchExportChoice> WatchSimulator::exportChoices() const
{
    QList<WatchExportChoice> list;
    const AccountListModel* model = m_accounts;
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

bool WatchSimulator::createExport(const QStringList& recordIds, const QString& pin,
                                  const QString& repeat)
{
    const auto* device = current();
    if (!device) {
        setError(tr("Choose a watch first."));
        return false;
    }
    QByteArray latin = pin.toLatin1();
    const SecureBuffer pinBytes(asBytes(std::string_view(latin.constData(), latin.size())));
    secureWipe(latin.data(), std::size_t(latin.size()));
    if (auto valid = watch::checkPin(pinBytes.view()); !valid) {
        setError(tr("The watch PIN must be 4 to 12 digits."));
        return false;
    }
    if (pin != repeat) {
        setError(tr("The two watch PINs are not the same."));
        return false;
    }
    VaultController* vault = m_vault;
    if (!vault) {
        setError(tr("Unlock the vault to choose accounts for the watch."));
        return false;
    }
    const auto accounts = watchAccountsOf(*vault, recordIds);
    if (!accounts) {
        setError(accounts.error());
        return false;
    }
    const watch::ExportHeader header{device->id, nowSeconds(),
                                     watch::exportIterations(*device, m_targetMs)};
    auto payload = watch::writeExport(header, pinBytes.view(), *accounts, crypto::systemRandom());
    if (!payload) {
        setError(text(payload.error().message));
        return false;
    }
    loadPayload(std::move(*payload), false);
    return true;
}

bool WatchSimulator::loadPayload(std::string payload, bool fromFile)
{
    const auto summary = watch::inspectExport(payload);
    if (!summary) {
        setError(tr("This is not a watch export: %1").arg(text(summary.error().message)));
        return false;
    }
    dropPendingUnlock();
    m_opened.reset();
    m_payload = std::move(payload);
    m_payloadFromFile = fromFile;
    m_header = summary->header;
    m_payloadAccounts = summary->accounts;
    m_app.setExportLoaded(true);
    clearError();
    recompute();
    emit exportChanged();
    emit frameChanged();
    return true;
}

bool WatchSimulator::saveExport(const QUrl& file, bool replace)
{
    if (!m_payload) {
        setError(tr("Make an export first."));
        return false;
    }
    if (!file.isLocalFile()) {
        setError(tr("An export is saved to a local file, not to %1.").arg(file.toString()));
        return false;
    }
    const QString path = file.toLocalFile();
    const auto written = writeFileAtomically(path.toStdString(), *m_payload, 0600,
                                             replace ? IfExists::Replace : IfExists::Refuse);
    if (!written) {
        setError(text(written.error()));
        return false;
    }
    // Saved; a directory that could not be flushed is said, not hidden.
    if (written->notDurable.empty())
        clearError();
    else
        setError(text(written->notDurable));
    return true;
}

bool WatchSimulator::openExportFile(const QUrl& file)
{
    if (!file.isLocalFile()) {
        setError(tr("An export is opened from a local file, not from %1.").arg(file.toString()));
        return false;
    }
    const QString path = file.toLocalFile();
    // A FIFO or a device is refused, never waited on.
    const auto data =
        readRegularFile(QFile::encodeName(path).toStdString(), std::size_t(maximumPayloadBytes));
    if (!data) {
        setError(
            tr("Could not open the watch export: %1").arg(QString::fromStdString(data.error())));
        return false;
    }
    return loadPayload(std::string(data->view()), true);
}

void WatchSimulator::unloadExport()
{
    dropPendingUnlock();
    m_opened.reset();
    m_payload.reset();
    m_header.reset();
    m_payloadAccounts = 0;
    m_payloadFromFile = false;
    m_app.setExportLoaded(false);
    recompute();
    emit exportChanged();
    emit frameChanged();
}

QString WatchSimulator::view() const
{
    return viewName(m_app.view());
}

QString WatchSimulator::selectedTitle() const
{
    const auto& accounts = m_app.accounts();
    if (m_app.selected() >= accounts.size())
        return {};
    const auto& account = accounts[m_app.selected()];
    return accountTitle(text(account.issuer), text(account.accountName));
}

int WatchSimulator::openedAccounts() const
{
    return int(m_app.accounts().size());
}

void WatchSimulator::press(const QString& button)
{
    static const std::pair<QLatin1String, watch::Button> buttons[] = {
        {QLatin1String("up"), watch::Button::Up},
        {QLatin1String("down"), watch::Button::Down},
        {QLatin1String("select"), watch::Button::Select},
        {QLatin1String("back"), watch::Button::Back},
        // Connect IQ's behaviour delegate: the gestures stand for buttons.
        {QLatin1String("tap"), watch::Button::Select},
        {QLatin1String("swipeUp"), watch::Button::Down},
        {QLatin1String("swipeDown"), watch::Button::Up},
        {QLatin1String("swipeRight"), watch::Button::Back},
    };
    for (const auto& [name, value] : buttons)
        if (button == name) {
            clearError();
            handle(m_app.press(value));
            return;
        }
    setError(tr("The watch has no button '%1'.").arg(button));
}

void WatchSimulator::typeDigit(int digit)
{
    clearError();
    handle(m_app.typeDigit(digit));
}

void WatchSimulator::enter()
{
    clearError();
    handle(m_app.submitFromKeyboard());
}

void WatchSimulator::handle(watch::Action action)
{
    if (action == watch::Action::SubmitPin)
        submitPin();
    emit frameChanged();
}

void WatchSimulator::submitPin()
{
    if (!m_payload) {
        m_app.clearPin();
        return;
    }
    auto pin = SecureBuffer::fromString(m_app.pin());
    m_app.clearPin();
    // Only the newest check may answer the watch: an older one (the watch
    // was locked, or the export replaced, while it ran) is dropped.
    const std::uint64_t generation = ++m_unlockGeneration;
    setBusy(true);
    runInBackground(
        this,
        [payload = *m_payload, pin = std::make_shared<SecureBuffer>(std::move(pin))] {
            UnlockOutcome outcome;
            watch::OpenSslPrimitives primitives;
            auto opened = watch::openExport(payload, pin->view(), primitives);
            if (!opened) {
                outcome.wrongPin = opened.error().code == watch::WatchOpenError::WrongPin;
                outcome.error = text(opened.error().message);
                return outcome;
            }
            for (auto& account : opened->accounts) {
                auto generator =
                    otp::OtpGenerator::create(account.parameters, account.secret.span());
                if (!generator) {
                    outcome.error = text(generator.error().message);
                    outcome.generators.clear();
                    outcome.labels.clear();
                    return outcome;
                }
                outcome.generators.push_back(std::move(*generator));
                outcome.labels.push_back({account.issuer, account.accountName, account.parameters});
            }
            return outcome;
        },
        [this, generation](UnlockOutcome outcome) {
            if (generation != m_unlockGeneration)
                return;
            setBusy(false);
            if (!outcome.error.isEmpty()) {
                m_app.unlockFailed(outcome.wrongPin ? tr("Wrong PIN").toStdString()
                                                    : outcome.error.toStdString());
                emit frameChanged();
                emit unlockFinished(false);
                return;
            }
            m_opened = std::make_unique<Opened>();
            m_opened->generators = std::move(outcome.generators);
            m_app.unlockSucceeded(std::move(outcome.labels));
            emit frameChanged();
            emit unlockFinished(true);
        });
}

void WatchSimulator::dropPendingUnlock()
{
    ++m_unlockGeneration;
    setBusy(false);
}

void WatchSimulator::lockWatch()
{
    dropPendingUnlock();
    m_opened.reset();
    m_app.lock();
    emit frameChanged();
}

WatchFrame WatchSimulator::frame() const
{
    WatchFrame frame;
    const auto* device = current();
    if (!device)
        return frame;
    if (const auto geometry = watch::geometryOf(device->display))
        frame.screen = *geometry;
    frame.palette = device->display.palette.value_or(watch::Palette::Full);
    frame.technology = device->display.technology.value_or(watch::Technology::Amoled);
    frame.view = m_app.view();

    const auto& accounts = m_app.accounts();
    for (const auto& account : accounts)
        frame.rows << (account.issuer.empty() ? text(account.accountName) : text(account.issuer));
    frame.selectedRow = int(m_app.selected());
    // Only the List view shows rows, and finding how many fit measures fonts.
    if (frame.view == watch::View::List)
        frame.firstRow = int(m_app.firstVisibleRow(std::size_t(listRowsThatFit(frame.screen))));
    if (m_opened && m_app.selected() < accounts.size() &&
        m_app.selected() < m_opened->generators.size()) {
        const auto& account = accounts[m_app.selected()];
        const auto& generator = m_opened->generators[m_app.selected()];
        frame.issuer = text(account.issuer);
        frame.accountName = text(account.accountName);
        frame.period = int(account.parameters.period);
        if (account.parameters.kind == otp::OtpKind::Hotp) {
            frame.timeBased = false;
            frame.code = groupCode(text(generator.codeForCounter(account.parameters.counter)));
            frame.counterText = QStringLiteral("#%1").arg(account.parameters.counter);
        } else {
            const qint64 now = nowSeconds();
            if (const auto code = generator.codeForTime(now))
                frame.code = groupCode(text(*code));
            frame.remainingSeconds = generator.secondsRemaining(now);
        }
    }
    frame.pinLength = int(m_app.pinLength());
    frame.picker = m_app.picker();
    frame.message = text(m_app.message());
    if (m_header) {
        const auto unlockCost = watch::unlockTime(*device, m_header->iterations);
        if (unlockCost.device)
            frame.unlockEstimate = unlockText(unlockCost.device->ms);
    }
    return frame;
}

qint64 WatchSimulator::nowSeconds() const
{
    const Clock* clock = m_clock;
    return clock ? clock->second() : QDateTime::currentSecsSinceEpoch();
}

void WatchSimulator::setBusy(bool busy)
{
    assignAndNotify(this, m_busy, busy, &WatchSimulator::busyChanged);
}

void WatchSimulator::setError(QString error)
{
    assignAndNotify(this, m_error, std::move(error), &WatchSimulator::errorChanged);
}

void WatchSimulator::clearError()
{
    setError({});
}

} // namespace watchword::app
