#include "base/SecureBuffer.h"

#include <algorithm>
#include <openssl/crypto.h>
#include <string.h>
#include <utility>

namespace watchword {

void secureWipe(void* data, std::size_t size) noexcept
{
    // glibc's explicit_bzero is memset behind a compiler barrier: it may not
    // be optimized away, and it runs at memset speed, where OPENSSL_cleanse
    // is a byte loop. It matters on hot paths: a TOTP code wipes four small
    // buffers.
    if (data != nullptr && size != 0)
        explicit_bzero(data, size);
}

bool constantTimeEqual(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) noexcept
{
    if (a.size() != b.size())
        return false;
    if (a.empty())
        return true;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

SecureBuffer::SecureBuffer(std::size_t size)
    : m_data(size != 0 ? new std::uint8_t[size]() : nullptr), m_size(size)
{}

SecureBuffer::SecureBuffer(std::span<const std::uint8_t> bytes) : SecureBuffer(bytes.size())
{
    std::copy(bytes.begin(), bytes.end(), m_data);
}

SecureBuffer SecureBuffer::fromString(std::string_view text)
{
    return SecureBuffer(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

SecureBuffer::~SecureBuffer()
{
    release();
}

SecureBuffer::SecureBuffer(SecureBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0))
{}

SecureBuffer& SecureBuffer::operator=(SecureBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
    }
    return *this;
}

SecureBuffer SecureBuffer::clone() const
{
    return SecureBuffer(span());
}

void SecureBuffer::truncate(std::size_t newSize) noexcept
{
    if (newSize >= m_size)
        return;
    secureWipe(m_data + newSize, m_size - newSize);
    m_size = newSize;
}

void SecureBuffer::release() noexcept
{
    // The allocation keeps its original size even after truncate(); wiping
    // m_size bytes is enough because truncate() wiped the rest.
    secureWipe(m_data, m_size);
    delete[] m_data;
    m_data = nullptr;
    m_size = 0;
}

} // namespace watchword
