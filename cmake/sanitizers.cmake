# Instrumented builds, each in a build directory of its own (never ./build):
#   -DNB2_SANITIZE=ON  everything (core, apps, tests) with AddressSanitizer + UBSan, so that
#                      ctest runs the unit tests instrumented (gcc or clang);
#                      tests/sanitizers/run-sanitized-tests.sh does it.
#   -DNB2_FUZZ=ON      clang only: the same sanitizers plus libFuzzer's coverage instrumentation,
#                      and the fuzz_<name> harnesses of tests/fuzz (target `nb2_fuzzers`);
#                      tests/fuzz/run-fuzzers.sh does it.
# UB stops the program (-fno-sanitize-recover) so that it fails a test or counts as a crash.
option(NB2_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
option(NB2_FUZZ "Build the libFuzzer harnesses in tests/fuzz (clang; implies the sanitizers)" OFF)

if(NB2_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "NB2_FUZZ needs clang (libFuzzer): configure a separate build directory with "
                        "CC=clang CXX=clang++ cmake -DNB2_FUZZ=ON ... (Debian: clang-14 libclang-rt-14-dev)")
endif()

if(NB2_SANITIZE OR NB2_FUZZ)
    set(nb2_sanitizers -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # gcc leaves this out of "undefined" (clang does not): converting 1e300 from JSON to an
        # integer is exactly the UB fuzzing found in the stream assembler.
        list(APPEND nb2_sanitizers -fsanitize=float-cast-overflow -fno-sanitize-recover=float-cast-overflow)
    endif()
    if(NB2_FUZZ)
        # Coverage feedback for everything the harnesses reach; the harnesses alone link the
        # fuzzer's main (-fsanitize=fuzzer, in tests/fuzz).
        list(APPEND nb2_sanitizers -fsanitize=fuzzer-no-link)
    endif()
    add_compile_options(${nb2_sanitizers})
    add_link_options(${nb2_sanitizers})
endif()
