// Qt Quick Test runner. The setup gives the QML views a self-test report
// with a known failure, so the tests can check what the user is told.
#include "AppSettings.h"
#include "SelfTestModel.h"
#include "Theme.h"

#include <QQmlContext>
#include <QQmlEngine>
#include <QTemporaryDir>
#include <QtQml/qqmlextensionplugin.h>
#include <QtQuickTest>
#include <chrono>

Q_IMPORT_QML_PLUGIN(Watchword_AppPlugin)
Q_IMPORT_QML_PLUGIN(Watchword_UiPlugin)

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
        // Settings in a file of their own, never the user's (`testSettings`),
        // and the theme that follows them (`testTheme`).
        if (!m_settings)
            m_settings = std::make_unique<watchword::app::AppSettings>(
                m_settingsDir.filePath(QStringLiteral("watchword.conf")));
        engine->rootContext()->setContextProperty(QStringLiteral("testSettings"), m_settings.get());
        if (!m_theme)
            m_theme = std::make_unique<watchword::app::Theme>(m_settings.get());
        engine->rootContext()->setContextProperty(QStringLiteral("testTheme"), m_theme.get());
    }

private:
    std::unique_ptr<watchword::app::SelfTestModel> m_model;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<watchword::app::AppSettings> m_settings;
    std::unique_ptr<watchword::app::Theme> m_theme;
};

QUICK_TEST_MAIN_WITH_SETUP(watchword, Setup)
#include "main.moc"
