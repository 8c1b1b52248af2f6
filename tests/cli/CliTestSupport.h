// Helpers shared by the tests that drive the real watchword-cli binary: run
// it with QProcess, and check the shapes its output must have.
#pragma once

#include "common/TestSupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

namespace watchword::test {

inline const QString cliPath = QStringLiteral(WATCHWORD_CLI);

struct Outcome
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs the CLI with args (and environment), writes input to its stdin and
// closes it; stdout goes to stdoutFile instead of the test if one is given. A crash or a hang is a
// test failure, reported through QTest state (callers check currentTestFailed).
inline Outcome
runCli(const QStringList& args, const QByteArray& input = {}, const QString& stdoutFile = {},
       const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    // Output goes to files, not pipes: reading a pipe of a process that has
    // just exited lost its output once in a few thousand runs.
    QTemporaryDir outputs;
    const QString outPath =
        stdoutFile.isEmpty() ? outputs.filePath(QStringLiteral("out")) : stdoutFile;
    const QString errPath = outputs.filePath(QStringLiteral("err"));
    QProcess process;
    process.setProgram(cliPath);
    process.setArguments(args);
    process.setProcessEnvironment(environment);
    process.setStandardOutputFile(outPath);
    process.setStandardErrorFile(errPath);
    process.start();
    Outcome outcome;
    if (!process.waitForStarted(30000)) {
        QTest::qFail(
            qPrintable(
                QStringLiteral("could not start %1: %2").arg(cliPath, process.errorString())),
            __FILE__, __LINE__);
        return outcome;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        QTest::qFail("watchword-cli did not finish within 60 s", __FILE__, __LINE__);
        return outcome;
    }
    if (stdoutFile.isEmpty())
        outcome.out = readBytes(outPath);
    outcome.err = readBytes(errPath);
    if (process.exitStatus() != QProcess::NormalExit) {
        QTest::qFail(qPrintable(QStringLiteral("watchword-cli crashed; stderr: ") +
                                QString::fromUtf8(outcome.err)),
                     __FILE__, __LINE__);
        return outcome;
    }
    outcome.exitCode = process.exitCode();
    return outcome;
}

inline QString describe(const Outcome& outcome)
{
    return QStringLiteral("exit %1, stdout [%2], stderr [%3]")
        .arg(outcome.exitCode)
        .arg(QString::fromUtf8(outcome.out), QString::fromUtf8(outcome.err));
}

// Exit 2, nothing on stdout, exactly one line on stderr: "watchword-cli: <message>".
inline void verifyUsageError(const Outcome& outcome)
{
    const QByteArray prefix = "watchword-cli: ";
    QVERIFY2(outcome.exitCode == 2, qPrintable(describe(outcome)));
    QVERIFY2(outcome.out.isEmpty(), qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.startsWith(prefix), qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.endsWith('\n') && outcome.err.count('\n') == 1,
             qPrintable(describe(outcome)));
    QVERIFY2(outcome.err.size() > prefix.size() + 10,
             qPrintable(describe(outcome))); // a real message
}

// Exit 0, nothing on stderr, exactly one line on stdout; returns it.
inline QByteArray verifySuccessLine(const Outcome& outcome)
{
    [&] {
        QVERIFY2(outcome.exitCode == 0, qPrintable(describe(outcome)));
        QVERIFY2(outcome.err.isEmpty(), qPrintable(describe(outcome)));
        QVERIFY2(outcome.out.endsWith('\n') && outcome.out.count('\n') == 1,
                 qPrintable(describe(outcome)));
    }();
    return outcome.out.chopped(outcome.out.isEmpty() ? 0 : 1);
}

inline QJsonObject parseJsonObject(const QByteArray& text)
{
    QJsonParseError error;
    const auto document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        QTest::qFail(qPrintable(QStringLiteral("not a JSON object (%1): %2")
                                    .arg(error.errorString(), QString::fromUtf8(text))),
                     __FILE__, __LINE__);
        return {};
    }
    return document.object();
}

inline QString jsonText(const QJsonValue& value)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
}

} // namespace watchword::test
