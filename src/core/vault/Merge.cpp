// Vault::merge: two copies of one vault, edited on two devices, made one
// (docs/FORMAT.md section 13).
#include "crypto/Hash.h"
#include "vault/Device.h"
#include "vault/Vault.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

namespace watchword::vault {

namespace {

constexpr std::string_view keptNoteLabel = "watchword/vault/v3 kept note";
constexpr std::string_view keptNoteSuffix = " (conflicting edit)";

// -1, 0 or 1 as a is before, equal to or after b, bytes compared as unsigned
// and a prefix first.
int compareBytes(ByteView a, ByteView b) noexcept
{
    const std::size_t common = std::min(a.size(), b.size());
    if (common != 0)
        if (const int order = std::memcmp(a.data(), b.data(), common); order != 0)
            return order < 0 ? -1 : 1;
    return a.size() == b.size() ? 0 : a.size() < b.size() ? -1 : 1;
}

// The fields a record seals (section 6.4): what two copies are compared by.
VaultResult<SecureBuffer> fieldsOf(const Record& record)
{
    return encodeFields(record);
}

std::int64_t modifiedOf(const Record& record) noexcept
{
    return std::visit([](const auto& r) { return r.modified; }, record);
}

// The id of the note that keeps the text a conflict did not choose: the
// first 16 bytes of SHA-256(label || note id || its fields). Every device
// merging the same two copies makes the same note.
RecordId keptNoteId(const RecordId& id, ByteView fields)
{
    SecureBuffer input(keptNoteLabel.size() + id.size() + fields.size());
    auto* at = input.data();
    std::memcpy(at, keptNoteLabel.data(), keptNoteLabel.size());
    std::memcpy(at + keptNoteLabel.size(), id.data(), id.size());
    if (!fields.empty())
        std::memcpy(at + keptNoteLabel.size() + id.size(), fields.data(), fields.size());
    const auto digest = crypto::sha256(input.span());
    RecordId kept{};
    std::copy_n(digest.begin(), kept.size(), kept.begin());
    return kept;
}

// A change the merge itself makes to a record: one more version, one more
// change by the merge device, sealed again.
template <typename R> void countMergeChange(R& record)
{
    ++record.version;
    countChange(record.changes, mergeDevice);
}

// What a merge of a conflict makes of the record it keeps: both sides'
// changes, the larger version, then a merge change.
void keepConflict(Record& record, const Changes& otherChanges, std::uint64_t otherVersion)
{
    const auto combined = combinedChanges(changesOf(record), otherChanges);
    const auto version = std::max(versionOf(record), otherVersion);
    std::visit(
        [&](auto& r) {
            r.changes = combined;
            r.version = version;
            countMergeChange(r);
        },
        record);
}

// Raises an HOTP account's counter to other's, and its last use. True if
// the counter rose.
bool raiseCounter(Record& record, const Record& other)
{
    auto* account = std::get_if<OtpAccount>(&record);
    const auto* from = std::get_if<OtpAccount>(&other);
    if (account == nullptr || from == nullptr || account->parameters.isTimeBased() ||
        from->parameters.isTimeBased() || from->parameters.counter <= account->parameters.counter)
        return false;
    account->parameters.counter = from->parameters.counter;
    return true;
}

} // namespace

void Vault::takeKeysOf(Vault& other) noexcept
{
    m_masterKey = std::move(other.m_masterKey);
    m_sealer = std::move(other.m_sealer);
    m_manifestKey = std::move(other.m_manifestKey);
    m_passwordSlotInfo = other.m_passwordSlotInfo;
    m_passwordSlot = std::move(other.m_passwordSlot);
    m_recoveryPublicKey = other.m_recoveryPublicKey;
    m_recoveryKeyKind = other.m_recoveryKeyKind;
    m_recoverySlot = std::move(other.m_recoverySlot);
    m_sharingKey = std::move(other.m_sharingKey);
    m_identitySlot = std::move(other.m_identitySlot);
    m_sync.keyMade = other.m_sync.keyMade;
    m_sync.keyDevice = other.m_sync.keyDevice;
    m_keyIsNew = other.m_keyIsNew;
}

VaultResult<MergeReport> Vault::merge(Vault other)
{
    if (other.m_vaultId != m_vaultId)
        return anotherVault(other.m_vaultId, m_vaultId);
    if (!other.m_sync.writers.empty()) {
        const auto& writer = other.m_sync.lastWriter;
        if (const auto seen = generationWrittenBy(writer); seen > other.m_generation)
            return fail(VaultError::RolledBack,
                        "an older copy: its generation " + std::to_string(other.m_generation) +
                            " was written by device " + deviceText(writer) +
                            ", which later wrote generation " + std::to_string(seen) +
                            ", already in this vault");
    }

    MergeReport report;
    // The master key made later is kept (a key made here or there and not
    // saved yet is the latest); equal times go by the device id, then ours.
    const bool sameKey = sameMasterKey(other);
    if (!sameKey) {
        constexpr auto unsaved = std::numeric_limits<std::int64_t>::max();
        const auto ours = std::tuple(m_keyIsNew ? unsaved : m_sync.keyMade, m_sync.keyDevice);
        const auto theirs =
            std::tuple(other.m_keyIsNew ? unsaved : other.m_sync.keyMade, other.m_sync.keyDevice);
        report.keyFromOther = theirs > ours;
    }
    // Sealed bytes stay valid only under the key they were sealed with.
    const bool oursSealed = sameKey || !report.keyFromOther;
    const bool theirsSealed = sameKey || report.keyFromOther;

    // Every id of both sides, in id order, ours before theirs.
    struct Item
    {
        std::uint64_t key; // the id's first 8 bytes, big-endian: most comparisons end here
        RecordId id;
        bool ours;
        bool tombstone;
        std::size_t index;
    };
    const auto keyOf = [](const RecordId& id) {
        std::uint64_t key = 0;
        for (std::size_t i = 0; i < 8; ++i)
            key = key << 8 | id[i];
        return key;
    };
    std::vector<Item> items;
    items.reserve(m_entries.size() + m_tombstones.size() + other.m_entries.size() +
                  other.m_tombstones.size());
    const auto list = [&](const Vault& vault, bool ours) {
        for (std::size_t i = 0; i < vault.m_entries.size(); ++i) {
            const auto& id = idOf(vault.m_entries[i].record);
            items.push_back({keyOf(id), id, ours, false, i});
        }
        for (std::size_t i = 0; i < vault.m_tombstones.size(); ++i) {
            const auto& id = vault.m_tombstones[i].tombstone.id;
            items.push_back({keyOf(id), id, ours, true, i});
        }
    };
    list(*this, true);
    list(other, false);
    const auto idBefore = [](const Item& a, const Item& b) {
        return a.key != b.key ? a.key < b.key : a.id < b.id;
    };
    std::sort(items.begin(), items.end(), [&](const Item& a, const Item& b) {
        return idBefore(a, b) || (!idBefore(b, a) && a.ours > b.ours);
    });

    std::vector<Entry> entries;
    std::vector<TombstoneEntry> tombstones;
    entries.reserve(m_entries.size() + other.m_entries.size());
    std::vector<bool> oneSided; // per merged entry: it was on one side only
    const auto take = [&](Entry&& entry, bool valid, bool single) -> Entry& {
        if (!valid) {
            entry.sealed = {};
            entry.resealed = {};
        }
        entries.push_back(std::move(entry));
        oneSided.push_back(single);
        return entries.back();
    };
    const auto takeTombstone = [&](TombstoneEntry&& entry, bool valid) {
        if (!valid) {
            entry.sealed = {};
            entry.resealed = {};
        }
        tombstones.push_back(std::move(entry));
    };
    const auto changed = [](Entry& entry) {
        entry.sealed = {};
        entry.resealed = {};
    };
    // Ids that a kept note may not take: every id either side has.
    const auto idTaken = [&](const RecordId& id) {
        return std::binary_search(items.begin(), items.end(), Item{keyOf(id), id, true, false, 0},
                                  idBefore);
    };
    std::vector<Entry> keptNotes;

    for (std::size_t i = 0; i < items.size();) {
        const bool pair = i + 1 < items.size() && items[i + 1].id == items[i].id;
        if (!pair) {
            const auto& item = items[i++];
            if (item.ours) {
                ++report.otherLacks;
                if (item.tombstone)
                    takeTombstone(std::move(m_tombstones[item.index]), oursSealed);
                else
                    take(std::move(m_entries[item.index]), oursSealed, true);
            } else if (item.tombstone) {
                takeTombstone(std::move(other.m_tombstones[item.index]), theirsSealed);
            } else {
                auto& entry = take(std::move(other.m_entries[item.index]), theirsSealed, true);
                report.added.count(kindOf(entry.record));
            }
            continue;
        }
        const auto& mine = items[i];
        const auto& theirs = items[i + 1];
        i += 2;

        if (mine.tombstone && theirs.tombstone) {
            auto& a = m_tombstones[mine.index];
            auto& b = other.m_tombstones[theirs.index];
            switch (compareChanges(a.tombstone.changes, b.tombstone.changes)) {
            case ChangeOrder::Same:
                takeTombstone(std::move(a), oursSealed);
                break;
            case ChangeOrder::Newer:
                ++report.otherLacks;
                takeTombstone(std::move(a), oursSealed);
                break;
            case ChangeOrder::Older:
                takeTombstone(std::move(b), theirsSealed);
                break;
            case ChangeOrder::Concurrent: {
                ++report.otherLacks;
                a.tombstone.changes = combinedChanges(a.tombstone.changes, b.tombstone.changes);
                a.tombstone.version = std::max(a.tombstone.version, b.tombstone.version);
                a.tombstone.deleted = std::max(a.tombstone.deleted, b.tombstone.deleted);
                takeTombstone(std::move(a), false);
                break;
            }
            }
            continue;
        }
        if (mine.tombstone || theirs.tombstone) {
            // Deleted on one side: the deletion wins if it saw every change
            // of the record; a change it did not see keeps the record.
            const bool deletedHere = mine.tombstone;
            auto& tomb = deletedHere ? m_tombstones[mine.index] : other.m_tombstones[theirs.index];
            auto& live = deletedHere ? other.m_entries[theirs.index] : m_entries[mine.index];
            const auto order = compareChanges(changesOf(live.record), tomb.tombstone.changes);
            if (order == ChangeOrder::Older || order == ChangeOrder::Same) {
                if (!deletedHere)
                    report.removed.count(kindOf(live.record));
                else
                    ++report.otherLacks;
                takeTombstone(std::move(tomb), deletedHere ? oursSealed : theirsSealed);
            } else if (order == ChangeOrder::Newer) {
                // It has seen the deletion (a merge kept it before).
                if (!deletedHere)
                    ++report.otherLacks;
                take(std::move(live), deletedHere ? theirsSealed : oursSealed, false);
            } else {
                // Changed where it was not deleted: kept, and it now counts
                // the deletion among its changes, so that the next merge
                // with the tombstone keeps it without a conflict.
                ++report.conflicts;
                ++report.otherLacks;
                if (deletedHere)
                    report.added.count(kindOf(live.record));
                auto& kept = take(std::move(live), false, false);
                keepConflict(kept.record, tomb.tombstone.changes, tomb.tombstone.version);
            }
            continue;
        }

        auto& a = m_entries[mine.index];
        auto& b = other.m_entries[theirs.index];
        if (sameKey && !a.sealed.empty() && !b.sealed.empty() &&
            std::equal(a.sealed.begin(), a.sealed.end(), b.sealed.begin(), b.sealed.end())) {
            take(std::move(a), oursSealed, false);
            continue;
        }
        auto order = compareChanges(changesOf(a.record), changesOf(b.record));
        std::optional<SecureBuffer> fieldsA, fieldsB;
        const auto loadFields = [&]() -> VaultResult<void> {
            auto encodedA = fieldsOf(a.record);
            if (!encodedA)
                return encodedA.failure();
            auto encodedB = fieldsOf(b.record);
            if (!encodedB)
                return encodedB.failure();
            fieldsA = std::move(*encodedA);
            fieldsB = std::move(*encodedB);
            return {};
        };
        if (order == ChangeOrder::Same || order == ChangeOrder::Concurrent) {
            if (auto loaded = loadFields(); !loaded)
                return loaded.failure();
            if (compareBytes(fieldsA->span(), fieldsB->span()) == 0) {
                // The same record: only the changes that led to it differ.
                const auto version = std::max(versionOf(a.record), versionOf(b.record));
                auto combined = combinedChanges(changesOf(a.record), changesOf(b.record));
                const bool same = version == versionOf(a.record) && combined == changesOf(a.record);
                if (version != versionOf(b.record) || combined != changesOf(b.record))
                    ++report.otherLacks;
                auto& kept = take(std::move(a), oursSealed, false);
                if (!same) {
                    std::visit(
                        [&](auto& r) {
                            r.changes = std::move(combined);
                            r.version = version;
                        },
                        kept.record);
                    changed(kept);
                }
                continue;
            }
            order = ChangeOrder::Concurrent;
        }
        if (order == ChangeOrder::Newer || order == ChangeOrder::Older) {
            const bool ours = order == ChangeOrder::Newer;
            auto& winner = ours ? a : b;
            const auto& loser = ours ? b : a;
            if (!ours)
                report.changed.count(kindOf(b.record));
            const bool raised = raiseCounter(winner.record, loser.record);
            if (ours || raised)
                ++report.otherLacks;
            auto& kept = take(std::move(winner), ours ? oursSealed : theirsSealed, false);
            if (raised) {
                ++report.countersRaised;
                std::visit([](auto& r) { countMergeChange(r); }, kept.record);
                changed(kept);
            }
            continue;
        }

        // Changed on both sides. The later change wins (modified, then the
        // greater fields); a note's other text is kept as a note of its own.
        ++report.conflicts;
        ++report.otherLacks;
        const auto modifiedA = modifiedOf(a.record);
        const auto modifiedB = modifiedOf(b.record);
        const bool oursWins = modifiedA != modifiedB
                                  ? modifiedA > modifiedB
                                  : compareBytes(fieldsA->span(), fieldsB->span()) > 0;
        auto& winner = oursWins ? a : b;
        auto& loser = oursWins ? b : a;
        const auto& loserFields = oursWins ? *fieldsB : *fieldsA;
        if (!oursWins)
            report.changed.count(kindOf(b.record));
        const auto* winnerNote = std::get_if<SecureNote>(&winner.record);
        const auto* loserNote = std::get_if<SecureNote>(&loser.record);
        if (winnerNote != nullptr && loserNote != nullptr &&
            (winnerNote->title != loserNote->title ||
             !constantTimeEqual(winnerNote->body.span(), loserNote->body.span()))) {
            const auto keptId = keptNoteId(loserNote->id, loserFields.span());
            if (!idTaken(keptId)) {
                SecureNote copy = loserNote->clone();
                copy.id = keptId;
                copy.version = 1;
                copy.title += keptNoteSuffix;
                ++report.notesKeptTwice;
                keptNotes.push_back({Record(std::move(copy)), {}, {}});
            }
        }
        raiseCounter(winner.record, loser.record);
        const auto loserChanges = changesOf(loser.record);
        const auto loserVersion = versionOf(loser.record);
        auto& kept = take(std::move(winner), false, false);
        keepConflict(kept.record, loserChanges, loserVersion);
    }
    for (auto& note : keptNotes) {
        if (auto valid = validateRecord(note.record); !valid)
            return valid.failure();
        // It shares the note's position: the rule below moves it after
        // every record, as it does records added on one side.
        entries.push_back(std::move(note));
        oneSided.push_back(true);
        ++report.otherLacks;
    }

    // Records added on each side after the last merge may share a sort
    // position. Where a position is shared by a record that was on one side
    // only, the records on both sides keep it, or else the one with the
    // smallest id; the other one-sided records move after every record, in
    // (position, id) order.
    {
        constexpr std::uint32_t last = std::numeric_limits<std::uint32_t>::max();
        // Each record's place: (position, on one side only, id key, index).
        struct Place
        {
            std::uint32_t position;
            bool oneSided;
            std::uint64_t key;
            std::size_t index;
        };
        std::vector<Place> order;
        order.reserve(entries.size());
        for (std::size_t k = 0; k < entries.size(); ++k)
            order.push_back({sortPositionOf(entries[k].record), oneSided[k],
                             keyOf(idOf(entries[k].record)), k});
        std::sort(order.begin(), order.end(), [&](const Place& x, const Place& y) {
            if (x.position != y.position)
                return x.position < y.position;
            if (x.oneSided != y.oneSided)
                return !x.oneSided; // records on both sides first
            if (x.key != y.key)
                return x.key < y.key;
            return idOf(entries[x.index].record) < idOf(entries[y.index].record);
        });
        std::vector<std::size_t> moving;
        for (std::size_t k = 1; k < order.size(); ++k)
            if (order[k].oneSided && order[k].position != last &&
                order[k].position == order[k - 1].position)
                moving.push_back(order[k].index);
        std::uint32_t next = 0;
        for (const auto& place : order)
            if (place.position != last)
                next = std::max(next, place.position + 1);
        for (const auto index : moving) {
            auto& entry = entries[index];
            std::visit(
                [&](auto& r) {
                    r.sortPosition = next;
                    countMergeChange(r);
                },
                entry.record);
            changed(entry);
            if (next != last)
                ++next;
            ++report.positionsMoved;
            ++report.otherLacks;
        }
    }

    if (!sameKey && !report.keyFromOther)
        ++report.otherLacks; // the other copy's key is the older one
    if (report.keyFromOther)
        takeKeysOf(other);
    if (!oursSealed)
        m_images.clear();
    if (theirsSealed)
        for (auto& image : other.m_images)
            m_images.push_back(std::move(image));
    m_entries = std::move(entries);
    m_tombstones = std::move(tombstones);
    for (const auto& writer : other.m_sync.writers)
        recordWrite(m_sync.writers, writer.device, writer.generation);
    m_generation = std::max(m_generation, other.m_generation);
    return report;
}

} // namespace watchword::vault
