// Starts the real watchword binary offscreen, lets it draw a settled frame
// and save it, and checks that it drew a window with content, printed no QML
// warning or error, and quit cleanly: on the demo vault (the codes), and on
// a vault path where no vault exists yet (the first run).
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    QImage image;
    QByteArray errors;
};

Run runApp(QStringList arguments, const QString& shot)
{
    QFile::remove(shot);
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // A session's runtime directory, as a desktop login provides (Qt warns
    // on stderr without one, and CI runs without a session).
    static QTemporaryDir runtime;
    QFile::setPermissions(runtime.path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
    app.setProcessEnvironment(environment);
    arguments << QStringLiteral("--screenshot") << shot;
    app.start(QStringLiteral(WATCHWORD_APP_BINARY), arguments);
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
};

QTEST_GUILESS_MAIN(TestAppSmoke)
#include "TestAppSmoke.moc"
