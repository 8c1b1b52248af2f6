#include "keychain/Bip39.h"

#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "keychain/Wordlist.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>

namespace watchword::keychain {

namespace {

constexpr std::size_t bitsPerWord = 11;
constexpr std::size_t maximumWords = 24;
// Entropy plus the checksum byte: 24 words * 11 bits = 264 bits = 33 bytes.
constexpr std::size_t maximumPackedSize = 33;
using Packed = std::array<std::uint8_t, maximumPackedSize>;

bool isValidEntropySize(std::size_t bytes) noexcept
{
    return bytes >= 16 && bytes <= 32 && bytes % 4 == 0;
}

// The first byte of SHA-256(entropy): BIP39 takes at most 8 checksum bits.
std::uint8_t checksumByte(ByteView entropy) noexcept
{
    auto digest = crypto::sha256(entropy);
    const std::uint8_t first = digest[0];
    secureWipe(digest.data(), digest.size());
    return first;
}

unsigned readBits(const Packed& packed, std::size_t offset, std::size_t count) noexcept
{
    unsigned value = 0;
    for (std::size_t bit = offset; bit < offset + count; ++bit)
        value = (value << 1) | ((packed[bit / 8] >> (7 - bit % 8)) & 1u);
    return value;
}

void writeBits(Packed& packed, std::size_t offset, std::size_t count, unsigned value) noexcept
{
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t bit = offset + i;
        const unsigned one = (value >> (count - 1 - i)) & 1u;
        packed[bit / 8] = static_cast<std::uint8_t>(packed[bit / 8] | (one << (7 - bit % 8)));
    }
}

bool isAsciiSpace(char c) noexcept
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

} // namespace

KeychainResult<SecureBuffer> entropyToMnemonic(ByteView entropy)
{
    if (!isValidEntropySize(entropy.size()))
        return fail(KeychainError::InvalidEntropySize,
                    "BIP39 entropy is 16, 20, 24, 28 or 32 bytes, not " +
                        std::to_string(entropy.size()));
    const std::uint8_t checksum = checksumByte(entropy);

    Packed packed{};
    std::copy(entropy.begin(), entropy.end(), packed.begin());
    packed[entropy.size()] = checksum;
    const std::size_t wordCount = entropy.size() * 3 / 4;

    const auto words = englishWordlist();
    std::array<std::uint16_t, maximumWords> indices{};
    std::size_t length = wordCount - 1; // the spaces
    for (std::size_t i = 0; i < wordCount; ++i) {
        indices[i] = static_cast<std::uint16_t>(readBits(packed, i * bitsPerWord, bitsPerWord));
        length += words[indices[i]].size();
    }
    SecureBuffer mnemonic(length);
    auto out = mnemonic.begin();
    for (std::size_t i = 0; i < wordCount; ++i) {
        if (i != 0)
            *out++ = ' ';
        out = std::copy(words[indices[i]].begin(), words[indices[i]].end(), out);
    }
    secureWipe(packed.data(), packed.size());
    secureWipe(indices.data(), sizeof indices);
    return mnemonic;
}

KeychainResult<SecureBuffer> mnemonicToEntropy(std::string_view mnemonic)
{
    const std::size_t wordCount =
        mnemonic.empty()
            ? 0
            : static_cast<std::size_t>(std::count(mnemonic.begin(), mnemonic.end(), ' ')) + 1;
    if (!isValidWordCount(wordCount))
        return fail(KeychainError::InvalidWordCount,
                    "a recovery phrase has 12, 15, 18, 21 or 24 words, not " +
                        std::to_string(wordCount));

    Packed packed{};
    std::size_t position = 0;
    for (std::size_t i = 0; i < wordCount; ++i) {
        const std::size_t end = std::min(mnemonic.find(' ', position), mnemonic.size());
        const auto index = wordIndex(mnemonic.substr(position, end - position));
        if (!index) {
            secureWipe(packed.data(), packed.size());
            return fail(KeychainError::UnknownWord, "word " + std::to_string(i + 1) +
                                                        " of the recovery phrase is not in "
                                                        "the BIP39 English wordlist");
        }
        writeBits(packed, i * bitsPerWord, bitsPerWord, *index);
        position = end + 1;
    }

    const std::size_t entropySize = entropySizeForWordCount(wordCount);
    const std::size_t checksumBits = entropySize / 4; // ENT / 32, with ENT in bits
    SecureBuffer entropy(ByteView(packed.data(), entropySize));
    const unsigned given = packed[entropySize] >> (8 - checksumBits);
    secureWipe(packed.data(), packed.size());
    const std::uint8_t checksum = checksumByte(entropy);
    if (((checksum >> (8 - checksumBits)) ^ given) != 0)
        return fail(
            KeychainError::BadChecksum,
            "the recovery phrase's checksum does not match: a word is wrong or out of order");
    return entropy;
}

SecureBuffer normalizeMnemonic(std::string_view text)
{
    SecureBuffer normalized(text.size());
    std::size_t length = 0;
    bool pendingSpace = false;
    for (const char c : text) {
        if (isAsciiSpace(c)) {
            pendingSpace = length != 0;
            continue;
        }
        if (pendingSpace) {
            normalized[length++] = ' ';
            pendingSpace = false;
        }
        normalized[length++] = static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    normalized.truncate(length);
    return normalized;
}

KeychainResult<SecureBuffer> mnemonicToSeed(std::string_view mnemonic, std::string_view passphrase)
{
    constexpr std::string_view saltPrefix = "mnemonic";
    SecureBuffer salt(saltPrefix.size() + passphrase.size());
    std::copy(passphrase.begin(), passphrase.end(),
              std::copy(saltPrefix.begin(), saltPrefix.end(), salt.begin()));
    SecureBuffer seed(seedSize);
    auto derived = crypto::pbkdf2(crypto::HashAlgorithm::Sha512, asBytes(mnemonic), salt,
                                  seedIterations, seed.span());
    if (!derived) {
        // 2048 rounds and 64 bytes are always in range: only the switch refuses.
        assert(derived.error().code == crypto::KdfError::CryptoDisabled);
        return derived.failure(KeychainError::CryptoDisabled);
    }
    return seed;
}

} // namespace watchword::keychain
