// watchword-cli vault init, info, passwd, recover and check-phrase: the
// vault's keys, its password and its recovery phrase.
#include "VaultCommand.h"
#include "crypto/Random.h"
#include "encoding/Hex.h"
#include "keychain/Keychain.h"
#include "vault/Calibration.h"
#include "vault/VaultFile.h"

#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace watchword::cli {

namespace {

// A new recovery phrase, shown once, with the fingerprint to keep beside it.
void printRecoveryPhrase(const keychain::Keychain& keychain)
{
    std::fputs("recovery phrase: ", stdout);
    printLine(keychain.mnemonic().view());
    printLine("recovery key fingerprint: " + vault::recoveryKeyFingerprint(keychain));
    printLine("Write the recovery phrase down now, with the fingerprint, and keep it offline: it "
              "is shown only this once, and it opens the vault (vault recover) without the "
              "password. vault info shows the vault's recovery key fingerprint: if it ever "
              "differs from this one, the phrase no longer opens the vault.");
}

// --words: 12 or 24 (the default).
Result<std::size_t, std::string> parseWordCount(const Arguments& arguments)
{
    const auto text = arguments.value("words");
    if (!text)
        return keychain::Keychain::defaultWordCount;
    const auto value = parseInteger(*text, 0, 1000);
    if (!value || (*value != 12 && *value != 24))
        return fail("--words: '" + *text + "' is not 12 or 24");
    return static_cast<std::size_t>(*value);
}

} // namespace

int runInit(const Arguments& arguments, const std::string& path)
{
    const auto target = parseTarget(arguments);
    if (!target)
        return reportError(target.error());
    const auto words = parseWordCount(arguments);
    if (!words)
        return reportError(words.error());
    // Checked again atomically when the file is written; here so that nobody
    // types a password twice for nothing.
    struct stat existing
    {};
    if (::lstat(path.c_str(), &existing) == 0)
        return reportFileError(path, "a file already exists there; vault init never replaces one");

    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1);
    if (!secrets)
        return reportError(secrets.error());
    auto password = readNewPassword(*secrets, arguments);
    if (!password)
        return reportError(password.error());

    if (const auto failure = requireSelfTest())
        return reportError(*failure, exitFailure);
    const auto calibration =
        vault::calibratePasswordKdf(target->value_or(vault::defaultTargetMilliseconds));
    if (!calibration)
        return reportError(calibration.error().message, exitFailure);
    auto keychain = keychain::Keychain::create(crypto::systemRandom(), *words);
    if (!keychain)
        return reportError(keychain.error().message, exitFailure);
    const std::int64_t now = currentUnixSeconds();
    auto created = vault::Vault::create(password->span(), *keychain, *calibration,
                                        crypto::systemRandom(), now);
    if (!created)
        return reportFileError(path, created.error().message);
    created->setDevice(cliDevice());
    auto bytes = created->serialize(crypto::systemRandom(), now);
    if (!bytes)
        return reportFileError(path, bytes.error().message);
    auto storage = vault::VaultStorage::create(path, *bytes, crypto::systemRandom());
    if (!storage)
        return reportFileError(path, storage.error().message);
    if (!storage->warning().empty())
        reportError("warning: " + storage->warning(), exitOk);

    printRecoveryPhrase(*keychain);
    printLine("password KDF: PBKDF2-HMAC-SHA256, " + std::to_string(calibration->iterations) +
              " iterations (target " + std::to_string(calibration->targetMilliseconds) +
              " ms, measured rate " + std::to_string(calibration->iterationsPerSecond) +
              " iterations/s)");
    printLine("created " + path);
    return exitOk;
}

int runInfo(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    const auto info = readHeader(path, status);
    if (!info)
        return status;
    const auto& slot = info->passwordSlot;
    const std::string vaultId =
        encoding::toHex(ByteView(info->vaultId.data(), info->vaultId.size()));
    const std::string recoveryKey = info->recoveryPublicKey
                                        ? encoding::toHex(ByteView(info->recoveryPublicKey->data(),
                                                                   info->recoveryPublicKey->size()))
                                        : std::string();
    const std::string fingerprint = vault::recoveryKeyFingerprint(*info);
    const bool currentKind = info->recoveryKeyKind == vault::RecoveryKeyKind::Current;
    const std::string sharingKey = info->sharingPublicKey
                                       ? encoding::toHex(ByteView(info->sharingPublicKey->data(),
                                                                  info->sharingPublicKey->size()))
                                       : std::string();
    if (arguments.has("json")) {
        nlohmann::json json{
            {"format_version", info->version},
            {"vault_id", vaultId},
            {"generation", static_cast<std::int64_t>(info->generation)},
            {"created", info->created},
            {"modified", info->modified},
            {"records", info->recordCount},
            {"kdf", "PBKDF2-HMAC-SHA256"},
            {"iterations", slot.iterations},
            {"target_ms", slot.targetMilliseconds},
            {"measured_iterations_per_second", static_cast<std::int64_t>(slot.iterationsPerSecond)},
            {"recovery_slot", info->recoveryPublicKey.has_value()},
            {"sharing_identity", info->sharingPublicKey.has_value()}};
        if (info->recoveryPublicKey) {
            json["recovery_public_key"] = recoveryKey;
            json["recovery_key_fingerprint"] = fingerprint;
            json["recovery_key_kind"] = currentKind ? "recovery" : "version-1";
        }
        if (info->sharingPublicKey)
            json["sharing_public_key"] = sharingKey;
        printJson(json);
        return exitOk;
    }
    printLine("format version: " + std::to_string(info->version));
    printLine("vault id: " + vaultId);
    printLine("generation: " + std::to_string(info->generation));
    printLine("created: " + std::to_string(info->created));
    printLine("modified: " + std::to_string(info->modified));
    printLine("records: " + std::to_string(info->recordCount) +
              " (accounts, notes, contacts and deleted records' tombstones together: their kinds "
              "are sealed)");
    printLine("kdf: PBKDF2-HMAC-SHA256");
    printLine("iterations: " + std::to_string(slot.iterations));
    printLine("calibration: target " + std::to_string(slot.targetMilliseconds) +
              " ms, measured rate " + std::to_string(slot.iterationsPerSecond) + " iterations/s");
    printLine("recovery slot: " +
              (info->recoveryPublicKey
                   ? "yes, recovery public key " + recoveryKey +
                         (currentKind ? std::string(" (the phrase's recovery key)")
                                      : std::string(" (the phrase's version-1 recovery key)"))
                   : std::string("no")));
    if (info->recoveryPublicKey)
        printLine("recovery key fingerprint: " + fingerprint +
                  " (must match the one written with the phrase; vault check-phrase compares)");
    printLine("sharing identity: " +
              (info->sharingPublicKey
                   ? sharingKey
                   : std::string("none yet (vault recover with the phrase adds it)")));
    return exitOk;
}

namespace {

// Sets a new password (calibrated for target, else the stored target) and,
// with --new-phrase, a new recovery phrase; saves.
int changePasswordAndSave(OpenVault& open, SecretSource& secrets, const Arguments& arguments,
                          std::optional<std::uint32_t> target)
{
    const bool newPhrase = arguments.has("new-phrase");
    const auto words = parseWordCount(arguments);
    if (!words)
        return reportError(words.error());
    if (arguments.has("words") && !newPhrase)
        return reportError("--words goes with --new-phrase");
    auto password = readNewPassword(secrets, arguments);
    if (!password)
        return reportError(password.error());
    std::optional<keychain::Keychain> keychain;
    if (newPhrase) {
        auto made = keychain::Keychain::create(crypto::systemRandom(), *words);
        if (!made)
            return reportError(made.error().message, exitFailure);
        if (auto replaced = open.vault.replaceRecoveryKey(*made, crypto::systemRandom()); !replaced)
            return reportFileError(open.storage.path(), replaced.error().message);
        keychain.emplace(std::move(*made));
    }
    const auto calibration =
        vault::calibratePasswordKdf(target.value_or(open.vault.passwordSlot().targetMilliseconds));
    if (!calibration)
        return reportError(calibration.error().message, exitFailure);
    if (auto changed =
            open.vault.changePassword(password->span(), *calibration, crypto::systemRandom());
        !changed)
        return reportFileError(open.storage.path(), changed.error().message);
    if (const int saved = save(open); saved != exitOk)
        return saved;
    std::string changed = "password changed: PBKDF2-HMAC-SHA256, " +
                          std::to_string(calibration->iterations) + " iterations (target " +
                          std::to_string(calibration->targetMilliseconds) + " ms, measured rate " +
                          std::to_string(calibration->iterationsPerSecond) + " iterations/s)";
    if (keychain) {
        printLine(changed);
        printRecoveryPhrase(*keychain);
        printLine("The old recovery phrase no longer opens this vault.");
        return exitOk;
    }
    // The new master key is wrapped to the recovery key the file holds:
    // said, so that a key someone put there in place of the owner's shows.
    const auto header = vault::decodeHeader(open.storage.contents());
    if (header && header->recoveryPublicKey)
        changed += "; recovery key fingerprint " + vault::recoveryKeyFingerprint(*header) +
                   " (the phrase that opens the vault; if it is not the one written with yours, "
                   "use --new-phrase)";
    printLine(changed);
    return exitOk;
}

// The recovery phrase (stdin or a hidden prompt), checked and derived after
// the self-test; nullopt with the failure reported into status.
std::optional<keychain::Keychain> readRecoveryPhrase(SecretSource& secrets, int& status)
{
    auto phrase = secrets.next("the recovery phrase", "Recovery phrase: ");
    if (!phrase) {
        status = reportError(phrase.error());
        return std::nullopt;
    }
    if (phrase->empty()) {
        status = reportError("the recovery phrase is empty");
        return std::nullopt;
    }
    if (const auto failure = requireSelfTest()) {
        status = reportError(*failure, exitFailure);
        return std::nullopt;
    }
    auto keychain = keychain::Keychain::restore(phrase->view());
    if (!keychain) {
        status = reportError("the recovery phrase: " + keychain.error().message);
        return std::nullopt;
    }
    return std::move(keychain).value();
}

} // namespace

int runCheckPhrase(const Arguments& arguments, const std::string& path)
{
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 1);
    if (!secrets)
        return reportError(secrets.error());
    int status = exitOk;
    auto keychain = readRecoveryPhrase(*secrets, status);
    if (!keychain)
        return status;
    const auto header = readHeader(path, status);
    if (!header)
        return status;
    if (!header->recoveryPublicKey)
        return reportFileError(path, "this vault has no recovery slot");
    if (!vault::isRecoveryKeyOf(*header, *keychain))
        return reportFileError(
            path, "the recovery phrase does not open this vault: the vault's recovery key is " +
                      vault::recoveryKeyFingerprint(*header) + ", the phrase's is " +
                      vault::recoveryKeyFingerprint(*header, *keychain) +
                      ". If this is the phrase you wrote down for this vault, someone who had "
                      "the password replaced its recovery key: make a new phrase now (vault "
                      "passwd FILE --new-phrase)");
    printLine("the recovery phrase opens this vault: recovery key fingerprint " +
              vault::recoveryKeyFingerprint(*header));
    return exitOk;
}

int runPasswd(const Arguments& arguments, const std::string& path)
{
    const auto target = parseTarget(arguments);
    if (!target)
        return reportError(target.error());
    auto session = openSession(arguments, path, 2, lockWait(arguments));
    if (!session.opened.open)
        return session.opened.status;
    OpenVault& open = *session.opened.open;
    return changePasswordAndSave(open, *session.secrets, arguments, *target);
}

int runRecover(const Arguments& arguments, const std::string& path)
{
    int status = exitOk;
    const auto target = parseTarget(arguments);
    if (!target)
        return reportError(target.error());
    auto secrets = SecretSource::make(arguments.has("password-stdin"), 2);
    if (!secrets)
        return reportError(secrets.error());
    auto keychain = readRecoveryPhrase(*secrets, status);
    if (!keychain)
        return status;
    auto storage = openStorage(path, lockWait(arguments), status);
    if (!storage)
        return status;
    auto unlocked = vault::Vault::unlockWithRecovery(storage->contents(), *keychain);
    if (!unlocked)
        return reportFileError(path, unlocked.error().message);
    unlocked->setDevice(cliDevice());
    OpenVault open{std::move(*storage), std::move(unlocked).value()};
    return changePasswordAndSave(open, *secrets, arguments, *target);
}

} // namespace watchword::cli
