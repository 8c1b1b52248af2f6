// The desktop's own file chooser over the XDG desktop portal: what is asked
// (the method, the title, the filters, the folder and the name, as the
// portal documents them) and each answer (chosen, cancelled, none to ask)
// against a fake portal on a private bus.

#include "app/desktop/DesktopFileChooser.h"
#include "common/FakeFileChooser.h"
#include "common/PrivateBus.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using watchword::app::DesktopFileChooser;
using watchword::test::FakeFileChooser;
using watchword::test::PrivateBus;

class TestDesktopFileChooser : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void requestPath_data();
    void requestPath();
    void openAsksWithFiltersAndFolder();
    void saveAsksWithTheSuggestedName();
    void folderNeedsVersion3();
    void cancelledAndEndedOtherwise_data();
    void cancelledAndEndedOtherwise();
    void aPortalBeforeRequestPaths();
    void aLocationThatIsNotALocalFile();
    void noPortalOnTheBus();
    void noBusAtAll();
    void turnedOff();
    void badMode();

private:
    // Asks and waits for the one answer; returns the spies' counts as
    // "chosen", "cancelled" or "unavailable".
    QString answer(int mode, const QString& title, const QUrl& folder, const QStringList& filters,
                   const QString& name);

    std::unique_ptr<PrivateBus> m_bus;
    std::unique_ptr<FakeFileChooser> m_portal;
    std::unique_ptr<DesktopFileChooser> m_chooser;
    QUrl m_chosen;
    QString m_reason;
    QTemporaryDir m_dir;
};

void TestDesktopFileChooser::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_bus = std::make_unique<PrivateBus>();
    QVERIFY2(!m_bus->address().isEmpty(), qPrintable(m_bus->error()));
}

void TestDesktopFileChooser::init()
{
    m_portal = std::make_unique<FakeFileChooser>(m_bus->connect(QStringLiteral("portal")));
    QVERIFY(m_portal->registered());
    m_chooser = std::make_unique<DesktopFileChooser>(m_bus->connect(QStringLiteral("app")));
    m_chosen.clear();
    m_reason.clear();
}

void TestDesktopFileChooser::cleanup()
{
    m_chooser.reset();
    m_portal.reset();
    QDBusConnection::disconnectFromBus(QStringLiteral("portal"));
    QDBusConnection::disconnectFromBus(QStringLiteral("app"));
}

void TestDesktopFileChooser::cleanupTestCase()
{
    m_bus.reset();
}

QString TestDesktopFileChooser::answer(int mode, const QString& title, const QUrl& folder,
                                       const QStringList& filters, const QString& name)
{
    QSignalSpy chosen(m_chooser.get(), &DesktopFileChooser::chosen);
    QSignalSpy cancelled(m_chooser.get(), &DesktopFileChooser::cancelled);
    QSignalSpy unavailable(m_chooser.get(), &DesktopFileChooser::unavailable);
    const int request = m_chooser->ask(mode, title, folder, filters, name);
    // Never from within ask().
    if (chosen.size() + cancelled.size() + unavailable.size() != 0)
        return QStringLiteral("answered within ask");
    if (!QTest::qWaitFor([&] { return chosen.size() + cancelled.size() + unavailable.size() > 0; },
                         10000))
        return QStringLiteral("no answer");
    QTest::qWait(50); // and only one
    if (chosen.size() + cancelled.size() + unavailable.size() != 1)
        return QStringLiteral("more than one answer");
    const auto& spy = !chosen.isEmpty() ? chosen : !cancelled.isEmpty() ? cancelled : unavailable;
    if (spy.at(0).at(0).toInt() != request)
        return QStringLiteral("another request's number");
    if (!chosen.isEmpty()) {
        m_chosen = chosen.at(0).at(1).toUrl();
        return QStringLiteral("chosen");
    }
    if (!unavailable.isEmpty()) {
        m_reason = unavailable.at(0).at(1).toString();
        return QStringLiteral("unavailable");
    }
    return QStringLiteral("cancelled");
}

void TestDesktopFileChooser::requestPath_data()
{
    QTest::addColumn<QString>("unique");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("path");
    QTest::newRow("unique name") << ":1.42"
                                 << "watchword1"
                                 << "/org/freedesktop/portal/desktop/request/1_42/watchword1";
    QTest::newRow("dots") << ":1.2.3"
                          << "t"
                          << "/org/freedesktop/portal/desktop/request/1_2_3/t";
}

void TestDesktopFileChooser::requestPath()
{
    QFETCH(QString, unique);
    QFETCH(QString, token);
    QFETCH(QString, path);
    QCOMPARE(DesktopFileChooser::requestPath(unique, token), path);
}

void TestDesktopFileChooser::openAsksWithFiltersAndFolder()
{
    const QString file = m_dir.filePath(QStringLiteral("aegis export.json"));
    m_portal->uris = {QUrl::fromLocalFile(file).toString(QUrl::FullyEncoded)};
    const QUrl folder = QUrl::fromLocalFile(m_dir.path());
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile),
                    QStringLiteral("Choose a file to import"), folder,
                    {QStringLiteral("Exports (*.json *.2fas)"), QStringLiteral("All files (*)")},
                    QString()),
             QStringLiteral("chosen"));
    QCOMPARE(m_chosen, QUrl::fromLocalFile(file));
    QCOMPARE(m_chosen.toLocalFile(), file);

    QCOMPARE(m_portal->method, QStringLiteral("OpenFile"));
    QCOMPARE(m_portal->title, QStringLiteral("Choose a file to import"));
    // Offscreen: no window the portal could name.
    QCOMPARE(m_portal->parentWindow, QString());
    const QVariantMap& options = m_portal->options;
    QCOMPARE(options.value(QStringLiteral("handle_token")).toString().isEmpty(), false);
    QCOMPARE(options.value(QStringLiteral("accept_label")).toString(), QStringLiteral("Open"));
    QCOMPARE(options.value(QStringLiteral("modal")).toBool(), true);
    QVERIFY(!options.contains(QStringLiteral("directory")));
    QVERIFY(!options.contains(QStringLiteral("current_name")));
    // The folder as bytes ending in a NUL.
    QCOMPARE(options.value(QStringLiteral("current_folder")).toByteArray(),
             QFile::encodeName(m_dir.path()) + QByteArray(1, '\0'));
    const QVariantList exports{QStringLiteral("Exports"),
                               QVariantList{QVariant(QVariantList{0u, QStringLiteral("*.json")}),
                                            QVariant(QVariantList{0u, QStringLiteral("*.2fas")})}};
    const QVariantList all{QStringLiteral("All files"),
                           QVariantList{QVariant(QVariantList{0u, QStringLiteral("*")})}};
    QCOMPARE(options.value(QStringLiteral("filters")).toList(),
             (QVariantList{QVariant(exports), QVariant(all)}));
    QCOMPARE(options.value(QStringLiteral("current_filter")).toList(), exports);
}

void TestDesktopFileChooser::saveAsksWithTheSuggestedName()
{
    const QString file = m_dir.filePath(QStringLiteral("watchword-export.wwb"));
    m_portal->uris = {QUrl::fromLocalFile(file).toString()};
    QCOMPARE(answer(int(DesktopFileChooser::Mode::SaveFile), QStringLiteral("Export to"),
                    QUrl::fromLocalFile(m_dir.path()), {QStringLiteral("Watchword backup (*.wwb)")},
                    QStringLiteral("watchword-export.wwb")),
             QStringLiteral("chosen"));
    QCOMPARE(m_chosen.toLocalFile(), file);
    QCOMPARE(m_portal->method, QStringLiteral("SaveFile"));
    QCOMPARE(m_portal->options.value(QStringLiteral("current_name")).toString(),
             QStringLiteral("watchword-export.wwb"));
    QCOMPARE(m_portal->options.value(QStringLiteral("accept_label")).toString(),
             QStringLiteral("Save"));
}

void TestDesktopFileChooser::folderNeedsVersion3()
{
    m_portal->uris = {QUrl::fromLocalFile(m_dir.path()).toString()};
    m_portal->version = 2;
    QCOMPARE(answer(int(DesktopFileChooser::Mode::Folder), QStringLiteral("Backup folder"), QUrl(),
                    {}, QString()),
             QStringLiteral("unavailable"));
    QVERIFY2(m_reason.contains(QStringLiteral("version 2")), qPrintable(m_reason));
    QCOMPARE(m_portal->calls, 0);

    m_portal->version = 3;
    QCOMPARE(answer(int(DesktopFileChooser::Mode::Folder), QStringLiteral("Backup folder"), QUrl(),
                    {}, QString()),
             QStringLiteral("chosen"));
    QCOMPARE(m_chosen.toLocalFile(), m_dir.path());
    QCOMPARE(m_portal->method, QStringLiteral("OpenFile"));
    QCOMPARE(m_portal->options.value(QStringLiteral("directory")).toBool(), true);
    QVERIFY(!m_portal->options.contains(QStringLiteral("filters")));
    QVERIFY(!m_portal->options.contains(QStringLiteral("current_folder")));
}

void TestDesktopFileChooser::cancelledAndEndedOtherwise_data()
{
    QTest::addColumn<uint>("response");
    QTest::newRow("cancelled") << 1u;
    QTest::newRow("ended otherwise") << 2u;
}

void TestDesktopFileChooser::cancelledAndEndedOtherwise()
{
    QFETCH(uint, response);
    m_portal->response = response;
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile), QStringLiteral("Open"), QUrl(), {},
                    QString()),
             QStringLiteral("cancelled"));
}

void TestDesktopFileChooser::aPortalBeforeRequestPaths()
{
    // The answer comes on the path the call returned, not the token's.
    m_portal->legacyHandle = true;
    m_portal->uris = {QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("a.json"))).toString()};
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile), QStringLiteral("Open"), QUrl(), {},
                    QString()),
             QStringLiteral("chosen"));
    QCOMPARE(m_chosen.fileName(), QStringLiteral("a.json"));
}

void TestDesktopFileChooser::aLocationThatIsNotALocalFile()
{
    m_portal->uris = {QStringLiteral("https://example.com/export.json")};
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile), QStringLiteral("Open"), QUrl(), {},
                    QString()),
             QStringLiteral("unavailable"));
    QVERIFY2(m_reason.contains(QStringLiteral("not a local file")), qPrintable(m_reason));

    m_portal->uris.clear();
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile), QStringLiteral("Open"), QUrl(), {},
                    QString()),
             QStringLiteral("unavailable"));
}

void TestDesktopFileChooser::noPortalOnTheBus()
{
    m_portal.reset();
    QDBusConnection::disconnectFromBus(QStringLiteral("portal"));
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile), QStringLiteral("Open"), QUrl(), {},
                    QString()),
             QStringLiteral("unavailable"));
    QVERIFY(!m_reason.isEmpty());
}

void TestDesktopFileChooser::noBusAtAll()
{
    m_chooser = std::make_unique<DesktopFileChooser>(QDBusConnection(QStringLiteral("nowhere")));
    QCOMPARE(answer(int(DesktopFileChooser::Mode::SaveFile), QStringLiteral("Save"), QUrl(), {},
                    QStringLiteral("x.json")),
             QStringLiteral("unavailable"));
    QCOMPARE(m_reason, QStringLiteral("no session bus"));
    QCOMPARE(m_portal->calls, 0);
}

void TestDesktopFileChooser::turnedOff()
{
    QSignalSpy changed(m_chooser.get(), &DesktopFileChooser::enabledChanged);
    m_chooser->setEnabled(false);
    m_chooser->setEnabled(false);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(answer(int(DesktopFileChooser::Mode::OpenFile), QStringLiteral("Open"), QUrl(), {},
                    QString()),
             QStringLiteral("unavailable"));
    QCOMPARE(m_portal->calls, 0);
}

void TestDesktopFileChooser::badMode()
{
    QCOMPARE(answer(7, QStringLiteral("Open"), QUrl(), {}, QString()),
             QStringLiteral("unavailable"));
    QCOMPARE(m_portal->calls, 0);
}

QTEST_MAIN(TestDesktopFileChooser)
#include "TestDesktopFileChooser.moc"
