// Fuzz target: importing another app's export (importers::importAccounts)
// in every format. An export is a file someone hands over, so each importer
// must answer anything with its accounts or one error, never crash, hang or
// hand back an account that could not be stored.
//
// Input: one selector byte, then the file. The selector's low four bits and
// bit 6 (as a fifth) pick the format (modulo the number of formats); bit 4
// gives the password "test" (the test files' password), so that encrypted
// variants are read up to their tag check; bit 5 reads with UnreadableEntries::Skip (the preview's
// mode), which must agree with the default: the default fails exactly when
// Skip lists an entry that cannot be imported, with that entry's reason.
// Key derivation costs come from the file and each importer bounds them: a
// derivation that outlasts the per-input timeout is a finding.
#include "FuzzCheck.h"
#include "interop/importers/Import.h"
#include "otp/OtpParameters.h"
#include "vault/Records.h"

#include <cstddef>
#include <cstdint>
#include <optional>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace watchword;
    using namespace watchword::importers;
    if (size == 0)
        return 0;
    // The format's index: the low four bits, and 0x40 as a fifth.
    const std::size_t index = (data[0] & 0x0fu) | ((data[0] & 0x40u) >> 2);
    const Format format = allFormats[index % allFormats.size()];
    std::optional<ByteView> password;
    if ((data[0] & 0x10) != 0)
        password = asBytes("test");
    const bool skip = (data[0] & 0x20) != 0;
    const ByteView file(data + 1, size - 1);

    const auto guessed = guessFormats(file);
    fuzz::expect(guessed.size() <= allFormats.size(), "a format is guessed at most once");
    if (guessed.empty())
        fuzz::expect(!describeUnrecognised(file).empty(), "an unrecognised file is described");
    (void)isEncrypted(format, file);

    const auto result = importAccounts(format, file, password,
                                       skip ? UnreadableEntries::Skip : UnreadableEntries::Refuse);
    if (!result) {
        fuzz::expect(!result.error().message.empty(), "an import error says what is wrong");
        return 0;
    }
    if (skip) {
        for (const auto& entry : result->skipped)
            fuzz::expect(!entry.reason.empty() && !entry.why.empty(), "a skipped entry says why");
        const auto strict = importAccounts(format, file, password);
        fuzz::expect(strict.ok() == result->skipped.empty(),
                     "the default refuses exactly when an entry is skipped");
        if (!strict)
            fuzz::expect(strict.error().message.starts_with(result->skipped.front().reason),
                         "the refusal names the first entry skipped");
    } else {
        fuzz::expect(result->skipped.empty(), "the default skips nothing");
    }
    fuzz::expect(result->format == format, "an import answers in the format asked for");
    fuzz::expect(result->accounts.size() <= maximumImportedAccounts,
                 "an import holds at most maximumImportedAccounts accounts");
    for (const auto& account : result->accounts) {
        fuzz::expect(!account.secret.empty() && account.secret.size() <= vault::maximumSecretSize,
                     "an imported secret has 1 to 1024 bytes");
        fuzz::expect(otp::validate(account.parameters, account.secret.size()).ok(),
                     "imported parameters pass otp::validate");
        for (const auto& tag : account.tags)
            fuzz::expect(!tag.empty() && tag.size() <= vault::maximumTagSize,
                         "an imported tag has 1 to 256 bytes");
    }
    return 0;
}
