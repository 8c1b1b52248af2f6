#include "vault/Exchange.h"

#include "share/Identity.h"
#include "vault/Contacts.h"

#include <algorithm>
#include <utility>
#include <variant>

namespace watchword::vault {

namespace {

// The record as it travels: sort position 0, no last-used time, no trace of
// where it came from.
Record travelling(const Record& record)
{
    auto copy = cloneRecord(record);
    std::visit(
        [](auto& r) {
            using T = std::decay_t<decltype(r)>;
            if constexpr (!std::is_same_v<T, Contact>) {
                r.sortPosition = 0;
                r.receivedFrom.reset();
            }
            // Which devices changed it is this vault's history, not the
            // record's (docs/FORMAT.md section 6.4).
            r.changes.clear();
            if constexpr (std::is_same_v<T, OtpAccount>)
                r.lastUsed.reset();
        },
        copy);
    return copy;
}

// The same codes, whatever the labels (as an import counts duplicates).
bool sameContent(const OtpAccount& a, const OtpAccount& b)
{
    return sameCodes(a.secret, a.parameters, b.secret, b.parameters);
}

bool sameContent(const SecureNote& a, const SecureNote& b)
{
    return a.title == b.title &&
           std::equal(a.body.begin(), a.body.end(), b.body.begin(), b.body.end());
}

std::optional<RecordId> duplicateIn(const Vault& vault, const Record& received)
{
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const auto& held = vault.record(i);
        if (held.index() != received.index())
            continue;
        const bool same = std::visit(
            [&](const auto& r) {
                using T = std::decay_t<decltype(r)>;
                if constexpr (std::is_same_v<T, Contact>)
                    return false;
                else
                    return sameContent(r, std::get<T>(held));
            },
            received);
        if (same)
            return idOf(held);
    }
    return std::nullopt;
}

bool receivedBefore(const Vault& vault, const share::EnvelopeId& id)
{
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const bool fromIt = std::visit(
            [&](const auto& r) {
                if constexpr (std::is_same_v<std::decay_t<decltype(r)>, Contact>)
                    return false;
                else
                    return r.receivedFrom && r.receivedFrom->envelopeId == id;
            },
            vault.record(i));
        if (fromIt)
            return true;
    }
    return false;
}

Failure<Error<share::EnvelopeError>> noIdentity()
{
    return fail(share::EnvelopeError::NoIdentity,
                "this vault has no sharing identity yet: check its recovery phrase once "
                "(Settings, or watchword-cli vault check-phrase) to give it one");
}

} // namespace

share::EnvelopeResult<Bytes> shareRecords(const Vault& vault, std::span<const RecordId> ids,
                                          std::span<const crypto::PublicKey> recipients,
                                          std::int64_t now, crypto::RandomSource& random)
{
    const auto& identity = vault.sharingKey();
    if (!identity)
        return noIdentity();
    std::vector<share::SharedRecord> records;
    records.reserve(ids.size());
    for (const auto& id : ids) {
        const Record* record = vault.find(id);
        if (!record)
            return fail(share::EnvelopeError::InvalidContents,
                        "the vault has no record with that id");
        const auto kind = kindOf(*record);
        if (kind == RecordKind::Contact)
            return fail(share::EnvelopeError::InvalidContents,
                        "contacts are not shared: only accounts and notes");
        auto fields = encodeFields(travelling(*record));
        if (!fields)
            return fields.failure(share::EnvelopeError::InvalidContents);
        records.push_back({static_cast<std::uint8_t>(kind), std::move(*fields)});
    }
    return share::sealEnvelope(random, *identity, recipients, records, now);
}

share::EnvelopeResult<ReceivedShare> openShare(const Vault& vault, ByteView envelope)
{
    const auto& identity = vault.sharingKey();
    if (!identity)
        return noIdentity();
    auto opened = share::openEnvelope(envelope, *identity);
    if (!opened)
        return opened.failure();

    ReceivedShare share;
    share.envelopeId = opened->id;
    share.created = opened->created;
    share.sender = opened->sender;
    const auto senderKey = crypto::PublicKey::fromSec1(opened->sender).value();
    share.senderFingerprint = share::identityFingerprintText(senderKey);
    share.otherRecipients = opened->recipients.size() - 1;
    if (senderKey == identity->publicKey) {
        share.senderStatus = SenderStatus::Yourself;
    } else if (const Contact* contact = contactWithKey(vault, opened->sender)) {
        share.senderStatus =
            contact->verified ? SenderStatus::VerifiedContact : SenderStatus::UnverifiedContact;
        share.senderName = contact->name;
        share.contact = contact->id;
    }
    share.alreadyReceived = receivedBefore(vault, opened->id);

    share.records.reserve(opened->records.size());
    for (std::size_t i = 0; i < opened->records.size(); ++i) {
        const auto& sent = opened->records[i];
        auto record = decodeFields(static_cast<RecordKind>(sent.kind), RecordId{}, 0, sent.fields);
        if (!record)
            return record.failure(share::EnvelopeError::Malformed,
                                  "the share is damaged: record " + std::to_string(i + 1) + ": ");
        auto duplicate = duplicateIn(vault, *record);
        share.records.push_back({std::move(*record), duplicate});
    }
    return share;
}

std::vector<std::size_t> suggestedRecords(const ReceivedShare& share)
{
    std::vector<std::size_t> chosen;
    if (share.alreadyReceived)
        return chosen;
    for (std::size_t i = 0; i < share.records.size(); ++i)
        if (!share.records[i].duplicateOf)
            chosen.push_back(i);
    return chosen;
}

VaultResult<std::vector<RecordId>> addReceived(Vault& vault, const ReceivedShare& share,
                                               std::span<const std::size_t> chosen,
                                               std::int64_t now, crypto::RandomSource& random)
{
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        if (chosen[i] >= share.records.size())
            return fail(VaultError::InvalidRecord,
                        "the share holds " + std::to_string(share.records.size()) +
                            " records; there is no record " + std::to_string(chosen[i] + 1));
        if (std::find(chosen.begin(), chosen.begin() + i, chosen[i]) != chosen.begin() + i)
            return fail(VaultError::InvalidRecord,
                        "record " + std::to_string(chosen[i] + 1) + " is chosen twice");
    }
    std::vector<RecordId> added;
    added.reserve(chosen.size());
    for (const auto index : chosen) {
        auto record = cloneRecord(share.records[index].record);
        const auto position = nextSortPosition(vault);
        std::visit(
            [&](auto& r) {
                if constexpr (!std::is_same_v<std::decay_t<decltype(r)>, Contact>) {
                    r.created = now;
                    r.modified = now;
                    r.sortPosition = position;
                    r.receivedFrom = ReceivedFrom{share.envelopeId, share.sender};
                }
                if constexpr (std::is_same_v<std::decay_t<decltype(r)>, OtpAccount>)
                    r.lastUsed.reset();
            },
            record);
        auto id = vault.add(std::move(record), random);
        if (!id) {
            // Nothing half-added: take back what this call added.
            for (const auto& undo : added)
                (void)vault.remove(undo);
            return id.failure();
        }
        added.push_back(*id);
    }
    return added;
}

} // namespace watchword::vault
