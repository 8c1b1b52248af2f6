// Private to src/core/crypto: SHA-1/256/512 driven one block at a time, and
// HMAC on top of prepared chaining values. This is the hot path of TOTP, PBKDF2
// and HKDF.
//
// It calls OpenSSL's block functions (SHA1_Transform, SHA256_Transform,
// SHA512_Transform): deprecated in OpenSSL 3.0 but present, and the only public
// way to reach its SHA-NI/AVX compression code without the EVP layer's
// per-call overhead. The deprecation warning is silenced here and only here.
#pragma once

#include "base/SecureBuffer.h"
#include "crypto/Hmac.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <openssl/sha.h>

namespace watchword::crypto::detail {

template <typename ChainType> struct ShaTraits;

template <> struct ShaTraits<Sha1Chain>
{
    using Context = SHA_CTX;
    static constexpr HashAlgorithm algorithm = HashAlgorithm::Sha1;
    static constexpr std::size_t blockSize = 64;
    static constexpr std::size_t digestSize = 20;
    static constexpr std::size_t lengthSize = 8;

    static void load(Context& c, const Sha1Chain& chain) noexcept
    {
        c.h0 = chain.h[0];
        c.h1 = chain.h[1];
        c.h2 = chain.h[2];
        c.h3 = chain.h[3];
        c.h4 = chain.h[4];
    }
    static void save(Sha1Chain& chain, const Context& c) noexcept
    {
        chain.h[0] = c.h0;
        chain.h[1] = c.h1;
        chain.h[2] = c.h2;
        chain.h[3] = c.h3;
        chain.h[4] = c.h4;
    }
    static void init(Context& c) noexcept { SHA1_Init(&c); }
    static void compress(Context& c, const std::uint8_t* block) noexcept
    {
        SHA1_Transform(&c, block);
    }
    static void storeDigest(const Context& c, std::uint8_t* out) noexcept
    {
        const std::uint32_t h[5] = {c.h0, c.h1, c.h2, c.h3, c.h4};
        for (std::size_t i = 0; i < 5; ++i) {
            const std::uint32_t word = __builtin_bswap32(h[i]);
            std::memcpy(out + 4 * i, &word, 4);
        }
    }
};

template <> struct ShaTraits<Sha256Chain>
{
    using Context = SHA256_CTX;
    static constexpr HashAlgorithm algorithm = HashAlgorithm::Sha256;
    static constexpr std::size_t blockSize = 64;
    static constexpr std::size_t digestSize = 32;
    static constexpr std::size_t lengthSize = 8;

    static void load(Context& c, const Sha256Chain& chain) noexcept
    {
        std::memcpy(c.h, chain.h, sizeof chain.h);
    }
    static void save(Sha256Chain& chain, const Context& c) noexcept
    {
        std::memcpy(chain.h, c.h, sizeof chain.h);
    }
    static void init(Context& c) noexcept { SHA256_Init(&c); }
    static void compress(Context& c, const std::uint8_t* block) noexcept
    {
        SHA256_Transform(&c, block);
    }
    static void storeDigest(const Context& c, std::uint8_t* out) noexcept
    {
        for (std::size_t i = 0; i < 8; ++i) {
            const std::uint32_t word = __builtin_bswap32(c.h[i]);
            std::memcpy(out + 4 * i, &word, 4);
        }
    }
};

template <> struct ShaTraits<Sha512Chain>
{
    using Context = SHA512_CTX;
    static constexpr HashAlgorithm algorithm = HashAlgorithm::Sha512;
    static constexpr std::size_t blockSize = 128;
    static constexpr std::size_t digestSize = 64;
    static constexpr std::size_t lengthSize = 16;

    static void load(Context& c, const Sha512Chain& chain) noexcept
    {
        std::memcpy(c.h, chain.h, sizeof chain.h);
    }
    static void save(Sha512Chain& chain, const Context& c) noexcept
    {
        std::memcpy(chain.h, c.h, sizeof chain.h);
    }
    static void init(Context& c) noexcept { SHA512_Init(&c); }
    static void compress(Context& c, const std::uint8_t* block) noexcept
    {
        SHA512_Transform(&c, block);
    }
    static void storeDigest(const Context& c, std::uint8_t* out) noexcept
    {
        for (std::size_t i = 0; i < 8; ++i) {
            const std::uint64_t word = __builtin_bswap64(c.h[i]);
            std::memcpy(out + 8 * i, &word, 8);
        }
    }
};

// Writes Merkle-Damgard padding for a message of totalBytes into the block
// that starts with `used` message bytes: 0x80, zeros, the bit length big-endian.
// The caller has checked that the padding fits (used + 1 + lengthSize <= block).
template <typename ChainType>
void padFinalBlock(std::uint8_t* block, std::size_t used, std::uint64_t totalBytes) noexcept
{
    using T = ShaTraits<ChainType>;
    block[used] = 0x80;
    std::fill(block + used + 1, block + T::blockSize, std::uint8_t{0});
    const std::uint64_t bits = __builtin_bswap64(totalBytes * 8);
    std::memcpy(block + T::blockSize - 8, &bits, 8);
}

// Hashes message onto the chaining value in c, as if prefixBytes (a whole
// number of blocks) had already been hashed, and writes the digest to out.
// c is left holding intermediate state: the caller wipes it.
template <typename ChainType>
void finishHash(typename ShaTraits<ChainType>::Context& c, ByteView message,
                std::uint64_t prefixBytes, std::uint8_t* out) noexcept
{
    using T = ShaTraits<ChainType>;
    std::size_t offset = 0;
    while (message.size() - offset >= T::blockSize) {
        T::compress(c, message.data() + offset);
        offset += T::blockSize;
    }
    alignas(8) std::uint8_t block[T::blockSize];
    const std::size_t tail = message.size() - offset;
    if (tail != 0)
        std::memcpy(block, message.data() + offset, tail);
    block[tail] = 0x80;
    std::fill(block + tail + 1, block + T::blockSize, std::uint8_t{0});
    if (tail + 1 + T::lengthSize > T::blockSize) {
        // No room for the length: it goes in one more block of zeros.
        T::compress(c, block);
        std::fill(block, block + T::blockSize, std::uint8_t{0});
    }
    const std::uint64_t bits = __builtin_bswap64((prefixBytes + message.size()) * 8);
    std::memcpy(block + T::blockSize - 8, &bits, 8);
    T::compress(c, block);
    T::storeDigest(c, out);
    secureWipe(block, sizeof block);
}

// Prepares HMAC chaining values from a key (RFC 2104, section 2).
template <typename ChainType> void prepareHmac(HmacChains<ChainType>& chains, ByteView key) noexcept
{
    using T = ShaTraits<ChainType>;
    typename T::Context c;
    alignas(8) std::uint8_t padded[T::blockSize] = {};
    if (key.size() > T::blockSize) {
        T::init(c);
        finishHash<ChainType>(c, key, 0, padded);
    } else if (!key.empty()) {
        std::memcpy(padded, key.data(), key.size());
    }
    for (auto& byte : padded)
        byte ^= 0x36;
    T::init(c);
    T::compress(c, padded);
    T::save(chains.inner, c);
    for (auto& byte : padded)
        byte ^= 0x36 ^ 0x5c;
    T::init(c);
    T::compress(c, padded);
    T::save(chains.outer, c);
    secureWipe(padded, sizeof padded);
    secureWipe(&c, sizeof c);
}

// HMAC of message with prepared chains; out receives digestSize bytes.
// A message that fits in one block with its padding (a TOTP counter, a
// PBKDF2 salt) takes the short path: one inner and one outer compression
// over a single working block, wiped once at the end.
template <typename ChainType>
void computeHmac(const HmacChains<ChainType>& chains, ByteView message, std::uint8_t* out) noexcept
{
    using T = ShaTraits<ChainType>;
    struct Work
    {
        typename T::Context c;
        alignas(8) std::uint8_t block[T::blockSize];
    } work;
    T::load(work.c, chains.inner);
    if (message.size() + 1 + T::lengthSize <= T::blockSize) {
        if (!message.empty())
            std::memcpy(work.block, message.data(), message.size());
        padFinalBlock<ChainType>(work.block, message.size(), T::blockSize + message.size());
        T::compress(work.c, work.block);
        T::storeDigest(work.c, work.block);
    } else {
        finishHash<ChainType>(work.c, message, T::blockSize, work.block);
    }
    // The outer message is the inner digest, already at the start of the block.
    padFinalBlock<ChainType>(work.block, T::digestSize, T::blockSize + T::digestSize);
    T::load(work.c, chains.outer);
    T::compress(work.c, work.block);
    T::storeDigest(work.c, out);
    secureWipe(&work, sizeof work);
}

} // namespace watchword::crypto::detail

#pragma GCC diagnostic pop
