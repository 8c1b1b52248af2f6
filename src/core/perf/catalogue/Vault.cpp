// calibration/*, vault/*: the costs behind the vault's performance targets
// (issue 3).
//
//   calibration/pbkdf2_1s          one probe of vault::calibratePasswordKdf: how
//                                  many PBKDF2-HMAC-SHA256 rounds fit in a second
//                                  (shown as rounds/s), ours against
//                                  PKCS5_PBKDF2_HMAC (target: ours >= 2x)
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
//   vault/merge/10000              two copies of a 10,000-account vault, each
//                                  with 1,000 accounts changed on its own
//                                  device (100 of them on both), opened with
//                                  the vault's key (no KDF) and merged: what
//                                  `vault merge` does before it saves
//                                  (target: <= 50 ms, issue 20)
//   import/preview/10000           another app's plain export of 10,000
//                                  accounts read and planned against a vault of
//                                  1,000 (1,000 of them already in it): what the
//                                  import preview waits for (target: <= 1 s)
//
// How the KDF is kept out of unlock_rest: Vault::unlockWithPassword runs the
// PBKDF2 inside, so it cannot be timed apart, and subtracting a separate
// 80-ms PBKDF2 measurement from a full unlock would bury a few milliseconds of
// record work in the noise of the difference. Instead unlock_rest times
// Vault::unlockWithRecovery: the same opening steps (parse and checksum,
// unwrap the master key, record keys, manifest, open and decode every
// record), with a KEK that costs one secp256k1 ECDH and an HKDF instead of
// PBKDF2. So unlock_rest/N is "unlock with the KDF excluded" plus one ECDH,
// which vault/unlock_recovery_kek measures on its own for whoever wants to
// subtract it.
//
// The vaults unlock_rest opens are kept until the sample ends and dropped
// after the clock stops (Routine::afterSample): dropping one, about 1.3 ms
// at 10,000 records, is locking, not unlocking. What is inside the timing,
// since a routine cannot pause the clock: each serialize and save iteration
// first makes its one edit (a clone of one record and an update), which is
// small beside sealing and hashing the file.
#include "vault/Vault.h"

#include "base/Bytes.h"
#include "base/SecureBuffer.h"
#include "crypto/Hash.h"
#include "crypto/Kdf.h"
#include "crypto/Random.h"
#include "interop/exporters/Export.h"
#include "interop/importers/Import.h"
#include "interop/importers/ImportPlan.h"
#include "keychain/Keychain.h"
#include "otp/OtpParameters.h"
#include "perf/catalogue/Catalogue.h"
#include "share/SenderDh.h"
#include "vault/Calibration.h"
#include "vault/Records.h"
#include "vault/Storage.h"
#include "vault/VaultFile.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

namespace watchword::perf::entries {

namespace {

using crypto::HashAlgorithm;
using keychain::Keychain;
using vault::Vault;

constexpr std::string_view kPassword = "correct horse battery staple";
// 2026-01-01T00:00:00Z: the vaults' clock, fixed so every run builds the same shape.
constexpr std::int64_t kNow = 1'767'225'600;
// The vault sizes measured; the largest is the target size.
constexpr std::array<std::size_t, 3> kSizes = {10, 1000, 10000};

// Rounds of one calibration/* iteration: a batch vault::calibratePasswordKdf
// itself times on its way up (it starts at 10,000 and doubles), a few
// milliseconds here, long enough to dwarf the call overhead.
constexpr std::uint32_t kCalibrationBatch = 40'000;
// What calibratePasswordKdf derives in each probe: a throwaway password and
// salt of the real shapes (the cost per round does not depend on them) and a
// 32-byte KEK.
constexpr std::array<std::uint8_t, 16> kCalibrationPassword{};
constexpr std::array<std::uint8_t, 32> kCalibrationSalt{};

// The password slot's shape: a 32-byte salt, a 32-byte KEK.
const Bytes& slotSalt()
{
    static const Bytes salt =
        bytesFromHex("8f1d6a2be04c3977a5f0c2d81e6b4a9035c7e2f84d1a6b903e5c7a2d4f6b8e01");
    return salt;
}

// The n-th of a vault's OTP accounts, shaped like a real one: issuer, account
// name, a 20-byte SHA-1 secret (RFC 4226's size), TOTP 6 digits 30 s, one tag.
vault::OtpAccount account(std::size_t n, crypto::RandomSource& random)
{
    vault::OtpAccount result;
    result.issuer = "Example Service " + std::to_string(n);
    result.accountName = "user" + std::to_string(n) + "@example.com";
    result.secret = SecureBuffer(20);
    random.fill(result.secret.span());
    result.parameters = otp::OtpParameters{};
    result.tags = {"work"};
    result.created = kNow;
    result.modified = kNow;
    result.sortPosition = static_cast<std::uint32_t>(n);
    return result;
}

// The files of vaults of every size in kSizes, with the keychain that opens
// their recovery slots. Built once per process (creating a vault runs the
// 600,000-iteration KDF) and shared by every vault benchmark: one vault grows
// through the sizes and is written at each.
struct VaultFixture
{
    Keychain keychain;
    std::map<std::size_t, Bytes> files; // by record count
};

struct FixtureOrError
{
    std::unique_ptr<const VaultFixture> fixture;
    std::string error;
};

FixtureOrError buildFixture()
{
    // kPhrase (Catalogue.h): the recovery phrase of every benchmark vault.
    auto keychain = Keychain::restore(kPhrase);
    if (!keychain)
        return {nullptr, "keychain: " + keychain.error().message};
    auto& random = crypto::systemRandom();
    const vault::Calibration calibration{vault::minimumPasswordIterations,
                                         vault::defaultTargetMilliseconds, 0};
    auto vault = Vault::create(asBytes(kPassword), *keychain, calibration, random, kNow);
    if (!vault)
        return {nullptr, "create: " + vault.error().message};
    std::map<std::size_t, Bytes> files;
    for (const std::size_t size : kSizes) {
        for (std::size_t i = vault->recordCount(); i < size; ++i) {
            if (auto added = vault->add(account(i, random), random); !added)
                return {nullptr, "add: " + added.error().message};
        }
        auto file = vault->serialize(random, kNow);
        if (!file)
            return {nullptr, "serialize: " + file.error().message};
        files.emplace(size, std::move(*file));
    }
    return {
        std::make_unique<const VaultFixture>(VaultFixture{std::move(*keychain), std::move(files)}),
        {}};
}

// The shared fixture, or null with error set.
const VaultFixture* fixture(std::string& error)
{
    static std::once_flag once;
    static FixtureOrError built;
    std::call_once(once, [] { built = buildFixture(); });
    if (!built.fixture)
        error = "the benchmark vaults: " + built.error;
    return built.fixture.get();
}

// An unlocked vault of n records, or nullopt with error set.
std::optional<Vault> unlockedVault(std::size_t n, std::string& error)
{
    const auto* built = fixture(error);
    if (built == nullptr)
        return std::nullopt;
    auto vault = Vault::unlockWithRecovery(built->files.at(n), built->keychain);
    if (!vault) {
        error = "unlock: " + vault.error().message;
        return std::nullopt;
    }
    return std::move(*vault);
}

// One edit, as the user makes it: the first record's modification time moves
// on (so it is sealed afresh on the next serialize), the rest stay as read.
bool editOneRecord(Vault& vault, std::int64_t now)
{
    auto edited = vault::cloneRecord(vault.record(0));
    std::get<vault::OtpAccount>(edited).modified = now;
    return vault.update(std::move(edited)).ok();
}

// ---- the benchmarks ---------------------------------------------------------------

Prepared prepareUnlockKdf()
{
    return prepared(loop([kek = SecureBuffer(32)]() mutable {
        const auto derived = crypto::pbkdf2(HashAlgorithm::Sha256, asBytes(kPassword), slotSalt(),
                                            vault::minimumPasswordIterations, kek.span());
        keep(derived.ok());
        keep(kek.data()[0]);
    }));
}

// Unlocking the vault of n records with the given worker count (0: as the
// product does, one per 512 records up to the cores).
class UnlockRest final : public Routine
{
public:
    UnlockRest(const VaultFixture& fixture, std::size_t n, std::size_t workers)
        : m_keychain(fixture.keychain), m_file(fixture.files.at(n)), m_workers(workers)
    {}

    void run(std::uint64_t iterations) override
    {
        for (std::uint64_t i = 0; i < iterations; ++i) {
            // Kept, not dropped: dropping a vault is locking, not unlocking.
            // Past the cap (a sample of so many iterations that the vaults
            // would fill hundreds of megabytes) the oldest is dropped inside
            // the timing.
            if (m_kept.size() == maximumKept)
                m_kept.pop_front();
            m_kept.push_back(Vault::unlockWithRecovery(m_file, m_keychain, {m_workers}));
            keep(m_kept.back().ok());
        }
    }

    void afterSample() override { m_kept.clear(); }

private:
    // 64 vaults of 10,000 records are about 440 MB.
    static constexpr std::size_t maximumKept = 64;
    const Keychain& m_keychain;
    const Bytes& m_file;
    std::size_t m_workers;
    std::deque<vault::VaultResult<Vault>> m_kept;
};

Benchmark unlockRest(std::size_t n, std::size_t workers)
{
    const bool oneWorker = workers == 1;
    std::string name =
        (oneWorker ? "vault/unlock_rest_one_worker/" : "vault/unlock_rest/") + std::to_string(n);
    std::string description =
        "unlock a vault of " + std::to_string(n) +
        " OTP accounts without the password KDF (the recovery slot's ECDH instead)" +
        (oneWorker ? ", every record on the calling thread" : ", records spread over the cores");
    return {std::move(name), std::move(description), static_cast<double>(n), "records",
            [n, workers]() -> Prepared {
                std::string error;
                const auto* built = fixture(error);
                if (built == nullptr)
                    return notPrepared(error);
                if (auto check = Vault::unlockWithRecovery(built->files.at(n), built->keychain);
                    !check || check->recordCount() != n)
                    return notPrepared(
                        "the benchmark vault does not open with its recovery phrase");
                return prepared(std::make_unique<UnlockRest>(*built, n, workers));
            }};
}

// The recovery slot's KEK alone: the part of unlock_rest that is not record work.
Prepared prepareUnlockRecoveryKek()
{
    std::string error;
    const auto* built = fixture(error);
    if (built == nullptr)
        return notPrepared(error);
    // The views point into the fixture's file, which lives as long as the process.
    auto parsed = vault::parseVault(built->files.at(kSizes.front()));
    if (!parsed || !parsed->recoverySlot)
        return notPrepared("the benchmark vault has no recovery slot");
    // Version 2: kind (1) || R (33) || E (33) || wrapped.
    const ByteView ephemeral = parsed->recoverySlot->subspan(1 + crypto::PublicKey::compressedSize,
                                                             crypto::PublicKey::compressedSize);
    const auto& recovery = built->keychain.recoveryKey();
    if (!share::recipientNoteKey(recovery.secretKey, recovery.publicKey, ephemeral,
                                 vault::recoveryKeyInfo))
        return notPrepared("recipientNoteKey failed");
    return prepared(loop([&recovery, ephemeral] {
        auto kek = share::recipientNoteKey(recovery.secretKey, recovery.publicKey, ephemeral,
                                           vault::recoveryKeyInfo);
        keep(kek.ok());
    }));
}

// The two copies vault/merge/10000 merges and the vault that opens them: the
// 10,000-account file, then on device A accounts 0..999 renamed and on device
// B accounts 900..1899, each saved once.
struct MergeFixture
{
    Vault holder;
    Bytes ours;
    Bytes theirs;
};

std::unique_ptr<MergeFixture> buildMergeFixture(std::string& error)
{
    auto holder = unlockedVault(kSizes.back(), error);
    if (!holder)
        return nullptr;
    const auto edited = [&](std::uint8_t device, std::size_t first) -> std::optional<Bytes> {
        auto copy = unlockedVault(kSizes.back(), error);
        if (!copy)
            return std::nullopt;
        copy->setDevice({device, 0, 0, 0, 0, 0, 0, 1});
        const auto sorted = vault::sortedRecords(*copy);
        std::vector<vault::Record> changes;
        for (std::size_t i = first; i < first + 1000; ++i) {
            auto record = vault::cloneRecord(*sorted[i]);
            auto& account = std::get<vault::OtpAccount>(record);
            account.issuer += device == 0xa0 ? " (A)" : " (B)";
            account.modified = kNow + device;
            changes.push_back(std::move(record));
        }
        for (auto& record : changes)
            if (!copy->update(std::move(record))) {
                error = "the benchmark vault refuses an edit";
                return std::nullopt;
            }
        auto file = copy->serialize(crypto::systemRandom(), kNow + device);
        if (!file) {
            error = file.error().message;
            return std::nullopt;
        }
        return std::move(*file);
    };
    auto ours = edited(0xa0, 0);
    auto theirs = edited(0xb0, 900);
    if (!ours || !theirs)
        return nullptr;
    return std::make_unique<MergeFixture>(
        MergeFixture{std::move(*holder), std::move(*ours), std::move(*theirs)});
}

// Opens both copies with the holder's key and merges; the merged vaults are
// kept until the sample ends (dropping them is not merging).
class MergeCopies final : public Routine
{
public:
    explicit MergeCopies(std::unique_ptr<MergeFixture> fixture) : m_fixture(std::move(fixture)) {}

    void run(std::uint64_t iterations) override
    {
        for (std::uint64_t i = 0; i < iterations; ++i) {
            if (m_kept.size() == maximumKept)
                m_kept.pop_front();
            auto ours = Vault::unlockWithKeyOf(m_fixture->ours, m_fixture->holder);
            auto theirs = Vault::unlockWithKeyOf(m_fixture->theirs, m_fixture->holder);
            const auto report = ours->merge(std::move(*theirs));
            keep(report.ok());
            m_kept.push_back(std::move(ours));
        }
    }

    void afterSample() override { m_kept.clear(); }

    // Whether the merge does what the benchmark says: 1,900 accounts changed
    // between the two, 100 on both sides.
    bool check()
    {
        auto ours = Vault::unlockWithKeyOf(m_fixture->ours, m_fixture->holder);
        auto theirs = Vault::unlockWithKeyOf(m_fixture->theirs, m_fixture->holder);
        if (!ours || !theirs)
            return false;
        const auto report = ours->merge(std::move(*theirs));
        // B's 1,000 are taken: 900 changed there only, 100 changed on both
        // sides where B's later change wins.
        return report && report->conflicts == 100 && report->changed.accounts == 1000 &&
               ours->recordCount() == kSizes.back();
    }

private:
    static constexpr std::size_t maximumKept = 32;
    std::unique_ptr<MergeFixture> m_fixture;
    std::deque<vault::VaultResult<Vault>> m_kept;
};

Prepared prepareMerge()
{
    std::string error;
    auto fixture = buildMergeFixture(error);
    if (!fixture)
        return notPrepared(error);
    auto routine = std::make_unique<MergeCopies>(std::move(fixture));
    if (!routine->check())
        return notPrepared("the benchmark copies do not merge as expected");
    return prepared(std::move(routine));
}

Prepared prepareSerialize()
{
    std::string error;
    auto vault = unlockedVault(kSizes.back(), error);
    if (!vault)
        return notPrepared(error);
    if (!editOneRecord(*vault, kNow + 1))
        return notPrepared("the benchmark vault refuses an edit");
    return prepared(loop([vault = std::move(*vault), now = kNow + 1]() mutable {
        editOneRecord(vault, ++now);
        auto file = vault.serialize(crypto::systemRandom(), now);
        keep(file);
    }));
}

// A fresh directory for the saved vault, removed with everything in it when
// the routine that holds it is destroyed.
class TemporaryDirectory
{
public:
    TemporaryDirectory()
    {
        std::error_code failed;
        const auto base = std::filesystem::temp_directory_path(failed);
        if (failed)
            return;
        std::string pattern = (base / "watchword-bench-XXXXXX").string();
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

// The members are destroyed in reverse order: the storage (and its lock file
// descriptor) before the directory it lives in.
class SaveVault final : public Routine
{
public:
    explicit SaveVault(Vault vault) : m_vault(std::move(vault)) {}

    // The first file, written with the product's defaults (rolling backups
    // included); an error message if that failed.
    std::string start()
    {
        if (!m_directory.made())
            return "cannot make a temporary directory";
        auto& random = crypto::systemRandom();
        auto first = m_vault.serialize(random, m_now);
        if (!first)
            return first.error().message;
        auto storage =
            vault::VaultStorage::create(m_directory.path() + "/vault.wwv", *first, random);
        if (!storage)
            return storage.error().message;
        m_storage.emplace(std::move(*storage));
        if (!editOneRecord(m_vault, ++m_now))
            return "the benchmark vault refuses an edit";
        auto second = m_vault.serialize(random, m_now);
        if (!second)
            return second.error().message;
        if (auto saved = m_storage->save(*second); !saved)
            return saved.error().message;
        return {};
    }

    void run(std::uint64_t iterations) override
    {
        for (std::uint64_t i = 0; i < iterations; ++i) {
            editOneRecord(m_vault, ++m_now);
            auto file = m_vault.serialize(crypto::systemRandom(), m_now);
            const bool saved = file && m_storage->save(*file).ok();
            keep(saved);
        }
    }

private:
    TemporaryDirectory m_directory;
    Vault m_vault;
    std::optional<vault::VaultStorage> m_storage;
    std::int64_t m_now = kNow;
};

Prepared prepareSave()
{
    std::string error;
    auto vault = unlockedVault(kSizes.back(), error);
    if (!vault)
        return notPrepared(error);
    auto routine = std::make_unique<SaveVault>(std::move(*vault));
    if (auto failed = routine->start(); !failed.empty())
        return notPrepared(failed);
    return prepared(std::move(routine));
}

// The import preview: the vault of 10,000 accounts written as Aegis's plain
// JSON (the most common plain export), read back and planned against the
// vault of 1,000, whose accounts are the first 1,000 of the file (the
// fixture's vault grows through the sizes): 1,000 duplicates, 9,000 new.
Prepared prepareImportPreview()
{
    std::string error;
    auto source = unlockedVault(kSizes.back(), error);
    auto target = unlockedVault(kSizes[1], error);
    if (!source || !target)
        return notPrepared(error);
    std::vector<vault::OtpAccount> accounts;
    for (const vault::Record* record : vault::sortedRecords(*source))
        if (std::holds_alternative<vault::OtpAccount>(*record))
            accounts.push_back(std::get<vault::OtpAccount>(vault::cloneRecord(*record)));
    auto exported = exporters::exportAccounts(exporters::ExportFormat::Aegis, accounts, {},
                                              crypto::systemRandom());
    if (!exported)
        return notPrepared("export: " + exported.error().message);
    Bytes file(exported->data.begin(), exported->data.end());
    const auto check = importers::importAccounts(importers::Format::Aegis, file);
    if (!check || check->accounts.size() != kSizes.back())
        return notPrepared("the export does not import back to 10,000 accounts");
    const auto plan = importers::planImport(*check, *target);
    const auto duplicates = std::count_if(plan.begin(), plan.end(), [](const auto& row) {
        return row.match == importers::ImportMatch::Duplicate;
    });
    if (duplicates != static_cast<std::ptrdiff_t>(kSizes[1]))
        return notPrepared("the plan does not find the vault's 1,000 accounts in the file");
    return prepared(loop([file = std::move(file), vault = std::move(*target)] {
        const auto imported = importers::importAccounts(importers::Format::Aegis, file);
        const auto rows = importers::planImport(*imported, vault);
        keep(rows.size());
    }));
}

Prepared prepareCalibration()
{
    const Pbkdf2Input input = calibrationProbe();
    if (ourPbkdf2(input).empty())
        return notPrepared("pbkdf2 failed (crypto disabled?)");
    return prepared(loop([input, out = SecureBuffer(input.outputSize)]() mutable {
        const auto result =
            crypto::pbkdf2(input.algorithm, input.password, input.salt, input.rounds, out.span());
        keep(result.ok());
        keep(out.data()[0]);
    }));
}

} // namespace

Pbkdf2Input calibrationProbe()
{
    return {HashAlgorithm::Sha256, kCalibrationPassword, kCalibrationSalt, kCalibrationBatch, 32};
}

std::vector<Benchmark> vaultBenchmarks()
{
    std::vector<Benchmark> list = {
        {"calibration/pbkdf2_1s",
         "one probe of the password KDF's calibration: PBKDF2-HMAC-SHA256 of a batch of 40,000 "
         "rounds (so rounds/s is the count a 1-second target gets)",
         static_cast<double>(kCalibrationBatch), "rounds", prepareCalibration},
        {"vault/unlock_kdf",
         "the password slot's KDF: PBKDF2-HMAC-SHA256 at the floor count, 600,000 rounds",
         static_cast<double>(vault::minimumPasswordIterations), "rounds", prepareUnlockKdf},
    };
    for (const std::size_t n : kSizes)
        list.push_back(unlockRest(n, 0));
    list.push_back(unlockRest(kSizes.back(), 1));
    list.push_back({"vault/unlock_recovery_kek",
                    "the recovery slot's KEK (one ECDH and an HKDF): what unlock_rest holds "
                    "besides the records",
                    0, "", prepareUnlockRecoveryKek});
    list.push_back({"vault/serialize/10000",
                    "the file of a 10,000-account vault after one edit (one record sealed "
                    "afresh, checksum and manifest over the whole file), no I/O",
                    0, "", prepareSerialize});
    list.push_back({"vault/save/10000",
                    "vault/serialize/10000 plus the atomic save: temp file, fsync, backup, "
                    "rename, directory fsync",
                    0, "", prepareSave});
    list.push_back({"vault/merge/10000",
                    "two copies of a 10,000-account vault, 1,000 accounts changed on each "
                    "device (100 on both), opened with the vault's key (no KDF) and merged",
                    static_cast<double>(kSizes.back()), "records", prepareMerge});
    list.push_back({"import/preview/10000",
                    "another app's plain export of 10,000 accounts (Aegis JSON) read and its "
                    "preview planned against a vault of 1,000 accounts, 1,000 of them already "
                    "there",
                    static_cast<double>(kSizes.back()), "accounts", prepareImportPreview});
    list.push_back(
        {"ref/openssl_pkcs5_calibration_pbkdf2_1s",
         "calibration/pbkdf2_1s through OpenSSL's PKCS5_PBKDF2_HMAC: the count an OpenSSL-based "
         "vault would get for the same second",
         static_cast<double>(kCalibrationBatch), "rounds", [] {
             return prepareOpenSslPbkdf2(calibrationProbe(), ourPbkdf2(calibrationProbe()));
         }});
    return list;
}

} // namespace watchword::perf::entries
