#include "app/vault/DemoVault.h"

#include "crypto/Secp256k1.h"
#include "encoding/Hex.h"
#include "interop/exporters/Export.h"
#include "keychain/Keychain.h"
#include "otp/OtpParameters.h"
#include "share/Envelope.h"
#include "vault/Calibration.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace watchword::app {

Result<DemoVault, std::string> makeDemoVault(crypto::RandomSource& random, std::int64_t now)
{
    auto keychain = keychain::Keychain::create(random, keychain::Keychain::defaultWordCount);
    if (!keychain)
        return fail(keychain.error().message);
    auto created = vault::Vault::create(asBytes(demoPassword), *keychain,
                                        {vault::minimumPasswordIterations, 1000, 0}, random, now);
    if (!created)
        return fail(created.error().message);
    struct Sample
    {
        const char* issuer;
        const char* account;
        otp::OtpParameters parameters;
        const char* tag;
    };
    otp::OtpParameters sha256Eight;
    sha256Eight.algorithm = crypto::HashAlgorithm::Sha256;
    sha256Eight.digits = 8;
    sha256Eight.period = 60;
    otp::OtpParameters hotp;
    hotp.kind = otp::OtpKind::Hotp;
    hotp.counter = 7;
    const Sample samples[] = {
        {"GitHub", "alice", {}, "work"},
        {"Google", "alice@example.com", {}, "personal"},
        {"Example Bank", "4417 12** ****", sha256Eight, "finance"},
        {"Steam", "alice_plays", otp::OtpParameters::steam(), "games"},
        {"Mastodon", "@alice@example.social", {}, "personal"},
        {"VPN gateway", "alice (token)", hotp, "work"},
        {"Cloud Console", "alice@example.org", {}, "work"},
    };
    std::uint32_t position = 0;
    for (const auto& sample : samples) {
        vault::OtpAccount account;
        account.issuer = sample.issuer;
        account.accountName = sample.account;
        account.parameters = sample.parameters;
        account.secret = SecureBuffer(20);
        random.fill(account.secret.span());
        account.tags = {sample.tag};
        account.created = now;
        account.modified = now;
        account.sortPosition = position++;
        if (auto added = created->add(std::move(account), random); !added)
            return fail(added.error().message);
    }
    const std::pair<const char*, const char*> notes[] = {
        {"Wi-Fi at home", "Network: example-home\nPassword: correct horse battery staple"},
        {"Passport", "Number: X1234567\nExpires: 2031-05-01"},
    };
    for (const auto& [title, body] : notes) {
        vault::SecureNote note;
        note.title = title;
        note.body = SecureBuffer(asBytes(std::string_view(body)));
        note.created = now;
        note.modified = now;
        note.sortPosition = position++;
        if (auto added = created->add(std::move(note), random); !added)
            return fail(added.error().message);
    }
    // Two people to share with, one verified: the sharing keys of the
    // keychain test vectors' first two phrases (docs/FORMAT.md section 11).
    const std::tuple<const char*, const char*, bool> contacts[] = {
        {"Alice", "03ff42cfd942841e0cb79a15922820861dcc16216ae648a37d3659d3113d2514fc", true},
        {"Bob", nullptr, false},
    };
    for (const auto& [name, keyHex, verified] : contacts) {
        vault::Contact contact;
        contact.name = name;
        if (keyHex != nullptr) {
            const auto key = encoding::fromHex(keyHex);
            if (!key || key->size() != contact.publicKey.size())
                return fail(std::string("the demo contact's key"));
            std::copy(key->begin(), key->end(), contact.publicKey.begin());
        } else {
            // Any valid key: a fresh one.
            contact.publicKey = crypto::SecretKey::generate(random).publicKey().compressed();
        }
        contact.verified = verified;
        contact.created = now;
        contact.modified = now;
        contact.sortPosition = position++;
        if (auto added = created->add(std::move(contact), random); !added)
            return fail(added.error().message);
    }
    auto file = created->serialize(random, now);
    if (!file)
        return fail(file.error().message);
    return DemoVault{std::move(*created), std::move(*file)};
}

Result<SecureBuffer, std::string> demoImportSample(const std::vector<vault::OtpAccount>& accounts,
                                                   crypto::RandomSource& random)
{
    if (accounts.size() < 3)
        return fail(std::string("the demo sample needs three accounts"));
    std::vector<vault::OtpAccount> sample;
    sample.push_back(accounts[0].clone());
    sample.push_back(accounts[1].clone());
    auto renewed = accounts[2].clone();
    random.fill(renewed.secret.span());
    sample.push_back(std::move(renewed));
    for (const char* issuer : {"Fastmail", "Mastodon"}) {
        vault::OtpAccount fresh;
        fresh.issuer = issuer;
        fresh.accountName = "sam@example.org";
        fresh.secret = SecureBuffer(20);
        random.fill(fresh.secret.span());
        sample.push_back(std::move(fresh));
    }
    auto exported =
        exporters::exportAccounts(exporters::ExportFormat::OtpauthList, sample, {}, random);
    if (!exported)
        return fail(exported.error().message);
    return std::move(exported->data);
}

Result<Bytes, std::string> demoShareSample(const vault::Vault& demo, crypto::RandomSource& random,
                                           std::int64_t now)
{
    if (!demo.sharingKey())
        return fail(std::string("the demo vault has no sharing identity"));
    const auto alice = keychain::Keychain::restore(
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
        "about");
    if (!alice)
        return fail(alice.error().message);
    const vault::OtpAccount* first = nullptr;
    for (const vault::Record* record : vault::sortedRecords(demo, vault::RecordKind::OtpAccount)) {
        first = &std::get<vault::OtpAccount>(*record);
        break;
    }
    if (first == nullptr)
        return fail(std::string("the demo vault has no account"));
    std::vector<vault::Record> records;
    vault::OtpAccount copy = first->clone();
    copy.sortPosition = 0;
    copy.lastUsed.reset();
    records.emplace_back(std::move(copy));
    vault::OtpAccount fresh;
    fresh.issuer = "Mastodon";
    fresh.accountName = "family@example.social";
    fresh.secret = SecureBuffer(20);
    random.fill(fresh.secret.span());
    fresh.created = fresh.modified = now;
    records.emplace_back(std::move(fresh));
    vault::SecureNote note;
    note.title = "Router at Grandma's";
    note.body = SecureBuffer(asBytes(std::string_view("Admin: http://192.168.1.1\nUser: admin")));
    note.created = note.modified = now;
    records.emplace_back(std::move(note));
    std::vector<share::SharedRecord> shared;
    for (const auto& record : records) {
        auto fields = vault::encodeFields(record);
        if (!fields)
            return fail(fields.error().message);
        shared.push_back({static_cast<std::uint8_t>(vault::kindOf(record)), std::move(*fields)});
    }
    const crypto::PublicKey recipient = demo.sharingKey()->publicKey;
    auto envelope = share::sealEnvelope(random, alice->sharingKey(), std::span(&recipient, 1),
                                        shared, now - 3600);
    if (!envelope)
        return fail(envelope.error().message);
    return std::move(*envelope);
}

} // namespace watchword::app
