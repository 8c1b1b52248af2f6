// "Receive a share…": an envelope someone sealed to this vault (docs/
// FORMAT.md section 12), pasted as text, opened as a .wwshare file, or read
// from a QR code (an image, the screen, a drop). vault/Exchange.h opens it
// and says who sent it: a verified contact, a contact not verified, someone
// unknown (only a fingerprint), or this vault itself. The preview lists
// what it holds, marks what the vault already has and whether the envelope
// was received before, and ticks what would be added without choosing
// (vault::suggestedRecords). The ticked records are added all at once and
// saved, or, if the save fails, taken out again.
//
// Records from someone unknown are added only when the person says they
// know who sent them (or after adding the sender as a contact, which the
// dialog offers): the envelope proves which key signed it, not whose key
// that is.
//
// What was opened (secrets included) is kept only between the opening and
// the adding: it is dropped on reset(), after the adding and when the vault
// locks. The envelope's bytes (ciphertext) stay until reset(), so that the
// sender can be looked up again after becoming a contact.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <vector>

namespace watchword::vault {
struct ReceivedShare;
}

namespace watchword::app {

class VaultController;

class ReceiveController : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(watchword::app::VaultController* vault READ vault WRITE setVault NOTIFY vaultChanged)
    // An envelope is open: the properties below describe it.
    Q_PROPERTY(bool opened READ opened NOTIFY openedChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // Why the last step was refused ("" after one that worked).
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(Sender sender READ sender NOTIFY openedChanged)
    // The contact's name (a contact), else "".
    Q_PROPERTY(QString senderName READ senderName NOTIFY openedChanged)
    // Section 11's eight words, to compare with the sender.
    Q_PROPERTY(QString senderFingerprint READ senderFingerprint NOTIFY openedChanged)
    // The sender's identity text, to add them as a contact.
    Q_PROPERTY(QString senderIdentity READ senderIdentity NOTIFY openedChanged)
    // "A share from Alice, a verified contact": the line the preview leads with.
    Q_PROPERTY(QString senderText READ senderText NOTIFY openedChanged)
    // When it was sealed (the sender's clock), and to how many others.
    Q_PROPERTY(QString details READ details NOTIFY openedChanged)
    Q_PROPERTY(bool alreadyReceived READ alreadyReceived NOTIFY openedChanged)
    // One map per record: kind ("account" or "note"), title, detail (what
    // kind of code, or the note's length), duplicate (the vault has it) and
    // duplicateText. Made when a share opens, not when a tick changes.
    Q_PROPERTY(QVariantList records READ records NOTIFY recordsChanged)
    // Whether each record is ticked, in the same order.
    Q_PROPERTY(QVariantList checks READ checks NOTIFY checksChanged)
    Q_PROPERTY(int checkedCount READ checkedCount NOTIFY checksChanged)

public:
    enum class Sender {
        VerifiedContact,
        UnverifiedContact,
        Unknown,
        Yourself,
    };
    Q_ENUM(Sender)

    explicit ReceiveController(QObject* parent = nullptr);
    ~ReceiveController() override;

    VaultController* vault() const { return m_vault; }
    void setVault(VaultController* vault);
    bool opened() const { return m_share != nullptr; }
    bool busy() const { return m_busy; }
    const QString& error() const { return m_error; }
    Sender sender() const;
    QString senderName() const;
    QString senderFingerprint() const;
    QString senderIdentity() const;
    QString senderText() const;
    QString details() const;
    bool alreadyReceived() const;
    const QVariantList& records() const { return m_records; }
    QVariantList checks() const;
    int checkedCount() const;

    // Pasted text: the armoured envelope anywhere in it, or a QR code's
    // text. False, with error set, if it holds no envelope or the envelope
    // does not open for this vault (the core's sentence).
    Q_INVOKABLE bool openText(const QString& text);
    // A .wwshare file (or a text file holding the armour).
    Q_INVOKABLE bool openFile(const QUrl& file);
    // A file's bytes (a share dropped on the window and read by the
    // import, or a test's); sourceName names it in an error.
    Q_INVOKABLE bool openData(const QByteArray& data, const QString& sourceName);
    // A QR code reader's texts: the first share among them.
    Q_INVOKABLE bool openQrTexts(const QStringList& texts);
    // A QR code reader found nothing: its sentence becomes the error.
    Q_INVOKABLE void readFailed(const QString& why);
    // Opens the envelope again (the sender may have become a contact).
    Q_INVOKABLE bool reopen();
    Q_INVOKABLE void setChecked(int index, bool checked);
    // Adds the ticked records and saves; finished() or error follows.
    // From an unknown sender only if knownSender (the person says they
    // know who sent it). False if nothing could be started.
    Q_INVOKABLE bool addChecked(bool knownSender);
    // Forgets the envelope and what it held.
    Q_INVOKABLE void reset();
    // For the documentation's screenshots in the demo vault only: the demo
    // share (demoShareSample) opened into a preview.
    Q_INVOKABLE bool openDemoSample();

signals:
    void vaultChanged();
    void openedChanged();
    void busyChanged();
    void errorChanged();
    void recordsChanged();
    void checksChanged();
    // The records are in the vault and saved: message says how many, from whom.
    void finished(const QString& message);

private:
    void setError(QString error);
    void setBusy(bool busy);
    // True, with error set, while the ticked records are being saved.
    bool refusedWhileBusy();
    bool openEnvelope(QByteArray envelope);
    void forgetOpened();
    void showRecords();

    VaultController* m_vault = nullptr; // not owned; null when destroyed
    QByteArray m_envelope;              // ciphertext: kept for reopen()
    std::unique_ptr<vault::ReceivedShare> m_share;
    QVariantList m_records;
    std::vector<bool> m_checked;
    QString m_error;
    bool m_busy = false;
};

} // namespace watchword::app
