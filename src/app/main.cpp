// Watchword: wires the self-test, the models and the QML front end together.
#include "ClipboardService.h"
#include "Clock.h"
#include "SelfTestModel.h"
#include "VaultController.h"
#include "base/ProcessHardening.h"
#include "selftest/SelfTest.h"
#include "vault/Storage.h"

#include <QCommandLineParser>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>
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
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QStringLiteral("Open a throw-away in-memory vault of sample accounts (never saved)."));
    options.addOption(demo);
    const QCommandLineOption vaultPath(
        QStringLiteral("vault"),
        QStringLiteral("The vault file (default: watchword/vault.wwv in the XDG data directory)."),
        QStringLiteral("file"));
    options.addOption(vaultPath);
    options.process(app);

    if (qEnvironmentVariableIsEmpty("QT_QUICK_CONTROLS_STYLE"))
        QQuickStyle::setStyle(QStringLiteral("Basic"));

    // Known-answer tests first: if one fails, crypto stays disabled and the
    // window says which one.
    watchword::app::SelfTestModel selfTest(watchword::selftest::run());
    watchword::app::SelfTestModel::setInstance(&selfTest);

    watchword::app::Clock clock;
    clock.start();
    watchword::app::ClipboardService clipboard;
    std::unique_ptr<watchword::app::VaultController> vault;
    if (options.isSet(demo)) {
        vault = watchword::app::VaultController::makeDemo(&clock, &clipboard);
    } else {
        QString path = options.value(vaultPath);
        if (path.isEmpty()) {
            const auto defaultPath = watchword::vault::defaultVaultPath();
            if (!defaultPath) {
                qCritical("watchword: %s", defaultPath.error().message.c_str());
                return 1;
            }
            path = QString::fromStdString(*defaultPath);
        }
        vault = std::make_unique<watchword::app::VaultController>(path, &clock, &clipboard);
    }

    QQmlApplicationEngine engine;
    engine.setInitialProperties({{QStringLiteral("vault"), QVariant::fromValue(vault.get())},
                                 {QStringLiteral("clock"), QVariant::fromValue(&clock)}});
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
        // The first frame that shows a settled vault: not while the demo
        // vault is still being made.
        auto* controller = vault.get();
        QObject::connect(window, &QQuickWindow::frameSwapped, &app, [window, file, controller] {
            static bool done = false;
            if (done || controller->state() == watchword::app::VaultController::State::Unlocking)
                return;
            done = true;
            // A moment more for what paints after the first frame (the
            // countdown rings are Canvas items).
            QTimer::singleShot(300, window, [window, file] {
                const bool saved = window->grabWindow().save(file, "PNG");
                if (!saved)
                    qCritical("watchword: could not write the screenshot to %s", qPrintable(file));
                QCoreApplication::exit(saved ? 0 : 1);
            });
        });
        QObject::connect(controller, &watchword::app::VaultController::stateChanged, window,
                         &QQuickWindow::update);
    }
    return QGuiApplication::exec();
}
