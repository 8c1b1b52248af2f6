#include "app/vault/RecoveryPhrase.h"

#include "app/common/Background.h"
#include "app/vault/Passwords.h"
#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "keychain/Keychain.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/Vault.h"

#include <QRandomGenerator>
#include <algorithm>

namespace watchword::app {

namespace {

using MadeKeychain = Result<std::unique_ptr<keychain::Keychain>, QString>;

// A new keychain with a 24-word phrase (on a worker: it reads the system's
// randomness and derives the seed).
MadeKeychain makeKeychain()
{
    auto made =
        keychain::Keychain::create(crypto::systemRandom(), keychain::Keychain::defaultWordCount);
    if (!made)
        return fail(text::fromCore(made.error().message));
    return std::make_unique<keychain::Keychain>(std::move(*made));
}

} // namespace

RecoveryPhrase::RecoveryPhrase(VaultController& session) : QObject(&session), m_session(session) {}

RecoveryPhrase::~RecoveryPhrase() = default;

QString RecoveryPhrase::newRecoveryFingerprint() const
{
    if (!m_pending)
        return {};
    return QString::fromStdString(vault::recoveryKeyFingerprint(*m_pending));
}

QString RecoveryPhrase::recoveryFingerprint() const
{
    return m_fileHeader ? QString::fromStdString(vault::recoveryKeyFingerprint(*m_fileHeader))
                        : QString();
}

bool RecoveryPhrase::beginCreate(QString password, QString repeat)
{
    const QString problem = newPasswordProblem(password, repeat);
    SecureBuffer secret = text::normalizeSecretText(password);
    text::wipe(repeat);
    if (m_session.state() != VaultController::State::Missing || m_session.busy()) {
        m_session.setError(tr("A vault already exists here."));
        return false;
    }
    if (!problem.isEmpty()) {
        m_session.setError(problem);
        return false;
    }
    m_session.setError({});
    m_pendingPassword = std::move(secret);
    m_session.setBusy(true);
    runInBackground(this, makeKeychain, [this](MadeKeychain made) {
        m_session.setBusy(false);
        if (!made) {
            m_pendingPassword = {};
            m_session.setError(made.error());
            return;
        }
        show(std::move(*made), Purpose::Create);
    });
    return true;
}

bool RecoveryPhrase::beginNewRecoveryPhrase(QString password)
{
    auto secret = std::make_shared<SecureBuffer>(text::normalizeSecretText(password));
    if (m_session.editableVault() == nullptr)
        return false;
    if (m_session.demo()) {
        m_session.setError(tr("The demo vault has no recovery phrase to replace."));
        return false;
    }
    if (secret->empty()) {
        m_session.setError(tr("Enter the vault's password."));
        return false;
    }
    m_session.setError({});
    auto held = m_session.lendVault();
    runInBackground(
        this,
        [held, secret]() -> MadeKeychain {
            if (auto verified = held->verifyPassword(secret->span()); !verified)
                return fail(verified.error().code == vault::VaultError::WrongPassword
                                ? tr("The password is wrong.")
                                : text::fromCore(verified.error().message));
            return makeKeychain();
        },
        [this, held](MadeKeychain made) {
            m_session.returnVault(std::move(*held));
            if (!made) {
                m_session.setError(made.error());
                emit replaced(false);
                return;
            }
            show(std::move(*made), Purpose::Replace);
        });
    return true;
}

void RecoveryPhrase::show(std::unique_ptr<keychain::Keychain> keychain, Purpose purpose)
{
    m_pending = std::move(keychain);
    m_purpose = purpose;
    const auto& mnemonic = m_pending->mnemonic();
    m_words = QString::fromUtf8(reinterpret_cast<const char*>(mnemonic.data()),
                                qsizetype(mnemonic.size()))
                  .split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // Distinct positions, in order, from the system's CSPRNG-backed
    // generator: which words are asked must not be guessable in advance.
    QList<int> positions;
    while (positions.size() < confirmWordCount) {
        const int p = int(QRandomGenerator::system()->bounded(m_words.size())) + 1;
        if (!positions.contains(p))
            positions << p;
    }
    std::sort(positions.begin(), positions.end());
    m_positions = positions;
    emit recoveryPhraseChanged();
}

void RecoveryPhrase::forget()
{
    m_pending.reset();
    m_pendingPassword = {};
    for (auto& word : m_words)
        text::wipe(word);
    m_words.clear();
    m_positions.clear();
    emit recoveryPhraseChanged();
}

void RecoveryPhrase::cancelRecoveryPhrase()
{
    if (m_session.busy())
        return;
    forget();
    m_session.setError({});
}

bool RecoveryPhrase::confirmRecoveryPhrase(const QStringList& words)
{
    if (!m_pending || m_session.busy())
        return false;
    if (words.size() != m_positions.size()) {
        m_session.setError(tr("Type the %n requested words.", nullptr, int(m_positions.size())));
        return false;
    }
    for (qsizetype i = 0; i < words.size(); ++i) {
        const int position = m_positions[i];
        if (words[i].trimmed().toCaseFolded() != m_words[position - 1]) {
            m_session.setError(
                tr("Word %1 is not right. Check what you wrote down.").arg(position));
            return false;
        }
    }
    m_session.setError({});
    if (m_purpose == Purpose::Create) {
        auto keychain = std::shared_ptr<keychain::Keychain>(std::move(m_pending));
        auto password = std::make_shared<SecureBuffer>(std::move(m_pendingPassword));
        forget();
        m_session.create(std::move(keychain), std::move(password));
        return true;
    }
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr)
        return false;
    const auto replacedKey = vault->replaceRecoveryKey(*m_pending, crypto::systemRandom());
    forget();
    if (!replacedKey) {
        m_session.setError(text::fromCore(replacedKey.error().message));
        emit replaced(false);
        return false;
    }
    m_session.requestSave();
    m_session.announceIdentityChanged();
    emit replaced(true);
    return true;
}

QString RecoveryPhrase::adoptSharingIdentity(const keychain::Keychain& keychain)
{
    const vault::Vault* open = m_session.vault();
    if (open == nullptr || open->sharingKey() || m_session.busy() ||
        m_session.state() != VaultController::State::Unlocked)
        return {};
    vault::Vault* vault = m_session.editableVault();
    if (vault == nullptr || !vault->adoptRecoveryPhrase(keychain))
        return {};
    m_session.requestSave();
    m_session.announceIdentityChanged();
    return QLatin1Char(' ') +
           tr("It also gave the vault its sharing identity, which it did not have yet: see "
              "\"Your sharing identity\".");
}

void RecoveryPhrase::noteFile(ByteView file)
{
    auto header = vault::decodeHeader(file);
    const auto recoveryKeyOf = [](const std::optional<vault::VaultHeaderInfo>& info) {
        return info ? info->recoveryPublicKey : std::nullopt;
    };
    std::optional<vault::VaultHeaderInfo> read;
    if (header)
        read = std::move(header).value();
    const bool changed = recoveryKeyOf(read) != recoveryKeyOf(m_fileHeader);
    m_fileHeader = std::move(read);
    if (changed)
        emit recoveryKeyChanged();
}

void RecoveryPhrase::checkRecoveryPhrase(QString phrase)
{
    const SecureBuffer typed = text::composedText(phrase);
    const auto keychain = keychain::Keychain::restore(typed.view());
    m_matches = false;
    if (!keychain) {
        m_check = tr("This is not a recovery phrase: %1")
                      .arg(QString::fromStdString(keychain.error().message));
    } else if (!m_fileHeader || !m_fileHeader->recoveryPublicKey) {
        m_check = tr("This vault has no recovery key to compare with.");
    } else {
        const QString fingerprint =
            QString::fromStdString(vault::recoveryKeyFingerprint(*m_fileHeader, *keychain));
        m_matches = vault::isRecoveryKeyOf(*m_fileHeader, *keychain);
        m_check = m_matches
                      ? tr("This phrase opens the vault (recovery key %1).").arg(fingerprint) +
                            adoptSharingIdentity(*keychain)
                      : tr("This phrase does not open the vault: its recovery key is %1, the "
                           "vault's is %2. If it is the phrase you wrote down for this vault, "
                           "someone who had your password replaced the vault's recovery key: "
                           "make a new recovery phrase now.")
                            .arg(fingerprint, recoveryFingerprint());
    }
    emit phraseCheckChanged();
}

void RecoveryPhrase::clearPhraseCheck()
{
    m_check.clear();
    m_matches = false;
    emit phraseCheckChanged();
}

} // namespace watchword::app
