# Man pages, made at build time by help2man from each program's own --help, so a page can
# never drift from the program it describes. The version line is the project version the
# programs print (given here because the studio's --version says "NB2Lite Studio 0.1.0" and
# help2man would take "NB2Lite" for the program's name). packaging/man/<program>.h2m adds what
# --help does not say (files, environment, see also). Compressed as Debian policy asks.
# help2man reads GNU-style help best: "Usage: prog ..." with further forms on "  or: prog ..."
# lines, options as "  -x, --long ARG   text", and headings as "Heading:" lines.
find_program(NB2_HELP2MAN help2man)
if(NOT NB2_HELP2MAN)
    message(FATAL_ERROR "help2man not found: the man pages are generated with it. "
                        "Run packaging/install-deps.sh (Debian package help2man).")
endif()
find_program(NB2_GZIP gzip REQUIRED)

set(NB2_MAN_DIR ${CMAKE_CURRENT_BINARY_DIR}/man)
file(MAKE_DIRECTORY ${NB2_MAN_DIR})
set(nb2_man_pages)
# program | one-line description for the NAME section
foreach(entry
        "nb2lite|generate and edit images with Gemini from the command line"
        "nb2lite-studio|desktop app for iterative image editing with Gemini"
        "nb2lite-fakeapi|offline fake of the Gemini Interactions API for tests and demos"
        "nb2lite-thumbnailer|thumbnails of NB2Lite session bundles for file managers")
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 program)
    list(GET parts 1 description)
    if(NOT TARGET ${program})
        continue()
    endif()
    set(page ${NB2_MAN_DIR}/${program}.1)
    set(include ${CMAKE_CURRENT_SOURCE_DIR}/man/${program}.h2m)
    add_custom_command(OUTPUT ${page}.gz
        # The help must not depend on who builds: no key, no display, no user settings; and a
        # sanitizer build's leak report must not count as the program failing.
        COMMAND ${CMAKE_COMMAND} -E env --unset=GEMINI_API_KEY --unset=GOOGLE_API_KEY --unset=DISPLAY
                --unset=WAYLAND_DISPLAY QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0 LC_ALL=C.UTF-8
                ${NB2_HELP2MAN} --no-info --section=1 --name=${description} --include=${include}
                --version-string=${program}\ ${PROJECT_VERSION}
                --output=${page} $<TARGET_FILE:${program}>
        COMMAND ${NB2_GZIP} -9nf ${page}
        DEPENDS ${program} ${include}
        COMMENT "Generating the ${program}(1) man page with help2man"
        VERBATIM)
    list(APPEND nb2_man_pages ${page}.gz)
    install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endforeach()
add_custom_target(nb2_man_pages ALL DEPENDS ${nb2_man_pages})
