# Test programs link the core and UI libraries statically, and with them their debug info: up to
# 90 MB in each of some 90 programs. ./build was 7.4 GB, 5.5 GB of it test programs' debug info
# (and CI once ran out of disk); it is 1.8 GB without. nb2_test_programs_without_debug_info() makes the
# programs of the calling directory, and of the directories it adds after the call, drop it at
# link time. Their symbol tables stay, so a crash's stack still names functions, and QtTest's
# failures name file and line from the source. The apps keep theirs (profiling, debugging), and
# so do the sanitizer and fuzz builds, whose reports need lines. To debug a test program:
# -DNB2_TEST_DEBUG_INFO=ON.
option(NB2_TEST_DEBUG_INFO "Keep the debug info in test programs (see cmake/testdebuginfo.cmake)" OFF)

function(nb2_test_programs_without_debug_info)
    if(NOT NB2_TEST_DEBUG_INFO AND NOT NB2_SANITIZE AND NOT NB2_FUZZ)
        add_link_options(LINKER:--strip-debug)
    endif()
endfunction()
