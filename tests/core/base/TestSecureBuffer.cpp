// SecureBuffer: zeroed on creation, one owner, explicit copies, truncation
// that wipes what it gives up; constantTimeEqual's contract.
#include "base/Bytes.h"
#include "base/SecureBuffer.h"

#include <QtTest>
#include <cstring>
#include <utility>

using namespace watchword;

class TestSecureBuffer : public QObject
{
    Q_OBJECT

private slots:
    void startsZeroed()
    {
        const SecureBuffer buffer(64);
        QCOMPARE(buffer.size(), std::size_t{64});
        for (const auto byte : buffer)
            QCOMPARE(byte, std::uint8_t{0});
        const SecureBuffer empty;
        QVERIFY(empty.empty());
        QVERIFY(empty.data() == nullptr);
    }

    void copiesOnlyWhenAsked()
    {
        const SecureBuffer original = SecureBuffer::fromString("secret");
        QCOMPARE(original.view(), std::string_view("secret"));
        SecureBuffer copy = original.clone();
        QVERIFY(copy.data() != original.data());
        copy[0] = 'S';
        QCOMPARE(original.view(), std::string_view("secret"));
        QCOMPARE(copy.view(), std::string_view("Secret"));
    }

    void moveLeavesTheSourceEmpty()
    {
        SecureBuffer source = SecureBuffer::fromString("key material");
        const std::uint8_t* storage = source.data();
        SecureBuffer target(std::move(source));
        QVERIFY(source.empty()); // NOLINT(bugprone-use-after-move): the contract under test
        QVERIFY(source.data() == nullptr);
        QCOMPARE(target.data(), storage);
        SecureBuffer assigned = SecureBuffer::fromString("other");
        assigned = std::move(target);
        QCOMPARE(assigned.view(), std::string_view("key material"));
        QVERIFY(target.empty());
    }

    void truncateWipesTheTail()
    {
        SecureBuffer buffer = SecureBuffer::fromString("0123456789");
        std::uint8_t* storage = buffer.data();
        buffer.truncate(4);
        QCOMPARE(buffer.size(), std::size_t{4});
        QCOMPARE(buffer.view(), std::string_view("0123"));
        // The bytes given up are still our allocation: they must be zero now.
        for (std::size_t i = 4; i < 10; ++i)
            QCOMPARE(storage[i], std::uint8_t{0});
        buffer.truncate(8); // growing is not truncating: nothing changes
        QCOMPARE(buffer.size(), std::size_t{4});
    }

    void secureWipeZeroes()
    {
        char bytes[] = "wipe me";
        secureWipe(bytes, sizeof bytes);
        for (const char byte : bytes)
            QCOMPARE(byte, '\0');
        secureWipe(nullptr, 0); // allowed, does nothing
    }

    void constantTimeEqualContract()
    {
        const ByteView abc = asBytes("abc");
        QVERIFY(constantTimeEqual(abc, asBytes("abc")));
        QVERIFY(!constantTimeEqual(abc, asBytes("abd")));
        QVERIFY(!constantTimeEqual(abc, asBytes("ab")));
        QVERIFY(!constantTimeEqual(asBytes("ab"), abc));
        QVERIFY(constantTimeEqual({}, {}));
        QVERIFY(!constantTimeEqual({}, abc));
    }
};

QTEST_APPLESS_MAIN(TestSecureBuffer)
#include "TestSecureBuffer.moc"
