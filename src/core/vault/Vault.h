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
// Every change is counted for the device that made it (setDevice; the
// records' changes, vault/Changes.h), a removed record leaves a tombstone,
// and the sync slot says who wrote the file: so that two copies of the vault
// edited on two devices merge (merge(), docs/FORMAT.md section 13).
//
// A version 1 file opens too; the next serialize() writes it as version 3,
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
//   add():               record id (16, redrawn while it collides with a
//                        record or a tombstone)
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

// How many records of each kind.
struct KindCounts
{
    std::size_t accounts = 0;
    std::size_t notes = 0;
    std::size_t contacts = 0;

    std::size_t total() const noexcept { return accounts + notes + contacts; }
    void count(RecordKind kind) noexcept;
    friend bool operator==(const KindCounts&, const KindCounts&) = default;
};

// What a merge took from the other copy (docs/FORMAT.md section 13).
struct MergeReport
{
    KindCounts added;   // records the other copy has and this one had not
    KindCounts changed; // records the other copy changed, unchanged here
    KindCounts removed; // records the other copy deleted, unchanged here
    // Records changed on both sides (or deleted on one and changed on the
    // other), resolved by section 13's rules.
    std::size_t conflicts = 0;
    // Of them, notes whose two texts differ: the other text is kept as a
    // new note, "<title> (conflicting edit)".
    std::size_t notesKeptTwice = 0;
    // HOTP counters raised to the other copy's, so that no code comes twice.
    std::size_t countersRaised = 0;
    // Records added on both sides at the same place, moved after the others.
    std::size_t positionsMoved = 0;
    // The other copy's master key (and so its password, recovery slot and
    // identity) was made later, and is the vault's now.
    bool keyFromOther = false;
    // Not 0 when the merged vault holds something the other copy does not
    // hold as it is (a record or tombstone it lacks or has otherwise, or the
    // newer key): 0 when the other copy already is the merged vault, so that
    // a writer that merged a file another device wrote need not write it
    // back (two devices would otherwise answer each other's saves forever).
    std::size_t otherLacks = 0;

    // Whether the merged vault differs from this one as it was.
    [[nodiscard]] bool changedThis() const noexcept;
    friend bool operator==(const MergeReport&, const MergeReport&) = default;
};

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

    // Opens file with this vault's master key (holder: an unlocked copy of
    // the same vault), no password needed: for the copy another device
    // saved. Steps 1 to 4 as for a password, then DifferentVault (another
    // vault id), then KeyChanged if the copy's master key is another one
    // (its password was changed on another device: open it with that
    // password or the recovery phrase), Tampered (the manifest fails under
    // this key though the password slot is this vault's) and the record
    // checks.
    [[nodiscard]] static VaultResult<Vault> unlockWithKeyOf(ByteView file, const Vault& holder,
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
    // for a new one): 1 or 2 until the next serialize() writes version 3.
    std::uint16_t readVersion() const noexcept { return m_readVersion; }
    // The sharing identity, if the vault has one (a vault first written as
    // version 1 gets it when its phrase is next used).
    const std::optional<keychain::KeyPair>& sharingKey() const noexcept { return m_sharingKey; }

    // The device whose changes this vault counts (docs/FORMAT.md section 13):
    // the writing program's id on this machine. All zero until set.
    void setDevice(const DeviceId& device) noexcept { m_device = device; }
    const DeviceId& device() const noexcept { return m_device; }
    // The sync slot as read, or as the last serialize() wrote it.
    const SyncInfo& sync() const noexcept { return m_sync; }
    // The last generation device wrote that this vault holds, or 0.
    [[nodiscard]] std::uint64_t generationWrittenBy(const DeviceId& device) const noexcept;
    // What is left of removed records (in no particular order).
    std::size_t tombstoneCount() const noexcept { return m_tombstones.size(); }
    const Tombstone& tombstone(std::size_t index) const noexcept
    {
        return m_tombstones[index].tombstone;
    }
    // Whether the master key is other's (compared in constant time).
    [[nodiscard]] bool sameMasterKey(const Vault& other) const noexcept;

    // The records, in no particular order (serialize() sorts them).
    std::size_t recordCount() const noexcept { return m_entries.size(); }
    const Record& record(std::size_t index) const noexcept { return m_entries[index].record; }
    // The record with id, or null.
    [[nodiscard]] const Record* find(const RecordId& id) const noexcept;

    // Adds record (labels neutralised by neutraliseLabels, then validated:
    // InvalidRecord) with a fresh random id, version 1 and one change by this
    // device; the id, version and changes given are ignored. Returns the id.
    [[nodiscard]] VaultResult<RecordId> add(Record record, crypto::RandomSource& random);
    // Replaces the record with the same id (RecordNotFound, InvalidRecord;
    // labels neutralised as by add()); the version becomes the stored one + 1,
    // the changes the stored ones and one more by this device, and it is
    // sealed afresh on save.
    [[nodiscard]] VaultResult<void> update(Record record);
    // Removes the record, leaving a tombstone: its id, version + 1, its
    // changes and one more by this device, and the time of the next
    // serialize().
    [[nodiscard]] VaultResult<void> remove(const RecordId& id);

    // Merges other, a copy of this vault saved elsewhere and opened with its
    // own key, into this one, unsaved changes included (docs/FORMAT.md
    // section 13): DifferentVault (another vault id) or RolledBack (other was
    // written by a device before a later write of that device this vault has
    // merged) and nothing changes. Otherwise per record: the side that has
    // seen all the other's changes wins; changes on both sides are resolved
    // by section 13's rules (a note's other text kept as a new note); a
    // tombstone deletes what it has seen; HOTP counters take the larger;
    // records added on both sides at one place are moved after the others.
    // The master key made later (sync slot) is kept, with its slots. The
    // next serialize() writes a generation above both. Records unchanged
    // under the kept key keep their sealed bytes.
    [[nodiscard]] VaultResult<MergeReport> merge(Vault other);

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
    // position then id, then the tombstones by id (those deleted more than
    // tombstoneLifetime ago dropped, and beyond maximumTombstones the
    // oldest); the sync slot names this device as the writer of the new
    // generation. Records unchanged since they were read or last serialized
    // keep their sealed bytes; the others are sealed now.
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
    struct TombstoneEntry
    {
        Tombstone tombstone;
        ByteView sealed;
        Bytes resealed;
        bool timed = true; // false until serialize() sets the time of deletion
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
                                         std::vector<Entry>& entries,
                                         std::vector<std::optional<TombstoneEntry>>& tombstones,
                                         std::size_t workers);
    // DifferentVault, naming both vault ids.
    static Failure<Error<VaultError>> anotherVault(const VaultId& theirs, const VaultId& ours);
    // Takes other's master key and everything wrapped under it (merge()).
    void takeKeysOf(Vault& other) noexcept;
    // After a serialize() of a vault that merged: one image, the file.
    void keepImage(const Bytes& file);

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
    std::vector<TombstoneEntry> m_tombstones;
    DeviceId m_device{};
    SyncInfo m_sync;
    // Whether M was made since the file was read (create, changePassword):
    // the next serialize() records the time and this device in the sync slot.
    bool m_keyIsNew = false;
    // The authenticated bytes of the files this vault's entries came from
    // (the one it was read from, and those merged since): one copy that holds
    // every record's envelope, instead of one allocation per record.
    std::vector<std::unique_ptr<const Bytes>> m_images;
};

// The keychain's key pair a recovery slot of this kind wraps to.
[[nodiscard]] const keychain::KeyPair& recoveryKeyPair(RecoveryKeyKind kind,
                                                       const keychain::Keychain& keychain) noexcept;

// How long a tombstone is kept, and how many at most (the most recent).
// A copy older than that, merged later, brings back what was deleted since:
// nothing is lost, something deleted may return.
inline constexpr std::int64_t tombstoneLifetime = 400 * 24 * 3600;
inline constexpr std::size_t maximumTombstones = 10'000;

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
