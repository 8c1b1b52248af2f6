#include "crypto/Hmac.h"

#include "crypto/detail/ShaBlocks.h"

#include <cassert>
#include <utility>

namespace watchword::crypto {

namespace {

detail::AnyHmacChains prepare(HashAlgorithm algorithm, ByteView key) noexcept
{
    detail::AnyHmacChains chains;
    switch (algorithm) {
    case HashAlgorithm::Sha1:
        detail::prepareHmac(chains.emplace<detail::HmacChains<detail::Sha1Chain>>(), key);
        break;
    case HashAlgorithm::Sha256:
        detail::prepareHmac(chains.emplace<detail::HmacChains<detail::Sha256Chain>>(), key);
        break;
    case HashAlgorithm::Sha512:
        detail::prepareHmac(chains.emplace<detail::HmacChains<detail::Sha512Chain>>(), key);
        break;
    }
    return chains;
}

} // namespace

HmacKey::HmacKey(HashAlgorithm algorithm, ByteView key)
    : m_algorithm(algorithm), m_chains(prepare(algorithm, key))
{}

HmacKey::~HmacKey()
{
    secureWipe(&m_chains, sizeof m_chains);
}

HmacKey::HmacKey(HmacKey&& other) noexcept
    : m_algorithm(other.m_algorithm), m_chains(other.m_chains)
{
    secureWipe(&other.m_chains, sizeof other.m_chains);
    other.m_chains = detail::AnyHmacChains{};
}

HmacKey& HmacKey::operator=(HmacKey&& other) noexcept
{
    if (this != &other) {
        m_algorithm = other.m_algorithm;
        m_chains = other.m_chains;
        secureWipe(&other.m_chains, sizeof other.m_chains);
        other.m_chains = detail::AnyHmacChains{};
    }
    return *this;
}

void HmacKey::compute(ByteView message, std::span<std::uint8_t> out) const noexcept
{
    assert(out.size() == size());
    std::visit([&](const auto& chains) { detail::computeHmac(chains, message, out.data()); },
               m_chains);
}

SecureBuffer HmacKey::compute(ByteView message) const
{
    SecureBuffer out(size());
    compute(message, out.span());
    return out;
}

bool HmacKey::verify(ByteView message, ByteView tag) const noexcept
{
    if (tag.size() != size())
        return false;
    std::uint8_t expected[64];
    compute(message, std::span(expected, size()));
    const bool equal = constantTimeEqual(std::span(expected, size()), tag);
    secureWipe(expected, sizeof expected);
    return equal;
}

} // namespace watchword::crypto
