// The shipped issuer icons and how an account's issuer finds its icon.
#include "app/codes/IssuerIcons.h"
#include "app/desktop/Theme.h"

#include <QtTest>

using watchword::app::IssuerIcons;
using watchword::app::Theme;

class TestIssuerIcons : public QObject
{
    Q_OBJECT

private slots:
    void shippedSetIsWhole()
    {
        const auto& icons = IssuerIcons::shipped();
        QVERIFY2(icons.size() >= 100, qPrintable(QString::number(icons.size())));
    }

    void matching_data()
    {
        QTest::addColumn<QString>("issuer");
        QTest::addColumn<QString>("slug");
        QTest::newRow("name") << QStringLiteral("GitHub") << QStringLiteral("github");
        QTest::newRow("case and spaces") << QStringLiteral("  gitHUB ") << QStringLiteral("github");
        QTest::newRow("domain") << QStringLiteral("github.com") << QStringLiteral("github");
        QTest::newRow("subdomain")
            << QStringLiteral("accounts.google.com") << QStringLiteral("google");
        QTest::newRow("www") << QStringLiteral("www.dropbox.com") << QStringLiteral("dropbox");
        QTest::newRow("alias") << QStringLiteral("Twitter") << QStringLiteral("x");
        QTest::newRow("punctuation")
            << QStringLiteral("Proton Mail") << QStringLiteral("protonmail");
        QTest::newRow("listed name")
            << QStringLiteral("Battle.net") << QStringLiteral("battledotnet");
        QTest::newRow("unknown") << QStringLiteral("Example Bank") << QString();
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("a dot alone") << QStringLiteral(".") << QString();
        // A name is not matched by a part of it.
        QTest::newRow("longer name") << QStringLiteral("GitHub Enterprise Server") << QString();
    }

    void matching()
    {
        QFETCH(QString, issuer);
        QFETCH(QString, slug);
        const auto* icon = IssuerIcons::shipped().match(issuer);
        QCOMPARE(icon ? icon->slug : QString(), slug);
        if (icon) {
            QVERIFY(icon->path.startsWith(QLatin1Char('M'), Qt::CaseInsensitive)); // a moveto
            QVERIFY(icon->colour.isValid());
        }
    }

    // The glyph is white or near-black, whichever reads better on the brand
    // colour; at least the 3:1 asked of graphics (a mid-tone brand colour
    // cannot give text contrast to both).
    void glyphsReadOnTheirColours()
    {
        const QByteArray json = R"({"icons": [
            {"slug": "dark", "title": "Dark", "hex": "181717", "path": "M0 0h24v24H0z", "names": []},
            {"slug": "light", "title": "Light", "hex": "FFCC00", "path": "M0 0h24v24H0z", "names": []},
            {"slug": "bad", "title": "Bad", "hex": "nothex", "path": "M0 0", "names": []}]})";
        const IssuerIcons icons = IssuerIcons::fromJson(json);
        QCOMPARE(icons.size(), std::size_t(2));
        QCOMPARE(icons.match(QStringLiteral("dark"))->glyph, QColor(Qt::white));
        QVERIFY(icons.match(QStringLiteral("light"))->glyph != QColor(Qt::white));
        QCOMPARE(icons.match(QStringLiteral("bad")), nullptr);
        for (const char* slug : {"github", "google", "steam", "mastodon", "discord"}) {
            const auto* icon = IssuerIcons::shipped().match(QString::fromLatin1(slug));
            QVERIFY2(icon, slug);
            QVERIFY2(Theme::contrastRatio(icon->glyph, icon->colour) >= 3.0, slug);
        }
    }

    void monograms()
    {
        QCOMPARE(IssuerIcons::monogram(QStringLiteral("example Bank")), QStringLiteral("E"));
        QCOMPARE(IssuerIcons::monogram(QStringLiteral("  @42 things")), QStringLiteral("4"));
        QCOMPARE(IssuerIcons::monogram(QStringLiteral("\u00e9cole")), QStringLiteral("\u00c9"));
        QCOMPARE(IssuerIcons::monogram(QStringLiteral("!!")), QStringLiteral("?"));
        // The same title, the same colour; white letters read on it.
        QCOMPARE(IssuerIcons::monogramColour(QStringLiteral("Example Bank")),
                 IssuerIcons::monogramColour(QStringLiteral("example bank")));
        for (const char* title : {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}) {
            const QColor colour = IssuerIcons::monogramColour(QString::fromLatin1(title));
            QVERIFY2(Theme::contrastRatio(Qt::white, colour) >= 4.5, title);
        }
    }
};

QTEST_APPLESS_MAIN(TestIssuerIcons)
#include "TestIssuerIcons.moc"
