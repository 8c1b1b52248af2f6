#include "crypto/SecretStream.h"

#include "crypto/CryptoState.h"

#include <sodium.h>

namespace watchword::crypto::secretStream {

namespace {

static_assert(keySize == crypto_secretstream_xchacha20poly1305_KEYBYTES);
static_assert(headerSize == crypto_secretstream_xchacha20poly1305_HEADERBYTES);
static_assert(overhead == crypto_secretstream_xchacha20poly1305_ABYTES);

// The stream's state holds the key schedule: wiped however the call ends.
struct WipedState
{
    crypto_secretstream_xchacha20poly1305_state state{};
    ~WipedState() { sodium_memzero(&state, sizeof state); }
};

} // namespace

SecretStreamResult<SecureBuffer> openSingleMessage(ByteView key, ByteView header,
                                                   ByteView ciphertext)
{
    if (isDisabled())
        return fail(SecretStreamError::CryptoDisabled, disabledReason());
    if (key.size() != keySize)
        return fail(SecretStreamError::BadKeySize, "the secretstream key is not 32 bytes");
    if (header.size() != headerSize)
        return fail(SecretStreamError::BadHeaderSize, "the secretstream header is not 24 bytes");
    if (ciphertext.size() < overhead)
        return fail(SecretStreamError::TooShort,
                    "the secretstream message is shorter than its 17 bytes of overhead");
    // Idempotent and thread-safe; -1 only if the library cannot start.
    if (sodium_init() < 0)
        return fail(SecretStreamError::BackendFailure, "libsodium could not start");
    WipedState stream;
    if (crypto_secretstream_xchacha20poly1305_init_pull(&stream.state, header.data(), key.data()) !=
        0)
        return fail(SecretStreamError::BadHeaderSize, "the secretstream header is invalid");
    SecureBuffer plaintext(ciphertext.size() - overhead);
    unsigned long long length = 0;
    unsigned char tag = 0;
    if (crypto_secretstream_xchacha20poly1305_pull(&stream.state, plaintext.data(), &length, &tag,
                                                   ciphertext.data(), ciphertext.size(), nullptr,
                                                   0) != 0)
        return fail(SecretStreamError::AuthenticationFailed,
                    "the secretstream message does not verify");
    if (tag != crypto_secretstream_xchacha20poly1305_TAG_MESSAGE &&
        tag != crypto_secretstream_xchacha20poly1305_TAG_FINAL)
        return fail(SecretStreamError::NotOneMessage,
                    "the secretstream message is not the stream's only one");
    plaintext.truncate(static_cast<std::size_t>(length));
    return plaintext;
}

} // namespace watchword::crypto::secretStream
