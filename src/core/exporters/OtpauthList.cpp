// A plain otpauth:// list: each account's canonical URI (otpauthUriOf), one
// a line, in the order given. A URI has no place for tags or a note, so an
// account with either goes out without them, with a warning; one whose
// label cannot be written (a ':' in the account name) fails the export.
#include "exporters/ExportCommon.h"

namespace watchword::exporters::detail {

ExportResult<Exported> exportOtpauthList(std::span<const vault::OtpAccount> accounts)
{
    Exported exported;
    SecureText text;
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        const vault::OtpAccount& account = accounts[i];
        auto uri = canonicalUri(account);
        if (!uri)
            return fail(uri.error().code,
                        "otpauth: " + entryLabel(i, account) + ": " + uri.error().message);
        text.append(uri->span());
        text.append('\n');
        if (auto dropped =
                droppedFieldsWarning(i, account, "an otpauth:// URI has no place for them");
            !dropped.empty())
            exported.warnings.push_back(std::move(dropped));
    }
    exported.data = text.take();
    return exported;
}

} // namespace watchword::exporters::detail
