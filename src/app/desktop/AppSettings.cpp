#include "app/desktop/AppSettings.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <limits>

namespace watchword::app {

namespace {

const QString autoLockKey = QStringLiteral("security/autoLockMinutes");
const QString lockOnSessionLockKey = QStringLiteral("security/lockOnSessionLock");
const QString lockOnMinimizeKey = QStringLiteral("security/lockOnMinimize");
const QString hideCodesKey = QStringLiteral("codes/hideUntilClicked");
const QString desktopFileChooserKey = QStringLiteral("files/desktopChooser");
const QString accountOrderKey = QStringLiteral("codes/order");
const QString clipboardKey = QStringLiteral("security/clipboardSeconds");
const QString themeKey = QStringLiteral("appearance/theme");
const QString unlockTargetKey = QStringLiteral("vault/unlockTargetMilliseconds");
const QString backupFolderKey = QStringLiteral("backup/folder");
const QString watchDeviceKey = QStringLiteral("watch/device");

QString watchMeasuredKey(const QString& deviceId, const QString& operation)
{
    return QStringLiteral("watch/measured/%1/%2").arg(deviceId, operation);
}

} // namespace

AppSettings::AppSettings(QObject* parent)
    : QObject(parent), m_settings(std::make_unique<QSettings>())
{
    load();
}

AppSettings::AppSettings(const QString& filePath, QObject* parent)
    : QObject(parent), m_settings(std::make_unique<QSettings>(filePath, QSettings::IniFormat))
{
    load();
}

AppSettings::~AppSettings() = default;

int AppSettings::clampAutoLockMinutes(qint64 minutes)
{
    if (minutes < 0)
        return -1;
    return static_cast<int>(std::min<qint64>(minutes, maximumAutoLockMinutes));
}

int AppSettings::clampClipboardSeconds(qint64 seconds)
{
    if (seconds < 0)
        return -1;
    return static_cast<int>(std::min<qint64>(seconds, maximumClipboardSeconds));
}

int AppSettings::clampUnlockTargetMilliseconds(qint64 milliseconds)
{
    if (milliseconds <= 0)
        return -1;
    return static_cast<int>(std::clamp<qint64>(milliseconds, minimumUnlockTargetMilliseconds,
                                               maximumUnlockTargetMilliseconds));
}

bool AppSettings::isTheme(const QString& theme)
{
    return theme == QLatin1String("system") || theme == QLatin1String("light") ||
           theme == QLatin1String("dark");
}

QString AppSettings::normalizeFolder(const QString& folder)
{
    QString path = folder.trimmed();
    if (path.isEmpty())
        return {};
    if (path == QLatin1String("~"))
        path = QDir::homePath();
    else if (path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    if (!QDir::isAbsolutePath(path))
        return {};
    return QDir::cleanPath(path);
}

void AppSettings::load()
{
    const int autoLock = clampAutoLockMinutes(readInt(autoLockKey, defaultAutoLockMinutes));
    m_autoLockMinutes = autoLock < 0 ? defaultAutoLockMinutes : autoLock;
    m_lockOnSessionLock = readBool(lockOnSessionLockKey, true);
    m_lockOnMinimize = readBool(lockOnMinimizeKey, false);
    m_hideCodes = readBool(hideCodesKey, false);
    m_desktopFileChooser = readBool(desktopFileChooserKey, true);
    const int order = readInt(accountOrderKey, 0);
    m_accountOrder = order >= 0 && order <= 2 ? order : 0;
    const int clipboard = clampClipboardSeconds(readInt(clipboardKey, defaultClipboardSeconds));
    m_clipboardSeconds = clipboard < 0 ? defaultClipboardSeconds : clipboard;
    const QString theme = m_settings->value(themeKey).toString().trimmed().toLower();
    m_theme = isTheme(theme) ? theme : QStringLiteral("system");
    const int target =
        clampUnlockTargetMilliseconds(readInt(unlockTargetKey, defaultUnlockTargetMilliseconds));
    m_unlockTargetMilliseconds = target < 0 ? defaultUnlockTargetMilliseconds : target;
    m_backupFolder = normalizeFolder(m_settings->value(backupFolderKey).toString());
}

int AppSettings::readInt(const QString& key, int fallback) const
{
    const QVariant value = m_settings->value(key);
    if (!value.isValid())
        return fallback;
    bool ok = false;
    const qint64 number = value.toString().trimmed().toLongLong(&ok);
    if (!ok)
        return fallback;
    // Beyond int either way: the clamps see the sign, and the sign is all
    // they need to tell too big from garbage.
    return static_cast<int>(std::clamp<qint64>(number, std::numeric_limits<int>::min(),
                                               std::numeric_limits<int>::max()));
}

bool AppSettings::readBool(const QString& key, bool fallback) const
{
    const QString value = m_settings->value(key).toString().trimmed().toLower();
    if (value == QLatin1String("true") || value == QLatin1String("1"))
        return true;
    if (value == QLatin1String("false") || value == QLatin1String("0"))
        return false;
    return fallback;
}

void AppSettings::store(const QString& key, const QVariant& value)
{
    m_settings->setValue(key, value);
    // Written now rather than at exit: a crash must not lose a changed
    // lock time.
    m_settings->sync();
}

void AppSettings::setAutoLockMinutes(int minutes)
{
    const int value = clampAutoLockMinutes(minutes);
    if (value < 0 || value == m_autoLockMinutes)
        return;
    m_autoLockMinutes = value;
    store(autoLockKey, value);
    emit autoLockMinutesChanged();
}

void AppSettings::setLockOnSessionLock(bool lock)
{
    change(m_lockOnSessionLock, lock, lockOnSessionLockKey, &AppSettings::lockOnSessionLockChanged);
}

void AppSettings::setAccountOrder(int order)
{
    if (order < 0 || order > 2 || order == m_accountOrder)
        return;
    m_accountOrder = order;
    store(accountOrderKey, order);
    emit accountOrderChanged();
}

void AppSettings::setLockOnMinimize(bool lock)
{
    change(m_lockOnMinimize, lock, lockOnMinimizeKey, &AppSettings::lockOnMinimizeChanged);
}

void AppSettings::setDesktopFileChooser(bool use)
{
    change(m_desktopFileChooser, use, desktopFileChooserKey,
           &AppSettings::desktopFileChooserChanged);
}

void AppSettings::change(bool& field, bool value, const QString& key,
                         void (AppSettings::*changed)())
{
    if (value == field)
        return;
    field = value;
    store(key, value);
    emit(this->*changed)();
}

void AppSettings::setHideCodes(bool hide)
{
    change(m_hideCodes, hide, hideCodesKey, &AppSettings::hideCodesChanged);
}

void AppSettings::setClipboardSeconds(int seconds)
{
    const int value = clampClipboardSeconds(seconds);
    if (value < 0 || value == m_clipboardSeconds)
        return;
    m_clipboardSeconds = value;
    store(clipboardKey, value);
    emit clipboardSecondsChanged();
}

void AppSettings::setTheme(const QString& theme)
{
    if (!isTheme(theme) || theme == m_theme)
        return;
    m_theme = theme;
    store(themeKey, theme);
    emit themeChanged();
}

void AppSettings::setUnlockTargetMilliseconds(int milliseconds)
{
    const int value = clampUnlockTargetMilliseconds(milliseconds);
    if (value < 0 || value == m_unlockTargetMilliseconds)
        return;
    m_unlockTargetMilliseconds = value;
    store(unlockTargetKey, value);
    emit unlockTargetMillisecondsChanged();
}

void AppSettings::setBackupFolder(const QString& folder)
{
    const QString value = normalizeFolder(folder);
    // A relative path is refused, not taken for "no backups".
    if ((value.isEmpty() && !folder.trimmed().isEmpty()) || value == m_backupFolder)
        return;
    m_backupFolder = value;
    store(backupFolderKey, value);
    emit backupFolderChanged();
}

QUrl AppSettings::backupFolderUrl() const
{
    return m_backupFolder.isEmpty() ? QUrl() : QUrl::fromLocalFile(m_backupFolder);
}

void AppSettings::setBackupFolderUrl(const QUrl& url)
{
    if (url.isEmpty()) {
        setBackupFolder({});
        return;
    }
    if (url.isLocalFile())
        setBackupFolder(url.toLocalFile());
}

QString AppSettings::fileName() const
{
    return m_settings->fileName();
}

QString AppSettings::watchDevice() const
{
    return m_settings->value(watchDeviceKey).toString();
}

void AppSettings::setWatchDevice(const QString& id)
{
    store(watchDeviceKey, id);
}

double AppSettings::watchMeasuredMs(const QString& deviceId, const QString& operation) const
{
    bool ok = false;
    const double value = m_settings->value(watchMeasuredKey(deviceId, operation)).toDouble(&ok);
    return ok && value > 0 && std::isfinite(value) ? value : 0.0;
}

void AppSettings::setWatchMeasuredMs(const QString& deviceId, const QString& operation,
                                     double milliseconds)
{
    if (milliseconds > 0 && std::isfinite(milliseconds))
        store(watchMeasuredKey(deviceId, operation), milliseconds);
    else
        m_settings->remove(watchMeasuredKey(deviceId, operation));
}

} // namespace watchword::app
