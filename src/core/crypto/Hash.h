// The hash functions Watchword uses, by name and size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <openssl/types.h>
#include <optional>
#include <span>
#include <string_view>

namespace watchword::crypto {

enum class HashAlgorithm { Sha1, Sha256, Sha512 };

constexpr std::size_t digestSize(HashAlgorithm algorithm) noexcept
{
    switch (algorithm) {
    case HashAlgorithm::Sha1:
        return 20;
    case HashAlgorithm::Sha256:
        return 32;
    case HashAlgorithm::Sha512:
        return 64;
    }
    return 0;
}

constexpr std::size_t blockSize(HashAlgorithm algorithm) noexcept
{
    return algorithm == HashAlgorithm::Sha512 ? 128 : 64;
}

// "SHA1", "SHA256", "SHA512": the spelling of otpauth URIs and the CLI.
constexpr std::string_view hashName(HashAlgorithm algorithm) noexcept
{
    switch (algorithm) {
    case HashAlgorithm::Sha1:
        return "SHA1";
    case HashAlgorithm::Sha256:
        return "SHA256";
    case HashAlgorithm::Sha512:
        return "SHA512";
    }
    return {};
}

// Accepts the names above in any letter case, with or without a hyphen
// ("sha-256"); anything else is nullopt.
std::optional<HashAlgorithm> parseHashName(std::string_view name) noexcept;

// SHA-256 of data (FIPS 180-4), on the same block function as HMAC: no
// allocation, cannot fail. For checksums (the vault file, BIP39).
std::array<std::uint8_t, 32> sha256(std::span<const std::uint8_t> data) noexcept;

// OpenSSL's EVP_MD for algorithm, for the references that benchmarks and
// tests compare against and for one-shot digests.
const EVP_MD* openSslDigest(HashAlgorithm algorithm) noexcept;

} // namespace watchword::crypto
