// Draws one frame of the watch app as the watch would: at the device's true
// resolution, masked to its shape, reduced to its palette
// (watch/Screen.h). The frame is a plain description that SimulatedWatch
// fills from watch::WatchApp and the opened export; the renderer
// holds no state and no secret (a code is six to ten digits, shown anyway).
#pragma once

#include "app/watch/WatchScreenLayout.h"
#include "watch/Device.h"
#include "watch/Screen.h"
#include "watch/WatchApp.h"

#include <QImage>
#include <QString>
#include <QStringList>

namespace watchword::app {

struct WatchFrame
{
    watch::ScreenGeometry screen;
    watch::Palette palette = watch::Palette::Full;
    watch::Technology technology = watch::Technology::Amoled;
    watch::View view = watch::View::NoExport;

    // Code and Glance: the selected account.
    QString issuer;      // may be empty: the account name is shown instead
    QString accountName; // shown small below the code where it fits
    QString code;        // already grouped as the desktop shows it ("123 456")
    bool timeBased = true;
    double remainingSeconds = 0; // of period
    int period = 30;
    QString counterText; // HOTP: "#12"

    // List: every account's title (issuer, else the account name), the
    // selected row, and the first row shown.
    QStringList rows;
    int selectedRow = 0;
    int firstRow = 0;

    // Pin: digits entered (drawn as dots), the picker's position (0..9 or
    // watch::WatchApp::pickerOk), the last failure.
    int pinLength = 0;
    int picker = 0;
    QString message;

    // Unlocking: what the unlock would cost on this watch ("2.1-8.4 s").
    QString unlockEstimate;
};

// The frame at screen.width x screen.height, Format_ARGB32: pixels off the
// glass are transparent, pixels on it opaque and in the palette. Fonts are
// drawn without antialiasing on MIP screens (their fonts are bitmaps) and
// with it on AMOLED/LCD.
QImage renderWatchFrame(const WatchFrame& frame);

} // namespace watchword::app
