#include "app/diagnostics/ReportExport.h"

#include "app/diagnostics/DiagnosticsController.h"
#include "perf/Report.h"

#include <QClipboard>
#include <QDate>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QSaveFile>
#include <QStandardPaths>
#include <array>
#include <string>

namespace watchword::app {

namespace {

// The formats a report is exported in: the name callers use, the file's
// suffix, the export dialog's filter (translated) and perf's renderer.
struct Format
{
    QLatin1String name;
    QLatin1String suffix;
    const char* filter;
    std::string (*render)(const perf::Report&);
};

const std::array<Format, 3> formats{{
    {QLatin1String("markdown"), QLatin1String("md"),
     QT_TRANSLATE_NOOP("watchword::app::ReportExport", "Markdown (*.md)"), &perf::markdownReport},
    {QLatin1String("json"), QLatin1String("json"),
     QT_TRANSLATE_NOOP("watchword::app::ReportExport", "JSON (*.json)"), &perf::jsonReport},
    {QLatin1String("html"), QLatin1String("html"),
     QT_TRANSLATE_NOOP("watchword::app::ReportExport", "Web page (*.html)"), &perf::htmlReport},
}};

const Format* formatNamed(const QString& name)
{
    for (const Format& format : formats) {
        if (name == format.name)
            return &format;
    }
    return nullptr;
}

// What the export dialog offers for name: Markdown unless it names another.
const Format& dialogFormat(const QString& name)
{
    const Format* format = formatNamed(name);
    return format != nullptr ? *format : formats.front();
}

} // namespace

ReportExport::ReportExport(DiagnosticsController& diagnostics)
    : QObject(&diagnostics), m_diagnostics(diagnostics)
{}

bool ReportExport::exportTo(const QString& formatName, const QUrl& fileUrl)
{
    const QString path = fileUrl.isLocalFile() ? fileUrl.toLocalFile() : fileUrl.path();
    if (path.isEmpty() || (!fileUrl.isLocalFile() && !fileUrl.scheme().isEmpty())) {
        m_diagnostics.setError(tr("Reports are written to local files only."));
        return false;
    }
    if (m_diagnostics.run()->running()) {
        m_diagnostics.setError(tr("Wait for the run to end before exporting it."));
        return false;
    }
    if (m_diagnostics.results()->measurements().empty()) {
        m_diagnostics.setError(tr("Run the benchmarks first: there is nothing to export yet."));
        return false;
    }
    const Format* format = formatNamed(formatName);
    if (format == nullptr) {
        m_diagnostics.setError(
            tr("There is no report format \"%1\": choose markdown, json or html.").arg(formatName));
        return false;
    }
    const std::string text = format->render(m_diagnostics.report());
    QSaveFile file(path);
    const bool written = file.open(QIODevice::WriteOnly) &&
                         file.write(text.data(), qint64(text.size())) == qint64(text.size()) &&
                         file.commit();
    if (!written) {
        m_diagnostics.setError(
            tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    m_diagnostics.clearError();
    m_lastExportFolder = QFileInfo(path).absolutePath();
    m_diagnostics.setStatusText(tr("Saved the report to %1.").arg(QDir::toNativeSeparators(path)));
    emit exported(path);
    return true;
}

bool ReportExport::copyTable()
{
    if (m_diagnostics.results()->measurements().empty()) {
        m_diagnostics.setError(tr("Run the benchmarks first: there is no table to copy yet."));
        return false;
    }
    QClipboard* clipboard = QGuiApplication::clipboard();
    if (clipboard == nullptr)
        return false;
    clipboard->setText(QString::fromStdString(perf::markdownReport(m_diagnostics.report())));
    m_diagnostics.setStatusText(tr("Copied the table as Markdown."));
    return true;
}

QUrl ReportExport::exportFolder() const
{
    if (!m_lastExportFolder.isEmpty())
        return QUrl::fromLocalFile(m_lastExportFolder);
    QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QDir::homePath();
    return QUrl::fromLocalFile(folder);
}

QUrl ReportExport::suggestedFile(const QString& format) const
{
    return QUrl::fromLocalFile(
        QDir(exportFolder().toLocalFile()).filePath(suggestedFileName(format)));
}

QString ReportExport::fileSuffix(const QString& format) const
{
    return dialogFormat(format).suffix;
}

QStringList ReportExport::nameFilters(const QString& format) const
{
    return {tr(dialogFormat(format).filter)};
}

QString ReportExport::suggestedFileName(const QString& format) const
{
    return QStringLiteral("watchword-bench-%1.%2")
        .arg(QDate::currentDate().toString(Qt::ISODate), fileSuffix(format));
}

} // namespace watchword::app
