// The vault's record envelope: AES-256-CBC with a random IV, then
// HMAC-SHA256 over everything that identifies and carries the record
// (encrypt-then-MAC). It is the watch companion's format too: a Connect IQ
// watch has native AES-CBC and HMAC-SHA256, so the same records open there.
//
// Keys. Both record keys come from the 32-byte vault master key by HKDF-SHA256
// (RFC 5869) with an empty salt (the master key is already uniformly random,
// section 3.1) and these info labels, 32 bytes each:
//   encryption key     = HKDF(master, salt "", info "watchword/record/v1 encryption")
//   authentication key = HKDF(master, salt "", info "watchword/record/v1 authentication")
// They are derived once, in create(), and kept prepared: the AES key schedules
// and the HMAC inner/outer states.
//
// Envelope. sealed = IV (16) || ciphertext (16 * k, k >= 1) || tag (32), where
//   ciphertext = AES-256-CBC(encryption key, IV, PKCS#7-padded plaintext)
//   tag = HMAC-SHA256(authentication key,
//                     0x01 || be64(len(associatedData)) || associatedData || IV || ciphertext)
// The leading 0x01 is the envelope version; the length prefix makes the split
// between associated data and IV unambiguous, and the ciphertext is what
// remains. The associated data is not stored in the envelope: the caller
// (the vault) supplies it on both sides, to bind a record to its id and version.
//
// Opening checks, in this order: the length (at least 64 bytes, ciphertext a
// whole number of blocks) -> Malformed; the tag, compared in constant time
// BEFORE anything is decrypted -> AuthenticationFailed; the padding, which is
// only ever examined for records that carry a valid tag -> Corrupt. So there
// is no padding oracle: an attacker without the key never gets past the tag.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"
#include "crypto/AesCbc.h"
#include "crypto/Hmac.h"
#include "crypto/Random.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace watchword::crypto {

enum class RecordError {
    BadMasterKeySize,     // create(): the master key is not 32 bytes
    PlaintextTooLong,     // seal(): over AesCbc::maximumInputSize
    Malformed,            // open(): under 64 bytes, or the ciphertext is not whole blocks
    AuthenticationFailed, // open(): wrong key, wrong associated data, or altered bytes
    Corrupt,              // open(): valid tag but bad padding (written by a faulty sealer)
    InternalFailure,      // OpenSSL or a derivation failed (out of memory)
    CryptoDisabled,       // create(): the start-up self-test failed
};

template <typename T> using RecordResult = Result<T, Error<RecordError>>;

class RecordSealer
{
public:
    static constexpr std::size_t masterKeySize = 32;
    static constexpr std::size_t keySize = 32; // each derived key: AES-256, HMAC-SHA256
    static constexpr std::size_t ivSize = AesCbc::ivSize;
    static constexpr std::size_t tagSize = 32; // full HMAC-SHA256, never truncated
    // IV, one block (an empty plaintext pads to one block), tag.
    static constexpr std::size_t minimumSealedSize = ivSize + AesCbc::blockSize + tagSize;
    static constexpr std::uint8_t envelopeVersion = 0x01;
    static constexpr std::string_view encryptionKeyInfo = "watchword/record/v1 encryption";
    static constexpr std::string_view authenticationKeyInfo = "watchword/record/v1 authentication";

    // Derives and prepares the record keys from masterKey (32 bytes). The
    // caller's master key is not kept and stays the caller's to wipe; the
    // derived keys are wiped as soon as they are prepared.
    [[nodiscard]] static RecordResult<RecordSealer> create(ByteView masterKey);

    RecordSealer(RecordSealer&&) noexcept = default;
    RecordSealer& operator=(RecordSealer&&) noexcept = default;
    RecordSealer(const RecordSealer&) = delete;
    RecordSealer& operator=(const RecordSealer&) = delete;
    ~RecordSealer() = default;

    // The envelope size for a plaintext of plaintextSize bytes.
    static constexpr std::size_t sealedSize(std::size_t plaintextSize) noexcept
    {
        return ivSize + AesCbc::ciphertextSize(plaintextSize) + tagSize;
    }

    // Seals plaintext, bound to associatedData, with a fresh IV taken from
    // random in exactly one fill() call. Returns sealedSize(plaintext.size())
    // bytes laid out as described at the top of this file.
    [[nodiscard]] RecordResult<Bytes> seal(ByteView associatedData, ByteView plaintext,
                                           RandomSource& random);

    // Checks and decrypts an envelope made by seal() with the same master key
    // and the same associatedData. Errors, in the order they are checked:
    // Malformed, AuthenticationFailed, Corrupt (see the top of this file).
    [[nodiscard]] RecordResult<SecureBuffer> open(ByteView associatedData, ByteView sealed);
    // The same into out, a caller's reusable secret buffer of at least
    // maximumPlaintextSize(sealed.size()) bytes, so opening many records
    // allocates nothing per record. Returns the plaintext length; out is
    // wiped past it, and entirely on any error after the tag check.
    [[nodiscard]] RecordResult<std::size_t> open(ByteView associatedData, ByteView sealed,
                                                 std::span<std::uint8_t> out);

    // The most plaintext an envelope of sealedSize bytes can carry (its
    // ciphertext length; padding takes at least one byte of it).
    static constexpr std::size_t maximumPlaintextSize(std::size_t sealedSize) noexcept
    {
        return sealedSize > ivSize + tagSize ? sealedSize - ivSize - tagSize : 0;
    }

    // Not thread-safe (seal and open re-arm prepared contexts): one sealer per
    // thread, or a lock around it.

private:
    RecordSealer(AesCbc cipher, HmacKey macKey) noexcept;

    // Fills m_macInput with the bytes the tag covers and returns them.
    ByteView macInput(ByteView associatedData, ByteView ivAndCiphertext);

    AesCbc m_cipher;
    HmacKey m_macKey;
    // Scratch for the MAC input, reused so a seal or open allocates nothing
    // for it once it has grown. It holds only public bytes (AD, IV, ciphertext).
    Bytes m_macInput;
};

} // namespace watchword::crypto
