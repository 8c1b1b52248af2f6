// The vault's password, while it is unlocked: how strong a new one is, and
// changing it. Deriving keys is a worker's job: the vault goes to one and
// comes back whatever happens (a refused change leaves it as it was).
#pragma once

#include "base/Result.h"
#include "vault/Calibration.h"

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace watchword::app {

class VaultController;

// What is wrong with a new password and its repetition, or "" if nothing:
// empty, not the same twice, or refused by the vault's policy.
[[nodiscard]] QString newPasswordProblem(const QString& password, const QString& repeat);
// The PBKDF2 calibration for a new password slot at targetMilliseconds.
[[nodiscard]] Result<vault::Calibration, QString> calibrationFor(int targetMilliseconds);

class Passwords : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the passwords belong to the vault controller")

public:
    explicit Passwords(VaultController& session);

    // A new password's strength: 0 very weak .. 4 very strong, and in words
    // with the estimator's hint ("Weak: add another word or two").
    Q_INVOKABLE int strength(const QString& password) const;
    Q_INVOKABLE QString strengthHint(const QString& password) const;
    // Checks current and sets newPassword (a new calibrated slot), then
    // saves; finished() answers. False, with the session's error set, if it
    // cannot start. Every string is wiped as it is read.
    Q_INVOKABLE bool change(QString current, QString newPassword, QString repeat);

signals:
    void finished(bool succeeded);

private:
    VaultController& m_session;
};

} // namespace watchword::app
