// The vault's contacts as the Contacts page shows and changes them: the
// people its owner shares with, each a sharing identity under a name,
// verified or not (docs/FORMAT.md section 6.4, kind 3). The rules (one
// contact per key, distinct names, never the vault's own identity) and the
// finding are the core's (vault/Contacts.h); each change is saved at once,
// and a removed contact goes to the session's undo history like a note.
//
// Contacts are few (a person shares with a handful of people), so the list
// is a plain QVariantList of maps, made again on every change: recordId,
// name, fingerprint (eight words), identity (the watchword-id: text) and
// verified.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace watchword::vault {
struct Contact;
}

namespace watchword::app {

class VaultController;

class ContactBook : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the contacts are made by the app shell")
    Q_PROPERTY(QVariantList contacts READ contacts NOTIFY contactsChanged)
    // Why the last change was refused ("" after one that worked).
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    explicit ContactBook(VaultController& session, QObject* parent = nullptr);

    const QVariantList& contacts() const { return m_contacts; }
    const QString& error() const { return m_error; }

    // Adds the identity text (watchword-id:...) as a contact named name, not
    // verified, and saves; its record id (hex), or "" with error set.
    Q_INVOKABLE QString add(const QString& identity, const QString& name);
    // The first identity text among a QR code reader's texts, or "" with
    // error set (none of them is an identity).
    Q_INVOKABLE QString identityAmong(const QStringList& texts);
    // A QR code reader found nothing: its sentence becomes the error.
    Q_INVOKABLE void readFailed(const QString& why);
    // The identity in a file someone handed over: a text file holding it,
    // or their vault file (its header names its identity; no password).
    // Its text, or "" with error set.
    Q_INVOKABLE QString identityInFile(const QUrl& file);
    Q_INVOKABLE bool rename(const QString& recordId, const QString& name);
    // Marks the contact verified (its fingerprint compared by another
    // channel) or not, and saves.
    Q_INVOKABLE bool setVerified(const QString& recordId, bool verified);
    // Removes the contact, keeping it for undo.
    Q_INVOKABLE bool remove(const QString& recordId);
    Q_INVOKABLE void clearError();

    // The list follows the vault (RecordViews.h).
    void fill();
    void empty();
    void show(const vault::Contact&) { fill(); }
    void hide(const QByteArray&) { fill(); }

signals:
    void contactsChanged();
    void errorChanged();

private:
    void setError(QString error);
    // The contact with recordId, for a change: null with error set if the
    // vault cannot be edited now or has no such contact.
    const vault::Contact* editable(const QString& recordId);
    // After a change the core made: saves and shows the list again.
    void changed();

    VaultController& m_session;
    QVariantList m_contacts;
    QString m_error;
};

} // namespace watchword::app
