# Read by cpack before it packages (CPACK_PROJECT_CONFIG_FILE).
#
# The binaries have the device profiles' installed path compiled in, under
# the prefix they were configured with (src/core/watch/CMakeLists.txt); a
# Debian package installs under /usr. A build for another prefix would make a
# package whose app cannot find its profiles: refuse it.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_WATCHWORD_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "the .deb needs a build configured for /usr, but this one installs to "
    "'${CPACK_WATCHWORD_INSTALL_PREFIX}': configure with -DCMAKE_INSTALL_PREFIX=/usr (the "
    "CMake presets do)")
endif()
