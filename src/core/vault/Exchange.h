// Records shared between vaults (docs/FORMAT.md section 12, on section 6.4's
// fields): what a vault sends in a share envelope, and what it makes of one
// it receives. The CLI and the app both stand on this.
//
// Sending: the chosen accounts and notes, each as the vault holds it but with
// sort position 0, no last-used time and no record of where it came from,
// sealed to the chosen people's sharing keys and signed by the vault's own.
//
// Receiving: the envelope is opened with the vault's sharing key; the sender
// is named by the vault's contacts (verified or not) or only by fingerprint;
// each record is decoded by section 6.4's rules and compared with what the
// vault holds (a duplicate: an account with the same secret and code
// parameters, a note with the same title and body); an envelope something
// was already added from is marked as already received. addReceived() then
// adds the records the person ticked, as new records that remember the
// envelope and its sender.
#pragma once

#include "base/Bytes.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "share/Envelope.h"
#include "vault/Records.h"
#include "vault/Vault.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace watchword::vault {

// Seals the records with ids to recipients, signed by the vault's sharing
// key, created now. Errors (share::EnvelopeError): NoIdentity if the vault
// has no sharing key yet; InvalidContents for an id the vault does not hold,
// a contact, no record, no recipient, a recipient twice; TooLarge.
[[nodiscard]] share::EnvelopeResult<Bytes>
shareRecords(const Vault& vault, std::span<const RecordId> ids,
             std::span<const crypto::PublicKey> recipients, std::int64_t now,
             crypto::RandomSource& random = crypto::systemRandom());

enum class SenderStatus {
    VerifiedContact,   // a contact whose fingerprint the owner compared
    UnverifiedContact, // a contact, not verified
    Unknown,           // no contact has the sender's key
    Yourself,          // the vault's own sharing key
};

struct ReceivedRecord
{
    Record record; // id and version zero: the vault gives its own when it adds it
    // A record the vault already holds with the same content, if any.
    std::optional<RecordId> duplicateOf;
};

struct ReceivedShare
{
    share::EnvelopeId envelopeId{};
    std::int64_t created = 0; // the sender's clock
    share::CompressedKey sender{};
    std::string senderFingerprint; // section 11's eight words
    SenderStatus senderStatus = SenderStatus::Unknown;
    std::string senderName;          // the contact's name, if it is one
    std::optional<RecordId> contact; // the contact, if it is one
    std::size_t otherRecipients = 0; // besides this vault
    bool alreadyReceived = false;    // a record of the vault came from this envelope
    std::vector<ReceivedRecord> records;
};

// Opens envelope with the vault's sharing key and describes it. Errors: the
// envelope's (section 12.4, each with its sentence), NoIdentity, and
// Malformed for a record whose fields break section 6.4 (naming it).
[[nodiscard]] share::EnvelopeResult<ReceivedShare> openShare(const Vault& vault, ByteView envelope);

// The records a person would add without choosing: none of an envelope
// already received, else every one that is not a duplicate. What the app
// ticks first and the CLI adds without --record or --all.
[[nodiscard]] std::vector<std::size_t> suggestedRecords(const ReceivedShare& share);

// Adds the records of share at the indices chosen (each once, in the order
// given) as new records: new ids, version 1, created = modified = now, after
// the vault's other records, remembering the envelope and its sender.
// Returns their ids. A chosen duplicate is added all the same (the person
// ticked it). Errors: InvalidRecord for an index out of range or given
// twice; the vault's refusals.
[[nodiscard]] VaultResult<std::vector<RecordId>>
addReceived(Vault& vault, const ReceivedShare& share, std::span<const std::size_t> chosen,
            std::int64_t now, crypto::RandomSource& random = crypto::systemRandom());

} // namespace watchword::vault
