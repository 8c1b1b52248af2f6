#include "app/desktop/SingleInstance.h"

#include <QCryptographicHash>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QLocalSocket>
#include <QLockFile>
#include <QStringDecoder>
#include <QTimer>
#include <QtEndian>
#include <algorithm>
#include <sys/socket.h>
#include <unistd.h>

namespace watchword::app {

namespace {

// More clients at once than any launcher makes: the rest are turned away.
constexpr qsizetype maxClients = 8;
constexpr qsizetype headerBytes = 4;
const QByteArray raiseRequest = QByteArrayLiteral("raise");
const QByteArray acknowledgement = QByteArrayLiteral("ok");

QString canonicalPath(const QString& path)
{
    const QFileInfo info(path);
    QString canonical = info.canonicalFilePath();
    if (!canonical.isEmpty())
        return canonical;
    // No vault there yet (the first run): its directory may still be reached
    // through a symbolic link.
    const QString directory = QFileInfo(info.absolutePath()).canonicalFilePath();
    if (!directory.isEmpty())
        return directory + QLatin1Char('/') + info.fileName();
    return QDir::cleanPath(info.absoluteFilePath());
}

// The session's runtime directory if it is ours, otherwise the temporary
// directory (where the user id in the name keeps users apart).
QString socketDirectory()
{
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir::isAbsolutePath(runtime)) {
        const QFileInfo info(runtime);
        if (info.isDir() && info.ownerId() == ::geteuid())
            return QDir::cleanPath(runtime);
    }
    return QDir::cleanPath(QDir::tempPath());
}

QByteArray frame(const QByteArray& payload)
{
    QByteArray message(headerBytes, '\0');
    qToBigEndian<quint32>(quint32(payload.size()), message.data());
    return message + payload;
}

// Whether the process at the other end runs as our user. The socket's file
// permissions already say so; this holds even if they were loosened.
bool peerIsUs(const QLocalSocket& socket)
{
#ifdef Q_OS_LINUX
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (::getsockopt(int(socket.socketDescriptor()), SOL_SOCKET, SO_PEERCRED, &credentials,
                     &size) != 0)
        return false;
    return credentials.uid == ::geteuid();
#else
    Q_UNUSED(socket);
    return true;
#endif
}

} // namespace

QString SingleInstance::serverNameFor(const QString& vaultPath)
{
    const QByteArray hash =
        QCryptographicHash::hash(canonicalPath(vaultPath).toUtf8(), QCryptographicHash::Sha256)
            .toHex()
            .left(32);
    return socketDirectory() +
           QStringLiteral("/watchword-%1-%2").arg(::geteuid()).arg(QString::fromLatin1(hash));
}

bool SingleInstance::isOtpauthUri(const QString& text)
{
    if (!text.startsWith(QLatin1String("otpauth://"), Qt::CaseInsensitive) ||
        text.toUtf8().size() > maxMessageBytes)
        return false;
    // A link never holds raw control characters; whatever does is not one.
    return std::none_of(text.cbegin(), text.cend(),
                        [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
}

SingleInstance::SingleInstance(QString serverName, QObject* parent)
    : QObject(parent), m_serverName(std::move(serverName))
{
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&m_server, &QLocalServer::newConnection, this, &SingleInstance::acceptConnections);
}

SingleInstance::~SingleInstance() = default;

SingleInstance::Outcome SingleInstance::start(const QString& uri, int timeoutMilliseconds)
{
    // Looking for a running instance and listening must be one step: two
    // launches at once would otherwise both find nobody and both listen
    // (the later socket replacing the earlier one's name).
    QLockFile lock(m_serverName + QStringLiteral(".lock"));
    if (!lock.tryLock(timeoutMilliseconds))
        return Outcome::Alone;
    switch (handOver(uri, timeoutMilliseconds)) {
    case Handover::Done:
        return Outcome::Forwarded;
    case Handover::Failed:
        return Outcome::Alone;
    case Handover::NobodyListening:
        break;
    }
    return listen() ? Outcome::Primary : Outcome::Alone;
}

SingleInstance::Handover SingleInstance::handOver(const QString& uri, int timeoutMilliseconds)
{
    QLocalSocket socket;
    socket.connectToServer(m_serverName);
    if (!socket.waitForConnected(timeoutMilliseconds)) {
        switch (socket.error()) {
        case QLocalSocket::ServerNotFoundError:
        // A socket file nobody listens on: its instance crashed.
        case QLocalSocket::ConnectionRefusedError:
            return Handover::NobodyListening;
        default:
            return Handover::Failed;
        }
    }
    if (!peerIsUs(socket) || (!uri.isEmpty() && !isOtpauthUri(uri)))
        return Handover::Failed;
    const QByteArray payload = uri.isEmpty() ? raiseRequest : uri.toUtf8();

    // The first instance may be this very thread (tests): wait in an event
    // loop, not in a blocking read.
    const QByteArray expected = frame(acknowledgement);
    QByteArray answer;
    bool acknowledged = false;
    QEventLoop loop;
    const auto readAnswer = [&] {
        answer += socket.read(expected.size() - answer.size());
        acknowledged = answer == expected;
        if (acknowledged || !expected.startsWith(answer))
            loop.quit();
    };
    connect(&socket, &QLocalSocket::readyRead, &loop, readAnswer);
    connect(&socket, &QLocalSocket::disconnected, &loop, [&] {
        readAnswer();
        loop.quit();
    });
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    timeout.start(timeoutMilliseconds);
    socket.write(frame(payload));
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    return acknowledged ? Handover::Done : Handover::Failed;
}

bool SingleInstance::listen()
{
    // Only reached when nobody answered: whatever has the name is stale.
    QLocalServer::removeServer(m_serverName);
    m_server.setMaxPendingConnections(int(maxClients));
    return m_server.listen(m_serverName);
}

void SingleInstance::acceptConnections()
{
    while (QLocalSocket* socket = m_server.nextPendingConnection()) {
        if (m_pending.size() >= maxClients || !peerIsUs(*socket)) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        m_pending.insert(socket, {});
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readMessage(socket); });
        connect(socket, &QLocalSocket::disconnected, this, [this, socket] {
            m_pending.remove(socket);
            socket->deleteLater();
        });
        // A client that never finishes its message does not keep its slot.
        QTimer::singleShot(defaultTimeoutMilliseconds, socket, [this, socket] {
            m_pending.remove(socket);
            socket->abort();
            socket->deleteLater();
        });
        if (socket->bytesAvailable() > 0)
            readMessage(socket);
    }
}

void SingleInstance::readMessage(QLocalSocket* socket)
{
    const auto found = m_pending.find(socket);
    if (found == m_pending.end())
        return;
    QByteArray& buffer = found.value();
    const auto drop = [this, socket] {
        m_pending.remove(socket);
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    };

    // Never more than one whole message is read, whatever the client sends.
    buffer += socket->read(headerBytes + maxMessageBytes - buffer.size());
    if (buffer.size() < headerBytes)
        return;
    const qsizetype length = qFromBigEndian<quint32>(buffer.constData());
    if (length == 0 || length > maxMessageBytes || buffer.size() > headerBytes + length) {
        drop();
        return;
    }
    if (buffer.size() < headerBytes + length)
        return;

    const QByteArray payload = buffer.mid(headerBytes);
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = utf8.decode(payload);
    const bool raise = payload == raiseRequest;
    const bool link = !raise && !utf8.hasError() && isOtpauthUri(text);
    if (!raise && !link) {
        drop();
        return;
    }

    m_pending.remove(socket);
    emit activationRequested();
    if (link)
        emit uriReceived(text);
    // Flushed, then closed, by the event loop; disconnected() deletes it.
    socket->write(frame(acknowledgement));
    socket->disconnectFromServer();
}

} // namespace watchword::app
