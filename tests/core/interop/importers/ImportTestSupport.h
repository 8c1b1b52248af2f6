// What the importer tests share: the files of tests/data/import, edited in
// memory, and the error-case table that imports each row and expects one
// error code.
#pragma once

#include "common/TestSupport.h"
#include "interop/importers/Import.h"

#include <QFile>
#include <QHash>
#include <QtTest>
#include <optional>
#include <string_view>

Q_DECLARE_METATYPE(watchword::importers::Format)
Q_DECLARE_METATYPE(watchword::importers::ImportError)

namespace watchword::test {

// tests/data/import/<relative>; a file that cannot be read stops the run.
inline QByteArray readFile(const QString& relative)
{
    QFile file(dataPath(QStringLiteral("import/") + relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("test data %s: %s", qPrintable(file.fileName()), qPrintable(file.errorString()));
    return file.readAll();
}

// The format of a file of tests/data/import, from its folder (an app's internal database, by
// its extension).
inline importers::Format formatOfTestFile(const QString& file)
{
    if (file.endsWith(QLatin1String(".sqlite")))
        return importers::Format::GoogleAuthenticatorDb;
    const QString folder = file.section(QLatin1Char('/'), 0, 0);
    static const QHash<QString, importers::Format> folders = {
        {QStringLiteral("otpauth_list"), importers::Format::OtpauthList},
        {QStringLiteral("aegis"), importers::Format::Aegis},
        {QStringLiteral("2fas"), importers::Format::TwoFas},
        {QStringLiteral("andotp"), importers::Format::AndOtp},
        {QStringLiteral("freeotp_plus"), importers::Format::FreeOtpPlus},
        {QStringLiteral("freeotp"), importers::Format::FreeOtp},
        {QStringLiteral("bitwarden"), importers::Format::Bitwarden},
        {QStringLiteral("authenticator_pro"), importers::Format::AuthenticatorPro},
        {QStringLiteral("proton_authenticator"), importers::Format::ProtonAuthenticator},
        {QStringLiteral("lastpass"), importers::Format::LastPass},
        {QStringLiteral("ente"), importers::Format::Ente},
        {QStringLiteral("keepass"), importers::Format::KeePass},
        {QStringLiteral("steam"), importers::Format::Steam},
        {QStringLiteral("winauth"), importers::Format::WinAuth},
        {QStringLiteral("raivo"), importers::Format::Raivo},
        // Authenticator Plus's export is WinAuth's kind of archive.
        {QStringLiteral("authenticator_plus"), importers::Format::WinAuth},
    };
    if (!folders.contains(folder))
        qFatal("EXPECTED.json names a file in an unknown folder: %s", qPrintable(file));
    return folders.value(folder);
}

// data with the first "from" replaced by "to"; a "from" the file does not
// hold stops the run (the case would test nothing).
inline QByteArray edited(const QByteArray& data, const QByteArray& from, const QByteArray& to)
{
    QByteArray out = data;
    const qsizetype at = out.indexOf(from);
    if (at < 0)
        qFatal("the data does not contain %s", from.constData());
    return out.replace(at, from.size(), to);
}

inline QByteArray edited(const QString& relative, const QByteArray& from, const QByteArray& to)
{
    return edited(readFile(relative), from, to);
}

inline QByteArray truncated(const QString& relative)
{
    const QByteArray data = readFile(relative);
    return data.left(data.size() / 2);
}

// The columns of an error-case table: what to import, the password (null:
// none given) and the error code expected.
inline void addImportErrorColumns()
{
    QTest::addColumn<importers::Format>("format");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QByteArray>("password"); // null: none given
    QTest::addColumn<importers::ImportError>("expected");
}

// Imports the current row of such a table: it must fail with the expected
// code and a message, one that starts with messagePrefix (if given) and
// never carries a secret (the first entry's of the test files, in Base32).
inline void verifyImportError(std::string_view messagePrefix = {})
{
    QFETCH(importers::Format, format);
    QFETCH(QByteArray, data);
    QFETCH(QByteArray, password);
    QFETCH(importers::ImportError, expected);
    std::optional<ByteView> given;
    if (!password.isNull())
        given = view(password);
    const auto result = importers::importAccounts(format, view(data), given);
    QVERIFY2(!result.ok(), "imported");
    QVERIFY2(result.error().code == expected, result.error().message.c_str());
    QVERIFY(!result.error().message.empty());
    if (!messagePrefix.empty())
        QVERIFY2(result.error().message.starts_with(messagePrefix), result.error().message.c_str());
    QVERIFY(result.error().message.find("4SJHB4GSD43FZBAI7C2HLRJGPQ") == std::string::npos);
}

} // namespace watchword::test
