// Writes what independent_aegis.py checks: the test accounts as an encrypted
// Aegis export (aegis.json) and as a Watchword backup (backup.wwbackup),
// both under the password read from standard input, and the accounts
// themselves (expected.json), taken from the input, not from the exports.
//
// Usage: export_sample DIR < password
#include "ExportTestSupport.h"
#include "interop/BackupFormat.h"
#include "interop/exporters/Export.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <iostream>
#include <string>

using namespace watchword;

namespace {

bool write(const QString& path, const QByteArray& data)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size()) {
        std::fprintf(stderr, "export_sample: cannot write %s\n", qPrintable(path));
        return false;
    }
    return true;
}

QJsonObject describe(const vault::OtpAccount& account)
{
    const auto& parameters = account.parameters;
    QJsonObject out;
    out["issuer"] = QString::fromStdString(account.issuer);
    out["name"] = QString::fromStdString(account.accountName);
    out["secret_hex"] =
        QString::fromLatin1(QByteArray(reinterpret_cast<const char*>(account.secret.data()),
                                       static_cast<qsizetype>(account.secret.size()))
                                .toHex());
    out["type"] = QString::fromLatin1(otp::kindName(parameters.kind));
    out["algo"] = parameters.algorithm == crypto::HashAlgorithm::Sha1     ? "SHA1"
                  : parameters.algorithm == crypto::HashAlgorithm::Sha256 ? "SHA256"
                                                                          : "SHA512";
    out["digits"] = parameters.digits;
    if (parameters.isTimeBased())
        out["period"] = static_cast<qint64>(parameters.period);
    else
        out["counter"] = QString::number(parameters.counter); // beyond a double's precision
    QJsonArray tags;
    for (const auto& tag : account.tags)
        tags.append(QString::fromStdString(tag));
    out["tags"] = tags;
    out["note"] = QString::fromStdString(account.note);
    out["created"] = static_cast<qint64>(account.created);
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: export_sample DIR < password\n");
        return 2;
    }
    const QString dir = QString::fromLocal8Bit(argv[1]);
    std::string password;
    std::getline(std::cin, password);
    if (password.empty()) {
        std::fprintf(stderr, "export_sample: no password on standard input\n");
        return 2;
    }
    const auto accounts = test::sampleAccounts();
    exporters::ExportOptions options;
    options.password = asBytes(password);
    options.backupIterations = interop::backup::minimumIterations;
    options.now = 1767225600;

    QJsonArray expected;
    for (const auto& account : accounts)
        expected.append(describe(account));
    if (!write(dir + "/expected.json", QJsonDocument(expected).toJson()))
        return 1;
    const struct
    {
        exporters::ExportFormat format;
        const char* file;
    } outputs[] = {{exporters::ExportFormat::AegisEncrypted, "/aegis.json"},
                   {exporters::ExportFormat::WatchwordBackup, "/backup.wwbackup"}};
    for (const auto& output : outputs) {
        const auto exported =
            exporters::exportAccounts(output.format, accounts, options, crypto::systemRandom());
        if (!exported) {
            std::fprintf(stderr, "export_sample: %s\n", exported.error().message.c_str());
            return 1;
        }
        const QByteArray data(reinterpret_cast<const char*>(exported->data.data()),
                              static_cast<qsizetype>(exported->data.size()));
        if (!write(dir + output.file, data))
            return 1;
    }
    return 0;
}
