#include "Comparisons.h"

namespace watchword::bench {

const std::vector<Comparison>& comparisons()
{
    using Kind = Comparison::Kind;
    static const std::vector<Comparison> list = {
        {"pbkdf2/sha512_2048/watchword", "pbkdf2/sha512_2048/openssl_pkcs5", Kind::AtLeastFaster, 1.6,
         "PBKDF2-HMAC-SHA512, 2048 rounds (BIP39 seed), against PKCS5_PBKDF2_HMAC"},
        {"pbkdf2/sha512_2048/watchword", "pbkdf2/sha512_2048/floor_4096_compressions", Kind::AtMostSlower,
         1.10, "PBKDF2-HMAC-SHA512, 2048 rounds, against 2 x 2048 bare SHA-512 compressions"},
        {"pbkdf2/sha256_1000/watchword", "pbkdf2/sha256_1000/openssl_pkcs5", Kind::AtLeastFaster, 2.2,
         "PBKDF2-HMAC-SHA256, 1000 rounds, against PKCS5_PBKDF2_HMAC"},
        {"pbkdf2/sha1_1000/watchword", "pbkdf2/sha1_1000/openssl_pkcs5", Kind::AtLeastFaster, 1.0,
         "PBKDF2-HMAC-SHA1, 1000 rounds, against PKCS5_PBKDF2_HMAC (no target; must not be slower)"},
        {"totp/sha1/watchword", "totp/sha1/openssl_hmac_oneshot", Kind::AtLeastFaster, 8.0,
         "TOTP SHA-1 with a prepared key, against one-shot HMAC() plus truncation"},
        {"totp/sha256/watchword", "totp/sha256/openssl_hmac_oneshot", Kind::AtLeastFaster, 8.0,
         "TOTP SHA-256 with a prepared key, against one-shot HMAC() plus truncation"},
        {"totp/sha512/watchword", "totp/sha512/openssl_hmac_oneshot", Kind::AtLeastFaster, 4.0,
         "TOTP SHA-512 with a prepared key, against one-shot HMAC() plus truncation"},
        {"shared_secret_key/sender_dh", "shared_secret_key/sender_dh_raw_libsecp256k1",
         Kind::AtMostSlower, 1.05, "sender DH, against the raw libsecp256k1 calls it is made of"},
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

} // namespace watchword::bench
