// The pieces of the benchmark catalogue (perf/Benchmark.h), one function per
// file, and what they share. Internal to perf: front ends use catalogue().
// (The namespace is perf::entries, as perf::catalogue is that function.)
//
// Every reference is timed only if it computes what ours computes (the same
// code string, key, keychain keys or sealed bytes): a reference doing other
// work would make its ratio meaningless. So each checked reference comes as a
// pair: ourX() computes our output once, and prepareX(expected) prepares the
// reference only if its own output equals expected, or else returns
// notPrepared() saying so. The catalogue passes ourX()'s result; the tests
// pass a corrupted one and expect the refusal.
#pragma once

#include "base/Bytes.h"
#include "crypto/Hash.h"
#include "crypto/Random.h"
#include "perf/Benchmark.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace watchword::perf::entries {

// In report order (catalogue() puts every reference after all of ours).
std::vector<Benchmark> keychainBenchmarks(); // keychain/*
std::vector<Benchmark> senderDhBenchmarks(); // shared_secret_key/*
std::vector<Benchmark> shareBenchmarks();    // share/* (Share.cpp)
std::vector<Benchmark> noteBenchmarks();     // encryption/* (Seal.cpp)
std::vector<Benchmark> totpBenchmarks();     // totp/*, hotp/*, steam/*
std::vector<Benchmark> kdfBenchmarks();      // pbkdf2/*
std::vector<Benchmark> recordBenchmarks();   // record/* (Seal.cpp)
std::vector<Benchmark> selfTestBenchmarks(); // selftest/*
std::vector<Benchmark> vaultBenchmarks();    // calibration/*, vault/*

// ---- shared helpers ----------------------------------------------------------

// A 24-word BIP39 English test vector (entropy 68a79eac...e6ce7c): the phrase
// of keychain/* and the recovery phrase of every benchmark vault.
inline constexpr std::string_view kPhrase =
    "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy "
    "gospel tennis maple dilemma loan word shrug inflict delay length";

// The bytes of a hex constant written in a catalogue file. A malformed
// constant is a bug in the catalogue: stop at once, naming it.
Bytes bytesFromHex(std::string_view text);

// Fills every request with pattern, repeated from its start (so a 32-byte
// pattern gives the same 32 bytes to every 32-byte request): to take the cost
// of randomness out of a check, or to give two implementations the same key.
// Never for keys outside a benchmark.
class RepeatingRandom final : public crypto::RandomSource
{
public:
    explicit RepeatingRandom(Bytes pattern);
    void fill(std::span<std::uint8_t> out) override;

private:
    Bytes m_pattern;
};

// Gives the bytes of a script in order, each once: a whole sequence of
// draws (an envelope's id, content key, ephemeral key, nonce and auxiliary
// bytes) that RepeatingRandom cannot give. A request past the end gets zeros
// and leaves usedExactly() false, so a check can refuse an implementation
// that drew more, fewer or other sizes.
class ScriptedRandom final : public crypto::RandomSource
{
public:
    explicit ScriptedRandom(Bytes script);
    void fill(std::span<std::uint8_t> out) override;
    // Every byte of the script given, and nothing asked for past it.
    bool usedExactly() const noexcept;

private:
    Bytes m_script;
    std::size_t m_used = 0;
    bool m_overrun = false;
};

// libsecp256k1's ECDH "hash" that keeps the plain x-coordinate, as
// crypto::ecdh does: for the raw references' secp256k1_ecdh calls.
extern "C" int perfCopyXCoordinate(unsigned char* output, const unsigned char* x32,
                                   const unsigned char* y32, void* data);

// a then b, in one new buffer.
Bytes concatenate(ByteView a, ByteView b);

// The refusal of a reference whose output differs from ours.
Prepared notTheSameWork(std::string_view reference, std::string_view ours);

// ---- the checked references ----------------------------------------------------

// PBKDF2 inputs; the views point at constants of the catalogue.
struct Pbkdf2Input
{
    crypto::HashAlgorithm algorithm;
    ByteView password;
    ByteView salt;
    std::uint32_t rounds;
    std::size_t outputSize;
};
// The BIP39 shape of pbkdf2/*: a 24-word phrase as password, "mnemonic" plus
// a passphrase as salt, one digest of output.
Pbkdf2Input bip39ShapedPbkdf2(crypto::HashAlgorithm algorithm, std::uint32_t rounds);
// What one probe of vault::calibratePasswordKdf derives (calibration/*).
Pbkdf2Input calibrationProbe();
// Our crypto::pbkdf2 of input; empty if it failed.
Bytes ourPbkdf2(const Pbkdf2Input& input);
// PKCS5_PBKDF2_HMAC over the same input.
Prepared prepareOpenSslPbkdf2(const Pbkdf2Input& input, ByteView expected);

// totp/*: our TOTP code at the benchmarks' start time (empty if it failed),
// and the OpenSSL ways of computing it.
std::string ourTotpCode(crypto::HashAlgorithm algorithm);
Prepared prepareOneShotHmacTotp(crypto::HashAlgorithm algorithm, const std::string& expected);
Prepared prepareFreshEvpMacTotp(const std::string& expected); // SHA-1

// shared_secret_key/sender_dh with a fixed ephemeral secret: the ephemeral
// public key (33 bytes) then the note key (32); empty if it failed.
Bytes ourFixedSenderNoteKey();
Prepared prepareRawSenderDh(ByteView expected);

// share/seal of FORMAT.md 12.6's worked example (envelope_vectors.json
// vector a) with its own random bytes: the envelope; empty if it failed.
Bytes ourFixedShareSeal();
Prepared prepareRawShareSeal(ByteView expected);

// share/open of that envelope by its recipient: what the opening gives (id,
// created, sender, recipients, then the records as 12.3 encodes them); empty
// if it failed.
Bytes ourShareOpen();
Prepared prepareRawShareOpen(ByteView expected);

// record/seal of the 64-byte record with a fixed IV: the sealed bytes; empty
// if it failed.
Bytes ourFixedIvSeal();
Prepared prepareEvpCbcHmacSeal(ByteView expected);

// keychain/new_mnemonic: the identity public key (33, compressed) then the
// recovery wrapping key (32); empty if it failed.
Bytes ourKeychainKeys();
Prepared prepareOpenSslKeychain(ByteView expected);

} // namespace watchword::perf::entries
