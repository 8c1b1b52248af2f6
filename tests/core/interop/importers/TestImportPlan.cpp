// The import preview and the adding: every account marked new, duplicate
// (of a vault account or of an earlier entry) or same name; the chosen ones
// added in order after the vault's, with their tags and note; and a vault
// left exactly as it was when one of them cannot be added.
#include "common/TestSupport.h"
#include "interop/importers/ImportPlan.h"
#include "keychain/Keychain.h"

#include <QtTest>
#include <limits>
#include <map>
#include <string>

using namespace watchword;
using namespace watchword::importers;

namespace {

const QByteArray password = "import plan";

SecureBuffer secretOf(std::string_view text)
{
    return SecureBuffer::fromString(text);
}

otp::OtpParameters totp(int digits = 6, std::uint32_t period = 30)
{
    otp::OtpParameters parameters;
    parameters.digits = digits;
    parameters.period = period;
    return parameters;
}

otp::OtpParameters hotp(std::uint64_t counter)
{
    otp::OtpParameters parameters;
    parameters.kind = otp::OtpKind::Hotp;
    parameters.counter = counter;
    return parameters;
}

ImportedAccount imported(std::string issuer, std::string name, std::string_view secret,
                         otp::OtpParameters parameters = totp())
{
    ImportedAccount account;
    account.issuer = std::move(issuer);
    account.accountName = std::move(name);
    account.secret = secretOf(secret);
    account.parameters = parameters;
    return account;
}

vault::OtpAccount stored(std::string issuer, std::string name, std::string_view secret,
                         otp::OtpParameters parameters, std::uint32_t position)
{
    vault::OtpAccount account;
    account.issuer = std::move(issuer);
    account.accountName = std::move(name);
    account.secret = secretOf(secret);
    account.parameters = parameters;
    account.created = account.modified = 100;
    account.sortPosition = position;
    return account;
}

test::SeededRandom& seeded()
{
    static test::SeededRandom random(test::testSeed());
    return random;
}

// A vault with four records: ACME:alice (secret one), Example:bob (two),
// Hosted:carol (HOTP, three, counter 10) and a note at sort position 7.
struct Fixture
{
    vault::Vault vault;
    vault::RecordId alice{};
    vault::RecordId bob{};
    vault::RecordId carol{};
};

Fixture makeVault()
{
    auto keychain = keychain::Keychain::create(seeded(), 12);
    if (!keychain)
        qFatal("no keychain: %s", keychain.error().message.c_str());
    const vault::Calibration calibration{vault::minimumPasswordIterations, 1000, 1'000'000};
    auto created = vault::Vault::create(test::view(password), *keychain, calibration, seeded(), 50);
    if (!created)
        qFatal("no vault: %s", created.error().message.c_str());
    Fixture fixture{std::move(created).value()};
    const auto add = [&](vault::Record record) {
        auto id = fixture.vault.add(std::move(record), seeded());
        if (!id)
            qFatal("could not add: %s", id.error().message.c_str());
        return *id;
    };
    fixture.alice = add(stored("ACME", "alice", "secret one....", totp(), 0));
    fixture.bob = add(stored("Example", "bob", "secret two....", totp(), 1));
    fixture.carol = add(stored("Hosted", "carol", "secret three..", hotp(10), 2));
    vault::SecureNote note;
    note.title = "door code";
    note.body = secretOf("1234");
    note.sortPosition = 7;
    add(std::move(note));
    return fixture;
}

// Every record of vault by id: its version and its encoded fields.
std::map<vault::RecordId, std::pair<std::uint64_t, Bytes>> snapshot(const vault::Vault& vault)
{
    std::map<vault::RecordId, std::pair<std::uint64_t, Bytes>> records;
    for (std::size_t i = 0; i < vault.recordCount(); ++i) {
        const auto& record = vault.record(i);
        auto fields = vault::encodeFields(record);
        if (!fields)
            qFatal("record does not encode: %s", fields.error().message.c_str());
        records[vault::idOf(record)] = {vault::versionOf(record),
                                        Bytes(fields->begin(), fields->end())};
    }
    return records;
}

} // namespace

class TestImportPlan : public QObject
{
    Q_OBJECT

private slots:
    void marksEveryAccount();
    void defaultChoiceSkipsDuplicates();
    void addsInOrderAfterTheVault();
    void sortPositionsAtTheEndOfTheRange_data();
    void sortPositionsAtTheEndOfTheRange();
    void invalidEntryLeavesTheVaultUnchanged();
    void realImportPlansAndAdds();
};

void TestImportPlan::marksEveryAccount()
{
    const Fixture fixture = makeVault();
    Imported source;
    source.accounts.push_back(imported("Other", "name", "secret one...."));  // 0: alice's codes
    source.accounts.push_back(imported("Example", "bob", "secret four...")); // 1: bob re-enrolled
    source.accounts.push_back(imported("New", "dora", "secret five..."));    // 2: new
    source.accounts.push_back(imported("New", "dora 2", "secret five..."));  // 3: as 2
    source.accounts.push_back(imported("ACME", "x", "secret one....", totp(8)));     // 4: 8 digits
    source.accounts.push_back(imported("ACME", "y", "secret one....", totp(6, 60))); // 5: 60 s
    source.accounts.push_back(imported("Hosted", "c", "secret three..", hotp(3)));   // 6: carol
    source.accounts.push_back(imported("Again", "a", "secret one...."));     // 7: alice, and 0
    source.accounts.push_back(imported("ACME", "alice", "secret six...."));  // 8: alice's name
    source.accounts.push_back(imported("Example", "bob", "secret four...")); // 9: as 1

    const auto plan = planImport(source, fixture.vault);
    QCOMPARE(plan.size(), source.accounts.size());
    for (std::size_t i = 0; i < plan.size(); ++i)
        QCOMPARE(plan[i].index, i);

    const auto expect = [&](std::size_t i, ImportMatch match,
                            std::optional<vault::RecordId> existing,
                            std::optional<std::size_t> earlier) {
        QVERIFY2(plan[i].match == match, qPrintable(QStringLiteral("entry %1").arg(i)));
        QVERIFY2(plan[i].existing == existing, qPrintable(QStringLiteral("entry %1").arg(i)));
        QVERIFY2(plan[i].earlierEntry == earlier, qPrintable(QStringLiteral("entry %1").arg(i)));
    };
    expect(0, ImportMatch::Duplicate, fixture.alice, std::nullopt);
    expect(1, ImportMatch::SameName, fixture.bob, std::nullopt);
    expect(2, ImportMatch::New, std::nullopt, std::nullopt);
    expect(3, ImportMatch::Duplicate, std::nullopt, 2u);
    expect(4, ImportMatch::New, std::nullopt, std::nullopt);
    expect(5, ImportMatch::New, std::nullopt, std::nullopt);
    // The HOTP counter is where the account is, not what it is.
    expect(6, ImportMatch::Duplicate, fixture.carol, std::nullopt);
    // The vault's account, not the earlier entry, is the one it repeats.
    expect(7, ImportMatch::Duplicate, fixture.alice, std::nullopt);
    expect(8, ImportMatch::SameName, fixture.alice, std::nullopt);
    // A repeat of an entry that is itself only a namesake.
    expect(9, ImportMatch::Duplicate, std::nullopt, 1u);

    // An empty vault: only the import's own repeats.
    auto keychain = keychain::Keychain::create(seeded(), 12);
    QVERIFY(keychain.ok());
    const vault::Calibration calibration{vault::minimumPasswordIterations, 1000, 1'000'000};
    auto empty = vault::Vault::create(test::view(password), *keychain, calibration, seeded(), 5);
    QVERIFY(empty.ok());
    const auto alone = planImport(source, *empty);
    QCOMPARE(alone[0].match, ImportMatch::New);
    QCOMPARE(alone[7].match, ImportMatch::Duplicate);
    QCOMPARE(alone[7].earlierEntry, std::optional<std::size_t>(0));
    QVERIFY(!alone[7].existing);
    QCOMPARE(alone[8].match, ImportMatch::New);
}

void TestImportPlan::defaultChoiceSkipsDuplicates()
{
    std::vector<PlannedAccount> plan(5);
    for (std::size_t i = 0; i < plan.size(); ++i)
        plan[i].index = i;
    plan[1].match = ImportMatch::Duplicate;
    plan[2].match = ImportMatch::SameName;
    plan[4].match = ImportMatch::Duplicate;
    QCOMPARE(defaultChoice(plan), (std::vector<std::size_t>{0, 2, 3}));
    QVERIFY(defaultChoice({}).empty());
}

void TestImportPlan::addsInOrderAfterTheVault()
{
    Fixture fixture = makeVault();
    const auto before = snapshot(fixture.vault);
    Imported source;
    source.accounts.push_back(imported("First", "a", "secret a......"));
    source.accounts.push_back(imported("Second", "b", "secret b......", hotp(42)));
    source.accounts.back().tags = {"work", "phone"};
    source.accounts.back().note = "recovery codes in the drawer";
    source.accounts.push_back(imported("Third", "c", "secret c......", totp(8, 60)));

    const std::int64_t now = 1'700'000'000;
    const std::vector<std::size_t> chosen{2, 0, 1};
    auto ids = addImported(fixture.vault, source, chosen, seeded(), now);
    QVERIFY2(ids.ok(), ids ? "" : ids.error().message.c_str());
    QCOMPARE(ids->size(), chosen.size());
    QCOMPARE(fixture.vault.recordCount(), before.size() + chosen.size());

    // The vault's records are untouched.
    const auto after = snapshot(fixture.vault);
    for (const auto& [id, record] : before)
        QVERIFY(after.at(id) == record);

    for (std::size_t k = 0; k < chosen.size(); ++k) {
        const auto& source_ = source.accounts[chosen[k]];
        const auto* account = std::get_if<vault::OtpAccount>(fixture.vault.find((*ids)[k]));
        QVERIFY(account != nullptr);
        QCOMPARE(account->issuer, source_.issuer);
        QCOMPARE(account->accountName, source_.accountName);
        QVERIFY(constantTimeEqual(account->secret.span(), source_.secret.span()));
        QVERIFY(account->parameters == source_.parameters);
        QCOMPARE(account->tags, source_.tags);
        QCOMPARE(account->note, source_.note);
        QCOMPARE(account->created, now);
        QCOMPARE(account->modified, now);
        // After the note's 7, in the order chosen.
        QCOMPARE(account->sortPosition, std::uint32_t(8 + k));
        QCOMPARE(account->version, std::uint64_t(1));
    }

    // What was added is in the file written next.
    auto file = fixture.vault.serialize(seeded(), now);
    QVERIFY(file.ok());
    auto reopened = vault::Vault::unlockWithPassword(*file, test::view(password));
    QVERIFY(reopened.ok());
    QCOMPARE(reopened->recordCount(), before.size() + chosen.size());
    QCOMPARE(planImport(source, *reopened)[1].match, ImportMatch::Duplicate);

    // Nothing chosen adds nothing.
    auto none = addImported(fixture.vault, source, {}, seeded(), now);
    QVERIFY(none.ok());
    QVERIFY(none->empty());
    QCOMPARE(fixture.vault.recordCount(), before.size() + chosen.size());
}

// Imported accounts get the position a record added at that moment gets
// (vault::nextSortPosition, docs/FORMAT.md section 6.3): 1 + the largest
// below 2^32 - 1, one after another, and 2^32 - 1 for the rest once there.
// A record already at 2^32 - 1 does not stop an import.
void TestImportPlan::sortPositionsAtTheEndOfTheRange_data()
{
    constexpr std::uint32_t last = std::numeric_limits<std::uint32_t>::max();
    QTest::addColumn<QList<uint>>("present");  // the sort positions in the vault
    QTest::addColumn<QList<uint>>("expected"); // of three imported accounts
    QTest::newRow("empty vault") << QList<uint>{} << QList<uint>{0, 1, 2};
    QTest::newRow("after the largest") << QList<uint>{4, 9} << QList<uint>{10, 11, 12};
    QTest::newRow("a record at the last position") << QList<uint>{3, last} << QList<uint>{4, 5, 6};
    QTest::newRow("only the last position") << QList<uint>{last} << QList<uint>{0, 1, 2};
    QTest::newRow("reaching the last position")
        << QList<uint>{last - 2} << QList<uint>{last - 1, last, last};
}

void TestImportPlan::sortPositionsAtTheEndOfTheRange()
{
    QFETCH(QList<uint>, present);
    QFETCH(QList<uint>, expected);
    auto keychain = keychain::Keychain::create(seeded(), 12);
    QVERIFY(keychain.ok());
    const vault::Calibration calibration{vault::minimumPasswordIterations, 1000, 1'000'000};
    auto made = vault::Vault::create(test::view(password), *keychain, calibration, seeded(), 50);
    QVERIFY(made.ok());
    vault::Vault& vault = *made;
    for (const uint position : present) {
        vault::SecureNote note;
        note.title = "at " + std::to_string(position);
        note.sortPosition = position;
        QVERIFY(vault.add(std::move(note), seeded()).ok());
    }
    Imported source;
    source.accounts.push_back(imported("A", "a", "secret one...."));
    source.accounts.push_back(imported("B", "b", "secret two...."));
    source.accounts.push_back(imported("C", "c", "secret three.."));
    const auto ids = addImported(vault, source, {0, 1, 2}, seeded(), 1'700'000'000);
    QVERIFY2(ids.ok(), ids ? "" : ids.error().message.c_str());
    QList<uint> positions;
    for (const auto& id : *ids)
        positions << vault::sortPositionOf(*vault.find(id));
    QCOMPARE(positions, expected);
}

void TestImportPlan::invalidEntryLeavesTheVaultUnchanged()
{
    Fixture fixture = makeVault();
    const auto before = snapshot(fixture.vault);
    Imported source;
    source.accounts.push_back(imported("Fine", "a", "secret a......"));
    source.accounts.push_back(imported("Fine", "b", "secret b......"));
    source.accounts.push_back(imported("Broken", "c", "secret c......", totp(4)));
    source.accounts.push_back(imported("Tagged", "d", "secret d......"));
    source.accounts.back().tags = {"same", "same"};
    source.accounts.push_back(imported("Empty", "e", ""));

    struct Case
    {
        std::vector<std::size_t> chosen;
        std::string named; // what the message must name
    };
    const Case cases[] = {
        {{0, 1, 2}, "entry 3 (Broken)"},
        {{0, 3}, "entry 4 (Tagged)"},
        {{4, 0}, "entry 5 (Empty)"},
        {{0, 9}, "entry 10"},
    };
    for (const auto& c : cases) {
        auto result = addImported(fixture.vault, source, c.chosen, seeded(), 1000);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, vault::VaultError::InvalidRecord);
        QVERIFY2(result.error().message.find(c.named) != std::string::npos,
                 result.error().message.c_str());
        QVERIFY(result.error().message.find("secret c") == std::string::npos);
        QCOMPARE(fixture.vault.recordCount(), before.size());
        QVERIFY(snapshot(fixture.vault) == before);
    }
}

void TestImportPlan::realImportPlansAndAdds()
{
    Fixture fixture = makeVault();
    const QByteArray list = "otpauth://totp/ACME:alice?secret=ONSWG4TFOQQG63TFFYXC4LQ&issuer=ACME\n"
                            "otpauth://totp/Fresh:erin?secret=JBSWY3DPEHPK3PXP&issuer=Fresh\n"
                            "otpauth://totp/Fresh:erin?secret=JBSWY3DPEHPK3PXP&issuer=Fresh\n";
    const auto source = importAccounts(Format::OtpauthList, test::view(list));
    QVERIFY2(source.ok(), source ? "" : source.error().message.c_str());
    const auto plan = planImport(*source, fixture.vault);
    QCOMPARE(plan.size(), std::size_t(3));
    // "secret one...." in Base32.
    QCOMPARE(plan[0].match, ImportMatch::Duplicate);
    QCOMPARE(plan[0].existing, std::optional<vault::RecordId>(fixture.alice));
    QCOMPARE(plan[1].match, ImportMatch::New);
    QCOMPARE(plan[2].match, ImportMatch::Duplicate);
    QCOMPARE(plan[2].earlierEntry, std::optional<std::size_t>(1));
    const auto chosen = defaultChoice(plan);
    QCOMPARE(chosen, std::vector<std::size_t>{1});
    auto ids = addImported(fixture.vault, *source, chosen, seeded(), 2000);
    QVERIFY(ids.ok());
    QCOMPARE(fixture.vault.recordCount(), std::size_t(5));
    const auto again = planImport(*source, fixture.vault);
    QCOMPARE(again[1].match, ImportMatch::Duplicate);
    QCOMPARE(again[1].existing, std::optional<vault::RecordId>(ids->front()));
}

QTEST_GUILESS_MAIN(TestImportPlan)
#include "TestImportPlan.moc"
