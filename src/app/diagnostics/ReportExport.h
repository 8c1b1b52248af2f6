// The report of the results (DiagnosticsController::report()) written out:
// to a file as Markdown, JSON or HTML (perf's renderers, the same as
// watchword-cli bench), or to the clipboard as Markdown. It also says what
// the export dialog offers for a format: the file name, its suffix and filter.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class DiagnosticsController;

class ReportExport : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the reports belong to the DiagnosticsController")

public:
    explicit ReportExport(DiagnosticsController& diagnostics);

    // Writes the report as "markdown", "json" or "html" to fileUrl (a file://
    // URL or a path), atomically: a failed write leaves an older file as it was.
    Q_INVOKABLE bool exportTo(const QString& format, const QUrl& fileUrl);
    // Puts the Markdown report (the table under its machine line) on the clipboard.
    Q_INVOKABLE bool copyTable();
    // Where the export dialog opens: the folder of the last export, or the
    // documents folder.
    Q_INVOKABLE QUrl exportFolder() const;
    // suggestedFileName(format) in exportFolder().
    Q_INVOKABLE QUrl suggestedFile(const QString& format) const;
    // A format's file suffix ("md", "json", "html") and the dialog's filter
    // ("Markdown (*.md)"); an unknown format reads as Markdown.
    Q_INVOKABLE QString fileSuffix(const QString& format) const;
    Q_INVOKABLE QStringList nameFilters(const QString& format) const;

    // A file name for an export: "watchword-bench-<date>.md".
    QString suggestedFileName(const QString& format) const;

signals:
    void exported(const QString& path);

private:
    DiagnosticsController& m_diagnostics;
    QString m_lastExportFolder;
};

} // namespace watchword::app
