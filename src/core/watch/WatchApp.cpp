#include "watch/WatchApp.h"

#include <utility>

namespace watchword::watch {

namespace {

std::string tooShortMessage()
{
    return "Enter at least " + std::to_string(minimumPinLength) + " digits";
}

} // namespace

void WatchApp::setExportLoaded(bool loaded)
{
    m_view = loaded ? View::Pin : View::NoExport;
    m_accounts.clear();
    m_selected = 0;
    m_picker = 0;
    clearPin();
    m_message.clear();
    m_failedAttempts = 0;
}

Action WatchApp::press(Button button)
{
    const std::size_t count = m_accounts.size();
    switch (m_view) {
    case View::NoExport:
    case View::Unlocking:
        return Action::None;
    case View::Pin:
        switch (button) {
        case Button::Up:
            m_picker = (m_picker + 1) % (pickerOk + 1);
            return Action::None;
        case Button::Down:
            m_picker = (m_picker + pickerOk) % (pickerOk + 1);
            return Action::None;
        case Button::Select:
            if (m_picker == pickerOk)
                return submitFromKeyboard();
            return typeDigit(m_picker);
        case Button::Back:
            if (m_pinLength == 0) {
                m_view = View::Glance;
                return Action::None;
            }
            --m_pinLength;
            secureWipe(m_pin.data() + m_pinLength, 1);
            return Action::None;
        }
        return Action::None;
    case View::Code:
    case View::List:
        switch (button) {
        case Button::Up:
            if (count > 0)
                m_selected = (m_selected + count - 1) % count;
            return Action::None;
        case Button::Down:
            if (count > 0)
                m_selected = (m_selected + 1) % count;
            return Action::None;
        case Button::Select:
            m_view = m_view == View::Code ? View::List : View::Code;
            return Action::None;
        case Button::Back:
            m_view = m_view == View::Code ? View::Glance : View::Code;
            return Action::None;
        }
        return Action::None;
    case View::Glance:
        // The glance is only reached from Pin or Code, so an export is loaded;
        // accounts are held only while unlocked.
        if (button == Button::Select) {
            if (count > 0) {
                m_view = View::Code;
            } else {
                m_view = View::Pin;
                m_picker = 0;
            }
        }
        return Action::None;
    }
    return Action::None;
}

Action WatchApp::typeDigit(int digit)
{
    if (m_view != View::Pin || digit < 0 || digit > 9 || m_pinLength >= maximumPinLength)
        return Action::None;
    m_pin[m_pinLength++] = static_cast<std::uint8_t>('0' + digit);
    m_message.clear();
    return Action::None;
}

Action WatchApp::submitFromKeyboard()
{
    if (m_view != View::Pin)
        return Action::None;
    if (m_pinLength < minimumPinLength) {
        m_message = tooShortMessage();
        return Action::None;
    }
    m_view = View::Unlocking;
    return Action::SubmitPin;
}

void WatchApp::unlockSucceeded(std::vector<AccountLabel> accounts)
{
    // An answer that arrives after lock() or a new export is stale.
    if (m_view != View::Unlocking)
        return;
    m_accounts = std::move(accounts);
    m_selected = 0;
    clearPin();
    m_picker = 0;
    m_message.clear();
    m_view = View::Code;
}

void WatchApp::unlockFailed(std::string message)
{
    if (m_view != View::Unlocking)
        return;
    ++m_failedAttempts;
    m_message = std::move(message);
    clearPin();
    m_picker = 0;
    m_view = View::Pin;
}

void WatchApp::lock()
{
    // NoExport is the only view without an export: every other view is
    // reached from Pin.
    const bool loaded = m_view != View::NoExport;
    m_accounts.clear();
    m_selected = 0;
    m_picker = 0;
    clearPin();
    m_message.clear();
    m_view = loaded ? View::Pin : View::NoExport;
}

std::size_t WatchApp::firstVisibleRow(std::size_t rows) const
{
    if (rows == 0)
        return m_selected;
    if (m_selected < rows)
        return 0;
    return m_selected - rows + 1;
}

std::string_view WatchApp::pin() const
{
    return m_pin.view().substr(0, m_pinLength);
}

void WatchApp::clearPin()
{
    secureWipe(m_pin.data(), m_pin.size());
    m_pinLength = 0;
}

} // namespace watchword::watch
