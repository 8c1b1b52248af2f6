#include "vault/PasswordStrength.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace watchword::vault {

namespace {

// The most common passwords of public breach lists, lower case; a password
// that is one of them, or one of them followed by digits and symbols only, is
// among the first few thousand guesses of any attack.
constexpr std::array<std::string_view, 60> commonPasswords = {
    "123456",   "password", "12345678",   "qwerty",    "123456789", "12345",    "1234",
    "111111",   "1234567",  "dragon",     "123123",    "baseball",  "abc123",   "football",
    "monkey",   "letmein",  "696969",     "shadow",    "master",    "666666",   "qwertyuiop",
    "123321",   "mustang",  "1234567890", "michael",   "654321",    "superman", "1qaz2wsx",
    "7777777",  "121212",   "000000",     "qazwsx",    "123qwe",    "killer",   "trustno1",
    "jordan",   "jennifer", "zxcvbnm",    "asdfgh",    "hunter",    "buster",   "soccer",
    "harley",   "batman",   "andrew",     "tigger",    "sunshine",  "iloveyou", "welcome",
    "admin",    "princess", "starwars",   "passw0rd",  "login",     "solo",     "charlie",
    "changeme", "secret",   "qwerty123",  "watchword",
};

// Rows of a US keyboard, for runs like "qwer" or "asdf".
constexpr std::array<std::string_view, 4> keyboardRows = {"1234567890", "qwertyuiop", "asdfghjkl",
                                                          "zxcvbnm"};

bool isSeparator(char c)
{
    return c == ' ' || c == '-' || c == '.' || c == '_';
}

char lower(char c)
{
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), lower);
    return out;
}

// True if b follows a on a keyboard row, or by one in character code
// (either direction): "ab", "21", "we".
bool continuesRun(char a, char b)
{
    const char la = lower(a);
    const char lb = lower(b);
    if (std::isalnum(static_cast<unsigned char>(la)) && std::abs(int(la) - int(lb)) == 1)
        return true;
    for (const auto row : keyboardRows) {
        const auto i = row.find(la);
        const auto j = row.find(lb);
        if (i != std::string_view::npos && j != std::string_view::npos &&
            (i + 1 == j || j + 1 == i))
            return true;
    }
    return false;
}

bool isCommon(const std::string& lower)
{
    // Strip trailing digits and symbols: "password123!" is "password".
    std::size_t end = lower.size();
    while (end > 0 && !std::isalpha(static_cast<unsigned char>(lower[end - 1])))
        --end;
    const std::string_view stem = end > 0 ? std::string_view(lower).substr(0, end) : lower;
    return std::find(commonPasswords.begin(), commonPasswords.end(), stem) !=
               commonPasswords.end() ||
           std::find(commonPasswords.begin(), commonPasswords.end(), std::string_view(lower)) !=
               commonPasswords.end();
}

double characterBits(std::string_view password, bool& patterned)
{
    bool hasLower = false, hasUpper = false, hasDigit = false, hasSymbol = false, hasOther = false;
    for (const char c : password) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80)
            hasOther = true;
        else if (std::islower(u))
            hasLower = true;
        else if (std::isupper(u))
            hasUpper = true;
        else if (std::isdigit(u))
            hasDigit = true;
        else
            hasSymbol = true;
    }
    const double pool = (hasLower ? 26 : 0) + (hasUpper ? 26 : 0) + (hasDigit ? 10 : 0) +
                        (hasSymbol ? 33 : 0) + (hasOther ? 100 : 0);
    if (pool <= 0)
        return 0;
    const double perCharacter = std::log2(pool);
    double bits = 0;
    std::size_t predictable = 0;
    for (std::size_t i = 0; i < password.size(); ++i) {
        // UTF-8 continuation bytes belong to the character before them.
        if ((static_cast<unsigned char>(password[i]) & 0xc0) == 0x80)
            continue;
        if (i > 0 &&
            (password[i] == password[i - 1] || continuesRun(password[i - 1], password[i]))) {
            bits += 1;
            ++predictable;
        } else {
            bits += perCharacter;
        }
    }
    patterned = predictable * 3 >= password.size();
    return bits;
}

// Bits of a passphrase of two or more words, or a negative value when the
// text is not one.
double wordBits(std::string_view password)
{
    std::size_t words = 0;
    std::size_t wordLength = 0;
    for (std::size_t i = 0; i <= password.size(); ++i) {
        if (i == password.size() || isSeparator(password[i])) {
            if (wordLength > 0)
                ++words;
            wordLength = 0;
        } else {
            ++wordLength;
        }
    }
    if (words < 2)
        return -1;
    return double(words) * std::log2(7776.0);
}

} // namespace

PasswordStrength estimatePasswordStrength(std::string_view password)
{
    PasswordStrength result;
    if (password.empty()) {
        result.hint = "Enter a password.";
        return result;
    }
    if (isCommon(lowered(password))) {
        result.hint = "This is one of the most common passwords: it is guessed at once.";
        return result;
    }
    bool patterned = false;
    double bits = characterBits(password, patterned);
    if (const double words = wordBits(password); words >= 0)
        bits = std::min(bits, words);
    result.bits = bits;
    result.score = bits < 28 ? 0 : bits < 40 ? 1 : bits < 60 ? 2 : bits < 80 ? 3 : 4;
    if (result.score == 4)
        return result;
    if (patterned)
        result.hint = "Repeated characters and runs like \"abc\" or \"qwerty\" add little: "
                      "use unrelated characters or words.";
    else if (wordBits(password) >= 0)
        result.hint = "Add another word or two: each unrelated word makes it much harder to "
                      "guess.";
    else
        result.hint = "Make it longer: four or more unrelated words are easy to remember and "
                      "hard to guess.";
    return result;
}

std::optional<std::string> newPasswordRefusal(std::string_view password)
{
    const PasswordStrength strength = estimatePasswordStrength(password);
    if (strength.score > 0)
        return std::nullopt;
    return "this password is too easy to guess. " + strength.hint;
}

} // namespace watchword::vault
