// A plain otpauth:// list: each account's canonical URI (otpauthUriOf), one
// a line, in the order given. A URI has no place for tags or a note, so an
// account with either goes out without them, with a warning; one that no URI
// can hold (a ':' in the account name, which the label cannot carry) is left
// out with a warning, as every export but the backup does. The export fails
// only if no account is left. exportUriLines is the loop, shared with Ente
// Auth's export (Ente.cpp), which is such a list with a parameter more.
#include "interop/exporters/ExportCommon.h"

namespace watchword::exporters::detail {

ExportResult<Exported>
exportUriLines(std::span<const vault::OtpAccount> accounts, std::string_view label,
               std::vector<otp::UriParameter> (*extraOf)(const vault::OtpAccount&),
               std::string_view droppedWhy)
{
    Exported exported;
    SecureText text;
    std::size_t written = 0;
    std::string firstLeftOut;
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        const vault::OtpAccount& account = accounts[i];
        auto uri =
            canonicalUri(account, extraOf ? extraOf(account) : std::vector<otp::UriParameter>{});
        if (!uri) {
            exported.warnings.push_back(entryLabel(i, account) + ": " + uri.error().message +
                                        "; left out");
            if (firstLeftOut.empty())
                firstLeftOut = entryLabel(i, account) + ": " + uri.error().message;
            continue;
        }
        text.append(uri->span());
        text.append('\n');
        ++written;
        if (droppedWhy.empty())
            continue;
        if (auto dropped = droppedFieldsWarning(i, account, droppedWhy); !dropped.empty())
            exported.warnings.push_back(std::move(dropped));
    }
    if (written == 0)
        return fail(ExportError::NotRepresentable,
                    std::string(label) + ": no account can be written as a URI (" + firstLeftOut +
                        (accounts.size() > 1 ? "; and the others" : "") + ")");
    exported.data = text.take();
    return exported;
}

ExportResult<Exported> exportOtpauthList(std::span<const vault::OtpAccount> accounts)
{
    return exportUriLines(accounts, "otpauth", nullptr, "an otpauth:// URI has no place for them");
}

} // namespace watchword::exporters::detail
