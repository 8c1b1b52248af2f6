#include "app/vault/Passwords.h"

#include "app/common/Background.h"
#include "app/vault/VaultController.h"
#include "crypto/Random.h"
#include "text/CoreText.h"
#include "text/SecretText.h"
#include "vault/PasswordStrength.h"
#include "vault/Vault.h"

#include <algorithm>

namespace watchword::app {

namespace {

// The bytes the vault would derive from for a typed password (NFKD), in a
// wiped buffer: no unwiped copy is made.
SecureBuffer normalizedCopy(const QString& password)
{
    QString copy = password; // shares the text; the copy is what gets wiped
    return text::normalizeSecretText(copy);
}

vault::PasswordStrength strengthOf(const QString& password)
{
    return vault::estimatePasswordStrength(normalizedCopy(password).view());
}

} // namespace

QString newPasswordProblem(const QString& password, const QString& repeat)
{
    if (password.isEmpty())
        return Passwords::tr("Enter a password.");
    if (password != repeat)
        return Passwords::tr("The two passwords are not the same.");
    if (const auto refusal = vault::newPasswordRefusal(normalizedCopy(password).view())) {
        QString text = QString::fromStdString(*refusal);
        text[0] = text[0].toUpper();
        return text;
    }
    return {};
}

Result<vault::Calibration, QString> calibrationFor(int targetMilliseconds)
{
    auto calibration = vault::calibratePasswordKdf(std::uint32_t(targetMilliseconds));
    if (!calibration)
        return fail(text::fromCore(calibration.error().message));
    return *calibration;
}

Passwords::Passwords(VaultController& session) : QObject(&session), m_session(session) {}

int Passwords::strength(const QString& password) const
{
    return strengthOf(password).score;
}

QString Passwords::strengthHint(const QString& password) const
{
    static const char* const names[] = {QT_TR_NOOP("Very weak"), QT_TR_NOOP("Weak"),
                                        QT_TR_NOOP("Fair"), QT_TR_NOOP("Strong"),
                                        QT_TR_NOOP("Very strong")};
    const auto estimate = strengthOf(password);
    QString text = tr(names[std::clamp(estimate.score, 0, 4)]);
    if (!estimate.hint.empty())
        text += QStringLiteral(": ") + QString::fromStdString(estimate.hint);
    return text;
}

bool Passwords::change(QString current, QString newPassword, QString repeat)
{
    const QString problem = newPasswordProblem(newPassword, repeat);
    auto currentSecret = std::make_shared<SecureBuffer>(text::normalizeSecretText(current));
    auto newSecret = std::make_shared<SecureBuffer>(text::normalizeSecretText(newPassword));
    text::wipe(repeat);
    if (m_session.editableVault() == nullptr)
        return false;
    if (currentSecret->empty()) {
        m_session.setError(tr("Enter the current password."));
        return false;
    }
    if (!problem.isEmpty()) {
        m_session.setError(problem);
        return false;
    }
    m_session.setError({});
    auto held = m_session.lendVault();
    const int target = m_session.unlockTargetMilliseconds();
    runInBackground(
        this,
        [held, currentSecret, newSecret, target]() -> QString {
            if (auto verified = held->verifyPassword(currentSecret->span()); !verified)
                return verified.error().code == vault::VaultError::WrongPassword
                           ? tr("The current password is wrong.")
                           : text::fromCore(verified.error().message);
            const auto calibration = calibrationFor(target);
            if (!calibration)
                return calibration.error();
            if (auto changed =
                    held->changePassword(newSecret->span(), *calibration, crypto::systemRandom());
                !changed)
                return text::fromCore(changed.error().message);
            return {};
        },
        [this, held](QString error) {
            m_session.returnVault(std::move(*held));
            if (!error.isEmpty()) {
                m_session.setError(error);
                emit finished(false);
                return;
            }
            m_session.requestSave();
            emit finished(true);
        });
    return true;
}

} // namespace watchword::app
