#include "watch/WatchOpener.h"

#include "base/SecureBuffer.h"
#include "encoding/Hex.h"
#include "watch/StrictJson.h"

#include <iterator>
#include <memory>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <optional>
#include <string>

namespace watchword::watch {

// --- The desktop's native primitives -------------------------------------

std::array<std::uint8_t, 20> OpenSslPrimitives::sha1(ByteView data)
{
    std::array<std::uint8_t, 20> out{};
    EVP_Digest(data.data(), data.size(), out.data(), nullptr, EVP_sha1(), nullptr);
    return out;
}

std::array<std::uint8_t, 32> OpenSslPrimitives::sha256(ByteView data)
{
    std::array<std::uint8_t, 32> out{};
    EVP_Digest(data.data(), data.size(), out.data(), nullptr, EVP_sha256(), nullptr);
    return out;
}

std::array<std::uint8_t, 32> OpenSslPrimitives::hmacSha256(ByteView key, ByteView message)
{
    std::array<std::uint8_t, 32> out{};
    unsigned int length = 0;
    // A non-null key pointer even for an empty key: OpenSSL reads none of it.
    static constexpr std::uint8_t noKey = 0;
    HMAC(EVP_sha256(), key.empty() ? &noKey : key.data(), static_cast<int>(key.size()),
         message.data(), message.size(), out.data(), &length);
    return out;
}

bool OpenSslPrimitives::aes256CbcDecrypt(ByteView key, ByteView iv, ByteView ciphertext,
                                         std::span<std::uint8_t> out)
{
    if (key.size() != 32 || iv.size() != 16 || ciphertext.empty() || ciphertext.size() % 16 != 0 ||
        out.size() != ciphertext.size() || ciphertext.size() > (std::size_t{1} << 30))
        return false;
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> context(EVP_CIPHER_CTX_new(),
                                                                            &EVP_CIPHER_CTX_free);
    int written = 0;
    int finalWritten = 0;
    return context &&
           EVP_DecryptInit_ex(context.get(), EVP_aes_256_cbc(), nullptr, key.data(), iv.data()) ==
               1 &&
           EVP_CIPHER_CTX_set_padding(context.get(), 0) == 1 &&
           EVP_DecryptUpdate(context.get(), out.data(), &written, ciphertext.data(),
                             static_cast<int>(ciphertext.size())) == 1 &&
           EVP_DecryptFinal_ex(context.get(), out.data() + written, &finalWritten) == 1 &&
           static_cast<std::size_t>(written + finalWritten) == ciphertext.size();
}

// --- The opener: only NativePrimitives from here on ----------------------

namespace {

using Json = nlohmann::json;

constexpr std::size_t ivSize = 16;
constexpr std::size_t tagSize = 32;
constexpr std::size_t wrappedKeySize = ivSize + 48 + tagSize; // 32-byte key, padded
constexpr std::string_view encryptionInfo = "watchword/record/v1 encryption";
constexpr std::string_view authenticationInfo = "watchword/record/v1 authentication";

Failure<Error<WatchOpenError>> malformed(std::string message)
{
    return fail(WatchOpenError::Malformed, "not a valid watch export: " + std::move(message));
}

void appendBigEndian(Bytes& out, std::uint64_t value, int bytes)
{
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(value >> shift));
}

// PBKDF2-HMAC-SHA256 (RFC 8018 section 5.2) for one 32-byte block: the
// iteration loop a watch app runs, in slices, on its native HMAC.
SecureBuffer pbkdf2Sha256(NativePrimitives& p, ByteView password, ByteView salt,
                          std::uint32_t iterations)
{
    Bytes first(salt.begin(), salt.end());
    appendBigEndian(first, 1, 4);
    auto u = p.hmacSha256(password, first);
    SecureBuffer t(u);
    for (std::uint32_t i = 1; i < iterations; ++i) {
        u = p.hmacSha256(password, u);
        for (std::size_t j = 0; j < u.size(); ++j)
            t[j] ^= u[j];
    }
    secureWipe(u.data(), u.size());
    return t;
}

// The two record keys of section 2 from one 32-byte key: one HKDF-Extract
// (empty salt = 32 zero bytes) shared by two one-block HKDF-Expands.
struct EnvelopeKeys
{
    SecureBuffer encryption;
    SecureBuffer authentication;
};

EnvelopeKeys envelopeKeys(NativePrimitives& p, ByteView key)
{
    const std::array<std::uint8_t, 32> zeroSalt{};
    auto prk = p.hmacSha256(zeroSalt, key);
    auto expand = [&](std::string_view info) {
        Bytes message(info.begin(), info.end());
        message.push_back(0x01);
        auto block = p.hmacSha256(prk, message);
        SecureBuffer out(block);
        secureWipe(block.data(), block.size());
        return out;
    };
    EnvelopeKeys keys{expand(encryptionInfo), expand(authenticationInfo)};
    secureWipe(prk.data(), prk.size());
    return keys;
}

enum class EnvelopeFailure { None, Tag, Padding, Primitive };

// Section 2's opening steps 2 to 4 (the length was checked by the caller).
EnvelopeFailure openEnvelope(NativePrimitives& p, const EnvelopeKeys& keys, ByteView ad,
                             ByteView sealed, SecureBuffer& plaintext)
{
    const auto iv = sealed.first(ivSize);
    const auto ciphertext = sealed.subspan(ivSize, sealed.size() - ivSize - tagSize);
    const auto tag = sealed.last(tagSize);
    Bytes macInput{0x01};
    appendBigEndian(macInput, ad.size(), 8);
    macInput.insert(macInput.end(), ad.begin(), ad.end());
    macInput.insert(macInput.end(), iv.begin(), iv.end());
    macInput.insert(macInput.end(), ciphertext.begin(), ciphertext.end());
    if (!constantTimeEqual(p.hmacSha256(keys.authentication, macInput), tag))
        return EnvelopeFailure::Tag;
    SecureBuffer decrypted(ciphertext.size());
    if (!p.aes256CbcDecrypt(keys.encryption, iv, ciphertext, decrypted.span()))
        return EnvelopeFailure::Primitive;
    // PKCS#7: the last byte n in 1..16, the last n bytes all n. Branch-free
    // over the last block, though only a writer holding the key can get here.
    const std::uint8_t n = decrypted[decrypted.size() - 1];
    std::uint8_t bad = static_cast<std::uint8_t>((n == 0) | (n > 16));
    for (std::size_t i = 1; i <= 16; ++i) {
        const std::uint8_t inPadding = static_cast<std::uint8_t>(i <= n);
        bad |= static_cast<std::uint8_t>(inPadding & (decrypted[decrypted.size() - i] != n));
    }
    if (bad)
        return EnvelopeFailure::Padding;
    decrypted.truncate(decrypted.size() - n);
    plaintext = std::move(decrypted);
    return EnvelopeFailure::None;
}

// Section 8.4, exactly: anything left over or missing is corrupt.
WatchOpenResult<WatchAccount> decodeAccount(ByteView bytes, std::size_t index)
{
    const auto corrupt = [index](const std::string& why) {
        return fail(WatchOpenError::RecordCorrupt,
                    "account " + std::to_string(index + 1) + " of the export: " + why);
    };
    std::size_t at = 0;
    auto take = [&](std::size_t count) -> std::optional<ByteView> {
        if (bytes.size() - at < count)
            return std::nullopt;
        auto part = bytes.subspan(at, count);
        at += count;
        return part;
    };
    auto number = [](ByteView part) {
        std::uint64_t value = 0;
        for (auto byte : part)
            value = value << 8 | byte;
        return value;
    };
    auto fixed = take(11);
    if (!fixed)
        return corrupt("too short");
    WatchAccount account;
    auto& p = account.parameters;
    // The codes 1, 2, 3 in these orders (section 8.4).
    constexpr otp::OtpKind kinds[] = {otp::OtpKind::Totp, otp::OtpKind::Hotp, otp::OtpKind::Steam};
    constexpr crypto::HashAlgorithm algorithms[] = {
        crypto::HashAlgorithm::Sha1, crypto::HashAlgorithm::Sha256, crypto::HashAlgorithm::Sha512};
    const std::uint8_t kind = (*fixed)[0];
    const std::uint8_t algorithm = (*fixed)[1];
    if (kind < 1 || kind > std::size(kinds))
        return corrupt("unknown kind " + std::to_string(kind));
    if (algorithm < 1 || algorithm > std::size(algorithms))
        return corrupt("unknown algorithm " + std::to_string(algorithm));
    p.kind = kinds[kind - 1];
    p.algorithm = algorithms[algorithm - 1];
    p.digits = (*fixed)[2];
    const std::uint64_t value = number(fixed->subspan(3, 8));
    if (p.kind == otp::OtpKind::Hotp) {
        p.counter = value;
    } else {
        if (value > 0xffffffffU)
            return corrupt("the period is out of range");
        p.period = static_cast<std::uint32_t>(value);
    }
    auto text = [&](std::size_t limit) -> std::optional<ByteView> {
        auto length = take(2);
        if (!length)
            return std::nullopt;
        const auto size = static_cast<std::size_t>(number(*length));
        if (size > limit)
            return std::nullopt;
        return take(size);
    };
    auto issuer = text(maximumTextSize);
    auto name = issuer ? text(maximumTextSize) : std::nullopt;
    auto secret = name ? text(maximumSecretSize) : std::nullopt;
    if (!secret)
        return corrupt("a text field is truncated or too long");
    if (at != bytes.size())
        return corrupt("trailing bytes");
    account.issuer.assign(issuer->begin(), issuer->end());
    account.accountName.assign(name->begin(), name->end());
    account.secret = SecureBuffer(*secret);
    if (auto valid = otp::validate(p, account.secret.size()); !valid)
        return corrupt(valid.error().message);
    return account;
}

const Json& member(const Json& object, const char* key)
{
    auto found = object.find(key);
    if (found == object.end())
        throw std::invalid_argument(std::string("missing \"") + key + "\"");
    return *found;
}

void requireKeys(const Json& object, std::initializer_list<const char*> keys, const char* where)
{
    if (!object.is_object())
        throw std::invalid_argument(std::string(where) + " is not an object");
    for (const char* key : keys)
        (void)member(object, key);
    if (object.size() != keys.size())
        throw std::invalid_argument(std::string(where) + " has a key this version does not know");
}

Bytes hexField(const Json& value, const char* what)
{
    if (!value.is_string())
        throw std::invalid_argument(std::string(what) + " is not a string");
    auto bytes = encoding::fromHex(value.get_ref<const std::string&>());
    if (!bytes)
        throw std::invalid_argument(std::string(what) + " is not hex");
    return std::move(*bytes);
}

struct ParsedPayload
{
    ExportHeader header;
    Bytes salt;
    Bytes wrappedKey;
    std::vector<Bytes> accounts;
};

WatchOpenResult<ParsedPayload> parsePayload(std::string_view text)
{
    try {
        // Strict: no comments, nothing after the value, no duplicate keys.
        std::string repeated;
        const Json json = detail::parseStrictJson(text, repeated);
        if (!repeated.empty())
            return malformed("a key appears twice");
        if (!json.is_object())
            return malformed("the payload is not a JSON object");
        // Format and version first, so another version is named as such.
        const auto& format = member(json, "format");
        if (!format.is_string() || format.get_ref<const std::string&>() != exportFormatName)
            return fail(WatchOpenError::UnsupportedVersion,
                        "not a Watchword watch export (format is not \"" +
                            std::string(exportFormatName) + "\")");
        const auto& version = member(json, "version");
        if (!version.is_number_unsigned() || version.get<std::uint64_t>() != exportFormatVersion)
            return fail(WatchOpenError::UnsupportedVersion,
                        "watch export version " + version.dump() + " is not supported (only 1)");
        requireKeys(json, {"format", "version", "device", "created", "slot", "accounts"},
                    "the payload");
        ParsedPayload parsed;
        const auto& device = member(json, "device");
        if (!device.is_string() || !isValidDeviceId(device.get_ref<const std::string&>()))
            return malformed("\"device\" is not a device id");
        parsed.header.deviceId = device.get<std::string>();
        const auto& created = member(json, "created");
        if (!created.is_number_integer())
            return malformed("\"created\" is not an integer");
        if (created.is_number_unsigned() &&
            created.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            return malformed("\"created\" is out of range");
        parsed.header.created = created.get<std::int64_t>();

        const auto& slot = member(json, "slot");
        requireKeys(slot, {"kdf", "iterations", "salt", "key"}, "\"slot\"");
        // A KDF named but not this version's is a payload this reader does
        // not know, as another version is (section 8.5); a kdf that is not
        // a string is a damaged one.
        const auto& kdf = member(slot, "kdf");
        if (!kdf.is_string())
            return malformed("the slot's \"kdf\" is not a string");
        if (kdf.get_ref<const std::string&>() != exportKdfName)
            return fail(WatchOpenError::UnsupportedVersion, "the slot's KDF " + kdf.dump() +
                                                                " is not supported (only \"" +
                                                                std::string(exportKdfName) + "\")");
        // Integers are written without a fraction or an exponent: 2000.0
        // and 2e3 are not counts.
        const auto& iterations = member(slot, "iterations");
        if (!iterations.is_number_unsigned())
            return malformed("the slot's \"iterations\" is not a count (digits only)");
        const auto count = iterations.get<std::uint64_t>();
        if (count < minimumIterations || count > maximumIterations)
            return fail(WatchOpenError::BadIterations, "the slot's round count " +
                                                           std::to_string(count) +
                                                           " is outside 2000..500000");
        parsed.header.iterations = static_cast<std::uint32_t>(count);
        parsed.salt = hexField(member(slot, "salt"), "the slot's salt");
        if (parsed.salt.size() != saltSize)
            return malformed("the slot's salt is not 16 bytes");
        parsed.wrappedKey = hexField(member(slot, "key"), "the slot's key");
        if (parsed.wrappedKey.size() != wrappedKeySize)
            return malformed("the slot's key is not 96 bytes");

        const auto& accounts = member(json, "accounts");
        if (!accounts.is_array() || accounts.empty() || accounts.size() > maximumAccounts)
            return malformed("\"accounts\" is not a list of 1 to 256 records");
        for (const auto& account : accounts) {
            auto sealed = hexField(account, "an account");
            if (sealed.size() < ivSize + 16 + tagSize || (sealed.size() - ivSize - tagSize) % 16)
                return malformed("account " + std::to_string(parsed.accounts.size() + 1) +
                                 " is not a whole envelope");
            parsed.accounts.push_back(std::move(sealed));
        }
        return parsed;
    } catch (const Json::exception& e) {
        return malformed(e.what());
    } catch (const std::invalid_argument& e) {
        return malformed(e.what());
    }
}

} // namespace

WatchOpenResult<ExportSummary> inspectExport(std::string_view payload)
{
    auto parsed = parsePayload(payload);
    if (!parsed)
        return parsed.failure();
    return ExportSummary{parsed->header, parsed->accounts.size()};
}

WatchOpenResult<OpenedExport> openExport(std::string_view payload, std::string_view pin,
                                         NativePrimitives& primitives)
{
    if (auto valid = checkPin(pin); !valid)
        return valid.failure(WatchOpenError::BadPin);
    auto parsed = parsePayload(payload);
    if (!parsed)
        return parsed.failure();

    auto pinKey = pbkdf2Sha256(primitives, asBytes(pin), parsed->salt, parsed->header.iterations);
    const auto slotKeys = envelopeKeys(primitives, pinKey);
    SecureBuffer exportKey;
    switch (openEnvelope(primitives, slotKeys,
                         slotAssociatedData(parsed->header, parsed->salt, parsed->accounts.size()),
                         parsed->wrappedKey, exportKey)) {
    case EnvelopeFailure::None:
        break;
    case EnvelopeFailure::Tag:
        return fail(WatchOpenError::WrongPin,
                    "wrong PIN (or the export's header or slot was altered)");
    case EnvelopeFailure::Padding:
        return fail(WatchOpenError::RecordCorrupt, "the slot has a valid tag but bad padding");
    case EnvelopeFailure::Primitive:
        return fail(WatchOpenError::PrimitiveFailure, "the native AES-CBC call failed");
    }
    if (exportKey.size() != exportKeySize)
        return fail(WatchOpenError::RecordCorrupt, "the slot holds a key of " +
                                                       std::to_string(exportKey.size()) +
                                                       " bytes, not 32");

    const auto keys = envelopeKeys(primitives, exportKey);
    OpenedExport opened;
    opened.header = parsed->header;
    const auto count = parsed->accounts.size();
    for (std::size_t i = 0; i < count; ++i) {
        SecureBuffer plaintext;
        switch (openEnvelope(primitives, keys, accountAssociatedData(i, count), parsed->accounts[i],
                             plaintext)) {
        case EnvelopeFailure::None:
            break;
        case EnvelopeFailure::Tag:
            return fail(WatchOpenError::RecordTampered,
                        "account " + std::to_string(i + 1) + " of the export was altered");
        case EnvelopeFailure::Padding:
            return fail(WatchOpenError::RecordCorrupt,
                        "account " + std::to_string(i + 1) + " has a valid tag but bad padding");
        case EnvelopeFailure::Primitive:
            return fail(WatchOpenError::PrimitiveFailure, "the native AES-CBC call failed");
        }
        auto account = decodeAccount(plaintext, i);
        if (!account)
            return account.failure();
        opened.accounts.push_back(std::move(*account));
    }
    return opened;
}

} // namespace watchword::watch
