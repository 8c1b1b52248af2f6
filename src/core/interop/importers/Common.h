// What the importers share: making an account out of a source's fields with
// one set of checks, errors worded alike, and the small decoders several
// formats need. Internal to importers/.
#pragma once

#include "encoding/Base32.h"
#include "interop/importers/Import.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace watchword::importers::detail {

// The most PBKDF2 iterations an imported file may ask for: real apps use
// 10,000 to a few hundred thousand; a hostile file would ask for billions.
// Fuzzing builds allow a tenth, so that one input stays within the fuzzer's
// time limit (the test files' 145,776 still open).
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr std::uint32_t maximumPbkdf2Iterations = 1'000'000;
#else
inline constexpr std::uint32_t maximumPbkdf2Iterations = 10'000'000;
#endif

// The bounds of docs/FORMAT.md section 9 ("Bounds") on what a file asks of a
// key derivation, checked before any key is derived. A value the KDF itself
// does not take (no iterations) or a salt of a size no app writes is
// Malformed; a cost over this build's bound is Unsupported, not attempted.
// Each message names the parameter, the value refused and the range.
inline constexpr std::size_t minimumSaltSize = 16;
inline constexpr std::size_t maximumSaltSize = 1024;

// "<format>: <parameter> is <value>, outside the allowed <minimum> to
// <maximum>" (then "; " and why, if given), with code.
Failure<Error<ImportError>> outOfBounds(ImportError code, std::string_view format,
                                        std::string_view parameter, std::string_view value,
                                        std::uint64_t minimum, std::uint64_t maximum,
                                        std::string_view why = {});

// scrypt, whose memory crypto::checkScryptParameters bounds: its time grows
// with N * r * p. A file lists as many slots as it likes and a wrong password
// tries them all, so the bound is on one import: all the password slots
// together may ask for at most this much work (Aegis writes 2^15 * 8 * 1 =
// 2^18 per password slot; this is 128 times that, about what one slot of
// the largest kind costs), and there may be at most maximumPasswordSlots of
// them (Aegis writes one, or two with a separate backup password). Both are
// checked, over every slot, before the first key is derived.
inline constexpr std::uint64_t maximumScryptWorkPerImport = std::uint64_t{1} << 25;
inline constexpr std::size_t maximumPasswordSlots = 4;

// PBKDF2's iteration count: 0 is Malformed, over maximumPbkdf2Iterations
// Unsupported. parameter names the field ("masterKey.mIterations").
[[nodiscard]] ImportResult<void> checkPbkdf2Iterations(std::string_view format,
                                                       std::string_view parameter,
                                                       std::uint64_t iterations);

// A salt read from the file: minimumSaltSize to maximumSaltSize bytes, else
// Malformed.
[[nodiscard]] ImportResult<void> checkSaltSize(std::string_view format, std::string_view parameter,
                                               std::size_t size);

// The Argon2id costs an imported file may ask for (Argon2id is RFC 9106):
// Authenticator Pro uses 3 passes over 64 MiB with 4 lanes. A hostile file
// would ask for gigabytes and hours. Fuzzing builds allow no more than that
// real cost, so that one input stays within the fuzzer's time and memory.
struct Argon2Cost
{
    std::uint32_t iterations = 0;
    std::uint32_t memoryKiB = 0;
    std::uint32_t parallelism = 0;
};
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr std::uint32_t maximumArgon2MemoryKiB = 64 * 1024;
inline constexpr std::uint64_t maximumArgon2Work = 3 * 64 * 1024; // passes * KiB
#else
inline constexpr std::uint32_t maximumArgon2MemoryKiB = 1024 * 1024;
inline constexpr std::uint64_t maximumArgon2Work = 4 * 1024 * 1024;
#endif
inline constexpr std::uint32_t maximumArgon2Parallelism = 16;

// Argon2id of password and salt at cost, length bytes. Unsupported (naming
// format) for a cost over the bounds above or memory the system does not
// give; Malformed for one Argon2 refuses (no passes, a salt under 8 bytes).
[[nodiscard]] ImportResult<SecureBuffer> argon2id(std::string_view format, ByteView password,
                                                  ByteView salt, const Argon2Cost& cost,
                                                  std::size_t length);

// AES-GCM's decryption of sealed (ciphertext || tag) under a key derived
// from the file's password: a tag that does not verify is WrongPassword,
// "<format>: the password is wrong (or <what> is damaged)", since GCM cannot
// tell the two apart; any other failure Malformed.
[[nodiscard]] ImportResult<SecureBuffer> openWithPasswordKey(std::string_view format, ByteView key,
                                                             ByteView iv, ByteView associatedData,
                                                             ByteView sealed,
                                                             std::string_view what);

// What the older apps encrypt with (Authenticator Pro's legacy backup, Steam
// Desktop Authenticator's .maFile): AES-256-CBC with PKCS#7 padding under
// PBKDF2-HMAC-<hash>(password, salt, iterations) as a 32-byte key. CBC has
// no tag: bad padding, or a plaintext that is not a UTF-8 JSON object (right
// padding by chance: about 1 in 256 wrong passwords), is WrongPassword
// "<format>: the password is wrong (or <what> is damaged: ...)"; a
// ciphertext of no whole blocks Malformed.
[[nodiscard]] ImportResult<SecureBuffer>
openPbkdf2AesCbc(std::string_view format, crypto::HashAlgorithm hash, ByteView password,
                 ByteView salt, std::uint32_t iterations, ByteView iv, ByteView ciphertext,
                 std::string_view what);
// Errors are made with base/Result.h's fail: fail(ImportError::Malformed,
// "aegis: db.entries: not an array").

// Whether data starts with the bytes of prefix (a file's magic).
bool startsWith(ByteView data, std::string_view prefix) noexcept;
// Whether text starts with lowerPrefix, ASCII letters in any case
// ("OTPAUTH://" starts with "otpauth://"). lowerPrefix is lower case.
bool startsWithFolded(std::string_view text, std::string_view lowerPrefix) noexcept;

// data as text (no copy). Formats that are text refuse data that is not
// UTF-8 with Malformed, naming the format.
std::string_view asText(ByteView data);
[[nodiscard]] ImportResult<std::string_view> utf8Text(ByteView data, std::string_view format);

// One entry's fields as the source stored them, already mapped to
// Watchword's kinds and algorithm; what the source left out stays at its
// Key Uri Format default (TOTP, SHA-1, 6 digits, 30 s).
struct EntryFields
{
    std::string issuer;
    std::string accountName;
    SecureBuffer secret;
    otp::OtpParameters parameters;
    std::vector<std::string> tags;
    std::string note;
};

// The code parameters several formats store alike: an algorithm name
// (empty: not stored), digits and period (nullopt: not stored).
struct StoredCode
{
    std::string_view algorithm;
    std::optional<std::int64_t> digits;
    std::optional<std::int64_t> period;
};

// Sets what stored has on parameters (whose kind the caller has set):
// InvalidEntry "<entry>: unsupported algorithm \"SHA384\"", "<entry>:
// invalid number of digits 101" (outside 0..100; otp::validate has the real
// bounds) or "<entry>: invalid period 0" (outside 1..2^32-1).
[[nodiscard]] ImportResult<void> applyStoredCode(const std::string& entry, const StoredCode& stored,
                                                 otp::OtpParameters& parameters);

// A stored unsigned number as applyStoredCode takes it (one over the int64
// range stays out of range).
std::optional<std::int64_t> asSigned(std::optional<std::uint64_t> value);

// Checks fields (non-empty secret, otp::validate, UTF-8 names without
// control characters, sizes within the vault's limits) and makes the
// account. The error is InvalidEntry and names the entry: "<format>: entry
// <index + 1> (<issuer or account>): <what>", never the secret.
[[nodiscard]] ImportResult<ImportedAccount> makeAccount(std::string_view format, std::size_t index,
                                                        EntryFields fields);

// "<format>: entry <index + 1> (<issuer>: <account name>)": how an error
// names an entry ("(<issuer>)" or "(<account name>)" when the other is
// empty). Each name is trimmed, and left out if it is not short UTF-8 text
// without control characters (it is the file's, and goes into a message
// the user reads).
std::string entryLabel(std::string_view format, std::size_t index, std::string_view issuer,
                       std::string_view accountName = {});

// A value read from the file, as an error message shows it: in double
// quotes, control characters and bytes that are not UTF-8 as \xNN, cut to
// its first 40 characters ("..." after). Never for a secret.
std::string shownValue(std::string_view value);

// What reading entry gave, kept: an account is added to imported; an entry
// that cannot become one (InvalidEntry) is added to imported.skipped; any
// other error (a damaged file) is returned, and the import fails with it.
[[nodiscard]] ImportResult<void> keep(Imported& imported, std::size_t index,
                                      ImportResult<ImportedAccount> entry);

// A Base32 secret as apps store it: case, spaces, dashes and '=' padding
// tolerated (encoding/Base32.h); tail: what the app that wrote the file does
// with a last group of 1, 3 or 6 symbols (docs/FORMAT.md section 9, "Base32
// secrets"). InvalidEntry "<entry>: the secret is not Base32 (<why>)", where
// why names a character that is not Base32 or the length, never the secret;
// "<entry>: the secret is empty" if it decodes to nothing.
[[nodiscard]] ImportResult<SecureBuffer>
secretFromBase32(const std::string& entry, std::string_view text,
                 encoding::Base32Tail tail = encoding::Base32Tail::Refuse);

// "SHA1", "sha-256", "SHA512" (any case, with or without the dash);
// nullopt for anything else (MD5 included).
std::optional<crypto::HashAlgorithm> algorithmNamed(std::string_view name);

// An otpauth:// URI as an entry (through otp::parseOtpauthUri): what several
// formats embed. The error names the entry as makeAccount does.
// tail: as secretFromBase32's.
[[nodiscard]] ImportResult<ImportedAccount>
accountFromUri(std::string_view format, std::size_t index, std::string_view uri,
               encoding::Base32Tail tail = encoding::Base32Tail::Refuse);

// Standard Base64 (RFC 4648 section 4, padding required) and its URL-safe
// variant; nullopt on any other character or bad padding.
std::optional<Bytes> fromBase64(std::string_view text);
// A Base64 secret (either alphabet) straight into a wiped buffer; nullopt
// if it is not Base64. The decoded copy in between is wiped too.
std::optional<SecureBuffer> secretFromBase64(std::string_view text);

// Checks the size bounds of Import.h: TooLarge if data is over
// maximumImportBytes, or count over maximumImportedAccounts.
[[nodiscard]] ImportResult<void> checkSize(std::string_view format, ByteView data);
[[nodiscard]] ImportResult<void> checkCount(std::string_view format, std::size_t count);

// The lines of a text export, for formats with one entry a line: each line
// that is not blank, without the spaces, tabs and '\r' around it.
class TextLines
{
public:
    explicit TextLines(std::string_view text) : m_rest(text) {}

    // The next line that is not blank; nullopt at the end of the text.
    std::optional<std::string_view> next();

    // The number (from 1, blank lines counted) of the line next() returned.
    std::size_t lineNumber() const { return m_lineNumber; }

private:
    std::string_view m_rest;
    std::size_t m_lineNumber = 0;
};

} // namespace watchword::importers::detail
