// The start-up self-test's report as a list model for QML: one row per
// known-answer test, with whether it passed and how long it took.
#pragma once

#include "selftest/SelfTest.h"

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

class QJSEngine;
class QQmlEngine;

namespace watchword::app {

class SelfTestModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(bool passed READ passed CONSTANT)
    Q_PROPERTY(QString failingTest READ failingTest CONSTANT)
    Q_PROPERTY(double totalMilliseconds READ totalMilliseconds CONSTANT)

public:
    enum Role { NameRole = Qt::UserRole + 1, PassedRole, MicrosecondsRole };

    explicit SelfTestModel(selftest::Report report, QObject* parent = nullptr);

    // The QML singleton is the instance main() made after running the test.
    static void setInstance(SelfTestModel* instance);
    static SelfTestModel* create(QQmlEngine* qmlEngine, QJSEngine* jsEngine);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    bool passed() const { return m_report.passed(); }
    QString failingTest() const;
    double totalMilliseconds() const;

private:
    selftest::Report m_report;
};

} // namespace watchword::app
