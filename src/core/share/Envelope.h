// Share envelopes (docs/FORMAT.md section 12): records sealed from one
// person to one or more others, with no server in between.
//
//   K        32 random bytes, this envelope's content key
//   W_i      K sealed to recipient i: the sender DH of SenderDh.h with the
//            label "watchword/share/v1 envelope key", then ChaCha20-Poly1305
//   payload  ChaCha20-Poly1305(K) over the records' plaintext fields, with
//            the whole header (version, id, time, sender, every recipient
//            entry) as associated data
//   sig      BIP340 Schnorr by the sender's sharing key over all of it
//
// This layer knows records only as a kind and the bytes of their fields
// (section 6.4); decoding them into vault records, and what a vault does
// with them, is vault/Exchange.h's.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"
#include "keychain/Keychain.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::share {

enum class EnvelopeError {
    TooLarge,           // over maximumEnvelopeSize bytes (or its text over the text limit)
    NotAnEnvelope,      // no "WWSHARE" magic, no armour, no "watchword-share:" QR text
    UnsupportedVersion, // a version this reader does not know
    Malformed,          // the structure is broken, or the armour's Base64 is
    NotForMe,           // no recipient entry holds the reader's sharing key
    Tampered,           // a recipient's key or the payload fails its tag
    ForgedSender,       // the content is intact but not signed by the key it names
    TooLargeForQr,      // the QR text would not fit one QR code
    InvalidContents,    // sealing: no recipient or record, too many, a repeat, a kind not shareable
    NoIdentity,         // the vault has no sharing key to seal or open with (vault/Exchange.h)
    CryptoDisabled,     // the start-up self-test failed
};

template <typename T> using EnvelopeResult = Result<T, Error<EnvelopeError>>;

inline constexpr std::string_view envelopeMagic = "WWSHARE";
inline constexpr std::uint8_t envelopeVersion = 1;
inline constexpr std::size_t maximumEnvelopeSize = std::size_t{1} << 20;
inline constexpr std::size_t maximumRecipients = 16;
inline constexpr std::size_t maximumSharedRecords = 256;
inline constexpr std::size_t envelopeIdSize = 16;
inline constexpr std::size_t envelopeSignatureSize = 64;
// 12.1: the fixed bytes (magic to count, nonce, length, signature), and one
// recipient entry (R, E, W).
inline constexpr std::size_t envelopeFixedSize = 146;
inline constexpr std::size_t recipientEntrySize = 114;
inline constexpr std::string_view envelopeKeyLabel = "watchword/share/v1 envelope key";
inline constexpr std::string_view envelopeSignatureLabel = "watchword/share/v1 envelope signature";

// 12.5: the text carriers.
inline constexpr std::string_view armourBegin = "-----BEGIN WATCHWORD SHARE-----";
inline constexpr std::string_view armourEnd = "-----END WATCHWORD SHARE-----";
inline constexpr std::size_t armourLineLength = 64;
inline constexpr std::string_view qrTextPrefix = "watchword-share:";
// Byte-mode capacity of a version 40 QR code at correction level M.
inline constexpr std::size_t qrCapacity = 2331;
// Text longer than this is refused before it is searched: it cannot hold an
// envelope of maximumEnvelopeSize in Base64 with line breaks and some words
// around it.
inline constexpr std::size_t maximumEnvelopeTextSize = 2 * maximumEnvelopeSize;

using EnvelopeId = std::array<std::uint8_t, envelopeIdSize>;
using CompressedKey = std::array<std::uint8_t, crypto::PublicKey::compressedSize>;

// One record as an envelope carries it: its kind (1 account, 2 note) and its
// fields (docs/FORMAT.md section 6.4).
struct SharedRecord
{
    std::uint8_t kind = 0;
    SecureBuffer fields;
};

inline constexpr std::uint8_t sharedAccountKind = 1;
inline constexpr std::uint8_t sharedNoteKind = 2;

struct OpenedEnvelope
{
    EnvelopeId id{};
    std::int64_t created = 0;              // Unix seconds, the sender's clock
    CompressedKey sender{};                // S: signed for, so it is who sealed it
    std::vector<CompressedKey> recipients; // in the envelope's order
    std::vector<SharedRecord> records;
};

// Seals records to recipients, signed by sender (the vault's sharing key
// pair). random gives, in this order: the envelope id (16 bytes), K (32),
// each recipient's ephemeral secret key (32, drawn again while invalid), the
// payload nonce (12) and BIP340's auxiliary bytes (32); tests script it.
// InvalidContents: no recipient or more than 16, a recipient twice, no
// record or more than 256, a kind other than 1 or 2; TooLarge: over 1 MiB.
[[nodiscard]] EnvelopeResult<Bytes> sealEnvelope(crypto::RandomSource& random,
                                                 const keychain::KeyPair& sender,
                                                 std::span<const crypto::PublicKey> recipients,
                                                 std::span<const SharedRecord> records,
                                                 std::int64_t created);

// Opens envelope for me (the reader's sharing key pair), in the order of
// section 12.4; every error names what failed.
[[nodiscard]] EnvelopeResult<OpenedEnvelope> openEnvelope(ByteView envelope,
                                                          const keychain::KeyPair& me);

// ---- Carriers (12.5) ------------------------------------------------------

// The armoured text: BEGIN line, Base64 in 64-character lines, END line,
// each line ending in '\n'.
[[nodiscard]] std::string armourEnvelope(ByteView envelope);

// "watchword-share:" + Base64, or TooLargeForQr.
[[nodiscard]] EnvelopeResult<std::string> envelopeQrText(ByteView envelope);

// The envelope in text: the armoured form anywhere in it (text around it is
// ignored), or a QR code's "watchword-share:" text. NotAnEnvelope without
// either; Malformed for broken Base64; TooLarge for text over
// maximumEnvelopeTextSize.
[[nodiscard]] EnvelopeResult<Bytes> envelopeFromText(std::string_view text);

// What a file or pasted data holds: the binary envelope itself when it
// starts with the magic, else envelopeFromText. The envelope is not opened.
[[nodiscard]] EnvelopeResult<Bytes> envelopeFromData(ByteView data);

} // namespace watchword::share
