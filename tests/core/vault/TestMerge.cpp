// Merging two copies of one vault edited on two devices (vault::Vault::merge,
// docs/FORMAT.md section 13): changes to different records all kept, the
// same record changed on both sides resolved the same way whichever side
// merges, deletions carried by tombstones, HOTP counters to the larger,
// positions without collisions, the later password kept, and every bad copy
// refused with nothing merged.
#include "common/TestSupport.h"
#include "keychain/Keychain.h"
#include "vault/Vault.h"
#include "vault/VaultFile.h"

#include <QtTest>
#include <map>
#include <random>
#include <set>
#include <string>

using namespace watchword;
using namespace watchword::vault;

Q_DECLARE_METATYPE(watchword::vault::VaultError)

namespace {

keychain::Keychain ownKeychain()
{
    auto restored =
        keychain::Keychain::restore("legal winner thank year wave sausage worth useful legal "
                                    "winner thank yellow");
    if (!restored)
        qFatal("keychain restore failed: %s", restored.error().message.c_str());
    return std::move(*restored);
}

const Calibration calibration{minimumPasswordIterations, 1000, 1'000'000};
constexpr DeviceId deviceA = {0xa0, 1, 2, 3, 4, 5, 6, 7};
constexpr DeviceId deviceB = {0xb0, 1, 2, 3, 4, 5, 6, 7};
constexpr std::int64_t day = 24 * 3600;

OtpAccount account(const std::string& issuer, std::int64_t now, bool hotp = false)
{
    OtpAccount a;
    a.issuer = issuer;
    a.accountName = "alice";
    a.secret = SecureBuffer(asBytes("12345678901234567890"));
    if (hotp)
        a.parameters.kind = otp::OtpKind::Hotp;
    a.created = a.modified = now;
    return a;
}

SecureNote note(const std::string& title, const std::string& body, std::int64_t now)
{
    SecureNote n;
    n.title = title;
    n.body = SecureBuffer(asBytes(body));
    n.created = n.modified = now;
    return n;
}

// The vault's content, as a reader sees it: every record's id and fields,
// every tombstone's id, version, time and changes.
std::map<QString, QString> contentOf(const Vault& vault)
{
    std::map<QString, QString> content;
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const auto& record = vault.record(i);
        auto fields = encodeFields(record);
        if (!fields)
            qFatal("encode failed: %s", fields.error().message.c_str());
        const auto& id = idOf(record);
        content[test::toHex(ByteView(id.data(), id.size()))] =
            QString::number(static_cast<int>(kindOf(record))) + ":" +
            QString::number(versionOf(record)) + ":" + test::toHex(fields->span());
    }
    for (std::size_t i = 0; i < vault.tombstoneCount(); ++i) {
        const auto& tombstone = vault.tombstone(i);
        auto fields = encodeTombstone(tombstone);
        if (!fields)
            qFatal("encode failed: %s", fields.error().message.c_str());
        content[test::toHex(ByteView(tombstone.id.data(), tombstone.id.size()))] =
            "deleted:" + QString::number(tombstone.version) + ":" + test::toHex(fields->span());
    }
    return content;
}

// Two devices' copies of one vault.
struct TwoDevices
{
    test::SeededRandom random{test::testSeed()};
    Bytes base;
    std::optional<Vault> original;
    std::vector<RecordId> ids;

    // A vault with three TOTP accounts, a HOTP account and a note, saved
    // once by device A.
    TwoDevices()
    {
        auto created = Vault::create(asBytes("a password"), ownKeychain(), calibration, random, 0);
        if (!created)
            qFatal("create failed: %s", created.error().message.c_str());
        original.emplace(std::move(*created));
        original->setDevice(deviceA);
        for (const char* issuer : {"One", "Two", "Three"})
            ids.push_back(add(*original, account(issuer, 100)));
        ids.push_back(add(*original, account("Counter", 100, true)));
        ids.push_back(add(*original, note("Wi-Fi", "the first text", 100)));
        base = save(*original, 1000);
    }

    RecordId add(Vault& vault, Record record)
    {
        if (std::holds_alternative<OtpAccount>(record))
            std::get<OtpAccount>(record).sortPosition = nextSortPosition(vault);
        else if (std::holds_alternative<SecureNote>(record))
            std::get<SecureNote>(record).sortPosition = nextSortPosition(vault);
        auto id = vault.add(std::move(record), random);
        if (!id)
            qFatal("add failed: %s", id.error().message.c_str());
        return *id;
    }

    Bytes save(Vault& vault, std::int64_t now)
    {
        auto file = vault.serialize(random, now);
        if (!file)
            qFatal("serialize failed: %s", file.error().message.c_str());
        return std::move(*file);
    }

    // The copy of device, opened from file with the original's key.
    Vault open(ByteView file, const DeviceId& device)
    {
        auto vault = Vault::unlockWithKeyOf(file, *original);
        if (!vault)
            qFatal("open failed: %s", vault.error().message.c_str());
        vault->setDevice(device);
        return std::move(*vault);
    }
    Vault copyA() { return open(base, deviceA); }
    Vault copyB() { return open(base, deviceB); }
};

std::string bodyOf(const SecureNote& n)
{
    return std::string(reinterpret_cast<const char*>(n.body.data()), n.body.size());
}

template <typename R> R recordWithId(const Vault& vault, const RecordId& id)
{
    const auto* record = vault.find(id);
    if (record == nullptr || !std::holds_alternative<R>(*record))
        qFatal("no such record");
    return std::get<R>(*record).clone();
}

void rename(Vault& vault, const RecordId& id, const std::string& issuer, std::int64_t now)
{
    auto a = recordWithId<OtpAccount>(vault, id);
    a.issuer = issuer;
    a.modified = now;
    if (auto updated = vault.update(std::move(a)); !updated)
        qFatal("update failed: %s", updated.error().message.c_str());
}

void rewrite(Vault& vault, const RecordId& id, const std::string& body, std::int64_t now)
{
    auto n = recordWithId<SecureNote>(vault, id);
    n.body = SecureBuffer(asBytes(body));
    n.modified = now;
    if (auto updated = vault.update(std::move(n)); !updated)
        qFatal("update failed: %s", updated.error().message.c_str());
}

void advanceCounter(Vault& vault, const RecordId& id, std::uint64_t counter, std::int64_t now)
{
    auto a = recordWithId<OtpAccount>(vault, id);
    a.parameters.counter = counter;
    a.lastUsed = now;
    if (auto updated = vault.update(std::move(a)); !updated)
        qFatal("update failed: %s", updated.error().message.c_str());
}

MergeReport mergeInto(Vault& ours, Vault theirs)
{
    auto report = ours.merge(std::move(theirs));
    if (!report)
        qFatal("merge failed: %s", report.error().message.c_str());
    return *report;
}

} // namespace

class TestMerge : public QObject
{
    Q_OBJECT

private slots:
    void changesToDifferentRecordsAreAllKept();
    void sameAccountChangedOnBothSides();
    void noteChangedOnBothSidesIsKeptTwice();
    void hotpCounterTakesTheLarger();
    void deletionMeetsAChange();
    void tombstonesLastAndAreBounded();
    void recordsAddedAtOnePlaceAreMoved();
    void theLaterPasswordIsKept();
    void unchangedRecordsKeepTheirSealedBytes();
    void aMergedFileOpensAndMergesToNothing();
    void refusesBadCopies_data();
    void refusesBadCopies();
    void rolledBackCopyIsRefused();
    void versionTwoCopyMerges();
    void randomEditsConverge();
};

void TestMerge::changesToDifferentRecordsAreAllKept()
{
    TwoDevices devices;
    auto a = devices.copyA();
    auto b = devices.copyB();
    const auto added = devices.add(a, account("Added on A", 2000));
    rename(a, devices.ids[0], "One, renamed on A", 2000);
    const auto noteB = devices.add(b, note("From B", "text", 2100));
    QVERIFY(b.remove(devices.ids[1]));

    const auto beforeA = contentOf(a);
    auto copyOfB = devices.open(devices.save(b, 2200), deviceB);
    const auto report = mergeInto(a, std::move(copyOfB));
    QCOMPARE(report.added.notes, std::size_t{1});
    QCOMPARE(report.added.total(), std::size_t{1});
    QCOMPARE(report.removed.accounts, std::size_t{1});
    QCOMPARE(report.changed.total(), std::size_t{0});
    QCOMPARE(report.conflicts, std::size_t{0});
    QVERIFY(report.changedThis());
    QVERIFY(a.find(added) != nullptr);
    QVERIFY(a.find(noteB) != nullptr);
    QVERIFY(a.find(devices.ids[1]) == nullptr);
    QCOMPARE(recordWithId<OtpAccount>(a, devices.ids[0]).issuer, std::string("One, renamed on A"));
    QCOMPARE(a.recordCount(), std::size_t{6});
    QCOMPARE(a.tombstoneCount(), std::size_t{1});
    QVERIFY(contentOf(a) != beforeA);

    // B merging A's saved copy ends with the same content.
    const auto fileA = devices.save(a, 2300);
    auto bAgain = devices.open(devices.save(b, 2250), deviceB);
    const auto reportB = mergeInto(bAgain, devices.open(fileA, deviceA));
    QCOMPARE(reportB.added.accounts, std::size_t{1});
    QCOMPARE(reportB.changed.accounts, std::size_t{1});
    QCOMPARE(contentOf(bAgain), contentOf(a));
}

void TestMerge::sameAccountChangedOnBothSides()
{
    TwoDevices devices;
    auto a = devices.copyA();
    auto b = devices.copyB();
    rename(a, devices.ids[0], "Renamed on A", 3000);
    rename(b, devices.ids[0], "Renamed on B, later", 3100);

    const auto fileA = devices.save(a, 3200);
    const auto fileB = devices.save(b, 3300);

    auto onA = devices.open(fileA, deviceA);
    const auto report = mergeInto(onA, devices.open(fileB, deviceB));
    QCOMPARE(report.conflicts, std::size_t{1});
    QCOMPARE(report.changed.accounts, std::size_t{1});
    QCOMPARE(recordWithId<OtpAccount>(onA, devices.ids[0]).issuer,
             std::string("Renamed on B, later"));
    // Both changes are counted, and the merge's own.
    const auto changes = changesOf(*onA.find(devices.ids[0]));
    QCOMPARE(changes.size(), std::size_t{3});
    QCOMPARE(changes.back().device, mergeDevice);

    auto onB = devices.open(fileB, deviceB);
    const auto reportB = mergeInto(onB, devices.open(fileA, deviceA));
    QCOMPARE(reportB.conflicts, std::size_t{1});
    QCOMPARE(reportB.changed.accounts, std::size_t{0});
    QCOMPARE(contentOf(onB), contentOf(onA));

    // Equal times: the greater fields win, on both sides alike.
    auto c = devices.copyA();
    auto d = devices.copyB();
    rename(c, devices.ids[2], "Same second, C", 4000);
    rename(d, devices.ids[2], "Same second, D", 4000);
    auto cd = devices.open(devices.save(c, 4100), deviceA);
    auto dc = devices.open(devices.save(d, 4100), deviceB);
    auto cCopy = devices.open(devices.save(cd, 4200), deviceA);
    auto dCopy = devices.open(devices.save(dc, 4200), deviceB);
    mergeInto(cd, std::move(dCopy));
    mergeInto(dc, std::move(cCopy));
    QCOMPARE(contentOf(cd), contentOf(dc));
    QCOMPARE(recordWithId<OtpAccount>(cd, devices.ids[2]).issuer, std::string("Same second, D"));
}

void TestMerge::noteChangedOnBothSidesIsKeptTwice()
{
    TwoDevices devices;
    const auto noteId = devices.ids[4];
    auto a = devices.copyA();
    auto b = devices.copyB();
    rewrite(a, noteId, "the text as A wrote it", 5000);
    rewrite(b, noteId, "the text as B wrote it, later", 5100);
    const auto fileA = devices.save(a, 5200);
    const auto fileB = devices.save(b, 5200);

    auto onA = devices.open(fileA, deviceA);
    const auto report = mergeInto(onA, devices.open(fileB, deviceB));
    QCOMPARE(report.conflicts, std::size_t{1});
    QCOMPARE(report.notesKeptTwice, std::size_t{1});
    QCOMPARE(onA.recordCount(), std::size_t{6});
    const auto kept = recordWithId<SecureNote>(onA, noteId);
    QCOMPARE(kept.title, std::string("Wi-Fi"));
    QCOMPARE(bodyOf(kept), std::string("the text as B wrote it, later"));
    bool foundCopy = false;
    for (const auto* record : sortedRecords(onA, RecordKind::SecureNote)) {
        const auto& n = std::get<SecureNote>(*record);
        if (n.id == noteId)
            continue;
        foundCopy = true;
        QCOMPARE(n.title, std::string("Wi-Fi (conflicting edit)"));
        QCOMPARE(bodyOf(n), std::string("the text as A wrote it"));
        QVERIFY(n.sortPosition > kept.sortPosition); // after every record
    }
    QVERIFY(foundCopy);

    // The other way round: the same two notes, the same ids.
    auto onB = devices.open(fileB, deviceB);
    mergeInto(onB, devices.open(fileA, deviceA));
    QCOMPARE(contentOf(onB), contentOf(onA));

    // Merging the result with B's copy again changes nothing; A's copy is
    // older than the merged file A wrote since.
    const auto merged = devices.save(onA, 5300);
    auto again = devices.open(merged, deviceA);
    QVERIFY(!mergeInto(again, devices.open(fileB, deviceB)).changedThis());
    QCOMPARE(again.merge(devices.open(fileA, deviceA)).error().code, VaultError::RolledBack);
}

void TestMerge::hotpCounterTakesTheLarger()
{
    TwoDevices devices;
    const auto counterId = devices.ids[3];
    auto a = devices.copyA();
    auto b = devices.copyB();
    advanceCounter(a, counterId, 7, 6000);
    advanceCounter(b, counterId, 5, 6100); // later, but fewer codes
    const auto fileA = devices.save(a, 6200);
    const auto fileB = devices.save(b, 6200);
    auto onA = devices.open(fileA, deviceA);
    mergeInto(onA, devices.open(fileB, deviceB));
    QCOMPARE(recordWithId<OtpAccount>(onA, counterId).parameters.counter, std::uint64_t{7});
    auto onB = devices.open(fileB, deviceB);
    mergeInto(onB, devices.open(fileA, deviceA));
    QCOMPARE(contentOf(onB), contentOf(onA));

    // A side that has seen the other's change, but whose counter is lower,
    // still ends at the larger count.
    auto c = devices.open(devices.save(onA, 6300), deviceA);
    auto lowered = devices.open(devices.save(onA, 6400), deviceB);
    advanceCounter(lowered, counterId, 2, 6500);
    const auto report = mergeInto(c, devices.open(devices.save(lowered, 6600), deviceB));
    QCOMPARE(report.changed.accounts, std::size_t{1});
    QCOMPARE(report.countersRaised, std::size_t{1});
    QCOMPARE(recordWithId<OtpAccount>(c, counterId).parameters.counter, std::uint64_t{7});
}

void TestMerge::deletionMeetsAChange()
{
    TwoDevices devices;
    // Deleted on A, unchanged on B: deleted.
    {
        auto a = devices.copyA();
        QVERIFY(a.remove(devices.ids[0]));
        auto b = devices.copyB();
        const auto report = mergeInto(b, devices.open(devices.save(a, 7000), deviceA));
        QCOMPARE(report.removed.accounts, std::size_t{1});
        QVERIFY(b.find(devices.ids[0]) == nullptr);
        QCOMPARE(b.tombstoneCount(), std::size_t{1});
    }
    // Deleted on A, changed on B: the change is kept, on both sides.
    {
        auto a = devices.copyA();
        QVERIFY(a.remove(devices.ids[0]));
        auto b = devices.copyB();
        rename(b, devices.ids[0], "Changed on B", 7100);
        const auto fileA = devices.save(a, 7200);
        const auto fileB = devices.save(b, 7200);
        auto onB = devices.open(fileB, deviceB);
        const auto report = mergeInto(onB, devices.open(fileA, deviceA));
        QCOMPARE(report.conflicts, std::size_t{1});
        QCOMPARE(report.removed.total(), std::size_t{0});
        QVERIFY(onB.find(devices.ids[0]) != nullptr);
        QCOMPARE(onB.tombstoneCount(), std::size_t{0});
        auto onA = devices.open(fileA, deviceA);
        mergeInto(onA, devices.open(fileB, deviceB));
        QCOMPARE(contentOf(onA), contentOf(onB));
    }
    // Deleted on both: one tombstone with both deletions.
    {
        auto a = devices.copyA();
        auto b = devices.copyB();
        QVERIFY(a.remove(devices.ids[2]));
        QVERIFY(b.remove(devices.ids[2]));
        auto onA = devices.open(devices.save(a, 7300), deviceA);
        mergeInto(onA, devices.open(devices.save(b, 7400), deviceB));
        QCOMPARE(onA.tombstoneCount(), std::size_t{1});
        QCOMPARE(onA.tombstone(0).changes.size(), std::size_t{2});
        QCOMPARE(onA.tombstone(0).deleted, std::int64_t{7400});
    }
}

void TestMerge::tombstonesLastAndAreBounded()
{
    TwoDevices devices;
    auto a = devices.copyA();
    QVERIFY(a.remove(devices.ids[0]));
    const auto file = devices.save(a, 10'000);
    auto reopened = devices.open(file, deviceA);
    QCOMPARE(reopened.tombstoneCount(), std::size_t{1});
    QCOMPARE(reopened.tombstone(0).id, devices.ids[0]);
    QCOMPARE(reopened.tombstone(0).deleted, std::int64_t{10'000});
    QCOMPARE(reopened.tombstone(0).version, std::uint64_t{2});
    QCOMPARE(reopened.recordCount(), std::size_t{4});
    const auto parsed = parseVault(file);
    QVERIFY(parsed);
    QCOMPARE(parsed->info.recordCount, std::uint32_t{5});
    QCOMPARE(parsed->records.back().kind, RecordKind::Tombstone);

    // Kept for tombstoneLifetime, then dropped.
    devices.save(reopened, 10'000 + tombstoneLifetime);
    QCOMPARE(reopened.tombstoneCount(), std::size_t{1});
    devices.save(reopened, 10'001 + tombstoneLifetime);
    QCOMPARE(reopened.tombstoneCount(), std::size_t{0});

    // At most maximumTombstones, the most recent kept.
    auto many = devices.copyA();
    std::vector<RecordId> added;
    for (std::size_t i = 0; i < maximumTombstones + 3; ++i)
        added.push_back(devices.add(many, account("Gone " + std::to_string(i), 20'000)));
    QVERIFY(many.remove(added[0]));
    QVERIFY(many.remove(added[1]));
    QVERIFY(many.remove(added[2]));
    devices.save(many, 20'000);
    for (std::size_t i = 3; i < added.size(); ++i)
        QVERIFY(many.remove(added[i]));
    devices.save(many, 20'001);
    QCOMPARE(many.tombstoneCount(), maximumTombstones);
    for (std::size_t i = 0; i < many.tombstoneCount(); ++i)
        QCOMPARE(many.tombstone(i).deleted, std::int64_t{20'001});
}

void TestMerge::recordsAddedAtOnePlaceAreMoved()
{
    TwoDevices devices;
    auto a = devices.copyA();
    auto b = devices.copyB();
    const auto onAId = devices.add(a, account("Added on A", 8000));
    const auto onBId = devices.add(b, account("Added on B", 8000));
    const auto position = sortPositionOf(*a.find(onAId));
    QCOMPARE(sortPositionOf(*b.find(onBId)), position);
    const auto fileA = devices.save(a, 8100);
    const auto fileB = devices.save(b, 8100);

    auto onA = devices.open(fileA, deviceA);
    const auto report = mergeInto(onA, devices.open(fileB, deviceB));
    QCOMPARE(report.positionsMoved, std::size_t{1});
    const auto first = sortPositionOf(*onA.find(onAId));
    const auto second = sortPositionOf(*onA.find(onBId));
    QVERIFY(first != second);
    QCOMPARE(std::min(first, second), position);
    QCOMPARE(std::max(first, second), position + 1);

    auto onB = devices.open(fileB, deviceB);
    mergeInto(onB, devices.open(fileA, deviceA));
    QCOMPARE(contentOf(onB), contentOf(onA));
    // Positions are unique across the vault.
    std::set<std::uint32_t> positions;
    for (std::size_t i = 0; i < onA.recordCount(); ++i)
        positions.insert(sortPositionOf(onA.record(i)));
    QCOMPARE(positions.size(), onA.recordCount());
}

void TestMerge::theLaterPasswordIsKept()
{
    TwoDevices devices;
    auto a = devices.copyA();
    auto b = devices.copyB();
    QVERIFY(a.changePassword(asBytes("the new password"), calibration, devices.random));
    const auto addedOnA = devices.add(a, account("After the change", 9000));
    const auto addedOnB = devices.add(b, account("On the old password", 9000));
    const auto fileA = devices.save(a, 9100);
    const auto fileB = devices.save(b, 9000);

    // B cannot open A's copy with its own key: it asks for the password.
    const auto withOldKey = Vault::unlockWithKeyOf(fileA, b);
    QVERIFY(!withOldKey);
    QCOMPARE(withOldKey.error().code, VaultError::KeyChanged);
    auto aOpened = Vault::unlockWithPassword(fileA, asBytes("the new password"));
    QVERIFY(aOpened);
    const auto report = mergeInto(b, std::move(*aOpened));
    QVERIFY(report.keyFromOther);
    QVERIFY(b.find(addedOnA) != nullptr);
    QVERIFY(b.find(addedOnB) != nullptr);
    const auto merged = devices.save(b, 9200);
    QCOMPARE(Vault::unlockWithPassword(merged, asBytes("a password")).error().code,
             VaultError::WrongPassword);
    auto reopened = Vault::unlockWithPassword(merged, asBytes("the new password"));
    QVERIFY(reopened);
    QCOMPARE(reopened->recordCount(), std::size_t{7});
    QCOMPARE(reopened->sync().keyDevice, deviceA);
    QCOMPARE(reopened->sync().keyMade, std::int64_t{9100});
    // The recovery phrase still opens it.
    QVERIFY(Vault::unlockWithRecovery(merged, ownKeychain()));

    // A merging B's copy keeps its own, newer key.
    auto onA = Vault::unlockWithPassword(fileA, asBytes("the new password"));
    QVERIFY(onA);
    onA->setDevice(deviceA);
    const auto reportA = mergeInto(*onA, devices.open(fileB, deviceB));
    QVERIFY(!reportA.keyFromOther);
    QCOMPARE(contentOf(*onA), contentOf(b));
    QVERIFY(Vault::unlockWithPassword(devices.save(*onA, 9300), asBytes("the new password")));
}

void TestMerge::unchangedRecordsKeepTheirSealedBytes()
{
    TwoDevices devices;
    auto a = devices.copyA();
    rename(a, devices.ids[1], "Changed on A", 9500);
    const auto fileA = devices.save(a, 9600);
    auto b = devices.copyB();
    mergeInto(b, devices.open(fileA, deviceA));
    const auto fileB = devices.save(b, 9700);
    // Every record envelope of B's file is byte for byte one of A's: the
    // changed record came sealed from A, the others were never sealed again.
    const auto parsedA = parseVault(fileA);
    const auto parsedB = parseVault(fileB);
    QVERIFY(parsedA && parsedB);
    QCOMPARE(parsedB->records.size(), parsedA->records.size());
    for (const auto& record : parsedB->records) {
        const auto match = std::find_if(parsedA->records.begin(), parsedA->records.end(),
                                        [&](const SealedRecord& r) { return r.id == record.id; });
        QVERIFY(match != parsedA->records.end());
        QVERIFY(std::equal(record.sealed.begin(), record.sealed.end(), match->sealed.begin(),
                           match->sealed.end()));
    }
}

void TestMerge::aMergedFileOpensAndMergesToNothing()
{
    TwoDevices devices;
    auto a = devices.copyA();
    auto b = devices.copyB();
    devices.add(a, note("On A", "a", 11'000));
    QVERIFY(b.remove(devices.ids[4]));
    auto onA = devices.open(devices.save(a, 11'100), deviceA);
    mergeInto(onA, devices.open(devices.save(b, 11'100), deviceB));
    const auto merged = devices.save(onA, 11'200);
    const auto info = decodeHeader(merged);
    QVERIFY(info);
    QCOMPARE(info->version, formatVersion);
    QCOMPARE(info->sync.lastWriter, deviceA);
    QCOMPARE(info->sync.writers.size(), std::size_t{2});
    QCOMPARE(info->generation, std::uint64_t{3});
    auto reopened = Vault::unlockWithPassword(merged, asBytes("a password"));
    QVERIFY(reopened);
    QCOMPARE(contentOf(*reopened), contentOf(onA));
    QCOMPARE(reopened->generationWrittenBy(deviceB), std::uint64_t{2});
    const auto report = mergeInto(*reopened, devices.open(merged, deviceB));
    QVERIFY(!report.changedThis());
}

void TestMerge::refusesBadCopies_data()
{
    QTest::addColumn<int>("damage");
    QTest::addColumn<VaultError>("error");
    QTest::addColumn<QString>("message");
    QTest::newRow("another vault") << 0 << VaultError::DifferentVault << "another vault";
    QTest::newRow("a damaged copy") << 1 << VaultError::Corrupted << "checksum";
    QTest::newRow("records swapped") << 2 << VaultError::Tampered << "tampered";
    QTest::newRow("cut short") << 3 << VaultError::Truncated << "truncated";
    QTest::newRow("not a vault") << 4 << VaultError::NotAVault << "not a Watchword vault";
}

void TestMerge::refusesBadCopies()
{
    QFETCH(int, damage);
    QFETCH(VaultError, error);
    QFETCH(QString, message);
    TwoDevices devices;
    auto b = devices.copyB();
    devices.add(b, account("On B", 12'000));
    auto file = devices.save(b, 12'100);
    switch (damage) {
    case 0: {
        auto other =
            Vault::create(asBytes("a password"), ownKeychain(), calibration, devices.random, 0);
        QVERIFY(other);
        file = devices.save(*other, 12'100);
        break;
    }
    case 1:
        file[file.size() / 2] ^= 0x10;
        break;
    case 2: {
        // Two records' envelopes of equal length swapped, the checksum
        // fixed: only the key could have made this, and the tags say so.
        auto parsed = parseVault(file);
        QVERIFY(parsed);
        const auto& records = parsed->records;
        const auto first = records[0].sealed;
        const auto second =
            std::find_if(records.begin() + 1, records.end(), [&](const SealedRecord& r) {
                return r.sealed.size() == first.size();
            })->sealed;
        const auto at = static_cast<std::size_t>(first.data() - file.data());
        const auto other = static_cast<std::size_t>(second.data() - file.data());
        std::swap_ranges(file.begin() + static_cast<std::ptrdiff_t>(at),
                         file.begin() + static_cast<std::ptrdiff_t>(at + first.size()),
                         file.begin() + static_cast<std::ptrdiff_t>(other));
        const auto checksum = fileChecksum(ByteView(file).first(file.size() - checksumSize));
        std::copy(checksum.begin(), checksum.end(), file.end() - checksumSize);
        break;
    }
    case 3:
        file.resize(file.size() - 100);
        break;
    case 4:
        file.assign(200, 0x41);
        break;
    }
    auto a = devices.copyA();
    devices.add(a, account("On A", 12'000));
    const auto before = contentOf(a);
    // A copy of another vault opens with its own password, then the merge
    // refuses it; the others are refused by the opening.
    if (damage == 0) {
        auto opened = Vault::unlockWithPassword(file, asBytes("a password"));
        QVERIFY(opened);
        const auto merged = a.merge(std::move(*opened));
        QVERIFY(!merged);
        QCOMPARE(merged.error().code, error);
        QVERIFY2(QString::fromStdString(merged.error().message).contains(message),
                 merged.error().message.c_str());
        QCOMPARE(Vault::unlockWithKeyOf(file, a).error().code, VaultError::DifferentVault);
    } else {
        const auto opened = Vault::unlockWithKeyOf(file, a);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, error);
        QVERIFY2(QString::fromStdString(opened.error().message).contains(message),
                 opened.error().message.c_str());
    }
    QCOMPARE(contentOf(a), before);
}

void TestMerge::rolledBackCopyIsRefused()
{
    TwoDevices devices;
    auto b = devices.copyB();
    devices.add(b, account("First on B", 13'000));
    const auto older = devices.save(b, 13'100);
    devices.add(b, account("Second on B", 13'200));
    const auto newer = devices.save(b, 13'300);

    auto a = devices.copyA();
    mergeInto(a, devices.open(newer, deviceB));
    const auto before = contentOf(a);
    const auto merged = a.merge(devices.open(older, deviceB));
    QVERIFY(!merged);
    QCOMPARE(merged.error().code, VaultError::RolledBack);
    QVERIFY2(QString::fromStdString(merged.error().message).contains("older copy"),
             merged.error().message.c_str());
    QCOMPARE(contentOf(a), before);
    // The newer copy again is fine: nothing to merge.
    QVERIFY(!mergeInto(a, devices.open(newer, deviceB)).changedThis());
}

void TestMerge::versionTwoCopyMerges()
{
    // A version 2 file (tests/data/vault/vectors_v2.json's vault) merged
    // with its own version 3 descendant: the descendant's changes win, the
    // records are not doubled.
    const auto vectors = test::loadJson(QStringLiteral("vault/vectors_v2.json"));
    const auto file = test::hex(vectors.value(QStringLiteral("file_hex")).toString());
    QVERIFY(!file.empty());
    QCOMPARE(decodeHeader(file)->version, std::uint16_t{2});
    const auto password = test::hex(vectors.value(QStringLiteral("password_hex")).toString());
    auto old = Vault::unlockWithPassword(file, password);
    QVERIFY2(old, old ? "" : old.error().message.c_str());
    auto descendant = Vault::unlockWithPassword(file, password);
    QVERIFY(descendant);
    descendant->setDevice(deviceA);
    QVERIFY(descendant->recordCount() > 0);
    const auto firstId = idOf(descendant->record(0));
    test::SeededRandom random(test::testSeed());
    const auto saved = descendant->serialize(random, 2'000'000'000);
    QVERIFY(saved);
    auto later = Vault::unlockWithKeyOf(*saved, *old);
    QVERIFY(later);
    const auto count = old->recordCount();
    const auto report = mergeInto(*old, std::move(*later));
    QVERIFY(!report.changedThis());
    QCOMPARE(old->recordCount(), count);
    QVERIFY(old->find(firstId) != nullptr);
}

void TestMerge::randomEditsConverge()
{
    // Random edits on both sides of one base; whichever side merges, the
    // result is the same, and merging it again with either side changes
    // nothing.
    std::mt19937_64 engine(test::testSeed());
    for (int round = 0; round < 40; ++round) {
        TwoDevices devices;
        auto a = devices.copyA();
        auto b = devices.copyB();
        std::int64_t now = 20'000;
        const auto edit = [&](Vault& vault, int steps) {
            for (int step = 0; step < steps; ++step) {
                now += static_cast<std::int64_t>(engine() % 3);
                const auto live = vault.recordCount();
                const auto which = engine() % 5;
                if (which == 0 || live == 0) {
                    devices.add(vault, engine() % 2 ? Record(account("New", now))
                                                    : Record(note("New", "text", now)));
                    continue;
                }
                const auto id = idOf(vault.record(engine() % live));
                const auto* record = vault.find(id);
                if (which == 1) {
                    QVERIFY(vault.remove(id));
                } else if (std::holds_alternative<SecureNote>(*record)) {
                    rewrite(vault, id, "text " + std::to_string(engine() % 4), now);
                } else if (std::get<OtpAccount>(*record).parameters.kind == otp::OtpKind::Hotp) {
                    advanceCounter(vault, id, engine() % 10, now);
                } else {
                    rename(vault, id, "Name " + std::to_string(engine() % 4), now);
                }
            }
        };
        edit(a, 1 + static_cast<int>(engine() % 6));
        edit(b, 1 + static_cast<int>(engine() % 6));
        const auto fileA = devices.save(a, now + 10);
        const auto fileB = devices.save(b, now + 10);
        auto onA = devices.open(fileA, deviceA);
        mergeInto(onA, devices.open(fileB, deviceB));
        auto onB = devices.open(fileB, deviceB);
        mergeInto(onB, devices.open(fileA, deviceA));
        QCOMPARE(contentOf(onA), contentOf(onB));
        const auto merged = devices.save(onA, now + 20);
        auto again = devices.open(merged, deviceA);
        QVERIFY(!mergeInto(again, devices.open(fileB, deviceB)).changedThis());
        const auto itself = mergeInto(again, devices.open(merged, deviceB));
        QVERIFY(!itself.changedThis());
        QCOMPARE(itself.otherLacks, std::size_t{0});
        // B, given the merged file, takes it whole and has nothing to write
        // back: two devices do not answer each other's saves.
        auto onB2 = devices.open(fileB, deviceB);
        const auto taken = mergeInto(onB2, devices.open(merged, deviceA));
        QCOMPARE(taken.otherLacks, std::size_t{0});
        QCOMPARE(contentOf(onB2), contentOf(onA));
    }
}

QTEST_GUILESS_MAIN(TestMerge)
#include "TestMerge.moc"
