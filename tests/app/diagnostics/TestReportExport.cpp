// The report of fake benchmarks' results exported in every format (and
// refused before a run, in an unknown format, to a folder that is not
// there or a remote URL), copied as Markdown, and what the export dialog
// offers for each format.
#include "FakeBenchmarks.h"

#include <QClipboard>
#include <QDate>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace watchword::test;
using watchword::app::ReportExport;

class TestReportExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(keepDataIn(m_dataHome)); }

    void exportsEveryFormat()
    {
        QTemporaryDir out;
        auto controller =
            makeController({spinning("fake/fast", 100), spinning("fake/slower", 500)});
        QVERIFY(!controller->reports()->exportTo(QStringLiteral("json"),
                                                 QUrl::fromLocalFile(out.filePath("early.json"))));
        QVERIFY(runToEnd(*controller));
        QSignalSpy exported(controller->reports(), &ReportExport::exported);

        const QString json = out.filePath(QStringLiteral("report.json"));
        QVERIFY2(controller->reports()->exportTo(QStringLiteral("json"), QUrl::fromLocalFile(json)),
                 qPrintable(controller->error()));
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(jsonFile.readAll(), &parseError);
        QVERIFY2(parseError.error == QJsonParseError::NoError,
                 qPrintable(parseError.errorString()));
        QVERIFY(document.isObject());
        QVERIFY(QString::fromUtf8(document.toJson()).contains(QStringLiteral("fake/slower")));

        const QString html = out.filePath(QStringLiteral("report.html"));
        QVERIFY(controller->reports()->exportTo(QStringLiteral("html"), QUrl::fromLocalFile(html)));
        QFile htmlFile(html);
        QVERIFY(htmlFile.open(QIODevice::ReadOnly));
        QVERIFY(htmlFile.readAll().startsWith("<!DOCTYPE html>"));

        const QString markdown = out.filePath(QStringLiteral("report.md"));
        QVERIFY(controller->reports()->exportTo(QStringLiteral("markdown"),
                                                QUrl::fromLocalFile(markdown)));
        QFile markdownFile(markdown);
        QVERIFY(markdownFile.open(QIODevice::ReadOnly));
        const QByteArray table = markdownFile.readAll();
        QVERIFY(table.contains("| Operation | low | point | high | outliers (mild + severe) |"));
        QVERIFY(table.contains("fake/fast"));
        QCOMPARE(exported.count(), 3);
        // The next export dialog opens where this one saved.
        QCOMPARE(controller->reports()->exportFolder(),
                 QUrl::fromLocalFile(QFileInfo(markdown).absolutePath()));

        QVERIFY(!controller->reports()->exportTo(QStringLiteral("pdf"),
                                                 QUrl::fromLocalFile(out.filePath("report.pdf"))));
        QVERIFY(!controller->error().isEmpty());
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("report.pdf"))));
        QVERIFY(!controller->reports()->exportTo(
            QStringLiteral("json"), QUrl::fromLocalFile(out.filePath("no/such/folder/r.json"))));
        QVERIFY(controller->error().contains(QStringLiteral("Could not write")));
        QVERIFY(!controller->reports()->exportTo(
            QStringLiteral("json"), QUrl(QStringLiteral("https://example.com/r.json"))));

        QVERIFY(controller->reports()->copyTable());
        QVERIFY(QGuiApplication::clipboard()->text().contains(QStringLiteral("| Operation |")));
        QCOMPARE(controller->reports()->suggestedFileName(QStringLiteral("html")).right(5),
                 QStringLiteral(".html"));
    }

    // What the export dialog offers: the suffix and filter of each format
    // (Markdown for one it does not know), a file named for today in the
    // folder it opens.
    void dialogFormats()
    {
        auto controller = makeController({spinning("fake/fast", 100)});
        const auto* reports = controller->reports();
        QCOMPARE(reports->fileSuffix(QStringLiteral("markdown")), QStringLiteral("md"));
        QCOMPARE(reports->fileSuffix(QStringLiteral("json")), QStringLiteral("json"));
        QCOMPARE(reports->fileSuffix(QStringLiteral("html")), QStringLiteral("html"));
        QCOMPARE(reports->fileSuffix(QStringLiteral("pdf")), QStringLiteral("md"));
        QCOMPARE(reports->nameFilters(QStringLiteral("markdown")),
                 QStringList{QStringLiteral("Markdown (*.md)")});
        QCOMPARE(reports->nameFilters(QStringLiteral("json")),
                 QStringList{QStringLiteral("JSON (*.json)")});
        QCOMPARE(reports->nameFilters(QStringLiteral("html")),
                 QStringList{QStringLiteral("Web page (*.html)")});
        QCOMPARE(reports->suggestedFileName(QStringLiteral("json")),
                 QStringLiteral("watchword-bench-%1.json")
                     .arg(QDate::currentDate().toString(Qt::ISODate)));
        const QUrl file = reports->suggestedFile(QStringLiteral("json"));
        QCOMPARE(QFileInfo(file.toLocalFile()).fileName(),
                 reports->suggestedFileName(QStringLiteral("json")));
        QCOMPARE(QUrl::fromLocalFile(QFileInfo(file.toLocalFile()).absolutePath()),
                 reports->exportFolder());
    }

private:
    QTemporaryDir m_dataHome;
};

QTEST_MAIN(TestReportExport)
#include "TestReportExport.moc"
