// Watchword's own backup (docs/FORMAT.md section 10; written by
// exporters/WatchwordBackup.cpp): a 67-byte header, then AES-256-GCM over
// the accounts' record fields under PBKDF2-HMAC-SHA256(password, salt), the
// header as associated data. The header is checked before any key work; an
// AEAD cannot tell a wrong password from a changed byte, so a tag that does
// not verify is WrongPassword, and the message says both.
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "interop/BackupFormat.h"
#include "interop/importers/Common.h"
#include "interop/importers/Formats.h"
#include "vault/BigEndian.h"
#include "vault/Records.h"

#include <cstring>

namespace watchword::importers::detail {

namespace backup = interop::backup;

namespace {

constexpr std::string_view label = "watchword-backup";

Failure<Error<ImportError>> malformedBackup(const std::string& what)
{
    return fail(ImportError::Malformed, std::string(label) + ": " + what);
}

bool hasMagic(ByteView data)
{
    return data.size() >= backup::magic.size() &&
           std::memcmp(data.data(), backup::magic.data(), backup::magic.size()) == 0;
}

} // namespace

bool watchwordBackupEncrypted(ByteView data)
{
    return hasMagic(data);
}

ImportResult<Imported> importWatchwordBackup(ByteView data, Password password)
{
    if (!hasMagic(data))
        return malformedBackup("not a Watchword backup (no \"WWBACKUP\" at the start)");
    if (data.size() < backup::headerSize)
        return malformedBackup("the file ends inside the header (" + std::to_string(data.size()) +
                               " bytes, the header has " + std::to_string(backup::headerSize) +
                               ")");
    const std::uint16_t version =
        vault::detail::readBigEndian<std::uint16_t>(data.data() + backup::versionOffset);
    if (version != backup::version)
        return fail(ImportError::UnsupportedVersion,
                    std::string(label) + ": backup version " + std::to_string(version) +
                        " (this build reads version " + std::to_string(backup::version) + ")");
    const std::uint8_t kdf = data[backup::kdfOffset];
    if (kdf != backup::kdfPbkdf2Sha256)
        return fail(ImportError::UnsupportedVersion,
                    std::string(label) + ": key derivation " + std::to_string(kdf) +
                        " (this build knows 1, PBKDF2-HMAC-SHA256)");
    const std::uint32_t iterations =
        vault::detail::readBigEndian<std::uint32_t>(data.data() + backup::iterationsOffset);
    if (iterations < backup::minimumIterations || iterations > backup::maximumIterations)
        return malformedBackup(std::to_string(iterations) +
                               " PBKDF2 iterations, outside the format's " +
                               std::to_string(backup::minimumIterations) + " to " +
                               std::to_string(backup::maximumIterations));
    // The smallest payload: the count and one account's shortest fields are
    // far more than this; the tag alone must be there.
    if (data.size() < backup::headerSize + backup::tagSize + backup::countSize)
        return malformedBackup("the file ends before the sealed accounts (truncated)");
    if (!password)
        return fail(ImportError::PasswordRequired,
                    std::string(label) + ": the backup is encrypted; its password is needed");
    if (password->empty())
        return fail(ImportError::WrongPassword,
                    std::string(label) + ": the password is empty (a backup always has one)");

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    // A fuzzer cannot forge the tag, so nothing past it is reachable; the
    // 600,000 iterations would only slow every input that has a header.
    return fail(ImportError::WrongPassword,
                std::string(label) + ": key work is skipped in fuzzing builds");
#endif
    const ByteView header = data.first(backup::headerSize);
    SecureBuffer key(backup::keySize);
    if (auto derived = crypto::pbkdf2(crypto::HashAlgorithm::Sha256, *password,
                                      header.subspan(backup::saltOffset, backup::saltSize),
                                      iterations, key.span());
        !derived)
        return derived.failure(ImportError::Unsupported, std::string(label) + ": ");
    auto plaintext =
        crypto::aesGcm::decrypt(key, header.subspan(backup::nonceOffset, backup::nonceSize), header,
                                data.subspan(backup::headerSize));
    if (!plaintext) {
        if (plaintext.error().code == crypto::AesGcmError::AuthenticationFailed)
            return fail(ImportError::WrongPassword,
                        std::string(label) +
                            ": the password is wrong, or the file was changed after it was "
                            "written (the two cannot be told apart)");
        return plaintext.failure(ImportError::Unsupported,
                                 std::string(label) + ": cannot decrypt: ");
    }

    // Past the tag only a faulty writer holding the key can put bad bytes
    // here: Malformed, naming the entry.
    const ByteView payload = plaintext->span();
    if (payload.size() < backup::countSize)
        return malformedBackup("the sealed payload has no account count");
    const std::uint32_t count = vault::detail::readBigEndian<std::uint32_t>(payload.data());
    if (count == 0)
        return malformedBackup("the backup holds no account");
    if (auto counted = checkCount(label, count); !counted)
        return counted.failure();
    Imported imported;
    imported.format = Format::WatchwordBackup;
    imported.accounts.reserve(count);
    std::size_t at = backup::countSize;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string where = "entry " + std::to_string(i + 1);
        if (payload.size() - at < backup::lengthSize)
            return malformedBackup(where + ": the payload ends before its length");
        const std::uint32_t length =
            vault::detail::readBigEndian<std::uint32_t>(payload.data() + at);
        at += backup::lengthSize;
        if (payload.size() - at < length)
            return malformedBackup(where + ": the payload ends inside its fields");
        auto record = vault::decodeFields(vault::RecordKind::OtpAccount, vault::RecordId{}, 0,
                                          payload.subspan(at, length));
        at += length;
        if (!record)
            return malformedBackup(where + ": " + record.error().message);
        auto& account = std::get<vault::OtpAccount>(record.value());
        ImportedAccount out;
        vault::moveEnteredFields(std::move(account), out);
        imported.accounts.push_back(std::move(out));
    }
    if (at != payload.size())
        return malformedBackup(std::to_string(payload.size() - at) +
                               " bytes after the last account");
    return imported;
}

} // namespace watchword::importers::detail
