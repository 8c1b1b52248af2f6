// writeFileAtomically: replaces or refuses as asked, sets exactly the mode
// asked for, on every failure leaves the target as it was, and never leaves
// the contents under another name: not on a failure, not when the writer is
// killed mid-write (the temp file of a killed writer on a file system without
// O_TMPFILE is removed by the next write). readRegularFile: never waits on a
// FIFO, refuses what is not a regular file, and bounds what it reads.
#include "base/FileIo.h"

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

// 'text', in quotes as the messages put a path. Appended piece by piece:
// GCC 12 at -O3 misreports "'" + std::string as an overlapping copy.
std::string quoted(const std::string& text)
{
    std::string out(1, '\'');
    out.append(text).push_back('\'');
    return out;
}

// The error of a write, or "" if it succeeded.
std::string errorOf(const Result<FileWritten, std::string>& written)
{
    return written ? std::string() : written.error();
}

} // namespace

class TestFileIo : public QObject
{
    Q_OBJECT

private:
    // Both routes: the unnamed file (O_TMPFILE), and the named temp file a
    // file system without it gets.
    static void routes()
    {
        QTest::addColumn<bool>("unnamedFirst");
        QTest::newRow("unnamed temp file") << true;
        QTest::newRow("named temp file") << false;
    }

    static Result<FileWritten, std::string> write(const std::filesystem::path& path,
                                                  std::string_view contents, unsigned mode = 0644,
                                                  IfExists ifExists = IfExists::Replace)
    {
        QFETCH(bool, unnamedFirst);
        return detail::writeFileAtomically(path, contents, mode, ifExists, unnamedFirst);
    }

private slots:
    void replaces_data() { routes(); }
    void replaces()
    {
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("file.txt").toStdString();
        QCOMPARE(errorOf(write(path, "first")), std::string());
        QCOMPARE(readFile(path), std::string("first"));
        const auto second = write(path, "second");
        QCOMPARE(errorOf(second), std::string());
        QCOMPARE(second->notDurable, std::string());
        QCOMPARE(readFile(path), std::string("second"));
        QCOMPARE(entriesIn(temp), 1L);
    }

    void exactModeWhateverTheUmask_data()
    {
        QTest::addColumn<bool>("unnamedFirst");
        QTest::addColumn<int>("umaskValue");
        QTest::addColumn<int>("mode");
        for (const bool unnamed : {true, false}) {
            const char* route = unnamed ? "unnamed, " : "named, ";
            QTest::addRow("%sdefault mode, strict umask", route) << unnamed << 077 << 0644;
            QTest::addRow("%sprivate, open umask", route) << unnamed << 0 << 0600;
            QTest::addRow("%sprivate, usual umask", route) << unnamed << 022 << 0600;
            QTest::addRow("%sgroup readable", route) << unnamed << 027 << 0640;
        }
    }

    void exactModeWhateverTheUmask()
    {
        QFETCH(int, umaskValue);
        QFETCH(int, mode);
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("file.txt").toStdString();
        const mode_t saved = ::umask(static_cast<mode_t>(umaskValue));
        const auto written = write(path, "text", static_cast<unsigned>(mode));
        ::umask(saved);
        QCOMPARE(errorOf(written), std::string());
        QCOMPARE(modeOf(path), mode);
    }

    void refusesAnExistingFile_data() { routes(); }
    void refusesAnExistingFile()
    {
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("payload.json").toStdString();
        QCOMPARE(errorOf(write(path, "new", 0600, IfExists::Refuse)), std::string());
        QCOMPARE(readFile(path), std::string("new"));
        QCOMPARE(modeOf(path), 0600);

        QCOMPARE(errorOf(write(path, "other", 0600, IfExists::Refuse)), path.string() + " exists");
        QCOMPARE(readFile(path), std::string("new"));
        QCOMPARE(entriesIn(temp), 1L);

        // A symbolic link, even a dangling one, is there too: never followed.
        const std::filesystem::path link = temp.filePath("link").toStdString();
        std::filesystem::create_symlink(temp.filePath("nowhere").toStdString(), link);
        QVERIFY(!errorOf(write(link, "x", 0600, IfExists::Refuse)).empty());
        QVERIFY(!std::filesystem::exists(temp.filePath("nowhere").toStdString()));
        QCOMPARE(entriesIn(temp), 2L);
    }

    void failureLeavesTheTargetAlone_data() { routes(); }
    void failureLeavesTheTargetAlone()
    {
        QTemporaryDir temp;
        // A missing directory: nothing can be created, the error names the path.
        const std::filesystem::path missing = temp.filePath("no/such/file").toStdString();
        auto error = errorOf(write(missing, "x"));
        QVERIFY2(error.find(missing.string()) != std::string::npos, error.c_str());

        // A directory where the file should be: rename fails, the directory
        // and its contents stay, the temp file is gone.
        const std::filesystem::path folder = temp.filePath("folder").toStdString();
        std::filesystem::create_directory(folder);
        std::ofstream(folder / "inside") << "kept";
        error = errorOf(write(folder, "x"));
        QVERIFY2(error.find(folder.string()) != std::string::npos, error.c_str());
        QVERIFY(std::filesystem::is_directory(folder));
        QCOMPARE(readFile(folder / "inside"), std::string("kept"));
        QCOMPARE(entriesIn(temp), 1L);
    }

    void killedMidWriteLeavesNoCopy_data() { routes(); }
    void killedMidWriteLeavesNoCopy()
    {
        // A writer killed mid-write (here by the file-size limit, with
        // SIGXFSZ at its default action: the process dies at the write):
        // no file holding any of the contents may stay behind, except, on
        // a file system without O_TMPFILE, the named temp file until the
        // next write of the same path removes it.
        QFETCH(bool, unnamedFirst);
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("export.txt").toStdString();
        const std::string secrets(256 * 1024, 'S');
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const rlimit small{4096, 4096};
            ::setrlimit(RLIMIT_FSIZE, &small);
            std::signal(SIGXFSZ, SIG_DFL);
            const auto written =
                detail::writeFileAtomically(path, secrets, 0600, IfExists::Refuse, unnamedFirst);
            ::_exit(written ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(WTERMSIG(status), SIGXFSZ);
        QVERIFY(!std::filesystem::exists(path));
        QCOMPARE(entriesIn(temp), unnamedFirst ? 0L : 1L);

        // The next write of the path removes what the killed one left.
        QCOMPARE(errorOf(write(path, "after", 0600, IfExists::Refuse)), std::string());
        QCOMPARE(entriesIn(temp), 1L);
        QCOMPARE(readFile(path), std::string("after"));
    }

    void aTempFileInUseIsNotRemoved()
    {
        // A writer between naming its temp file and the rename holds its
        // flock: another writer of the same path leaves that file alone.
        QTemporaryDir temp;
        const std::filesystem::path path = temp.filePath("out.json").toStdString();
        const std::filesystem::path held = temp.filePath(".out.json.tmp-Ab3dE9").toStdString();
        const std::filesystem::path stale = temp.filePath(".out.json.tmp-zz0000").toStdString();
        const std::filesystem::path other = temp.filePath(".other.tmp-Ab3dE9").toStdString();
        const std::filesystem::path longer = temp.filePath(".out.json.tmp-Ab3dE9x").toStdString();
        for (const auto& name : {held, stale, other, longer})
            std::ofstream(name) << "secret";
        QVERIFY(detail::isTempFileNameOf(path, held.filename().string()));
        QVERIFY(!detail::isTempFileNameOf(path, other.filename().string()));
        QVERIFY(!detail::isTempFileNameOf(path, longer.filename().string()));
        const int holder = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);
        QVERIFY(holder >= 0);
        QCOMPARE(::flock(holder, LOCK_EX), 0);

        QCOMPARE(errorOf(writeFileAtomically(path, "x")), std::string());
        QVERIFY(std::filesystem::exists(held));
        QVERIFY(!std::filesystem::exists(stale));
        QVERIFY(std::filesystem::exists(other));  // another file's
        QVERIFY(std::filesystem::exists(longer)); // not our name

        ::close(holder);
        QCOMPARE(errorOf(writeFileAtomically(path, "y")), std::string());
        QVERIFY(!std::filesystem::exists(held));
    }

    void readsARegularFile()
    {
        QTemporaryDir temp;
        const std::string path = temp.filePath("data").toStdString();
        std::ofstream(path) << std::string(100'000, 'x');
        const auto data = readRegularFile(path, 100'000);
        QVERIFY(data.ok());
        QCOMPARE(data->size(), std::size_t{100'000});

        const auto tooLarge = readRegularFile(path, 99'999);
        QVERIFY(!tooLarge.ok());
        QCOMPARE(tooLarge.error(), quoted(path) + " is larger than 99999 bytes");

        const auto missing = readRegularFile(path + ".missing", 10);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error(),
                 "cannot open " + quoted(path + ".missing") + ": No such file or directory");
    }

    void neverWaitsOnAFifo()
    {
        // Opening a FIFO with no writer blocks forever unless O_NONBLOCK:
        // were it waited on, this test would hang rather than fail.
        QTemporaryDir temp;
        const std::string fifo = temp.filePath("fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto read = readRegularFile(fifo, 1024);
        QVERIFY(!read.ok());
        QCOMPARE(read.error(), quoted(fifo) + " is a FIFO (named pipe), not a regular file");

        const auto folder = readRegularFile(temp.path().toStdString(), 1024);
        QVERIFY(!folder.ok());
        QCOMPARE(folder.error(),
                 quoted(temp.path().toStdString()) + " is a directory, not a regular file");

        const auto device = readRegularFile("/dev/zero", 1024);
        QVERIFY(!device.ok());
        QCOMPARE(device.error(),
                 std::string("'/dev/zero' is a character device, not a regular file"));

        const RegularFile opened = openRegularFile(fifo.c_str());
        QCOMPARE(opened.descriptor, -1);
        QCOMPARE(opened.kind, std::string_view("a FIFO (named pipe)"));
    }
};

QTEST_GUILESS_MAIN(TestFileIo)
#include "TestFileIo.moc"
