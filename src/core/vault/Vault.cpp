#include "vault/Vault.h"

#include "crypto/CryptoState.h"
#include "crypto/Kdf.h"
#include "encoding/Hex.h"
#include "share/SenderDh.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace watchword::vault {

namespace {

Failure<Error<VaultError>> fromRecordError(const Error<crypto::RecordError>& error)
{
    return fail(error.code == crypto::RecordError::CryptoDisabled ? VaultError::CryptoDisabled
                                                                  : VaultError::InternalFailure,
                error.message);
}

// What a slot's tag failing means when a vault is opened. The KEK comes from
// the salt and the iteration count (or R and E), and the slot's associated
// data holds the vault id, all read from the file before anything
// authenticates them: a change to any of them, or to the wrapped key, fails
// the tag exactly as a wrong password or phrase does (docs/FORMAT.md section
// 6.5). The messages say so; these are the only place they are written.
constexpr const char* wrongPasswordMessage =
    "wrong password, or the file was altered (the two cannot be told apart)";
constexpr const char* wrongPhraseMessage =
    "wrong recovery phrase, or the file was altered (the two cannot be told apart)";

// List order (section 6.3): sort position, then record id.
bool inListOrder(const Record& a, const Record& b)
{
    const auto positionA = sortPositionOf(a);
    const auto positionB = sortPositionOf(b);
    return positionA != positionB ? positionA < positionB : idOf(a) < idOf(b);
}

VaultResult<crypto::RecordSealer> sealerFor(ByteView key)
{
    auto sealer = crypto::RecordSealer::create(key);
    if (!sealer)
        return fromRecordError(sealer.error());
    return std::move(*sealer);
}

VaultResult<void> checkCalibration(const Calibration& calibration)
{
    if (calibration.iterations < minimumPasswordIterations ||
        calibration.iterations > maximumPasswordIterations)
        return fail(VaultError::KdfOutOfBounds, std::to_string(calibration.iterations) +
                                                    " iterations is outside 600000..50000000");
    if (calibration.targetMilliseconds < minimumTargetMilliseconds ||
        calibration.targetMilliseconds > maximumTargetMilliseconds)
        return fail(VaultError::KdfOutOfBounds, "a calibration target of " +
                                                    std::to_string(calibration.targetMilliseconds) +
                                                    " ms is outside 1..60000");
    return {};
}

// KEK = PBKDF2-HMAC-SHA256(password, salt, iterations, 32).
VaultResult<SecureBuffer> passwordKey(ByteView password, const PasswordSlotInfo& slot)
{
    SecureBuffer key(masterKeySize);
    if (const auto derived = crypto::pbkdf2(crypto::HashAlgorithm::Sha256, password, slot.salt,
                                            slot.iterations, key.span());
        !derived)
        return derived.failure(derived.error().code == crypto::KdfError::CryptoDisabled
                                   ? VaultError::CryptoDisabled
                                   : VaultError::InternalFailure);
    return key;
}

// Opens a slot's wrapped master key with kek; a failed tag is wrongKey.
VaultResult<SecureBuffer> unwrapMasterKey(ByteView kek, ByteView associatedData, ByteView wrapped,
                                          VaultError wrongKey, const char* wrongKeyMessage)
{
    auto sealer = sealerFor(kek);
    if (!sealer)
        return sealer.failure();
    auto opened = sealer->open(associatedData, wrapped);
    if (!opened) {
        if (opened.error().code == crypto::RecordError::AuthenticationFailed)
            return fail(wrongKey, wrongKeyMessage);
        // A valid tag over bad padding: written by a faulty writer that held
        // the key, not an attacker's doing and not an OpenSSL failure.
        if (opened.error().code == crypto::RecordError::Corrupt)
            return fail(VaultError::Malformed, "the slot's key envelope has a valid tag but "
                                               "invalid padding");
        return fromRecordError(opened.error());
    }
    if (opened->size() != masterKeySize)
        return fail(VaultError::Malformed,
                    "the slot holds a key of " + std::to_string(opened->size()) + " bytes, not 32");
    return std::move(*opened);
}

// The recovery slot body (version 2): M wrapped with the sender DH to R
// under the recovery slot's label, from a fresh ephemeral key.
VaultResult<Bytes> wrapRecoverySlot(const VaultId& vaultId, ByteView masterKey,
                                    const crypto::PublicKey& recipient, RecoveryKeyKind kind,
                                    crypto::RandomSource& random)
{
    auto note = share::senderNoteKey(random, recipient, recoveryKeyInfo);
    if (!note)
        return note.failure(VaultError::CryptoDisabled);
    auto sealer = sealerFor(note->noteKey);
    if (!sealer)
        return sealer.failure();
    auto wrapped = sealer->seal(slotAssociatedData(vaultId, recoverySlotType), masterKey, random);
    if (!wrapped)
        return fromRecordError(wrapped.error());
    return encodeRecoverySlot(kind, recipient.compressed(), note->ephemeralPublicKey, *wrapped);
}

// HKDF-SHA256(M, salt empty, info, 32): a key of M's for one purpose.
VaultResult<SecureBuffer> keyOfMaster(ByteView masterKey, std::string_view info)
{
    SecureBuffer key(masterKeySize);
    if (const auto derived =
            crypto::hkdf(crypto::HashAlgorithm::Sha256, masterKey, {}, asBytes(info), key.span());
        !derived)
        return derived.failure(derived.error().code == crypto::KdfError::CryptoDisabled
                                   ? VaultError::CryptoDisabled
                                   : VaultError::InternalFailure);
    return key;
}

// The sealer of the identity slot: under KI, M's key for the sharing identity.
VaultResult<crypto::RecordSealer> identitySealer(ByteView masterKey)
{
    auto key = keyOfMaster(masterKey, identityKeyInfo);
    if (!key)
        return key.failure();
    return sealerFor(*key);
}

// The identity slot body: the sharing public key, and its secret key sealed
// under KI.
VaultResult<Bytes> sealIdentitySlot(const VaultId& vaultId, ByteView masterKey,
                                    const keychain::KeyPair& sharing, crypto::RandomSource& random)
{
    auto sealer = identitySealer(masterKey);
    if (!sealer)
        return sealer.failure();
    auto wrapped = sealer->seal(slotAssociatedData(vaultId, identitySlotType),
                                sharing.secretKey.bytes(), random);
    if (!wrapped)
        return fromRecordError(wrapped.error());
    return encodeIdentitySlot(sharing.publicKey.compressed(), *wrapped);
}

// The sharing identity from its slot. The manifest has verified the slot, so
// anything wrong in it was written by a holder of M: malformed.
VaultResult<keychain::KeyPair> openIdentitySlot(const VaultId& vaultId, ByteView masterKey,
                                                ByteView body)
{
    auto sealer = identitySealer(masterKey);
    if (!sealer)
        return sealer.failure();
    auto opened =
        sealer->open(slotAssociatedData(vaultId, identitySlotType), body.last(wrappedKeySize));
    if (!opened) {
        if (opened.error().code == crypto::RecordError::CryptoDisabled)
            return fromRecordError(opened.error());
        return fail(VaultError::Malformed, "identity slot: the sharing key does not open");
    }
    auto secretKey = crypto::SecretKey::fromBytes(std::move(*opened));
    if (!secretKey)
        return fail(VaultError::Malformed,
                    "identity slot: the sharing key is not a secp256k1 secret key");
    auto publicKey = secretKey->publicKey();
    const auto stored = body.first(crypto::PublicKey::compressedSize);
    const auto derived = publicKey.compressed();
    if (!std::equal(derived.begin(), derived.end(), stored.begin(), stored.end()))
        return fail(VaultError::Malformed,
                    "identity slot: the public key is not the sharing key's");
    return keychain::KeyPair{std::move(secretKey).value(), std::move(publicKey)};
}

keychain::KeyPair copyOf(const keychain::KeyPair& pair)
{
    // A valid key copied: fromBytes cannot refuse it.
    return {crypto::SecretKey::fromBytes(pair.secretKey.bytes()).value(), pair.publicKey};
}

// The slot bodies for master key M.
struct Slots
{
    PasswordSlotInfo info;
    Bytes password;
    std::optional<Bytes> recovery;
    std::optional<Bytes> identity;
};

VaultResult<Slots> wrapSlots(const VaultId& vaultId, ByteView masterKey, ByteView password,
                             const Calibration& calibration,
                             const std::optional<crypto::PublicKey>& recipient,
                             RecoveryKeyKind kind, const std::optional<keychain::KeyPair>& sharing,
                             crypto::RandomSource& random)
{
    Slots slots;
    slots.info.kdf = kdfPbkdf2HmacSha256;
    slots.info.iterations = calibration.iterations;
    random.fill(slots.info.salt);
    slots.info.targetMilliseconds = calibration.targetMilliseconds;
    slots.info.iterationsPerSecond = calibration.iterationsPerSecond;
    auto kek = passwordKey(password, slots.info);
    if (!kek)
        return kek.failure();
    auto passwordSealer = sealerFor(*kek);
    if (!passwordSealer)
        return passwordSealer.failure();
    auto wrapped =
        passwordSealer->seal(slotAssociatedData(vaultId, passwordSlotType), masterKey, random);
    if (!wrapped)
        return fromRecordError(wrapped.error());
    slots.password = encodePasswordSlot(slots.info, *wrapped);

    if (recipient) {
        auto recovery = wrapRecoverySlot(vaultId, masterKey, *recipient, kind, random);
        if (!recovery)
            return recovery.failure();
        slots.recovery = std::move(*recovery);
    }
    if (sharing) {
        auto identity = sealIdentitySlot(vaultId, masterKey, *sharing, random);
        if (!identity)
            return identity.failure();
        slots.identity = std::move(*identity);
    }
    return slots;
}

VaultResult<crypto::HmacKey> manifestKeyFor(ByteView masterKey)
{
    auto key = keyOfMaster(masterKey, manifestKeyInfo);
    if (!key)
        return key.failure();
    return crypto::HmacKey(crypto::HashAlgorithm::Sha256, *key);
}

// What the master key gives an open vault: its record sealer and the
// manifest's HMAC key.
struct MasterKeys
{
    crypto::RecordSealer sealer;
    crypto::HmacKey manifestKey;
};

VaultResult<MasterKeys> keysOf(ByteView masterKey)
{
    auto sealer = sealerFor(masterKey);
    if (!sealer)
        return sealer.failure();
    auto manifestKey = manifestKeyFor(masterKey);
    if (!manifestKey)
        return manifestKey.failure();
    return MasterKeys{std::move(*sealer), std::move(*manifestKey)};
}

} // namespace

Vault::Vault(VaultId vaultId, SecureBuffer masterKey, crypto::RecordSealer sealer,
             crypto::HmacKey manifestKey) noexcept
    : m_vaultId(vaultId), m_masterKey(std::move(masterKey)), m_sealer(std::move(sealer)),
      m_manifestKey(std::move(manifestKey))
{}

VaultResult<Vault> Vault::create(VaultId vaultId, SecureBuffer masterKey)
{
    auto keys = keysOf(masterKey);
    if (!keys)
        return keys.failure();
    return Vault(vaultId, std::move(masterKey), std::move(keys->sealer),
                 std::move(keys->manifestKey));
}

VaultResult<Vault> Vault::create(ByteView password, const keychain::Keychain& keychain,
                                 const Calibration& calibration, crypto::RandomSource& random,
                                 std::int64_t now)
{
    if (auto checked = checkCalibration(calibration); !checked)
        return checked.failure();
    if (crypto::isDisabled())
        return fail(VaultError::CryptoDisabled, crypto::disabledReason());
    VaultId vaultId{};
    random.fill(vaultId);
    SecureBuffer masterKey(masterKeySize);
    random.fill(masterKey.span());
    auto vault = create(vaultId, std::move(masterKey));
    if (!vault)
        return vault;
    vault->m_created = now;
    vault->m_modified = now;
    vault->m_keyIsNew = true;
    vault->m_recoveryPublicKey = keychain.recoveryKey().publicKey;
    vault->m_recoveryKeyKind = RecoveryKeyKind::Current;
    vault->m_sharingKey = copyOf(keychain.sharingKey());
    auto slots =
        wrapSlots(vaultId, vault->m_masterKey, password, calibration, vault->m_recoveryPublicKey,
                  vault->m_recoveryKeyKind, vault->m_sharingKey, random);
    if (!slots)
        return slots.failure();
    vault->m_passwordSlotInfo = slots->info;
    vault->m_passwordSlot = std::move(slots->password);
    vault->m_recoverySlot = std::move(slots->recovery);
    vault->m_identitySlot = std::move(slots->identity);
    return vault;
}

VaultResult<Vault> Vault::unlockWithPassword(ByteView file, ByteView password,
                                             const UnlockOptions& options)
{
    auto parsed = parseVault(file);
    if (!parsed)
        return parsed.failure();
    auto kek = passwordKey(password, parsed->info.passwordSlot);
    if (!kek)
        return kek.failure();
    auto masterKey = unwrapMasterKey(
        *kek, slotAssociatedData(parsed->info.vaultId, passwordSlotType),
        parsed->passwordSlot.last(wrappedKeySize), VaultError::WrongPassword, wrongPasswordMessage);
    if (!masterKey)
        return masterKey.failure();
    return openRecords(*parsed, std::move(*masterKey), options);
}

VaultResult<Vault> Vault::unlockWithRecovery(ByteView file, const keychain::Keychain& keychain,
                                             const UnlockOptions& options)
{
    auto parsed = parseVault(file);
    if (!parsed)
        return parsed.failure();
    if (!parsed->recoverySlot)
        return fail(VaultError::NoRecoverySlot, "this vault has no recovery slot");
    const auto slot = *parsed->recoverySlot;
    const auto& info = parsed->info;
    if (!isRecoveryKeyOf(info, keychain))
        return fail(VaultError::WrongRecoveryPhrase,
                    "wrong recovery phrase: its recovery key " +
                        recoveryKeyFingerprint(info, keychain) + " is not this vault's (" +
                        recoveryKeyFingerprint(info) +
                        "), or the file was altered. If this is the phrase the vault was made "
                        "with, its recovery key was replaced: make a new phrase with the "
                        "password");
    // Version 1: R || E || wrapped, the note key's label, slot type 2;
    // version 2: kind || R || E || wrapped, the recovery label, slot type 3.
    const bool versionOne = info.version == 1;
    const std::size_t ephemeralAt = (versionOne ? 0 : 1) + crypto::PublicKey::compressedSize;
    const auto& pair = recoveryKeyPair(info.recoveryKeyKind, keychain);
    auto kek = share::recipientNoteKey(pair.secretKey, pair.publicKey,
                                       slot.subspan(ephemeralAt, crypto::PublicKey::compressedSize),
                                       versionOne ? share::noteKeyLabel : recoveryKeyInfo);
    if (!kek)
        return kek.failure(kek.error().code == share::ShareError::CryptoDisabled
                               ? VaultError::CryptoDisabled
                               : VaultError::Malformed,
                           "recovery slot: ");
    auto masterKey = unwrapMasterKey(
        *kek,
        slotAssociatedData(info.vaultId,
                           versionOne ? versionOneRecoverySlotType : recoverySlotType),
        slot.last(wrappedKeySize), VaultError::WrongRecoveryPhrase, wrongPhraseMessage);
    if (!masterKey)
        return masterKey.failure();
    auto vault = openRecords(*parsed, std::move(*masterKey), options);
    if (!vault)
        return vault;
    if (auto adopted = vault->adoptRecoveryPhrase(keychain); !adopted)
        return adopted.failure();
    return vault;
}

Failure<Error<VaultError>> Vault::anotherVault(const VaultId& theirs, const VaultId& ours)
{
    return fail(VaultError::DifferentVault,
                "a copy of another vault (vault id " + encoding::toHex(ByteView(theirs)) +
                    ", this one is " + encoding::toHex(ByteView(ours)) + ")");
}

VaultResult<Vault> Vault::unlockWithKeyOf(ByteView file, const Vault& holder,
                                          const UnlockOptions& options)
{
    auto parsed = parseVault(file);
    if (!parsed)
        return parsed.failure();
    if (parsed->info.vaultId != holder.m_vaultId)
        return anotherVault(parsed->info.vaultId, holder.m_vaultId);
    // The holder's M opens the copy if the manifest verifies under its Km.
    // If it does not: a password slot other than the holder's means that M
    // was made again elsewhere (a password change); the same slot means that
    // the file was changed without the key.
    const ByteView slot = parsed->passwordSlot;
    const ByteView holderSlot(holder.m_passwordSlot);
    const bool sameSlot =
        std::equal(slot.begin(), slot.end(), holderSlot.begin(), holderSlot.end());
    if (!holder.m_manifestKey.verify(parsed->authenticated, parsed->manifest)) {
        if (!sameSlot)
            return fail(VaultError::KeyChanged,
                        "this copy was saved under another password (changed on another "
                        "device): open it with that password or the recovery phrase");
        return fail(VaultError::Tampered,
                    "vault tampered: the manifest does not match (changed without the key)");
    }
    return openRecords(*parsed, holder.m_masterKey.clone(), options);
}

VaultResult<Vault> Vault::openRecords(const ParsedVault& parsed, SecureBuffer masterKey,
                                      const UnlockOptions& options)
{
    auto vault = create(parsed.info.vaultId, std::move(masterKey));
    if (!vault)
        return vault;
    // Step 6: the manifest, before any record is opened.
    if (!vault->m_manifestKey.verify(parsed.authenticated, parsed.manifest))
        return fail(VaultError::Tampered,
                    "vault tampered: the manifest does not match (changed without the key)");
    vault->m_generation = parsed.info.generation;
    vault->m_created = parsed.info.created;
    vault->m_modified = parsed.info.modified;
    vault->m_passwordSlotInfo = parsed.info.passwordSlot;
    vault->m_passwordSlot.assign(parsed.passwordSlot.begin(), parsed.passwordSlot.end());
    vault->m_readVersion = parsed.info.version;
    vault->m_sync = parsed.info.sync;
    if (parsed.recoverySlot) {
        const bool versionOne = parsed.info.version == 1;
        // Authenticated by the manifest, so an invalid point is a faulty
        // writer's, not an attacker's.
        auto recipient = crypto::PublicKey::fromSec1(
            parsed.recoverySlot->subspan(versionOne ? 0 : 1, crypto::PublicKey::compressedSize));
        if (!recipient)
            return fail(VaultError::Malformed,
                        "recovery slot: the recovery public key is not a valid point");
        vault->m_recoveryPublicKey = *recipient;
        vault->m_recoveryKeyKind = parsed.info.recoveryKeyKind;
        // A version 1 slot is wrapped again, as version 2, by the next save.
        if (!versionOne)
            vault->m_recoverySlot.emplace(parsed.recoverySlot->begin(), parsed.recoverySlot->end());
    }
    if (parsed.identitySlot) {
        auto sharing =
            openIdentitySlot(parsed.info.vaultId, vault->m_masterKey, *parsed.identitySlot);
        if (!sharing)
            return sharing.failure();
        vault->m_sharingKey = std::move(*sharing);
        vault->m_identitySlot.emplace(parsed.identitySlot->begin(), parsed.identitySlot->end());
    }
    // Step 7: every record. The envelopes stay in one copy of the file so
    // that a save re-seals only what changed.
    auto image =
        std::make_unique<const Bytes>(parsed.authenticated.begin(), parsed.authenticated.end());
    vault->m_entries.resize(parsed.records.size());
    std::vector<std::optional<TombstoneEntry>> tombstones;
    if (std::any_of(parsed.records.begin(), parsed.records.end(),
                    [](const SealedRecord& r) { return r.kind == RecordKind::Tombstone; }))
        tombstones.resize(parsed.records.size());
    if (auto opened = openEntries(parsed, *image, vault->m_masterKey, vault->m_sealer,
                                  vault->m_entries, tombstones, options.workers);
        !opened)
        return opened.failure();
    if (!tombstones.empty()) {
        // The deleted records leave the list of records for their own.
        std::vector<Entry> live;
        live.reserve(vault->m_entries.size());
        for (std::size_t i = 0; i < tombstones.size(); ++i) {
            if (tombstones[i])
                vault->m_tombstones.push_back(std::move(*tombstones[i]));
            else
                live.push_back(std::move(vault->m_entries[i]));
        }
        vault->m_entries = std::move(live);
    }
    vault->m_images.push_back(std::move(image));
    return vault;
}

VaultResult<void> Vault::openEntries(const ParsedVault& parsed, const Bytes& image,
                                     ByteView masterKey, crypto::RecordSealer& sealer,
                                     std::vector<Entry>& entries,
                                     std::vector<std::optional<TombstoneEntry>>& tombstones,
                                     std::size_t requestedWorkers)
{
    // Records open independently, so a large vault spreads them over the
    // cores: each worker has its own sealer (the prepared contexts are not
    // shared) and its own plaintext buffer, and fills its own slice of
    // entries. Below the threshold a thread costs more than it saves.
    constexpr std::size_t recordsPerWorker = 512;
    constexpr std::size_t maximumWorkers = 8;
    const std::size_t count = parsed.records.size();
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers =
        requestedWorkers != 0
            ? std::clamp<std::size_t>(requestedWorkers, 1, std::max<std::size_t>(count, 1))
            : std::clamp<std::size_t>(count / recordsPerWorker, 1, std::min(cores, maximumWorkers));

    // The first failure of each slice, by record index; the lowest one is
    // reported, so the error does not depend on the number of workers.
    struct SliceFailure
    {
        std::size_t index = 0;
        Error<VaultError> error;
    };
    std::vector<std::optional<SliceFailure>> failures(workers);
    const auto openSlice = [&](std::size_t worker, crypto::RecordSealer& sliceSealer) {
        const std::size_t begin = count * worker / workers;
        const std::size_t end = count * (worker + 1) / workers;
        std::size_t largest = 0;
        for (std::size_t i = begin; i < end; ++i)
            largest = std::max(largest, parsed.records[i].sealed.size());
        SecureBuffer plaintext(crypto::RecordSealer::maximumPlaintextSize(largest));
        for (std::size_t i = begin; i < end; ++i) {
            const auto& sealed = parsed.records[i];
            const auto where = [i] {
                return "record " + std::to_string(i + 1);
            };
            const auto associatedData =
                recordAssociatedData(parsed.info.vaultId, sealed.id, sealed.version, sealed.kind);
            const auto length = sliceSealer.open(associatedData, sealed.sealed, plaintext.span());
            if (!length) {
                const auto code = length.error().code;
                // A verified tag over bad padding was sealed by a holder of
                // the key, so it is a faulty writer's (malformed), as fields
                // that break section 6.4 are; a tag that fails is tampering.
                failures[worker] = SliceFailure{
                    i, code == crypto::RecordError::CryptoDisabled
                           ? Error<VaultError>{VaultError::CryptoDisabled, length.error().message}
                       : code == crypto::RecordError::Corrupt
                           ? Error<VaultError>{VaultError::Malformed,
                                               where() + ": the envelope has a valid tag but "
                                                         "invalid padding"}
                           : Error<VaultError>{VaultError::Tampered,
                                               "vault tampered: " + where() + " does not open"}};
                return;
            }
            const ByteView inImage(image.data() +
                                       (sealed.sealed.data() - parsed.authenticated.data()),
                                   sealed.sealed.size());
            if (sealed.kind == RecordKind::Tombstone) {
                auto tombstone =
                    decodeTombstone(sealed.id, sealed.version, plaintext.span().first(*length));
                if (!tombstone) {
                    failures[worker] = SliceFailure{
                        i, {VaultError::Malformed, where() + ": " + tombstone.error().message}};
                    return;
                }
                tombstones[i] = TombstoneEntry{std::move(*tombstone), inImage, {}, true};
                continue;
            }
            auto& entry = entries[i];
            if (auto decoded = decodeFieldsInto(sealed.kind, sealed.id, sealed.version,
                                                plaintext.span().first(*length), entry.record);
                !decoded) {
                failures[worker] = SliceFailure{
                    i, {VaultError::Malformed, where() + ": " + decoded.error().message}};
                return;
            }
            entry.sealed = inImage;
        }
    };

    std::vector<crypto::RecordSealer> sealers;
    std::vector<std::thread> threads;
    sealers.reserve(workers - 1);
    threads.reserve(workers - 1);
    for (std::size_t worker = 1; worker < workers; ++worker) {
        auto workerSealer = sealerFor(masterKey);
        if (!workerSealer)
            return workerSealer.failure();
        sealers.push_back(std::move(*workerSealer));
    }
    for (std::size_t worker = 1; worker < workers; ++worker) {
        try {
            threads.emplace_back(openSlice, worker, std::ref(sealers[worker - 1]));
        } catch (const std::system_error&) {
            // No thread to be had (a process limit): this one does the slice.
            openSlice(worker, sealers[worker - 1]);
        }
    }
    openSlice(0, sealer);
    for (auto& thread : threads)
        thread.join();

    const std::optional<SliceFailure>* first = nullptr;
    for (const auto& failure : failures)
        if (failure && (first == nullptr || failure->index < (*first)->index))
            first = &failure;
    if (first != nullptr)
        return fail((*first)->error.code, (*first)->error.message);
    return {};
}

std::uint64_t Vault::generationWrittenBy(const DeviceId& device) const noexcept
{
    for (const auto& writer : m_sync.writers)
        if (writer.device == device)
            return writer.generation;
    return 0;
}

bool Vault::sameMasterKey(const Vault& other) const noexcept
{
    return constantTimeEqual(m_masterKey.span(), other.m_masterKey.span());
}

const Record* Vault::find(const RecordId& id) const noexcept
{
    for (const auto& entry : m_entries)
        if (idOf(entry.record) == id)
            return &entry.record;
    return nullptr;
}

VaultResult<RecordId> Vault::add(Record record, crypto::RandomSource& random)
{
    neutraliseLabels(record);
    if (auto valid = validateRecord(record); !valid)
        return valid.failure();
    const auto taken = [this](const RecordId& id) {
        return find(id) != nullptr ||
               std::any_of(m_tombstones.begin(), m_tombstones.end(),
                           [&](const TombstoneEntry& t) { return t.tombstone.id == id; });
    };
    RecordId id{};
    do
        random.fill(id);
    while (taken(id));
    std::visit(
        [&](auto& r) {
            r.id = id;
            r.version = 1;
            r.changes.clear();
            countChange(r.changes, m_device);
        },
        record);
    m_entries.push_back({std::move(record), {}, {}});
    return id;
}

VaultResult<void> Vault::update(Record record)
{
    const auto& id = idOf(record);
    const auto entry = std::find_if(m_entries.begin(), m_entries.end(),
                                    [&](const Entry& e) { return idOf(e.record) == id; });
    if (entry == m_entries.end())
        return fail(VaultError::RecordNotFound, "no record with this id in the vault");
    if (kindOf(entry->record) != kindOf(record))
        return fail(VaultError::InvalidRecord, "a record cannot change its kind");
    neutraliseLabels(record);
    if (auto valid = validateRecord(record); !valid)
        return valid.failure();
    const auto version = versionOf(entry->record) + 1;
    auto changes = changesOf(entry->record);
    countChange(changes, m_device);
    std::visit(
        [&](auto& r) {
            r.version = version;
            r.changes = std::move(changes);
        },
        record);
    entry->record = std::move(record);
    entry->sealed = {};
    entry->resealed = {};
    return {};
}

VaultResult<void> Vault::remove(const RecordId& id)
{
    const auto entry = std::find_if(m_entries.begin(), m_entries.end(),
                                    [&](const Entry& e) { return idOf(e.record) == id; });
    if (entry == m_entries.end())
        return fail(VaultError::RecordNotFound, "no record with this id in the vault");
    Tombstone tombstone{idOf(entry->record), versionOf(entry->record) + 1, 0,
                        changesOf(entry->record)};
    countChange(tombstone.changes, m_device);
    m_tombstones.push_back({std::move(tombstone), {}, {}, false});
    m_entries.erase(entry);
    return {};
}

VaultResult<void> Vault::changePassword(ByteView newPassword, const Calibration& calibration,
                                        crypto::RandomSource& random)
{
    if (auto checked = checkCalibration(calibration); !checked)
        return checked.failure();
    SecureBuffer masterKey(masterKeySize);
    random.fill(masterKey.span());
    auto keys = keysOf(masterKey);
    if (!keys)
        return keys.failure();
    auto slots = wrapSlots(m_vaultId, masterKey, newPassword, calibration, m_recoveryPublicKey,
                           m_recoveryKeyKind, m_sharingKey, random);
    if (!slots)
        return slots.failure();
    // Nothing has changed until here: commit all at once.
    m_masterKey = std::move(masterKey);
    m_sealer = std::move(keys->sealer);
    m_manifestKey = std::move(keys->manifestKey);
    m_passwordSlotInfo = slots->info;
    m_passwordSlot = std::move(slots->password);
    m_recoverySlot = std::move(slots->recovery);
    m_identitySlot = std::move(slots->identity);
    m_keyIsNew = true;
    for (auto& entry : m_entries) {
        entry.sealed = {};
        entry.resealed = {};
    }
    for (auto& entry : m_tombstones) {
        entry.sealed = {};
        entry.resealed = {};
    }
    m_images.clear();
    return {};
}

VaultResult<void> Vault::verifyPassword(ByteView password) const
{
    auto kek = passwordKey(password, m_passwordSlotInfo);
    if (!kek)
        return kek.failure();
    // This slot was written here or authenticated by the manifest when the
    // vault was opened: a failed tag is only ever a wrong password.
    const ByteView slot(m_passwordSlot);
    auto masterKey =
        unwrapMasterKey(*kek, slotAssociatedData(m_vaultId, passwordSlotType),
                        slot.last(wrappedKeySize), VaultError::WrongPassword, "wrong password");
    if (!masterKey)
        return masterKey.failure();
    // The slot we wrote holds our key; anything else would be a bug here.
    if (!constantTimeEqual(masterKey->span(), m_masterKey.span()))
        return fail(VaultError::InternalFailure, "the password slot holds another master key");
    return {};
}

VaultResult<void> Vault::replaceRecoveryKey(const keychain::Keychain& keychain,
                                            crypto::RandomSource& random)
{
    const crypto::PublicKey recipient = keychain.recoveryKey().publicKey;
    auto slot =
        wrapRecoverySlot(m_vaultId, m_masterKey, recipient, RecoveryKeyKind::Current, random);
    if (!slot)
        return slot.failure();
    auto sharing = copyOf(keychain.sharingKey());
    auto identity = sealIdentitySlot(m_vaultId, m_masterKey, sharing, random);
    if (!identity)
        return identity.failure();
    m_recoverySlot = std::move(*slot);
    m_recoveryPublicKey = recipient;
    m_recoveryKeyKind = RecoveryKeyKind::Current;
    m_identitySlot = std::move(*identity);
    m_sharingKey = std::move(sharing);
    return {};
}

VaultResult<void> Vault::adoptRecoveryPhrase(const keychain::Keychain& keychain)
{
    if (!m_recoveryPublicKey ||
        !(recoveryKeyPair(m_recoveryKeyKind, keychain).publicKey == *m_recoveryPublicKey))
        return fail(VaultError::WrongRecoveryPhrase, "this is not the vault's recovery phrase");
    // The recovery slot keeps its key: a migrated vault's R stays the
    // version-1 recovery key, so that the fingerprint written down beside the
    // phrase stays true. Only the sharing identity is added.
    if (!m_sharingKey || !(m_sharingKey->publicKey == keychain.sharingKey().publicKey)) {
        m_sharingKey = copyOf(keychain.sharingKey());
        m_identitySlot.reset();
    }
    return {};
}

VaultResult<Bytes> Vault::serialize(crypto::RandomSource& random, std::int64_t now)
{
    // Slots that must be wrapped again first (a file read as version 1, a
    // phrase adopted), in the order Vault.h gives.
    if (m_recoveryPublicKey && !m_recoverySlot) {
        auto slot = wrapRecoverySlot(m_vaultId, m_masterKey, *m_recoveryPublicKey,
                                     m_recoveryKeyKind, random);
        if (!slot)
            return slot.failure();
        m_recoverySlot = std::move(*slot);
    }
    if (m_sharingKey && !m_identitySlot) {
        auto slot = sealIdentitySlot(m_vaultId, m_masterKey, *m_sharingKey, random);
        if (!slot)
            return slot.failure();
        m_identitySlot = std::move(*slot);
    }
    std::sort(m_entries.begin(), m_entries.end(),
              [](const Entry& a, const Entry& b) { return inListOrder(a.record, b.record); });
    VaultImage image;
    image.vaultId = m_vaultId;
    image.generation = m_generation + 1;
    image.created = m_created;
    image.modified = now;
    image.passwordSlot = m_passwordSlot;
    image.recoverySlot = m_recoverySlot;
    image.identitySlot = m_identitySlot;

    // Tombstones: those deleted since the last save get its time; those
    // past their lifetime go, then the oldest beyond the most kept.
    for (auto& entry : m_tombstones)
        if (!entry.timed) {
            entry.tombstone.deleted = now;
            entry.timed = true;
        }
    std::erase_if(m_tombstones, [now](const TombstoneEntry& entry) {
        return entry.tombstone.deleted < now - tombstoneLifetime;
    });
    if (m_tombstones.size() > maximumTombstones) {
        std::nth_element(m_tombstones.begin(),
                         m_tombstones.begin() + static_cast<std::ptrdiff_t>(maximumTombstones),
                         m_tombstones.end(), [](const TombstoneEntry& a, const TombstoneEntry& b) {
                             return a.tombstone.deleted != b.tombstone.deleted
                                        ? a.tombstone.deleted > b.tombstone.deleted
                                        : a.tombstone.id < b.tombstone.id;
                         });
        m_tombstones.resize(maximumTombstones);
    }
    std::sort(m_tombstones.begin(), m_tombstones.end(),
              [](const TombstoneEntry& a, const TombstoneEntry& b) {
                  return a.tombstone.id < b.tombstone.id;
              });

    // The sync slot: this device wrote the new generation.
    image.sync = m_sync;
    image.sync.lastWriter = m_device;
    if (m_keyIsNew) {
        image.sync.keyMade = now;
        image.sync.keyDevice = m_device;
    }
    recordWrite(image.sync.writers, m_device, image.generation);

    image.records.reserve(m_entries.size() + m_tombstones.size());
    for (auto& entry : m_entries) {
        const auto kind = kindOf(entry.record);
        const auto& id = idOf(entry.record);
        const auto version = versionOf(entry.record);
        if (entry.sealed.empty()) {
            auto fields = encodeFields(entry.record);
            if (!fields)
                return fields.failure();
            auto sealed =
                m_sealer.seal(recordAssociatedData(m_vaultId, id, version, kind), *fields, random);
            if (!sealed)
                return fromRecordError(sealed.error());
            entry.resealed = std::move(*sealed);
            entry.sealed = entry.resealed;
        }
        image.records.push_back({id, version, kind, entry.sealed});
    }
    for (auto& entry : m_tombstones) {
        const auto& tombstone = entry.tombstone;
        if (entry.sealed.empty()) {
            auto fields = encodeTombstone(tombstone);
            if (!fields)
                return fields.failure();
            auto sealed =
                m_sealer.seal(recordAssociatedData(m_vaultId, tombstone.id, tombstone.version,
                                                   RecordKind::Tombstone),
                              *fields, random);
            if (!sealed)
                return fromRecordError(sealed.error());
            entry.resealed = std::move(*sealed);
            entry.sealed = entry.resealed;
        }
        image.records.push_back(
            {tombstone.id, tombstone.version, RecordKind::Tombstone, entry.sealed});
    }
    auto file = encodeVault(image, m_manifestKey);
    m_generation = image.generation;
    m_modified = now;
    m_sync = std::move(image.sync);
    m_keyIsNew = false;
    if (m_images.size() > 1)
        keepImage(file);
    return file;
}

void Vault::keepImage(const Bytes& file)
{
    // The envelopes sit in the file in the order they were written, each
    // after its 29-byte record header: point every entry into one copy of
    // the file, and let go of the images and buffers merged in before.
    auto image =
        std::make_unique<const Bytes>(file.begin(), file.end() - checksumSize - manifestSize);
    auto parsed = parseVault(file);
    if (!parsed)
        return; // cannot happen for bytes just encoded; keep what there is
    std::size_t next = 0;
    const auto repoint = [&](ByteView& sealed, Bytes& resealed) {
        const auto& record = parsed->records[next++];
        sealed = ByteView(image->data() + (record.sealed.data() - parsed->authenticated.data()),
                          record.sealed.size());
        resealed = {};
    };
    for (auto& entry : m_entries)
        repoint(entry.sealed, entry.resealed);
    for (auto& entry : m_tombstones)
        repoint(entry.sealed, entry.resealed);
    m_images.clear();
    m_images.push_back(std::move(image));
}

const keychain::KeyPair& recoveryKeyPair(RecoveryKeyKind kind,
                                         const keychain::Keychain& keychain) noexcept
{
    return kind == RecoveryKeyKind::Current ? keychain.recoveryKey()
                                            : keychain.versionOneRecoveryKey();
}

std::string recoveryKeyFingerprint(const keychain::Keychain& keychain)
{
    const auto key = keychain.recoveryKey().publicKey.compressed();
    return recoveryKeyFingerprint(ByteView(key.data(), key.size()));
}

std::string recoveryKeyFingerprint(const VaultHeaderInfo& info, const keychain::Keychain& keychain)
{
    const auto key = recoveryKeyPair(info.recoveryKeyKind, keychain).publicKey.compressed();
    return recoveryKeyFingerprint(ByteView(key.data(), key.size()));
}

bool isRecoveryKeyOf(const VaultHeaderInfo& info, const keychain::Keychain& keychain) noexcept
{
    const auto key = recoveryKeyPair(info.recoveryKeyKind, keychain).publicKey.compressed();
    return info.recoveryPublicKey &&
           std::equal(key.begin(), key.end(), info.recoveryPublicKey->begin(),
                      info.recoveryPublicKey->end());
}

namespace {

template <typename Keep> std::vector<const Record*> sortedWhere(const Vault& vault, Keep keep)
{
    std::vector<const Record*> records;
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        if (keep(vault.record(i)))
            records.push_back(&vault.record(i));
    std::sort(records.begin(), records.end(),
              [](const Record* a, const Record* b) { return inListOrder(*a, *b); });
    return records;
}

} // namespace

std::vector<const Record*> sortedRecords(const Vault& vault)
{
    return sortedWhere(vault, [](const Record&) { return true; });
}

std::vector<const Record*> sortedRecords(const Vault& vault, RecordKind kind)
{
    return sortedWhere(vault, [kind](const Record& record) { return kindOf(record) == kind; });
}

void KindCounts::count(RecordKind kind) noexcept
{
    switch (kind) {
    case RecordKind::OtpAccount:
        ++accounts;
        break;
    case RecordKind::SecureNote:
        ++notes;
        break;
    case RecordKind::Contact:
        ++contacts;
        break;
    case RecordKind::Tombstone:
        break;
    }
}

bool MergeReport::changedThis() const noexcept
{
    return added.total() + changed.total() + removed.total() + conflicts + countersRaised +
                   positionsMoved !=
               0 ||
           keyFromOther;
}

std::uint32_t nextSortPosition(const Vault& vault) noexcept
{
    constexpr std::uint32_t last = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t next = 0;
    for (std::size_t i = 0; i < vault.recordCount(); ++i)
        if (const std::uint32_t position = sortPositionOf(vault.record(i)); position != last)
            next = std::max(next, position + 1);
    return next;
}

} // namespace watchword::vault
