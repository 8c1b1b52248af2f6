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

enum class ConfigError { Missing, Malformed };

// Passes parse()'s error up unchanged, from a Result of another value type.
Result<long, Error<ParseError>> parseTwice(const std::string& text)
{
    auto parsed = parse(text);
    if (!parsed)
        return parsed.failure();
    return 2L * *parsed;
}

// Passes a Result<void>'s error up into a Result with a value.
Result<int, Error<ParseError>> checkedAnswer(bool good)
{
    auto checked = check(good);
    if (!checked)
        return checked.failure();
    return 42;
}

// The same message under another code, bare or with context around it.
Result<int, Error<ConfigError>> setting(const std::string& text, int line)
{
    const auto parsed = parse(text);
    if (!parsed && line == 0)
        return parsed.failure(ConfigError::Malformed);
    if (!parsed)
        return parsed.failure(ConfigError::Malformed,
                              "timeout: ", " (line " + std::to_string(line) + ")");
    return *parsed;
}

Result<void, Error<ConfigError>> required(bool present)
{
    auto checked = check(present);
    if (!checked)
        return checked.failure(ConfigError::Missing, "the timeout: ");
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

    void failurePassesTheSameErrorUp()
    {
        const auto letters = parseTwice("4x");
        QVERIFY(!letters.ok());
        QCOMPARE(letters.error().code, ParseError::NotANumber);
        QCOMPARE(letters.error().message, std::string("'4x' is not a number"));
        QCOMPARE(parseTwice("").error().code, ParseError::Empty);
        QCOMPARE(*parseTwice("21"), 42L);

        const auto unchecked = checkedAnswer(false);
        QVERIFY(!unchecked.ok());
        QCOMPARE(unchecked.error().code, ParseError::Empty);
        QCOMPARE(unchecked.error().message, std::string("bad"));
        QCOMPARE(*checkedAnswer(true), 42);
    }

    void failureOfAConstResultLeavesItsError()
    {
        const auto letters = parse("4x");
        const Result<long, Error<ParseError>> passed = letters.failure();
        QCOMPARE(passed.error().message, std::string("'4x' is not a number"));
        QCOMPARE(letters.error().code, ParseError::NotANumber);
        QCOMPARE(letters.error().message, std::string("'4x' is not a number"));
    }

    void failureMovesAMoveOnlyErrorOut()
    {
        Result<int, std::unique_ptr<int>> inner(fail(std::make_unique<int>(7)));
        Result<std::string, std::unique_ptr<int>> outer(inner.failure());
        QVERIFY(!outer.ok());
        QVERIFY(outer.error() != nullptr);
        QCOMPARE(*outer.error(), 7);
    }

    void failureUnderAnotherCodeKeepsTheMessage()
    {
        const auto bare = setting("4x", 0);
        QVERIFY(!bare.ok());
        QCOMPARE(bare.error().code, ConfigError::Malformed);
        QCOMPARE(bare.error().message, std::string("'4x' is not a number"));

        const auto placed = setting("", 3);
        QCOMPARE(placed.error().code, ConfigError::Malformed);
        QCOMPARE(placed.error().message, std::string("timeout: nothing to parse (line 3)"));
        QCOMPARE(*setting("15", 3), 15);

        const auto missing = required(false);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ConfigError::Missing);
        QCOMPARE(missing.error().message, std::string("the timeout: bad"));
        QVERIFY(required(true).ok());
    }
};

QTEST_APPLESS_MAIN(TestResult)
#include "TestResult.moc"
