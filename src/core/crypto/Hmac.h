// HMAC (RFC 2104) with the key prepared once.
//
// Preparing a key hashes its inner and outer padded blocks once and keeps the
// two chaining states. Each MAC afterwards costs only the compressions of the
// message itself: for a TOTP counter, two compressions in all, where a one-shot
// HMAC() call also pays for the key setup and context allocation.
#pragma once

#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"

#include <cstdint>
#include <span>
#include <variant>

namespace watchword::crypto {

namespace detail {
// A hash function's chaining value: the words it carries from block to block.
template <typename Word, std::size_t Count> struct Chain
{
    Word h[Count];
};
using Sha1Chain = Chain<std::uint32_t, 5>;
using Sha256Chain = Chain<std::uint32_t, 8>;
using Sha512Chain = Chain<std::uint64_t, 8>;

// The chaining values after the key's inner (ipad) and outer (opad) blocks.
template <typename ChainType> struct HmacChains
{
    ChainType inner;
    ChainType outer;
};
using AnyHmacChains =
    std::variant<HmacChains<Sha1Chain>, HmacChains<Sha256Chain>, HmacChains<Sha512Chain>>;
} // namespace detail

class HmacKey
{
public:
    // Prepares key for algorithm. Keys longer than a block are hashed first,
    // as RFC 2104 says; any length, including zero, is accepted.
    HmacKey(HashAlgorithm algorithm, ByteView key);
    ~HmacKey();
    // Moving wipes the source; copying is not allowed (the state is a secret).
    HmacKey(HmacKey&& other) noexcept;
    HmacKey& operator=(HmacKey&& other) noexcept;
    HmacKey(const HmacKey&) = delete;
    HmacKey& operator=(const HmacKey&) = delete;

    HashAlgorithm algorithm() const noexcept { return m_algorithm; }
    std::size_t size() const noexcept { return digestSize(m_algorithm); }

    // Writes the MAC of message to out; out.size() must equal size().
    void compute(ByteView message, std::span<std::uint8_t> out) const noexcept;
    // The MAC of message in a new buffer.
    [[nodiscard]] SecureBuffer compute(ByteView message) const;
    // True if tag is the full-length MAC of message, compared in constant time.
    [[nodiscard]] bool verify(ByteView message, ByteView tag) const noexcept;

    // The prepared chaining values, for PBKDF2 and HKDF in this module.
    const detail::AnyHmacChains& chains() const noexcept { return m_chains; }

private:
    HashAlgorithm m_algorithm;
    detail::AnyHmacChains m_chains;
};

} // namespace watchword::crypto
