// SingleInstance: two objects in one process on a socket name of their own
// (a temporary directory), as two launches of the app would be.
#include "app/desktop/SingleInstance.h"

#include <QLocalServer>
#include <QLocalSocket>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using watchword::app::SingleInstance;

namespace {

const QString otpLink = QStringLiteral(
    "otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example");

QByteArray frame(const QByteArray& payload)
{
    QByteArray message(4, '\0');
    qToBigEndian<quint32>(quint32(payload.size()), message.data());
    return message + payload;
}

// Sends raw bytes to the server and returns what came back before it hung up.
QByteArray sendRaw(const QString& serverName, const QByteArray& bytes)
{
    QLocalSocket client;
    client.connectToServer(serverName);
    if (!client.waitForConnected(5000))
        return QByteArrayLiteral("<no connection>");
    QSignalSpy disconnected(&client, &QLocalSocket::disconnected);
    client.write(bytes);
    if (!disconnected.wait(10000))
        return QByteArrayLiteral("<still connected>");
    return client.readAll();
}

} // namespace

class TestSingleInstance : public QObject
{
    Q_OBJECT

private slots:
    void namesHideThePathAndFollowLinks();
    void secondHandsOverALink();
    void secondJustRaises();
    void staleNameIsTakenOver();
    void garbageIsIgnored();
    void silentHolderLeavesUsAlone();

private:
    QTemporaryDir m_dir;
    int m_names = 0;

    QString uniqueName() { return m_dir.filePath(QStringLiteral("ww-%1").arg(++m_names)); }
};

void TestSingleInstance::namesHideThePathAndFollowLinks()
{
    QTemporaryDir dir;
    const QString vault = dir.filePath(QStringLiteral("secret-name.wwv"));
    QVERIFY(QFile::link(dir.path(), dir.filePath(QStringLiteral("link"))));

    const QString name = SingleInstance::serverNameFor(vault);
    QVERIFY(QDir::isAbsolutePath(name));
    QVERIFY2(!name.contains(QStringLiteral("secret-name")), qPrintable(name));
    QVERIFY(
        QFileInfo(name).fileName().startsWith(QStringLiteral("watchword-%1-").arg(::geteuid())));
    // The same file however it is reached, whether it exists yet or not.
    QCOMPARE(SingleInstance::serverNameFor(dir.filePath(QStringLiteral("link/secret-name.wwv"))),
             name);
    QCOMPARE(SingleInstance::serverNameFor(dir.filePath(QStringLiteral("./x/../secret-name.wwv"))),
             name);
    QFile file(vault);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    QCOMPARE(SingleInstance::serverNameFor(dir.filePath(QStringLiteral("link/secret-name.wwv"))),
             name);
    QVERIFY(SingleInstance::serverNameFor(dir.filePath(QStringLiteral("other.wwv"))) != name);
}

void TestSingleInstance::secondHandsOverALink()
{
    const QString name = uniqueName();
    SingleInstance first(name);
    QSignalSpy raised(&first, &SingleInstance::activationRequested);
    QSignalSpy links(&first, &SingleInstance::uriReceived);
    QCOMPARE(first.start(QString()), SingleInstance::Outcome::Primary);
    QVERIFY(first.isListening());

    SingleInstance second(name);
    QCOMPARE(second.start(otpLink), SingleInstance::Outcome::Forwarded);
    QVERIFY(!second.isListening());
    QCOMPARE(raised.count(), 1);
    QCOMPARE(links.count(), 1);
    QCOMPARE(links.constFirst().constFirst().toString(), otpLink);
}

void TestSingleInstance::secondJustRaises()
{
    const QString name = uniqueName();
    SingleInstance first(name);
    QSignalSpy raised(&first, &SingleInstance::activationRequested);
    QSignalSpy links(&first, &SingleInstance::uriReceived);
    QCOMPARE(first.start(QString()), SingleInstance::Outcome::Primary);

    for (int launch = 1; launch <= 3; ++launch) {
        SingleInstance later(name);
        QCOMPARE(later.start(QString()), SingleInstance::Outcome::Forwarded);
        QCOMPARE(raised.count(), launch);
    }
    QCOMPARE(links.count(), 0);
}

void TestSingleInstance::staleNameIsTakenOver()
{
    // What a crashed first instance leaves: a socket file nobody listens on.
    const QString name = uniqueName();
    const QByteArray path = QFile::encodeName(name);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    QVERIFY(std::size_t(path.size()) < sizeof address.sun_path);
    std::memcpy(address.sun_path, path.constData(), std::size_t(path.size()) + 1);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ::close(fd);
    QVERIFY(QFileInfo::exists(name));

    SingleInstance first(name);
    QSignalSpy links(&first, &SingleInstance::uriReceived);
    QCOMPARE(first.start(QString()), SingleInstance::Outcome::Primary);
    SingleInstance second(name);
    QCOMPARE(second.start(otpLink), SingleInstance::Outcome::Forwarded);
    QCOMPARE(links.count(), 1);
}

void TestSingleInstance::garbageIsIgnored()
{
    const QString name = uniqueName();
    SingleInstance first(name);
    QSignalSpy raised(&first, &SingleInstance::activationRequested);
    QSignalSpy links(&first, &SingleInstance::uriReceived);
    QCOMPARE(first.start(QString()), SingleInstance::Outcome::Primary);

    QByteArray huge(SingleInstance::maxMessageBytes + 1, 'a');
    huge.prepend("otpauth://");
    const QList<QByteArray> garbage = {
        QByteArray("\xff\xff\xff\xff", 4) + QByteArray(64, 'x'), // claims 4 GiB
        frame(huge),                                             // over the cap
        frame({}),                                               // empty
        frame("hello"),                                          // not a request
        frame("raise") + "trailing",                             // more than one message
        frame("otpauth://totp/x?secret=A\nB"),                   // a control character
        frame("otpauth://totp/\xc3\x28"),                        // not UTF-8
        QByteArray("GET / HTTP/1.1\r\n\r\n"),
    };
    for (const QByteArray& bytes : garbage) {
        // No answer and the connection closed: the client learns nothing.
        QCOMPARE(sendRaw(name, bytes), QByteArray());
        QCOMPARE(raised.count(), 0);
        QCOMPARE(links.count(), 0);
    }

    // A message in pieces is still one message.
    {
        QLocalSocket client;
        client.connectToServer(name);
        QVERIFY(client.waitForConnected(5000));
        const QByteArray message = frame(otpLink.toUtf8());
        client.write(message.left(2));
        QVERIFY(client.waitForBytesWritten(5000));
        QCoreApplication::processEvents();
        client.write(message.mid(2));
        QSignalSpy disconnected(&client, &QLocalSocket::disconnected);
        QVERIFY(disconnected.wait(10000));
        QCOMPARE(client.readAll(), frame("ok"));
        QCOMPARE(links.count(), 1);
    }

    // Still listening and answering as before.
    SingleInstance second(name);
    QCOMPARE(second.start(QString()), SingleInstance::Outcome::Forwarded);
    QCOMPARE(raised.count(), 2);
}

void TestSingleInstance::silentHolderLeavesUsAlone()
{
    // Something holds the name and never answers: not ours to take over.
    const QString name = uniqueName();
    QLocalServer silent;
    QVERIFY(silent.listen(name));
    SingleInstance launch(name);
    QCOMPARE(launch.start(otpLink, 200), SingleInstance::Outcome::Alone);
    QVERIFY(!launch.isListening());
    QVERIFY(silent.isListening());
}

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "TestSingleInstance.moc"
