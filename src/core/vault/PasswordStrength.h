// A rough strength estimate for a new vault password, for the hint shown
// while it is typed. It is an estimate of guesses for an attacker who tries
// common passwords, words and keyboard patterns first, not a measure of
// entropy: it errs on the side of calling a password weak.
//
// The estimate takes the smaller of two models:
//   characters: each character adds log2 of the pool its classes span
//               (lower, upper, digits, symbols, anything else), except that
//               a character repeating or continuing a run of the previous one
//               ("aaaa", "1234", "cba", "qwer") adds about one bit;
//   words:      text of two or more words split by spaces, dashes, dots or
//               underscores counts log2(7776) bits per word (a diceware list),
//               so a passphrase is not credited as random letters.
// A password from the built-in list of the most common ones, or one of them
// with digits or symbols appended, scores 0 whatever its length.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace watchword::vault {

struct PasswordStrength
{
    // 0 very weak, 1 weak, 2 fair, 3 strong, 4 very strong.
    int score = 0;
    double bits = 0; // the estimate, log2 of guesses
    // What would help most, or why it is weak; empty when it is very strong.
    std::string hint;
};

// Score thresholds in bits: below 28 very weak, below 40 weak, below 60 fair,
// below 80 strong, else very strong. A vault file that leaks is attacked
// offline at the calibrated PBKDF2 cost; 60 bits at about a second per guess
// per core is far beyond reach, 40 bits is not for a determined attacker.
[[nodiscard]] PasswordStrength estimatePasswordStrength(std::string_view password);

// The rule every new password meets, in the app and the CLI alike (a new
// vault, a password change, a recovery): a password the estimate calls very
// weak (score 0: under 28 bits, or a common password) is refused. nullopt if
// password is accepted, else why not: "this password is too easy to guess"
// and the estimate's hint. password is the NFKD UTF-8 the vault derives from.
// The CLI's --allow-weak-password skips the rule, for scripts that make
// throw-away vaults; nothing else does.
[[nodiscard]] std::optional<std::string> newPasswordRefusal(std::string_view password);

} // namespace watchword::vault
