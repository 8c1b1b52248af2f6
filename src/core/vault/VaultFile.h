// The vault file, versions 1 to 3, as bytes (docs/FORMAT.md section 6): the layout,
// the parser that runs the key-free checks of opening (steps 1 to 4), and the
// encoder. Nothing here derives a key or decrypts; the unlocked vault
// (vault/Vault.h) does that on top.
//
//   file     = body || checksum            checksum = SHA-256(body)
//   body     = header (64) || slots || records || manifest (32)
//   manifest = HMAC-SHA256(Km, header || slots || records)
#pragma once

#include "base/Bytes.h"
#include "crypto/Hmac.h"
#include "vault/Calibration.h"
#include "vault/Changes.h"
#include "vault/Records.h"
#include "vault/VaultError.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::vault {

inline constexpr std::array<std::uint8_t, 8> fileMagic = {0x57, 0x57, 0x56, 0x41,
                                                          0x55, 0x4c, 0x54, 0x00}; // "WWVAULT\0"
// The version written; versions 1 and 2 are read too (and written as 3).
inline constexpr std::uint16_t formatVersion = 3;
inline constexpr std::uint16_t oldestReadableVersion = 1;
inline constexpr std::size_t headerSize = 64;
inline constexpr std::size_t checksumSize = 32; // SHA-256
inline constexpr std::size_t manifestSize = 32; // HMAC-SHA256
inline constexpr std::size_t vaultIdSize = 16;
inline constexpr std::size_t masterKeySize = 32;
inline constexpr std::size_t saltSize = 32;
inline constexpr std::size_t wrappedKeySize = 96; // IV 16 || one 48-byte ciphertext || tag 32
inline constexpr std::size_t slotHeaderSize = 3;  // type (1) || length (2)
inline constexpr std::size_t passwordSlotSize = 1 + 4 + saltSize + 4 + 8 + wrappedKeySize; // 145
inline constexpr std::size_t versionOneRecoverySlotSize = 33 + 33 + wrappedKeySize;        // 162
inline constexpr std::size_t recoverySlotSize = 1 + 33 + 33 + wrappedKeySize;              // 163
inline constexpr std::size_t identitySlotSize = 33 + wrappedKeySize;                       // 129
inline constexpr std::size_t syncSlotFixedSize = 8 + 8 + 8 + 1; // + 16 per writer
inline constexpr std::size_t maximumSyncWriters = 64;
inline constexpr std::size_t recordHeaderSize = recordIdSize + 8 + 1 + 4; // 29
inline constexpr std::size_t minimumSealedRecordSize = 64;                // IV, one block, tag

inline constexpr std::uint8_t passwordSlotType = 1;
inline constexpr std::uint8_t versionOneRecoverySlotType = 2; // version 1 files only
inline constexpr std::uint8_t recoverySlotType = 3;           // version 2
inline constexpr std::uint8_t identitySlotType = 4;           // versions 2 and 3
inline constexpr std::uint8_t syncSlotType = 5;               // version 3
inline constexpr std::uint8_t kdfPbkdf2HmacSha256 = 1;

// Iterations: minimumPasswordIterations..maximumPasswordIterations
// (vault/Calibration.h). The calibration target is informative but bounded.
inline constexpr std::uint32_t minimumTargetMilliseconds = 1;
inline constexpr std::uint32_t maximumTargetMilliseconds = 60'000;

inline constexpr std::string_view manifestKeyInfo = "watchword/vault/v1 manifest";
inline constexpr std::string_view slotLabel = "watchword/vault/v1 slot";
inline constexpr std::string_view recordLabel = "watchword/vault/v1 record";
// Version 2: the recovery slot's KEK (HKDF info of the sender DH to R) and the
// sharing identity's key (HKDF info over M).
inline constexpr std::string_view recoveryKeyInfo = "watchword/vault/v2 recovery key";
inline constexpr std::string_view identityKeyInfo = "watchword/vault/v2 sharing identity";

// Which of the keychain's key pairs a recovery slot wraps to (docs/FORMAT.md
// section 1): the recovery key, or, in a vault first written as version 1
// whose phrase has not been used since, the version-1 recovery key.
enum class RecoveryKeyKind : std::uint8_t {
    VersionOne = 1,
    Current = 2,
};

using VaultId = std::array<std::uint8_t, vaultIdSize>;

// The password slot's parameters (the wrapped key aside).
struct PasswordSlotInfo
{
    std::uint8_t kdf = kdfPbkdf2HmacSha256;
    std::uint32_t iterations = 0;
    std::array<std::uint8_t, saltSize> salt{};
    std::uint32_t targetMilliseconds = 0;  // informative
    std::uint64_t iterationsPerSecond = 0; // informative: the rate measured at calibration
};

// One device's last write the vault has seen (the sync slot's writers).
struct WriterGeneration
{
    DeviceId device{};
    std::uint64_t generation = 0;

    friend bool operator==(const WriterGeneration&, const WriterGeneration&) = default;
};

// The sync slot (type 5, version 3; docs/FORMAT.md sections 6.2 and 13):
// who wrote the file, when its master key was made and by whom, and the
// last generation each device wrote that this file has merged. A file
// without one (versions 1 and 2) reads as all zero and no writers.
struct SyncInfo
{
    DeviceId lastWriter{};
    std::int64_t keyMade = 0; // Unix seconds, signed
    DeviceId keyDevice{};
    std::vector<WriterGeneration> writers; // ascending device, at most 64

    friend bool operator==(const SyncInfo&, const SyncInfo&) = default;
};

// What `vault info` shows: everything that can be read without a key.
struct VaultHeaderInfo
{
    std::uint16_t version = formatVersion;
    VaultId vaultId{};
    std::uint64_t generation = 0;
    std::int64_t created = 0;
    std::int64_t modified = 0;
    std::uint32_t recordCount = 0;
    std::uint8_t slotCount = 0;
    PasswordSlotInfo passwordSlot;
    // The recovery slot's public key R (compressed SEC 1), if any, and which
    // of the keychain's keys it is (always VersionOne in a version 1 file).
    std::optional<std::array<std::uint8_t, 33>> recoveryPublicKey;
    RecoveryKeyKind recoveryKeyKind = RecoveryKeyKind::VersionOne;
    // The sharing identity's public key (the identity slot; version 2), if any.
    std::optional<std::array<std::uint8_t, 33>> sharingPublicKey;
    SyncInfo sync;
};

// A record as the file stores it: the envelope stays sealed. sealed is a
// view: into the parsed file (parseVault), or into bytes the caller keeps
// alive until encodeVault() returns. Nothing is copied per record.
struct SealedRecord
{
    RecordId id{};
    std::uint64_t version = 0;
    RecordKind kind = RecordKind::OtpAccount;
    ByteView sealed;
};

// Everything encode() writes, the manifest and checksum aside.
struct VaultImage
{
    VaultId vaultId{};
    std::uint64_t generation = 0;
    std::int64_t created = 0;
    std::int64_t modified = 0;
    Bytes passwordSlot;                // passwordSlotSize bytes: the slot body
    std::optional<Bytes> recoverySlot; // recoverySlotSize bytes: the slot body
    std::optional<Bytes> identitySlot; // identitySlotSize bytes: the slot body
    SyncInfo sync;                     // written as the sync slot
    std::vector<SealedRecord> records; // in file order
};

// A parsed file: the slots and records still sealed, and the bytes the
// manifest covers. The views point into the file that was parsed.
struct ParsedVault
{
    VaultHeaderInfo info;
    ByteView passwordSlot; // the slot body
    // Version 1: type 2, versionOneRecoverySlotSize bytes; version 2: type 3,
    // recoverySlotSize bytes.
    std::optional<ByteView> recoverySlot;
    std::optional<ByteView> identitySlot; // versions 2 and 3
    std::optional<ByteView> syncSlot;     // version 3
    std::vector<SealedRecord> records;
    ByteView authenticated; // header || slots || records
    ByteView manifest;
};

// Steps 1 to 4 of opening: size and magic, version, structure, checksum, KDF
// bounds. No key is derived, so this is cheap and safe on any input. A file
// shorter than header + checksum whose first bytes still match the magic is
// Truncated (a cut vault); one whose first bytes differ is NotAVault.
[[nodiscard]] VaultResult<ParsedVault> parseVault(ByteView file);

// The same, keeping only what `vault info` shows.
[[nodiscard]] VaultResult<VaultHeaderInfo> decodeHeader(ByteView file);

// The password slot body from its parts (wrapped: wrappedKeySize bytes).
[[nodiscard]] Bytes encodePasswordSlot(const PasswordSlotInfo& info, ByteView wrapped);
// The recovery slot body (version 2): kind (1) || R (33) || E (33) || wrapped (96).
[[nodiscard]] Bytes encodeRecoverySlot(RecoveryKeyKind kind, ByteView recipient, ByteView ephemeral,
                                       ByteView wrapped);
// The identity slot body: the sharing public key (33) || wrapped secret (96).
[[nodiscard]] Bytes encodeIdentitySlot(ByteView publicKey, ByteView wrapped);

// writers[device] = the larger of its generation and generation, in device
// order; beyond maximumSyncWriters, the device with the lowest generation
// goes (the first among equals).
void recordWrite(std::vector<WriterGeneration>& writers, const DeviceId& device,
                 std::uint64_t generation);

// The sync slot body: last writer (8) || key made (8) || key device (8) ||
// n (1) || n x (device (8) || generation (8)).
[[nodiscard]] Bytes encodeSyncSlot(const SyncInfo& sync);

// The full file (always version 3) for image, the manifest computed with manifestKey (an
// HMAC-SHA256 key prepared from Km). The image must be well formed (slot
// sizes, record envelope sizes): the Vault only builds such images.
[[nodiscard]] Bytes encodeVault(const VaultImage& image, const crypto::HmacKey& manifestKey);

// The associated data of a slot envelope: slotLabel || vault id || slot type.
inline constexpr std::size_t slotAssociatedDataSize = slotLabel.size() + vaultIdSize + 1; // 40
using SlotAssociatedData = std::array<std::uint8_t, slotAssociatedDataSize>;
[[nodiscard]] SlotAssociatedData slotAssociatedData(const VaultId& vaultId,
                                                    std::uint8_t slotType) noexcept;
// The associated data of a record envelope:
// recordLabel || vault id || record id || be64(version) || kind.
inline constexpr std::size_t recordAssociatedDataSize =
    recordLabel.size() + vaultIdSize + recordIdSize + 8 + 1; // 66
using RecordAssociatedData = std::array<std::uint8_t, recordAssociatedDataSize>;
[[nodiscard]] RecordAssociatedData recordAssociatedData(const VaultId& vaultId, const RecordId& id,
                                                        std::uint64_t version,
                                                        RecordKind kind) noexcept;

// The fingerprint of a recovery public key R (compressed SEC 1, 33 bytes),
// for a person to compare with the one written down beside the phrase: the
// first 10 bytes of SHA-256("watchword/vault/v1 recovery fingerprint" || R)
// as 20 upper-case hex digits in five groups of four, "7F3A 0C91 55E2 A0B4
// 19CD" (docs/FORMAT.md section 6.8). 80 bits: making another key with the
// same fingerprint is out of reach.
[[nodiscard]] std::string recoveryKeyFingerprint(ByteView recoveryPublicKey);

// The fingerprint of the R a vault's header names, or "" if it has no
// recovery slot.
[[nodiscard]] std::string recoveryKeyFingerprint(const VaultHeaderInfo& info);

// SHA-256 of data, the file checksum.
[[nodiscard]] std::array<std::uint8_t, checksumSize> fileChecksum(ByteView data);

} // namespace watchword::vault
