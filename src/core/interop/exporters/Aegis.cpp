// Aegis's vault JSON as Aegis 3.x writes its exports: {"version": 1,
// "header", "db"} with database version 3 (groups listed by UUID in
// db.groups, entries naming theirs in "groups"). Plain: header.slots and
// header.params null, db an object. Encrypted: one password slot (type 1):
// scrypt(password, salt, N = 2^15, r = 8, p = 1) wraps a random master key
// with AES-256-GCM (key_params nonce and tag); the database, written
// compactly, is sealed with AES-256-GCM under the master key (header.params)
// and stored as Base64. importers/Aegis.cpp reads both.
#include "crypto/AesGcm.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "encoding/Base32.h"
#include "encoding/Hex.h"
#include "interop/exporters/ExportCommon.h"

#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace watchword::exporters::detail {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view plainLabel = "aegis";
constexpr std::string_view encryptedLabel = "aegis-encrypted";
constexpr int databaseVersion = 3;
// What Aegis itself writes for a password slot.
constexpr std::uint64_t scryptN = std::uint64_t{1} << 15;
constexpr std::uint32_t scryptR = 8;
constexpr std::uint32_t scryptP = 1;
constexpr std::size_t masterKeySize = 32;
constexpr std::size_t saltSize = 32;
constexpr std::size_t nonceSize = 12;

// Why Aegis cannot hold account (its period is a Java int, its counter a
// Java long); empty if it can.
std::string unrepresentable(const vault::OtpAccount& account)
{
    const auto& parameters = account.parameters;
    if (auto valid = otp::validate(parameters, account.secret.size()); !valid)
        return "no code can come from it: " + valid.error().message;
    if (parameters.isTimeBased() &&
        parameters.period > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max()))
        return "a period of " + std::to_string(parameters.period) +
               " s is beyond Aegis's limit of 2^31 - 1";
    if (parameters.kind == otp::OtpKind::Hotp &&
        parameters.counter > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return "the counter is beyond Aegis's limit of 2^63 - 1";
    return {};
}

// Overwrites every "secret" string of the database before it is freed.
void wipeSecrets(Json& db)
{
    for (Json& entry : db["entries"]) {
        std::string& secret = entry["info"]["secret"].get_ref<std::string&>();
        secureWipe(secret.data(), secret.size());
    }
}

std::string hexOf(ByteView bytes)
{
    return encoding::toHex(bytes);
}

} // namespace

ExportResult<Exported> exportAegis(std::span<const vault::OtpAccount> accounts,
                                   std::optional<ByteView> password, crypto::RandomSource& random)
{
    const std::string label(password ? encryptedLabel : plainLabel);
    // An account Aegis cannot hold is left out with a warning, as every
    // export but the backup does; the export fails only if none is left.
    // Warnings come in the accounts' order.
    Exported exported;
    std::vector<std::size_t> kept;
    std::string firstLeftOut;
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        if (const std::string why = unrepresentable(accounts[i]); !why.empty()) {
            exported.warnings.push_back(entryLabel(i, accounts[i]) + ": " + why + "; left out");
            if (firstLeftOut.empty())
                firstLeftOut = entryLabel(i, accounts[i]) + ": " + why;
            continue;
        }
        if (!accounts[i].iconReference.empty())
            exported.warnings.push_back(entryLabel(i, accounts[i]) + ": the icon is not exported");
        kept.push_back(i);
    }
    if (kept.empty())
        return fail(ExportError::NotRepresentable,
                    label + ": Aegis can hold none of the accounts (" + firstLeftOut +
                        (accounts.size() > 1 ? "; and the others" : "") + ")");

    Json entries = Json::array();
    for (const std::size_t i : kept) {
        const vault::OtpAccount& account = accounts[i];
        const auto& parameters = account.parameters;
        Json entry;
        entry["type"] = std::string(otp::kindName(parameters.kind));
        entry["uuid"] = randomUuid(random);
        entry["name"] = account.accountName;
        entry["issuer"] = account.issuer;
        entry["note"] = account.note;
        entry["favorite"] = false;
        entry["icon"] = nullptr;
        const SecureBuffer secret =
            encoding::toBase32(account.secret.span(), encoding::Base32Padding::Omit);
        Json info;
        info["secret"] = std::string(secret.view());
        info["algo"] = std::string(crypto::hashName(parameters.algorithm));
        info["digits"] = parameters.digits;
        if (parameters.kind == otp::OtpKind::Hotp)
            info["counter"] = parameters.counter;
        else
            info["period"] = parameters.period;
        entry["info"] = std::move(info);
        entry["groups"] = Json::array();
        entries.push_back(std::move(entry));
    }
    // Tags become groups, one per distinct name, in the order first used.
    Json groups = Json::array();
    std::map<std::string, std::string> groupIds;
    for (std::size_t k = 0; k < kept.size(); ++k) {
        for (const std::string& tag : accounts[kept[k]].tags) {
            auto found = groupIds.find(tag);
            if (found == groupIds.end()) {
                found = groupIds.emplace(tag, randomUuid(random)).first;
                groups.push_back(Json{{"uuid", found->second}, {"name", tag}});
            }
            entries[k]["groups"].push_back(found->second);
        }
    }
    Json db;
    db["version"] = databaseVersion;
    db["entries"] = std::move(entries);
    db["groups"] = std::move(groups);
    db["icons_optimized"] = true;

    Json root;
    root["version"] = 1;
    try {
        if (!password) {
            root["header"] = Json{{"slots", nullptr}, {"params", nullptr}};
            root["db"] = std::move(db);
            std::string text = root.dump(4);
            text.push_back('\n');
            wipeSecrets(root["db"]);
            exported.data = SecureBuffer(asBytes(text));
            secureWipe(text.data(), text.size());
            return exported;
        }

        std::string plain = db.dump();
        wipeSecrets(db);
        const SecureBuffer plaintext(asBytes(plain));
        secureWipe(plain.data(), plain.size());

        SecureBuffer masterKey(masterKeySize);
        random.fill(masterKey.span());
        const std::string slotId = randomUuid(random);
        std::array<std::uint8_t, saltSize> salt{};
        random.fill(salt);
        std::array<std::uint8_t, nonceSize> keyNonce{};
        random.fill(keyNonce);
        std::array<std::uint8_t, nonceSize> dbNonce{};
        random.fill(dbNonce);

        auto derived = crypto::scrypt(*password, salt, scryptN, scryptR, scryptP, masterKeySize);
        if (!derived)
            return derived.failure(derived.error().code == crypto::KdfError::CryptoDisabled
                                       ? ExportError::CryptoDisabled
                                       : ExportError::KdfOutOfBounds,
                                   label + ": ");
        auto wrapped = crypto::aesGcm::encrypt(*derived, keyNonce, {}, masterKey);
        if (!wrapped)
            return wrapped.failure(ExportError::CryptoDisabled, label + ": ");
        auto sealed = crypto::aesGcm::encrypt(masterKey, dbNonce, {}, plaintext);
        if (!sealed)
            return sealed.failure(sealed.error().code == crypto::AesGcmError::CryptoDisabled
                                      ? ExportError::CryptoDisabled
                                      : ExportError::NotRepresentable,
                                  label + ": ");
        const ByteView wrappedView(*wrapped);
        const ByteView sealedView(*sealed);
        const std::size_t tagAt = sealedView.size() - crypto::aesGcm::tagSize;

        Json slot;
        slot["type"] = 1;
        slot["uuid"] = slotId;
        slot["key"] = hexOf(wrappedView.first(masterKeySize));
        slot["key_params"] =
            Json{{"nonce", hexOf(keyNonce)}, {"tag", hexOf(wrappedView.subspan(masterKeySize))}};
        slot["n"] = scryptN;
        slot["r"] = scryptR;
        slot["p"] = scryptP;
        slot["salt"] = hexOf(salt);
        slot["repaired"] = true;
        slot["is_backup"] = false;
        root["header"] = Json{
            {"slots", Json::array({std::move(slot)})},
            {"params", Json{{"nonce", hexOf(dbNonce)}, {"tag", hexOf(sealedView.subspan(tagAt))}}}};
        root["db"] = toBase64(sealedView.first(tagAt));
        std::string text = root.dump(4);
        text.push_back('\n');
        exported.data = SecureBuffer(asBytes(text));
        return exported;
    } catch (const Json::exception& error) {
        // Strings are UTF-8 (the vault checks them); this is a bug, not input.
        return fail(ExportError::NotRepresentable, label + ": " + error.what());
    }
}

} // namespace watchword::exporters::detail
