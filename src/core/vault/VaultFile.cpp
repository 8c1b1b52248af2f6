#include "vault/VaultFile.h"

#include "crypto/Hash.h"
#include "vault/BigEndian.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace watchword::vault {

namespace {

using detail::readBigEndian;
using detail::writeBigEndian;

// Header field offsets (docs/FORMAT.md section 6.1).
constexpr std::size_t versionOffset = 8;
constexpr std::size_t headerLengthOffset = 10;
constexpr std::size_t vaultIdOffset = 12;
constexpr std::size_t generationOffset = 28;
constexpr std::size_t createdOffset = 36;
constexpr std::size_t modifiedOffset = 44;
constexpr std::size_t recordCountOffset = 52;
constexpr std::size_t slotCountOffset = 56;
constexpr std::size_t reservedOffset = 57;

std::string number(std::uint64_t value)
{
    return std::to_string(value);
}

PasswordSlotInfo readPasswordSlot(ByteView body) noexcept
{
    PasswordSlotInfo info;
    info.kdf = body[0];
    info.iterations = readBigEndian<std::uint32_t>(body.data() + 1);
    std::memcpy(info.salt.data(), body.data() + 5, saltSize);
    info.targetMilliseconds = readBigEndian<std::uint32_t>(body.data() + 5 + saltSize);
    info.iterationsPerSecond = readBigEndian<std::uint64_t>(body.data() + 9 + saltSize);
    return info;
}

// Appends by resizing and copying: vector::insert of spans trips a false
// -Wstringop-overflow in g++ 12 at -O3.
void append(Bytes& out, ByteView bytes)
{
    if (bytes.empty())
        return;
    const std::size_t at = out.size();
    out.resize(at + bytes.size());
    std::memcpy(out.data() + at, bytes.data(), bytes.size());
}

template <typename Unsigned> void appendInteger(Bytes& out, Unsigned value)
{
    std::uint8_t buffer[sizeof(Unsigned)];
    writeBigEndian(buffer, value);
    append(out, ByteView(buffer, sizeof buffer));
}

void appendByte(Bytes& out, std::uint8_t value)
{
    append(out, ByteView(&value, 1));
}

// True if two records share an id. Sorts the ids' first 8 bytes as integers
// (several times faster than comparing 16-byte arrays, and random ids almost
// never share them); only a tie there compares whole ids.
bool hasDuplicateIds(const std::vector<SealedRecord>& records)
{
    std::vector<std::uint64_t> heads;
    heads.reserve(records.size());
    for (const auto& record : records)
        heads.push_back(readBigEndian<std::uint64_t>(record.id.data()));
    std::sort(heads.begin(), heads.end());
    if (std::adjacent_find(heads.begin(), heads.end()) == heads.end())
        return false;
    std::vector<RecordId> ids;
    ids.reserve(records.size());
    for (const auto& record : records)
        ids.push_back(record.id);
    std::sort(ids.begin(), ids.end());
    return std::adjacent_find(ids.begin(), ids.end()) != ids.end();
}

// The sync slot body (its length already a valid size): the writer count
// matches the length, writers in ascending device order, at most 64.
VaultResult<SyncInfo> readSyncSlot(ByteView body, unsigned slot)
{
    SyncInfo sync;
    std::copy_n(body.begin(), deviceIdSize, sync.lastWriter.begin());
    sync.keyMade = static_cast<std::int64_t>(readBigEndian<std::uint64_t>(body.data() + 8));
    std::copy_n(body.begin() + 16, deviceIdSize, sync.keyDevice.begin());
    const std::size_t count = body[24];
    if (body.size() != syncSlotFixedSize + 16 * count)
        return fail(VaultError::Malformed, "vault slot " + number(slot) + ": " + number(count) +
                                               " writers do not fill its " + number(body.size()) +
                                               " bytes");
    if (count > maximumSyncWriters)
        return fail(VaultError::Malformed,
                    "vault slot " + number(slot) + ": " + number(count) + " writers, more than 64");
    for (std::size_t i = 0; i < count; ++i) {
        WriterGeneration writer;
        const auto* at = body.data() + syncSlotFixedSize + 16 * i;
        std::copy_n(at, deviceIdSize, writer.device.begin());
        writer.generation = readBigEndian<std::uint64_t>(at + deviceIdSize);
        if (!sync.writers.empty() && !(sync.writers.back().device < writer.device))
            return fail(VaultError::Malformed,
                        "vault slot " + number(slot) + ": writers out of order or repeated");
        sync.writers.push_back(writer);
    }
    return sync;
}

} // namespace

std::string recoveryKeyFingerprint(ByteView recoveryPublicKey)
{
    constexpr std::string_view label = "watchword/vault/v1 recovery fingerprint";
    Bytes input(label.begin(), label.end());
    input.insert(input.end(), recoveryPublicKey.begin(), recoveryPublicKey.end());
    const auto digest = crypto::sha256(input);
    constexpr char digits[] = "0123456789ABCDEF";
    std::string text;
    for (std::size_t i = 0; i < 10; ++i) {
        if (i != 0 && i % 2 == 0)
            text.push_back(' ');
        text.push_back(digits[digest[i] >> 4]);
        text.push_back(digits[digest[i] & 0x0f]);
    }
    return text;
}

std::string recoveryKeyFingerprint(const VaultHeaderInfo& info)
{
    if (!info.recoveryPublicKey)
        return {};
    return recoveryKeyFingerprint(
        ByteView(info.recoveryPublicKey->data(), info.recoveryPublicKey->size()));
}

std::array<std::uint8_t, checksumSize> fileChecksum(ByteView data)
{
    return crypto::sha256(data);
}

VaultResult<ParsedVault> parseVault(ByteView file)
{
    // Step 1: size, magic, version.
    const std::size_t magicBytes = std::min(file.size(), fileMagic.size());
    if (!std::equal(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(magicBytes),
                    fileMagic.begin()))
        return fail(VaultError::NotAVault,
                    "not a Watchword vault: the file does not begin with WWVAULT");
    if (file.size() < headerSize + checksumSize)
        return fail(VaultError::Truncated, "vault truncated: " + number(file.size()) +
                                               " bytes, shorter than a header and checksum");
    const auto version = readBigEndian<std::uint16_t>(file.data() + versionOffset);
    if (version < oldestReadableVersion || version > formatVersion)
        return fail(VaultError::UnsupportedVersion, "unsupported vault format version " +
                                                        number(version) +
                                                        " (this program reads 1 to 3)");

    // Step 2: structure. The structure runs from the header to the manifest,
    // which with the checksum takes the last 64 bytes.
    const auto structure = file.first(file.size() - checksumSize - manifestSize);
    if (structure.size() < headerSize)
        return fail(VaultError::Truncated,
                    "vault truncated: " + number(file.size()) +
                        " bytes, too short for a header, manifest and checksum");
    ParsedVault parsed;
    auto& info = parsed.info;
    info.version = version;
    if (const auto length = readBigEndian<std::uint16_t>(file.data() + headerLengthOffset);
        length != headerSize)
        return fail(VaultError::Malformed, "vault header: length " + number(length) + " is not 64");
    std::memcpy(info.vaultId.data(), file.data() + vaultIdOffset, vaultIdSize);
    info.generation = readBigEndian<std::uint64_t>(file.data() + generationOffset);
    info.created =
        static_cast<std::int64_t>(readBigEndian<std::uint64_t>(file.data() + createdOffset));
    info.modified =
        static_cast<std::int64_t>(readBigEndian<std::uint64_t>(file.data() + modifiedOffset));
    info.recordCount = readBigEndian<std::uint32_t>(file.data() + recordCountOffset);
    info.slotCount = file[slotCountOffset];
    for (std::size_t i = reservedOffset; i < headerSize; ++i)
        if (file[i] != 0)
            return fail(VaultError::Malformed,
                        "vault header: reserved byte at offset " + number(i) + " is not zero");
    const bool versionOne = version == 1;
    const unsigned maximumSlots = version + 1u;
    if (info.slotCount < 1 || info.slotCount > maximumSlots)
        return fail(VaultError::Malformed, "vault header: slot count " + number(info.slotCount) +
                                               " is not 1 to " + number(maximumSlots));

    std::size_t at = headerSize;
    bool hasPasswordSlot = false;
    for (unsigned slot = 0; slot < info.slotCount; ++slot) {
        if (structure.size() - at < slotHeaderSize)
            return fail(VaultError::Truncated, "vault truncated in slot " + number(slot + 1));
        const std::uint8_t type = structure[at];
        const auto length = readBigEndian<std::uint16_t>(structure.data() + at + 1);
        std::size_t expected = 0;
        if (type == passwordSlotType)
            expected = passwordSlotSize;
        else if (versionOne && type == versionOneRecoverySlotType)
            expected = versionOneRecoverySlotSize;
        else if (!versionOne && type == recoverySlotType)
            expected = recoverySlotSize;
        else if (!versionOne && type == identitySlotType)
            expected = identitySlotSize;
        else if (version >= 3 && type == syncSlotType)
            // 25 bytes and 16 per writer: readSyncSlot checks the count.
            expected = length >= syncSlotFixedSize && (length - syncSlotFixedSize) % 16 == 0
                           ? length
                           : syncSlotFixedSize;
        else if (!versionOne && type == versionOneRecoverySlotType)
            return fail(VaultError::Malformed, "vault slot " + number(slot + 1) +
                                                   ": a version 1 recovery slot in a version " +
                                                   number(version) + " file");
        else
            return fail(VaultError::Malformed,
                        "vault slot " + number(slot + 1) + ": unknown type " + number(type));
        if (slot == 0 && type != passwordSlotType)
            return fail(VaultError::Malformed, "vault slot 1: the password slot must come first");
        if ((type == passwordSlotType && hasPasswordSlot) ||
            ((type == recoverySlotType || type == versionOneRecoverySlotType) &&
             parsed.recoverySlot) ||
            (type == identitySlotType && parsed.identitySlot) ||
            (type == syncSlotType && parsed.syncSlot))
            return fail(VaultError::Malformed, "vault slot " + number(slot + 1) +
                                                   ": a second slot of type " + number(type));
        if (length != expected)
            return fail(VaultError::Malformed, "vault slot " + number(slot + 1) + ": length " +
                                                   number(length) + " is not " + number(expected));
        at += slotHeaderSize;
        if (structure.size() - at < length)
            return fail(VaultError::Truncated, "vault truncated in slot " + number(slot + 1));
        const auto body = structure.subspan(at, length);
        if (type == passwordSlotType) {
            parsed.passwordSlot = body;
            hasPasswordSlot = true;
        } else if (type == syncSlotType) {
            if (auto sync = readSyncSlot(body, slot + 1); !sync)
                return sync.failure();
            else
                info.sync = std::move(*sync);
            parsed.syncSlot = body;
        } else if (type == identitySlotType) {
            parsed.identitySlot = body;
        } else {
            if (type == recoverySlotType &&
                body[0] != static_cast<std::uint8_t>(RecoveryKeyKind::VersionOne) &&
                body[0] != static_cast<std::uint8_t>(RecoveryKeyKind::Current))
                return fail(VaultError::Malformed, "vault slot " + number(slot + 1) +
                                                       ": unknown recovery key kind " +
                                                       number(body[0]));
            parsed.recoverySlot = body;
        }
        at += length;
    }

    // Every record takes at least its header and a minimal envelope: a count
    // that cannot fit is a cut file, caught before reserving anything for it.
    const std::uint64_t leastRecordBytes =
        std::uint64_t{info.recordCount} * (recordHeaderSize + minimumSealedRecordSize);
    if (leastRecordBytes > structure.size() - at)
        return fail(VaultError::Truncated, "vault truncated: " + number(info.recordCount) +
                                               " records cannot fit in the bytes left");
    parsed.records.reserve(info.recordCount);
    for (std::uint32_t index = 0; index < info.recordCount; ++index) {
        // Built only on the way out: a string per record is measurable at 10,000.
        const auto where = [index] {
            return "vault record " + number(index + 1);
        };
        if (structure.size() - at < recordHeaderSize)
            return fail(VaultError::Truncated, "vault truncated in " + where());
        SealedRecord record;
        std::memcpy(record.id.data(), structure.data() + at, recordIdSize);
        record.version = readBigEndian<std::uint64_t>(structure.data() + at + recordIdSize);
        const std::uint8_t kind = structure[at + recordIdSize + 8];
        const auto length = readBigEndian<std::uint32_t>(structure.data() + at + recordIdSize + 9);
        at += recordHeaderSize;
        // Version 1 has kinds 1 and 2; version 2 adds 3 (contacts); version 3
        // adds 4 (deleted records).
        if (kind >= 3 && kind <= 4 && kind >= version + 2)
            return fail(VaultError::Malformed,
                        where() + ": a " + std::string(kindName(static_cast<RecordKind>(kind))) +
                            " (kind " + number(kind) + ") in a version " + number(version) +
                            " file");
        if (kind < 1 || kind > 4)
            return fail(VaultError::Malformed, where() + ": unknown kind " + number(kind));
        record.kind = static_cast<RecordKind>(kind);
        if (length > structure.size() - at)
            return fail(VaultError::Truncated, "vault truncated in " + where());
        if (length < minimumSealedRecordSize || (length - 48) % 16 != 0)
            return fail(VaultError::Malformed,
                        where() + ": sealed length " + number(length) + " is not an envelope size");
        record.sealed = structure.subspan(at, length);
        at += length;
        parsed.records.push_back(std::move(record));
    }
    if (at != structure.size())
        return fail(VaultError::Malformed, "vault: " + number(structure.size() - at) +
                                               " unexpected bytes after the last record");
    if (hasDuplicateIds(parsed.records))
        return fail(VaultError::Malformed, "vault: two records have the same id");
    parsed.authenticated = structure;
    parsed.manifest = file.subspan(structure.size(), manifestSize);

    // Step 3: the checksum, before any key work.
    const auto body = file.first(file.size() - checksumSize);
    const auto checksum = fileChecksum(body);
    if (!std::equal(checksum.begin(), checksum.end(), file.end() - checksumSize))
        return fail(VaultError::Corrupted,
                    "vault corrupted: the checksum does not match (the file was damaged)");

    // Step 4: KDF parameters, before any KDF runs.
    info.passwordSlot = readPasswordSlot(parsed.passwordSlot);
    const auto& slot = info.passwordSlot;
    if (slot.kdf != kdfPbkdf2HmacSha256)
        return fail(VaultError::KdfOutOfBounds, "password slot: unknown KDF " + number(slot.kdf) +
                                                    " (1 is PBKDF2-HMAC-SHA256)");
    if (slot.iterations < minimumPasswordIterations || slot.iterations > maximumPasswordIterations)
        return fail(VaultError::KdfOutOfBounds, "password slot: " + number(slot.iterations) +
                                                    " iterations is outside 600000..50000000");
    if (slot.targetMilliseconds < minimumTargetMilliseconds ||
        slot.targetMilliseconds > maximumTargetMilliseconds)
        return fail(VaultError::KdfOutOfBounds, "password slot: calibration target " +
                                                    number(slot.targetMilliseconds) +
                                                    " ms is outside 1..60000");
    if (parsed.recoverySlot) {
        // Version 2 puts the key kind before R.
        const std::size_t offset = versionOne ? 0 : 1;
        std::array<std::uint8_t, 33> recipient{};
        std::memcpy(recipient.data(), parsed.recoverySlot->data() + offset, recipient.size());
        info.recoveryPublicKey = recipient;
        info.recoveryKeyKind = versionOne ? RecoveryKeyKind::VersionOne
                                          : static_cast<RecoveryKeyKind>((*parsed.recoverySlot)[0]);
    }
    if (parsed.identitySlot) {
        std::array<std::uint8_t, 33> publicKey{};
        std::memcpy(publicKey.data(), parsed.identitySlot->data(), publicKey.size());
        info.sharingPublicKey = publicKey;
    }
    return parsed;
}

VaultResult<VaultHeaderInfo> decodeHeader(ByteView file)
{
    auto parsed = parseVault(file);
    if (!parsed)
        return parsed.failure();
    return std::move(parsed->info);
}

Bytes encodePasswordSlot(const PasswordSlotInfo& info, ByteView wrapped)
{
    Bytes out;
    out.reserve(passwordSlotSize);
    appendByte(out, info.kdf);
    appendInteger(out, info.iterations);
    append(out, info.salt);
    appendInteger(out, info.targetMilliseconds);
    appendInteger(out, info.iterationsPerSecond);
    append(out, wrapped);
    return out;
}

Bytes encodeRecoverySlot(RecoveryKeyKind kind, ByteView recipient, ByteView ephemeral,
                         ByteView wrapped)
{
    Bytes out;
    out.reserve(recoverySlotSize);
    appendByte(out, static_cast<std::uint8_t>(kind));
    append(out, recipient);
    append(out, ephemeral);
    append(out, wrapped);
    return out;
}

Bytes encodeIdentitySlot(ByteView publicKey, ByteView wrapped)
{
    Bytes out;
    out.reserve(identitySlotSize);
    append(out, publicKey);
    append(out, wrapped);
    return out;
}

void recordWrite(std::vector<WriterGeneration>& writers, const DeviceId& device,
                 std::uint64_t generation)
{
    const auto at =
        std::lower_bound(writers.begin(), writers.end(), device,
                         [](const WriterGeneration& w, const DeviceId& d) { return w.device < d; });
    if (at != writers.end() && at->device == device) {
        at->generation = std::max(at->generation, generation);
        return;
    }
    writers.insert(at, WriterGeneration{device, generation});
    while (writers.size() > maximumSyncWriters)
        writers.erase(std::min_element(writers.begin(), writers.end(),
                                       [](const WriterGeneration& a, const WriterGeneration& b) {
                                           return a.generation < b.generation;
                                       }));
}

Bytes encodeSyncSlot(const SyncInfo& sync)
{
    Bytes out;
    out.reserve(syncSlotFixedSize + 16 * sync.writers.size());
    append(out, sync.lastWriter);
    appendInteger(out, static_cast<std::uint64_t>(sync.keyMade));
    append(out, sync.keyDevice);
    appendByte(out, static_cast<std::uint8_t>(sync.writers.size()));
    for (const auto& writer : sync.writers) {
        append(out, writer.device);
        appendInteger(out, writer.generation);
    }
    return out;
}

Bytes encodeVault(const VaultImage& image, const crypto::HmacKey& manifestKey)
{
    const Bytes syncSlot = encodeSyncSlot(image.sync);
    std::size_t size =
        headerSize + slotHeaderSize + image.passwordSlot.size() + manifestSize + checksumSize;
    if (image.recoverySlot)
        size += slotHeaderSize + image.recoverySlot->size();
    if (image.identitySlot)
        size += slotHeaderSize + image.identitySlot->size();
    size += slotHeaderSize + syncSlot.size();
    for (const auto& record : image.records)
        size += recordHeaderSize + record.sealed.size();
    Bytes out;
    out.reserve(size);
    append(out, fileMagic);
    appendInteger(out, formatVersion);
    appendInteger(out, static_cast<std::uint16_t>(headerSize));
    append(out, image.vaultId);
    appendInteger(out, image.generation);
    appendInteger(out, static_cast<std::uint64_t>(image.created));
    appendInteger(out, static_cast<std::uint64_t>(image.modified));
    appendInteger(out, static_cast<std::uint32_t>(image.records.size()));
    appendByte(out, static_cast<std::uint8_t>(2 + (image.recoverySlot ? 1 : 0) +
                                              (image.identitySlot ? 1 : 0)));
    out.resize(headerSize, 0);

    appendByte(out, passwordSlotType);
    appendInteger(out, static_cast<std::uint16_t>(image.passwordSlot.size()));
    append(out, image.passwordSlot);
    if (image.recoverySlot) {
        appendByte(out, recoverySlotType);
        appendInteger(out, static_cast<std::uint16_t>(image.recoverySlot->size()));
        append(out, *image.recoverySlot);
    }
    if (image.identitySlot) {
        appendByte(out, identitySlotType);
        appendInteger(out, static_cast<std::uint16_t>(image.identitySlot->size()));
        append(out, *image.identitySlot);
    }
    appendByte(out, syncSlotType);
    appendInteger(out, static_cast<std::uint16_t>(syncSlot.size()));
    append(out, syncSlot);
    for (const auto& record : image.records) {
        append(out, record.id);
        appendInteger(out, record.version);
        appendByte(out, static_cast<std::uint8_t>(record.kind));
        appendInteger(out, static_cast<std::uint32_t>(record.sealed.size()));
        append(out, record.sealed);
    }
    std::array<std::uint8_t, manifestSize> manifest{};
    manifestKey.compute(out, manifest);
    append(out, manifest);
    append(out, fileChecksum(out));
    return out;
}

SlotAssociatedData slotAssociatedData(const VaultId& vaultId, std::uint8_t slotType) noexcept
{
    SlotAssociatedData out{};
    auto at = std::copy(slotLabel.begin(), slotLabel.end(), out.begin());
    at = std::copy(vaultId.begin(), vaultId.end(), at);
    *at = slotType;
    return out;
}

RecordAssociatedData recordAssociatedData(const VaultId& vaultId, const RecordId& id,
                                          std::uint64_t version, RecordKind kind) noexcept
{
    RecordAssociatedData out{};
    auto at = std::copy(recordLabel.begin(), recordLabel.end(), out.begin());
    at = std::copy(vaultId.begin(), vaultId.end(), at);
    at = std::copy(id.begin(), id.end(), at);
    writeBigEndian(&*at, version);
    at[8] = static_cast<std::uint8_t>(kind);
    return out;
}

} // namespace watchword::vault
