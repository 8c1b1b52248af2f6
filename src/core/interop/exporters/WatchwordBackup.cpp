// The Watchword backup (docs/FORMAT.md section 10): every account's record
// fields (section 6.4, as the vault seals them), sealed together with
// AES-256-GCM under a key that PBKDF2-HMAC-SHA256 derives from the backup's
// own password, the header as associated data.
//
// AES-256-GCM rather than ChaCha20-Poly1305: a backup is sealed once, under a
// key used for nothing else (each backup has a fresh salt, so a fresh key),
// which is crypto::aesGcm's one-shot shape; and AES-GCM is what other
// platforms' standard libraries offer (WebCrypto, Java's javax.crypto, .NET),
// so a backup stays readable without us.
#include "crypto/AesGcm.h"
#include "crypto/Kdf.h"
#include "interop/BackupFormat.h"
#include "interop/Limits.h"
#include "interop/exporters/ExportCommon.h"
#include "vault/BigEndian.h"

#include <array>
#include <cstring>

namespace watchword::exporters::detail {

namespace backup = interop::backup;

namespace {

constexpr std::string_view label = "watchword-backup";

void writeU32(SecureText& out, std::uint32_t value)
{
    std::array<std::uint8_t, 4> bytes{};
    vault::detail::writeBigEndian(bytes.data(), value);
    out.append(ByteView(bytes));
}

} // namespace

ExportResult<Exported> exportWatchwordBackup(std::span<const vault::OtpAccount> accounts,
                                             ByteView password, std::uint32_t iterations,
                                             std::int64_t now, crypto::RandomSource& random)
{
    if (iterations < backup::minimumIterations || iterations > backup::maximumIterations)
        return fail(ExportError::KdfOutOfBounds,
                    std::string(label) + ": " + std::to_string(iterations) +
                        " PBKDF2 iterations; a backup takes " +
                        std::to_string(backup::minimumIterations) + " to " +
                        std::to_string(backup::maximumIterations));
    if (accounts.size() > interop::maximumImportedAccounts)
        return fail(ExportError::NotRepresentable,
                    std::string(label) + ": more than " +
                        std::to_string(interop::maximumImportedAccounts) +
                        " accounts, which no import reads back");

    // The payload first: an account the vault could not store stops the
    // export before any key work.
    SecureText payload;
    writeU32(payload, static_cast<std::uint32_t>(accounts.size()));
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        // The backup carries what the account is, not this vault's history
        // of it (docs/FORMAT.md section 10.1).
        auto account = accounts[i].clone();
        account.changes.clear();
        auto fields = vault::encodeFields(vault::Record(std::move(account)));
        if (!fields)
            return fields.failure(ExportError::NotRepresentable,
                                  std::string(label) + ": " + entryLabel(i, accounts[i]) + ": ");
        writeU32(payload, static_cast<std::uint32_t>(fields->size()));
        payload.append(fields->span());
    }
    const SecureBuffer plaintext = payload.take();
    if (plaintext.size() + backup::headerSize + backup::tagSize > interop::maximumImportBytes)
        return fail(ExportError::NotRepresentable,
                    std::string(label) + ": the backup would be larger than the " +
                        std::to_string(interop::maximumImportBytes / (1024 * 1024)) +
                        " MiB an import reads");

    std::array<std::uint8_t, backup::headerSize> header{};
    std::memcpy(header.data(), backup::magic.data(), backup::magic.size());
    vault::detail::writeBigEndian(header.data() + backup::versionOffset, backup::version);
    header[backup::kdfOffset] = backup::kdfPbkdf2Sha256;
    vault::detail::writeBigEndian(header.data() + backup::iterationsOffset, iterations);
    random.fill(std::span(header).subspan(backup::saltOffset, backup::saltSize));
    random.fill(std::span(header).subspan(backup::nonceOffset, backup::nonceSize));
    vault::detail::writeBigEndian(header.data() + backup::createdOffset,
                                  static_cast<std::uint64_t>(now));

    SecureBuffer key(backup::keySize);
    if (auto derived = crypto::pbkdf2(
            crypto::HashAlgorithm::Sha256, password,
            ByteView(header).subspan(backup::saltOffset, backup::saltSize), iterations, key.span());
        !derived)
        return derived.failure(derived.error().code == crypto::KdfError::CryptoDisabled
                                   ? ExportError::CryptoDisabled
                                   : ExportError::KdfOutOfBounds,
                               std::string(label) + ": ");
    auto sealed = crypto::aesGcm::encrypt(
        key, ByteView(header).subspan(backup::nonceOffset, backup::nonceSize), header, plaintext);
    if (!sealed)
        return sealed.failure(sealed.error().code == crypto::AesGcmError::CryptoDisabled
                                  ? ExportError::CryptoDisabled
                                  : ExportError::NotRepresentable,
                              std::string(label) + ": ");

    Exported exported;
    exported.data = SecureBuffer(header.size() + sealed->size());
    std::memcpy(exported.data.data(), header.data(), header.size());
    std::memcpy(exported.data.data() + header.size(), sealed->data(), sealed->size());
    return exported;
}

} // namespace watchword::exporters::detail
