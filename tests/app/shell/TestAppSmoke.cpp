// Starts the real watchword binary offscreen, lets it draw a settled frame
// and save it, and checks that it drew a window with content, printed no QML
// warning or error, and quit cleanly: on the demo vault (the codes), and on
// a vault path where no vault exists yet (the first run).
#include <QFileSystemWatcher>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// The app under test: the one built beside this test, or the one
// WATCHWORD_APP names (CI runs this test on the installed package's
// /usr/bin/watchword).
QString appBinary()
{
    const QString given = qEnvironmentVariable("WATCHWORD_APP");
    return given.isEmpty() ? QStringLiteral(WATCHWORD_APP_BINARY) : given;
}

struct Run
{
    QImage image;
    QByteArray errors;
};

// The app's environment: offscreen, runtime as its session's runtime
// directory, and settings and data of its own (never the user's: their
// theme would change the screenshots, and a test must not write them).
QProcessEnvironment appEnvironment(const QString& runtime)
{
    static QTemporaryDir home;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime);
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    return environment;
}

Run runApp(QStringList arguments, const QString& shot)
{
    QFile::remove(shot);
    QProcess app;
    // A session's runtime directory, as a desktop login provides (Qt warns
    // on stderr without one, and CI runs without a session).
    static QTemporaryDir runtime;
    QFile::setPermissions(runtime.path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    app.setProcessEnvironment(appEnvironment(runtime.path()));
    arguments << QStringLiteral("--screenshot") << shot;
    app.start(appBinary(), arguments);
    Run run;
    if (!app.waitForFinished(60000)) {
        app.kill();
        app.waitForFinished();
        QTest::qFail("the app did not quit after its screenshot", __FILE__, __LINE__);
        return run;
    }
    run.errors = app.readAllStandardError();
    if (app.exitStatus() != QProcess::NormalExit || app.exitCode() != 0) {
        QTest::qFail(run.errors.constData(), __FILE__, __LINE__);
        return run;
    }
    run.image = QImage(shot);
    return run;
}

int colourCount(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

// The app, offscreen, with runtime as its session's runtime directory (where
// a first instance puts its socket).
void startApp(QProcess& app, const QStringList& arguments, const QString& runtime)
{
    app.setProcessEnvironment(appEnvironment(runtime));
    app.start(appBinary(), arguments);
}

QStringList socketsIn(const QString& directory)
{
    return QDir(directory).entryList(QDir::System | QDir::NoDotAndDotDot);
}

} // namespace

class TestAppSmoke : public QObject
{
    Q_OBJECT

private slots:
    void demoVault()
    {
        const Run run = runApp({QStringLiteral("--demo")},
                               QStringLiteral(WATCHWORD_SCREENSHOT_DIR "/watchword-demo.png"));
        if (QTest::currentTestFailed())
            return;
        // Nothing on stderr at all: no QML warning, no binding error.
        QVERIFY2(run.errors.isEmpty(), run.errors.constData());
        QVERIFY(!run.image.isNull());
        QVERIFY(run.image.width() >= 400 && run.image.height() >= 300);
        QVERIFY2(colourCount(run.image) >= 16, "the window looks empty");
    }

    void noVaultYet()
    {
        QTemporaryDir dir;
        const Run run = runApp({QStringLiteral("--vault"), dir.filePath(QStringLiteral("v.wwv"))},
                               QStringLiteral(WATCHWORD_SCREENSHOT_DIR "/watchword-first-run.png"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(run.errors.isEmpty(), run.errors.constData());
        QVERIFY(!run.image.isNull());
        QVERIFY2(colourCount(run.image) >= 16, "the window looks empty");
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("v.wwv")))); // opening never writes
    }

    void rejectsAnArgumentThatIsNoLink()
    {
        QTemporaryDir runtime;
        QTemporaryDir dir;
        QProcess app;
        startApp(app,
                 {QStringLiteral("--vault"), dir.filePath(QStringLiteral("v.wwv")),
                  QStringLiteral("https://example.com/?secret=JBSWY3DPEHPK3PXP")},
                 runtime.path());
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 2);
        const QByteArray errors = app.readAllStandardError();
        QVERIFY2(errors.contains("otpauth://"), errors.constData());
        // The secret of a mistyped link is not echoed.
        QVERIFY2(!errors.contains("JBSWY3DP"), errors.constData());
        QVERIFY(app.readAllStandardOutput().isEmpty());
        QVERIFY(socketsIn(runtime.path()).isEmpty());
    }

    void secondLaunchHandsOver()
    {
        QTemporaryDir runtime;
        QTemporaryDir dir;
        const QString vault = dir.filePath(QStringLiteral("v.wwv"));
        QFileSystemWatcher watcher({runtime.path()});
        QSignalSpy changed(&watcher, &QFileSystemWatcher::directoryChanged);
        QProcess first;
        startApp(first, {QStringLiteral("--vault"), vault}, runtime.path());
        // Listening once its socket is in the runtime directory.
        while (socketsIn(runtime.path()).isEmpty()) {
            if (first.state() == QProcess::NotRunning || !changed.wait(60000))
                break;
        }
        QCOMPARE(socketsIn(runtime.path()).size(), 1);
        QVERIFY2(!socketsIn(runtime.path()).constFirst().contains(QStringLiteral("v.wwv")),
                 "the socket's name shows the vault's path");

        const QString link = QStringLiteral("otpauth://totp/Example:alice@example.com"
                                            "?secret=JBSWY3DPEHPK3PXP&issuer=Example");
        const QList<std::pair<QStringList, QByteArray>> launches = {
            {{QStringLiteral("--vault"), vault}, "watchword: raised the running instance\n"},
            {{QStringLiteral("--vault"), vault, link},
             "watchword: raised the running instance with the link\n"},
        };
        for (const auto& [arguments, said] : launches) {
            QProcess second;
            startApp(second, arguments, runtime.path());
            QVERIFY(second.waitForFinished(30000));
            QCOMPARE(second.exitStatus(), QProcess::NormalExit);
            QCOMPARE(second.exitCode(), 0);
            QCOMPARE(second.readAllStandardOutput(), said);
            QVERIFY2(second.readAllStandardError().isEmpty(), "the second launch warned");
        }
        // The first answered both and still runs, without a word on stderr.
        QCOMPARE(first.state(), QProcess::Running);
        first.terminate();
        QVERIFY(first.waitForFinished(30000));
        const QByteArray errors = first.readAllStandardError();
        QVERIFY2(errors.isEmpty(), errors.constData());
    }
};

QTEST_GUILESS_MAIN(TestAppSmoke)
#include "TestAppSmoke.moc"
