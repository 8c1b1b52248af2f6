// Copies codes to the clipboard and takes them back.
//
// A copied code is cleared after clearSeconds (30 by default) unless the
// clipboard no longer holds it: whatever the user copied since is theirs and
// stays. The data carries the hint KDE's and other clipboard managers honour
// ("x-kde-passwordManagerHint: secret") so it is kept out of clipboard
// history, and it goes to the clipboard only, never to the primary selection
// (which a middle click pastes anywhere).
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class ClipboardService : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the clipboard service is made by main()")
    Q_PROPERTY(int clearSeconds READ clearSeconds WRITE setClearSeconds NOTIFY clearSecondsChanged)
    Q_PROPERTY(bool holdingSecret READ holdingSecret NOTIFY holdingSecretChanged)

public:
    static constexpr int defaultClearSeconds = 30;

    explicit ClipboardService(QObject* parent = nullptr);
    ~ClipboardService() override;

    int clearSeconds() const { return m_clearSeconds; }
    void setClearSeconds(int seconds); // 0: never clear
    // The delay in milliseconds instead, for tests.
    void setClearMilliseconds(int milliseconds);

    // True while the clipboard holds a code we put there.
    bool holdingSecret() const { return !m_copied.isEmpty(); }

    // Puts text on the clipboard and arms the clearing timer.
    Q_INVOKABLE void copy(const QString& text);
    // Clears the clipboard now if it still holds what we copied (locking).
    Q_INVOKABLE void clearNow();
    // The clipboard's text if it is an otpauth:// link (trimmed), else "":
    // the add dialog offers it.
    Q_INVOKABLE QString otpauthLink() const;

signals:
    void clearSecondsChanged();
    void holdingSecretChanged();
    void copied();
    void cleared();

private:
    void forget();

    QTimer m_timer;
    QString m_copied;
    int m_clearSeconds = defaultClearSeconds;
};

} // namespace watchword::app
