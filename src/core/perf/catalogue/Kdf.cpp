// pbkdf2/*: our PBKDF2 against OpenSSL's PKCS5_PBKDF2_HMAC and against the
// floor, the bare compressions it cannot avoid.
#include "crypto/Kdf.h"

#include "base/SecureBuffer.h"
#include "perf/catalogue/Catalogue.h"

#include <array>
#include <openssl/evp.h>
#include <string_view>

// The floor calls the raw block function, as our PBKDF2 does.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <openssl/sha.h>

namespace watchword::perf::entries {

namespace {

using crypto::HashAlgorithm;

// The BIP39 shape: a 24-word mnemonic as password, "mnemonic" + passphrase as salt.
constexpr std::string_view kPassword =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon art";
constexpr std::string_view kSalt = "mnemonicTREZOR";

Benchmark ours(std::string name, HashAlgorithm algorithm, std::uint32_t rounds,
               std::string description)
{
    return {std::move(name), std::move(description), static_cast<double>(rounds), "rounds",
            [algorithm, rounds] {
                const Pbkdf2Input input = bip39ShapedPbkdf2(algorithm, rounds);
                if (ourPbkdf2(input).empty())
                    return notPrepared("pbkdf2 failed (crypto disabled?)");
                return prepared(loop([input, out = SecureBuffer(input.outputSize)]() mutable {
                    const auto result = crypto::pbkdf2(input.algorithm, input.password, input.salt,
                                                       input.rounds, out.span());
                    keep(result.ok());
                    keep(out.data()[0]);
                }));
            }};
}

Benchmark openssl(std::string name, HashAlgorithm algorithm, std::uint32_t rounds,
                  std::string description)
{
    return {std::move(name), std::move(description), static_cast<double>(rounds), "rounds",
            [algorithm, rounds] {
                const Pbkdf2Input input = bip39ShapedPbkdf2(algorithm, rounds);
                return prepareOpenSslPbkdf2(input, ourPbkdf2(input));
            }};
}

// 2 x 2048 SHA-512 compressions on one block: what PBKDF2-HMAC-SHA512 of 2048
// rounds cannot go below.
Prepared prepareSha512Floor()
{
    SHA512_CTX context;
    SHA512_Init(&context);
    return prepared(loop([context, block = std::array<unsigned char, 128>{1, 2, 3}]() mutable {
        for (int i = 0; i < 2 * 2048; ++i)
            SHA512_Transform(&context, block.data());
        keep(context.h[0]);
    }));
}

} // namespace

Pbkdf2Input bip39ShapedPbkdf2(HashAlgorithm algorithm, std::uint32_t rounds)
{
    return {algorithm, asBytes(kPassword), asBytes(kSalt), rounds, crypto::digestSize(algorithm)};
}

Bytes ourPbkdf2(const Pbkdf2Input& input)
{
    Bytes out(input.outputSize);
    if (!crypto::pbkdf2(input.algorithm, input.password, input.salt, input.rounds, out))
        return {};
    return out;
}

Prepared prepareOpenSslPbkdf2(const Pbkdf2Input& input, ByteView expected)
{
    const auto derive = [input](std::span<std::uint8_t> out) {
        return PKCS5_PBKDF2_HMAC(reinterpret_cast<const char*>(input.password.data()),
                                 static_cast<int>(input.password.size()), input.salt.data(),
                                 static_cast<int>(input.salt.size()),
                                 static_cast<int>(input.rounds),
                                 crypto::openSslDigest(input.algorithm),
                                 static_cast<int>(out.size()), out.data()) == 1;
    };
    SecureBuffer out(input.outputSize);
    if (!derive(out.span()) || !constantTimeEqual(out, expected))
        return notTheSameWork("PKCS5_PBKDF2_HMAC", "crypto::pbkdf2");
    return prepared(loop([derive, out = std::move(out)]() mutable {
        const bool ok = derive(out.span());
        keep(ok);
        keep(out.data()[0]);
    }));
}

std::vector<Benchmark> kdfBenchmarks()
{
    return {
        ours("pbkdf2/sha256_1000", HashAlgorithm::Sha256, 1000,
             "PBKDF2-HMAC-SHA256, 1000 rounds, a 24-word phrase as password"),
        ours("pbkdf2/sha512_2048", HashAlgorithm::Sha512, 2048,
             "PBKDF2-HMAC-SHA512, 2048 rounds: the BIP39 seed of a 24-word phrase"),
        openssl("ref/openssl_pkcs5_pbkdf2_sha256_1000", HashAlgorithm::Sha256, 1000,
                "pbkdf2/sha256_1000 through OpenSSL's PKCS5_PBKDF2_HMAC"),
        openssl("ref/openssl_pkcs5_pbkdf2_sha512_2048", HashAlgorithm::Sha512, 2048,
                "pbkdf2/sha512_2048 through OpenSSL's PKCS5_PBKDF2_HMAC"),
        {"ref/sha512_floor_4096_compressions",
         "2 x 2048 bare SHA-512 compressions: the least PBKDF2-HMAC-SHA512 of 2048 rounds can do",
         0, "", prepareSha512Floor},
    };
}

} // namespace watchword::perf::entries

#pragma GCC diagnostic pop
