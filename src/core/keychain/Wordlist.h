// The BIP39 English wordlist (BIP-0039, "Wordlists"), compiled into the
// library from resources/bip39/english.txt when the build is configured; the
// configure step refuses a file that is not the published list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace watchword::keychain {

inline constexpr std::size_t wordlistSize = 2048; // 11 bits per word

// Word i of the list is the mnemonic word for the 11-bit value i.
std::span<const std::string_view, wordlistSize> englishWordlist() noexcept;

// The index of word (exactly as listed: lower-case ASCII), or nullopt. Binary
// search over the sorted list. Its timing depends on the word, which is fine
// for decoding a phrase the user types in once, not for a hot loop on secrets.
std::optional<std::uint16_t> wordIndex(std::string_view word) noexcept;

} // namespace watchword::keychain
