// The app's preferences, kept with QSettings (an INI file under
// ~/.config/Watchword by default). No secret ever goes there: only times,
// switches, the theme and a folder.
//
// Every value read from the file is checked: a number above its range is
// clamped to the bound, and garbage (a word where a number belongs, an unknown
// theme, a negative time) falls back to the default, so a hand-edited or
// damaged file never takes the app down, and never turns auto-lock off: 0
// ("never") must be written as 0. A setter follows the same rules (garbage is
// ignored), writes through at once and signals only a real change.
#pragma once

#include <QObject>
#include <QSettings>
#include <QString>
#include <QUrl>
#include <QtQml/qqmlregistration.h>
#include <memory>

namespace watchword::app {

class AppSettings : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the settings are made by main()")
    Q_PROPERTY(int autoLockMinutes READ autoLockMinutes WRITE setAutoLockMinutes NOTIFY
                   autoLockMinutesChanged)
    Q_PROPERTY(bool lockOnSessionLock READ lockOnSessionLock WRITE setLockOnSessionLock NOTIFY
                   lockOnSessionLockChanged)
    Q_PROPERTY(bool lockOnMinimize READ lockOnMinimize WRITE setLockOnMinimize NOTIFY
                   lockOnMinimizeChanged)
    // Codes shown as dots until their row is clicked (against a glance at
    // the screen, a screen share or a recording).
    Q_PROPERTY(bool hideCodes READ hideCodes WRITE setHideCodes NOTIFY hideCodesChanged)
    // Files chosen in the desktop's own chooser where there is one (the XDG
    // desktop portal), else in the app's picker. On by default.
    Q_PROPERTY(bool desktopFileChooser READ desktopFileChooser WRITE setDesktopFileChooser NOTIFY
                   desktopFileChooserChanged)
    // How the codes page sorts: 0 the user's own order, 1 by name, 2
    // recently used (AccountFilterModel::Order).
    Q_PROPERTY(int accountOrder READ accountOrder WRITE setAccountOrder NOTIFY accountOrderChanged)
    Q_PROPERTY(int clipboardSeconds READ clipboardSeconds WRITE setClipboardSeconds NOTIFY
                   clipboardSecondsChanged)
    Q_PROPERTY(QString theme READ theme WRITE setTheme NOTIFY themeChanged)
    Q_PROPERTY(int unlockTargetMilliseconds READ unlockTargetMilliseconds WRITE
                   setUnlockTargetMilliseconds NOTIFY unlockTargetMillisecondsChanged)
    Q_PROPERTY(
        QString backupFolder READ backupFolder WRITE setBackupFolder NOTIFY backupFolderChanged)
    // The same folder as a file:// URL, for folder dialogs.
    Q_PROPERTY(QUrl backupFolderUrl READ backupFolderUrl WRITE setBackupFolderUrl NOTIFY
                   backupFolderChanged)

public:
    static constexpr int defaultAutoLockMinutes = 5;
    static constexpr int maximumAutoLockMinutes = 24 * 60;
    static constexpr int defaultClipboardSeconds = 30;
    static constexpr int maximumClipboardSeconds = 10 * 60;
    static constexpr int defaultUnlockTargetMilliseconds = 1000;
    static constexpr int minimumUnlockTargetMilliseconds = 250;
    static constexpr int maximumUnlockTargetMilliseconds = 10000;

    // The user's settings file (QSettings' native place for the application
    // and organization names set in main()).
    explicit AppSettings(QObject* parent = nullptr);
    // An INI file at filePath: what tests use, with a temporary file.
    explicit AppSettings(const QString& filePath, QObject* parent = nullptr);
    ~AppSettings() override;

    int autoLockMinutes() const { return m_autoLockMinutes; }
    void setAutoLockMinutes(int minutes); // 0: never

    bool lockOnSessionLock() const { return m_lockOnSessionLock; }
    void setLockOnSessionLock(bool lock);

    bool lockOnMinimize() const { return m_lockOnMinimize; }
    void setLockOnMinimize(bool lock);
    bool hideCodes() const { return m_hideCodes; }
    void setHideCodes(bool hide);
    bool desktopFileChooser() const { return m_desktopFileChooser; }
    void setDesktopFileChooser(bool use);
    int accountOrder() const { return m_accountOrder; }
    void setAccountOrder(int order); // outside 0..2: ignored

    int clipboardSeconds() const { return m_clipboardSeconds; }
    void setClipboardSeconds(int seconds); // 0: never clear

    // "system", "light" or "dark".
    const QString& theme() const { return m_theme; }
    void setTheme(const QString& theme); // anything else is ignored

    int unlockTargetMilliseconds() const { return m_unlockTargetMilliseconds; }
    void setUnlockTargetMilliseconds(int milliseconds);

    // An absolute path, or empty for no backups. "~/" is expanded; a relative
    // path is refused (it would depend on where the app was started).
    const QString& backupFolder() const { return m_backupFolder; }
    void setBackupFolder(const QString& folder);
    QUrl backupFolderUrl() const;
    void setBackupFolderUrl(const QUrl& url);

    // The watch simulator's: the device last chosen, and the times measured
    // on a real watch (milliseconds; 0: none) by device id and operation
    // key. Timings, not secrets.
    QString watchDevice() const;
    void setWatchDevice(const QString& id);
    double watchMeasuredMs(const QString& deviceId, const QString& operation) const;
    void setWatchMeasuredMs(const QString& deviceId, const QString& operation,
                            double milliseconds); // 0 or less: forgotten

    // Where the settings live (for the settings page and for tests).
    QString fileName() const;

    // The sanitizing rules, for the setters and the file alike: the value to
    // keep, or -1 for garbage.
    static int clampAutoLockMinutes(qint64 minutes);
    static int clampClipboardSeconds(qint64 seconds);
    static int clampUnlockTargetMilliseconds(qint64 milliseconds);
    static bool isTheme(const QString& theme);
    // The folder as stored, or an empty string if it cannot be one.
    static QString normalizeFolder(const QString& folder);

signals:
    void autoLockMinutesChanged();
    void lockOnSessionLockChanged();
    void lockOnMinimizeChanged();
    void hideCodesChanged();
    void desktopFileChooserChanged();
    void accountOrderChanged();
    void clipboardSecondsChanged();
    void themeChanged();
    void unlockTargetMillisecondsChanged();
    void backupFolderChanged();

private:
    void load();
    void store(const QString& key, const QVariant& value);
    int readInt(const QString& key, int fallback) const;
    bool readBool(const QString& key, bool fallback) const;
    // Sets a switch, stores it and says so, when value is new.
    void change(bool& field, bool value, const QString& key, void (AppSettings::*changed)());

    std::unique_ptr<QSettings> m_settings;
    int m_autoLockMinutes = defaultAutoLockMinutes;
    bool m_lockOnSessionLock = true;
    bool m_lockOnMinimize = false;
    bool m_hideCodes = false;
    bool m_desktopFileChooser = true;
    int m_accountOrder = 0;
    int m_clipboardSeconds = defaultClipboardSeconds;
    QString m_theme = QStringLiteral("system");
    int m_unlockTargetMilliseconds = defaultUnlockTargetMilliseconds;
    QString m_backupFolder;
};

} // namespace watchword::app
