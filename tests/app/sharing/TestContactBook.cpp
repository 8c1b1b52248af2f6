// The Contacts page's C++ side on a real vault file: contacts added from an
// identity text and from QR texts, refused as the core refuses them (with
// the core's sentence), renamed, verified, removed and brought back by
// undo; every change saved to the file; the list emptied on lock.
#include "app/AppVaultFixture.h"
#include "app/sharing/ContactBook.h"
#include "app/vault/SharingIdentity.h"
#include "app/vault/UndoHistory.h"
#include "share/Identity.h"
#include "vault/Contacts.h"

#include <QSignalSpy>
#include <QtTest>

using namespace watchword;
using watchword::app::ContactBook;

namespace {

// The identity of the "abandon ... about" phrase (docs/FORMAT.md 11).
const QString aliceIdentity =
    QStringLiteral("watchword-id:ww1q0l59n7eg2zpur9hng2ey2pqscwuc93pdtny3gmaxevaxyfay520cewspg5");
const QString aliceWords = QStringLiteral("quit problem truck delay exchange maze fence essay");

QString identityOf(const char* phrase)
{
    const auto keychain = keychain::Keychain::restore(phrase);
    return QString::fromStdString(share::identityText(keychain->sharingKey().publicKey));
}

// The contacts in the file on disk, unlocked afresh.
std::vector<vault::Contact> contactsOnDisk(const test::VaultFixture& fixture)
{
    const auto bytes = test::readBytes(fixture.path);
    const auto password = test::fixturePassword.toUtf8();
    const auto opened = vault::Vault::unlockWithPassword(test::view(bytes), test::view(password));
    std::vector<vault::Contact> out;
    if (opened)
        for (const auto* contact : vault::contactsOf(*opened))
            out.push_back(*contact);
    return out;
}

bool savedWith(test::VaultFixture& fixture, std::size_t count)
{
    return QTest::qWaitFor(
        [&] { return !fixture.controller->saving() && contactsOnDisk(fixture).size() == count; },
        10000);
}

} // namespace

class TestContactBook : public QObject
{
    Q_OBJECT

private slots:
    void addRenameVerifyRemove();
    void refusals();
    void identityFromQrTexts();
    void identityFromAFile();
    void lockEmptiesTheList();
};

void TestContactBook::addRenameVerifyRemove()
{
    test::VaultFixture fixture;
    ContactBook book(*fixture.controller);
    QVERIFY(fixture.unlock());
    QCOMPARE(book.contacts().size(), 0);

    // Pasted with spaces around it, and a name with spaces around it.
    const QString id = book.add(QStringLiteral("  ") + aliceIdentity + QStringLiteral("\n"),
                                QStringLiteral(" Alice "));
    QVERIFY2(!id.isEmpty(), qPrintable(book.error()));
    QVERIFY(book.error().isEmpty());
    QCOMPARE(book.contacts().size(), 1);
    const QVariantMap entry = book.contacts().front().toMap();
    QCOMPARE(entry.value("name").toString(), QStringLiteral("Alice"));
    QCOMPARE(entry.value("identity").toString(), aliceIdentity);
    QCOMPARE(entry.value("fingerprint").toString(), aliceWords);
    QCOMPARE(entry.value("verified").toBool(), false);
    QCOMPARE(entry.value("recordId").toString(), id);
    QVERIFY(savedWith(fixture, 1));

    QVERIFY(book.rename(id, QStringLiteral("Alice Liddell")));
    QVERIFY(book.setVerified(id, true));
    QCOMPARE(book.contacts().front().toMap().value("verified").toBool(), true);
    QVERIFY(QTest::qWaitFor(
        [&] {
            const auto onDisk = contactsOnDisk(fixture);
            return !fixture.controller->saving() && onDisk.size() == 1 &&
                   onDisk.front().name == "Alice Liddell" && onDisk.front().verified;
        },
        10000));

    // The accounts are untouched, and a contact is not one of them.
    QCOMPARE(fixture.accounts->model()->rowCount(), 2);

    QVERIFY(book.remove(id));
    QCOMPARE(book.contacts().size(), 0);
    QVERIFY(savedWith(fixture, 0));
    QVERIFY(!fixture.controller->history()->undo().isEmpty());
    QCOMPARE(book.contacts().size(), 1);
    QCOMPARE(book.contacts().front().toMap().value("name").toString(),
             QStringLiteral("Alice Liddell"));
    QVERIFY(savedWith(fixture, 1));
}

void TestContactBook::refusals()
{
    test::VaultFixture fixture;
    ContactBook book(*fixture.controller);
    // Locked: nothing to add to.
    QVERIFY(book.add(aliceIdentity, QStringLiteral("Alice")).isEmpty());
    QVERIFY(!book.error().isEmpty());
    QVERIFY(fixture.unlock());
    const QString id = book.add(aliceIdentity, QStringLiteral("Alice"));
    QVERIFY(!id.isEmpty());
    // Written before each refusal compares the file with what it was.
    QVERIFY(savedWith(fixture, 1));

    const auto refusedWith = [&](const QString& identity, const QString& name,
                                 const QString& expected) {
        const auto before = test::readBytes(fixture.path);
        const bool refused = book.add(identity, name).isEmpty();
        return refused && book.error().contains(expected, Qt::CaseInsensitive) &&
               book.contacts().size() == 1 && test::readBytes(fixture.path) == before;
    };
    QString damaged = aliceIdentity;
    damaged[20] = damaged[20] == QLatin1Char('q') ? QLatin1Char('p') : QLatin1Char('q');
    QVERIFY(refusedWith(damaged, QStringLiteral("Mallory"), QStringLiteral("damaged")));
    QVERIFY(refusedWith(QStringLiteral("hello"), QStringLiteral("Bob"),
                        QStringLiteral("not a Watchword identity")));
    QVERIFY(refusedWith(aliceIdentity, QStringLiteral("Alice again"), QStringLiteral("already")));
    const QString bob =
        identityOf("legal winner thank year wave sausage worth useful legal winner thank yellow");
    QVERIFY(refusedWith(bob, QStringLiteral("alice"), QStringLiteral("already named")));
    QVERIFY(refusedWith(bob, QStringLiteral("   "), QStringLiteral("must not be empty")));
    // Its own identity.
    const QString own = fixture.controller->identity()->text();
    QVERIFY(!own.isEmpty());
    QVERIFY(refusedWith(own, QStringLiteral("Me"), QStringLiteral("your own identity")));

    QVERIFY(!book.rename(QStringLiteral("00"), QStringLiteral("x")));
    QVERIFY(book.error().contains(QStringLiteral("no longer")));
    QVERIFY(!book.rename(id, QString()));
    QVERIFY(book.error().contains(QStringLiteral("must not be empty")));
    book.clearError();
    QVERIFY(book.error().isEmpty());
}

void TestContactBook::identityFromQrTexts()
{
    test::VaultFixture fixture;
    ContactBook book(*fixture.controller);
    QCOMPARE(book.identityAmong(
                 {QStringLiteral("otpauth://totp/x?secret=JBSWY3DP"), aliceIdentity.toUpper()}),
             aliceIdentity);
    QVERIFY(book.error().isEmpty());
    QVERIFY(book.identityAmong({QStringLiteral("otpauth://totp/x?secret=JBSWY3DP")}).isEmpty());
    QVERIFY(book.error().contains(QStringLiteral("not a Watchword identity")));
    QVERIFY(book.identityAmong({}).isEmpty());
    QVERIFY(book.error().contains(QStringLiteral("No QR code")));
    // The reader's own sentence, when it says why.
    book.readFailed(QStringLiteral("The screen cannot be captured here."));
    QCOMPARE(book.error(), QStringLiteral("The screen cannot be captured here."));
    book.readFailed({});
    QVERIFY(book.error().contains(QStringLiteral("No QR code")));
}

void TestContactBook::identityFromAFile()
{
    test::VaultFixture fixture;
    ContactBook book(*fixture.controller);
    // A vault file: its header's identity, read while locked (no password).
    const QString fromVault = book.identityInFile(QUrl::fromLocalFile(fixture.path));
    QVERIFY2(!fromVault.isEmpty(), qPrintable(book.error()));
    QVERIFY(fixture.unlock());
    QCOMPARE(fromVault, fixture.controller->identity()->text());
    QVERIFY(book.error().isEmpty());
    // A text file holding an identity.
    const QString text = fixture.dir.filePath(QStringLiteral("alice.txt"));
    QFile file(text);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write((aliceIdentity + QStringLiteral("\n")).toUtf8());
    file.close();
    QCOMPARE(book.identityInFile(QUrl::fromLocalFile(text)), aliceIdentity);
    // Refused, naming the file.
    QVERIFY(book.identityInFile(QUrl::fromLocalFile(fixture.dir.filePath("none.txt"))).isEmpty());
    QVERIFY(book.error().contains(QStringLiteral("none.txt")));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("hello");
    file.close();
    QVERIFY(book.identityInFile(QUrl::fromLocalFile(text)).isEmpty());
    QVERIFY(book.error().startsWith(QStringLiteral("alice.txt: ")));
    QVERIFY(book.error().contains(QStringLiteral("not a Watchword identity")));
}

void TestContactBook::lockEmptiesTheList()
{
    test::VaultFixture fixture;
    ContactBook book(*fixture.controller);
    QVERIFY(fixture.unlock());
    QVERIFY(!book.add(aliceIdentity, QStringLiteral("Alice")).isEmpty());
    QVERIFY(savedWith(fixture, 1));
    fixture.controller->lock();
    QCOMPARE(book.contacts().size(), 0);
    QVERIFY(fixture.unlock());
    QCOMPARE(book.contacts().size(), 1);
}

QTEST_GUILESS_MAIN(TestContactBook)
#include "TestContactBook.moc"
