#include "app/desktop/AppSettings.h"
#include "app/desktop/Theme.h"
#include "common/PrivateBus.h"

#include <QDBusAbstractAdaptor>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using watchword::app::AppSettings;
using watchword::app::Theme;

// The desktop portal's Settings as far as Theme asks it. Older portals (as
// in Debian 12) wrap the value in a second variant; so does this one.
class FakePortalSettings : public QDBusAbstractAdaptor
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")

public:
    explicit FakePortalSettings(QObject* parent) : QDBusAbstractAdaptor(parent) {}

    uint scheme = 1; // prefers dark

public slots:
    QDBusVariant Read(const QString& group, const QString& key)
    {
        if (group != QLatin1String("org.freedesktop.appearance") ||
            key != QLatin1String("color-scheme"))
            return QDBusVariant(QVariant::fromValue(QDBusVariant(QString())));
        return QDBusVariant(QVariant::fromValue(QDBusVariant(scheme)));
    }
};

class TestAppSettings : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void defaults();
    void roundTripThroughTheFile();
    void badValuesInTheFile_data();
    void badValuesInTheFile();
    void accountOrderFromTheFile_data();
    void accountOrderFromTheFile();
    void settersClampAndIgnoreGarbage();
    void changeSignalsOnlyOnChange();
    void backupFolderAsUrl();
    void themeFollowsTheSetting();
    void themeTextContrast_data();
    void themeTextContrast();
    void systemThemeFollowsThePortal();
    void portalOverABus();

private:
    QString settingsPath() const { return m_dir->filePath(QStringLiteral("watchword.conf")); }
    void writeFile(const QByteArray& contents) const;

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestAppSettings::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestAppSettings::writeFile(const QByteArray& contents) const
{
    QFile file(settingsPath());
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(contents), contents.size());
}

void TestAppSettings::defaults()
{
    AppSettings settings(settingsPath());
    QCOMPARE(settings.autoLockMinutes(), 5);
    QVERIFY(settings.lockOnSessionLock());
    QVERIFY(!settings.lockOnMinimize());
    QVERIFY(!settings.hideCodes());
    QVERIFY(settings.desktopFileChooser());
    QCOMPARE(settings.accountOrder(), 0);
    QCOMPARE(settings.clipboardSeconds(), 30);
    QCOMPARE(settings.theme(), QStringLiteral("system"));
    QCOMPARE(settings.unlockTargetMilliseconds(), 1000);
    QVERIFY(settings.backupFolder().isEmpty());
    QVERIFY(settings.backupFolderUrl().isEmpty());
    // Reading never writes: no file appears until something is set.
    QVERIFY(!QFile::exists(settingsPath()));
}

void TestAppSettings::roundTripThroughTheFile()
{
    const QString folder = m_dir->filePath(QStringLiteral("backups"));
    {
        AppSettings settings(settingsPath());
        settings.setAutoLockMinutes(0);
        settings.setLockOnSessionLock(false);
        settings.setLockOnMinimize(true);
        settings.setHideCodes(true);
        settings.setDesktopFileChooser(false);
        settings.setAccountOrder(2);
        settings.setAccountOrder(3); // not an order: ignored
        settings.setClipboardSeconds(45);
        settings.setTheme(QStringLiteral("dark"));
        settings.setUnlockTargetMilliseconds(2500);
        settings.setBackupFolder(folder);
        QCOMPARE(settings.fileName(), settingsPath());
    }
    // Written through at once: the file holds the values (and nothing else
    // that could be a secret: only the keys we know).
    QSettings raw(settingsPath(), QSettings::IniFormat);
    QCOMPARE(raw.value(QStringLiteral("security/autoLockMinutes")).toInt(), 0);
    QCOMPARE(raw.value(QStringLiteral("appearance/theme")).toString(), QStringLiteral("dark"));
    QCOMPARE(raw.value(QStringLiteral("files/desktopChooser")).toBool(), false);
    QCOMPARE(raw.allKeys().size(), 10);

    AppSettings reread(settingsPath());
    QCOMPARE(reread.autoLockMinutes(), 0);
    QVERIFY(!reread.lockOnSessionLock());
    QVERIFY(reread.lockOnMinimize());
    QVERIFY(reread.hideCodes());
    QVERIFY(!reread.desktopFileChooser());
    QCOMPARE(reread.accountOrder(), 2);
    QCOMPARE(reread.clipboardSeconds(), 45);
    QCOMPARE(reread.theme(), QStringLiteral("dark"));
    QCOMPARE(reread.unlockTargetMilliseconds(), 2500);
    QCOMPARE(reread.backupFolder(), folder);
}

void TestAppSettings::badValuesInTheFile_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<int>("autoLock");
    QTest::addColumn<bool>("sessionLock");
    QTest::addColumn<int>("clipboard");
    QTest::addColumn<QString>("theme");
    QTest::addColumn<int>("target");
    QTest::addColumn<QString>("folder");

    QTest::newRow("words") << QByteArray(
                                  "[security]\nautoLockMinutes=soon\nlockOnSessionLock=maybe\n"
                                  "clipboardSeconds=thirty\n[appearance]\ntheme=neon\n"
                                  "[vault]\nunlockTargetMilliseconds=fast\n"
                                  "[backup]\nfolder=relative/dir\n")
                           << 5 << true << 30 << QStringLiteral("system") << 1000 << QString();
    QTest::newRow("too big") << QByteArray("[security]\nautoLockMinutes=999999\n"
                                           "clipboardSeconds=86400\n"
                                           "[vault]\nunlockTargetMilliseconds=60000\n")
                             << 24 * 60 << true << 600 << QStringLiteral("system") << 10000
                             << QString();
    QTest::newRow("beyond 64 bits")
        << QByteArray("[security]\nautoLockMinutes=99999999999999999999999\n"
                      "[vault]\nunlockTargetMilliseconds=-99999999999999999999999\n")
        << 5 << true << 30 << QStringLiteral("system") << 1000 << QString();
    // A negative time is garbage, not "never": a damaged file must not turn
    // auto-lock off.
    QTest::newRow("negative") << QByteArray("[security]\nautoLockMinutes=-1\nclipboardSeconds=-5\n"
                                            "[vault]\nunlockTargetMilliseconds=-250\n")
                              << 5 << true << 30 << QStringLiteral("system") << 1000 << QString();
    QTest::newRow("too small target") << QByteArray("[vault]\nunlockTargetMilliseconds=10\n") << 5
                                      << true << 30 << QStringLiteral("system") << 250 << QString();
    QTest::newRow("spaces and case")
        << QByteArray("[security]\nautoLockMinutes= 15 \nlockOnSessionLock=FALSE\n"
                      "[appearance]\ntheme=Dark\n[backup]\nfolder=/tmp//x/../y/\n")
        << 15 << false << 30 << QStringLiteral("dark") << 1000 << QStringLiteral("/tmp/y");
    QTest::newRow("not an ini file") << QByteArray("\x00\xff\xfe garbage \x01\n[[[\n=\n", 20) << 5
                                     << true << 30 << QStringLiteral("system") << 1000 << QString();
}

void TestAppSettings::badValuesInTheFile()
{
    QFETCH(QByteArray, contents);
    writeFile(contents);
    AppSettings settings(settingsPath());
    QTEST(settings.autoLockMinutes(), "autoLock");
    QTEST(settings.lockOnSessionLock(), "sessionLock");
    QTEST(settings.clipboardSeconds(), "clipboard");
    QTEST(settings.theme(), "theme");
    QTEST(settings.unlockTargetMilliseconds(), "target");
    QTEST(settings.backupFolder(), "folder");
}

void TestAppSettings::accountOrderFromTheFile_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<int>("order");
    QTest::newRow("by name") << QByteArray("[codes]\norder=1\n") << 1;
    QTest::newRow("recently used") << QByteArray("[codes]\norder=2\n") << 2;
    QTest::newRow("no such order") << QByteArray("[codes]\norder=7\n") << 0;
    QTest::newRow("negative") << QByteArray("[codes]\norder=-1\n") << 0;
    QTest::newRow("a word") << QByteArray("[codes]\norder=name\n") << 0;
}

void TestAppSettings::accountOrderFromTheFile()
{
    QFETCH(QByteArray, contents);
    writeFile(contents);
    AppSettings settings(settingsPath());
    QTEST(settings.accountOrder(), "order");
}

void TestAppSettings::settersClampAndIgnoreGarbage()
{
    AppSettings settings(settingsPath());
    settings.setAutoLockMinutes(100000);
    QCOMPARE(settings.autoLockMinutes(), AppSettings::maximumAutoLockMinutes);
    settings.setAutoLockMinutes(-3);
    QCOMPARE(settings.autoLockMinutes(), AppSettings::maximumAutoLockMinutes);
    settings.setClipboardSeconds(-1);
    QCOMPARE(settings.clipboardSeconds(), 30);
    settings.setClipboardSeconds(0);
    QCOMPARE(settings.clipboardSeconds(), 0);
    settings.setUnlockTargetMilliseconds(1);
    QCOMPARE(settings.unlockTargetMilliseconds(), 250);
    settings.setUnlockTargetMilliseconds(20000);
    QCOMPARE(settings.unlockTargetMilliseconds(), 10000);
    settings.setTheme(QStringLiteral("purple"));
    QCOMPARE(settings.theme(), QStringLiteral("system"));

    settings.setBackupFolder(QStringLiteral("~/backups"));
    QCOMPARE(settings.backupFolder(), QDir::homePath() + QStringLiteral("/backups"));
    settings.setBackupFolder(QStringLiteral("relative"));
    QCOMPARE(settings.backupFolder(), QDir::homePath() + QStringLiteral("/backups"));
    settings.setBackupFolder(QStringLiteral("  "));
    QVERIFY(settings.backupFolder().isEmpty());
}

void TestAppSettings::changeSignalsOnlyOnChange()
{
    AppSettings settings(settingsPath());
    QSignalSpy autoLock(&settings, &AppSettings::autoLockMinutesChanged);
    QSignalSpy sessionLock(&settings, &AppSettings::lockOnSessionLockChanged);
    QSignalSpy minimize(&settings, &AppSettings::lockOnMinimizeChanged);
    QSignalSpy clipboard(&settings, &AppSettings::clipboardSecondsChanged);
    QSignalSpy theme(&settings, &AppSettings::themeChanged);
    QSignalSpy target(&settings, &AppSettings::unlockTargetMillisecondsChanged);
    QSignalSpy folder(&settings, &AppSettings::backupFolderChanged);

    settings.setAutoLockMinutes(5); // the default: no change
    settings.setAutoLockMinutes(10);
    settings.setAutoLockMinutes(10);
    QCOMPARE(autoLock.count(), 1);
    settings.setLockOnSessionLock(true);
    settings.setLockOnSessionLock(false);
    QCOMPARE(sessionLock.count(), 1);
    settings.setLockOnMinimize(true);
    QCOMPARE(minimize.count(), 1);
    settings.setClipboardSeconds(30);
    settings.setClipboardSeconds(90);
    QCOMPARE(clipboard.count(), 1);
    settings.setTheme(QStringLiteral("system"));
    settings.setTheme(QStringLiteral("nonsense"));
    settings.setTheme(QStringLiteral("light"));
    QCOMPARE(theme.count(), 1);
    settings.setUnlockTargetMilliseconds(1000);
    settings.setUnlockTargetMilliseconds(20000);
    settings.setUnlockTargetMilliseconds(10000); // what 20000 was clamped to
    QCOMPARE(target.count(), 1);
    settings.setBackupFolder(QStringLiteral("/srv/backups"));
    settings.setBackupFolder(QStringLiteral("/srv/backups/"));
    QCOMPARE(folder.count(), 1);
    // The property system sees the same.
    QVERIFY(settings.setProperty("autoLockMinutes", 30));
    QCOMPARE(autoLock.count(), 2);
    QCOMPARE(settings.property("autoLockMinutes").toInt(), 30);
}

void TestAppSettings::backupFolderAsUrl()
{
    AppSettings settings(settingsPath());
    const QString folder = m_dir->filePath(QStringLiteral("a folder with spaces"));
    settings.setBackupFolderUrl(QUrl::fromLocalFile(folder));
    QCOMPARE(settings.backupFolder(), folder);
    QCOMPARE(settings.backupFolderUrl(), QUrl::fromLocalFile(folder));
    // Only local folders: a remote URL is not a place we can write to.
    settings.setBackupFolderUrl(QUrl(QStringLiteral("https://example.org/backups")));
    QCOMPARE(settings.backupFolder(), folder);
    settings.setBackupFolderUrl(QUrl());
    QVERIFY(settings.backupFolder().isEmpty());
}

// Every text colour on the background the window draws it on reaches WCAG
// AA's 4.5:1, in both built-in palettes (a drop-down's current item was
// once white on white).
void TestAppSettings::themeTextContrast_data()
{
    QTest::addColumn<QPalette>("palette");
    QTest::addColumn<int>("pair");
    const std::pair<const char*, QPalette> palettes[] = {{"light", Theme::lightPalette()},
                                                         {"dark", Theme::darkPalette()}};
    for (const auto& [theme, palette] : palettes) {
        for (std::size_t i = 0; i < Theme::textPairs().size(); ++i)
            QTest::addRow("%s: %s", theme, Theme::textPairs()[i].name) << palette << int(i);
    }
}

void TestAppSettings::themeTextContrast()
{
    QFETCH(QPalette, palette);
    QFETCH(int, pair);
    const Theme::TextPair& which = Theme::textPairs()[std::size_t(pair)];
    const QColor text = palette.color(QPalette::Active, which.text);
    const QColor background = palette.color(QPalette::Active, which.background);
    const double ratio = Theme::contrastRatio(text, background);
    if (ratio < 4.5)
        QFAIL(qPrintable(QStringLiteral("%1 on %2: %3:1")
                             .arg(text.name(), background.name())
                             .arg(ratio, 0, 'f', 2)));
    // The measure itself: black on white is 21:1, a colour on itself 1:1.
    QCOMPARE(Theme::contrastRatio(Qt::black, Qt::white), 21.0);
    QCOMPARE(Theme::contrastRatio(text, text), 1.0);
}

void TestAppSettings::themeFollowsTheSetting()
{
    AppSettings settings(settingsPath());
    Theme theme(&settings);
    QSignalSpy changed(&theme, &Theme::changed);
    // The offscreen platform's palette is light.
    QVERIFY(!Theme::isDarkPalette(QGuiApplication::palette()));
    QVERIFY(!theme.dark());
    // Its buttons are the colour of its window, which the Basic style would
    // draw invisible: the light palette stands in for it.
    QCOMPARE(QGuiApplication::palette().color(QPalette::Button),
             QGuiApplication::palette().color(QPalette::Window));
    QCOMPARE(theme.palette(), Theme::lightPalette());

    settings.setTheme(QStringLiteral("dark"));
    QCOMPARE(changed.count(), 1);
    QVERIFY(theme.dark());
    const QColor window = theme.colors().value(QStringLiteral("window")).value<QColor>();
    const QColor text = theme.colors().value(QStringLiteral("windowText")).value<QColor>();
    QVERIFY(window.lightnessF() < 0.5);
    QVERIFY(text.lightnessF() > 0.5);
    QCOMPARE(theme.colors().size(), 20);
    QVERIFY(theme.disabledColors().value(QStringLiteral("text")).value<QColor>() != text);

    settings.setTheme(QStringLiteral("light"));
    QCOMPARE(changed.count(), 2);
    QVERIFY(!theme.dark());
    QCOMPARE(theme.palette(), Theme::lightPalette());
}

void TestAppSettings::systemThemeFollowsThePortal()
{
    // A desktop's light palette whose buttons stand out from the window.
    const QPalette original = QGuiApplication::palette();
    QPalette desktop = original;
    desktop.setColor(QPalette::Button, QColor(0xd6d6d6));
    QGuiApplication::setPalette(desktop);
    const auto restore = qScopeGuard([&] { QGuiApplication::setPalette(original); });
    AppSettings settings(settingsPath());
    Theme theme(&settings);
    QSignalSpy changed(&theme, &Theme::changed);
    // GNOME's dark style: the portal prefers dark, Qt's palette stays light.
    theme.setSystemScheme(Theme::SystemScheme::Dark);
    QCOMPARE(changed.count(), 1);
    QVERIFY(theme.dark());
    QCOMPARE(theme.palette(), Theme::darkPalette());
    theme.setSystemScheme(Theme::SystemScheme::Light);
    QVERIFY(!theme.dark());
    // The system palette matches the preference: it is used as it is.
    QCOMPARE(theme.palette(), QGuiApplication::palette());
    // An explicit choice wins over the system.
    theme.setSystemScheme(Theme::SystemScheme::Dark);
    settings.setTheme(QStringLiteral("light"));
    QVERIFY(!theme.dark());
}

void TestAppSettings::portalOverABus()
{
    watchword::test::PrivateBus bus;
    QVERIFY2(!bus.address().isEmpty(), qPrintable(bus.error()));
    {
        QDBusConnection portal = bus.connect(QStringLiteral("portal"));
        QDBusConnection ours = bus.connect(QStringLiteral("ours"));
        QVERIFY(portal.isConnected() && ours.isConnected());
        QObject desktop;
        new FakePortalSettings(&desktop);
        QVERIFY(portal.registerObject(QStringLiteral("/org/freedesktop/portal/desktop"), &desktop));
        QVERIFY(portal.registerService(QStringLiteral("org.freedesktop.portal.Desktop")));

        AppSettings settings(settingsPath());
        Theme theme(&settings);
        QVERIFY(!theme.dark());
        theme.watchPortal(ours);
        QTRY_VERIFY(theme.dark());

        // The user switches the desktop back to light.
        auto changed = QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/portal/desktop"),
                                                  QStringLiteral("org.freedesktop.portal.Settings"),
                                                  QStringLiteral("SettingChanged"));
        changed << QStringLiteral("org.freedesktop.appearance") << QStringLiteral("color-scheme")
                << QVariant::fromValue(QDBusVariant(2u));
        QVERIFY(portal.send(changed));
        QTRY_VERIFY(!theme.dark());
    }
}

QTEST_MAIN(TestAppSettings)
#include "TestAppSettings.moc"
