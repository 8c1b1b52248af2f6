// writeFileAtomically: replaces or refuses as asked, sets exactly the mode
// asked for, and on every failure leaves the target as it was and no temp
// file behind.
#include "base/FileIo.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>

using namespace watchword;

namespace {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

int modeOf(const std::filesystem::path& path)
{
    return int(std::filesystem::status(path).permissions() & std::filesystem::perms::mask);
}

long entriesIn(const QTemporaryDir& directory)
{
    return long(std::distance(std::filesystem::directory_iterator(directory.path().toStdString()),
                              std::filesystem::directory_iterator()));
}

} // namespace

class TestFileIo : public QObject
{
    Q_OBJECT

private slots:
    void replaces()
    {
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("file.txt").toStdString();
        QCOMPARE(writeFileAtomically(path, "first"), std::nullopt);
        QCOMPARE(readFile(path), std::string("first"));
        QCOMPARE(writeFileAtomically(path, "second"), std::nullopt);
        QCOMPARE(readFile(path), std::string("second"));
        QCOMPARE(entriesIn(temp), 1L);
    }

    void exactModeWhateverTheUmask_data()
    {
        QTest::addColumn<int>("umaskValue");
        QTest::addColumn<int>("mode");
        QTest::newRow("default mode, strict umask") << 077 << 0644;
        QTest::newRow("private, open umask") << 0 << 0600;
        QTest::newRow("private, usual umask") << 022 << 0600;
        QTest::newRow("group readable") << 027 << 0640;
    }

    void exactModeWhateverTheUmask()
    {
        QFETCH(int, umaskValue);
        QFETCH(int, mode);
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("file.txt").toStdString();
        const mode_t saved = ::umask(static_cast<mode_t>(umaskValue));
        const auto error = writeFileAtomically(path, "text", static_cast<unsigned>(mode));
        ::umask(saved);
        QCOMPARE(error, std::nullopt);
        QCOMPARE(modeOf(path), mode);
    }

    void refusesAnExistingFile()
    {
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("payload.json").toStdString();
        QCOMPARE(writeFileAtomically(path, "new", 0600, IfExists::Refuse), std::nullopt);
        QCOMPARE(readFile(path), std::string("new"));
        QCOMPARE(modeOf(path), 0600);

        const auto error = writeFileAtomically(path, "other", 0600, IfExists::Refuse);
        QVERIFY(error.has_value());
        QCOMPARE(*error, path.string() + " exists");
        QCOMPARE(readFile(path), std::string("new"));
        QCOMPARE(entriesIn(temp), 1L);

        // A symbolic link, even a dangling one, is there too: never followed.
        const std::filesystem::path link = temp.filePath("link").toStdString();
        std::filesystem::create_symlink(temp.filePath("nowhere").toStdString(), link);
        QVERIFY(writeFileAtomically(link, "x", 0600, IfExists::Refuse).has_value());
        QVERIFY(!std::filesystem::exists(temp.filePath("nowhere").toStdString()));
        QCOMPARE(entriesIn(temp), 2L);
    }

    void failureLeavesTheTargetAlone()
    {
        QTemporaryDir temp;
        // A missing directory: nothing can be created, the error names the path.
        const std::filesystem::path missing = temp.filePath("no/such/file").toStdString();
        auto error = writeFileAtomically(missing, "x");
        QVERIFY(error.has_value());
        QVERIFY2(error->find(missing.string()) != std::string::npos, error->c_str());

        // A directory where the file should be: rename fails, the directory
        // and its contents stay, the temp file is gone.
        const std::filesystem::path folder = temp.filePath("folder").toStdString();
        std::filesystem::create_directory(folder);
        std::ofstream(folder / "inside") << "kept";
        error = writeFileAtomically(folder, "x");
        QVERIFY(error.has_value());
        QVERIFY2(error->find(folder.string()) != std::string::npos, error->c_str());
        QVERIFY(std::filesystem::is_directory(folder));
        QCOMPARE(readFile(folder / "inside"), std::string("kept"));
        QCOMPARE(entriesIn(temp), 1L);
    }
};

QTEST_GUILESS_MAIN(TestFileIo)
#include "TestFileIo.moc"
