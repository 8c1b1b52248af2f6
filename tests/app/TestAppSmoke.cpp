// Starts the real watchword binary offscreen, lets it draw its first frame
// and save it, and checks that what it drew is a window with content: the
// self-test banner in the "passed" colours and text in it.
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QtTest>

class TestAppSmoke : public QObject
{
    Q_OBJECT

private slots:
    void startsDrawsAndQuits()
    {
        const QString shot = QStringLiteral(WATCHWORD_SCREENSHOT_DIR "/watchword-smoke.png");
        QFile::remove(shot);
        QProcess app;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(environment);
        app.start(QStringLiteral(WATCHWORD_APP_BINARY), {QStringLiteral("--screenshot"), shot});
        QVERIFY2(app.waitForFinished(60000), "the app did not quit after its first frame");
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());

        QImage image(shot);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 400 && image.height() >= 300);
        QSet<QRgb> colours;
        int bannerGreen = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2) {
                const QRgb pixel = image.pixel(x, y);
                colours.insert(pixel);
                if (pixel == qRgb(0xe6, 0xf4, 0xea)) // the "passed" banner fill
                    ++bannerGreen;
            }
        }
        QVERIFY2(colours.size() >= 16, "the window looks empty");
        QVERIFY2(bannerGreen > 1000, "no self-test-passed banner in the window");
    }
};

QTEST_GUILESS_MAIN(TestAppSmoke)
#include "TestAppSmoke.moc"
