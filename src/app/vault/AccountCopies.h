// Reading accounts out of the unlocked vault, for the parts that hand them
// on (export, QR codes, the watch, the demo's import sample).
#pragma once

#include "base/Result.h"
#include "vault/Records.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace watchword::app {

class VaultController;

// Copies of the OTP accounts with these record ids (hex) in the order given,
// or of every account in list order when none is given. Fails, saying why,
// if the vault is not unlocked and free, an id names no account, or none is
// given and the vault holds none.
[[nodiscard]] Result<std::vector<vault::OtpAccount>, QString>
accountCopies(const VaultController& session, const QStringList& recordIds);

// Whether the unlocked vault holds an OTP account (false while locked).
[[nodiscard]] bool holdsAccounts(const VaultController& session);

} // namespace watchword::app
