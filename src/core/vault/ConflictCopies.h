// The copies a sync engine leaves beside a vault when two machines changed
// it between two syncs (docs/FORMAT.md section 13; README "A vault in a
// synced folder"), found by each engine's own naming. A name is only a
// hint: a copy is merged only if it opens as the same vault, and one that
// does not is never removed.
#pragma once

#include "base/Result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::vault {

struct ConflictCopy
{
    std::string path;   // in the vault's directory
    std::string engine; // "Syncthing", "Dropbox", ...
};

// The engine whose conflict-copy naming fileName (a name, no directory)
// follows for the vault file named vaultName, or nothing. For vaultName
// "vault.wwv":
//   Syncthing                 vault.sync-conflict-20261204-141516-ABCDEF7.wwv
//   Nextcloud, ownCloud       vault (conflicted copy 2026-12-04 141516).wwv
//                             (with the user's name before the date, too)
//   Nextcloud, ownCloud < 2.5 vault_conflict-20261204-141516.wwv
//   Dropbox                   vault (Alice's conflicted copy 2026-12-04).wwv
//   Seafile                   vault (SFConflict alice@example.com 2026-12-04-14-15-16).wwv
//   OneDrive (onedrive)       vault-myhost-safeBackup-0001.wwv
//   Unison (copyonconflict)   vault (conflict_on_2026-12-04).wwv
// The engine's part goes before the last dot of vaultName (at its end when
// it has none).
[[nodiscard]] std::optional<std::string> conflictCopyEngine(std::string_view vaultName,
                                                            std::string_view fileName);

// The conflict copies of the vault at vaultPath in its directory, by name;
// regular files only (no links, no directories). Empty if the directory
// cannot be read.
[[nodiscard]] std::vector<ConflictCopy> conflictCopiesOf(const std::string& vaultPath);

// The folder beside the vault where merged conflict copies are kept:
// <vault directory>/.watchword-merged.
inline constexpr std::string_view mergedCopiesFolder = ".watchword-merged";

// Moves a conflict copy that has been merged (and the merge saved) out of
// the engine's way, into mergedCopiesFolder (created 0700), under its own
// name, or with " (2)", " (3)"... before its extension if that is taken;
// one rename, nothing copied. The new path, or why not (the copy then stays
// where it was).
[[nodiscard]] Result<std::string, std::string> setAsideConflictCopy(const std::string& copyPath);

} // namespace watchword::vault
