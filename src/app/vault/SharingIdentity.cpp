#include "app/vault/SharingIdentity.h"

#include "app/vault/VaultController.h"
#include "share/Identity.h"
#include "vault/Vault.h"

namespace watchword::app {

SharingIdentity::SharingIdentity(VaultController& session) : QObject(&session), m_session(session)
{
    connect(&session, &VaultController::opened, this, &SharingIdentity::refresh);
    connect(&session, &VaultController::closing, this, [this] {
        m_text.clear();
        m_fingerprint.clear();
        emit changed();
    });
    connect(&session, &VaultController::identityChanged, this, &SharingIdentity::refresh);
}

void SharingIdentity::refresh()
{
    QString text;
    QString fingerprint;
    if (const vault::Vault* vault = m_session.vault(); vault && vault->sharingKey()) {
        const auto& key = vault->sharingKey()->publicKey;
        text = QString::fromStdString(share::identityText(key));
        for (const auto word : share::identityFingerprint(key)) {
            if (!fingerprint.isEmpty())
                fingerprint += QLatin1Char(' ');
            fingerprint += QString::fromUtf8(word.data(), qsizetype(word.size()));
        }
    }
    if (text == m_text && fingerprint == m_fingerprint)
        return;
    m_text = std::move(text);
    m_fingerprint = std::move(fingerprint);
    emit changed();
}

} // namespace watchword::app
