// Qt Quick Test runner. The setup gives the QML views a self-test report
// with a known failure, so the tests can check what the user is told.
#include "SelfTestModel.h"

#include <QQmlEngine>
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
    }

private:
    std::unique_ptr<watchword::app::SelfTestModel> m_model;
};

QUICK_TEST_MAIN_WITH_SETUP(watchword, Setup)
#include "main.moc"
