// watchword-cli identity show as a user runs it: the worked example's
// identity (text and fingerprint computed independently, in
// tests/data/share/identity_vectors.json), its QR code read back by the
// core's QR reader, a vault without an identity, bad arguments.
#include "CliTestSupport.h"
#include "common/TestSupport.h"
#include "qr/QrCode.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace watchword::test;

namespace {

// The identity vector of the sharing key the version 2 worked example holds.
QJsonObject exampleIdentity()
{
    const QString key =
        loadJson(QStringLiteral("vault/vectors_v2.json"))[QStringLiteral("sharing_public_key")]
            .toString();
    for (const auto value :
         loadJson(QStringLiteral("share/identity_vectors.json"))[QStringLiteral("vectors")]
             .toArray())
        if (value.toObject()[QStringLiteral("sharing_public_key")].toString() == key)
            return value.toObject();
    return {};
}

QString writeExample(const QTemporaryDir& directory, const char* field, const char* file)
{
    const QString vectors = QLatin1String(field) == QLatin1String("v1") ? "vault/vectors.json"
                                                                        : "vault/vectors_v2.json";
    const QString path = directory.filePath(QLatin1String(file));
    writeBytes(path, QByteArray::fromHex(
                         loadJson(vectors)[QStringLiteral("file_hex")].toString().toLatin1()));
    return path;
}

} // namespace

class TestCliIdentity : public QObject
{
    Q_OBJECT

private slots:
    void showsTheExamplesIdentity();
    void itsQrCodeReadsBack();
    void refusals();
};

void TestCliIdentity::showsTheExamplesIdentity()
{
    const QJsonObject expected = exampleIdentity();
    QVERIFY(!expected.isEmpty());
    QStringList words;
    for (const auto word : expected[QStringLiteral("fingerprint")].toArray())
        words << word.toString();
    QTemporaryDir directory;
    const QString vault = writeExample(directory, "v2", "example.wwv");
    const Outcome shown = runCli({"identity", "show", vault});
    QCOMPARE(shown.exitCode, 0);
    QVERIFY(shown.err.isEmpty());
    QCOMPARE(shown.out, ("identity: " + expected[QStringLiteral("identity_text")].toString() +
                         "\nfingerprint: " + words.join(u' ') + "\n")
                            .toUtf8());
    const QJsonObject json =
        parseJsonObject(verifySuccessLine(runCli({"identity", "show", vault, "--json"})));
    QCOMPARE(json.value("identity").toString(),
             expected[QStringLiteral("identity_text")].toString());
    QCOMPARE(json.value("public_key").toString(),
             expected[QStringLiteral("sharing_public_key")].toString());
    QCOMPARE(json.value("fingerprint").toArray().size(), 8);
    QCOMPARE(json.value("fingerprint").toArray().first().toString(), words.first());
    // Nothing was asked and nothing changed.
    QFile file(vault);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().toHex(),
             loadJson(QStringLiteral("vault/vectors_v2.json"))[QStringLiteral("file_hex")]
                 .toString()
                 .toLatin1());
}

void TestCliIdentity::itsQrCodeReadsBack()
{
    // The half blocks turned back into pixels (a light block, a dark space)
    // and read by the core's QR reader, the one qr decode uses: the
    // identity text.
    QTemporaryDir directory;
    const QString vault = writeExample(directory, "v2", "example.wwv");
    const Outcome shown = runCli({"identity", "show", vault, "--qr"});
    QCOMPARE(shown.exitCode, 0);
    const QStringList lines = QString::fromUtf8(shown.out).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 10);
    const QStringList block = lines.mid(2);
    const int columns = int(block.first().size());
    constexpr int scale = 4;
    const int width = columns * scale;
    const int height = int(block.size()) * 2 * scale;
    std::vector<std::uint8_t> pixels(std::size_t(width) * std::size_t(height), 0xff);
    for (int row = 0; row < block.size(); ++row) {
        QCOMPARE(int(block[row].size()), columns);
        for (int x = 0; x < columns; ++x) {
            const QChar c = block[row][x];
            const bool light[2] = {c == QChar(0x2588) || c == QChar(0x2580),
                                   c == QChar(0x2588) || c == QChar(0x2584)};
            for (int half = 0; half < 2; ++half)
                for (int dy = 0; dy < scale; ++dy)
                    for (int dx = 0; dx < scale; ++dx)
                        pixels[std::size_t((row * 2 + half) * scale + dy) * std::size_t(width) +
                               std::size_t(x * scale + dx)] = light[half] ? 0xff : 0x00;
        }
    }
    const auto texts = watchword::qr::decodeQr({pixels.data(), width, height, width});
    QVERIFY2(texts.ok(), texts.ok() ? "" : texts.error().message.c_str());
    QCOMPARE(texts->size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(texts->front()),
             exampleIdentity()[QStringLiteral("identity_text")].toString());
}

void TestCliIdentity::refusals()
{
    QTemporaryDir directory;
    // A version 1 vault has no identity until its phrase is used.
    const QString old = writeExample(directory, "v1", "old.wwv");
    const Outcome none = runCli({"identity", "show", old});
    QCOMPARE(none.exitCode, 1);
    QVERIFY(none.out.isEmpty());
    QVERIFY2(none.err.contains("no sharing identity yet"), none.err.constData());
    const QString vault = writeExample(directory, "v2", "example.wwv");
    for (const QStringList& args : {QStringList{"identity"}, QStringList{"identity", "show"},
                                    QStringList{"identity", "show", vault, vault},
                                    QStringList{"identity", "show", vault, "--qr", "--json"},
                                    QStringList{"identity", "show", vault, "--password-stdin"},
                                    QStringList{"identity", "tell"}}) {
        const Outcome refused = runCli(args);
        QVERIFY2(refused.exitCode == 2, qPrintable(args.join(u' ')));
        QVERIFY(refused.out.isEmpty());
        QVERIFY(!refused.err.isEmpty());
    }
    const Outcome missing = runCli({"identity", "show", directory.filePath("missing.wwv")});
    QCOMPARE(missing.exitCode, 1);
    // Not a vault.
    const QString text = directory.filePath(QStringLiteral("text.wwv"));
    writeBytes(text, "hello");
    const Outcome notVault = runCli({"identity", "show", text});
    QCOMPARE(notVault.exitCode, 1);
    QVERIFY(notVault.err.contains("not a Watchword vault"));
}

QTEST_GUILESS_MAIN(TestCliIdentity)
#include "TestCliIdentity.moc"
