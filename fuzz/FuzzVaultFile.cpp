// Fuzz target: the key-free checks of opening a vault file (parseVault and
// decodeHeader, docs/FORMAT.md section 6.5 steps 1 to 4), the part of opening
// that runs on whatever file someone hands over, before any password.
//
// Every input runs twice: as it is, and with its checksum fixed up, since a
// random change almost never keeps SHA-256 right and the KDF bounds (step 4)
// would otherwise go untested. Besides not crashing, an accepted file must
// hold together (sizes, counts, bounds), decodeHeader must agree with
// parseVault, and encodeVault must write the same structure back.
#include "FuzzCheck.h"
#include "crypto/Hash.h"
#include "crypto/Hmac.h"
#include "vault/Calibration.h"
#include "vault/VaultFile.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace watchword;
using namespace watchword::vault;
using watchword::fuzz::equalBytes;
using watchword::fuzz::expect;
using watchword::fuzz::propertyBroken;

bool sameInfo(const VaultHeaderInfo& a, const VaultHeaderInfo& b)
{
    return a.version == b.version && a.vaultId == b.vaultId && a.generation == b.generation &&
           a.created == b.created && a.modified == b.modified && a.recordCount == b.recordCount &&
           a.slotCount == b.slotCount && a.passwordSlot.kdf == b.passwordSlot.kdf &&
           a.passwordSlot.iterations == b.passwordSlot.iterations &&
           a.passwordSlot.salt == b.passwordSlot.salt &&
           a.passwordSlot.targetMilliseconds == b.passwordSlot.targetMilliseconds &&
           a.passwordSlot.iterationsPerSecond == b.passwordSlot.iterationsPerSecond &&
           a.recoveryPublicKey == b.recoveryPublicKey && a.recoveryKeyKind == b.recoveryKeyKind &&
           a.sharingPublicKey == b.sharingPublicKey && a.sync == b.sync;
}

bool sameRecords(const std::vector<SealedRecord>& a, const std::vector<SealedRecord>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const SealedRecord& x, const SealedRecord& y) {
                          return x.id == y.id && x.version == y.version && x.kind == y.kind &&
                                 equalBytes(x.sealed, y.sealed);
                      });
}

// What an accepted file must look like.
void checkAccepted(ByteView file, const ParsedVault& parsed)
{
    const auto& info = parsed.info;
    expect(info.version >= 1 && info.version <= 3, "accepted: version is 1, 2 or 3");
    const bool versionOne = info.version == 1;
    expect(parsed.authenticated.data() == file.data() &&
               parsed.authenticated.size() + manifestSize + checksumSize == file.size(),
           "accepted: the authenticated bytes are all but the manifest and checksum");
    expect(parsed.manifest.data() == file.data() + parsed.authenticated.size() &&
               parsed.manifest.size() == manifestSize,
           "accepted: the manifest follows the authenticated bytes");
    const auto checksum = fileChecksum(file.first(file.size() - checksumSize));
    expect(equalBytes(checksum, file.last(checksumSize)), "accepted: the checksum matches");

    expect(parsed.passwordSlot.size() == passwordSlotSize, "accepted: password slot size");
    expect(info.slotCount == 1 + (parsed.recoverySlot ? 1 : 0) + (parsed.identitySlot ? 1 : 0) +
                                 (parsed.syncSlot ? 1 : 0),
           "accepted: slot count");
    expect(!parsed.syncSlot || info.version == 3, "accepted: a sync slot only in version 3");
    if (parsed.syncSlot) {
        expect(parsed.syncSlot->size() == syncSlotFixedSize + 16 * info.sync.writers.size() &&
                   info.sync.writers.size() <= maximumSyncWriters,
               "accepted: the sync slot's size is its writers'");
        for (std::size_t i = 1; i < info.sync.writers.size(); ++i)
            expect(info.sync.writers[i - 1].device < info.sync.writers[i].device,
                   "accepted: the sync slot's writers in ascending device order");
    } else {
        expect(info.sync == SyncInfo{}, "accepted: no sync slot reads as all zero");
    }
    const std::size_t recoverySize = versionOne ? versionOneRecoverySlotSize : recoverySlotSize;
    expect(!parsed.recoverySlot || parsed.recoverySlot->size() == recoverySize,
           "accepted: recovery slot size");
    expect(!versionOne || !parsed.identitySlot, "accepted: no identity slot in version 1");
    expect(!parsed.identitySlot || parsed.identitySlot->size() == identitySlotSize,
           "accepted: identity slot size");
    expect(info.recoveryPublicKey.has_value() == parsed.recoverySlot.has_value(),
           "accepted: a recovery key exactly when there is a recovery slot");
    if (parsed.recoverySlot) {
        expect(equalBytes(*info.recoveryPublicKey,
                          parsed.recoverySlot->subspan(versionOne ? 0 : 1, 33)),
               "accepted: the recovery key is R, after the kind in version 2");
        expect(versionOne
                   ? info.recoveryKeyKind == RecoveryKeyKind::VersionOne
                   : (*parsed.recoverySlot)[0] == static_cast<std::uint8_t>(info.recoveryKeyKind),
               "accepted: the recovery key's kind");
    }
    expect(info.sharingPublicKey.has_value() == parsed.identitySlot.has_value(),
           "accepted: a sharing key exactly when there is an identity slot");

    const auto& slot = info.passwordSlot;
    expect(slot.kdf == kdfPbkdf2HmacSha256, "accepted: KDF is PBKDF2-HMAC-SHA256");
    expect(slot.iterations >= minimumPasswordIterations &&
               slot.iterations <= maximumPasswordIterations,
           "accepted: iterations within bounds (no unbounded KDF work)");
    expect(slot.targetMilliseconds >= minimumTargetMilliseconds &&
               slot.targetMilliseconds <= maximumTargetMilliseconds,
           "accepted: calibration target within bounds");

    expect(parsed.records.size() == info.recordCount, "accepted: record count");
    std::size_t size = headerSize + slotHeaderSize + passwordSlotSize;
    if (parsed.recoverySlot)
        size += slotHeaderSize + recoverySize;
    if (parsed.identitySlot)
        size += slotHeaderSize + identitySlotSize;
    if (parsed.syncSlot)
        size += slotHeaderSize + parsed.syncSlot->size();
    std::vector<RecordId> ids;
    for (const auto& record : parsed.records) {
        expect(record.kind == RecordKind::OtpAccount || record.kind == RecordKind::SecureNote ||
                   (record.kind == RecordKind::Contact && info.version >= 2) ||
                   (record.kind == RecordKind::Tombstone && info.version == 3),
               "accepted: record kind 1 or 2, 3 from version 2, 4 in version 3");
        expect(record.sealed.size() >= minimumSealedRecordSize &&
                   (record.sealed.size() - 48) % 16 == 0,
               "accepted: a record's sealed length is an envelope size");
        size += recordHeaderSize + record.sealed.size();
        ids.push_back(record.id);
    }
    expect(size == parsed.authenticated.size(),
           "accepted: header, slots and records fill the authenticated bytes");
    std::sort(ids.begin(), ids.end());
    expect(std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
           "accepted: record ids are distinct");

    const auto header = decodeHeader(file);
    expect(header.ok(), "decodeHeader accepts what parseVault accepts");
    expect(sameInfo(*header, info), "decodeHeader reads what parseVault reads");

    // Written back (under some manifest key: the manifest is not checked
    // here), the structure must come back: byte for byte for a version 3
    // file with its sync slot (the file has one spelling, the password slot
    // first: docs/FORMAT.md section 6.2); a version 2 file, or a version 3
    // one without a sync slot, comes back as version 3 with an all-zero sync
    // slot added, every other slot and record the same. A version 1 file is
    // written anew by the vault, with its recovery slot wrapped again.
    if (versionOne)
        return;
    VaultImage image;
    image.vaultId = info.vaultId;
    image.generation = info.generation;
    image.created = info.created;
    image.modified = info.modified;
    image.passwordSlot.assign(parsed.passwordSlot.begin(), parsed.passwordSlot.end());
    if (parsed.recoverySlot)
        image.recoverySlot = Bytes(parsed.recoverySlot->begin(), parsed.recoverySlot->end());
    if (parsed.identitySlot)
        image.identitySlot = Bytes(parsed.identitySlot->begin(), parsed.identitySlot->end());
    image.sync = info.sync;
    image.records = parsed.records;
    const std::uint8_t keyBytes[32] = {};
    const crypto::HmacKey manifestKey(crypto::HashAlgorithm::Sha256, keyBytes);
    const Bytes written = encodeVault(image, manifestKey);
    const auto reread = parseVault(written);
    if (!reread)
        propertyBroken("encodeVault wrote a file that parseVault refuses: " +
                       reread.error().message);
    const bool sameSpelling = info.version == formatVersion && parsed.syncSlot.has_value();
    VaultHeaderInfo expected = info;
    expected.version = formatVersion;
    expected.slotCount = static_cast<std::uint8_t>(info.slotCount + (parsed.syncSlot ? 0 : 1));
    expect(sameInfo(reread->info, expected), "written back: the same header and slot information");
    expect(reread->syncSlot.has_value(), "written back: a sync slot");
    expect(equalBytes(reread->passwordSlot, parsed.passwordSlot), "written back: password slot");
    expect(reread->recoverySlot.has_value() == parsed.recoverySlot.has_value() &&
               (!parsed.recoverySlot || equalBytes(*reread->recoverySlot, *parsed.recoverySlot)),
           "written back: recovery slot");
    expect(reread->identitySlot.has_value() == parsed.identitySlot.has_value() &&
               (!parsed.identitySlot || equalBytes(*reread->identitySlot, *parsed.identitySlot)),
           "written back: identity slot");
    expect(sameRecords(reread->records, parsed.records), "written back: the same records");
    expect(!sameSpelling || equalBytes(reread->authenticated, parsed.authenticated),
           "written back: byte for byte the same structure");
}

// Checks one input; returns the error code, or nothing if it was accepted.
std::optional<VaultError> checkOne(ByteView file)
{
    const auto parsed = parseVault(file);
    if (parsed) {
        checkAccepted(file, *parsed);
        return std::nullopt;
    }
    const VaultError code = parsed.error().code;
    expect(!parsed.error().message.empty(), "every refusal says why");
    // The documented order of step 1: the magic first, then the size.
    const std::size_t magicBytes = std::min(file.size(), fileMagic.size());
    const bool magicMatches =
        std::equal(file.begin(), file.begin() + magicBytes, fileMagic.begin());
    if (!magicMatches)
        expect(code == VaultError::NotAVault, "a file without the magic is NotAVault");
    else if (file.size() < headerSize + checksumSize)
        expect(code == VaultError::Truncated, "a short file with the magic is Truncated");
    expect(code != VaultError::WrongPassword && code != VaultError::WrongRecoveryPhrase &&
               code != VaultError::Tampered && code != VaultError::CryptoDisabled &&
               code != VaultError::InternalFailure,
           "parsing refuses only with the errors of steps 1 to 4");
    return code;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const ByteView file(data, size);
    const auto asIs = checkOne(file);

    // The checksum is the last 32 bytes; below a header and checksum it
    // overlaps what steps 1 and 2 read, and fixing it would change them.
    if (size < headerSize + checksumSize)
        return 0;
    const auto checksum = fileChecksum(file.first(size - checksumSize));
    if (equalBytes(checksum, file.last(checksumSize)))
        return 0;
    Bytes fixed(file.begin(), file.end());
    std::copy(checksum.begin(), checksum.end(), fixed.end() - checksumSize);
    const auto repaired = checkOne(fixed);
    // Structure (step 2) is checked before the checksum (step 3), and the
    // checksum before the KDF bounds (step 4).
    expect(asIs.has_value() && *asIs == VaultError::Corrupted
               ? !repaired || *repaired == VaultError::KdfOutOfBounds
               : repaired == asIs,
           "the checksum is checked after the structure and before the KDF bounds");
    return 0;
}
