#include "Comparisons.h"

namespace watchword::bench {

const std::vector<Comparison>& comparisons()
{
    using Kind = Comparison::Kind;
    static const std::vector<Comparison> list = {
        {"pbkdf2/sha512_2048/watchword", "pbkdf2/sha512_2048/openssl_pkcs5", Kind::AtLeastFaster,
         1.6, "PBKDF2-HMAC-SHA512, 2048 rounds (BIP39 seed), against PKCS5_PBKDF2_HMAC"},
        {"pbkdf2/sha512_2048/watchword", "pbkdf2/sha512_2048/floor_4096_compressions",
         Kind::AtMostSlower, 1.10,
         "PBKDF2-HMAC-SHA512, 2048 rounds, against 2 x 2048 bare SHA-512 compressions"},
        {"pbkdf2/sha256_1000/watchword", "pbkdf2/sha256_1000/openssl_pkcs5", Kind::AtLeastFaster,
         2.2, "PBKDF2-HMAC-SHA256, 1000 rounds, against PKCS5_PBKDF2_HMAC"},
        {"pbkdf2/sha1_1000/watchword", "pbkdf2/sha1_1000/openssl_pkcs5", Kind::AtLeastFaster, 1.0,
         "PBKDF2-HMAC-SHA1, 1000 rounds, against PKCS5_PBKDF2_HMAC (no target; must not be "
         "slower)"},
        {"totp/sha1/watchword", "totp/sha1/openssl_hmac_oneshot", Kind::AtLeastFaster, 8.0,
         "TOTP SHA-1 with a prepared key, against one-shot HMAC() plus truncation"},
        {"totp/sha256/watchword", "totp/sha256/openssl_hmac_oneshot", Kind::AtLeastFaster, 8.0,
         "TOTP SHA-256 with a prepared key, against one-shot HMAC() plus truncation"},
        {"totp/sha512/watchword", "totp/sha512/openssl_hmac_oneshot", Kind::AtLeastFaster, 4.0,
         "TOTP SHA-512 with a prepared key, against one-shot HMAC() plus truncation"},
        {"shared_secret_key/sender_dh", "shared_secret_key/sender_dh_raw_libsecp256k1",
         Kind::AtMostSlower, 1.05, "sender DH, against the raw libsecp256k1 calls it is made of"},
        {"totp/sha1/watchword", "totp/sha1/openssl_evp_mac_fresh", Kind::AtLeastFaster, 1.0,
         "TOTP SHA-1 with a prepared key, against a new EVP_MAC_CTX per code (no target; must "
         "not be slower)"},
        {"keychain/new_mnemonic", "keychain/new_mnemonic_openssl_pbkdf2", Kind::AtLeastFaster, 1.0,
         "keychain from a 24-word phrase, against the same path with PKCS5_PBKDF2_HMAC for the "
         "BIP39 seed (no target; must not be slower)"},
        {"aes_cbc/encrypt_64_prepared", "aes_cbc/encrypt_64_fresh_context", Kind::AtLeastFaster,
         1.0,
         "AES-256-CBC of 64 bytes with a prepared key schedule, against a fresh EVP context "
         "per message (no target; must not be slower)"},
        {"random/getrandom_16", "random/openssl_rand_bytes_16", Kind::AtLeastFaster, 1.0,
         "16 random bytes from getrandom(2), against RAND_bytes (no target; must not be slower)"},
        {"vault/calibrated_iterations/watchword", "vault/calibrated_iterations/openssl_pkcs5",
         Kind::AtLeastFaster, 2.0,
         "PBKDF2-HMAC-SHA256 iterations that fit in 1 s (a fixed batch timed), ours against "
         "PKCS5_PBKDF2_HMAC: the password slot's calibrated count"},
    };
    return list;
}

std::vector<ComparisonOutcome> evaluate(const std::map<std::string, double>& medians)
{
    std::vector<ComparisonOutcome> outcomes;
    for (const auto& comparison : comparisons()) {
        const auto subject = medians.find(comparison.subject);
        const auto reference = medians.find(comparison.reference);
        if (subject == medians.end() || reference == medians.end() || subject->second <= 0)
            continue;
        const double ratio = comparison.kind == Comparison::Kind::AtLeastFaster
                                 ? reference->second / subject->second
                                 : subject->second / reference->second;
        const bool met = comparison.kind == Comparison::Kind::AtLeastFaster
                             ? ratio >= comparison.target
                             : ratio <= comparison.target;
        outcomes.push_back({&comparison, ratio, met});
    }
    return outcomes;
}

std::vector<const Comparison*> halfMeasured(const std::map<std::string, double>& medians)
{
    std::vector<const Comparison*> result;
    for (const auto& comparison : comparisons()) {
        const bool subjectRan = medians.contains(comparison.subject);
        const bool referenceRan = medians.contains(comparison.reference);
        if (subjectRan != referenceRan)
            result.push_back(&comparison);
    }
    return result;
}

} // namespace watchword::bench
