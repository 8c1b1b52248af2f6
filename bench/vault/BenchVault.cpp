// vault/*: the costs behind the vault's performance targets (issue 3).
//
//   vault/unlock_kdf               the password slot's KDF alone: PBKDF2-HMAC-SHA256
//                                  at the floor count, 600,000 iterations
//   vault/unlock_rest/N            unlocking a vault of N OTP accounts without
//                                  that KDF (target: <= 15 ms for 10,000), its
//                                  records spread over the cores as the product does
//   vault/unlock_rest_one_worker/N the same with every record on one thread
//   vault/unlock_recovery_kek      what unlock_rest/N still contains besides
//                                  the records: the recovery slot's KEK
//   vault/serialize/10000          the file of 10,000 records after one edit, no I/O
//   vault/save/10000               the same plus the atomic save with its fsyncs
//                                  (target: <= 50 ms plus the fsyncs)
//   vault/calibrated_iterations/*  how many PBKDF2-HMAC-SHA256 iterations fit in
//                                  one second, ours against PKCS5_PBKDF2_HMAC
//                                  (target: ours >= 2x; the ratio is in Comparisons.cpp)
//
// How the KDF is kept out of unlock_rest: Vault::unlockWithPassword runs the
// PBKDF2 inside, so it cannot be paused around, and subtracting a separate
// 60-ms PBKDF2 measurement from a full unlock would bury a few milliseconds of
// record work in the noise of the difference. Instead unlock_rest times
// Vault::unlockWithRecovery: the same opening steps (parse and checksum,
// unwrap the master key, record keys, manifest, open and decode every
// record), with a KEK that costs one secp256k1 ECDH and an HKDF instead of
// PBKDF2. So unlock_rest/N is "unlock with the KDF excluded" plus one ECDH,
// which vault/unlock_recovery_kek measures on its own for whoever wants to
// subtract it.
#include "BenchSupport.h"
#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/Random.h"
#include "keychain/Keychain.h"
#include "otp/OtpParameters.h"
#include "share/SenderDh.h"
#include "vault/Calibration.h"
#include "vault/Records.h"
#include "vault/Storage.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <openssl/evp.h>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

namespace {

using watchword::asBytes;
using watchword::Bytes;
using watchword::ByteView;
using watchword::SecureBuffer;
using watchword::crypto::HashAlgorithm;
using watchword::keychain::Keychain;
using watchword::vault::Vault;

// A 24-word BIP39 English test vector (entropy 68a79eac...e6ce7c): the
// recovery phrase of every benchmark vault.
constexpr std::string_view kPhrase =
    "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy "
    "gospel tennis maple dilemma loan word shrug inflict delay length";
constexpr std::string_view kPassword = "correct horse battery staple";
// 2026-01-01T00:00:00Z: the vaults' clock, fixed so every run builds the same shape.
constexpr std::int64_t kNow = 1'767'225'600;

// The password slot's shape: a 32-byte salt, a 32-byte KEK.
const Bytes& slotSalt()
{
    static const Bytes salt = watchword::bench::bytesFromHex(
        "8f1d6a2be04c3977a5f0c2d81e6b4a9035c7e2f84d1a6b903e5c7a2d4f6b8e01");
    return salt;
}

// The n-th of a vault's OTP accounts, shaped like a real one: issuer, account
// name, a 20-byte SHA-1 secret (RFC 4226's size), TOTP 6 digits 30 s, one tag.
watchword::vault::OtpAccount account(std::size_t n, watchword::crypto::RandomSource& random)
{
    watchword::vault::OtpAccount result;
    result.issuer = "Example Service " + std::to_string(n);
    result.accountName = "user" + std::to_string(n) + "@example.com";
    result.secret = SecureBuffer(20);
    random.fill(result.secret.span());
    result.parameters = watchword::otp::OtpParameters{};
    result.tags = {"work"};
    result.created = kNow;
    result.modified = kNow;
    result.sortPosition = static_cast<std::uint32_t>(n);
    return result;
}

// A vault of n accounts as a file, with the keychain that opens its recovery
// slot. Built once per n (creating one runs the 600,000-iteration KDF) and
// shared by the benchmarks.
struct VaultFixture
{
    Keychain keychain;
    Bytes file;
};

// The fixture for n records, or an error message.
const VaultFixture* fixture(std::size_t n, std::string& error)
{
    static std::map<std::size_t, std::unique_ptr<VaultFixture>> built;
    if (const auto found = built.find(n); found != built.end())
        return found->second.get();
    auto keychain = Keychain::restore(kPhrase);
    if (!keychain) {
        error = "keychain: " + keychain.error().message;
        return nullptr;
    }
    auto& random = watchword::crypto::systemRandom();
    const watchword::vault::Calibration calibration{watchword::vault::minimumPasswordIterations,
                                                    watchword::vault::defaultTargetMilliseconds, 0};
    auto vault = Vault::create(asBytes(kPassword), *keychain, calibration, random, kNow);
    if (!vault) {
        error = "create: " + vault.error().message;
        return nullptr;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (auto added = vault->add(account(i, random), random); !added) {
            error = "add: " + added.error().message;
            return nullptr;
        }
    }
    auto file = vault->serialize(random, kNow);
    if (!file) {
        error = "serialize: " + file.error().message;
        return nullptr;
    }
    auto made =
        std::make_unique<VaultFixture>(VaultFixture{std::move(*keychain), std::move(*file)});
    return built.emplace(n, std::move(made)).first->second.get();
}

// An unlocked vault of n records, or nullopt with error set.
std::optional<Vault> unlockedVault(std::size_t n, std::string& error)
{
    const auto* built = fixture(n, error);
    if (built == nullptr)
        return std::nullopt;
    auto vault = Vault::unlockWithRecovery(built->file, built->keychain);
    if (!vault) {
        error = "unlock: " + vault.error().message;
        return std::nullopt;
    }
    return std::move(*vault);
}

// One edit, as the user makes it: the first record's modification time moves
// on (so it is sealed afresh on the next serialize), the rest stay as read.
bool editOneRecord(Vault& vault, std::int64_t now, std::string& error)
{
    auto edited = watchword::vault::cloneRecord(vault.record(0));
    std::get<watchword::vault::OtpAccount>(edited).modified = now;
    if (auto updated = vault.update(std::move(edited)); !updated) {
        error = "update: " + updated.error().message;
        return false;
    }
    return true;
}

void unlockKdf(benchmark::State& state)
{
    SecureBuffer kek(32);
    for (auto _ : state) {
        const auto derived =
            watchword::crypto::pbkdf2(HashAlgorithm::Sha256, asBytes(kPassword), slotSalt(),
                                      watchword::vault::minimumPasswordIterations, kek.span());
        benchmark::DoNotOptimize(derived.ok());
        benchmark::DoNotOptimize(kek.data());
    }
}

// Unlocking n records (state.range(0)) with the given worker count (0: as
// the product does, one per 512 records up to the cores).
void timeUnlockRest(benchmark::State& state, std::size_t workers)
{
    const auto n = static_cast<std::size_t>(state.range(0));
    std::string error;
    const auto* built = fixture(n, error);
    if (built == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    if (auto check = Vault::unlockWithRecovery(built->file, built->keychain);
        !check || check->recordCount() != n) {
        state.SkipWithError("the benchmark vault does not open with its recovery phrase");
        return;
    }
    // Unlocking is timed; dropping the previous iteration's vault (freeing
    // and wiping 10,000 records) is not: that is locking, not unlocking.
    std::optional<watchword::vault::VaultResult<Vault>> vault;
    for (auto _ : state) {
        state.PauseTiming();
        vault.reset();
        state.ResumeTiming();
        vault.emplace(Vault::unlockWithRecovery(built->file, built->keychain, {workers}));
        benchmark::DoNotOptimize(vault->ok());
    }
    state.counters["records"] = static_cast<double>(n);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(built->file.size()));
}

void unlockRest(benchmark::State& state)
{
    timeUnlockRest(state, 0);
}

// The same on the calling thread alone: what one core costs.
void unlockRestOneWorker(benchmark::State& state)
{
    timeUnlockRest(state, 1);
}

// The recovery slot's KEK alone: the part of unlock_rest that is not record work.
void unlockRecoveryKek(benchmark::State& state)
{
    std::string error;
    const auto* built = fixture(10, error);
    if (built == nullptr) {
        state.SkipWithError(error.c_str());
        return;
    }
    auto parsed = watchword::vault::parseVault(built->file);
    if (!parsed || !parsed->recoverySlot) {
        state.SkipWithError("the benchmark vault has no recovery slot");
        return;
    }
    const ByteView ephemeral = parsed->recoverySlot->subspan(
        watchword::crypto::PublicKey::compressedSize, watchword::crypto::PublicKey::compressedSize);
    for (auto _ : state) {
        auto kek = watchword::share::recipientNoteKey(
            built->keychain.identitySecretKey(), built->keychain.identityPublicKey(), ephemeral);
        benchmark::DoNotOptimize(kek.ok());
    }
}

void serializeVault(benchmark::State& state)
{
    const auto n = static_cast<std::size_t>(state.range(0));
    std::string error;
    auto vault = unlockedVault(n, error);
    if (!vault) {
        state.SkipWithError(error.c_str());
        return;
    }
    auto& random = watchword::crypto::systemRandom();
    std::int64_t now = kNow;
    for (auto _ : state) {
        state.PauseTiming();
        const bool edited = editOneRecord(*vault, ++now, error);
        state.ResumeTiming();
        if (!edited) {
            state.SkipWithError(error.c_str());
            break;
        }
        auto file = vault->serialize(random, now);
        if (!file) {
            state.SkipWithError(file.error().message.c_str());
            break;
        }
        benchmark::DoNotOptimize(file->data());
    }
    state.counters["records"] = static_cast<double>(n);
}

// A fresh directory for the saved vault, removed when the benchmark ends.
class TemporaryDirectory
{
public:
    TemporaryDirectory()
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "watchword-bench-XXXXXX").string();
        if (mkdtemp(pattern.data()) != nullptr)
            m_path = pattern;
    }
    ~TemporaryDirectory()
    {
        if (!m_path.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(m_path, ignored);
        }
    }
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

    bool made() const noexcept { return !m_path.empty(); }
    const std::string& path() const noexcept { return m_path; }

private:
    std::string m_path;
};

void saveVault(benchmark::State& state)
{
    const auto n = static_cast<std::size_t>(state.range(0));
    std::string error;
    auto vault = unlockedVault(n, error);
    if (!vault) {
        state.SkipWithError(error.c_str());
        return;
    }
    const TemporaryDirectory directory;
    if (!directory.made()) {
        state.SkipWithError("cannot make a temporary directory");
        return;
    }
    auto& random = watchword::crypto::systemRandom();
    std::int64_t now = kNow;
    auto first = vault->serialize(random, now);
    if (!first) {
        state.SkipWithError(first.error().message.c_str());
        return;
    }
    // The product's defaults, rolling backups included.
    auto storage =
        watchword::vault::VaultStorage::create(directory.path() + "/vault.wwv", *first, random);
    if (!storage) {
        state.SkipWithError(storage.error().message.c_str());
        return;
    }
    for (auto _ : state) {
        state.PauseTiming();
        const bool edited = editOneRecord(*vault, ++now, error);
        state.ResumeTiming();
        if (!edited) {
            state.SkipWithError(error.c_str());
            break;
        }
        auto file = vault->serialize(random, now);
        if (!file) {
            state.SkipWithError(file.error().message.c_str());
            break;
        }
        if (auto saved = storage->save(*file); !saved) {
            state.SkipWithError(saved.error().message.c_str());
            break;
        }
    }
    state.counters["records"] = static_cast<double>(n);
}

// Iterations per run of the calibration benchmarks: a fixed batch, so the two
// sides' times per iteration compare directly (Comparisons.cpp); 100,000 is
// about a tenth of a second's worth, long enough to dwarf the call overhead.
constexpr std::uint32_t kCalibrationBatch = 100'000;

// iterations_in_1s: the batch over the time it took, i.e. the count a 1-second
// calibration would pick (before clamping to the floor and ceiling).
void countIterationsPerSecond(benchmark::State& state)
{
    state.counters["iterations_in_1s"] = benchmark::Counter(
        static_cast<double>(kCalibrationBatch), benchmark::Counter::kIsIterationInvariantRate);
}

void calibratedIterationsOurs(benchmark::State& state)
{
    SecureBuffer kek(32);
    for (auto _ : state) {
        const auto derived = watchword::crypto::pbkdf2(HashAlgorithm::Sha256, asBytes(kPassword),
                                                       slotSalt(), kCalibrationBatch, kek.span());
        benchmark::DoNotOptimize(derived.ok());
        benchmark::DoNotOptimize(kek.data());
    }
    countIterationsPerSecond(state);
}

void calibratedIterationsOpenSsl(benchmark::State& state)
{
    SecureBuffer kek(32);
    const Bytes& salt = slotSalt();
    for (auto _ : state) {
        const int ok =
            PKCS5_PBKDF2_HMAC(kPassword.data(), static_cast<int>(kPassword.size()), salt.data(),
                              static_cast<int>(salt.size()), static_cast<int>(kCalibrationBatch),
                              EVP_sha256(), static_cast<int>(kek.size()), kek.data());
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(kek.data());
    }
    countIterationsPerSecond(state);
}

BENCHMARK(unlockKdf)->Name("vault/unlock_kdf")->Unit(benchmark::kMillisecond);
BENCHMARK(unlockRest)
    ->Name("vault/unlock_rest")
    ->Arg(10)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(unlockRestOneWorker)
    ->Name("vault/unlock_rest_one_worker")
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(unlockRecoveryKek)->Name("vault/unlock_recovery_kek")->Unit(benchmark::kMicrosecond);
BENCHMARK(serializeVault)->Name("vault/serialize")->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(saveVault)->Name("vault/save")->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(calibratedIterationsOurs)
    ->Name("vault/calibrated_iterations/watchword")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(calibratedIterationsOpenSsl)
    ->Name("vault/calibrated_iterations/openssl_pkcs5")
    ->Unit(benchmark::kMillisecond);

} // namespace
