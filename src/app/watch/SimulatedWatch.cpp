#include "app/watch/SimulatedWatch.h"

#include "app/codes/AccountListModel.h"
#include "app/codes/Clock.h"
#include "app/common/Background.h"
#include "app/common/Notify.h"
#include "app/vault/VaultController.h"
#include "app/watch/WatchExportFile.h"
#include "app/watch/WatchProfiles.h"
#include "app/watch/WatchSimulator.h"
#include "base/SecureBuffer.h"
#include "encoding/Decimal.h"
#include "text/CoreText.h"
#include "watch/CostModel.h"
#include "watch/Describe.h"
#include "watch/Screen.h"
#include "watch/WatchOpener.h"

#include <memory>
#include <utility>

namespace watchword::app {

using text::fromCore;

namespace {

// "2.1 - 10.4 s", "850 ms": an unlock as the watch screen says it.
QString unlockText(const watch::Span& ms)
{
    const auto seconds = [](double value) {
        return fromCore(encoding::fixedNumber(value / 1000, 1));
    };
    if (ms.high < 1000)
        return fromCore(watch::spanText(ms));
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

// Opens payload with pin on the watch's primitives (on a worker).
UnlockOutcome openPayload(const std::string& payload, const SecureBuffer& pin)
{
    UnlockOutcome outcome;
    watch::OpenSslPrimitives primitives;
    auto opened = watch::openExport(payload, pin.view(), primitives);
    if (!opened) {
        outcome.wrongPin = opened.error().code == watch::WatchOpenError::WrongPin;
        outcome.error = fromCore(opened.error().message);
        return outcome;
    }
    for (auto& account : opened->accounts) {
        auto generator = otp::OtpGenerator::create(account.parameters, account.secret.span());
        if (!generator) {
            outcome.error = fromCore(generator.error().message);
            outcome.generators.clear();
            outcome.labels.clear();
            return outcome;
        }
        outcome.generators.push_back(std::move(*generator));
        outcome.labels.push_back({account.issuer, account.accountName, account.parameters});
    }
    return outcome;
}

} // namespace

SimulatedWatch::SimulatedWatch(WatchSimulator& simulator)
    : QObject(&simulator), m_simulator(simulator)
{
    connect(simulator.exportFile(), &WatchExportFile::payloadChanged, this,
            &SimulatedWatch::reload);
    // Another watch, or a measured time: the screen and the unlock estimate.
    const WatchProfiles* profiles = simulator.profiles();
    for (const auto signal : {&WatchProfiles::deviceChanged, &WatchProfiles::measuredChanged})
        connect(profiles, signal, this, &SimulatedWatch::frameChanged);
    connect(&simulator, &WatchSimulator::clockChanged, this, &SimulatedWatch::followClock);
    connect(&simulator, &WatchSimulator::vaultChanged, this, &SimulatedWatch::followVault);
}

void SimulatedWatch::followClock()
{
    if (Clock* previous = m_clock)
        disconnect(previous, nullptr, this, nullptr);
    m_clock = m_simulator.clock();
    // A watch app redraws once a second (its timer), and so does this.
    if (Clock* clock = m_clock)
        connect(clock, &Clock::secondChanged, this, [this] {
            if (m_opened)
                emit frameChanged();
        });
    emit frameChanged();
}

void SimulatedWatch::followVault()
{
    if (VaultController* previous = m_vault)
        disconnect(previous, nullptr, this, nullptr);
    m_vault = m_simulator.vault();
    // The vault locked: what the watch opened goes with it.
    if (VaultController* vault = m_vault)
        connect(vault, &VaultController::stateChanged, this, [this, vault] {
            if (vault->state() != VaultController::State::Unlocked)
                lock();
        });
}

QString SimulatedWatch::view() const
{
    return viewName(m_app.view());
}

QString SimulatedWatch::selectedTitle() const
{
    const auto& accounts = m_app.accounts();
    if (m_app.selected() >= accounts.size())
        return {};
    const auto& account = accounts[m_app.selected()];
    return accountTitle(fromCore(account.issuer), fromCore(account.accountName));
}

int SimulatedWatch::openedAccounts() const
{
    return int(m_app.accounts().size());
}

void SimulatedWatch::reload()
{
    dropPendingUnlock();
    m_opened.reset();
    m_app.setExportLoaded(m_simulator.exportFile()->loaded());
    emit frameChanged();
}

void SimulatedWatch::press(const QString& button)
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
            m_simulator.clearError();
            handle(m_app.press(value));
            return;
        }
    m_simulator.setError(tr("The watch has no button '%1'.").arg(button));
}

void SimulatedWatch::typeDigit(int digit)
{
    m_simulator.clearError();
    handle(m_app.typeDigit(digit));
}

void SimulatedWatch::enter()
{
    m_simulator.clearError();
    handle(m_app.submitFromKeyboard());
}

void SimulatedWatch::handle(watch::Action action)
{
    if (action == watch::Action::SubmitPin)
        submitPin();
    emit frameChanged();
}

void SimulatedWatch::submitPin()
{
    const std::string* loaded = m_simulator.exportFile()->payload();
    if (!loaded) {
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
        [payload = *loaded, pin = std::make_shared<SecureBuffer>(std::move(pin))] {
            return openPayload(payload, *pin);
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
            m_opened = std::move(outcome.generators);
            m_app.unlockSucceeded(std::move(outcome.labels));
            emit frameChanged();
            emit unlockFinished(true);
        });
}

void SimulatedWatch::dropPendingUnlock()
{
    ++m_unlockGeneration;
    setBusy(false);
}

void SimulatedWatch::lock()
{
    dropPendingUnlock();
    m_opened.reset();
    m_app.lock();
    emit frameChanged();
}

WatchFrame SimulatedWatch::frame() const
{
    WatchFrame frame;
    const auto* device = m_simulator.profiles()->current();
    if (!device)
        return frame;
    if (const auto geometry = watch::geometryOf(device->display))
        frame.screen = *geometry;
    frame.palette = device->display.palette.value_or(watch::Palette::Full);
    frame.technology = device->display.technology.value_or(watch::Technology::Amoled);
    frame.view = m_app.view();

    const auto& accounts = m_app.accounts();
    for (const auto& account : accounts)
        frame.rows << fromCore(account.issuer.empty() ? account.accountName : account.issuer);
    frame.selectedRow = int(m_app.selected());
    // Only the List view shows rows, and finding how many fit measures fonts.
    if (frame.view == watch::View::List)
        frame.firstRow = int(m_app.firstVisibleRow(std::size_t(listRowsThatFit(frame.screen))));
    if (m_opened && m_app.selected() < accounts.size() && m_app.selected() < m_opened->size()) {
        const auto& account = accounts[m_app.selected()];
        const auto& generator = (*m_opened)[m_app.selected()];
        frame.issuer = fromCore(account.issuer);
        frame.accountName = fromCore(account.accountName);
        frame.period = int(account.parameters.period);
        if (account.parameters.kind == otp::OtpKind::Hotp) {
            frame.timeBased = false;
            frame.code = groupCode(fromCore(generator.codeForCounter(account.parameters.counter)));
            frame.counterText = QStringLiteral("#%1").arg(account.parameters.counter);
        } else {
            const qint64 now = m_simulator.nowSeconds();
            if (const auto code = generator.codeForTime(now))
                frame.code = groupCode(fromCore(*code));
            frame.remainingSeconds = generator.secondsRemaining(now);
        }
    }
    frame.pinLength = int(m_app.pinLength());
    frame.picker = m_app.picker();
    frame.message = fromCore(m_app.message());
    if (const auto* header = m_simulator.exportFile()->header()) {
        const auto unlockCost = watch::unlockTime(*device, header->iterations);
        if (unlockCost.device)
            frame.unlockEstimate = unlockText(unlockCost.device->ms);
    }
    return frame;
}

void SimulatedWatch::setBusy(bool busy)
{
    assignAndNotify(this, m_busy, busy, &SimulatedWatch::busyChanged);
}

} // namespace watchword::app
