#include "app/codes/AccountDraft.h"
#include "common/TestSupport.h"
#include "encoding/Hex.h"
#include "otp/OtpauthUri.h"
#include "vault/Records.h"

#include <QMetaProperty>
#include <QSignalSpy>
#include <QtTest>

using namespace watchword;
using watchword::app::AccountDraft;
using watchword::app::CodePreview;

namespace {

// The fields' errors, by the name the form gives each.
const QStringList errorProperties = {
    QStringLiteral("issuerError"),    QStringLiteral("accountNameError"),
    QStringLiteral("secretError"),    QStringLiteral("kindError"),
    QStringLiteral("algorithmError"), QStringLiteral("digitsError"),
    QStringLiteral("periodError"),    QStringLiteral("counterError"),
    QStringLiteral("tagsError"),      QStringLiteral("noteError"),
};

// Every field's value, by property name, to compare whole drafts.
QVariantMap fields(const AccountDraft& draft)
{
    QVariantMap values;
    for (const char* name : {"recordId", "issuer", "accountName", "secret", "kind", "algorithm",
                             "digits", "period", "counter", "tags", "note"})
        values.insert(QString::fromLatin1(name), draft.property(name));
    return values;
}

// One field's error ("secretError": the secret's), read as QML reads it:
// from the draft's errors value.
QString errorNamed(const AccountDraft& draft, const QString& name)
{
    const auto errors = draft.property("errors").value<watchword::app::AccountFieldErrors>();
    const QMetaObject& meta = watchword::app::AccountFieldErrors::staticMetaObject;
    const int index = meta.indexOfProperty(name.chopped(5).toLatin1());
    if (index < 0)
        qFatal("no error field for %s", qPrintable(name));
    return meta.property(index).readOnGadget(&errors).toString();
}

// The fields with an error, by those names.
QStringList errorsOf(const AccountDraft& draft)
{
    QStringList nonEmpty;
    for (const auto& name : errorProperties)
        if (!errorNamed(draft, name).isEmpty())
            nonEmpty << name;
    return nonEmpty;
}

QJsonArray otpauthCases()
{
    return test::loadJson(QStringLiteral("otpauth/uris.json"))
        .value(QLatin1String("cases"))
        .toArray();
}

const char* const wikiBasic =
    "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example";

// The secret the way people type it: lower case, in groups of four, no
// padding.
QString asTyped(const QString& base32)
{
    QString plain = base32;
    plain.remove(QLatin1Char('='));
    QString typed;
    for (qsizetype i = 0; i < plain.size(); i += 4) {
        if (!typed.isEmpty())
            typed += QLatin1Char(' ');
        typed += plain.mid(i, 4).toLower();
    }
    return typed;
}

} // namespace

class TestAccountDraft : public QObject
{
    Q_OBJECT

private slots:
    void newDraftIsInvalidWithoutNoise();
    void loadsValidUris_data();
    void loadsValidUris();
    void refusesInvalidUris_data();
    void refusesInvalidUris();
    void eachFieldHasItsOwnError_data();
    void eachFieldHasItsOwnError();
    void previewIsTheRfc6238Code_data();
    void previewIsTheRfc6238Code();
    void previewFollowsTheClock();
    void hotpPreviewIsTheCodeAtTheCounter_data();
    void hotpPreviewIsTheCodeAtTheCounter();
    void steamPreviewUsesTheSteamAlphabet_data();
    void steamPreviewUsesTheSteamAlphabet();
    void kindSetsSteamParameters();
    void largeCounterIsExact();
    void tagsFromText();
    void loadAccountForEditing();
    void toAccountKeepsTheCallersFields();
    void wipeEmptiesEveryField();
};

void TestAccountDraft::newDraftIsInvalidWithoutNoise()
{
    AccountDraft draft;
    QVERIFY(!draft.valid());
    QVERIFY(draft.recordId().isEmpty());
    QCOMPARE(draft.kind(), QStringLiteral("totp"));
    QCOMPARE(draft.algorithm(), QStringLiteral("SHA1"));
    QCOMPARE(draft.digits(), 6);
    QCOMPARE(draft.period(), qint64(30));
    // An empty form misses the two things only the user can give.
    QCOMPARE(errorsOf(draft), (QStringList{"accountNameError", "secretError"}));
    QVERIFY(draft.preview()->code().isEmpty());
    vault::OtpAccount account;
    const auto filled = draft.toAccount(account);
    QVERIFY(!filled);
    QCOMPARE(filled.error(), draft.errors().accountName);
}

void TestAccountDraft::loadsValidUris_data()
{
    QTest::addColumn<QString>("uri");
    QTest::addColumn<QJsonObject>("expected");
    for (const auto& value : otpauthCases()) {
        const auto entry = value.toObject();
        if (entry.value(QLatin1String("valid")).toBool())
            QTest::newRow(entry.value(QLatin1String("id")).toString().toUtf8())
                << entry.value(QLatin1String("uri")).toString()
                << entry.value(QLatin1String("expected")).toObject();
    }
}

void TestAccountDraft::loadsValidUris()
{
    QFETCH(QString, uri);
    QFETCH(QJsonObject, expected);
    AccountDraft draft;
    draft.setTagsText(QStringLiteral("kept, as typed"));
    QVERIFY2(draft.loadUri(uri), qPrintable(draft.uriError()));
    QVERIFY(draft.uriError().isEmpty());
    QVERIFY2(draft.valid(), qPrintable(errorsOf(draft).join(u' ')));

    const QString type = expected.value(QLatin1String("type")).toString();
    QCOMPARE(draft.kind(), type);
    QCOMPARE(draft.issuer(), expected.value(QLatin1String("issuer")).toString());
    QCOMPARE(draft.accountName(), expected.value(QLatin1String("account")).toString());
    QCOMPARE(draft.algorithm(), expected.value(QLatin1String("algorithm")).toString());
    QCOMPARE(draft.digits(), expected.value(QLatin1String("digits")).toInt());
    if (type == QLatin1String("hotp"))
        QCOMPARE(draft.counter(),
                 QString::number(expected.value(QLatin1String("counter")).toInteger()));
    else
        QCOMPARE(draft.period(), expected.value(QLatin1String("period")).toInteger());
    // A URI carries no tags or note: what the user typed stays.
    QCOMPARE(draft.tags(), (QStringList{"kept", "as typed"}));

    vault::OtpAccount account;
    const auto filled = draft.toAccount(account);
    QVERIFY2(filled, filled ? "" : qPrintable(filled.error()));
    QCOMPARE(QString::fromStdString(encoding::toHex(account.secret.span())),
             expected.value(QLatin1String("secret_hex")).toString());
    QCOMPARE(QString::fromStdString(account.issuer), draft.issuer());
    QCOMPARE(QString::fromStdString(account.accountName), draft.accountName());
    QCOMPARE(QString::fromLatin1(otp::kindName(account.parameters.kind)), type);
    QCOMPARE(int(account.parameters.digits), draft.digits());
    QCOMPARE(account.tags, (std::vector<std::string>{"kept", "as typed"}));

    // The parameters are exactly the parser's, and the account goes back
    // into a draft unchanged.
    const auto parsed = otp::parseOtpauthUri(uri.toStdString());
    QVERIFY(parsed);
    QVERIFY(account.parameters == parsed->parameters);
    AccountDraft again;
    again.loadAccount(account);
    auto expectedFields = fields(draft);
    expectedFields.insert(QStringLiteral("recordId"), again.recordId());
    QCOMPARE(fields(again), expectedFields);
    again.preview()->setNow(1700000000);
    draft.preview()->setNow(1700000000);
    QVERIFY(!draft.preview()->code().isEmpty());
    QCOMPARE(again.preview()->code(), draft.preview()->code());
}

void TestAccountDraft::refusesInvalidUris_data()
{
    QTest::addColumn<QString>("uri");
    for (const auto& value : otpauthCases()) {
        const auto entry = value.toObject();
        if (!entry.value(QLatin1String("valid")).toBool())
            QTest::newRow(entry.value(QLatin1String("id")).toString().toUtf8())
                << entry.value(QLatin1String("uri")).toString();
    }
    QTest::newRow("not a URI") << "JBSWY3DPEHPK3PXP";
    QTest::newRow("empty") << "";
}

void TestAccountDraft::refusesInvalidUris()
{
    QFETCH(QString, uri);
    AccountDraft draft;
    QVERIFY(draft.loadUri(QString::fromLatin1(wikiBasic)));
    draft.setNote(QStringLiteral("before"));
    const auto before = fields(draft);
    QSignalSpy errors(&draft, &AccountDraft::uriErrorChanged);
    QSignalSpy secret(&draft, &AccountDraft::secretChanged);
    QSignalSpy issuer(&draft, &AccountDraft::issuerChanged);

    QVERIFY(!draft.loadUri(uri));
    // The parser's own message, which names the problem.
    const auto parsed = otp::parseOtpauthUri(uri.toStdString());
    QVERIFY(!parsed);
    QCOMPARE(draft.uriError(), QString::fromStdString(parsed.error().message));
    QVERIFY(!draft.uriError().isEmpty());
    QCOMPARE(errors.count(), 1);
    QCOMPARE(fields(draft), before);
    QCOMPARE(secret.count(), 0);
    QCOMPARE(issuer.count(), 0);
    QVERIFY(draft.valid());

    // A good URI afterwards clears the message.
    QVERIFY(draft.loadUri(QString::fromLatin1(wikiBasic)));
    QVERIFY(draft.uriError().isEmpty());
}

void TestAccountDraft::eachFieldHasItsOwnError_data()
{
    QTest::addColumn<QString>("property");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("mentions");

    const QString totp = QStringLiteral("totp");
    QTest::newRow("secret: not Base32")
        << "secret" << QVariant("JBSWY3DPEHPK3PX1") << totp << "secretError"
        << "'1' at position 16";
    QTest::newRow("secret: impossible length")
        << "secret" << QVariant("JBSWY3DPE") << totp << "secretError"
        << "last group";
    QTest::newRow("secret: misplaced padding")
        << "secret" << QVariant("JBSW=Y3DPEHPK3PXP") << totp << "secretError"
        << "padding";
    QTest::newRow("secret: not ASCII")
        << "secret" << QVariant("JBSWY3DPEHPK3PX\u00e9") << totp << "secretError"
        << "character 16";
    QTest::newRow("secret: empty") << "secret" << QVariant("   ") << totp << "secretError"
                                   << "Enter the secret";
    QTest::newRow("secret: padding only")
        << "secret" << QVariant("========") << totp << "secretError"
        << "padding";
    QTest::newRow("secret: too long")
        << "secret" << QVariant(QString(1640, u'A')) << totp << "secretError"
        << "1025 bytes";
    QTest::newRow("digits: 5") << "digits" << QVariant(5) << totp << "digitsError"
                               << "6 to 10";
    QTest::newRow("digits: 11") << "digits" << QVariant(11) << totp << "digitsError"
                                << "6 to 10";
    QTest::newRow("digits: Steam 6") << "digits" << QVariant(6) << "steam"
                                     << "digitsError"
                                     << "5 characters";
    QTest::newRow("period: 0") << "period" << QVariant(0) << totp << "periodError"
                               << "1 to 4294967295";
    QTest::newRow("period: 2^32") << "period" << QVariant(qint64(1) << 32) << totp << "periodError"
                                  << "1 to 4294967295";
    QTest::newRow("period: Steam 60") << "period" << QVariant(60) << "steam"
                                      << "periodError"
                                      << "30 seconds";
    QTest::newRow("kind: unknown") << "kind" << QVariant("xotp") << totp << "kindError"
                                   << "TOTP";
    QTest::newRow("algorithm: MD5") << "algorithm" << QVariant("MD5") << totp << "algorithmError"
                                    << "SHA256";
    QTest::newRow("algorithm: Steam SHA256") << "algorithm" << QVariant("SHA256") << "steam"
                                             << "algorithmError"
                                             << "SHA1 only";
    QTest::newRow("counter: letters") << "counter" << QVariant("abc") << "hotp"
                                      << "counterError"
                                      << "whole number";
    QTest::newRow("counter: negative") << "counter" << QVariant("-1") << "hotp"
                                       << "counterError"
                                       << "whole number";
    QTest::newRow("counter: 2^64") << "counter" << QVariant("18446744073709551616") << "hotp"
                                   << "counterError"
                                   << "18446744073709551615";
    QTest::newRow("counter: empty") << "counter" << QVariant("") << "hotp"
                                    << "counterError"
                                    << "whole number";
    QTest::newRow("tags: twice") << "tags" << QVariant(QStringList{"work", "work"}) << totp
                                 << "tagsError"
                                 << "twice";
    QTest::newRow("tags: empty") << "tags" << QVariant(QStringList{"work", " "}) << totp
                                 << "tagsError"
                                 << "empty";
    QTest::newRow("tags: too long")
        << "tags" << QVariant(QStringList{QString(257, u'x')}) << totp << "tagsError"
        << "256 bytes";
    QTest::newRow("tags: 129 two-byte letters")
        << "tags" << QVariant(QStringList{QString(129, QChar(0xe9))}) << totp << "tagsError"
        << "256 bytes";
    QTest::newRow("note: NUL") << "note" << QVariant(QString::fromUtf16(u"a\0b", 3)) << totp
                               << "noteError"
                               << "NUL";
    QTest::newRow("issuer: NUL") << "issuer" << QVariant(QString(QChar(0))) << totp << "issuerError"
                                 << "NUL";
    QTest::newRow("issuer: lone surrogate")
        << "issuer" << QVariant(QString(QChar(0xd800))) << totp << "issuerError"
        << "incomplete";
    QTest::newRow("account name: NUL")
        << "accountName" << QVariant(QString(QChar(0))) << totp << "accountNameError"
        << "NUL";
}

void TestAccountDraft::eachFieldHasItsOwnError()
{
    QFETCH(QString, property);
    QFETCH(QVariant, value);
    QFETCH(QString, kind);
    QFETCH(QString, error);
    QFETCH(QString, mentions);

    AccountDraft draft;
    draft.preview()->setNow(59);
    QVERIFY(draft.loadUri(QString::fromLatin1(wikiBasic)));
    draft.setKind(kind);
    QVERIFY2(draft.valid(), qPrintable(errorsOf(draft).join(u' ')));
    QVERIFY(!draft.preview()->code().isEmpty());

    QSignalSpy errorsChanged(&draft, &AccountDraft::errorsChanged);
    QVERIFY(draft.setProperty(property.toLatin1(), value));
    QCOMPARE(errorsOf(draft), QStringList{error});
    const QString message = errorNamed(draft, error);
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY(!draft.valid());
    QVERIFY(draft.preview()->code().isEmpty());
    QVERIFY(errorsChanged.count() >= 1);

    vault::OtpAccount account;
    account.issuer = "untouched";
    const auto filled = draft.toAccount(account);
    QVERIFY(!filled);
    QCOMPARE(filled.error(), message);
    QCOMPARE(account.issuer, std::string("untouched"));
}

void TestAccountDraft::previewIsTheRfc6238Code_data()
{
    QTest::addColumn<QString>("secret");
    QTest::addColumn<QString>("algorithm");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<QString>("code");
    const auto rfc = test::loadJson(QStringLiteral("rfc/rfc6238_totp.json"));
    const auto seeds = rfc.value(QLatin1String("seeds")).toObject();
    for (const auto& value : rfc.value(QLatin1String("vectors")).toArray()) {
        const auto vector = value.toObject();
        const QString algorithm = vector.value(QLatin1String("algorithm")).toString();
        const QString base32 =
            seeds.value(algorithm).toObject().value(QLatin1String("base32")).toString();
        const qint64 time = vector.value(QLatin1String("time")).toInteger();
        const QString code = vector.value(QLatin1String("totp")).toString();
        const QByteArray name = algorithm.toLatin1() + " at " + QByteArray::number(time);
        QTest::newRow(name + ", as printed") << base32 << algorithm << time << code;
        QTest::newRow(name + ", as typed")
            << asTyped(base32) << algorithm.toLower() << time << code;
    }
}

void TestAccountDraft::previewIsTheRfc6238Code()
{
    QFETCH(QString, secret);
    QFETCH(QString, algorithm);
    QFETCH(qint64, time);
    QFETCH(QString, code);
    AccountDraft draft;
    draft.setAccountName(QStringLiteral("RFC 6238"));
    draft.setSecret(secret);
    draft.setAlgorithm(algorithm);
    draft.setDigits(8);
    // A fraction of a second changes nothing: codes follow whole seconds.
    draft.preview()->setNow(double(time) + 0.75);
    QVERIFY2(draft.valid(), qPrintable(errorsOf(draft).join(u' ')));
    QCOMPARE(draft.preview()->code(), code);
    QCOMPARE(draft.preview()->groupedCode(), code.left(4) + u' ' + code.mid(4));
    QCOMPARE(draft.preview()->secondsLeft(), int(30 - time % 30));
}

void TestAccountDraft::previewFollowsTheClock()
{
    const auto rfc = test::loadJson(QStringLiteral("rfc/rfc6238_totp.json"));
    AccountDraft draft;
    QSignalSpy preview(draft.preview(), &CodePreview::changed);
    draft.setAccountName(QStringLiteral("RFC 6238"));
    draft.setSecret(rfc.value(QLatin1String("seeds"))
                        .toObject()
                        .value(QLatin1String("SHA1"))
                        .toObject()
                        .value(QLatin1String("base32"))
                        .toString());
    draft.setDigits(8);
    // RFC 6238: 94287082 at 59 s (step 1), 07081804 at 1111111109 s.
    draft.preview()->setNow(59);
    QCOMPARE(draft.preview()->code(), QStringLiteral("94287082"));
    QCOMPARE(draft.preview()->secondsLeft(), 1);
    preview.clear();
    draft.preview()->setNow(59.5);
    QCOMPARE(preview.count(), 0); // the same second: nothing to redraw
    draft.preview()->setNow(1111111109);
    QCOMPARE(draft.preview()->code(), QStringLiteral("07081804"));
    QCOMPARE(preview.count(), 1);
    // Before the epoch there is no code to show.
    draft.preview()->setNow(-1);
    QVERIFY(draft.preview()->code().isEmpty());
    QVERIFY(draft.valid());
}

void TestAccountDraft::hotpPreviewIsTheCodeAtTheCounter_data()
{
    QTest::addColumn<QString>("secret");
    QTest::addColumn<QString>("counter");
    QTest::addColumn<QString>("code");
    const auto rfc = test::loadJson(QStringLiteral("rfc/rfc4226_hotp.json"));
    const QString secret = rfc.value(QLatin1String("secret_base32")).toString();
    for (const auto& value : rfc.value(QLatin1String("vectors")).toArray()) {
        const auto vector = value.toObject();
        const QString counter = QString::number(vector.value(QLatin1String("counter")).toInteger());
        QTest::newRow(qPrintable(QStringLiteral("counter ") + counter))
            << secret << counter << vector.value(QLatin1String("hotp")).toString();
    }
}

void TestAccountDraft::hotpPreviewIsTheCodeAtTheCounter()
{
    QFETCH(QString, secret);
    QFETCH(QString, counter);
    QFETCH(QString, code);
    AccountDraft draft;
    draft.setIssuer(QStringLiteral("RFC 4226"));
    draft.setSecret(secret);
    draft.setKind(QStringLiteral("hotp"));
    draft.setCounter(counter);
    QVERIFY2(draft.valid(), qPrintable(errorsOf(draft).join(u' ')));
    QCOMPARE(draft.preview()->code(), code);
    QCOMPARE(draft.preview()->secondsLeft(), 0);
    // The clock does not move an HOTP code.
    draft.preview()->setNow(1700000000);
    QCOMPARE(draft.preview()->code(), code);
}

void TestAccountDraft::steamPreviewUsesTheSteamAlphabet_data()
{
    QTest::addColumn<QString>("secret");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<QString>("code");
    const auto steam = test::loadJson(QStringLiteral("otp/steam_codes.json"));
    const auto secrets = steam.value(QLatin1String("secrets")).toObject();
    for (const auto& value : steam.value(QLatin1String("vectors")).toArray()) {
        const auto vector = value.toObject();
        const QString id = vector.value(QLatin1String("secret_id")).toString();
        const qint64 time = vector.value(QLatin1String("time")).toInteger();
        // JSON readers are exact to 2^53; the far-future times are past what
        // a double of Unix seconds (the clock's type) holds exactly.
        if (time > (qint64(1) << 53))
            continue;
        QTest::newRow(qPrintable(id + QStringLiteral(" at ") + QString::number(time)))
            << secrets.value(id).toObject().value(QLatin1String("base32")).toString() << time
            << vector.value(QLatin1String("code")).toString();
    }
}

void TestAccountDraft::steamPreviewUsesTheSteamAlphabet()
{
    QFETCH(QString, secret);
    QFETCH(qint64, time);
    QFETCH(QString, code);
    AccountDraft draft;
    draft.setIssuer(QStringLiteral("Steam"));
    draft.setSecret(asTyped(secret));
    draft.setKind(QStringLiteral("steam"));
    draft.preview()->setNow(double(time));
    QVERIFY2(draft.valid(), qPrintable(errorsOf(draft).join(u' ')));
    QCOMPARE(draft.preview()->code(), code);
    QCOMPARE(draft.preview()->code().size(), qsizetype(otp::steamDigits));
    for (const QChar c : draft.preview()->code())
        QVERIFY(QLatin1String(otp::steamAlphabet.data(), qsizetype(otp::steamAlphabet.size()))
                    .contains(c));
    // Five symbols stay one group.
    QCOMPARE(draft.preview()->groupedCode(), code);
}

void TestAccountDraft::kindSetsSteamParameters()
{
    AccountDraft draft;
    QVERIFY(draft.loadUri(QStringLiteral(
        "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&algorithm=SHA256&digits=8&"
        "period=60")));
    draft.setKind(QStringLiteral("steam"));
    QCOMPARE(draft.algorithm(), QStringLiteral("SHA1"));
    QCOMPARE(draft.digits(), 5);
    QCOMPARE(draft.period(), qint64(30));
    QVERIFY(draft.valid());
    draft.setKind(QStringLiteral("totp"));
    QCOMPARE(draft.digits(), 6);
    QVERIFY(draft.valid());
    // A Steam URI comes back as Steam.
    QVERIFY(draft.loadUri(
        QStringLiteral("otpauth://steam/Steam:alice?secret=JRZCL47CMXVOQMNPZR2F7J4RGI")));
    QCOMPARE(draft.kind(), QStringLiteral("steam"));
    draft.preview()->setNow(1700000000);
    // The Aegis test vault's Steam entry, as otp/steam_codes.json records it.
    QCOMPARE(draft.preview()->code(), QStringLiteral("747JR"));
}

void TestAccountDraft::largeCounterIsExact()
{
    AccountDraft draft;
    QVERIFY(draft.loadUri(QStringLiteral("otpauth://hotp/Example:alice?secret=JBSWY3DPEHPK3PXP&"
                                         "counter=18446744073709551615")));
    QCOMPARE(draft.counter(), QStringLiteral("18446744073709551615"));
    vault::OtpAccount account;
    const auto filled = draft.toAccount(account);
    QVERIFY2(filled, filled ? "" : qPrintable(filled.error()));
    QCOMPARE(account.parameters.counter, std::numeric_limits<std::uint64_t>::max());
}

void TestAccountDraft::tagsFromText()
{
    AccountDraft draft;
    QSignalSpy changed(&draft, &AccountDraft::tagsChanged);
    draft.setTagsText(QStringLiteral(" work ,, personal,  two words ,"));
    QCOMPARE(draft.tags(), (QStringList{"work", "personal", "two words"}));
    QCOMPARE(draft.tagsText(), QStringLiteral("work, personal, two words"));
    QCOMPARE(changed.count(), 1);
    draft.setTagsText(QStringLiteral("work,personal,two words"));
    QCOMPARE(changed.count(), 1);
    draft.setTagsText(QString());
    QVERIFY(draft.tags().isEmpty());
    QVERIFY(draft.errors().tags.isEmpty());
}

void TestAccountDraft::loadAccountForEditing()
{
    vault::OtpAccount account;
    for (std::size_t i = 0; i < account.id.size(); ++i)
        account.id[i] = static_cast<std::uint8_t>(0xa0 + i);
    account.issuer = "Example Bank";
    account.accountName = "4417 12** ****";
    const auto secret = test::hex(QStringLiteral("48656c6c6f21deadbeef"));
    account.secret = SecureBuffer(secret);
    account.parameters.kind = otp::OtpKind::Hotp;
    account.parameters.algorithm = crypto::HashAlgorithm::Sha512;
    account.parameters.digits = 8;
    account.parameters.counter = 10300;
    account.tags = {"finance", "h\xc3\xa9llo"};
    account.note = "card on file";

    AccountDraft draft;
    QSignalSpy recordId(&draft, &AccountDraft::recordIdChanged);
    draft.loadAccount(account);
    QCOMPARE(recordId.count(), 1);
    QCOMPARE(draft.recordId(), QStringLiteral("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"));
    QCOMPARE(draft.issuer(), QStringLiteral("Example Bank"));
    QCOMPARE(draft.accountName(), QStringLiteral("4417 12** ****"));
    QCOMPARE(draft.secret(), QStringLiteral("JBSWY3DPEHPK3PXP"));
    QCOMPARE(draft.kind(), QStringLiteral("hotp"));
    QCOMPARE(draft.algorithm(), QStringLiteral("SHA512"));
    QCOMPARE(draft.digits(), 8);
    QCOMPARE(draft.counter(), QStringLiteral("10300"));
    QCOMPARE(draft.tags(), (QStringList{"finance", QStringLiteral("h\u00e9llo")}));
    QCOMPARE(draft.note(), QStringLiteral("card on file"));
    QVERIFY(draft.valid());

    vault::OtpAccount back;
    const auto filled = draft.toAccount(back);
    QVERIFY2(filled, filled ? "" : qPrintable(filled.error()));
    QCOMPARE(back.issuer, account.issuer);
    QCOMPARE(back.accountName, account.accountName);
    QVERIFY(constantTimeEqual(back.secret.span(), account.secret.span()));
    QVERIFY(back.parameters == account.parameters);
    QCOMPARE(back.tags, account.tags);
    QCOMPARE(back.note, account.note);
}

void TestAccountDraft::toAccountKeepsTheCallersFields()
{
    AccountDraft draft;
    QVERIFY(draft.loadUri(QString::fromLatin1(wikiBasic)));
    draft.setIssuer(QStringLiteral("  Example  "));
    vault::OtpAccount account;
    account.id[0] = 7;
    account.version = 3;
    account.created = 1600000000;
    account.modified = 1650000000;
    account.sortPosition = 9;
    account.iconReference = "icon";
    const auto filled = draft.toAccount(account);
    QVERIFY2(filled, filled ? "" : qPrintable(filled.error()));
    QCOMPARE(account.issuer, std::string("Example")); // trimmed
    QCOMPARE(account.id[0], std::uint8_t(7));
    QCOMPARE(account.version, std::uint64_t(3));
    QCOMPARE(account.created, std::int64_t(1600000000));
    QCOMPARE(account.modified, std::int64_t(1650000000));
    QCOMPARE(account.sortPosition, std::uint32_t(9));
    QCOMPARE(account.iconReference, std::string("icon"));
    const vault::Record record(account.clone());
    QVERIFY(vault::validateRecord(record));
}

void TestAccountDraft::wipeEmptiesEveryField()
{
    vault::OtpAccount account;
    account.id[15] = 1;
    account.accountName = "alice";
    account.secret = SecureBuffer(test::hex(QStringLiteral("48656c6c6f21deadbeef")));
    account.tags = {"work"};
    account.note = "note";
    AccountDraft draft;
    draft.loadAccount(account);
    draft.preview()->setNow(59);
    QVERIFY(!draft.preview()->code().isEmpty());
    const auto fresh = fields(AccountDraft());

    QSignalSpy secret(&draft, &AccountDraft::secretChanged);
    QSignalSpy recordId(&draft, &AccountDraft::recordIdChanged);
    QSignalSpy preview(draft.preview(), &CodePreview::changed);
    draft.wipe();
    QVERIFY(draft.secret().isEmpty());
    QVERIFY(draft.recordId().isEmpty());
    QVERIFY(draft.preview()->code().isEmpty());
    QVERIFY(!draft.valid());
    QCOMPARE(fields(draft), fresh);
    QCOMPARE(secret.count(), 1);
    QCOMPARE(recordId.count(), 1);
    QVERIFY(preview.count() >= 1);
}

QTEST_GUILESS_MAIN(TestAccountDraft)
#include "TestAccountDraft.moc"
