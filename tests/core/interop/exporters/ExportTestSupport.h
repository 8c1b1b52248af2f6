// What the exporter tests share: the accounts every format is tried with
// (each kind, hash and digit count, HOTP counters, Steam, Unicode and empty
// issuers, tags and notes), and how an account is made.
#pragma once

#include "vault/Records.h"

#include <QByteArray>
#include <string>
#include <vector>

namespace watchword::test {

inline vault::OtpAccount makeAccount(std::string issuer, std::string name, const QByteArray& secret,
                                     otp::OtpParameters parameters,
                                     std::vector<std::string> tags = {}, std::string note = {})
{
    vault::OtpAccount account;
    account.issuer = std::move(issuer);
    account.accountName = std::move(name);
    account.secret =
        SecureBuffer(ByteView(reinterpret_cast<const std::uint8_t*>(secret.constData()),
                              static_cast<std::size_t>(secret.size())));
    account.parameters = parameters;
    account.tags = std::move(tags);
    account.note = std::move(note);
    account.created = 1767225600;
    account.modified = 1767225600;
    return account;
}

inline QByteArray counting(int size, int from = 1)
{
    QByteArray out;
    for (int i = 0; i < size; ++i)
        out.append(static_cast<char>((from + i) & 0xff));
    return out;
}

inline otp::OtpParameters totp(crypto::HashAlgorithm algorithm, int digits, std::uint32_t period)
{
    return {otp::OtpKind::Totp, algorithm, digits, period, 0};
}

inline otp::OtpParameters hotp(crypto::HashAlgorithm algorithm, int digits, std::uint64_t counter)
{
    return {otp::OtpKind::Hotp, algorithm, digits, otp::defaultPeriod, counter};
}

// Nine accounts; which of them each format keeps, and with what, is in
// TestExporters' round-trip table.
inline std::vector<vault::OtpAccount> sampleAccounts()
{
    using crypto::HashAlgorithm;
    std::vector<vault::OtpAccount> accounts;
    accounts.push_back(makeAccount("Example", "alice@example.com", "12345678901234567890",
                                   totp(HashAlgorithm::Sha1, 6, 30), {"work", "2fa"},
                                   "backup codes: in the safe"));
    accounts.push_back(makeAccount("B\u00e4nk \u2713", "bob", counting(32),
                                   totp(HashAlgorithm::Sha256, 7, 60), {"work"}));
    accounts.push_back(
        makeAccount("", "no-issuer", counting(64, 7), totp(HashAlgorithm::Sha512, 8, 30)));
    accounts.push_back(makeAccount("\u65e5\u672c\u9280\u884c", "\u592a\u90ce", counting(10, 90),
                                   totp(HashAlgorithm::Sha1, 10, 30)));
    accounts.push_back(
        makeAccount("Hotp", "zero", counting(20, 40), hotp(HashAlgorithm::Sha1, 6, 0)));
    accounts.push_back(makeAccount("Counter Co", "", counting(32, 3),
                                   hotp(HashAlgorithm::Sha256, 8, 42), {}, "line one\nline two"));
    accounts.push_back(
        makeAccount("Steam", "gamer", counting(20, 0xa0), otp::OtpParameters::steam(), {"games"}));
    accounts.push_back(
        makeAccount("GitHub", "octo cat", counting(64, 200), totp(HashAlgorithm::Sha512, 6, 30)));
    accounts.push_back(makeAccount("Big Counter", "carol", counting(16, 17),
                                   hotp(HashAlgorithm::Sha512, 8, std::uint64_t{1} << 40)));
    return accounts;
}

} // namespace watchword::test
