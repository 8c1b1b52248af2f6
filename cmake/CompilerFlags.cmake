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
target_compile_definitions(watchword_flags INTERFACE
  $<$<NOT:$<CONFIG:Debug>>:_FORTIFY_SOURCE=2>)
target_link_options(watchword_flags INTERFACE -Wl,-z,relro,-z,now -Wl,-z,noexecstack)

if(WATCHWORD_SANITIZE)
  target_compile_options(watchword_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(watchword_flags INTERFACE -fsanitize=address,undefined)
endif()
