// The watch app's state machine: every row of docs/WATCH.md section 5.2's
// table of views and buttons, the PIN picker and the PIN's buffer.
#include "watch/WatchApp.h"

#include <QtTest>
#include <string>
#include <vector>

using namespace watchword;
using namespace watchword::watch;

Q_DECLARE_METATYPE(watchword::watch::View)
Q_DECLARE_METATYPE(watchword::watch::Button)

namespace {

std::vector<AccountLabel> accounts(int count)
{
    std::vector<AccountLabel> result;
    for (int i = 0; i < count; ++i)
        result.push_back(
            {"Issuer " + std::to_string(i), "user" + std::to_string(i) + "@example.org", {}});
    return result;
}

void typeDigits(WatchApp& app, std::string_view digits)
{
    for (const char digit : digits)
        app.typeDigit(digit - '0');
}

// An app in the Pin view with an export loaded.
WatchApp loaded()
{
    WatchApp app;
    app.setExportLoaded(true);
    return app;
}

// An app in the Code view with count accounts.
WatchApp unlocked(int count)
{
    WatchApp app = loaded();
    typeDigits(app, "1234");
    if (app.submitFromKeyboard() != Action::SubmitPin)
        qFatal("the PIN was not submitted");
    app.clearPin();
    app.unlockSucceeded(accounts(count));
    return app;
}

// Presses picker moves until the picker shows target.
void pickWith(WatchApp& app, int target)
{
    for (int i = 0; i <= WatchApp::pickerOk && app.picker() != target; ++i)
        app.press(Button::Up);
}

} // namespace

class TestWatchApp : public QObject
{
    Q_OBJECT

private slots:
    void startsWithoutExport()
    {
        WatchApp app;
        QCOMPARE(app.view(), View::NoExport);
        QCOMPARE(app.pinLength(), std::size_t(0));
        QVERIFY(app.pin().empty());
        QVERIFY(app.accounts().empty());
        QCOMPARE(app.failedAttempts(), 0);
    }

    void noExportIgnoresEverything_data()
    {
        QTest::addColumn<Button>("button");
        QTest::newRow("up") << Button::Up;
        QTest::newRow("down") << Button::Down;
        QTest::newRow("select") << Button::Select;
        QTest::newRow("back") << Button::Back;
    }

    void noExportIgnoresEverything()
    {
        QFETCH(Button, button);
        WatchApp app;
        QCOMPARE(app.press(button), Action::None);
        QCOMPARE(app.view(), View::NoExport);
        QCOMPARE(app.typeDigit(1), Action::None);
        QCOMPARE(app.submitFromKeyboard(), Action::None);
        QCOMPARE(app.pinLength(), std::size_t(0));
        QCOMPARE(app.view(), View::NoExport);
    }

    void loadingAnExportResetsEverything()
    {
        WatchApp app = loaded();
        typeDigits(app, "999");
        app.press(Button::Up);
        app.setExportLoaded(true);
        QCOMPARE(app.view(), View::Pin);
        QCOMPARE(app.picker(), 0);
        QCOMPARE(app.pinLength(), std::size_t(0));

        WatchApp failed = loaded();
        typeDigits(failed, "1111");
        QCOMPARE(failed.submitFromKeyboard(), Action::SubmitPin);
        failed.unlockFailed("Wrong PIN");
        QCOMPARE(failed.failedAttempts(), 1);
        failed.setExportLoaded(true);
        QCOMPARE(failed.failedAttempts(), 0);
        QVERIFY(failed.message().empty());

        WatchApp open = unlocked(3);
        open.press(Button::Down);
        open.setExportLoaded(true);
        QCOMPARE(open.view(), View::Pin);
        QVERIFY(open.accounts().empty());
        QCOMPARE(open.selected(), std::size_t(0));
    }

    void unloadingDropsEverything()
    {
        WatchApp app = unlocked(2);
        app.setExportLoaded(false);
        QCOMPARE(app.view(), View::NoExport);
        QVERIFY(app.accounts().empty());

        WatchApp entering = loaded();
        typeDigits(entering, "123");
        entering.setExportLoaded(false);
        QCOMPARE(entering.view(), View::NoExport);
        QVERIFY(entering.pin().empty());
    }

    // Up cycles 0, 1, ..., 9, OK, 0; Down the other way.
    void pickerWraps()
    {
        WatchApp app = loaded();
        for (int expected = 1; expected <= 10; ++expected) {
            QCOMPARE(app.press(Button::Up), Action::None);
            QCOMPARE(app.picker(), expected);
        }
        QCOMPARE(app.picker(), WatchApp::pickerOk);
        app.press(Button::Up);
        QCOMPARE(app.picker(), 0);
        app.press(Button::Down);
        QCOMPARE(app.picker(), WatchApp::pickerOk);
        app.press(Button::Down);
        QCOMPARE(app.picker(), 9);
        QCOMPARE(app.view(), View::Pin);
        QCOMPARE(app.pinLength(), std::size_t(0));
    }

    void selectAppendsThePickedDigit()
    {
        WatchApp app = loaded();
        pickWith(app, 7);
        QCOMPARE(app.press(Button::Select), Action::None);
        pickWith(app, 0);
        app.press(Button::Select);
        app.press(Button::Select);
        QCOMPARE(app.pin(), std::string_view("700"));
        QCOMPARE(app.picker(), 0); // the picker stays where it is
        QCOMPARE(app.view(), View::Pin);
    }

    void pinStopsAtTwelveDigits()
    {
        WatchApp app = loaded();
        typeDigits(app, "12345678901234");
        QCOMPARE(app.pinLength(), maximumPinLength);
        QCOMPARE(app.pin(), std::string_view("123456789012"));
        pickWith(app, 5);
        app.press(Button::Select);
        QCOMPARE(app.pin(), std::string_view("123456789012"));
    }

    void keyboardTakesOnlyDigits()
    {
        WatchApp app = loaded();
        QCOMPARE(app.typeDigit(-1), Action::None);
        QCOMPARE(app.typeDigit(10), Action::None);
        QCOMPARE(app.typeDigit('5'), Action::None);
        QCOMPARE(app.pinLength(), std::size_t(0));
        app.typeDigit(0);
        app.typeDigit(9);
        QCOMPARE(app.pin(), std::string_view("09"));
    }

    void okWithTooFewDigitsAsksForMore()
    {
        WatchApp app = loaded();
        typeDigits(app, "123");
        pickWith(app, WatchApp::pickerOk);
        QCOMPARE(app.press(Button::Select), Action::None);
        QCOMPARE(app.view(), View::Pin);
        QCOMPARE(app.message(), std::string("Enter at least 4 digits"));
        QCOMPARE(app.pin(), std::string_view("123")); // kept, to be completed
        QCOMPARE(app.failedAttempts(), 0);
        app.typeDigit(4);
        QVERIFY(app.message().empty());
        QCOMPARE(app.submitFromKeyboard(), Action::SubmitPin);
    }

    void okWithEnoughDigitsSubmits()
    {
        WatchApp app = loaded();
        typeDigits(app, "2468");
        pickWith(app, WatchApp::pickerOk);
        QCOMPARE(app.press(Button::Select), Action::SubmitPin);
        QCOMPARE(app.view(), View::Unlocking);
        QCOMPARE(app.pin(), std::string_view("2468")); // for the controller to read
    }

    void enterSubmitsLikeOk()
    {
        WatchApp app = loaded();
        QCOMPARE(app.submitFromKeyboard(), Action::None);
        QCOMPARE(app.message(), std::string("Enter at least 4 digits"));
        typeDigits(app, "13579");
        QCOMPARE(app.picker(), 0); // typing does not move the picker
        QCOMPARE(app.submitFromKeyboard(), Action::SubmitPin);
        QCOMPARE(app.view(), View::Unlocking);
    }

    void backDeletesThenLeaves()
    {
        WatchApp app = loaded();
        typeDigits(app, "12");
        QCOMPARE(app.press(Button::Back), Action::None);
        QCOMPARE(app.pin(), std::string_view("1"));
        app.press(Button::Back);
        QVERIFY(app.pin().empty());
        QCOMPARE(app.view(), View::Pin);
        app.press(Button::Back);
        QCOMPARE(app.view(), View::Glance);
    }

    void unlockingIgnoresButtons_data() { noExportIgnoresEverything_data(); }

    void unlockingIgnoresButtons()
    {
        QFETCH(Button, button);
        WatchApp app = loaded();
        typeDigits(app, "1234");
        app.submitFromKeyboard();
        QCOMPARE(app.press(button), Action::None);
        QCOMPARE(app.typeDigit(5), Action::None);
        QCOMPARE(app.submitFromKeyboard(), Action::None);
        QCOMPARE(app.view(), View::Unlocking);
        QCOMPARE(app.pin(), std::string_view("1234"));
    }

    void unlockSucceededShowsTheFirstCode()
    {
        WatchApp app = loaded();
        typeDigits(app, "1234");
        app.submitFromKeyboard();
        app.unlockSucceeded(accounts(3));
        QCOMPARE(app.view(), View::Code);
        QCOMPARE(app.accounts().size(), std::size_t(3));
        QCOMPARE(app.accounts()[2].issuer, std::string("Issuer 2"));
        QCOMPARE(app.selected(), std::size_t(0));
        QVERIFY(app.pin().empty());
        QCOMPARE(app.pinLength(), std::size_t(0));
    }

    void unlockFailedCountsAndReturnsToPin()
    {
        WatchApp app = loaded();
        for (int attempt = 1; attempt <= 3; ++attempt) {
            pickWith(app, 3);
            for (int i = 0; i < 4; ++i)
                app.press(Button::Select);
            QCOMPARE(app.pin(), std::string_view("3333"));
            pickWith(app, WatchApp::pickerOk);
            QCOMPARE(app.press(Button::Select), Action::SubmitPin);
            app.unlockFailed("Wrong PIN");
            QCOMPARE(app.view(), View::Pin);
            QCOMPARE(app.failedAttempts(), attempt);
            QCOMPARE(app.message(), std::string("Wrong PIN"));
            QVERIFY(app.pin().empty());
            QCOMPARE(app.picker(), 0);
        }
        app.typeDigit(1);
        QVERIFY(app.message().empty());
        QCOMPARE(app.failedAttempts(), 3);
    }

    // A late answer, after the app was locked or a new export loaded, must
    // not open or count anything.
    void staleAnswersAreIgnored()
    {
        WatchApp app = loaded();
        typeDigits(app, "1234");
        app.submitFromKeyboard();
        app.lock();
        app.unlockSucceeded(accounts(2));
        QCOMPARE(app.view(), View::Pin);
        QVERIFY(app.accounts().empty());
        app.unlockFailed("Wrong PIN");
        QCOMPARE(app.failedAttempts(), 0);
        QVERIFY(app.message().empty());

        WatchApp idle = loaded();
        idle.unlockSucceeded(accounts(1));
        QCOMPARE(idle.view(), View::Pin);
        QVERIFY(idle.accounts().empty());
    }

    void codeMovesBetweenAccounts()
    {
        WatchApp app = unlocked(3);
        app.press(Button::Down);
        QCOMPARE(app.selected(), std::size_t(1));
        app.press(Button::Down);
        app.press(Button::Down);
        QCOMPARE(app.selected(), std::size_t(0)); // wrapped
        app.press(Button::Up);
        QCOMPARE(app.selected(), std::size_t(2)); // wrapped back
        app.press(Button::Up);
        QCOMPARE(app.selected(), std::size_t(1));
        QCOMPARE(app.view(), View::Code);
    }

    void codeSelectOpensTheListAndBackLeaves()
    {
        WatchApp app = unlocked(4);
        app.press(Button::Down);
        QCOMPARE(app.press(Button::Select), Action::None);
        QCOMPARE(app.view(), View::List);
        QCOMPARE(app.selected(), std::size_t(1)); // the highlight

        WatchApp leaving = unlocked(2);
        leaving.press(Button::Back);
        QCOMPARE(leaving.view(), View::Glance);
        QCOMPARE(leaving.accounts().size(), std::size_t(2)); // still unlocked
    }

    void listMovesTheHighlight()
    {
        WatchApp app = unlocked(3);
        app.press(Button::Select);
        app.press(Button::Up);
        QCOMPARE(app.selected(), std::size_t(2));
        app.press(Button::Down);
        QCOMPARE(app.selected(), std::size_t(0));
        app.press(Button::Down);
        QCOMPARE(app.view(), View::List);
        app.press(Button::Select);
        QCOMPARE(app.view(), View::Code);
        QCOMPARE(app.selected(), std::size_t(1));

        app.press(Button::Select);
        app.press(Button::Down);
        app.press(Button::Back);
        QCOMPARE(app.view(), View::Code);
        QCOMPARE(app.selected(), std::size_t(2));
    }

    void glanceReturns_data()
    {
        QTest::addColumn<bool>("unlockedFirst");
        QTest::addColumn<Button>("button");
        QTest::addColumn<View>("view");
        QTest::newRow("unlocked, select") << true << Button::Select << View::Code;
        QTest::newRow("unlocked, back") << true << Button::Back << View::Glance;
        QTest::newRow("unlocked, up") << true << Button::Up << View::Glance;
        QTest::newRow("unlocked, down") << true << Button::Down << View::Glance;
        QTest::newRow("locked, select") << false << Button::Select << View::Pin;
        QTest::newRow("locked, back") << false << Button::Back << View::Glance;
        QTest::newRow("locked, up") << false << Button::Up << View::Glance;
        QTest::newRow("locked, down") << false << Button::Down << View::Glance;
    }

    void glanceReturns()
    {
        QFETCH(bool, unlockedFirst);
        QFETCH(Button, button);
        QFETCH(View, view);
        WatchApp app = unlockedFirst ? unlocked(3) : loaded();
        if (unlockedFirst)
            app.press(Button::Down);
        app.press(Button::Back);
        QCOMPARE(app.view(), View::Glance);
        QCOMPARE(app.press(button), Action::None);
        QCOMPARE(app.view(), view);
        QCOMPARE(app.typeDigit(1), Action::None);
        QCOMPARE(app.pinLength(), std::size_t(view == View::Pin ? 1 : 0)); // digits only in Pin
        if (unlockedFirst)
            QCOMPARE(app.selected(), std::size_t(1)); // the same account again
    }

    // An export without accounts opens to an empty Code view; nothing moves.
    void noAccounts()
    {
        WatchApp app = unlocked(0);
        QCOMPARE(app.view(), View::Code);
        app.press(Button::Down);
        app.press(Button::Up);
        QCOMPARE(app.selected(), std::size_t(0));
        app.press(Button::Select);
        QCOMPARE(app.view(), View::List);
        app.press(Button::Down);
        QCOMPARE(app.selected(), std::size_t(0));
        app.press(Button::Back);
        app.press(Button::Back);
        QCOMPARE(app.view(), View::Glance);
        app.press(Button::Select);
        QCOMPARE(app.view(), View::Pin); // no accounts: nothing to return to
    }

    void lockKeepsTheExport()
    {
        WatchApp app = unlocked(3);
        app.press(Button::Down);
        app.lock();
        QCOMPARE(app.view(), View::Pin);
        QVERIFY(app.accounts().empty());
        QCOMPARE(app.selected(), std::size_t(0));

        WatchApp entering = loaded();
        typeDigits(entering, "5678");
        entering.lock();
        QCOMPARE(entering.view(), View::Pin);
        QVERIFY(entering.pin().empty());

        WatchApp none;
        none.lock();
        QCOMPARE(none.view(), View::NoExport);

        WatchApp glance = unlocked(1);
        glance.press(Button::Back);
        glance.lock();
        QCOMPARE(glance.view(), View::Pin);
    }

    // clearPin overwrites the buffer, not only its length: the bytes the
    // view pointed at are zero afterwards.
    void clearPinWipesTheDigits()
    {
        WatchApp app = loaded();
        typeDigits(app, "8642");
        const std::string_view before = app.pin();
        const char* bytes = before.data();
        QCOMPARE(before, std::string_view("8642"));
        app.clearPin();
        QVERIFY(app.pin().empty());
        QCOMPARE(app.pinLength(), std::size_t(0));
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(bytes[i], '\0');

        typeDigits(app, "97");
        QCOMPARE(app.press(Button::Back), Action::None);
        QCOMPARE(app.pin().data()[1], '\0'); // the deleted digit is wiped too
    }

    void firstVisibleRow_data()
    {
        QTest::addColumn<int>("selected");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("first");
        QTest::newRow("top, 3 rows") << 0 << 3 << 0;
        QTest::newRow("last of the first page") << 2 << 3 << 0;
        QTest::newRow("one past the first page") << 3 << 3 << 1;
        QTest::newRow("last of ten") << 9 << 3 << 7;
        QTest::newRow("one row") << 5 << 1 << 5;
        QTest::newRow("no rows") << 5 << 0 << 5;
        QTest::newRow("more rows than accounts") << 9 << 20 << 0;
    }

    void firstVisibleRow()
    {
        QFETCH(int, selected);
        QFETCH(int, rows);
        QFETCH(int, first);
        WatchApp app = unlocked(10);
        for (int i = 0; i < selected; ++i)
            app.press(Button::Down);
        QCOMPARE(app.selected(), std::size_t(selected));
        QCOMPARE(app.firstVisibleRow(std::size_t(rows)), std::size_t(first));
    }
};

QTEST_GUILESS_MAIN(TestWatchApp)
#include "TestWatchApp.moc"
