#include "interop/importers/Common.h"

#include "crypto/AesCbc.h"
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "encoding/Base32.h"
#include "encoding/Base64.h"
#include "encoding/Utf8.h"
#include "otp/OtpauthUri.h"
#include "vault/Records.h"

#include <algorithm>
#include <argon2.h>
#include <array>
#include <limits>
#include <utility>

namespace watchword::importers::detail {

namespace {

using encoding::isUtf8;

// C0 controls, DEL and the C1 controls (U+0080..U+009F, 0xC2 0x80..0x9F in
// UTF-8): a name with them would show as garbage or reorder a list.
bool hasControl(std::string_view text, bool allowLineBreaks) noexcept
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (allowLineBreaks && (c == '\n' || c == '\t' || c == '\r'))
            continue;
        if (c < 0x20 || c == 0x7f)
            return true;
        if (c == 0xc2 && i + 1 < text.size()) {
            const auto next = static_cast<unsigned char>(text[i + 1]);
            if (next >= 0x80 && next <= 0x9f)
                return true;
        }
    }
    return false;
}

// Names longer than this are not names; a bound keeps a hostile file from
// filling the preview with megabytes of text.
constexpr std::size_t maximumNameSize = 1024;
constexpr std::size_t maximumNoteSize = 64 * 1024;
constexpr std::size_t maximumTags = 64;

std::string_view trimmed(std::string_view text) noexcept
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

} // namespace

std::string entryLabel(std::string_view format, std::size_t index, std::string_view issuer,
                       std::string_view accountName)
{
    std::string label = std::string(format) + ": entry " + std::to_string(index + 1);
    const auto shown = [](std::string_view name) {
        name = trimmed(name);
        return name.size() <= 80 && isUtf8(name) && !hasControl(name, false) ? name
                                                                             : std::string_view{};
    };
    const std::string_view first = shown(issuer);
    const std::string_view second = shown(accountName);
    if (!first.empty() && !second.empty() && first != second)
        label += " (" + std::string(first) + ": " + std::string(second) + ")";
    else if (!first.empty() || !second.empty())
        label += " (" + std::string(first.empty() ? second : first) + ")";
    return label;
}

std::string shownValue(std::string_view value)
{
    constexpr std::size_t shownCharacters = 40;
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out = "\"";
    std::size_t characters = 0;
    std::size_t i = 0;
    while (i < value.size()) {
        if (characters == shownCharacters)
            return out + "\"...";
        const auto c = static_cast<unsigned char>(value[i]);
        // One UTF-8 character (a control one escaped), or one byte that
        // does not start one.
        std::size_t length = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
        if (length == 0 || i + length > value.size() || !isUtf8(value.substr(i, length)) ||
            hasControl(value.substr(i, length), false) || c == '"' || c == '\\') {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += static_cast<char>(c);
            } else {
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            }
            length = 1;
        } else {
            out.append(value.substr(i, length));
        }
        i += length;
        ++characters;
    }
    return out + '"';
}

ImportResult<void> keep(Imported& imported, std::size_t index, ImportResult<ImportedAccount> entry)
{
    if (entry) {
        imported.accounts.push_back(std::move(entry).value());
        return {};
    }
    if (entry.error().code != ImportError::InvalidEntry)
        return entry.failure();
    // The message is "<format>: entry <n>[ (<name>)]: <why>" (entryLabel).
    SkippedEntry skipped{index, entry.error().message, {}, {}};
    const std::string_view message = skipped.reason;
    const std::string prefix = "entry " + std::to_string(index + 1);
    const auto at = message.find(prefix);
    std::size_t rest = at == std::string_view::npos ? 0 : at + prefix.size();
    if (at != std::string_view::npos && message.substr(rest).starts_with(" (")) {
        const auto close = message.find("): ", rest);
        if (close != std::string_view::npos) {
            skipped.name = message.substr(rest + 2, close - rest - 2);
            rest = close + 1;
        }
    }
    if (message.substr(rest).starts_with(": "))
        rest += 2;
    skipped.why = message.substr(rest);
    imported.skipped.push_back(std::move(skipped));
    return {};
}

Failure<Error<ImportError>> outOfBounds(ImportError code, std::string_view format,
                                        std::string_view parameter, std::string_view value,
                                        std::uint64_t minimum, std::uint64_t maximum,
                                        std::string_view why)
{
    std::string message = std::string(format) + ": " + std::string(parameter) + " is " +
                          std::string(value) + ", outside the allowed " + std::to_string(minimum) +
                          " to " + std::to_string(maximum);
    if (!why.empty())
        message += "; " + std::string(why);
    return fail(code, std::move(message));
}

ImportResult<void> checkPbkdf2Iterations(std::string_view format, std::string_view parameter,
                                         std::uint64_t iterations)
{
    if (iterations >= 1 && iterations <= maximumPbkdf2Iterations)
        return {};
    return outOfBounds(iterations == 0 ? ImportError::Malformed : ImportError::Unsupported, format,
                       parameter, std::to_string(iterations), 1, maximumPbkdf2Iterations,
                       iterations == 0 ? "PBKDF2 needs at least one iteration"
                                       : "more is not attempted");
}

ImportResult<void> checkSaltSize(std::string_view format, std::string_view parameter,
                                 std::size_t size)
{
    if (size >= minimumSaltSize && size <= maximumSaltSize)
        return {};
    return outOfBounds(ImportError::Malformed, format, parameter,
                       std::to_string(size) + (size == 1 ? " byte" : " bytes"), minimumSaltSize,
                       maximumSaltSize);
}

ImportResult<SecureBuffer> argon2id(std::string_view format, ByteView password, ByteView salt,
                                    const Argon2Cost& cost, std::size_t length)
{
    const std::string prefix = std::string(format) + ": ";
    if (cost.memoryKiB > maximumArgon2MemoryKiB || cost.parallelism > maximumArgon2Parallelism ||
        std::uint64_t{cost.iterations} * cost.memoryKiB > maximumArgon2Work)
        return fail(ImportError::Unsupported,
                    prefix + "the key derivation asks for far more than any real backup uses (" +
                        std::to_string(cost.iterations) + " passes over " +
                        std::to_string(cost.memoryKiB / 1024) + " MiB, " +
                        std::to_string(cost.parallelism) + " lanes)");
    if (length == 0 || length > 1024)
        return fail(ImportError::Malformed, prefix + "bad key length");
    SecureBuffer key(length);
    const int result =
        argon2id_hash_raw(cost.iterations, cost.memoryKiB, cost.parallelism, password.data(),
                          password.size(), salt.data(), salt.size(), key.data(), key.size());
    if (result == ARGON2_MEMORY_ALLOCATION_ERROR || result == ARGON2_THREAD_FAIL)
        return fail(ImportError::Unsupported,
                    prefix + "the key derivation failed: " + argon2_error_message(result));
    if (result != ARGON2_OK)
        return fail(ImportError::Malformed, prefix +
                                                "the key derivation's parameters are invalid: " +
                                                argon2_error_message(result));
    return key;
}

ImportResult<SecureBuffer> openWithPasswordKey(std::string_view format, ByteView key, ByteView iv,
                                               ByteView associatedData, ByteView sealed,
                                               std::string_view what)
{
    auto plaintext = crypto::aesGcm::decrypt(key, iv, associatedData, sealed);
    if (plaintext)
        return std::move(plaintext).value();
    if (plaintext.error().code == crypto::AesGcmError::AuthenticationFailed)
        return fail(ImportError::WrongPassword, std::string(format) +
                                                    ": the password is wrong (or " +
                                                    std::string(what) + " is damaged)");
    return plaintext.failure(ImportError::Malformed, std::string(format) + ": cannot decrypt: ");
}

bool startsWith(ByteView data, std::string_view prefix) noexcept
{
    return data.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), data.begin(),
                      [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
}

bool startsWithFolded(std::string_view text, std::string_view lowerPrefix) noexcept
{
    return text.size() >= lowerPrefix.size() &&
           std::equal(lowerPrefix.begin(), lowerPrefix.end(), text.begin(), [](char a, char b) {
               return a == ((b >= 'A' && b <= 'Z') ? static_cast<char>(b - 'A' + 'a') : b);
           });
}

std::string_view asText(ByteView data)
{
    return {reinterpret_cast<const char*>(data.data()), data.size()};
}

ImportResult<std::string_view> utf8Text(ByteView data, std::string_view format)
{
    std::string_view text = asText(data);
    if (!isUtf8(text))
        return fail(ImportError::Malformed, std::string(format) + ": the file is not UTF-8 text");
    // A byte order mark, as Windows editors write it, is not part of the text.
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return text;
}

ImportResult<ImportedAccount> makeAccount(std::string_view format, std::size_t index,
                                          EntryFields fields)
{
    const std::string label = entryLabel(format, index, fields.issuer, fields.accountName);
    auto invalid = [&](const std::string& what) {
        return fail(ImportError::InvalidEntry, label + ": " + what);
    };
    for (const auto& [text, name] : {std::pair{&fields.issuer, "the issuer"},
                                     std::pair{&fields.accountName, "the account name"}}) {
        if (!isUtf8(*text))
            return invalid(std::string(name) + " is not UTF-8 text");
        if (hasControl(*text, false))
            return invalid(std::string(name) + " contains control characters");
        if (text->size() > maximumNameSize)
            return invalid(std::string(name) + " is longer than " +
                           std::to_string(maximumNameSize) + " bytes");
    }
    if (!isUtf8(fields.note) || hasControl(fields.note, true) ||
        fields.note.size() > maximumNoteSize)
        return invalid("the note is not UTF-8 text of at most " + std::to_string(maximumNoteSize) +
                       " bytes without control characters");
    if (fields.secret.empty())
        return invalid("the secret is empty");
    if (fields.secret.size() > vault::maximumSecretSize)
        return invalid("the secret is longer than " + std::to_string(vault::maximumSecretSize) +
                       " bytes");
    if (const auto valid = otp::validate(fields.parameters, fields.secret.size()); !valid)
        return invalid(valid.error().message);

    // Tags: the vault wants each 1..256 bytes and no two equal; a source's
    // empty group or a group named twice is not worth failing the import.
    std::vector<std::string> tags;
    for (auto& tag : fields.tags) {
        if (tag.empty() || std::find(tags.begin(), tags.end(), tag) != tags.end())
            continue;
        if (!isUtf8(tag) || hasControl(tag, false))
            return invalid("a group name is not UTF-8 text without control characters");
        if (tag.size() > vault::maximumTagSize)
            return invalid("a group name is longer than " + std::to_string(vault::maximumTagSize) +
                           " bytes");
        tags.push_back(std::move(tag));
    }
    if (tags.size() > maximumTags)
        return invalid("more than " + std::to_string(maximumTags) + " groups");

    ImportedAccount account;
    account.issuer = std::move(fields.issuer);
    account.accountName = std::move(fields.accountName);
    account.secret = std::move(fields.secret);
    account.parameters = fields.parameters;
    if (account.parameters.kind == otp::OtpKind::Hotp)
        account.parameters.period = otp::defaultPeriod;
    else
        account.parameters.counter = 0;
    account.tags = std::move(tags);
    account.note = std::move(fields.note);
    return account;
}

ImportResult<void> applyStoredCode(const std::string& entry, const StoredCode& stored,
                                   otp::OtpParameters& parameters)
{
    if (!stored.algorithm.empty()) {
        const auto algorithm = algorithmNamed(stored.algorithm);
        if (!algorithm)
            return fail(ImportError::InvalidEntry,
                        entry + ": unsupported algorithm " + shownValue(stored.algorithm) +
                            " (Watchword computes SHA1, SHA256 and SHA512)");
        parameters.algorithm = *algorithm;
    }
    if (stored.digits) {
        if (*stored.digits < 0 || *stored.digits > 100)
            return fail(ImportError::InvalidEntry,
                        entry + ": invalid number of digits " + std::to_string(*stored.digits));
        parameters.digits = static_cast<int>(*stored.digits);
    }
    if (stored.period) {
        if (*stored.period <= 0 || *stored.period > std::numeric_limits<std::uint32_t>::max())
            return fail(ImportError::InvalidEntry,
                        entry + ": invalid period " + std::to_string(*stored.period));
        parameters.period = static_cast<std::uint32_t>(*stored.period);
    }
    return {};
}

std::optional<std::int64_t> asSigned(std::optional<std::uint64_t> value)
{
    if (!value)
        return std::nullopt;
    return static_cast<std::int64_t>(
        std::min<std::uint64_t>(*value, std::numeric_limits<std::int64_t>::max()));
}

ImportResult<SecureBuffer> secretFromBase32(const std::string& entry, std::string_view text,
                                            encoding::Base32Tail tail)
{
    auto decoded = encoding::fromBase32(text, tail);
    if (!decoded)
        return decoded.failure(ImportError::InvalidEntry, entry + ": the secret is not Base32 (",
                               ")");
    if (decoded->empty())
        return fail(ImportError::InvalidEntry, entry + ": the secret is empty");
    return std::move(decoded).value();
}

std::optional<crypto::HashAlgorithm> algorithmNamed(std::string_view name)
{
    std::string folded;
    for (const char c : name) {
        if (c == '-')
            continue;
        folded += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    }
    if (folded == "SHA1")
        return crypto::HashAlgorithm::Sha1;
    if (folded == "SHA256")
        return crypto::HashAlgorithm::Sha256;
    if (folded == "SHA512")
        return crypto::HashAlgorithm::Sha512;
    return std::nullopt;
}

namespace {

// text percent-decoded; empty if an escape is broken.
std::string percentDecoded(std::string_view text, bool plusIsSpace)
{
    std::string out(text.size(), '\0');
    const auto decoded = otp::percentDecode(text, plusIsSpace, out.data());
    if (decoded.badEscape)
        return {};
    out.resize(decoded.size);
    return out;
}

// How an error names an otpauth URI that did not parse: by the label and
// issuer parameter it has, read leniently (they only name it).
std::string otpauthLabel(std::string_view format, std::size_t index, std::string_view uri)
{
    std::string issuer, name;
    const auto scheme = uri.find("://");
    const auto slash = scheme == std::string_view::npos ? scheme : uri.find('/', scheme + 3);
    if (slash != std::string_view::npos) {
        const auto query = uri.find('?', slash);
        name = percentDecoded(uri.substr(slash + 1, query - slash - 1), false);
        if (const auto colon = name.find(':'); colon != std::string::npos) {
            issuer = name.substr(0, colon);
            name.erase(0, colon + 1);
        }
        otp::QueryParameters parameters(query == std::string_view::npos ? std::string_view()
                                                                        : uri.substr(query + 1));
        while (const auto parameter = parameters.next())
            if (parameter->name == "issuer")
                issuer = percentDecoded(parameter->value, true);
    }
    return entryLabel(format, index, issuer, name);
}

} // namespace

ImportResult<ImportedAccount> accountFromUri(std::string_view format, std::size_t index,
                                             std::string_view uri, encoding::Base32Tail tail)
{
    auto parsed = otp::parseOtpauthUri(uri, tail);
    if (!parsed) {
        const auto code = parsed.error().code;
        // Text that is not an otpauth URI at all is a damaged file; a URI
        // whose values no code can come from is a bad entry.
        const auto start = uri.find_first_not_of(" \t\r\n");
        const bool otpauthScheme =
            start != std::string_view::npos && startsWithFolded(uri.substr(start), "otpauth:");
        const bool notAUri = !otpauthScheme || code == otp::OtpauthError::InvalidScheme ||
                             code == otp::OtpauthError::InvalidFormat;
        return parsed.failure(notAUri ? ImportError::Malformed : ImportError::InvalidEntry,
                              otpauthLabel(format, index, uri) + ": ");
    }
    EntryFields fields;
    fields.issuer = parsed->issuer();
    fields.accountName = std::move(parsed->account);
    fields.secret = std::move(parsed->secret);
    fields.parameters = parsed->parameters;
    return makeAccount(format, index, std::move(fields));
}

std::optional<Bytes> fromBase64(std::string_view text)
{
    const bool urlSafe = text.find_first_of("-_") != std::string_view::npos;
    return encoding::fromBase64(text, urlSafe ? encoding::Base64Alphabet::UrlSafe
                                              : encoding::Base64Alphabet::Standard);
}

ImportResult<SecureBuffer> openPbkdf2AesCbc(std::string_view format, crypto::HashAlgorithm hash,
                                            ByteView password, ByteView salt,
                                            std::uint32_t iterations, ByteView iv,
                                            ByteView ciphertext, std::string_view what)
{
    if (ciphertext.empty() || ciphertext.size() % crypto::AesCbc::blockSize != 0)
        return fail(ImportError::Malformed,
                    std::string(format) + ": " + std::string(what) +
                        " is cut off or damaged (AES-CBC holds whole 16-byte blocks)");
    if (iv.size() != crypto::AesCbc::ivSize)
        return fail(ImportError::Malformed, std::string(format) + ": the IV of " +
                                                std::string(what) + " is " +
                                                std::to_string(iv.size()) + " bytes, not 16");
    if (auto bounded = checkPbkdf2Iterations(format, "the PBKDF2 iteration count", iterations);
        !bounded)
        return bounded.failure();
    SecureBuffer key(32);
    if (auto derived = crypto::pbkdf2(hash, password, salt, iterations, key.span()); !derived)
        return derived.failure(ImportError::Unsupported, std::string(format) + ": ");
    auto cipher = crypto::AesCbc::create(key);
    if (!cipher)
        return cipher.failure(ImportError::Unsupported, std::string(format) + ": ");
    const auto wrong = [&] {
        return fail(ImportError::WrongPassword,
                    std::string(format) + ": the password is wrong (or " + std::string(what) +
                        " is damaged: without a tag the two cannot be told apart)");
    };
    auto plaintext = cipher->decrypt(iv, ciphertext);
    if (!plaintext) {
        if (plaintext.error().code == crypto::AesCbcError::BadPadding)
            return wrong();
        return plaintext.failure(ImportError::Malformed, std::string(format) + ": cannot decrypt " +
                                                             std::string(what) + ": ");
    }
    const std::string_view text = plaintext->view();
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text[first] != '{' ||
        !utf8Text(plaintext->span(), "").ok())
        return wrong();
    return std::move(*plaintext);
}

std::optional<SecureBuffer> secretFromBase64(std::string_view text)
{
    auto bytes = fromBase64(text);
    if (!bytes)
        return std::nullopt;
    SecureBuffer secret{ByteView(*bytes)};
    secureWipe(bytes->data(), bytes->size());
    return secret;
}

ImportResult<void> checkSize(std::string_view format, ByteView data)
{
    if (data.size() > maximumImportBytes)
        return fail(ImportError::TooLarge, std::string(format) + ": the file is larger than " +
                                               std::to_string(maximumImportBytes / (1024 * 1024)) +
                                               " MiB");
    return {};
}

ImportResult<void> checkCount(std::string_view format, std::size_t count)
{
    if (count > maximumImportedAccounts)
        return fail(ImportError::TooLarge, std::string(format) + ": more than " +
                                               std::to_string(maximumImportedAccounts) +
                                               " accounts");
    return {};
}

std::optional<std::string_view> TextLines::next()
{
    while (!m_rest.empty()) {
        const auto end = m_rest.find('\n');
        const std::string_view line = m_rest.substr(0, end);
        m_rest = end == std::string_view::npos ? std::string_view{} : m_rest.substr(end + 1);
        ++m_lineNumber;
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string_view::npos)
            return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    }
    return std::nullopt;
}

} // namespace watchword::importers::detail
