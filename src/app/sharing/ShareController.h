// "Share…": accounts and notes sealed to contacts in a share envelope
// (docs/FORMAT.md section 12; vault/Exchange.h does the sealing). The dialog
// lists what can be shared, the user ticks records and people, and the
// envelope is made once; it then goes out as a .wwshare file, as armoured
// text to paste, or as a QR code when it fits one.
//
// The envelope holds no secret readable by anyone but its recipients, so it
// is kept (and shown) as it is until the dialog closes, the choice changes
// or the vault locks. Sealing takes well under a millisecond per recipient
// (docs/PERFORMANCE.md), and the file is at most 1 MiB: both run on the GUI
// thread.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class VaultController;

class ShareController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    // What can be shared, in list order, accounts then notes; each a map of
    // recordId, kind ("account" or "note") and title. Made by refresh().
    Q_PROPERTY(QVariantList records READ records NOTIFY recordsChanged)
    // Why the last step was refused ("" after one that worked).
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    // An envelope is made, and the properties below describe it.
    Q_PROPERTY(bool sealed READ sealed NOTIFY sealedChanged)
    // "2 records for Alice and Bob (1,204 bytes)".
    Q_PROPERTY(QString summary READ summary NOTIFY sealedChanged)
    // The armoured text (section 12.5), to copy and paste.
    Q_PROPERTY(QString text READ text NOTIFY sealedChanged)
    // The QR code's text, or "" when the envelope is too large for one;
    // qrProblem then says so.
    Q_PROPERTY(QString qrText READ qrText NOTIFY sealedChanged)
    Q_PROPERTY(QString qrProblem READ qrProblem NOTIFY sealedChanged)
    Q_PROPERTY(QString suggestedFileName READ suggestedFileName NOTIFY sealedChanged)

public:
    explicit ShareController(QObject* parent = nullptr);

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    const QVariantList& records() const { return m_records; }
    const QString& error() const { return m_error; }
    bool sealed() const { return !m_envelope.isEmpty(); }
    const QString& summary() const { return m_summary; }
    const QString& text() const { return m_text; }
    const QString& qrText() const { return m_qrText; }
    const QString& qrProblem() const { return m_qrProblem; }
    const QString& suggestedFileName() const { return m_fileName; }

    // Lists what the vault holds to share now.
    Q_INVOKABLE void refresh();
    // What keeps the choice from being sealed ("" if nothing): no record,
    // no person, or a vault without a sharing identity.
    Q_INVOKABLE QString problem(const QStringList& recordIds, const QStringList& contactIds) const;
    // Seals the records with recordIds to the contacts with contactIds.
    // False, with error set, if refused (the core's sentence).
    Q_INVOKABLE bool seal(const QStringList& recordIds, const QStringList& contactIds);
    Q_INVOKABLE bool fileExists(const QUrl& file) const;
    // Writes the envelope to file (atomically, 0600); an existing file only
    // if overwrite. The message says where, or error why not.
    Q_INVOKABLE bool saveTo(const QUrl& file, bool overwrite);
    // Forgets the envelope (the choice changed, the dialog closed).
    Q_INVOKABLE void clear();

    // The envelope's bytes, for tests.
    const QByteArray& envelope() const { return m_envelope; }

signals:
    void vaultChanged();
    void recordsChanged();
    void errorChanged();
    void sealedChanged();
    // A file was written: message names it.
    void saved(const QString& message);

private:
    void setError(QString error);

    VaultController* m_vault = nullptr; // not owned; null when destroyed
    QVariantList m_records;
    QString m_error;
    QByteArray m_envelope;
    QString m_summary;
    QString m_text;
    QString m_qrText;
    QString m_qrProblem;
    QString m_fileName;
};

} // namespace watchword::app
