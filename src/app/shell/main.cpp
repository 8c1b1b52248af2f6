// Watchword: wires the self-test, the models and the QML front end together.
#include "app/desktop/SingleInstance.h"
#include "app/shell/AppShell.h"
#include "app/shell/LaunchTiming.h"
#include "app/shell/Navigator.h"
#include "app/vault/VaultController.h"
#include "base/ProcessHardening.h"
#include "vault/Storage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QIcon>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>
#include <cstdio>

int main(int argc, char* argv[])
{
    // The origin of --timing's measurements.
    QElapsedTimer sinceMain;
    sinceMain.start();
    // Before any secret is read: no core file, no ptrace by other processes.
    const auto hardeningFailure = watchword::hardenProcess();
    // QApplication, not QGuiApplication: the tray icon's menu is a widget.
    QApplication app(argc, argv);
    if (!hardeningFailure.empty())
        qWarning("process hardening: %s (secrets could reach a core file)",
                 hardeningFailure.c_str());
    QGuiApplication::setApplicationName(QStringLiteral("Watchword"));
    QGuiApplication::setOrganizationName(QStringLiteral("Watchword"));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.watchword.Watchword"));
    QGuiApplication::setApplicationVersion(QStringLiteral(WATCHWORD_VERSION));
    QIcon appIcon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
        appIcon.addFile(QStringLiteral(":/icons/watchword-%1.png").arg(size), QSize(size, size));
    QGuiApplication::setWindowIcon(appIcon);

    QCommandLineParser options;
    options.setApplicationDescription(QStringLiteral("Desktop authenticator and vault"));
    options.addHelpOption();
    options.addVersionOption();
    // Hooks for the tests, the benchmarks and the documentation's
    // screenshots: they work, but --help does not offer them to a user.
    const auto hook = [](QCommandLineOption option) {
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        return option;
    };
    const QCommandLineOption screenshot = hook(QCommandLineOption(
        QStringLiteral("screenshot"),
        QStringLiteral(
            "Save the window to <file> (PNG) once it has drawn its first frame, then quit."),
        QStringLiteral("file")));
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
    const QCommandLineOption newInstance(
        QStringLiteral("new-instance"),
        QStringLiteral("Start even if the app already runs on this vault (by default a second "
                       "launch raises the first and hands it the link)."));
    options.addOption(newInstance);
    const QCommandLineOption timingFile = hook(QCommandLineOption(
        QStringLiteral("timing"),
        QStringLiteral("Write what the launch and each second cost to <file> (JSON) on quitting "
                       "(bench/app_performance.py)."),
        QStringLiteral("file")));
    options.addOption(timingFile);
    const QCommandLineOption quitAfter = hook(
        QCommandLineOption(QStringLiteral("quit-after"), QStringLiteral("Quit after <seconds>."),
                           QStringLiteral("seconds")));
    options.addOption(quitAfter);
    const QCommandLineOption unlockStdin = hook(QCommandLineOption(
        QStringLiteral("unlock-stdin"),
        QStringLiteral("Unlock with the password on the first line of standard input once the "
                       "window has drawn.")));
    options.addOption(unlockStdin);
    const QCommandLineOption page = hook(QCommandLineOption(
        QStringLiteral("page"),
        QStringLiteral("With --screenshot: show page <name> first (%1; watch-<device> with "
                       "every account opened on that watch).")
            .arg(watchword::app::Navigator::pageNames().join(QStringLiteral(", "))),
        QStringLiteral("name")));
    options.addOption(page);
    const QCommandLineOption windowSize(QStringLiteral("window-size"),
                                        QStringLiteral("The window's size, as <width>x<height>."),
                                        QStringLiteral("size"));
    options.addOption(windowSize);
    const QCommandLineOption diagnosticsRun = hook(QCommandLineOption(
        QStringLiteral("diagnostics-run"),
        QStringLiteral("With --screenshot --page diagnostics: run the benchmarks whose names match "
                       "<filter> and take the picture when they are done."),
        QStringLiteral("filter")));
    options.addOption(diagnosticsRun);
    const QCommandLineOption diagnosticsExport = hook(QCommandLineOption(
        QStringLiteral("diagnostics-export"),
        QStringLiteral("With --diagnostics-run: also write the run's JSON report to <file> "
                       "(bench/gui_cli_agreement.py compares it with watchword-cli bench)."),
        QStringLiteral("file")));
    options.addOption(diagnosticsExport);
    options.addPositionalArgument(
        QStringLiteral("otpauth-uri"),
        QStringLiteral("An otpauth:// link to add: opens the add dialog with it."),
        QStringLiteral("[otpauth-uri]"));
    options.process(app);
    std::unique_ptr<watchword::app::LaunchTiming> timing;
    if (options.isSet(timingFile))
        timing =
            std::make_unique<watchword::app::LaunchTiming>(sinceMain, options.value(timingFile));

    // Not echoed: a mistyped link may still hold a secret.
    const QStringList positional = options.positionalArguments();
    if (positional.size() > 1 ||
        (positional.size() == 1 &&
         !watchword::app::SingleInstance::isOtpauthUri(positional.constFirst()))) {
        std::fputs("watchword: the only argument it takes is an otpauth:// link\n", stderr);
        return 2;
    }
    const QString uri = positional.isEmpty() ? QString() : positional.constFirst();

    QString path = options.value(vaultPath);
    if (!options.isSet(demo) && path.isEmpty()) {
        const auto defaultPath = watchword::vault::defaultVaultPath();
        if (!defaultPath) {
            qCritical("watchword: %s", defaultPath.error().message.c_str());
            return 1;
        }
        path = QString::fromStdString(*defaultPath);
    }

    // One app per vault: a later launch hands its link (or just "show
    // yourself") to the running one and quits. Demo and screenshot runs are
    // throw-away and run side by side (the tests start several at once).
    std::unique_ptr<watchword::app::SingleInstance> instance;
    if (!options.isSet(demo) && !options.isSet(screenshot) && !options.isSet(newInstance)) {
        instance = std::make_unique<watchword::app::SingleInstance>(
            watchword::app::SingleInstance::serverNameFor(path));
        switch (instance->start(uri)) {
        case watchword::app::SingleInstance::Outcome::Forwarded:
            std::puts(uri.isEmpty() ? "watchword: raised the running instance"
                                    : "watchword: raised the running instance with the link");
            return 0;
        case watchword::app::SingleInstance::Outcome::Alone:
            qWarning("watchword: the running instance for this vault does not answer; "
                     "starting another");
            break;
        case watchword::app::SingleInstance::Outcome::Primary:
            break;
        }
    }

    watchword::app::AppShell::chooseRenderer();
    if (qEnvironmentVariableIsEmpty("QT_QUICK_CONTROLS_STYLE"))
        QQuickStyle::setStyle(QStringLiteral("Basic"));

    watchword::app::ShellOptions shellOptions;
    shellOptions.vaultPath = path;
    shellOptions.demo = options.isSet(demo);
    shellOptions.timing = timing.get();
    watchword::app::AppShell shell(std::move(shellOptions), sinceMain);
    if (!shell.load())
        return 1;
    using watchword::app::VaultController;
    VaultController* vault = shell.vault();
    QQuickWindow* root = shell.window();

    // Desktop integration: later launches, a link to add.
    if (!uri.isEmpty())
        shell.openAddDialog(uri);
    if (instance) {
        QObject::connect(instance.get(), &watchword::app::SingleInstance::activationRequested,
                         &shell, &watchword::app::AppShell::raiseWindow);
        QObject::connect(instance.get(), &watchword::app::SingleInstance::uriReceived, &shell,
                         &watchword::app::AppShell::openAddDialog);
    }

    if (options.isSet(screenshot)) {
        QQuickWindow* window = root;
        const QString file = options.value(screenshot);
        // The first frame that shows a settled vault: not while the demo
        // vault is still being made.
        VaultController* controller = vault;
        watchword::app::Navigator* navigator = shell.navigator();
        const QString pageName = options.value(page);
        const QString diagnosticsFilter = options.value(diagnosticsRun);
        const QString diagnosticsReport = options.value(diagnosticsExport);
        QObject::connect(
            window, &QQuickWindow::frameSwapped, &app,
            [window, file, controller, navigator, pageName, diagnosticsFilter, diagnosticsReport] {
                static bool done = false;
                if (done ||
                    controller->state() == watchword::app::VaultController::State::Unlocking)
                    return;
                done = true;
                const auto request = watchword::app::Navigator::parsePage(pageName);
                if (!pageName.isEmpty() && (!request || !navigator->showPage(*request))) {
                    std::fprintf(stderr, "watchword: there is no page \"%s\" to show here\n",
                                 qPrintable(pageName));
                    QCoreApplication::exit(3);
                    return;
                }
                if (!diagnosticsFilter.isEmpty() && !navigator->runDiagnostics(diagnosticsFilter)) {
                    std::fprintf(stderr, "watchword: no benchmark matches \"%s\"\n",
                                 qPrintable(diagnosticsFilter));
                    QCoreApplication::exit(2);
                    return;
                }
                // A moment more for what paints after the first frame (the
                // countdown rings are Canvas items), and until what the page set
                // off on a worker (a recovery phrase) has arrived.
                auto* settle = new QTimer(window);
                settle->setInterval(300);
                QObject::connect(
                    settle, &QTimer::timeout, window,
                    [window, file, controller, navigator, settle, diagnosticsReport] {
                        if (controller->busy() ||
                            controller->state() ==
                                watchword::app::VaultController::State::Unlocking ||
                            window->property("pageBusy").toBool())
                            return;
                        settle->stop();
                        if (!diagnosticsReport.isEmpty() &&
                            !navigator->exportDiagnostics(QUrl::fromLocalFile(diagnosticsReport))) {
                            qCritical("watchword: could not write the report to %s",
                                      qPrintable(diagnosticsReport));
                            QCoreApplication::exit(1);
                            return;
                        }
                        const bool saved = window->grabWindow().save(file, "PNG");
                        if (!saved)
                            qCritical("watchword: could not write the screenshot to %s",
                                      qPrintable(file));
                        QCoreApplication::exit(saved ? 0 : 1);
                    });
                settle->start();
            });
        QObject::connect(controller, &watchword::app::VaultController::stateChanged, window,
                         &QQuickWindow::update);
    }

    if (options.isSet(windowSize)) {
        const QStringList size = options.value(windowSize).split(QLatin1Char('x'));
        if (size.size() != 2 || size[0].toInt() <= 0 || size[1].toInt() <= 0) {
            std::fputs("watchword: --window-size takes <width>x<height>, such as 900x640\n",
                       stderr);
            return 2;
        }
        root->resize(size[0].toInt(), size[1].toInt());
    }
    if (timing)
        QObject::connect(&app, &QCoreApplication::aboutToQuit, timing.get(), [&timing] {
            if (!timing->finish())
                qCritical("watchword: could not write the timing file");
        });
    if (options.isSet(unlockStdin))
        watchword::app::unlockAfterFirstFrame(root, vault, timing.get());
    if (options.isSet(quitAfter))
        QTimer::singleShot(int(options.value(quitAfter).toDouble() * 1000), &app,
                           &QCoreApplication::quit);
    return QGuiApplication::exec();
}
