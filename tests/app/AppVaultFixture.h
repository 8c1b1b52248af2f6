// A vault file with two accounts in a temporary directory, and a controller
// for it: what the import, export and QR tests start from.
#pragma once

#include "app/codes/AccountStore.h"
#include "app/codes/Clock.h"
#include "app/desktop/ClipboardService.h"
#include "app/vault/AccountCopies.h"
#include "app/vault/VaultController.h"
#include "common/TestSupport.h"
#include "crypto/Random.h"
#include "keychain/Keychain.h"
#include "vault/Storage.h"
#include "vault/Vault.h"

#include <QByteArray>
#include <QFile>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace watchword::test {

inline const QString fixturePassword = QStringLiteral("fixture password");

// Two TOTP accounts, "First" and "Second" (alice), random secrets. Another
// seed makes another person's vault: another phrase, identity and secrets.
inline void writeFixtureVault(const QString& path, std::uint64_t seed = testSeed())
{
    SeededRandom random(seed);
    auto keychain = keychain::Keychain::create(random, 24);
    if (!keychain)
        qFatal("keychain");
    const QByteArray password = fixturePassword.toUtf8();
    auto created = vault::Vault::create(
        view(password), *keychain, {vault::minimumPasswordIterations, 100, 9'000'000}, random, 1);
    if (!created)
        qFatal("vault: %s", created.error().message.c_str());
    for (const char* issuer : {"First", "Second"}) {
        vault::OtpAccount account;
        account.issuer = issuer;
        account.accountName = "alice";
        account.secret = SecureBuffer(20);
        random.fill(account.secret.span());
        account.sortPosition = issuer[0] == 'F' ? 0 : 1;
        if (!created->add(std::move(account), random))
            qFatal("add");
    }
    auto bytes = created->serialize(random, 2);
    if (!bytes)
        qFatal("serialize");
    auto storage = vault::VaultStorage::create(path.toStdString(), *bytes, crypto::systemRandom());
    if (!storage)
        qFatal("storage: %s", storage.error().message.c_str());
}

struct VaultFixture
{
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("v.wwv"));
    app::Clock clock;
    app::ClipboardService clipboard;
    std::unique_ptr<app::VaultController> controller;
    std::unique_ptr<app::AccountStore> accounts;

    explicit VaultFixture(std::uint64_t seed = testSeed())
    {
        writeFixtureVault(path, seed);
        controller = std::make_unique<app::VaultController>(path);
        controller->setUnlockTargetMilliseconds(100);
        accounts = std::make_unique<app::AccountStore>(*controller, clock, clipboard);
    }

    bool unlock()
    {
        QSignalSpy finished(controller.get(), &app::VaultController::unlockFinished);
        controller->unlock(fixturePassword);
        return finished.wait(20'000) && finished.last().at(0).toBool();
    }

    // Copies of the vault's accounts, none if it cannot give them.
    std::vector<vault::OtpAccount> copies() const
    {
        auto copies = app::accountCopies(*controller, {});
        return copies ? std::move(*copies) : std::vector<vault::OtpAccount>{};
    }

    std::size_t accountCount() const { return copies().size(); }

    QByteArray fileBytes() const
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // Someone else writes the vault file: our next save must fail.
    void replaceFileBehindOurBack() const
    {
        SeededRandom random(testSeed() + 3);
        const auto keychain = keychain::Keychain::create(random, 24);
        auto other = vault::Vault::create(view(QByteArray("other")), *keychain,
                                          {vault::minimumPasswordIterations, 100, 0}, random, 5);
        if (!other)
            qFatal("other vault");
        const auto bytes = other->serialize(random, 6);
        if (!bytes)
            qFatal("serialize");
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("open");
        file.write(reinterpret_cast<const char*>(bytes->data()), qint64(bytes->size()));
    }
};

inline QString importData(const QString& relative)
{
    return QStringLiteral(WATCHWORD_TEST_DATA_DIR "/import/") + relative;
}

} // namespace watchword::test
