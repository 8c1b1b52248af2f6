// One running app per user and vault file.
//
// The first instance listens on a local socket whose name holds the user id
// and a hash of the vault's canonical path (the path itself would show in a
// directory listing); a second launch on the same vault hands its request
// over ("raise", or an otpauth:// link to add) and exits, so two processes
// never hold the same vault unlocked.
//
// The socket lives in the session's runtime directory when there is one
// (private to the user), otherwise in the temporary directory, and is made
// with QLocalServer::UserAccessOption. On Linux both ends also check the
// peer's user id, because a link carries a secret. Finding a running
// instance and starting to listen happen under a lock file, so two launches
// at the same moment cannot both become the first; a socket left behind by
// a crashed instance (nobody answers) is removed and taken over.
//
// Messages are a 4-byte big-endian length and that many bytes of UTF-8,
// capped at maxMessageBytes. Anything malformed, oversized, too slow or not
// one of the two requests is dropped without an answer.
#pragma once

#include <QHash>
#include <QLocalServer>
#include <QObject>
#include <QString>

class QLocalSocket;

namespace watchword::app {

class SingleInstance : public QObject
{
    Q_OBJECT

public:
    enum class Outcome {
        Primary,   // we listen now: later launches come to us
        Forwarded, // a running instance took the request: exit
        Alone,     // neither (the name is held by something that does not answer)
    };

    // Far above any otpauth:// link (a QR code holds under 3 KB), far below
    // anything that could hurt.
    static constexpr qsizetype maxMessageBytes = 16 * 1024;
    static constexpr int defaultTimeoutMilliseconds = 5000;

    // The socket name for the vault file at vaultPath (which may not exist
    // yet): an absolute path in the runtime or temporary directory.
    [[nodiscard]] static QString serverNameFor(const QString& vaultPath);

    // Whether text can be handed over as a link: otpauth://, no control
    // characters, within maxMessageBytes. What the link says is the add
    // dialog's to check.
    [[nodiscard]] static bool isOtpauthUri(const QString& text);

    explicit SingleInstance(QString serverName, QObject* parent = nullptr);
    ~SingleInstance() override;

    // Hands uri (an otpauth:// link; empty: just raise) to a running
    // instance, or starts listening when there is none. Runs a local event
    // loop while it waits for the answer, at most timeoutMilliseconds.
    Outcome start(const QString& uri, int timeoutMilliseconds = defaultTimeoutMilliseconds);

    const QString& serverName() const { return m_serverName; }
    bool isListening() const { return m_server.isListening(); }

signals:
    // A later launch asked for the window.
    void activationRequested();
    // A later launch was given this otpauth:// link (activationRequested()
    // comes first).
    void uriReceived(const QString& uri);

private:
    enum class Handover { Done, NobodyListening, Failed };

    Handover handOver(const QString& uri, int timeoutMilliseconds);
    bool listen();
    void acceptConnections();
    void readMessage(QLocalSocket* socket);

    QString m_serverName;
    QLocalServer m_server;
    // What each client has sent so far.
    QHash<QLocalSocket*, QByteArray> m_pending;
};

} // namespace watchword::app
