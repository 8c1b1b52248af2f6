// Watchword: wires the self-test, the models and the QML front end together.
#include "SelfTestModel.h"
#include "base/ProcessHardening.h"
#include "selftest/SelfTest.h"

#include <QCommandLineParser>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QtQml/qqmlextensionplugin.h>

Q_IMPORT_QML_PLUGIN(Watchword_AppPlugin)
Q_IMPORT_QML_PLUGIN(Watchword_UiPlugin)

int main(int argc, char* argv[])
{
    // Before any secret is read: no core file, no ptrace by other processes.
    const auto hardeningFailure = watchword::hardenProcess();
    QGuiApplication app(argc, argv);
    if (!hardeningFailure.empty())
        qWarning("process hardening: %s (secrets could reach a core file)",
                 hardeningFailure.c_str());
    QGuiApplication::setApplicationName(QStringLiteral("Watchword"));
    QGuiApplication::setOrganizationName(QStringLiteral("Watchword"));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.watchword.Watchword"));
    QGuiApplication::setApplicationVersion(QStringLiteral(WATCHWORD_VERSION));

    QCommandLineParser options;
    options.setApplicationDescription(QStringLiteral("Desktop authenticator and vault"));
    options.addHelpOption();
    options.addVersionOption();
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral(
            "Save the window to <file> (PNG) once it has drawn its first frame, then quit."),
        QStringLiteral("file"));
    options.addOption(screenshot);
    options.process(app);

    if (qEnvironmentVariableIsEmpty("QT_QUICK_CONTROLS_STYLE"))
        QQuickStyle::setStyle(QStringLiteral("Basic"));

    // Known-answer tests first: if one fails, crypto stays disabled and the
    // window says which one.
    watchword::app::SelfTestModel selfTest(watchword::selftest::run());
    watchword::app::SelfTestModel::setInstance(&selfTest);

    QQmlApplicationEngine engine;
    // The static QML modules (Watchword.App, Watchword.Ui) live under qrc:/<URI path>.
    engine.addImportPath(QStringLiteral("qrc:/"));
    QObject::connect(
        &engine, &QQmlApplicationEngine::objectCreationFailed, &app,
        [] { QCoreApplication::exit(1); }, Qt::QueuedConnection);
    engine.load(QUrl(QStringLiteral("qrc:/Watchword/Ui/Main.qml")));
    if (engine.rootObjects().isEmpty())
        return 1;

    if (options.isSet(screenshot)) {
        auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().constFirst());
        if (window == nullptr)
            return 1;
        const QString file = options.value(screenshot);
        QObject::connect(
            window, &QQuickWindow::frameSwapped, &app,
            [window, file] {
                const bool saved = window->grabWindow().save(file, "PNG");
                if (!saved)
                    qCritical("watchword: could not write the screenshot to %s", qPrintable(file));
                QCoreApplication::exit(saved ? 0 : 1);
            },
            Qt::SingleShotConnection);
    }
    return QGuiApplication::exec();
}
