// The files beside a vault in a synced folder: the conflict copies each sync
// engine makes of it, found by the engine's own naming (and nothing else:
// the vault's backups, lock file and the engines' temp files are not
// copies), moved aside once merged; and this machine's device id, made once
// and kept (vault/ConflictCopies.h, vault/Device.h).
#include "common/TestSupport.h"
#include "vault/ConflictCopies.h"
#include "vault/Device.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

using namespace watchword;
using namespace watchword::vault;

class TestSyncFiles : public QObject
{
    Q_OBJECT

private slots:
    void engines_data();
    void engines();
    void copiesBesideTheVault();
    void setAsideNeverOverwrites();
    void deviceIdPath();
    void deviceIdKept();
    void deviceIdRefusesOtherContent();
};

void TestSyncFiles::engines_data()
{
    QTest::addColumn<QString>("vault");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("engine"); // "" when not a conflict copy
    const auto copy = [](const char* name, const char* vaultName, const char* file,
                         const char* engine) {
        QTest::newRow(name) << QString::fromUtf8(vaultName) << QString::fromUtf8(file)
                            << QString::fromUtf8(engine);
    };
    copy("syncthing", "vault.wwv", "vault.sync-conflict-20261204-141516-ABCDEF7.wwv", "Syncthing");
    copy("syncthing before 0.14.30", "vault.wwv", "vault.sync-conflict-20261204-141516.wwv",
         "Syncthing");
    copy("syncthing, no extension", "vault", "vault.sync-conflict-20261204-141516-MRIW7OK",
         "Syncthing");
    copy("nextcloud", "vault.wwv", "vault (conflicted copy 2026-12-04 141516).wwv",
         "Nextcloud or ownCloud");
    copy("nextcloud with the user", "vault.wwv",
         "vault (conflicted copy Alice Smith 2026-12-04 141516).wwv", "Nextcloud or ownCloud");
    copy("owncloud before 2.5", "vault.wwv", "vault_conflict-20261204-141516.wwv",
         "Nextcloud or ownCloud");
    copy("owncloud before 2.5 with the user", "vault.wwv",
         "vault_conflict-alice-20261204-141516.wwv", "Nextcloud or ownCloud");
    copy("dropbox", "vault.wwv", "vault (Alice's conflicted copy 2026-12-04).wwv", "Dropbox");
    copy("dropbox, typographic apostrophe", "vault.wwv",
         "vault (Alice\u2019s conflicted copy 2026-12-04).wwv", "Dropbox");
    copy("dropbox, no date", "vault.wwv", "vault (Alice's conflicted copy).wwv", "Dropbox");
    copy("seafile", "vault.wwv", "vault (SFConflict alice@example.com 2026-12-04-14-15-16).wwv",
         "Seafile");
    copy("seafile, no modifier", "vault.wwv", "vault (SFConflict 2026-12-04-14-15-16).wwv",
         "Seafile");
    copy("onedrive", "vault.wwv", "vault-myhost-safeBackup-0001.wwv", "OneDrive");
    copy("unison", "vault.wwv", "vault (conflict_on_2026-12-04).wwv", "Unison");
    copy("unison, numbered", "vault.wwv", "vault (conflict #1_on_2026-12-04).wwv", "Unison");
    copy("unison, deleted", "vault.wwv", "vault (conflict_on_2026-12-04_was_deleted).wwv",
         "Unison");
    copy("another vault's copy", "vault.wwv", "work.sync-conflict-20261204-141516-ABCDEF7.wwv", "");
    copy("a copy of a longer name", "vault.wwv", "vault2.sync-conflict-20261204-141516-ABCDEF7.wwv",
         "");
    copy("the vault itself", "vault.wwv", "vault.wwv", "");
    copy("a backup", "vault.wwv", "vault.wwv.1", "");
    copy("a backup's copy", "vault.wwv", "vault.wwv.sync-conflict-20261204-141516-ABCDEF7.1", "");
    copy("the lock file", "vault.wwv", "vault.wwv.lock", "");
    copy("our temp file", "vault.wwv", ".vault.wwv.tmp-0123456789abcdef", "");
    copy("syncthing's temp file", "vault.wwv", ".syncthing.vault.wwv.tmp", "");
    copy("nextcloud's temp file", "vault.wwv", ".vault.wwv.~1a2b3c4d", "");
    copy("seafile's backup", "vault.wwv", "vault.wwv.sbak", "");
    copy("a name clash", "vault.wwv", "vault (1).wwv", "");
    copy("a bad date", "vault.wwv", "vault.sync-conflict-2026120-141516-ABCDEF7.wwv", "");
    copy("a lower-case device", "vault.wwv", "vault.sync-conflict-20261204-141516-abcdef7.wwv", "");
    copy("another extension", "vault.wwv", "vault.sync-conflict-20261204-141516-ABCDEF7.txt", "");
}

void TestSyncFiles::engines()
{
    QFETCH(QString, vault);
    QFETCH(QString, file);
    QFETCH(QString, engine);
    const auto found = conflictCopyEngine(vault.toStdString(), file.toStdString());
    QCOMPARE(found ? QString::fromStdString(*found) : QString(), engine);
}

void TestSyncFiles::copiesBesideTheVault()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString vaultPath = dir.filePath(QStringLiteral("vault.wwv"));
    for (const char* name : {"vault.wwv", "vault.wwv.1", "vault.wwv.lock",
                             "vault (Bob's conflicted copy 2026-12-04).wwv",
                             "vault.sync-conflict-20261204-141516-ABCDEF7.wwv", "notes.txt"})
        QVERIFY(test::writeBytes(dir.filePath(QString::fromUtf8(name)), "x"));
    // A folder and a link with a copy's name are not copies.
    QVERIFY(
        QDir(dir.path()).mkdir(QStringLiteral("vault.sync-conflict-20261205-000000-ABCDEF7.wwv")));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("notes.txt")),
                        dir.filePath(QStringLiteral("vault_conflict-20261204-141516.wwv"))));
    const auto copies = conflictCopiesOf(vaultPath.toStdString());
    QCOMPARE(copies.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(copies[0].path),
             dir.filePath(QStringLiteral("vault (Bob's conflicted copy 2026-12-04).wwv")));
    QCOMPARE(QString::fromStdString(copies[0].engine), QStringLiteral("Dropbox"));
    QCOMPARE(QString::fromStdString(copies[1].engine), QStringLiteral("Syncthing"));
    QVERIFY(
        conflictCopiesOf(dir.filePath(QStringLiteral("missing/vault.wwv")).toStdString()).empty());
}

void TestSyncFiles::setAsideNeverOverwrites()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString name = QStringLiteral("vault.sync-conflict-20261204-141516-ABCDEF7.wwv");
    QVERIFY(test::writeBytes(dir.filePath(name), "first"));
    const auto first = setAsideConflictCopy(dir.filePath(name).toStdString());
    QVERIFY2(first, first ? "" : first.error().c_str());
    QCOMPARE(QString::fromStdString(*first),
             dir.filePath(QStringLiteral(".watchword-merged/") + name));
    QVERIFY(!QFile::exists(dir.filePath(name)));
    struct stat status
    {};
    QCOMPARE(
        ::stat(QFile::encodeName(dir.filePath(QStringLiteral(".watchword-merged"))).constData(),
               &status),
        0);
    QCOMPARE(status.st_mode & 0777, 0700u);
    // The same name again: kept beside the first, which stays as it was.
    QVERIFY(test::writeBytes(dir.filePath(name), "second"));
    const auto second = setAsideConflictCopy(dir.filePath(name).toStdString());
    QVERIFY(second);
    QCOMPARE(QString::fromStdString(*second),
             dir.filePath(QStringLiteral(
                 ".watchword-merged/vault.sync-conflict-20261204-141516-ABCDEF7 (2).wwv")));
    QCOMPARE(test::readBytes(QString::fromStdString(*first)), QByteArray("first"));
    QCOMPARE(test::readBytes(QString::fromStdString(*second)), QByteArray("second"));
    // A copy that is gone is said, and nothing is made.
    const auto gone = setAsideConflictCopy(dir.filePath(name).toStdString());
    QVERIFY(!gone);
    QVERIFY(QString::fromStdString(gone.error()).contains(QStringLiteral("cannot move")));
}

void TestSyncFiles::deviceIdPath()
{
    QCOMPARE(QString::fromStdString(vault::deviceIdPath("/x/config", "/home/a", "cli")),
             QStringLiteral("/x/config/watchword/cli.device"));
    QCOMPARE(QString::fromStdString(vault::deviceIdPath("", "/home/a", "app")),
             QStringLiteral("/home/a/.config/watchword/app.device"));
    // A relative XDG_CONFIG_HOME is ignored, as the specification says.
    QCOMPARE(QString::fromStdString(vault::deviceIdPath("relative", "/home/a", "cli")),
             QStringLiteral("/home/a/.config/watchword/cli.device"));
    QVERIFY(vault::deviceIdPath("", "", "cli").empty());
}

void TestSyncFiles::deviceIdKept()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("a/b/watchword/cli.device")).toStdString();
    test::SeededRandom random(test::testSeed());
    const auto made = loadOrCreateDeviceId(path, random);
    QVERIFY2(made, made ? "" : made.error().c_str());
    QVERIFY(*made != DeviceId{});
    QVERIFY(*made != mergeDevice);
    QCOMPARE(test::readBytes(QString::fromStdString(path)),
             QByteArray::fromStdString(deviceText(*made) + "\n"));
    struct stat status
    {};
    QCOMPARE(::stat(path.c_str(), &status), 0);
    QCOMPARE(status.st_mode & 0777, 0600u);
    // Read again, not made again.
    test::SeededRandom other(test::testSeed() + 1);
    const auto again = loadOrCreateDeviceId(path, other);
    QVERIFY(again);
    QCOMPARE(*again, *made);
}

void TestSyncFiles::deviceIdRefusesOtherContent()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("cli.device"));
    test::SeededRandom random(test::testSeed());
    for (const QByteArray& content :
         {QByteArray("not hex at all\n"), QByteArray("0123456789abcdef0\n"), QByteArray("")}) {
        QVERIFY(test::writeBytes(path, content));
        const auto read = loadOrCreateDeviceId(path.toStdString(), random);
        QVERIFY(!read);
        QVERIFY2(QString::fromStdString(read.error()).contains(QStringLiteral("device id")),
                 read.error().c_str());
        QCOMPARE(test::readBytes(path), content); // left as it was
    }
}

QTEST_GUILESS_MAIN(TestSyncFiles)
#include "TestSyncFiles.moc"
