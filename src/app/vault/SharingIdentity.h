// The vault's sharing identity as the Settings page shows it: the text to
// give to people who will share with you and the fingerprint words to
// compare with them (docs/FORMAT.md section 11). Public, so copied like any
// text. A vault first written in format version 1 has none until its
// recovery phrase is checked or used (RecoveryPhrase); `hint` says so.
#pragma once

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class VaultController;

class SharingIdentity : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the sharing identity belongs to the vault controller")
    Q_PROPERTY(bool available READ available NOTIFY changed)
    // "watchword-id:ww1..." ("" when there is none).
    Q_PROPERTY(QString text READ text NOTIFY changed)
    // Eight words, separated by spaces.
    Q_PROPERTY(QString fingerprint READ fingerprint NOTIFY changed)

public:
    explicit SharingIdentity(VaultController& session);

    bool available() const { return !m_text.isEmpty(); }
    const QString& text() const { return m_text; }
    const QString& fingerprint() const { return m_fingerprint; }

signals:
    void changed();

private:
    // Reads the identity of the open vault (none while locked).
    void refresh();

    VaultController& m_session;
    QString m_text;
    QString m_fingerprint;
};

} // namespace watchword::app
