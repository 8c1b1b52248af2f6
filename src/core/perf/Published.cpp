#include "perf/Published.h"

#include <algorithm>

namespace watchword::perf {

namespace {

constexpr double us = 1e3;
constexpr double ms = 1e6;

} // namespace

const std::vector<PublishedFigure>& publishedFigures()
{
    // The wallet report: Criterion, 50 samples, on an Apple M2 Pro with a
    // pure-Rust secp256k1 (low, point, high). The watch notes: the Connect
    // IQ simulator on a desktop, the average per call (one figure).
    static const std::string wallet = "wallet report, Apple M2 Pro";
    static const std::string watch = "watch notes, Connect IQ simulator";
    static const std::vector<PublishedFigure> figures{
        {"keychain/new_os_random", wallet, 3.11 * ms, 3.21 * ms, 3.34 * ms},
        {"keychain/new_mnemonic", wallet, 3.05 * ms, 3.11 * ms, 3.23 * ms},
        {"shared_secret_key/sender_dh", wallet, 76.7 * us, 78.4 * us, 80.6 * us},
        {"encryption/encrypt", wallet, 1.11 * us, 1.17 * us, 1.25 * us},
        {"encryption/decrypt", wallet, 907, 928, 954},
        {"totp/sha1", watch, 0.35 * ms, 0.35 * ms, 0.35 * ms},
        {"totp/sha256", watch, 0.05 * ms, 0.05 * ms, 0.05 * ms},
        {"totp/sha512", watch, 17.5 * ms, 17.5 * ms, 17.5 * ms},
        {"pbkdf2/sha256_1000", watch, 52 * ms, 52 * ms, 52 * ms},
        {"record/seal_open", watch, 0.25 * ms, 0.25 * ms, 0.25 * ms},
        {"selftest/startup", watch, 6.7 * ms, 6.7 * ms, 6.7 * ms},
    };
    return figures;
}

const PublishedFigure* publishedFigure(std::string_view benchmark)
{
    const auto& figures = publishedFigures();
    const auto found = std::find_if(figures.begin(), figures.end(), [&](const auto& figure) {
        return figure.benchmark == benchmark;
    });
    return found == figures.end() ? nullptr : &*found;
}

} // namespace watchword::perf
