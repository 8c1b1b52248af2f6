#include "common/TestSupport.h"

#include "encoding/Hex.h"

#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QtGlobal>
#include <cstdio>

namespace watchword::test {

QString dataPath(const QString& relative)
{
    return QStringLiteral(WATCHWORD_TEST_DATA_DIR "/") + relative;
}

QJsonObject loadJson(const QString& relative)
{
    QFile file(dataPath(relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("test data %s: %s", qPrintable(file.fileName()), qPrintable(file.errorString()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        qFatal("test data %s: not a JSON object (%s)", qPrintable(file.fileName()),
               qPrintable(error.errorString()));
    return document.object();
}

QByteArray readBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

Bytes hex(const QString& text)
{
    auto bytes = encoding::fromHex(text.toStdString());
    if (!bytes)
        qFatal("bad hex in test data: %s", bytes.error().message.c_str());
    return std::move(bytes).value();
}

QString toHex(ByteView bytes)
{
    return QString::fromStdString(encoding::toHex(bytes));
}

std::uint64_t testSeed()
{
    static const std::uint64_t seed = [] {
        bool ok = false;
        const std::uint64_t fromEnv =
            qEnvironmentVariable("WATCHWORD_TEST_SEED").toULongLong(&ok, 0);
        const std::uint64_t value = ok ? fromEnv : QRandomGenerator::system()->generate64();
        std::fprintf(stderr, "randomized tests: WATCHWORD_TEST_SEED=%llu\n",
                     static_cast<unsigned long long>(value));
        return value;
    }();
    return seed;
}

void SeededRandom::fill(std::span<std::uint8_t> out)
{
    for (auto& byte : out)
        byte = static_cast<std::uint8_t>(m_engine());
}

void ScriptedRandom::fill(std::span<std::uint8_t> out)
{
    if (out.size() > m_bytes.size())
        qFatal("ScriptedRandom: asked for %zu bytes, %zu left", out.size(), m_bytes.size());
    for (auto& byte : out) {
        byte = static_cast<std::uint8_t>(m_bytes.front());
        m_bytes.pop_front();
    }
}

QList<WycheproofCase> wycheproofCases(const QString& file)
{
    const QJsonObject root = loadJson(QStringLiteral("wycheproof/") + file);
    QList<WycheproofCase> cases;
    for (const auto groupValue : root.value(QStringLiteral("testGroups")).toArray()) {
        QJsonObject group = groupValue.toObject();
        const QJsonArray tests = group.take(QStringLiteral("tests")).toArray();
        for (const auto testValue : tests) {
            const QJsonObject test = testValue.toObject();
            WycheproofCase c;
            c.group = group;
            c.test = test;
            c.tcId = test.value(QStringLiteral("tcId")).toInt();
            c.result = test.value(QStringLiteral("result")).toString();
            for (const auto flag : test.value(QStringLiteral("flags")).toArray())
                c.flags << flag.toString();
            cases << c;
        }
    }
    const int expected = root.value(QStringLiteral("numberOfTests")).toInt(-1);
    if (expected >= 0 && expected != cases.size())
        qFatal("%s: numberOfTests says %d, found %lld", qPrintable(file), expected,
               static_cast<long long>(cases.size()));
    if (cases.isEmpty())
        qFatal("%s: no test cases", qPrintable(file));
    return cases;
}

} // namespace watchword::test
