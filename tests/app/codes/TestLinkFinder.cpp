// What the add form is told to do with a scan's texts or a drop.
#include "app/codes/LinkFinder.h"

#include <QtTest>

using watchword::app::LinkAction;
using watchword::app::LinkFinder;

namespace {

const QString one = QStringLiteral("otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP");
const QString two = QStringLiteral("OTPAUTH://totp/WWE:Mason?secret=JBSWY3DPEHPK3PXP");
const QString transfer = QStringLiteral("otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8");
const QString wikiBasic = QStringLiteral(
    "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example");

} // namespace

class TestLinkFinder : public QObject
{
    Q_OBJECT

private slots:
    void scans_data()
    {
        QTest::addColumn<QStringList>("texts");
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("link");
        QTest::addColumn<int>("choices");
        QTest::newRow("one link fills the form")
            << QStringList{one} << QStringLiteral("fill") << one << 0;
        QTest::newRow("one link among other codes")
            << QStringList{QStringLiteral("https://example.com"), one} << QStringLiteral("fill")
            << one << 0;
        QTest::newRow("several are offered")
            << QStringList{one, two} << QStringLiteral("choose") << QString() << 2;
        QTest::newRow("a transfer code goes to the import")
            << QStringList{QStringLiteral(" ") + transfer} << QStringLiteral("import") << transfer
            << 0;
        QTest::newRow("a link wins over a transfer code")
            << QStringList{transfer, one} << QStringLiteral("fill") << one << 0;
        QTest::newRow("nothing usable")
            << QStringList{QStringLiteral("hello")} << QStringLiteral("explain") << QString() << 0;
        QTest::newRow("no codes") << QStringList{} << QStringLiteral("explain") << QString() << 0;
    }

    void scans()
    {
        QFETCH(QStringList, texts);
        QFETCH(QString, action);
        QFETCH(QString, link);
        QFETCH(int, choices);
        const LinkAction found = LinkFinder().fromScan(texts);
        QCOMPARE(found.action, action);
        QCOMPARE(found.link, link);
        QCOMPARE(found.links.size(), choices);
        QCOMPARE(found.message.isEmpty(), action == QStringLiteral("import"));
    }

    void drops_data()
    {
        QTest::addColumn<QStringList>("uris");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("link");
        QTest::newRow("dropped text")
            << QStringList{} << one + QStringLiteral("\n") << QStringLiteral("fill") << one;
        QTest::newRow("uri list with a comment")
            << QStringList{QStringLiteral("# a comment"), two + QStringLiteral("\r")} << QString()
            << QStringLiteral("fill") << two;
        QTest::newRow("a link before an image")
            << QStringList{QStringLiteral("file:///tmp/a.png"), one} << QString()
            << QStringLiteral("fill") << one;
        QTest::newRow("an image is read")
            << QStringList{QStringLiteral(""), QStringLiteral("file:///tmp/a.png")} << QString()
            << QStringLiteral("read") << QStringLiteral("file:///tmp/a.png");
        QTest::newRow("a web page")
            << QStringList{QStringLiteral("https://example.com/page")} << QStringLiteral("hello")
            << QStringLiteral("explain") << QString();
    }

    void drops()
    {
        QFETCH(QStringList, uris);
        QFETCH(QString, text);
        QFETCH(QString, action);
        QFETCH(QString, link);
        const LinkAction found = LinkFinder().fromDrop(uris, text);
        QCOMPARE(found.action, action);
        QCOMPARE(found.link, link);
    }

    // What the clipboard must hold for the form to offer it.
    void looksLikeOtpauthUri_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("offered");
        QTest::newRow("URI") << wikiBasic << true;
        QTest::newRow("upper case, spaces around") << "  OTPAUTH://TOTP/x?secret=A\n" << true;
        QTest::newRow("migration export") << "otpauth-migration://offline?data=x" << false;
        QTest::newRow("web link") << "https://example.com/otpauth://" << false;
        QTest::newRow("secret") << "JBSWY3DPEHPK3PXP" << false;
        QTest::newRow("empty") << "" << false;
    }

    void looksLikeOtpauthUri()
    {
        QFETCH(QString, text);
        QFETCH(bool, offered);
        QCOMPARE(LinkFinder::looksLikeOtpauthUri(text), offered);
    }

    void describesUrisWithoutTheirSecret()
    {
        QCOMPARE(LinkFinder::describeUri(wikiBasic), QStringLiteral("Example (alice@google.com)"));
        QCOMPARE(
            LinkFinder::describeUri(QStringLiteral("otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP")),
            QStringLiteral("alice"));
        QVERIFY(LinkFinder::describeUri(QStringLiteral("otpauth://totp/alice")).isEmpty());
        QVERIFY(!LinkFinder::describeUri(wikiBasic).contains(u"JBSW"));
    }
};

QTEST_MAIN(TestLinkFinder)
#include "TestLinkFinder.moc"
