// Result<T, E>: a value or a typed error, never both.
#include "base/Result.h"

#include <QtTest>
#include <memory>
#include <string>

using namespace watchword;

namespace {

enum class ParseError { Empty, NotANumber };

Result<int, Error<ParseError>> parse(const std::string& text)
{
    if (text.empty())
        return fail(ParseError::Empty, "nothing to parse");
    if (text.find_first_not_of("0123456789") != std::string::npos)
        return fail(ParseError::NotANumber, "'" + text + "' is not a number");
    return std::stoi(text);
}

Result<void, Error<ParseError>> check(bool good)
{
    if (!good)
        return fail(ParseError::Empty, "bad");
    return {};
}

} // namespace

class TestResult : public QObject
{
    Q_OBJECT

private slots:
    void holdsAValue()
    {
        const auto result = parse("42");
        QVERIFY(result.ok());
        QVERIFY(static_cast<bool>(result));
        QCOMPARE(*result, 42);
        QCOMPARE(result.value(), 42);
    }

    void holdsAnError()
    {
        const auto empty = parse("");
        QVERIFY(!empty.ok());
        QCOMPARE(empty.error().code, ParseError::Empty);
        const auto letters = parse("4x");
        QCOMPARE(letters.error().code, ParseError::NotANumber);
        QCOMPARE(letters.error().message, std::string("'4x' is not a number"));
    }

    void voidResults()
    {
        QVERIFY(check(true).ok());
        const auto failed = check(false);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().code, ParseError::Empty);
    }

    void movesOutMoveOnlyValues()
    {
        Result<std::unique_ptr<int>, Error<ParseError>> result(std::make_unique<int>(7));
        std::unique_ptr<int> owned = std::move(result).value();
        QVERIFY(owned != nullptr);
        QCOMPARE(*owned, 7);
    }

    void sameTypeForValueAndError()
    {
        // A Result<std::string, std::string> must still know which one it holds.
        Result<std::string, std::string> value(std::string("value"));
        Result<std::string, std::string> error(fail(std::string("error")));
        QVERIFY(value.ok());
        QCOMPARE(*value, std::string("value"));
        QVERIFY(!error.ok());
        QCOMPARE(error.error(), std::string("error"));
    }
};

QTEST_APPLESS_MAIN(TestResult)
#include "TestResult.moc"
