// Qt Quick Test runner. The setup gives the QML views a self-test report
// with a known failure, so the tests can check what the user is told, and
// Diagnostics controllers that run a few quick fake benchmarks.
#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/AppSettings.h"
#include "app/desktop/ClipboardService.h"
#include "app/desktop/Theme.h"
#include "app/diagnostics/AppMetrics.h"
#include "app/diagnostics/DiagnosticsController.h"
#include "app/diagnostics/SelfTestModel.h"
#include "app/notes/NoteStore.h"
#include "app/vault/UndoHistory.h"
#include "app/vault/VaultController.h"
#include "perf/Comparisons.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QQmlContext>
#include <QQmlEngine>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtQml/qqmlextensionplugin.h>
#include <QtQuickTest>
#include <chrono>

Q_IMPORT_QML_PLUGIN(Watchword_AppPlugin)
Q_IMPORT_QML_PLUGIN(Watchword_UiPlugin)

namespace {

using namespace std::chrono_literals;
namespace perf = watchword::perf;

// A benchmark whose iteration spins `work` rounds of a loop the optimizer
// must keep.
perf::Benchmark spinning(std::string name, std::uint64_t work)
{
    perf::Benchmark benchmark;
    benchmark.name = std::move(name);
    benchmark.description = "Spins a small loop (a stand-in for the tests).";
    benchmark.prepare = [work] {
        return perf::prepared(perf::loop([work] {
            std::uint64_t x = 0;
            for (std::uint64_t i = 0; i < work; ++i) {
                x += i * 0x9e3779b97f4a7c15ULL;
                perf::keep(x);
            }
        }));
    };
    return benchmark;
}

// Fast fakes: two plain ones, a pair named as the first comparison with a
// reference (so a ratio and a chart bar appear) and one that fails.
std::vector<perf::Benchmark> fakeBenchmarks()
{
    std::vector<perf::Benchmark> benchmarks{spinning("fake/fast", 200),
                                            spinning("fake/slower", 2000)};
    for (const auto& comparison : perf::comparisons()) {
        if (comparison.reference.empty())
            continue;
        benchmarks.push_back(spinning(comparison.subject, 500));
        benchmarks.push_back(spinning(comparison.reference, 1500));
        break;
    }
    perf::Benchmark failing;
    failing.name = "fake/failing";
    failing.description = "Cannot be prepared.";
    failing.prepare = [] {
        return perf::notPrepared("no such key");
    };
    benchmarks.push_back(std::move(failing));
    return benchmarks;
}

// 5 samples, 10 ms warm-up, 20 ms of measurement, 200 resamples.
perf::Profile tinyProfile()
{
    return {"tiny", 5, 10ms, 20ms, 200, {}};
}

// A warm-up of an hour: the run goes on until it is cancelled.
perf::Profile endlessProfile()
{
    return {"endless", 5, 3600s, 20ms, 200, {}};
}

} // namespace

// The notes page's vault: an in-memory demo session and its notes, made
// anew by reset() (ready once the session is Unlocked).
class NotesFixture : public QObject
{
    Q_OBJECT
    Q_PROPERTY(watchword::app::VaultController* vault READ vault NOTIFY changed)
    Q_PROPERTY(watchword::app::NoteStore* notes READ notes NOTIFY changed)

public:
    watchword::app::VaultController* vault() const { return m_vault.get(); }
    watchword::app::NoteStore* notes() const { return m_notes.get(); }

    Q_INVOKABLE void reset()
    {
        m_notes.reset();
        m_vault = watchword::app::VaultController::makeDemo();
        m_notes = std::make_unique<watchword::app::NoteStore>(*m_vault);
        emit changed();
    }
    // The deletions a test made to start from its own notes are not undone.
    Q_INVOKABLE void forgetUndo() { m_vault->history()->clear(); }

signals:
    void changed();

private:
    std::unique_ptr<watchword::app::VaultController> m_vault;
    std::unique_ptr<watchword::app::NoteStore> m_notes;
};

class Setup : public QObject
{
    Q_OBJECT

public slots:
    void qmlEngineAvailable(QQmlEngine* engine)
    {
        // The static QML modules live under qrc:/<URI path>.
        engine->addImportPath(QStringLiteral("qrc:/"));
        using namespace std::chrono_literals;
        watchword::selftest::Report report;
        report.outcomes = {{"HMAC-SHA1 (RFC 2202 case 2)", true, 12us},
                           {"AES-256-CBC (injected failure)", false, 7us},
                           {"HKDF-SHA256 (RFC 5869 A.1)", true, 3us}};
        report.duration = 22us;
        m_model = std::make_unique<watchword::app::SelfTestModel>(std::move(report));
        watchword::app::SelfTestModel::setInstance(m_model.get());
        // The app's own figures, as main() makes them: nothing is wired, so
        // only the memory is ever measured.
        if (!m_metrics) {
            QElapsedTimer sinceStart;
            sinceStart.start();
            m_metrics = std::make_unique<watchword::app::AppMetrics>(sinceStart);
        }
        watchword::app::AppMetrics::setInstance(m_metrics.get());
        // Settings in a file of their own, never the user's (`testSettings`),
        // and the theme that follows them (`testTheme`).
        if (!m_settings)
            m_settings = std::make_unique<watchword::app::AppSettings>(
                m_settingsDir.filePath(QStringLiteral("watchword.conf")));
        engine->rootContext()->setContextProperty(QStringLiteral("testSettings"), m_settings.get());
        if (!m_theme)
            m_theme = std::make_unique<watchword::app::Theme>(m_settings.get());
        engine->rootContext()->setContextProperty(QStringLiteral("testTheme"), m_theme.get());
        // Diagnostics on fake benchmarks (`testDiagnostics`), baselines in a
        // folder of their own, and one whose run lasts until it is cancelled
        // (`testEndlessDiagnostics`).
        if (!m_diagnostics) {
            m_diagnostics = std::make_unique<watchword::app::DiagnosticsController>();
            m_diagnostics->setBenchmarks(fakeBenchmarks());
            m_diagnostics->run()->setCustomProfile(tinyProfile());
            m_diagnostics->baselines()->setDirectory(m_baselineDir.path());
            m_endlessDiagnostics = std::make_unique<watchword::app::DiagnosticsController>();
            m_endlessDiagnostics->setBenchmarks({spinning("fake/endless", 100)});
            m_endlessDiagnostics->run()->setCustomProfile(endlessProfile());
            m_endlessDiagnostics->baselines()->setDirectory(m_baselineDir.path());
        }
        engine->rootContext()->setContextProperty(QStringLiteral("testDiagnostics"),
                                                  m_diagnostics.get());
        engine->rootContext()->setContextProperty(QStringLiteral("testEndlessDiagnostics"),
                                                  m_endlessDiagnostics.get());
        // The watch simulator's page: the demo vault (unlocked on a worker;
        // the tests wait for it) on a clock that stands still at a time of
        // their choosing (`testWatchVault`, `testWatchClock`), and the
        // shipped device profiles (`testWatchDevices`, with the ids of its
        // *.json files read here in `testWatchDeviceFiles`).
        if (!m_watchVault) {
            m_watchClock.setMilliseconds(1'800'000'007'000);
            m_watchVault = watchword::app::VaultController::makeDemo();
            m_watchAccounts = std::make_unique<watchword::app::AccountStore>(
                *m_watchVault, m_watchClock, m_watchClipboard);
        }
        const QString devices = QStringLiteral(WATCHWORD_SHIPPED_DEVICES_DIR);
        QStringList deviceFiles;
        for (const auto& file :
             QDir(devices).entryInfoList({QStringLiteral("*.json")}, QDir::Files))
            deviceFiles << file.completeBaseName();
        engine->rootContext()->setContextProperty(QStringLiteral("testWatchVault"),
                                                  m_watchVault.get());
        engine->rootContext()->setContextProperty(QStringLiteral("testWatchAccounts"),
                                                  m_watchAccounts.get());
        engine->rootContext()->setContextProperty(QStringLiteral("testWatchClock"), &m_watchClock);
        engine->rootContext()->setContextProperty(QStringLiteral("testWatchDevices"), devices);
        engine->rootContext()->setContextProperty(QStringLiteral("testWatchDeviceFiles"),
                                                  deviceFiles);
        // Import and export: a demo vault of their own that they may add to
        // (`testImportVault`), the real export files of tests/data/import
        // (`testImportData`) and a folder to write exports in (`testExportDir`).
        if (!m_importVault) {
            m_importVault = watchword::app::VaultController::makeDemo();
            m_importAccounts = std::make_unique<watchword::app::AccountStore>(
                *m_importVault, m_importClock, m_importClipboard);
        }
        engine->rootContext()->setContextProperty(QStringLiteral("testImportVault"),
                                                  m_importVault.get());
        engine->rootContext()->setContextProperty(QStringLiteral("testImportAccounts"),
                                                  m_importAccounts.get());
        // The notes page: a vault of its own for each test
        // (`testNotesFixture`).
        engine->rootContext()->setContextProperty(QStringLiteral("testNotesFixture"),
                                                  &m_notesFixture);
        engine->rootContext()->setContextProperty(QStringLiteral("testImportData"),
                                                  QStringLiteral(WATCHWORD_IMPORT_DATA_DIR));
        engine->rootContext()->setContextProperty(QStringLiteral("testExportDir"),
                                                  m_exportDir.path());
    }

private:
    std::unique_ptr<watchword::app::SelfTestModel> m_model;
    std::unique_ptr<watchword::app::AppMetrics> m_metrics;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<watchword::app::AppSettings> m_settings;
    std::unique_ptr<watchword::app::Theme> m_theme;
    QTemporaryDir m_baselineDir;
    std::unique_ptr<watchword::app::DiagnosticsController> m_diagnostics;
    std::unique_ptr<watchword::app::DiagnosticsController> m_endlessDiagnostics;
    watchword::app::Clock m_watchClock;
    watchword::app::ClipboardService m_watchClipboard;
    std::unique_ptr<watchword::app::VaultController> m_watchVault;
    std::unique_ptr<watchword::app::AccountStore> m_watchAccounts;
    watchword::app::Clock m_importClock;
    watchword::app::ClipboardService m_importClipboard;
    std::unique_ptr<watchword::app::VaultController> m_importVault;
    std::unique_ptr<watchword::app::AccountStore> m_importAccounts;
    NotesFixture m_notesFixture;
    QTemporaryDir m_exportDir;
};

int main(int argc, char** argv)
{
    // Settings that the views keep with QSettings (the watch simulator's
    // measured values and device) in a folder of their own, never the
    // user's: fixed before the first QSettings is made.
    QTemporaryDir settingsDir;
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    // Qt Charts draws with the Graphics View framework, which needs a
    // QApplication (under a QGuiApplication a ChartView crashes), so the
    // runner makes one before Qt Quick Test would make a QGuiApplication.
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("WatchwordTests"));
    QApplication::setApplicationName(QStringLiteral("TestQml"));
    QTEST_SET_MAIN_SOURCE_PATH
    Setup setup;
    return quick_test_main_with_setup(argc, argv, "watchword", nullptr, &setup);
}
#include "main.moc"
