// Secrets typed as text (passwords, BIP39 passphrases), turned into the bytes
// the core derives keys from: the UTF-8 of the Unicode NFKD form, which BIP39
// requires of passphrases and the vault format of passwords
// (docs/FORMAT.md section 6.2), so the same typed text opens the vault
// whatever form the keyboard or input method produced. Qt's normalization is
// the Unicode library at hand, which is why this sits outside src/core; the
// app and the CLI share it.
#pragma once

#include "base/Bytes.h"
#include "base/Result.h"
#include "base/SecureBuffer.h"

#include <QString>
#include <string>
#include <string_view>

namespace watchword::text {

// The NFKD UTF-8 of the UTF-8 text, or "<what> is not valid UTF-8" if it is
// not UTF-8. Every copy made on the way is wiped.
[[nodiscard]] Result<SecureBuffer, std::string> normalizeSecretText(const SecureBuffer& text,
                                                                    std::string_view what);

// The same from a QString (what a QML text field gives). The caller's string
// is wiped and emptied (see wipe()).
[[nodiscard]] SecureBuffer normalizeSecretText(QString& text);

// Secret text that is kept, not derived from (a note's body): the UTF-8 of
// its NFC form. Canonical composition only changes how a character is
// encoded, never what it is; compatibility mapping (NFKD) would turn "²"
// into "2" and "ﬁ" into "fi" and so alter what the user wrote. The caller's
// string is wiped and emptied.
[[nodiscard]] SecureBuffer composedText(QString& text);

// Overwrites text's characters and empties it. A string sharing its data
// with others is detached first, so only this copy is wiped: the others
// (a text field's own) are beyond reach.
void wipe(QString& text);

} // namespace watchword::text
