// Memory for secrets: keys, seeds, passwords, plaintext. Wiped when it dies,
// move-only so a secret is never duplicated by accident.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace watchword {

// Overwrites memory in a way the compiler may not optimize out.
void secureWipe(void* data, std::size_t size) noexcept;

// Compares two byte ranges in time that depends only on their lengths.
// Ranges of different length compare unequal.
[[nodiscard]] bool constantTimeEqual(std::span<const std::uint8_t> a,
                                     std::span<const std::uint8_t> b) noexcept;

class SecureBuffer
{
public:
    SecureBuffer() noexcept = default;
    // size zero bytes.
    explicit SecureBuffer(std::size_t size);
    // A copy of bytes (the source stays the caller's to wipe).
    explicit SecureBuffer(std::span<const std::uint8_t> bytes);
    static SecureBuffer fromString(std::string_view text);

    ~SecureBuffer();
    SecureBuffer(SecureBuffer&& other) noexcept;
    SecureBuffer& operator=(SecureBuffer&& other) noexcept;
    SecureBuffer(const SecureBuffer&) = delete;
    SecureBuffer& operator=(const SecureBuffer&) = delete;

    // An explicit copy, for the rare place that needs two.
    [[nodiscard]] SecureBuffer clone() const;

    std::uint8_t* data() noexcept { return m_data; }
    const std::uint8_t* data() const noexcept { return m_data; }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_size == 0; }
    std::uint8_t* begin() noexcept { return m_data; }
    std::uint8_t* end() noexcept { return m_data + m_size; }
    const std::uint8_t* begin() const noexcept { return m_data; }
    const std::uint8_t* end() const noexcept { return m_data + m_size; }
    std::uint8_t& operator[](std::size_t i) noexcept { return m_data[i]; }
    const std::uint8_t& operator[](std::size_t i) const noexcept { return m_data[i]; }

    std::span<std::uint8_t> span() noexcept { return {m_data, m_size}; }
    std::span<const std::uint8_t> span() const noexcept { return {m_data, m_size}; }
    operator std::span<const std::uint8_t>() const noexcept { return span(); }
    // The bytes as text, for secrets that are text (a mnemonic, a password).
    std::string_view view() const noexcept
    {
        return {reinterpret_cast<const char*>(m_data), m_size};
    }

    // Shrinks to newSize (<= size()), wiping the bytes given up.
    void truncate(std::size_t newSize) noexcept;

private:
    void release() noexcept;

    std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace watchword
