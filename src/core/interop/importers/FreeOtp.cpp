// FreeOTP: the 1.x SharedPreferences XML (tokens as FreeOTP's token JSON,
// importers/FreeOtpToken.h), or a 2.x backup: a Java-serialized
// java.util.HashMap<String, String> whose values are JSON:
//   "masterKey"      {"mAlgorithm": "PBKDF2withHmacSHA512", "mIterations": n,
//                     "mSalt": [bytes], "mEncryptedKey": <sealed>}
//   "<uuid>"         {"key": "<sealed, as JSON text>"}
//   "<uuid>-token"   the token JSON, without its secret
// where <sealed> is {"mCipher": "AES/GCM/NoPadding", "mCipherText": [bytes],
// "mParameters": [DER bytes holding the GCM nonce], "mToken": "<what it is>"}.
// The password and mSalt make a 32-byte key (PBKDF2, mIterations); it opens
// mEncryptedKey (AES-GCM, associated data its mToken, "AES") into the master
// key, which opens each token's secret (associated data e.g. "HmacSHA1").
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "interop/importers/Formats.h"
#include "interop/importers/FreeOtpToken.h"
#include "interop/importers/JsonFields.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>

namespace watchword::importers::detail {

namespace {

constexpr std::string_view formatLabel = "freeotp";

// FreeOTP uses 100,000 iterations (maximumPbkdf2Iterations bounds what a
// file may ask for).

// Java Object Serialization Stream Protocol (the grammar's TC_* codes),
// read strictly for exactly one shape: a HashMap whose keys and values are
// all Strings. Anything else in the stream is refused.
class JavaMapReader
{
public:
    explicit JavaMapReader(ByteView data) : m_data(data) {}

    // The map's entries in stream order; nullopt (with error() set) if the
    // stream is not such a map.
    std::optional<std::vector<std::pair<std::string, std::string>>> read()
    {
        static constexpr std::uint8_t header[] = {0xac, 0xed, 0x00, 0x05};
        static constexpr std::uint8_t hashMapUid[] = {0x05, 0x07, 0xda, 0xc1,
                                                      0xc3, 0x16, 0x60, 0xd1};
        if (!expectBytes(header, "not a Java serialization stream"))
            return std::nullopt;
        if (!expect(0x73, "no object") || !expect(0x72, "no class description"))
            return std::nullopt;
        const auto className = shortUtf();
        if (!className || *className != "java.util.HashMap")
            return failed("the object is not a java.util.HashMap");
        if (!expectBytes(hashMapUid, "an unknown HashMap version"))
            return std::nullopt;
        // SC_WRITE_METHOD | SC_SERIALIZABLE; the fields are float
        // loadFactor and (OpenJDK's HashMap, Android 7 on) int threshold,
        // or loadFactor alone (Android 6's); no annotation, no superclass.
        if (!expect(0x03, "unexpected class flags"))
            return std::nullopt;
        const auto fieldCount = u16();
        if (!fieldCount || (*fieldCount != 1 && *fieldCount != 2))
            return failed("unexpected HashMap fields");
        if (!field('F', "loadFactor") || (*fieldCount == 2 && !field('I', "threshold")))
            return failed("unexpected HashMap fields");
        if (!expect(0x78, "class annotation") || !expect(0x70, "a superclass"))
            return std::nullopt;
        m_handles = 2;              // the class description and the map
        if (!skip(4 * *fieldCount)) // the fields' values
            return failed("truncated");
        // writeObject's data: a block with the capacity and the size, then
        // the pairs.
        if (!expect(0x77, "no block data") || !expect(0x08, "unexpected block size"))
            return std::nullopt;
        if (!skip(4))
            return failed("truncated");
        const auto size = u32();
        if (!size)
            return failed("truncated");
        if (*size > 2 * maximumImportedAccounts + 1)
            return failed("too many entries");
        std::vector<std::pair<std::string, std::string>> pairs;
        for (std::uint32_t i = 0; i < *size; ++i) {
            auto key = string();
            if (!key)
                return std::nullopt;
            auto value = string();
            if (!value)
                return std::nullopt;
            pairs.emplace_back(std::move(*key), std::move(*value));
        }
        if (!expect(0x78, "the map does not end"))
            return std::nullopt;
        if (m_position != m_data.size())
            return failed("data after the map");
        return pairs;
    }

    const std::string& error() const { return m_error; }

private:
    std::nullopt_t failed(const std::string& what)
    {
        if (m_error.empty())
            m_error = what;
        return std::nullopt;
    }

    bool expect(std::uint8_t byte, const char* what)
    {
        if (m_position >= m_data.size() || m_data[m_position] != byte) {
            failed(m_position >= m_data.size() ? std::string("truncated") : std::string(what));
            return false;
        }
        ++m_position;
        return true;
    }

    bool expectBytes(std::span<const std::uint8_t> bytes, const char* what)
    {
        for (const auto byte : bytes)
            if (!expect(byte, what))
                return false;
        return true;
    }

    bool skip(std::size_t count)
    {
        if (m_data.size() - m_position < count)
            return false;
        m_position += count;
        return true;
    }

    std::optional<std::uint64_t> number(std::size_t bytes)
    {
        if (m_data.size() - m_position < bytes)
            return std::nullopt;
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < bytes; ++i)
            value = (value << 8) | m_data[m_position++];
        return value;
    }
    std::optional<std::uint64_t> u16() { return number(2); }
    std::optional<std::uint64_t> u32() { return number(4); }

    // Java's modified UTF-8 as standard UTF-8: a supplementary character is
    // written as two 3-byte surrogates, which become one 4-byte sequence.
    // NUL (C0 80) is refused; what is still not UTF-8 the JSON parser
    // refuses later.
    std::optional<std::string> modifiedUtf(std::size_t length)
    {
        if (m_data.size() - m_position < length)
            return failed("truncated");
        const auto* p = m_data.data() + m_position;
        m_position += length;
        std::string out;
        out.reserve(length);
        for (std::size_t i = 0; i < length; ++i) {
            if (p[i] == 0xc0 && i + 1 < length && p[i + 1] == 0x80)
                return failed("a string holds NUL");
            if (p[i] == 0xed && i + 5 < length && (p[i + 1] & 0xf0) == 0xa0 && p[i + 3] == 0xed &&
                (p[i + 4] & 0xf0) == 0xb0) {
                const std::uint32_t high = 0xd800 | ((p[i + 1] & 0x0f) << 6) | (p[i + 2] & 0x3f);
                const std::uint32_t low = 0xdc00 | ((p[i + 4] & 0x0f) << 6) | (p[i + 5] & 0x3f);
                const std::uint32_t code = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
                out += static_cast<char>(0xf0 | (code >> 18));
                out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
                out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
                out += static_cast<char>(0x80 | (code & 0x3f));
                i += 5;
                continue;
            }
            out += static_cast<char>(p[i]);
        }
        return out;
    }

    std::optional<std::string> shortUtf()
    {
        const auto length = u16();
        if (!length)
            return failed("truncated");
        return modifiedUtf(*length);
    }

    bool field(char type, std::string_view name)
    {
        if (!expect(static_cast<std::uint8_t>(type), "unexpected field type"))
            return false;
        const auto fieldName = shortUtf();
        return fieldName && *fieldName == name;
    }

    // TC_STRING, TC_LONGSTRING, or TC_REFERENCE to a string read before.
    std::optional<std::string> string()
    {
        if (m_position >= m_data.size())
            return failed("truncated");
        const std::uint8_t code = m_data[m_position++];
        if (code == 0x74 || code == 0x7c) {
            const auto length = code == 0x74 ? u16() : number(8);
            if (!length)
                return failed("truncated");
            if (*length > m_data.size() - m_position)
                return failed("truncated");
            auto text = modifiedUtf(static_cast<std::size_t>(*length));
            if (!text)
                return std::nullopt;
            m_strings.emplace(m_handles++, *text);
            return text;
        }
        if (code == 0x71) {
            const auto handle = u32();
            if (!handle || *handle < 0x7e0000)
                return failed("a bad back reference");
            const auto it = m_strings.find(*handle - 0x7e0000);
            if (it == m_strings.end())
                return failed("a back reference to something not a string");
            return it->second;
        }
        return failed("a map entry that is not a string");
    }

    ByteView m_data;
    std::size_t m_position = 0;
    std::uint32_t m_handles = 0;
    std::map<std::uint64_t, std::string> m_strings;
    std::string m_error;
};

Bytes signedByteArray(const Json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_array())
        throw FieldError{std::string("\"") + key + "\" is not a byte array"};
    Bytes bytes;
    bytes.reserve(it->size());
    for (const Json& value : *it) {
        if (!value.is_number_integer())
            throw FieldError{std::string("\"") + key + "\" is not a byte array"};
        const auto number = value.get<std::int64_t>();
        if (number < -128 || number > 127)
            throw FieldError{std::string("\"") + key + "\" is not a byte array"};
        bytes.push_back(static_cast<std::uint8_t>(number & 0xff));
    }
    return bytes;
}

std::string stringOf(const Json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        throw FieldError{std::string("\"") + key + "\" is not a string"};
    return it->get<std::string>();
}

// The GCM nonce out of mParameters, Java's AlgorithmParameters encoding:
// a DER OCTET STRING (older Android), or SEQUENCE { OCTET STRING nonce,
// INTEGER tag length } (GCMParameters, newer Android).
std::optional<Bytes> gcmNonce(const Bytes& der)
{
    std::size_t i = 0;
    auto take = [&](std::uint8_t tag) -> std::optional<ByteView> {
        if (der.size() - i < 2 || der[i] != tag || der[i + 1] >= 0x80)
            return std::nullopt;
        const std::size_t length = der[i + 1];
        if (der.size() - i - 2 < length)
            return std::nullopt;
        const ByteView body(der.data() + i + 2, length);
        i += 2 + length;
        return body;
    };
    if (!der.empty() && der[0] == 0x04) {
        const auto nonce = take(0x04);
        if (!nonce || i != der.size())
            return std::nullopt;
        return Bytes(nonce->begin(), nonce->end());
    }
    const auto sequence = take(0x30);
    if (!sequence || i != der.size())
        return std::nullopt;
    const Bytes inner(sequence->begin(), sequence->end());
    std::size_t j = 0;
    if (inner.size() < 2 || inner[0] != 0x04 || inner[1] >= 0x80 || inner.size() - 2 < inner[1])
        return std::nullopt;
    Bytes nonce(inner.begin() + 2, inner.begin() + 2 + inner[1]);
    j = 2 + inner[1];
    if (j != inner.size()) {
        // Only full 16-byte tags are read (all Android writes).
        static constexpr std::uint8_t tagLength[] = {0x02, 0x01, 0x10};
        if (inner.size() - j != 3 || !std::equal(std::begin(tagLength), std::end(tagLength),
                                                 inner.begin() + static_cast<std::ptrdiff_t>(j)))
            return std::nullopt;
    }
    return nonce;
}

// One of FreeOTP's sealed objects, read but not opened.
struct Sealed
{
    Bytes ciphertext;
    Bytes nonce;
    std::string token; // the associated data
    std::string what;  // how messages name it
};

ImportResult<Sealed> readSealed(const Json& sealed, const std::string& what)
{
    if (!sealed.is_object())
        throw FieldError{what + " is not an object"};
    const std::string cipher = stringOf(sealed, "mCipher");
    if (cipher != "AES/GCM/NoPadding")
        return fail(ImportError::Unsupported,
                    std::string(formatLabel) + ": " + what + " uses " + cipher);
    Sealed out;
    out.what = what;
    out.ciphertext = signedByteArray(sealed, "mCipherText");
    const auto nonce = gcmNonce(signedByteArray(sealed, "mParameters"));
    if (!nonce)
        return malformed(formatLabel, what + ": mParameters is not a GCM nonce");
    if (nonce->empty() || nonce->size() > crypto::aesGcm::maximumIvSize)
        return outOfBounds(ImportError::Malformed, formatLabel, what + ": the GCM nonce",
                           std::to_string(nonce->size()) + " bytes", 1,
                           crypto::aesGcm::maximumIvSize);
    out.nonce = *nonce;
    out.token = stringOf(sealed, "mToken");
    return out;
}

// Opens a sealed object with key.
ImportResult<SecureBuffer> openSealed(const Sealed& sealed, ByteView key)
{
    const ByteView associated(reinterpret_cast<const std::uint8_t*>(sealed.token.data()),
                              sealed.token.size());
    auto opened = crypto::aesGcm::decrypt(key, sealed.nonce, associated, sealed.ciphertext);
    if (!opened) {
        if (opened.error().code == crypto::AesGcmError::AuthenticationFailed)
            return fail(ImportError::WrongPassword, std::string(formatLabel) + ": " + sealed.what +
                                                        " does not open: the password is "
                                                        "wrong (or the file is damaged)");
        return malformed(formatLabel, sealed.what + ": " + opened.error().message);
    }
    return std::move(opened).value();
}

// The master key: every parameter of its derivation is read and checked
// before PBKDF2 runs.
ImportResult<SecureBuffer> masterKey(const std::string& text, ByteView password)
{
    const Json master = Json::parse(text);
    if (!master.is_object())
        throw FieldError{"\"masterKey\" is not an object"};
    std::string algorithm = stringOf(master, "mAlgorithm");
    for (char& c : algorithm)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    constexpr std::string_view prefix = "pbkdf2withhmac";
    const auto hash = algorithm.starts_with(prefix)
                          ? algorithmNamed(std::string_view(algorithm).substr(prefix.size()))
                          : std::nullopt;
    if (!hash)
        return fail(ImportError::Unsupported, std::string(formatLabel) + ": key derivation " +
                                                  stringOf(master, "mAlgorithm"));
    const auto iterations = master.find("mIterations");
    if (iterations == master.end() || !iterations->is_number_unsigned())
        throw FieldError{"\"mIterations\" is not a count"};
    const auto count = iterations->get<std::uint64_t>();
    if (auto bounded = checkPbkdf2Iterations(formatLabel, "masterKey.mIterations", count); !bounded)
        return bounded.failure();
    const Bytes salt = signedByteArray(master, "mSalt");
    if (auto bounded = checkSaltSize(formatLabel, "masterKey.mSalt", salt.size()); !bounded)
        return bounded.failure();
    const auto encrypted = master.find("mEncryptedKey");
    if (encrypted == master.end())
        throw FieldError{"\"mEncryptedKey\" is missing"};
    const auto sealed = readSealed(*encrypted, "the master key");
    if (!sealed)
        return sealed.failure();

    SecureBuffer key(crypto::aesGcm::keySize);
    if (auto derived =
            crypto::pbkdf2(*hash, password, salt, static_cast<std::uint32_t>(count), key.span());
        !derived)
        return derived.failure(ImportError::Unsupported, std::string(formatLabel) + ": ");
    auto opened = openSealed(*sealed, key);
    if (!opened)
        return opened;
    if (opened->size() != crypto::aesGcm::keySize)
        return fail(ImportError::Unsupported, std::string(formatLabel) + ": a " +
                                                  std::to_string(opened->size() * 8) +
                                                  "-bit master key (only AES-256 is read)");
    return opened;
}

ImportResult<Imported> importBackup(ByteView data, Password password)
{
    JavaMapReader reader(data);
    const auto pairs = reader.read();
    if (!pairs)
        return malformed(formatLabel, "not a FreeOTP 2 backup: " + reader.error());
    std::map<std::string, const std::string*> values;
    for (const auto& [key, value] : *pairs)
        values[key] = &value;
    const auto master = values.find("masterKey");
    if (master == values.end())
        return malformed(formatLabel, "the backup has no \"masterKey\"");
    if (!password)
        return fail(ImportError::PasswordRequired,
                    std::string(formatLabel) + ": the backup is encrypted");

    // Every token is a "<uuid>" with its "<uuid>-token"; in the order the
    // backup has them.
    std::vector<const std::pair<std::string, std::string>*> tokens;
    for (const auto& pair : *pairs) {
        if (pair.first == "masterKey" || pair.first.ends_with("-token"))
            continue;
        if (!values.contains(pair.first + "-token"))
            return malformed(formatLabel, "\"" + pair.first + "\" has no token");
        tokens.push_back(&pair);
    }
    if (auto counted = checkCount(formatLabel, tokens.size()); !counted)
        return counted.failure();

    auto key = masterKey(*master->second, *password);
    if (!key)
        return key.failure();

    Imported imported;
    imported.format = Format::FreeOtp;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string entry = "entry " + std::to_string(i + 1);
        const Json holder = Json::parse(tokens[i]->second);
        if (!holder.is_object())
            throw FieldError{entry + " is not an object"};
        const auto sealed = readSealed(Json::parse(stringOf(holder, "key")), entry + "'s secret");
        if (!sealed)
            return sealed.failure();
        auto secret = openSealed(*sealed, *key);
        // The master key opened, so the password was right: a secret that
        // does not verify was altered.
        if (!secret && secret.error().code == ImportError::WrongPassword)
            return malformed(formatLabel, entry + "'s secret does not verify: the file is damaged");
        if (!secret)
            return secret.failure();
        const Json token = Json::parse(*values.at(tokens[i]->first + "-token"));
        if (auto kept = keep(imported, i,
                             freeOtpTokenAccount(formatLabel, i, token, std::move(secret).value(),
                                                 imported.warnings));
            !kept)
            return kept.failure();
    }
    return imported;
}

bool isJavaSerialization(ByteView data)
{
    return data.size() >= 4 && data[0] == 0xac && data[1] == 0xed && data[2] == 0x00 &&
           data[3] == 0x05;
}

} // namespace

ImportResult<Imported> importFreeOtp(ByteView data, Password password)
{
    if (auto sized = checkSize(formatLabel, data); !sized)
        return sized.failure();
    if (isJavaSerialization(data))
        return catchFieldErrors<Imported>(formatLabel,
                                          [&] { return importBackup(data, password); });
    const auto text = utf8Text(data, formatLabel);
    if (!text)
        return text.failure();
    const auto pairs = readSharedPreferences(formatLabel, *text);
    if (!pairs)
        return pairs.failure();
    return importFreeOtpPreferences(Format::FreeOtp, formatLabel, *pairs);
}

bool freeOtpEncrypted(ByteView data)
{
    // A 2.x backup is always encrypted; the 1.x XML never is.
    return isJavaSerialization(data);
}

} // namespace watchword::importers::detail
