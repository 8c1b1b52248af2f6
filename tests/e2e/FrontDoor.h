#pragma once

// Drives the real app (AppShell: the real Main.qml over the real
// controllers) through its window, as a person does: key presses and mouse
// clicks on the QQuickWindow, nothing called on a controller. What the test
// reads back (the clipboard, the vault file, a label on screen) it reads
// as a person would see it.
//
// Any warning printed at any moment (QML TypeErrors, binding loops, polish
// loops, a missing file) fails the running test.

#include "app/shell/AppShell.h"

#include <QElapsedTimer>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <functional>
#include <memory>

class QQuickItem;
class QQuickWindow;

namespace watchword::e2e {

// Collects every warning, critical and fatal message while installed.
class WarningTrap
{
public:
    WarningTrap();
    ~WarningTrap();
    WarningTrap(const WarningTrap&) = delete;
    WarningTrap& operator=(const WarningTrap&) = delete;

    // The messages since the last take(), emptied.
    static QStringList take();
};

class FrontDoor
{
public:
    // A fresh home (HOME, XDG folders, settings) for one app; vaultFile is
    // copied in as the vault if given, else the app starts on its first run.
    explicit FrontDoor(const QString& vaultFile = {});
    ~FrontDoor();

    // Starts the app and waits for its window to be exposed and active; the
    // demo on the user's own settings (QSettings' default file), as
    // `watchword --demo` runs.
    bool start(bool demo = false);
    // Closes the app (the window and everything it holds).
    void stop();

    app::AppShell& shell() { return *m_shell; }
    QQuickWindow* window() const;
    QString home() const { return m_home.path(); }
    QString vaultPath() const { return m_home.filePath(QStringLiteral("vault.wwv")); }
    QString settingsPath() const { return m_home.filePath(QStringLiteral("settings.conf")); }

    // --- Finding what is on screen (visible items only).
    QQuickItem* byName(const QString& objectName) const;
    // A visible control whose text is exactly text (a button, a label, a
    // menu item, a tab).
    QQuickItem* byText(const QString& text) const;
    // Every visible item whose text contains part.
    QList<QQuickItem*> textsContaining(const QString& part) const;
    bool showsText(const QString& part) const { return !textsContaining(part).isEmpty(); }
    QQuickItem* focused() const;
    // Pairs of visible texts and controls on screen that overlap (text drawn
    // over a field or over other text, as a layout that did not make room
    // draws it), each as "name 'text' over name 'text'"; empty if none. A
    // text's painted height counts, not only its item's. Popups are compared
    // among themselves, the page among itself. A popup the window cuts (one
    // that runs out of it) is listed too.
    QStringList overlaps() const;
    // A property of the visible item called objectName; with no such item,
    // a warning (which fails the test) and an invalid value.
    QVariant read(const QString& objectName, const char* property) const;

    // --- Acting as a person.
    // Scrolls the item into view first, as a person would.
    void click(QQuickItem* item, Qt::MouseButton button = Qt::LeftButton);
    void scrollIntoView(QQuickItem* item);
    void clickAt(QPointF scenePoint, Qt::MouseButton button = Qt::LeftButton);
    void key(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    // Turns the mouse wheel over item's centre by notches (negative: down,
    // toward the end of a list), as a mouse sends it to the window.
    void wheel(QQuickItem* item, int notches);
    void type(const QString& text);
    void resize(int width, int height);
    // Lets the event loop run (timers, workers' results, frames).
    static void settle(int milliseconds = 50);
    // Waits until predicate holds, for at most timeout milliseconds.
    static bool waitFor(const std::function<bool()>& predicate, int timeout = 10000);

    // The vault password the shared test vault was made with.
    static QString password() { return QStringLiteral("correct horse battery staple"); }

private:
    QTemporaryDir m_home;
    std::unique_ptr<app::AppShell> m_shell;
    // The time stamps of the input events made here.
    QElapsedTimer m_clock;
    quint64 m_wheelTime = 0; // the last wheel event's time stamp
};

// Made once per test run by the core (the KDF at its floor): a vault with
// FrontDoor::password(), no accounts; its recovery phrase.
struct SharedVault
{
    QString file;
    QString phrase;
};
const SharedVault& sharedVault();
// Another person's vault, made the same way: another phrase and identity.
const SharedVault& otherPersonsVault();

} // namespace watchword::e2e
