# Warnings, hardening and sanitizers for every Watchword target.
add_library(watchword_flags INTERFACE)

target_compile_features(watchword_flags INTERFACE cxx_std_20)
target_compile_options(watchword_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wformat=2
  -fstack-protector-strong)
if(WATCHWORD_WERROR)
  target_compile_options(watchword_flags INTERFACE -Werror)
endif()
# _FORTIFY_SOURCE needs optimization; in a plain Debug build it only warns.
# Fuzz builds leave it out: AddressSanitizer does not support it (the
# fortified library calls bypass its checks, so overflows there go unseen).
target_compile_definitions(watchword_flags INTERFACE
  $<$<AND:$<NOT:$<CONFIG:Debug>>,$<NOT:$<BOOL:${WATCHWORD_BUILD_FUZZ}>>>:_FORTIFY_SOURCE=2>)
target_link_options(watchword_flags INTERFACE -Wl,-z,relro,-z,now -Wl,-z,noexecstack)
# Paths in objects (debug information, __FILE__ in test failures) relative to
# the source tree: the build is the same wherever the checkout is, so the
# compiler cache (scripts/dev) serves every clone, and no build path ships.
target_compile_options(watchword_flags INTERFACE "-ffile-prefix-map=${CMAKE_SOURCE_DIR}/=")

if(WATCHWORD_SANITIZE)
  target_compile_options(watchword_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(watchword_flags INTERFACE -fsanitize=address,undefined)
  # Sanitized programs linked as position-dependent executables: as PIEs they
  # carry a relative relocation for every piece of sanitizer metadata (1.2
  # million in watchword-cli, 33 MB of .data), which the loader applies at
  # every start: 0.29 s per CLI run against 0.14 s without, and the CLI tests
  # start it some 1,600 times.
  target_link_options(watchword_flags INTERFACE
    $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()

# Fuzzing: every Watchword target gets libFuzzer's coverage instrumentation
# (fuzzer-no-link: the fuzz targets in fuzz/ add libFuzzer's main themselves)
# and the sanitizers, with undefined behaviour fatal so that the fuzzer sees it
# as a crash.
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (the usual name) lowers the
# bounds on work a file may ask for (crypto/Kdf.h, interop/importers/Common.h), so
# that one input stays within libFuzzer's time and memory limits.
if(WATCHWORD_BUILD_FUZZ)
  target_compile_options(watchword_flags INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  target_compile_definitions(watchword_flags INTERFACE FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
  target_link_options(watchword_flags INTERFACE -fsanitize=address,undefined)
endif()
