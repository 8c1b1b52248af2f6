// The sender DH: the key agreement that seals a note to another person's
// secp256k1 public key (ECIES-style, SEC 1 section 5.1, with HKDF as the KDF).
//
// The sender makes a fresh ephemeral key pair per recipient and note, and
// derives the note key from ECDH(ephemeral secret, recipient public):
//
//   shared  = x-coordinate of ephemeralSecret * recipientPublic   (32 bytes)
//   salt    = ephemeralPublic (33, compressed) || recipientPublic (33, compressed)
//   noteKey = HKDF-SHA256(ikm = shared, salt, info = "watchword/share/v1 note key", L = 32)
//
// The recipient computes the same shared x from its own secret key and the
// ephemeral public key that travels with the note. Putting both public keys in
// the salt binds the note key to this exact pair: the x-coordinate alone is the
// same for a point and its negation (an ephemeral key with its 02/03 prefix
// flipped) and says nothing of who the recipient was. The ephemeral secret is
// wiped as soon as the key is derived, so the sender cannot open the note
// later either.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/Random.h"
#include "crypto/Secp256k1.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace watchword::share {

enum class ShareError {
    InvalidEphemeralKey, // not a 33-byte compressed secp256k1 point
    CryptoDisabled,      // the start-up self-test failed
};

template <typename T> using ShareResult = Result<T, Error<ShareError>>;

inline constexpr std::size_t noteKeySize = 32;
// The HKDF info, versioned so a future derivation can never collide with it.
inline constexpr std::string_view noteKeyLabel = "watchword/share/v1 note key";

// What the sender keeps: the ephemeral public key to put in the envelope, and
// the note key to seal with.
struct SenderNoteKey
{
    std::array<std::uint8_t, crypto::PublicKey::compressedSize> ephemeralPublicKey;
    SecureBuffer noteKey; // noteKeySize bytes
};

// Sender side: a new ephemeral key from random, ECDH with recipientPublicKey,
// HKDF to the note key. Fails only with CryptoDisabled. label is the HKDF
// info: noteKeyLabel for a shared note; another purpose of the same
// agreement (a vault's recovery slot) passes its own, so that the keys of the
// two can never be the same.
[[nodiscard]] ShareResult<SenderNoteKey> senderNoteKey(crypto::RandomSource& random,
                                                       const crypto::PublicKey& recipientPublicKey,
                                                       std::string_view label = noteKeyLabel);

// Recipient side: the same note key from the recipient's own key pair and the
// 33-byte compressed ephemeral public key of the envelope. recipientPublicKey
// must be the public key of recipientSecretKey (the keychain holds both, and
// recomputing it would cost a scalar multiplication per note); a mismatched
// pair derives a key that opens nothing.
[[nodiscard]] ShareResult<SecureBuffer>
recipientNoteKey(const crypto::SecretKey& recipientSecretKey,
                 const crypto::PublicKey& recipientPublicKey, ByteView ephemeralPublicKey,
                 std::string_view label = noteKeyLabel);

// The same from an ephemeral key already parsed (a reader that checked every
// key of an envelope first); the salt holds its compressed encoding.
[[nodiscard]] ShareResult<SecureBuffer>
recipientNoteKey(const crypto::SecretKey& recipientSecretKey,
                 const crypto::PublicKey& recipientPublicKey,
                 const crypto::PublicKey& ephemeralPublicKey, std::string_view label);

} // namespace watchword::share
