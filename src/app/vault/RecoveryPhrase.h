// The recovery phrase, from the app's side: making a new one and having the
// user confirm it (at first run, where it creates the vault, and later, where
// it replaces the vault's recovery key), and checking whether a phrase opens
// this vault. The vault never keeps a phrase, so none can be shown again.
#pragma once

#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "vault/VaultFile.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>
#include <memory>
#include <optional>

namespace watchword::keychain {
class Keychain;
}

namespace watchword::app {

class VaultController;

class RecoveryPhrase : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the recovery phrase flow belongs to the vault controller")
    // A new phrase waiting to be written down and confirmed: its words, and
    // the positions (1-based) the user must type back.
    Q_PROPERTY(QStringList recoveryWords READ recoveryWords NOTIFY recoveryPhraseChanged)
    Q_PROPERTY(QList<int> confirmPositions READ confirmPositions NOTIFY recoveryPhraseChanged)
    // That new phrase's recovery key fingerprint, to write down beside it.
    Q_PROPERTY(
        QString newRecoveryFingerprint READ newRecoveryFingerprint NOTIFY recoveryPhraseChanged)
    // The fingerprint of the recovery key the vault file holds (what opens it
    // besides the password; docs/FORMAT.md section 6.8), "" if none is known.
    Q_PROPERTY(QString recoveryFingerprint READ recoveryFingerprint NOTIFY recoveryKeyChanged)
    // checkRecoveryPhrase()'s answer, "" before it is asked.
    Q_PROPERTY(QString phraseCheck READ phraseCheck NOTIFY phraseCheckChanged)
    Q_PROPERTY(bool phraseMatches READ phraseMatches NOTIFY phraseCheckChanged)

public:
    // Words the user must type back to confirm a new phrase.
    static constexpr int confirmWordCount = 3;

    explicit RecoveryPhrase(VaultController& session);
    ~RecoveryPhrase() override;

    const QStringList& recoveryWords() const { return m_words; }
    const QList<int>& confirmPositions() const { return m_positions; }
    QString newRecoveryFingerprint() const;
    QString recoveryFingerprint() const;
    const QString& phraseCheck() const { return m_check; }
    bool phraseMatches() const { return m_matches; }

    // First run: checks the two passwords (equal, not very weak) and makes a
    // new 24-word phrase on a worker; recoveryWords then holds it.
    Q_INVOKABLE bool beginCreate(QString password, QString repeat);
    // While unlocked: asks for the password again, then makes a new phrase;
    // confirmed, it replaces the recovery slot and the old phrase stops
    // working.
    Q_INVOKABLE bool beginNewRecoveryPhrase(QString password);
    // Takes the words at confirmPositions. Right, the first run's phrase
    // creates the vault (calibrated KDF, on a worker: it ends Unlocked) and
    // a new one replaces the recovery key and is saved.
    Q_INVOKABLE bool confirmRecoveryPhrase(const QStringList& words);
    // Forgets the phrase and the first run's password.
    Q_INVOKABLE void cancelRecoveryPhrase();
    // Whether phrase opens this vault: its recovery key against the one the
    // file holds, no password needed. The answer is phraseCheck (and
    // phraseMatches); the phrase text is wiped.
    Q_INVOKABLE void checkRecoveryPhrase(QString phrase);
    Q_INVOKABLE void clearPhraseCheck();

    // The vault file as last read or written: its header holds the
    // recovery key the fingerprint and the check read.
    void noteFile(ByteView file);
    // Drops a phrase waiting for confirmation (the vault locked).
    void forget();

signals:
    void recoveryPhraseChanged();
    void recoveryKeyChanged();
    void phraseCheckChanged();
    // A new recovery phrase replaced the vault's, or could not.
    void replaced(bool succeeded);

private:
    enum class Purpose { Create, Replace };
    // The vault's phrase checked while it is open and has no sharing
    // identity yet (a vault first written in format version 1): the phrase
    // gives it one, saved. What to add to the answer ("" if nothing changed).
    QString adoptSharingIdentity(const keychain::Keychain& keychain);
    void show(std::unique_ptr<keychain::Keychain> keychain, Purpose purpose);

    VaultController& m_session;
    // The first-run password, between beginCreate and the confirmation.
    SecureBuffer m_pendingPassword;
    std::unique_ptr<keychain::Keychain> m_pending;
    Purpose m_purpose = Purpose::Create;
    QStringList m_words;
    QList<int> m_positions;
    std::optional<vault::VaultHeaderInfo> m_fileHeader;
    QString m_check;
    bool m_matches = false;
};

} // namespace watchword::app
