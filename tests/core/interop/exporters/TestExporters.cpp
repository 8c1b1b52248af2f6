// The exporters: every format read back through importers::importAccounts
// to the same accounts (what the format keeps of them), what each format
// cannot hold refused or warned about, Google's own transfer codes written
// again byte for byte, and the Watchword backup against its worked example
// (docs/FORMAT.md section 10), a wrong password, changed bytes and its
// bounds.
#include "ExportTestSupport.h"
#include "common/TestSupport.h"
#include "crypto/AesGcm.h"
#include "encoding/Base32.h"
#include "interop/BackupFormat.h"
#include "interop/exporters/Export.h"
#include "interop/importers/Import.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>
#include <QtTest>
#include <limits>
#include <set>

using namespace watchword;
using namespace watchword::exporters;
using importers::Format;
using importers::ImportError;

Q_DECLARE_METATYPE(watchword::exporters::ExportFormat)
Q_DECLARE_METATYPE(watchword::importers::Format)
Q_DECLARE_METATYPE(watchword::importers::ImportError)

namespace {

namespace backup = interop::backup;

const QByteArray password = QByteArrayLiteral("p\xc3\xa4ssword for the export");

QByteArray bytesOf(ByteView bytes)
{
    return QByteArray(reinterpret_cast<const char*>(bytes.data()),
                      static_cast<qsizetype>(bytes.size()));
}

ExportOptions optionsWithPassword()
{
    ExportOptions options;
    options.password = test::view(password);
    options.backupIterations = backup::minimumIterations;
    options.now = 1767225600;
    return options;
}

std::string base32(ByteView bytes)
{
    return std::string(encoding::toBase32(bytes, encoding::Base32Padding::Omit).view());
}

// The top-level varint fields of a migration URI's payload (field number to
// value; the last one wins), and its entries' count.
struct MigrationPayload
{
    std::map<std::uint64_t, std::uint64_t> numbers;
    int entries = 0;
};

std::optional<std::uint64_t> readVarint(const QByteArray& data, qsizetype& at)
{
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64 && at < data.size(); shift += 7) {
        const auto byte = static_cast<std::uint8_t>(data[at++]);
        value |= std::uint64_t{byte & 0x7fu} << shift;
        if ((byte & 0x80) == 0)
            return value;
    }
    return std::nullopt;
}

QByteArray migrationBytes(const QByteArray& uri)
{
    const QByteArray data = uri.mid(uri.indexOf("data=") + 5);
    return QByteArray::fromBase64(QByteArray::fromPercentEncoding(data));
}

MigrationPayload decodeMigration(const QByteArray& uri)
{
    const QByteArray payload = migrationBytes(uri);
    MigrationPayload out;
    qsizetype at = 0;
    while (at < payload.size()) {
        const auto key = readVarint(payload, at);
        if (!key)
            qFatal("bad protobuf key");
        if ((*key & 7) == 2) {
            const auto length = readVarint(payload, at);
            if (!length)
                qFatal("bad protobuf length");
            at += static_cast<qsizetype>(*length);
            if ((*key >> 3) == 1)
                ++out.entries;
        } else {
            const auto value = readVarint(payload, at);
            if (!value)
                qFatal("bad protobuf varint");
            out.numbers[*key >> 3] = *value;
        }
    }
    return out;
}

std::vector<vault::OtpAccount> asAccounts(const importers::Imported& imported)
{
    std::vector<vault::OtpAccount> out;
    for (const auto& account : imported.accounts) {
        vault::OtpAccount copy;
        copy.issuer = account.issuer;
        copy.accountName = account.accountName;
        copy.secret = account.secret.clone();
        copy.parameters = account.parameters;
        copy.tags = account.tags;
        copy.note = account.note;
        out.push_back(std::move(copy));
    }
    return out;
}

// Compares an imported account with the one exported.
void compareAccount(const importers::ImportedAccount& got, const vault::OtpAccount& expected,
                    bool tagsKept, bool noteKept)
{
    QCOMPARE(QString::fromStdString(got.issuer), QString::fromStdString(expected.issuer));
    QCOMPARE(QString::fromStdString(got.accountName), QString::fromStdString(expected.accountName));
    QCOMPARE(bytesOf(got.secret.span()), bytesOf(expected.secret.span()));
    QVERIFY(got.parameters == expected.parameters);
    if (tagsKept)
        QVERIFY(got.tags == expected.tags);
    else // none, or (2FAS) the first as the service's group
        QVERIFY(got.tags.empty() || got.tags == std::vector<std::string>{expected.tags.front()});
    QCOMPARE(QString::fromStdString(got.note),
             tagsKept || noteKept ? QString::fromStdString(expected.note) : QString());
}

// tests/data/<relative>; a file that cannot be read stops the run.
QByteArray fileBytes(const QString& relative)
{
    QFile file(test::dataPath(relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

QJsonObject parseObject(const SecureBuffer& data)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(bytesOf(data.span()), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        qFatal("not a JSON object: %s", qPrintable(error.errorString()));
    return document.object();
}

// The worked example of docs/FORMAT.md section 10.
struct BackupVector
{
    QJsonObject json;
    std::vector<vault::OtpAccount> accounts;
    QByteArray file;
};

BackupVector backupVector()
{
    BackupVector vector;
    vector.json = test::loadJson(QStringLiteral("export/watchword_backup_vector.json"));
    for (const auto value : vector.json.value("accounts").toArray()) {
        const QJsonObject a = value.toObject();
        vault::OtpAccount account;
        account.issuer = a.value("issuer").toString().toStdString();
        account.accountName = a.value("name").toString().toStdString();
        const Bytes secret = test::hex(a.value("secret_hex").toString());
        account.secret = SecureBuffer(secret);
        const int kind = a.value("kind").toInt();
        account.parameters.kind = kind == 1   ? otp::OtpKind::Totp
                                  : kind == 2 ? otp::OtpKind::Hotp
                                              : otp::OtpKind::Steam;
        const int algorithm = a.value("algorithm").toInt();
        account.parameters.algorithm = algorithm == 1   ? crypto::HashAlgorithm::Sha1
                                       : algorithm == 2 ? crypto::HashAlgorithm::Sha256
                                                        : crypto::HashAlgorithm::Sha512;
        account.parameters.digits = a.value("digits").toInt();
        if (kind == 2)
            account.parameters.counter = static_cast<std::uint64_t>(a.value("counter").toInteger());
        else
            account.parameters.period = static_cast<std::uint32_t>(a.value("period").toInt());
        for (const auto tag : a.value("tags").toArray())
            account.tags.push_back(tag.toString().toStdString());
        account.note = a.value("note").toString().toStdString();
        account.iconReference = a.value("icon").toString().toStdString();
        account.created = a.value("created").toInteger();
        account.modified = a.value("modified").toInteger();
        if (!a.value("last_used").isNull())
            account.lastUsed = a.value("last_used").toInteger();
        account.sortPosition = static_cast<std::uint32_t>(a.value("sort_position").toInt());
        vector.accounts.push_back(std::move(account));
    }
    const Bytes file = test::hex(vector.json.value("file_hex").toString());
    vector.file = bytesOf(file);
    return vector;
}

QByteArray vectorPassword(const BackupVector& vector)
{
    return vector.json.value("password").toString().toUtf8();
}

} // namespace

class TestExporters : public QObject
{
    Q_OBJECT

private slots:
    void names();
    void roundTrip_data();
    void roundTrip();
    void refusals();
    void otpauthLabels();
    void aegisLimits();
    void aegisShape();
    void twoFasShape();
    void enteShape();
    void migrationLeftOut();
    void migrationBatches();
    void migrationMatchesGoogle();
    void migrationNamePrefix();
    void backupVector();
    void backupDamaged_data();
    void backupDamaged();
    void backupSealedButBroken_data();
    void backupSealedButBroken();
    void backupBounds();
};

void TestExporters::names()
{
    std::set<std::string_view> seen;
    for (const ExportFormat format : allExportFormats) {
        const std::string_view name = exportFormatName(format);
        QVERIFY(seen.insert(name).second);
        QCOMPARE(exportFormatNamed(name), std::optional<ExportFormat>(format));
        QVERIFY(!exportFormatTitle(format).empty());
        QCOMPARE(exportIsPlaintext(format), !exportNeedsPassword(format));
    }
    QCOMPARE(exportFormatNamed("aegis-plain"), std::optional<ExportFormat>());
    QVERIFY(exportNeedsPassword(ExportFormat::WatchwordBackup));
    QVERIFY(exportNeedsPassword(ExportFormat::AegisEncrypted));
    QVERIFY(exportIsPlaintext(ExportFormat::Aegis));
    QVERIFY(exportIsPlaintext(ExportFormat::OtpauthList));
    QVERIFY(exportIsPlaintext(ExportFormat::GoogleMigration));
}

void TestExporters::roundTrip_data()
{
    QTest::addColumn<ExportFormat>("format");
    QTest::addColumn<Format>("importFormat");
    QTest::addColumn<bool>("tagsKept");
    QTest::addColumn<bool>("noteKept");
    QTest::addColumn<QList<int>>("kept");     // indexes of sampleAccounts() read back, in order
    QTest::addColumn<QList<int>>("warnedOf"); // entries (from 1) a warning names

    const QList<int> all = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    QTest::newRow("watchword-backup") << ExportFormat::WatchwordBackup << Format::WatchwordBackup
                                      << true << true << all << QList<int>{};
    QTest::newRow("aegis") << ExportFormat::Aegis << Format::Aegis << true << true << all
                           << QList<int>{};
    QTest::newRow("aegis-encrypted")
        << ExportFormat::AegisEncrypted << Format::Aegis << true << true << all << QList<int>{};
    // Tags and notes have no place in a URI: accounts 1, 2, 6, 7 warn.
    QTest::newRow("otpauth") << ExportFormat::OtpauthList << Format::OtpauthList << false << false
                             << all << QList<int>{1, 2, 6, 7};
    // 7 and 10 digits, Steam: left out; tags and notes dropped.
    QTest::newRow("google-migration")
        << ExportFormat::GoogleMigration << Format::GoogleMigration << false << false
        << QList<int>{0, 2, 4, 5, 7, 8} << QList<int>{1, 2, 4, 6, 7};
    // One group a service and no notes: entry 1 loses its second tag and its
    // note, entry 6 its note (twoFasShape checks the groups).
    QTest::newRow("2fas") << ExportFormat::TwoFas << Format::TwoFas << false << false << all
                          << QList<int>{1, 6};
    QTest::newRow("ente") << ExportFormat::Ente << Format::Ente << true << true << all
                          << QList<int>{};
}

void TestExporters::roundTrip()
{
    QFETCH(ExportFormat, format);
    QFETCH(Format, importFormat);
    QFETCH(bool, tagsKept);
    QFETCH(bool, noteKept);
    QFETCH(QList<int>, kept);
    QFETCH(QList<int>, warnedOf);

    const auto accounts = test::sampleAccounts();
    test::SeededRandom random(test::testSeed());
    const auto exported = exportAccounts(format, accounts, optionsWithPassword(), random);
    QVERIFY2(exported.ok(), exported ? "" : exported.error().message.c_str());

    // The app preselects the format it was written in.
    const auto guessed = importers::guessFormats(exported->data.span());
    QVERIFY(!guessed.empty());
    QCOMPARE(guessed.front(), importFormat);
    QCOMPARE(importers::isEncrypted(importFormat, exported->data.span()),
             exportNeedsPassword(format));

    std::optional<ByteView> given;
    if (exportNeedsPassword(format))
        given = test::view(password);
    const auto imported = importers::importAccounts(importFormat, exported->data.span(), given);
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    QVERIFY(imported->warnings.empty());
    QCOMPARE(imported->accounts.size(), static_cast<std::size_t>(kept.size()));
    for (qsizetype i = 0; i < kept.size(); ++i)
        compareAccount(imported->accounts[static_cast<std::size_t>(i)],
                       accounts[static_cast<std::size_t>(kept[i])], tagsKept, noteKept);

    QCOMPARE(exported->warnings.size(), static_cast<std::size_t>(warnedOf.size()));
    for (qsizetype i = 0; i < warnedOf.size(); ++i) {
        const std::string& warning = exported->warnings[static_cast<std::size_t>(i)];
        QVERIFY2(warning.find("entry " + std::to_string(warnedOf[i]) + " ") != std::string::npos,
                 warning.c_str());
    }
    for (const auto& warning : exported->warnings)
        for (const auto& account : accounts)
            QVERIFY(warning.find(base32(account.secret.span())) == std::string::npos);

    // An encrypted export holds no secret in clear, and another password
    // does not open it.
    if (exportNeedsPassword(format)) {
        const QByteArray data = bytesOf(exported->data.span());
        for (const auto& account : accounts) {
            QVERIFY(!data.contains(bytesOf(account.secret.span())));
            QVERIFY(!data.contains(QByteArray::fromStdString(base32(account.secret.span()))));
        }
        const QByteArray wrong = QByteArrayLiteral("p\xc3\xa4ssword for the expor");
        const auto refused =
            importers::importAccounts(importFormat, exported->data.span(), test::view(wrong));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ImportError::WrongPassword);
        const auto none = importers::importAccounts(importFormat, exported->data.span());
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, ImportError::PasswordRequired);
    }
}

void TestExporters::refusals()
{
    test::SeededRandom random(test::testSeed());
    for (const ExportFormat format : allExportFormats) {
        const auto empty = exportAccounts(format, {}, optionsWithPassword(), random);
        QVERIFY(!empty.ok());
        QCOMPARE(empty.error().code, ExportError::NothingToExport);
    }
    QCOMPARE(googleMigrationUris({}, random).error().code, ExportError::NothingToExport);

    const auto accounts = test::sampleAccounts();
    for (const ExportFormat format :
         {ExportFormat::WatchwordBackup, ExportFormat::AegisEncrypted}) {
        ExportOptions options = optionsWithPassword();
        options.password.reset();
        auto refused = exportAccounts(format, accounts, options, random);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ExportError::PasswordRequired);
        options.password = ByteView();
        refused = exportAccounts(format, accounts, options, random);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ExportError::PasswordRequired);
    }

    for (const std::uint32_t iterations :
         {0u, backup::minimumIterations - 1, backup::maximumIterations + 1,
          std::numeric_limits<std::uint32_t>::max()}) {
        ExportOptions options = optionsWithPassword();
        options.backupIterations = iterations;
        const auto refused =
            exportAccounts(ExportFormat::WatchwordBackup, accounts, options, random);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ExportError::KdfOutOfBounds);
    }

    // More accounts than any import reads back.
    std::vector<vault::OtpAccount> many;
    for (std::size_t i = 0; i <= interop::maximumImportedAccounts; ++i)
        many.push_back(test::makeAccount("Many", std::to_string(i), "12345678901234567890",
                                         test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    const auto tooMany =
        exportAccounts(ExportFormat::WatchwordBackup, many, optionsWithPassword(), random);
    QVERIFY(!tooMany.ok());
    QCOMPARE(tooMany.error().code, ExportError::NotRepresentable);

    // An account no code can come from is not written in any format.
    std::vector<vault::OtpAccount> invalid;
    invalid.push_back(test::makeAccount("Bad", "digits", "12345678901234567890",
                                        test::totp(crypto::HashAlgorithm::Sha1, 4, 30)));
    for (const ExportFormat format : allExportFormats) {
        const auto refused = exportAccounts(format, invalid, optionsWithPassword(), random);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ExportError::NotRepresentable);
        QVERIFY2(refused.error().message.find("entry 1 (Bad)") != std::string::npos,
                 refused.error().message.c_str());
    }
}

void TestExporters::otpauthLabels()
{
    const QByteArray secret = "12345678901234567890";
    // A ':' in the name: the label cannot hold it.
    std::vector<vault::OtpAccount> colon;
    colon.push_back(test::makeAccount("Example", "a:b", secret,
                                      test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    const auto single = otpauthUriOf(colon.front());
    QVERIFY(!single.ok());
    QCOMPARE(single.error().code, ExportError::NotRepresentable);
    test::SeededRandom random(test::testSeed());
    // In a list it is left out with a warning; with no account left, the
    // export fails, naming it.
    const auto list = exportAccounts(ExportFormat::OtpauthList, colon, {}, random);
    QVERIFY(!list.ok());
    QCOMPARE(list.error().code, ExportError::NotRepresentable);
    QVERIFY2(list.error().message.starts_with(
                 "otpauth: no account can be written as a URI (entry 1 (Example): "),
             list.error().message.c_str());
    std::vector<vault::OtpAccount> mixed;
    mixed.push_back(
        test::makeAccount("Kept", "a", secret, test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    mixed.push_back(colon.front().clone());
    const auto partial = exportAccounts(ExportFormat::OtpauthList, mixed, {}, random);
    QVERIFY2(partial.ok(), partial ? "" : partial.error().message.c_str());
    QCOMPARE(partial->warnings.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(partial->warnings.front()),
             QStringLiteral("entry 2 (Example): the account name contains ':', which an "
                            "otpauth:// label cannot hold; left out"));
    const auto back = importers::importAccounts(Format::OtpauthList, partial->data.span());
    QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
    QCOMPARE(back->accounts.size(), std::size_t{1});
    QCOMPARE(back->accounts.front().issuer, std::string("Kept"));

    // A ':' in the issuer: the issuer parameter alone carries it.
    std::vector<vault::OtpAccount> issuer;
    issuer.push_back(test::makeAccount("Corp: EU", "dana", secret,
                                       test::totp(crypto::HashAlgorithm::Sha256, 8, 45)));
    issuer.push_back(
        test::makeAccount("Plain", "", secret, test::hotp(crypto::HashAlgorithm::Sha1, 6, 7)));
    const auto uri = otpauthUriOf(issuer.front());
    QVERIFY2(uri.ok(), uri ? "" : uri.error().message.c_str());
    QVERIFY(uri->view().starts_with("otpauth://totp/dana?secret="));
    const auto exported = exportAccounts(ExportFormat::OtpauthList, issuer, {}, random);
    QVERIFY(exported.ok());
    QVERIFY(exported->warnings.empty());
    const auto imported = importers::importAccounts(Format::OtpauthList, exported->data.span());
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    QCOMPARE(imported->accounts.size(), std::size_t{2});
    compareAccount(imported->accounts[0], issuer[0], false, false);
    compareAccount(imported->accounts[1], issuer[1], false, false);
    // One URI a line, each as otpauthUriOf writes it.
    QCOMPARE(bytesOf(exported->data.span()).count('\n'), 2);
    QVERIFY(bytesOf(exported->data.span()).startsWith(bytesOf(uri->span()) + '\n'));
}

void TestExporters::aegisLimits()
{
    test::SeededRandom random(test::testSeed());
    std::vector<vault::OtpAccount> period;
    period.push_back(test::makeAccount("Long", "period", "12345678901234567890",
                                       test::totp(crypto::HashAlgorithm::Sha1, 6, 0x80000000u)));
    std::vector<vault::OtpAccount> counter;
    counter.push_back(
        test::makeAccount("Big", "counter", "12345678901234567890",
                          test::hotp(crypto::HashAlgorithm::Sha1, 6, std::uint64_t{1} << 63)));
    for (const ExportFormat format : {ExportFormat::Aegis, ExportFormat::AegisEncrypted}) {
        // Alone, such an account leaves nothing to export.
        for (const auto* accounts : {&period, &counter}) {
            const auto refused = exportAccounts(format, *accounts, optionsWithPassword(), random);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, ExportError::NotRepresentable);
            QVERIFY2(refused.error().message.find(
                         "Aegis can hold none of the accounts (entry 1 (") != std::string::npos,
                     refused.error().message.c_str());
        }
        // Among others, it is left out with a warning, as the other formats do.
        std::vector<vault::OtpAccount> mixed;
        mixed.push_back(test::makeAccount("Kept", "a", "12345678901234567890",
                                          test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
        mixed.push_back(counter.front().clone());
        mixed.push_back(period.front().clone());
        mixed.back().tags = {"only on the left-out account"};
        const auto partial = exportAccounts(format, mixed, optionsWithPassword(), random);
        QVERIFY2(partial.ok(), partial ? "" : partial.error().message.c_str());
        QCOMPARE(partial->warnings.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(partial->warnings[0]),
                 QStringLiteral("entry 2 (Big): the counter is beyond Aegis's limit of 2^63 - 1; "
                                "left out"));
        QCOMPARE(QString::fromStdString(partial->warnings[1]),
                 QStringLiteral("entry 3 (Long): a period of 2147483648 s is beyond Aegis's limit "
                                "of 2^31 - 1; left out"));
        const auto back =
            importers::importAccounts(Format::Aegis, partial->data.span(), test::view(password));
        QVERIFY2(back.ok(), back ? "" : back.error().message.c_str());
        QCOMPARE(back->accounts.size(), std::size_t{1});
        QCOMPARE(back->accounts.front().issuer, std::string("Kept"));
        QVERIFY(back->accounts.front().tags.empty());
    }
    // Icons are not exported: a warning names the account.
    std::vector<vault::OtpAccount> icon;
    icon.push_back(test::makeAccount("Plain", "a", "12345678901234567890",
                                     test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    icon.push_back(test::makeAccount("Iconic", "b", "12345678901234567890",
                                     test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    icon.back().iconReference = "github";
    const auto withIcon = exportAccounts(ExportFormat::Aegis, icon, {}, random);
    QVERIFY(withIcon.ok());
    QCOMPARE(withIcon->warnings.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(withIcon->warnings.front()),
             QStringLiteral("entry 2 (Iconic): the icon is not exported"));

    // The largest values Aegis holds go out and come back.
    period.front().parameters.period = 0x7fffffffu;
    counter.front().parameters.counter = (std::uint64_t{1} << 63) - 1;
    for (const auto* accounts : {&period, &counter}) {
        const auto exported = exportAccounts(ExportFormat::Aegis, *accounts, {}, random);
        QVERIFY2(exported.ok(), exported ? "" : exported.error().message.c_str());
        const auto imported = importers::importAccounts(Format::Aegis, exported->data.span());
        QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
        compareAccount(imported->accounts.front(), accounts->front(), true, true);
    }
}

void TestExporters::aegisShape()
{
    const auto accounts = test::sampleAccounts();
    test::SeededRandom random(test::testSeed());
    const auto plain = exportAccounts(ExportFormat::Aegis, accounts, {}, random);
    QVERIFY(plain.ok());
    const QJsonObject root = parseObject(plain->data);
    QCOMPARE(root.value("version").toInt(), 1);
    QVERIFY(root.value("header").toObject().value("slots").isNull());
    QVERIFY(root.value("header").toObject().value("params").isNull());
    const QJsonObject db = root.value("db").toObject();
    QCOMPARE(db.value("version").toInt(), 3);

    const QRegularExpression uuidV4(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
    QMap<QString, QString> groups;
    for (const auto value : db.value("groups").toArray()) {
        const QJsonObject group = value.toObject();
        QVERIFY(uuidV4.match(group.value("uuid").toString()).hasMatch());
        QVERIFY(!groups.contains(group.value("uuid").toString()));
        groups.insert(group.value("uuid").toString(), group.value("name").toString());
    }
    QCOMPARE(QStringList(groups.values()).size(), 3); // work, 2fa, games
    const QJsonArray entries = db.value("entries").toArray();
    QCOMPARE(entries.size(), static_cast<qsizetype>(accounts.size()));
    std::set<QString> uuids;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonObject entry = entries[i].toObject();
        const auto& account = accounts[static_cast<std::size_t>(i)];
        QVERIFY(uuidV4.match(entry.value("uuid").toString()).hasMatch());
        QVERIFY(uuids.insert(entry.value("uuid").toString()).second);
        QCOMPARE(entry.value("type").toString(),
                 QString::fromLatin1(otp::kindName(account.parameters.kind)));
        QVERIFY(entry.value("icon").isNull());
        QCOMPARE(entry.value("favorite").toBool(true), false);
        const QJsonObject info = entry.value("info").toObject();
        QCOMPARE(info.value("secret").toString().toStdString(), base32(account.secret.span()));
        QCOMPARE(info.value("digits").toInt(), account.parameters.digits);
        QCOMPARE(info.contains("counter"), !account.parameters.isTimeBased());
        QCOMPARE(info.contains("period"), account.parameters.isTimeBased());
        QStringList names;
        for (const auto id : entry.value("groups").toArray()) {
            QVERIFY(groups.contains(id.toString()));
            names << groups.value(id.toString());
        }
        QStringList tags;
        for (const auto& tag : account.tags)
            tags << QString::fromStdString(tag);
        QCOMPARE(names, tags);
    }

    const auto encrypted =
        exportAccounts(ExportFormat::AegisEncrypted, accounts, optionsWithPassword(), random);
    QVERIFY(encrypted.ok());
    const QJsonObject sealed = parseObject(encrypted->data);
    const QJsonObject header = sealed.value("header").toObject();
    const QJsonArray slotList = header.value("slots").toArray();
    QCOMPARE(slotList.size(), 1);
    const QJsonObject slot = slotList[0].toObject();
    QCOMPARE(slot.value("type").toInt(), 1);
    QCOMPARE(slot.value("n").toInt(), 32768);
    QCOMPARE(slot.value("r").toInt(), 8);
    QCOMPARE(slot.value("p").toInt(), 1);
    QCOMPARE(slot.value("salt").toString().size(), 64);
    QCOMPARE(slot.value("key").toString().size(), 64);
    QCOMPARE(slot.value("key_params").toObject().value("nonce").toString().size(), 24);
    QCOMPARE(slot.value("key_params").toObject().value("tag").toString().size(), 32);
    QVERIFY(uuidV4.match(slot.value("uuid").toString()).hasMatch());
    QCOMPARE(header.value("params").toObject().value("nonce").toString().size(), 24);
    QCOMPARE(header.value("params").toObject().value("tag").toString().size(), 32);
    QVERIFY(sealed.value("db").isString());
}

// The 2FAS backup has the members of a real one that 2FAS for Android 5.1
// wrote (tests/data/import/2fas/2fas_authenticator_plain_v4.2fas), at the
// top, in each service and in its otp object: none of ours is unknown to
// 2FAS, and its groups carry each account's first tag.
void TestExporters::twoFasShape()
{
    const auto accounts = test::sampleAccounts();
    test::SeededRandom random(test::testSeed());
    auto options = optionsWithPassword();
    options.now = 1767225600;
    const auto exported = exportAccounts(ExportFormat::TwoFas, accounts, options, random);
    QVERIFY2(exported.ok(), exported ? "" : exported.error().message.c_str());
    const QJsonObject ours = parseObject(exported->data);
    const QJsonObject real =
        QJsonDocument::fromJson(
            fileBytes(QStringLiteral("import/2fas/2fas_authenticator_plain_v4.2fas")))
            .object();
    const auto keysWithin = [](const QJsonObject& object, const QJsonObject& reference) {
        for (const QString& key : object.keys())
            if (!reference.contains(key))
                return key;
        return QString();
    };
    QCOMPARE(keysWithin(ours, real), QString());
    QCOMPARE(ours.value("schemaVersion").toInt(), 4);
    QCOMPARE(ours.value("appOrigin").toString(), QStringLiteral("android"));
    QCOMPARE(ours.value("updatedAt").toInteger(), qint64(1767225600) * 1000);
    const QJsonObject realService = real.value("services").toArray().first().toObject();
    QVERIFY(!realService.isEmpty());
    QJsonObject serviceAllowed = realService;
    serviceAllowed.insert("groupId", QJsonValue()); // in backups with groups
    const QJsonArray services = ours.value("services").toArray();
    QCOMPARE(services.size(), qsizetype(accounts.size()));
    QHash<QString, QString> groupNames;
    for (const auto group : ours.value("groups").toArray())
        groupNames.insert(group.toObject().value("id").toString(),
                          group.toObject().value("name").toString());
    QCOMPARE(groupNames.size(), 2); // "work" and "games", each once
    for (qsizetype i = 0; i < services.size(); ++i) {
        const QJsonObject service = services[i].toObject();
        QCOMPARE(keysWithin(service, serviceAllowed), QString());
        QJsonObject otpAllowed = realService.value("otp").toObject();
        otpAllowed.insert("counter", QJsonValue()); // an HOTP service's
        QCOMPARE(keysWithin(service.value("otp").toObject(), otpAllowed), QString());
        QCOMPARE(service.value("order").toObject().value("position").toInt(), int(i));
        const auto& tags = accounts[std::size_t(i)].tags;
        QCOMPARE(groupNames.value(service.value("groupId").toString()),
                 tags.empty() ? QString() : QString::fromStdString(tags.front()));
    }
    const auto imported = importers::importAccounts(Format::TwoFas, exported->data.span());
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    QCOMPARE(imported->accounts[0].tags, std::vector<std::string>{"work"});
    QCOMPARE(imported->accounts[6].tags, std::vector<std::string>{"games"});
    QCOMPARE(imported->accounts[2].issuer, std::string()); // named after its account
}

// The Ente export is what Ente writes (tests/data/import/ente/
// proton_plain.txt): otpauth URIs whose codeDisplay holds the app's JSON;
// tags and notes go along.
void TestExporters::enteShape()
{
    const auto accounts = test::sampleAccounts();
    test::SeededRandom random(test::testSeed());
    const auto exported =
        exportAccounts(ExportFormat::Ente, accounts, optionsWithPassword(), random);
    QVERIFY2(exported.ok(), exported ? "" : exported.error().message.c_str());
    const QList<QByteArray> lines = bytesOf(exported->data.span()).trimmed().split('\n');
    QCOMPARE(lines.size(), qsizetype(accounts.size()));
    const QUrlQuery first(QUrl::fromEncoded(lines[0]));
    const QJsonObject display =
        QJsonDocument::fromJson(first.queryItemValue("codeDisplay", QUrl::FullyDecoded).toUtf8())
            .object();
    QCOMPARE(display.value("tags").toArray(), QJsonArray({"work", "2fa"}));
    QCOMPARE(display.value("note").toString(), QStringLiteral("backup codes: in the safe"));
    QCOMPARE(display.value("trashed").toBool(true), false);
    QVERIFY(lines[6].startsWith("otpauth://steam/"));
    // Ente's own file has these members in codeDisplay too.
    const QUrlQuery real(QUrl::fromEncoded(
        fileBytes(QStringLiteral("import/ente/proton_plain.txt")).split('\n').first()));
    const QJsonObject realDisplay =
        QJsonDocument::fromJson(real.queryItemValue("codeDisplay", QUrl::FullyDecoded).toUtf8())
            .object();
    for (const QString& key : display.keys())
        QVERIFY2(realDisplay.contains(key), qPrintable(key));
}

void TestExporters::migrationLeftOut()
{
    test::SeededRandom random(test::testSeed());
    const auto accounts = test::sampleAccounts();
    const auto codes = googleMigrationUris(accounts, random);
    QVERIFY(codes.ok());
    QCOMPARE(codes->uris.size(), std::size_t{1});
    const std::vector<std::string> expected = {
        "entry 1 (Example): the tags and the note left out",
        "entry 2 (B\u00e4nk \u2713): 7-digit codes do not fit",
        "entry 4 (\u65e5\u672c\u9280\u884c): 10-digit codes do not fit",
        "entry 6 (Counter Co): the note left out",
        "entry 7 (Steam): the transfer has no Steam Guard codes; left out",
    };
    QCOMPARE(codes->warnings.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(codes->warnings[i].starts_with(expected[i]), codes->warnings[i].c_str());

    std::vector<vault::OtpAccount> none;
    none.push_back(
        test::makeAccount("Steam", "only", "12345678901234567890", otp::OtpParameters::steam()));
    none.push_back(test::makeAccount("Slow", "period", "12345678901234567890",
                                     test::totp(crypto::HashAlgorithm::Sha1, 6, 60)));
    const auto refused = exportAccounts(ExportFormat::GoogleMigration, none, {}, random);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, ExportError::NotRepresentable);
    QVERIFY2(refused.error().message.find("entry 1 (Steam)") != std::string::npos,
             refused.error().message.c_str());

    // Google's counter is a signed 64-bit field.
    std::vector<vault::OtpAccount> counter;
    counter.push_back(
        test::makeAccount("Big", "counter", "12345678901234567890",
                          test::hotp(crypto::HashAlgorithm::Sha1, 6, std::uint64_t{1} << 63)));
    counter.push_back(test::makeAccount(
        "Fits", "counter", "12345678901234567890",
        test::hotp(crypto::HashAlgorithm::Sha1, 6, (std::uint64_t{1} << 63) - 1)));
    const auto some = googleMigrationUris(counter, random);
    QVERIFY(some.ok());
    QCOMPARE(some->warnings.size(), std::size_t{1});
    QVERIFY2(some->warnings.front().starts_with("entry 1 (Big): the counter"),
             some->warnings.front().c_str());
    QCOMPARE(decodeMigration(bytesOf(some->uris.front().span())).entries, 1);
}

void TestExporters::migrationBatches()
{
    test::SeededRandom random(test::testSeed());
    std::vector<vault::OtpAccount> accounts;
    for (int i = 0; i < 25; ++i)
        accounts.push_back(test::makeAccount("Issuer " + std::to_string(i), "user",
                                             test::counting(20, i),
                                             test::totp(crypto::HashAlgorithm::Sha256, 8, 30)));
    const auto codes = googleMigrationUris(accounts, random, 10);
    QVERIFY(codes.ok());
    QVERIFY(codes->warnings.empty());
    QCOMPARE(codes->uris.size(), std::size_t{3});
    QByteArray all;
    std::optional<std::uint64_t> batchId;
    for (std::size_t i = 0; i < codes->uris.size(); ++i) {
        const QByteArray uri = bytesOf(codes->uris[i].span());
        QVERIFY(uri.startsWith("otpauth-migration://offline?data="));
        const MigrationPayload payload = decodeMigration(uri);
        QCOMPARE(payload.entries, i < 2 ? 10 : 5);
        QCOMPARE(payload.numbers.at(2), std::uint64_t{1}); // version
        QCOMPARE(payload.numbers.at(3), std::uint64_t{3}); // batch_size
        QCOMPARE(payload.numbers.at(4), std::uint64_t{i}); // batch_index
        if (batchId)
            QCOMPARE(payload.numbers.at(5), *batchId);
        batchId = payload.numbers.at(5);
        all += uri + '\n';
    }
    auto imported = importers::importAccounts(Format::GoogleMigration, test::view(all));
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    QVERIFY(imported->warnings.empty());
    QCOMPARE(imported->accounts.size(), accounts.size());
    for (std::size_t i = 0; i < accounts.size(); ++i)
        compareAccount(imported->accounts[i], accounts[i], false, false);
    // Two of the three codes: the importer says one is missing.
    const QByteArray twoOfThree = all.left(all.lastIndexOf("otpauth-migration"));
    imported = importers::importAccounts(Format::GoogleMigration, test::view(twoOfThree));
    QVERIFY(imported.ok());
    QCOMPARE(imported->accounts.size(), std::size_t{20});
    QCOMPARE(imported->warnings.size(), std::size_t{1});

    // Large accounts: a code holds fewer (here two of about 540 bytes each),
    // so that it stays a readable QR code.
    std::vector<vault::OtpAccount> large;
    for (int i = 0; i < 4; ++i)
        large.push_back(test::makeAccount("Large", "key " + std::to_string(i),
                                          test::counting(512, i),
                                          test::totp(crypto::HashAlgorithm::Sha512, 6, 30)));
    const auto split = googleMigrationUris(large, random);
    QVERIFY(split.ok());
    QCOMPARE(split->uris.size(), std::size_t{2});
    for (const auto& uri : split->uris) {
        QVERIFY(uri.size() < 2'000);
        QCOMPARE(decodeMigration(bytesOf(uri.span())).entries, 2);
    }
}

void TestExporters::migrationMatchesGoogle()
{
    // Each code Google's app wrote, read and written again with its batch
    // id, is the same text: field numbers, order, values and escapes agree.
    QFile file(
        test::dataPath(QStringLiteral("import/google_authenticator_migration/example_export.txt")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    int compared = 0;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        const QByteArray line = raw.trimmed();
        if (!line.startsWith("otpauth-migration://"))
            continue;
        const auto imported = importers::importAccounts(Format::GoogleMigration, test::view(line));
        QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
        const auto accounts = asAccounts(*imported);
        const auto id = static_cast<std::uint32_t>(decodeMigration(line).numbers.at(5));
        QByteArray idBytes;
        for (int shift = 24; shift >= 0; shift -= 8)
            idBytes.append(static_cast<char>((id >> shift) & 0xff));
        test::ScriptedRandom random(idBytes);
        const auto codes = googleMigrationUris(accounts, random);
        QVERIFY(codes.ok());
        QCOMPARE(codes->uris.size(), std::size_t{1});
        QCOMPARE(bytesOf(codes->uris.front().span()), line);
        QCOMPARE(random.remaining(), std::size_t{0});
        ++compared;
    }
    QCOMPARE(compared, 5);
}

void TestExporters::migrationNamePrefix()
{
    // Google writes names as "Issuer:account" and the importer drops that
    // prefix; a name that really starts so keeps it.
    std::vector<vault::OtpAccount> accounts;
    accounts.push_back(test::makeAccount("Acme", "Acme:ops", "12345678901234567890",
                                         test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    accounts.push_back(test::makeAccount("Acme", "Acme", "12345678901234567890",
                                         test::totp(crypto::HashAlgorithm::Sha1, 6, 30)));
    test::SeededRandom random(test::testSeed());
    const auto exported = exportAccounts(ExportFormat::GoogleMigration, accounts, {}, random);
    QVERIFY(exported.ok());
    const auto imported = importers::importAccounts(Format::GoogleMigration, exported->data.span());
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    QCOMPARE(imported->accounts.size(), std::size_t{2});
    compareAccount(imported->accounts[0], accounts[0], false, false);
    compareAccount(imported->accounts[1], accounts[1], false, false);
}

void TestExporters::backupVector()
{
    const BackupVector vector = ::backupVector();
    const QByteArray vectorPasswordBytes = vectorPassword(vector);
    ExportOptions options;
    options.password = test::view(vectorPasswordBytes);
    options.backupIterations = static_cast<std::uint32_t>(vector.json.value("iterations").toInt());
    options.now = vector.json.value("created").toInteger();
    const Bytes randomBytes = test::hex(vector.json.value("random_hex").toString());
    test::ScriptedRandom random(bytesOf(randomBytes));
    const auto exported =
        exportAccounts(ExportFormat::WatchwordBackup, vector.accounts, options, random);
    QVERIFY2(exported.ok(), exported ? "" : exported.error().message.c_str());
    QCOMPARE(random.remaining(), std::size_t{0});
    QVERIFY(exported->warnings.empty());
    QCOMPARE(bytesOf(exported->data.span()).toHex(), vector.file.toHex());

    const auto imported = importers::importAccounts(
        Format::WatchwordBackup, test::view(vector.file), test::view(vectorPasswordBytes));
    QVERIFY2(imported.ok(), imported ? "" : imported.error().message.c_str());
    QCOMPARE(imported->format, Format::WatchwordBackup);
    QCOMPARE(imported->accounts.size(), vector.accounts.size());
    for (std::size_t i = 0; i < vector.accounts.size(); ++i)
        compareAccount(imported->accounts[i], vector.accounts[i], true, true);
    QCOMPARE(importers::guessFormats(test::view(vector.file)),
             std::vector<Format>{Format::WatchwordBackup});
    QVERIFY(importers::isEncrypted(Format::WatchwordBackup, test::view(vector.file)));
    QVERIFY(!importers::isEncrypted(Format::WatchwordBackup, test::view(QByteArray("WWBACKU"))));
}

void TestExporters::backupDamaged_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QByteArray>("password");
    QTest::addColumn<ImportError>("expected");

    const BackupVector vector = ::backupVector();
    const QByteArray right = vectorPassword(vector);
    const QByteArray& file = vector.file;
    auto flipped = [&](qsizetype at, int mask) {
        QByteArray out = file;
        out[at] = static_cast<char>(out[at] ^ mask);
        return out;
    };
    QTest::newRow("wrong password")
        << file << QByteArray("correct horse battery staple") << ImportError::WrongPassword;
    QTest::newRow("no password") << file << QByteArray() << ImportError::PasswordRequired;
    QTest::newRow("magic") << flipped(0, 1) << right << ImportError::Malformed;
    QTest::newRow("version 0") << flipped(9, 1) << right << ImportError::UnsupportedVersion;
    QTest::newRow("version 257") << flipped(8, 1) << right << ImportError::UnsupportedVersion;
    QTest::newRow("kdf 3") << flipped(10, 2) << right << ImportError::UnsupportedVersion;
    // 600,000 is 00 09 27 c0: one more still reads, and the tag then fails;
    // 591,808 (00 09 07 c0) is under the floor.
    QTest::newRow("iterations 600001") << flipped(14, 1) << right << ImportError::WrongPassword;
    QTest::newRow("iterations 591808") << flipped(13, 0x20) << right << ImportError::Malformed;
    QTest::newRow("salt") << flipped(15 + 31, 0x40) << right << ImportError::WrongPassword;
    QTest::newRow("nonce") << flipped(47, 0x01) << right << ImportError::WrongPassword;
    QTest::newRow("created") << flipped(66, 0x01) << right << ImportError::WrongPassword;
    QTest::newRow("ciphertext first") << flipped(67, 0x80) << right << ImportError::WrongPassword;
    QTest::newRow("ciphertext middle")
        << flipped(file.size() / 2, 0x08) << right << ImportError::WrongPassword;
    QTest::newRow("tag last") << flipped(file.size() - 1, 0x01) << right
                              << ImportError::WrongPassword;
    QTest::newRow("one byte short")
        << file.left(file.size() - 1) << right << ImportError::WrongPassword;
    QTest::newRow("one byte more") << file + '\0' << right << ImportError::WrongPassword;
    QTest::newRow("header only") << file.left(backup::headerSize) << right
                                 << ImportError::Malformed;
    QTest::newRow("half a header") << file.left(30) << right << ImportError::Malformed;
    QTest::newRow("empty") << QByteArray() << right << ImportError::Malformed;
}

void TestExporters::backupDamaged()
{
    QFETCH(QByteArray, data);
    QFETCH(QByteArray, password);
    QFETCH(ImportError, expected);
    std::optional<ByteView> given;
    if (!password.isNull())
        given = test::view(password);
    const auto result = importers::importAccounts(Format::WatchwordBackup, test::view(data), given);
    QVERIFY2(!result.ok(), "imported");
    QVERIFY2(result.error().code == expected, result.error().message.c_str());
    QVERIFY(result.error().message.starts_with("watchword-backup: "));
}

void TestExporters::backupSealedButBroken_data()
{
    // Payloads sealed with the example's key: the tag verifies, so only
    // their contents can be wrong. Nothing but a faulty writer makes these.
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<ImportError>("expected");
    const BackupVector vector = ::backupVector();
    const QByteArray payload = bytesOf(test::hex(vector.json.value("payload_hex").toString()));
    auto withCount = [&](std::uint32_t count) {
        QByteArray out = payload;
        for (int i = 0; i < 4; ++i)
            out[i] = static_cast<char>((count >> (24 - 8 * i)) & 0xff);
        return out;
    };
    QTest::newRow("no accounts") << withCount(0) << ImportError::Malformed;
    QTest::newRow("count too low") << withCount(2) << ImportError::Malformed;
    QTest::newRow("count too high") << withCount(4) << ImportError::Malformed;
    QTest::newRow("count over the import bound") << withCount(10'001) << ImportError::TooLarge;
    QTest::newRow("count only") << payload.left(3) << ImportError::Malformed;
    QTest::newRow("fields cut") << payload.left(payload.size() - 1) << ImportError::Malformed;
    QByteArray badTag = payload;
    badTag[8] = '\x7f'; // the first account's first field tag
    QTest::newRow("unknown field") << badTag << ImportError::Malformed;
}

void TestExporters::backupSealedButBroken()
{
    QFETCH(QByteArray, payload);
    QFETCH(ImportError, expected);
    const BackupVector vector = ::backupVector();
    const QByteArray header = vector.file.left(backup::headerSize);
    const Bytes key = test::hex(vector.json.value("key_hex").toString());
    const auto sealed = crypto::aesGcm::encrypt(
        key, test::view(header).subspan(backup::nonceOffset, backup::nonceSize), test::view(header),
        test::view(payload));
    QVERIFY(sealed.ok());
    const QByteArray file = header + bytesOf(*sealed);
    const QByteArray right = vectorPassword(vector);
    const auto result =
        importers::importAccounts(Format::WatchwordBackup, test::view(file), test::view(right));
    QVERIFY(!result.ok());
    QVERIFY2(result.error().code == expected, result.error().message.c_str());
    QVERIFY(result.error().message.starts_with("watchword-backup: "));
}

void TestExporters::backupBounds()
{
    // A file asking for more or fewer iterations than the format allows is
    // refused before any key work (a test that would otherwise take minutes).
    const BackupVector vector = ::backupVector();
    const QByteArray right = vectorPassword(vector);
    for (const std::uint32_t iterations :
         {0u, backup::minimumIterations - 1, backup::maximumIterations + 1, 0xffffffffu}) {
        QByteArray file = vector.file;
        for (int i = 0; i < 4; ++i)
            file[static_cast<qsizetype>(backup::iterationsOffset) + i] =
                static_cast<char>((iterations >> (24 - 8 * i)) & 0xff);
        const auto result =
            importers::importAccounts(Format::WatchwordBackup, test::view(file), test::view(right));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ImportError::Malformed);
        QVERIFY2(result.error().message.find(std::to_string(iterations) + " PBKDF2 iterations") !=
                     std::string::npos,
                 result.error().message.c_str());
    }
}

QTEST_GUILESS_MAIN(TestExporters)
#include "TestExporters.moc"
