// The errors of the vault codec and the unlocked vault, in the order a file
// is checked when it is opened (docs/FORMAT.md section 6).
#pragma once

#include "base/Result.h"

namespace watchword::vault {

enum class VaultError {
    Truncated,           // the file ends before its structure does
    NotAVault,           // the magic bytes are not "WWVAULT\0"
    UnsupportedVersion,  // a format version this program does not read
    Malformed,           // a structure or field value the format does not allow
    Corrupted,           // the SHA-256 checksum does not match: accidental damage
    KdfOutOfBounds,      // unknown KDF, or iterations/calibration outside the allowed range
    WrongPassword,       // the password slot's key does not open it
    WrongRecoveryPhrase, // the phrase's identity key is not the slot's, or does not open it
    NoRecoverySlot,      // unlock by phrase asked of a vault without a recovery slot
    Tampered,            // the manifest or a record's tag fails: changed by someone without the key
    InvalidRecord,       // add/update: a record the format cannot store (see Records.h)
    RecordNotFound,      // update/remove: no record with that id
    DifferentVault,  // merge or open with another's key: a copy of another vault (its id differs)
    KeyChanged,      // open with another's key: the copy's password was changed elsewhere
    RolledBack,      // merge: an older copy than one this vault has already merged
    CryptoDisabled,  // the start-up self-test failed
    InternalFailure, // OpenSSL failed (out of memory)
};

template <typename T> using VaultResult = Result<T, Error<VaultError>>;

} // namespace watchword::vault
