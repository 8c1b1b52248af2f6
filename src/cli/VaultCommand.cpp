#include "VaultCommand.h"

#include "Arguments.h"
#include "Cli.h"

#include <string>
#include <vector>

namespace watchword::cli {

namespace {

constexpr const char* usage =
    R"(usage: watchword-cli vault init FILE [--target-ms N] [--words 12|24] [--password-stdin]
                     [--allow-weak-password]
       watchword-cli vault info FILE [--json]
       watchword-cli vault add FILE [-] [--password-stdin] [--wait S]
       watchword-cli vault note FILE --title T --body-file F [--password-stdin] [--wait S]
       watchword-cli vault list FILE [--json] [--password-stdin]
       watchword-cli vault codes FILE [--at UNIX_SECONDS] [--json] [--password-stdin]
       watchword-cli vault remove FILE ID [--password-stdin] [--wait S]
       watchword-cli vault passwd FILE [--target-ms N] [--new-phrase [--words 12|24]]
                     [--password-stdin] [--allow-weak-password] [--wait S]
       watchword-cli vault recover FILE [--target-ms N] [--new-phrase [--words 12|24]]
                     [--password-stdin] [--allow-weak-password] [--wait S]
       watchword-cli vault check-phrase FILE [--password-stdin]
       watchword-cli vault import FILE --from FORMAT SOURCE [--dry-run]
                     [--include-duplicates] [--skip-unsupported]
                     [--password-stdin] [--wait S]
       watchword-cli vault export FILE --to FORMAT OUT [--ids ID,...] [--force]
                     [--plaintext] [--target-ms N] [--password-stdin]
       watchword-cli vault merge FILE OTHER... [--dry-run] [--json] [--password-stdin]
                     [--wait S]
       watchword-cli vault status FILE [--json]

init     creates a new vault at FILE (never over an existing file): calibrates
         the password KDF (PBKDF2-HMAC-SHA256) for --target-ms milliseconds per
         unlock (1000 by default, never below 600,000 iterations), makes a
         recovery phrase (24 words by default) and prints it ONCE, with its
         recovery key fingerprint, the iteration count and the rate measured.
info     the format version, KDF parameters, record count (accounts, notes,
         contacts and deleted records' tombstones together: their kinds are
         sealed), the recovery
         key's fingerprint and the sharing identity's public key; no
         password. A file of format version 1 or 2 is written as version 3
         by the next command that changes it.
add      adds an OTP account from an otpauth link and prints its id. The link
         holds the secret, so it is never taken from the command line (where
         every local user can read it): it is pasted at a hidden prompt, or
         read from stdin with '-' (or after the password with
         --password-stdin).
note     adds a secure note titled T whose body is the content of file F
         ('-': stdin).
list     every account and note: id, kind, issuer and account (or title),
         tags. Contacts are not records to list here: see watchword-cli
         contacts list.
codes    every account's code now (or at --at), with the seconds remaining;
         for HOTP the code of the stored counter, which is not incremented.
remove   removes the record with the given id (32 hex digits, from list).
passwd   changes the password (a new master key; every record sealed again)
         and prints the fingerprint of the recovery key the new key is
         wrapped for. --new-phrase also makes a new recovery phrase (printed
         ONCE): the old phrase, and any recovery key someone else put in the
         file, stop opening the vault.
recover  opens the vault with the recovery phrase and sets a new password
         (--new-phrase: and a new phrase, as for passwd).
check-phrase
         says whether a recovery phrase opens the vault: compares the
         phrase's recovery key with the vault's; no password. Exit 1 if not.
import   adds the accounts of another app's export SOURCE ('-': stdin). FORMAT:
         otpauth, google-migration, aegis, 2fas, andotp, freeotp-plus,
         freeotp, bitwarden, authenticator-pro, google-authenticator-db,
         watchword-backup, proton-authenticator, lastpass, ente, keepass,
         steam, winauth, raivo, or auto (the first guess that reads, named in the output). Prints a preview, one line per account: new, duplicate (the
         same secret and code as an account in the vault, or as an earlier
         entry) or same name (same issuer and account, another secret); then
         the source's warnings and the count. Duplicates are skipped unless
         --include-duplicates. An entry Watchword cannot compute (mOTP,
         Yandex, SHA384, a secret that does not decode) is listed as "cannot
         import" with the reason; with one, the import adds nothing (exit 2)
         unless --skip-unsupported, which adds the others and leaves those
         out. --dry-run stops after the preview and writes nothing. The
         accounts added are added all together, or none.
export   writes the vault's accounts (or those of --ids, in that order) to OUT
         as FORMAT: watchword-backup (encrypted, its own password; the KDF
         calibrated for --target-ms, 1000 by default), aegis-encrypted,
         aegis, otpauth, google-migration, 2fas or ente. aegis, otpauth,
         google-migration, 2fas and ente hold every secret readable by anyone
         who can read OUT: they need --plaintext, and only they may go to
         stdout (OUT '-').
         OUT is written 0600 and never replaces a file without --force; its
         contents never exist under another name, even if the command is
         killed. Accounts a format cannot hold are left out with a warning on
         stderr.
merge    merges into FILE other copies of the same vault: conflict copies a
         sync engine left beside it, or a copy from another machine
         (docs/FORMAT.md section 13). Changes to different records are all
         kept; a record changed in both is resolved (the later change
         wins; a note's other text is kept as a second note whose title ends
         in (conflicting edit)); a deletion removes what it saw; HOTP
         counters take the larger; a copy saved under a newer password gives
         the vault that password. Each
         OTHER must open as the same vault: with FILE's key, or else (its
         password was changed elsewhere) with its own password, asked next.
         A copy of another vault, a damaged or altered one, or one older
         than a write FILE already holds is refused, and nothing is merged.
         Prints what each OTHER brought; FILE is written only if that is
         something (--dry-run: never). Then each OTHER in FILE's folder named
         as a conflict copy of FILE (by its engine's naming, as status lists
         them) is moved into the folder .watchword-merged beside FILE.
status   no password: FILE's generation, the device that last wrote it and
         the last generation each device wrote, and the conflict copies of
         FILE in its folder (Syncthing, Nextcloud, ownCloud, Dropbox,
         Seafile, OneDrive, Unison naming), with what each one is. Exit 3
         when there are conflict copies to merge.

Secrets are never taken from the command line. Without --password-stdin they
are asked on the terminal with echo off (a new password twice). With
--password-stdin, standard input holds one secret per line, in this order:
  init, list, codes, note, remove:  the password
  add:      the password, then the otpauth link
  passwd:   the current password, then the new one
  recover:  the recovery phrase, then the new password
  check-phrase: the recovery phrase
  import:   the password, then the password of SOURCE if it is encrypted
            (SOURCE '-' takes stdin: the passwords are then asked on the
            terminal, and --password-stdin is refused)
  export:   the password, then the password of OUT for encrypted formats
  merge:    the password, then the password of each OTHER saved under
            another password, in the order given
(add - without --password-stdin reads the link from the first line of stdin.)
Passwords are normalized to Unicode NFKD; an empty password is refused. A new
password (init, passwd, recover) that is too easy to guess (the strength
estimate's lowest score: a common password, a keyboard run, a short word) is
refused; --allow-weak-password takes it anyway, for a throw-away vault only:
anyone with a copy of the file opens it by guessing. The password of an
import SOURCE or export OUT is normalized only for watchword-backup: the other
apps take theirs as typed.
--target-ms for passwd and recover defaults to the vault's stored target.
--wait S: a command that changes FILE waits up to S seconds (5 by default, 0
to 3600) while another process holds the vault's lock, then gives up; once
it has the lock it reads FILE again, so it changes what the other saved.

Labels and file names are printed with control characters and invisible
formatting characters (bidirectional overrides, zero-width spaces) escaped,
as \n, \e or \u202e: nothing printed can forge a line or command the terminal.

Exit status: 0 on success; 2 on bad arguments or input (one line on stderr,
nothing on stdout); 1 if the operation failed: the file is missing, damaged,
tampered with or not a vault, wrong password or phrase, the vault is locked
by another process or changed on disk, the disk is full, or the self-test
failed. The vault file is never changed by a command that fails. A change
that was made but whose directory could not be flushed afterwards (a power
cut in the next moments could undo it) is a success, exit 0, with a line
"watchword-cli: warning: ..." on stderr that says so. For import, a SOURCE
that cannot be read, is damaged or is not FORMAT is bad input (2); a wrong
password of SOURCE is a failure (1). export never leaves OUT half written.
For merge, an OTHER that cannot be read, is damaged, altered, not a vault,
another vault's or older than a write FILE holds is bad input (2); a wrong
password of OTHER is a failure (1); either way nothing is merged or written.
status exits 3 when FILE is readable and conflict copies of it wait beside
it, 0 when there are none.
)";

} // namespace

int runVault(const std::vector<std::string>& args)
{
    // passwd and recover: both set a new password (and maybe a new phrase).
    static const std::vector<OptionSpec> newPasswordOptions = {
        {"target-ms", true}, {"password-stdin"}, {"allow-weak-password"},
        {"new-phrase"},      {"words", true},    {"wait", true}};
    static const FileSubcommand subcommands[] = {
        {"init",
         {{"target-ms", true}, {"words", true}, {"password-stdin"}, {"allow-weak-password"}},
         1,
         "FILE",
         runInit},
        {"info", {{"json"}}, 1, "FILE", runInfo},
        {"add",
         {{"password-stdin"}, {"wait", true}},
         2,
         "FILE (and - for a link on standard input)",
         runAdd,
         1},
        {"note",
         {{"title", true}, {"body-file", true}, {"password-stdin"}, {"wait", true}},
         1,
         "FILE",
         runNote},
        {"list", {{"json"}, {"password-stdin"}}, 1, "FILE", runList},
        {"codes", {{"at", true}, {"json"}, {"password-stdin"}}, 1, "FILE", runCodes},
        {"remove", {{"password-stdin"}, {"wait", true}}, 2, "FILE and a record ID", runRemove},
        {"passwd", newPasswordOptions, 1, "FILE", runPasswd},
        {"recover", newPasswordOptions, 1, "FILE", runRecover},
        {"check-phrase", {{"password-stdin"}}, 1, "FILE", runCheckPhrase},
        {"import",
         {{"from", true},
          {"dry-run"},
          {"include-duplicates"},
          {"skip-unsupported"},
          {"password-stdin"},
          {"wait", true}},
         2,
         "FILE and SOURCE",
         runImport},
        {"merge",
         {{"dry-run"}, {"json"}, {"password-stdin"}, {"wait", true}},
         1 + 64,
         "FILE and OTHER (up to 64)",
         runMerge,
         2},
        {"status", {{"json"}}, 1, "FILE", runStatus},
        {"export",
         {{"to", true},
          {"ids", true},
          {"force"},
          {"plaintext"},
          {"target-ms", true},
          {"password-stdin"}},
         2,
         "FILE and OUT",
         runExport},
    };
    return runFileSubcommands("vault", subcommands, usage, args);
}

} // namespace watchword::cli
