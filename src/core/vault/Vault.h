// The unlocked vault: the master key M, the records in clear, and what it
// takes to write the file again (docs/FORMAT.md section 6).
//
// A vault holds one random 256-bit master key M. Records are sealed with M
// (crypto::RecordSealer, created once per unlock and kept); M itself is
// wrapped in a password slot (KEK = PBKDF2-HMAC-SHA256) and in a recovery slot
// (KEK = a sender DH to the keychain's recovery public key R under the
// recovery slot's own label, so a new M can be wrapped for recovery without
// the phrase). The sharing identity, a key pair derived from the phrase, is
// sealed in an identity slot under a key of its own derived from M. The
// manifest key
//   Km = HKDF-SHA256(M, salt empty, info "watchword/vault/v1 manifest", 32)
// authenticates the whole file, so records cannot be dropped, swapped or
// rolled back without M.
//
// A version 1 file opens too; the next serialize() writes it as version 2,
// its records' envelopes unchanged, its recovery slot wrapped again to the
// same R (the version-1 recovery key) under the new label, and keeps that R
// (its fingerprint is the one written down beside the phrase). Opening it
// with the phrase gives the vault its sharing identity
// (adoptRecoveryPhrase); a new phrase moves R to that phrase's recovery key.
//
// Randomness is drawn in a fixed order, which the worked examples in
// tests/data/vault rely on:
//   create():            vault id (16), M (32), salt (32), password-slot IV (16),
//                        ephemeral secret (32, redrawn while not a valid scalar),
//                        recovery-slot IV (16), identity-slot IV (16)
//   changePassword():    as create() from M on
//   replaceRecoveryKey(): ephemeral secret, recovery-slot IV, identity-slot IV
//   add():               record id (16, redrawn while it collides)
//   serialize():         the recovery slot if it must be wrapped again
//                        (ephemeral secret, IV), the identity slot if it must
//                        be sealed again (IV), then one IV (16) per record
//                        without cached sealed bytes, in file order
#pragma once

#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hmac.h"
#include "crypto/Random.h"
#include "crypto/RecordSealer.h"
#include "crypto/Secp256k1.h"
#include "keychain/Keychain.h"
#include "vault/Calibration.h"
#include "vault/Records.h"
#include "vault/VaultError.h"
#include "vault/VaultFile.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace watchword::vault {

// How unlocking spreads the records over threads (opening step 7).
struct UnlockOptions
{
    // 0: one worker per 512 records, at most the cores and at most 8. Any
    // other value: exactly that many, but never more than the records (1: all
    // on the calling thread). The result is the same either way.
    std::size_t workers = 0;
};

class Vault
{
public:
    // A new, empty vault with a password slot (password: the UTF-8 bytes of
    // the NFKD-normalized text), a recovery slot wrapped to the keychain's
    // recovery public key and the keychain's sharing key as its identity. Fails with KdfOutOfBounds
    // (iterations or target out of range, checked before the KDF runs) or CryptoDisabled.
    [[nodiscard]] static VaultResult<Vault> create(ByteView password,
                                                   const keychain::Keychain& keychain,
                                                   const Calibration& calibration,
                                                   crypto::RandomSource& random, std::int64_t now);

    // Opening steps 1 to 7 with the password: the errors of parseVault(), then
    // WrongPassword, Tampered (manifest or a record), Malformed (fields).
    // WrongPassword's message says the file may have been altered instead: a
    // changed salt, iteration count, wrapped key or vault id fails the slot's
    // tag as a wrong password does, and nothing can tell the two apart.
    [[nodiscard]] static VaultResult<Vault> unlockWithPassword(ByteView file, ByteView password,
                                                               const UnlockOptions& options = {});

    // The same with the recovery phrase's keychain: NoRecoverySlot, or
    // WrongRecoveryPhrase at once when its public key of the slot's kind is
    // not R (which an altered R also causes; the message says both, as for
    // the password). The vault then adopts the phrase (adoptRecoveryPhrase).
    [[nodiscard]] static VaultResult<Vault> unlockWithRecovery(ByteView file,
                                                               const keychain::Keychain& keychain,
                                                               const UnlockOptions& options = {});

    Vault(Vault&&) noexcept = default;
    Vault& operator=(Vault&&) noexcept = default;
    Vault(const Vault&) = delete;
    Vault& operator=(const Vault&) = delete;
    ~Vault() = default;

    const VaultId& vaultId() const noexcept { return m_vaultId; }
    // The generation of the file this vault was read from or last serialized
    // to; 0 for a new vault that was never serialized.
    std::uint64_t generation() const noexcept { return m_generation; }
    std::int64_t created() const noexcept { return m_created; }
    std::int64_t modified() const noexcept { return m_modified; }
    const PasswordSlotInfo& passwordSlot() const noexcept { return m_passwordSlotInfo; }
    bool hasRecoverySlot() const noexcept { return m_recoveryPublicKey.has_value(); }
    // Which of the keychain's keys the recovery slot wraps to.
    RecoveryKeyKind recoveryKeyKind() const noexcept { return m_recoveryKeyKind; }
    // The format version of the file this vault was read from (formatVersion
    // for a new one): 1 until the next serialize() writes version 2.
    std::uint16_t readVersion() const noexcept { return m_readVersion; }
    // The sharing identity, if the vault has one (a vault first written as
    // version 1 gets it when its phrase is next used).
    const std::optional<keychain::KeyPair>& sharingKey() const noexcept { return m_sharingKey; }

    // The records, in no particular order (serialize() sorts them).
    std::size_t recordCount() const noexcept { return m_entries.size(); }
    const Record& record(std::size_t index) const noexcept { return m_entries[index].record; }
    // The record with id, or null.
    [[nodiscard]] const Record* find(const RecordId& id) const noexcept;

    // Adds record (labels neutralised by neutraliseLabels, then validated:
    // InvalidRecord) with a fresh random id and version 1; the id and version
    // given are ignored. Returns the id.
    [[nodiscard]] VaultResult<RecordId> add(Record record, crypto::RandomSource& random);
    // Replaces the record with the same id (RecordNotFound, InvalidRecord;
    // labels neutralised as by add()); the version becomes the stored one + 1
    // and it is sealed afresh on save.
    [[nodiscard]] VaultResult<void> update(Record record);
    [[nodiscard]] VaultResult<void> remove(const RecordId& id);

    // A new master key: every record is sealed again on the next serialize(),
    // the password slot gets a new salt and KEK, the recovery slot wraps the
    // new M to the stored R with a new ephemeral key.
    [[nodiscard]] VaultResult<void> changePassword(ByteView newPassword,
                                                   const Calibration& calibration,
                                                   crypto::RandomSource& random);

    // Checks password against the password slot as written (one KDF run at
    // the slot's count): WrongPassword, or nothing. For confirming the user
    // before a change that needs the password again.
    [[nodiscard]] VaultResult<void> verifyPassword(ByteView password) const;

    // Wraps the same master key to a new keychain's recovery key and makes
    // its sharing key the vault's identity: the old recovery phrase stops
    // working with the next file written, the new one opens it. Records and
    // the password slot are untouched.
    [[nodiscard]] VaultResult<void> replaceRecoveryKey(const keychain::Keychain& keychain,
                                                       crypto::RandomSource& random);

    // keychain is the vault's recovery phrase (WrongRecoveryPhrase if not):
    // its sharing key becomes the vault's identity, sealed by the next
    // serialize(); the recovery slot keeps its key. Nothing changes for a
    // vault that already has this identity.
    [[nodiscard]] VaultResult<void> adoptRecoveryPhrase(const keychain::Keychain& keychain);

    // The file: generation + 1, modified = now, records in ascending sort
    // position then id. Records unchanged since they were read or last
    // serialized keep their sealed bytes; the others are sealed now.
    [[nodiscard]] VaultResult<Bytes> serialize(crypto::RandomSource& random, std::int64_t now);

private:
    // A record and, while it is unchanged, its envelope as the file holds
    // it: a view into m_readImage (as read) or into resealed (sealed by
    // serialize()); empty when the next serialize() must seal it.
    struct Entry
    {
        Record record;
        ByteView sealed;
        Bytes resealed;
    };

    Vault(VaultId vaultId, SecureBuffer masterKey, crypto::RecordSealer sealer,
          crypto::HmacKey manifestKey) noexcept;

    static VaultResult<Vault> create(VaultId vaultId, SecureBuffer masterKey);
    static VaultResult<Vault> openRecords(const ParsedVault& parsed, SecureBuffer masterKey,
                                          const UnlockOptions& options);
    // Opening step 7: opens and decodes every record of parsed into entries
    // (sized to match), whose envelopes become views into image (a copy of
    // parsed.authenticated).
    static VaultResult<void> openEntries(const ParsedVault& parsed, const Bytes& image,
                                         ByteView masterKey, crypto::RecordSealer& sealer,
                                         std::vector<Entry>& entries, std::size_t workers);

    VaultId m_vaultId{};
    std::uint64_t m_generation = 0;
    std::int64_t m_created = 0;
    std::int64_t m_modified = 0;
    SecureBuffer m_masterKey;
    crypto::RecordSealer m_sealer;
    crypto::HmacKey m_manifestKey;
    PasswordSlotInfo m_passwordSlotInfo;
    Bytes m_passwordSlot; // the slot body as written
    std::uint16_t m_readVersion = formatVersion;
    // R; the slot body as written, or nothing while it must be wrapped again.
    std::optional<crypto::PublicKey> m_recoveryPublicKey;
    RecoveryKeyKind m_recoveryKeyKind = RecoveryKeyKind::Current;
    std::optional<Bytes> m_recoverySlot;
    // The sharing identity; its slot body, or nothing while it must be sealed.
    std::optional<keychain::KeyPair> m_sharingKey;
    std::optional<Bytes> m_identitySlot;
    std::vector<Entry> m_entries;
    // The authenticated bytes of the file this vault was read from: one copy
    // that holds every record's envelope, instead of one allocation per record.
    std::unique_ptr<const Bytes> m_readImage;
};

// The keychain's key pair a recovery slot of this kind wraps to.
[[nodiscard]] const keychain::KeyPair& recoveryKeyPair(RecoveryKeyKind kind,
                                                       const keychain::Keychain& keychain) noexcept;

// The fingerprint of the recovery key a new vault (or a new phrase) wraps to:
// the keychain's recovery public key (docs/FORMAT.md section 6.8).
[[nodiscard]] std::string recoveryKeyFingerprint(const keychain::Keychain& keychain);

// The fingerprint of keychain's key of the kind the vault's recovery slot
// has: what to compare with the vault's own fingerprint.
[[nodiscard]] std::string recoveryKeyFingerprint(const VaultHeaderInfo& info,
                                                 const keychain::Keychain& keychain);

// Whether keychain's phrase is the one the vault's recovery slot is wrapped
// for: its public key of the slot's kind is the header's R, compared whole
// (false if the vault has no recovery slot). Needs no password.
[[nodiscard]] bool isRecoveryKeyOf(const VaultHeaderInfo& info,
                                   const keychain::Keychain& keychain) noexcept;

// The records in list order (docs/FORMAT.md section 6.3): ascending sort
// position, then ascending record id, bytes compared as unsigned. The order
// of vault list and codes, and of every export not given its accounts.
[[nodiscard]] std::vector<const Record*> sortedRecords(const Vault& vault);
// Only the records of one kind, in the same order (the others are not sorted).
[[nodiscard]] std::vector<const Record*> sortedRecords(const Vault& vault, RecordKind kind);

// The sort position a record added now gets (section 6.3): 1 + the largest
// sort position below 2^32 - 1 of any record in the vault, account or note,
// or 0 if there is none. Records added one after another get one position
// after another, up to 2^32 - 1, which further records then share.
[[nodiscard]] std::uint32_t nextSortPosition(const Vault& vault) noexcept;

} // namespace watchword::vault
