// Aegis Authenticator's vault and export: JSON {"version": 1, "header":
// {"slots", "params"}, "db"}. A plain file has null slots and params and the
// database as an object; an encrypted one has the database as Base64
// AES-256-GCM ciphertext (nonce and tag in header.params) under a master key,
// which each slot holds wrapped: a password slot (type 1) with AES-256-GCM
// under scrypt(password, salt, N, r, p). Biometric slots (type 2) need the
// phone's keystore and are passed over, as are raw-key slots (type 0).
//
// The database's own version: 1 (no groups), 2 (each entry names its group
// in "group") and 3 (groups listed by uuid in db.groups, entries name theirs
// in "groups"). Groups become tags. Entry types totp, hotp and steam are
// read; Aegis's motp and yandex types need a PIN and an algorithm Watchword
// does not compute, so such an entry fails the import (InvalidEntry, naming
// it) rather than being left out silently.
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "encoding/Hex.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "interop/importers/JsonFields.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "aegis";
constexpr int newestDatabaseVersion = 3;
constexpr std::size_t masterKeySize = 32;
constexpr std::size_t derivedKeySize = 32;

enum SlotType { RawSlot = 0, PasswordSlot = 1, BiometricSlot = 2 };

// A hex field of exactly size bytes (any size if size is 0).
Bytes hexMember(const Json& object, const char* key, std::size_t size, const std::string& where)
{
    const Json& value = requiredMember(object, key, where);
    if (!value.is_string())
        throw FieldError{where + "\"" + key + "\" is not a string"};
    auto bytes = encoding::fromHex(value.get_ref<const std::string&>());
    if (!bytes || (size != 0 && bytes->size() != size))
        throw FieldError{where + "\"" + key + "\" is not " +
                         (size != 0 ? std::to_string(size) + " bytes of hex" : "hex")};
    return std::move(bytes).value();
}

// Nonce and tag of an AES-GCM "params" object.
struct GcmParameters
{
    Bytes nonce;
    Bytes tag;
};

GcmParameters gcmParameters(const Json& parent, const char* key, const std::string& where)
{
    const Json& params = requiredMember(parent, key, where);
    if (!params.is_object())
        throw FieldError{where + "\"" + key + "\" is not an object"};
    const std::string inner = where + key + ".";
    GcmParameters out;
    out.nonce = hexMember(params, "nonce", 0, inner);
    if (out.nonce.empty() || out.nonce.size() > crypto::aesGcm::maximumIvSize)
        throw FieldError{inner + "\"nonce\" has a bad length"};
    out.tag = hexMember(params, "tag", crypto::aesGcm::tagSize, inner);
    return out;
}

// A password slot, read and checked but not yet tried.
struct PasswordSlotParameters
{
    std::string where; // "header.slots[2]."
    std::uint64_t n = 0;
    std::uint32_t r = 0;
    std::uint32_t p = 0;
    Bytes salt;
    Bytes wrapped;
    GcmParameters params;
};

// scrypt's r or p: a 32-bit count.
ImportResult<std::uint32_t> scryptCount(std::uint64_t value, const std::string& parameter)
{
    if (value > std::numeric_limits<std::uint32_t>::max())
        return outOfBounds(ImportError::Malformed, formatLabel, parameter, std::to_string(value), 1,
                           std::numeric_limits<std::uint32_t>::max());
    return static_cast<std::uint32_t>(value);
}

ImportResult<PasswordSlotParameters> passwordSlot(const Json& slot, const std::string& where)
{
    PasswordSlotParameters out;
    out.where = where;
    const auto n = unsignedMember(slot, "n", where);
    const auto r = unsignedMember(slot, "r", where);
    const auto p = unsignedMember(slot, "p", where);
    if (!n || !r || !p)
        return malformed(formatLabel, where + "the scrypt parameters n, r and p are not all there");
    const auto r32 = scryptCount(*r, where + "r");
    if (!r32)
        return r32.failure();
    const auto p32 = scryptCount(*p, where + "p");
    if (!p32)
        return p32.failure();
    out.n = *n;
    out.r = *r32;
    out.p = *p32;
    if (auto checked = crypto::checkScryptParameters(out.n, out.r, out.p); !checked)
        return checked.failure(checked.error().code == crypto::KdfError::MemoryLimit
                                   ? ImportError::Unsupported
                                   : ImportError::Malformed,
                               std::string(formatLabel) + ": " + where);
    out.salt = hexMember(slot, "salt", 0, where);
    if (auto bounded = checkSaltSize(formatLabel, where + "salt", out.salt.size()); !bounded)
        return bounded.failure();
    out.wrapped = hexMember(slot, "key", masterKeySize, where);
    out.params = gcmParameters(slot, "key_params", where);
    return out;
}

// Every password slot of the header, each checked against the bounds of
// docs/FORMAT.md section 9, and all of them against the per-import budget
// (their number and their summed scrypt work), before any key is derived:
// however many slots a file lists, a wrong password costs at most the budget.
// Biometric (type 2) and raw-key (type 0) slots are passed over.
ImportResult<std::vector<PasswordSlotParameters>> passwordSlots(const Json& header)
{
    const Json* slots = optionalMember(header, "slots");
    if (!slots || !slots->is_array())
        return malformed(formatLabel, "header.slots is not an array");
    const auto whereOf = [](std::size_t i) {
        return "header.slots[" + std::to_string(i) + "].";
    };
    std::vector<std::size_t> places;
    for (std::size_t i = 0; i < slots->size(); ++i) {
        const Json& slot = (*slots)[i];
        const std::string where = whereOf(i);
        if (!slot.is_object())
            return malformed(formatLabel, where.substr(0, where.size() - 1) + " is not an object");
        const auto type = unsignedMember(slot, "type", where);
        if (!type)
            return malformed(formatLabel, where + "\"type\" is missing");
        if (*type == PasswordSlot)
            places.push_back(i);
    }
    if (places.empty())
        return fail(ImportError::Unsupported,
                    std::string(formatLabel) +
                        ": the vault has no password slot (only biometric or raw-key slots, "
                        "which need the phone that made it)");
    if (places.size() > maximumPasswordSlots)
        return outOfBounds(ImportError::Unsupported, formatLabel, "the number of password slots",
                           std::to_string(places.size()), 1, maximumPasswordSlots,
                           "Aegis writes one, or two with a separate backup password; no key "
                           "was derived");

    std::vector<PasswordSlotParameters> out;
    std::uint64_t work = 0;
    for (const std::size_t index : places) {
        const std::string where = whereOf(index);
        auto slot = passwordSlot((*slots)[index], where);
        if (!slot)
            return slot.failure();
        // checkScryptParameters bounds N * r and p * r by 2^23 each, so
        // N * r * p < 2^46, and a sum of maximumPasswordSlots cannot overflow.
        work += slot->n * slot->r * slot->p;
        if (work > maximumScryptWorkPerImport) {
            const std::string what = out.empty()
                                         ? where.substr(0, where.size() - 1) + ": scrypt work N*r*p"
                                         : "the password slots' scrypt work N*r*p, summed up to " +
                                               where.substr(0, where.size() - 1) + ",";
            return fail(ImportError::Unsupported,
                        std::string(formatLabel) + ": " + what + " is " + std::to_string(work) +
                            ", over the " + std::to_string(maximumScryptWorkPerImport) +
                            " (2^25) this build spends on one import; no key was derived");
        }
        out.push_back(std::move(slot).value());
    }
    return out;
}

// The master key from the first password slot the password opens.
ImportResult<SecureBuffer> openSlots(const std::vector<PasswordSlotParameters>& slots,
                                     ByteView password)
{
    for (const auto& slot : slots) {
        auto derived = crypto::scrypt(password, slot.salt, slot.n, slot.r, slot.p, derivedKeySize);
        if (!derived) // the parameters were checked: out of memory, or crypto disabled
            return derived.failure(ImportError::Unsupported,
                                   std::string(formatLabel) + ": " + slot.where);
        auto master =
            crypto::aesGcm::decrypt(*derived, slot.params.nonce, {}, slot.wrapped, slot.params.tag);
        if (master)
            return std::move(master).value();
        if (master.error().code != crypto::AesGcmError::AuthenticationFailed)
            return malformed(formatLabel, slot.where + "cannot decrypt: " + master.error().message);
        // Another password slot may take this password.
    }
    return fail(ImportError::WrongPassword,
                std::string(formatLabel) +
                    ": the password is wrong (no password slot opens with it)");
}

// db, decrypted and parsed.
ImportResult<Json> decryptDatabase(const Json& root, const Json& header, ByteView password)
{
    // Everything the file says is read and checked before any key work.
    const auto slots = passwordSlots(header);
    if (!slots)
        return slots.failure();
    const GcmParameters params = gcmParameters(header, "params", "header.");
    const Json& db = root.at("db");
    if (!db.is_string())
        return malformed(formatLabel, "\"db\" of an encrypted vault is not a string");
    const auto ciphertext = fromBase64(db.get_ref<const std::string&>());
    if (!ciphertext)
        return malformed(formatLabel, "\"db\" is not Base64");
    auto master = openSlots(*slots, password);
    if (!master)
        return master.failure();
    auto plaintext = crypto::aesGcm::decrypt(*master, params.nonce, {}, *ciphertext, params.tag);
    if (!plaintext) {
        // The slot opened, so the password is right: the database was altered.
        return malformed(formatLabel,
                         "the encrypted database does not verify (the file is damaged): " +
                             plaintext.error().message);
    }
    const auto text = utf8Text(plaintext->span(), formatLabel);
    if (!text)
        return text.failure();
    return parseJson(formatLabel, *text, "the decrypted database");
}

ImportResult<ImportedAccount> entryAccount(std::size_t index, const Json& entry,
                                           std::uint64_t version,
                                           const std::map<std::string, std::string>& groups)
{
    if (!entry.is_object())
        return malformed(formatLabel, "entry " + std::to_string(index + 1) + " is not an object");
    EntryFields fields;
    fields.issuer = stringMember(entry, "issuer");
    fields.accountName = stringMember(entry, "name");
    fields.note = stringMember(entry, "note");
    const std::string named = entryLabel(formatLabel, index, fields.issuer, fields.accountName);

    const std::string type = stringMember(entry, "type");
    if (type == "totp") {
        fields.parameters.kind = otp::OtpKind::Totp;
    } else if (type == "hotp") {
        fields.parameters.kind = otp::OtpKind::Hotp;
    } else if (type == "steam") {
        fields.parameters = otp::OtpParameters::steam();
    } else if (type == "motp" || type == "yandex") {
        return fail(ImportError::InvalidEntry,
                    named + ": Aegis's \"" + type +
                        "\" entries (a PIN-based code) are not supported; remove the entry in "
                        "Aegis or export without it");
    } else {
        return fail(ImportError::InvalidEntry, named + ": unknown entry type " + shownValue(type));
    }

    const Json* info = optionalMember(entry, "info");
    if (!info || !info->is_object())
        return fail(ImportError::InvalidEntry, named + ": \"info\" is missing");
    const std::string infoWhere = "entry " + std::to_string(index + 1) + ": info.";
    // Stored values, checked by makeAccount (a Steam entry must say SHA-1,
    // 5 digits and 30 s, as Aegis writes it).
    const std::string algorithm = stringMember(*info, "algo");
    StoredCode stored{algorithm, asSigned(unsignedMember(*info, "digits", infoWhere)), {}};
    if (fields.parameters.kind == otp::OtpKind::Hotp)
        fields.parameters.counter = unsignedMember(*info, "counter", infoWhere).value_or(0);
    else
        stored.period = asSigned(unsignedMember(*info, "period", infoWhere));
    if (auto applied = applyStoredCode(named, stored, fields.parameters); !applied)
        return applied.failure();

    auto secret = base32SecretMember(*info, "secret", named);
    if (!secret)
        return secret.failure();
    fields.secret = std::move(secret).value();

    if (version == 2) {
        if (std::string group = stringMember(entry, "group"); !group.empty())
            fields.tags.push_back(std::move(group));
    } else if (version >= 3) {
        if (const Json* list = optionalMember(entry, "groups")) {
            if (!list->is_array())
                throw FieldError{"entry " + std::to_string(index + 1) +
                                 ": \"groups\" is not an array"};
            for (const Json& id : *list) {
                if (!id.is_string())
                    throw FieldError{"a group reference is not a string"};
                // A reference to a group the vault no longer lists is dropped, as Aegis does.
                if (const auto it = groups.find(id.get<std::string>()); it != groups.end())
                    fields.tags.push_back(it->second);
            }
        }
    }
    return makeAccount(formatLabel, index, std::move(fields));
}

ImportResult<Imported> importDatabase(const Json& db)
{
    if (!db.is_object())
        return malformed(formatLabel, "\"db\" is not an object");
    const auto version = unsignedMember(db, "version", "db.");
    if (!version)
        return malformed(formatLabel, "db.version is missing");
    if (*version < 1 || *version > newestDatabaseVersion)
        return fail(ImportError::UnsupportedVersion,
                    std::string(formatLabel) + ": database version " + std::to_string(*version) +
                        " (this build reads 1 to " + std::to_string(newestDatabaseVersion) + ")");

    std::map<std::string, std::string> groups;
    if (*version >= 3) {
        if (const Json* list = optionalMember(db, "groups")) {
            if (!list->is_array())
                return malformed(formatLabel, "db.groups is not an array");
            for (const Json& group : *list) {
                if (!group.is_object())
                    return malformed(formatLabel, "a group in db.groups is not an object");
                groups.emplace(stringMember(group, "uuid"), stringMember(group, "name"));
            }
        }
    }

    const Json* entries = optionalMember(db, "entries");
    if (!entries || !entries->is_array())
        return malformed(formatLabel, "db.entries is missing or not an array");
    if (auto counted = checkCount(formatLabel, entries->size()); !counted)
        return counted.failure();

    Imported imported;
    imported.format = Format::Aegis;
    for (std::size_t i = 0; i < entries->size(); ++i) {
        if (auto kept = keep(imported, i, entryAccount(i, (*entries)[i], *version, groups)); !kept)
            return kept.failure();
    }
    return imported;
}

// True if header.slots is an array (an encrypted vault); false if null.
// Throws FieldError for anything else.
bool encryptedHeader(const Json& header)
{
    const Json* slots = optionalMember(header, "slots");
    if (!slots)
        return false;
    if (!slots->is_array())
        throw FieldError{"header.slots is neither null nor an array"};
    return true;
}

ImportResult<Imported> importParsed(const Json& root, Password password)
{
    if (!root.is_object())
        return malformed(formatLabel, "not a JSON object");
    const auto version = unsignedMember(root, "version", "");
    if (!version || !root.contains("header") || !root.contains("db"))
        return malformed(formatLabel,
                         "not an Aegis vault (\"version\", \"header\" and \"db\" expected)");
    if (*version != 1)
        return fail(ImportError::UnsupportedVersion, std::string(formatLabel) + ": vault version " +
                                                         std::to_string(*version) +
                                                         " (this build reads 1)");
    const Json& header = root.at("header");
    if (!header.is_object())
        return malformed(formatLabel, "\"header\" is not an object");
    if (!encryptedHeader(header))
        return importDatabase(root.at("db"));
    if (!password)
        return fail(ImportError::PasswordRequired,
                    std::string(formatLabel) + ": the vault is encrypted");
    auto db = decryptDatabase(root, header, *password);
    if (!db)
        return db.failure();
    return importDatabase(*db);
}

} // namespace

ImportResult<Imported> importAegis(ByteView data, Password password)
{
    return importJsonFile(formatLabel, data, password, importParsed);
}

bool aegisEncrypted(ByteView data)
{
    const auto root = jsonObjectOf(data);
    if (!root)
        return false;
    const auto header = root->find("header");
    if (header == root->end() || !header->is_object())
        return false;
    const auto slots = header->find("slots");
    return slots != header->end() && slots->is_array();
}

} // namespace watchword::importers::detail
