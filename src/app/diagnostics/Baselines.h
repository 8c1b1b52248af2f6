// Saved baselines: the results kept under a name (perf's baseline files, by
// default in watchword/baselines under the XDG data folder), and the results
// compared with one of them. The comparison's bootstrap runs on a
// WorkerThread; its changes and verdicts reach the results, and the report
// names the baseline.
#pragma once

#include "app/diagnostics/WorkerThread.h"
#include "stats/Estimates.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <map>
#include <string>

namespace watchword::app {

class DiagnosticsController;

class Baselines : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the baselines belong to the DiagnosticsController")
    Q_PROPERTY(QString directory READ directory WRITE setDirectory NOTIFY directoryChanged)
    // The baselines saved there, by name.
    Q_PROPERTY(QStringList names READ names NOTIFY namesChanged)
    // The baseline the results are compared with; "" for none.
    Q_PROPERTY(QString comparedWith READ comparedWith NOTIFY comparedWithChanged)
    // A comparison is being worked out.
    Q_PROPERTY(bool comparing READ comparing NOTIFY comparingChanged)

public:
    explicit Baselines(DiagnosticsController& diagnostics);
    ~Baselines() override;

    const QString& directory() const { return m_directory; }
    void setDirectory(const QString& directory);
    const QStringList& names() const { return m_names; }
    const QString& comparedWith() const { return m_comparedWith; }
    bool comparing() const { return m_comparing; }
    // The comparison's changes by benchmark name (empty: none).
    const std::map<std::string, stats::Change>& changes() const { return m_changes; }

    Q_INVOKABLE bool isValidName(const QString& name) const;
    Q_INVOKABLE void refresh();
    // Saves the measured results as baseline name (replacing one of that name).
    Q_INVOKABLE bool save(const QString& name);
    // Compares the results with baseline name on the worker; the results'
    // changes and verdicts, and comparedWith, follow when it is done
    // (comparisonFinished). False (and error set) if it cannot start.
    Q_INVOKABLE bool compareWith(const QString& name);
    Q_INVOKABLE void clearComparison();

    // The results are new (a run began): they are compared with nothing.
    void forgetComparison();

signals:
    void directoryChanged();
    void namesChanged();
    void comparedWithChanged();
    void comparingChanged();
    void saved(const QString& name);
    void comparisonFinished();

private:
    void compared(QString name, std::map<std::string, stats::Change> changes);
    void setComparedWith(QString name);
    void setComparing(bool comparing);

    DiagnosticsController& m_diagnostics;
    QString m_directory;
    QStringList m_names;
    QString m_comparedWith;
    bool m_comparing = false;
    std::map<std::string, stats::Change> m_changes;
    // Last: joined before the rest goes.
    WorkerThread m_worker;
};

} // namespace watchword::app
