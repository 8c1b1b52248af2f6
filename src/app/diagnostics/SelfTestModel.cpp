#include "app/diagnostics/SelfTestModel.h"

#include <QJSEngine>
#include <QQmlEngine>

namespace watchword::app {

namespace {
SelfTestModel* g_instance = nullptr;
}

SelfTestModel::SelfTestModel(selftest::Report report, QObject* parent)
    : QAbstractListModel(parent), m_report(std::move(report))
{}

void SelfTestModel::setInstance(SelfTestModel* instance)
{
    g_instance = instance;
}

SelfTestModel* SelfTestModel::create(QQmlEngine*, QJSEngine*)
{
    Q_ASSERT(g_instance != nullptr);
    // main() owns it; QML must not delete it.
    QJSEngine::setObjectOwnership(g_instance, QJSEngine::CppOwnership);
    return g_instance;
}

int SelfTestModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_report.outcomes.size());
}

QVariant SelfTestModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& outcome = m_report.outcomes[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case NameRole:
        return QString::fromStdString(outcome.name);
    case PassedRole:
        return outcome.passed;
    case MicrosecondsRole:
        return std::chrono::duration<double, std::micro>(outcome.duration).count();
    default:
        return {};
    }
}

QHash<int, QByteArray> SelfTestModel::roleNames() const
{
    return {{NameRole, "name"}, {PassedRole, "passed"}, {MicrosecondsRole, "microseconds"}};
}

QString SelfTestModel::failingTest() const
{
    const auto* failure = m_report.firstFailure();
    return failure ? QString::fromStdString(failure->name) : QString();
}

double SelfTestModel::totalMilliseconds() const
{
    return std::chrono::duration<double, std::milli>(m_report.duration).count();
}

} // namespace watchword::app
