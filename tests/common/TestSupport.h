// Helpers shared by the Qt Test executables: test data files, files read and
// written whole, hex, and a seeded random source for reproducible randomized
// tests.
#pragma once

#include "base/Bytes.h"
#include "crypto/Random.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <deque>
#include <random>

namespace watchword::test {

// Absolute path of a file under tests/data.
QString dataPath(const QString& relative);

// The JSON object in tests/data/<relative>; a missing or malformed file stops
// the test run with a message naming it (data files are part of the test).
QJsonObject loadJson(const QString& relative);

// Lower- or upper-case hex to bytes; malformed hex stops the run (it is a bug
// in the test data, not an outcome).
Bytes hex(const QString& text);
QString toHex(ByteView bytes);

// A file's bytes, empty if it cannot be read; bytes written to a file
// (created or emptied first), false if they could not all be.
QByteArray readBytes(const QString& path);
bool writeBytes(const QString& path, const QByteArray& bytes);

inline ByteView view(const QByteArray& bytes)
{
    return {reinterpret_cast<const std::uint8_t*>(bytes.constData()),
            static_cast<std::size_t>(bytes.size())};
}

// The seed for randomized tests: WATCHWORD_TEST_SEED if set, else a fresh
// one. Printed once per process so a failure can be replayed.
std::uint64_t testSeed();

// A deterministic RandomSource for tests (never for keys): mt19937_64.
class SeededRandom final : public crypto::RandomSource
{
public:
    explicit SeededRandom(std::uint64_t seed) : m_engine(seed) {}
    void fill(std::span<std::uint8_t> out) override;
    std::mt19937_64& engine() { return m_engine; }

private:
    std::mt19937_64 m_engine;
};

// A RandomSource that hands out the given bytes in order, for tests that need
// exact keys or IVs; asking for more than it holds stops the test run.
class ScriptedRandom final : public crypto::RandomSource
{
public:
    explicit ScriptedRandom(const QByteArray& bytes) : m_bytes(bytes.begin(), bytes.end()) {}
    void fill(std::span<std::uint8_t> out) override;
    std::size_t remaining() const { return m_bytes.size(); }

private:
    std::deque<char> m_bytes;
};

// Wycheproof: every test of a file, flattened with its group's fields, as
// QTest data rows are built from it.
struct WycheproofCase
{
    QJsonObject group;
    QJsonObject test;
    int tcId = 0;
    QString result; // "valid", "invalid" or "acceptable"
    QStringList flags;
};
QList<WycheproofCase> wycheproofCases(const QString& file);

} // namespace watchword::test
