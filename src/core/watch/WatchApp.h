// The watch app's behaviour, as the simulator runs it: which view is shown,
// what each button does in it, the PIN being entered, the account selected.
// Pure logic, no drawing and no crypto: the simulator's controller checks a
// submitted PIN with watch::openExport and reports back with
// unlockSucceeded or unlockFailed. docs/WATCH.md section 5.2 has the table
// of views and buttons.
#pragma once

#include "base/SecureBuffer.h"
#include "otp/OtpParameters.h"
#include "watch/WatchExport.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::watch {

// The five buttons of a Garmin watch that the app uses (the light button is
// the watch's own), touch gestures mapped onto them as Connect IQ's
// BehaviorDelegate does (tap: select, swipe up: next, swipe down: previous,
// swipe right: back), and the keyboard's digits in the PIN view.
enum class Button { Up, Down, Select, Back };

enum class View {
    NoExport,  // nothing loaded: "No accounts", "Export from Watchword"
    Pin,       // entering the watch PIN with the digit picker
    Unlocking, // the PIN was submitted; the controller is opening the export
    Code,      // one account: issuer above its code, the countdown round it
    List,      // the accounts, one highlighted
    Glance,    // the glance loop's one-line view: the app, and the code if unlocked
};

// What the watch shows of an account: never its secret.
struct AccountLabel
{
    std::string issuer;
    std::string accountName;
    otp::OtpParameters parameters;
};

// What a button press asks of the controller besides redrawing.
enum class Action {
    None,
    SubmitPin, // read pin(), open the export with it, then clearPin()
};

class WatchApp
{
public:
    // The digit picker's positions: the ten digits, then OK.
    static constexpr int pickerOk = 10;

    // An export is loaded (Pin) or there is none (NoExport). Drops any
    // accounts, PIN digits and message.
    void setExportLoaded(bool loaded);

    Action press(Button button);
    // A digit key in the Pin view appends that digit (up to the maximum PIN
    // length); elsewhere it does nothing. Enter and Backspace are Select on
    // OK and Back: the caller maps them with submitFromKeyboard / press.
    Action typeDigit(int digit);
    // Enter in the Pin view: submits if enough digits were entered.
    Action submitFromKeyboard();

    // The controller's answers to SubmitPin.
    void unlockSucceeded(std::vector<AccountLabel> accounts);
    void unlockFailed(std::string message);

    // Back to the Pin view (the export is kept), as the watch does when the
    // app is closed: the accounts are dropped.
    void lock();

    View view() const { return m_view; }
    const std::vector<AccountLabel>& accounts() const { return m_accounts; }
    std::size_t selected() const { return m_selected; }
    // The first row the List view shows, so that the selected one is visible
    // when rows rows fit.
    std::size_t firstVisibleRow(std::size_t rows) const;

    int picker() const { return m_picker; } // 0..9, or pickerOk
    std::size_t pinLength() const { return m_pinLength; }
    // The digits entered, for the controller to check, in a buffer that is
    // wiped by clearPin, by lock and on destruction.
    std::string_view pin() const;
    void clearPin();
    // The last failure ("Wrong PIN"), shown in the Pin view until a digit is
    // entered; empty otherwise.
    const std::string& message() const { return m_message; }
    // How many submitted PINs have failed since the export was loaded.
    int failedAttempts() const { return m_failedAttempts; }

private:
    View m_view = View::NoExport;
    std::vector<AccountLabel> m_accounts;
    std::size_t m_selected = 0;
    int m_picker = 0;
    SecureBuffer m_pin{maximumPinLength};
    std::size_t m_pinLength = 0;
    std::string m_message;
    int m_failedAttempts = 0;
};

} // namespace watchword::watch
