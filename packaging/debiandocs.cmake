# What Debian expects in /usr/share/doc/<package>: the copyright file and, for a package built
# from upstream sources (a "native" version without a Debian revision), changelog.gz.
# packaging/debian/changelog keeps one entry per release, like the AppStream <releases>;
# tests/packaging/check_deb.sh checks that its newest entry is the project version.
find_program(NB2_GZIP gzip REQUIRED)
set(NB2_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/nb2lite-studio)
set(nb2_changelog_gz ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz)
add_custom_command(OUTPUT ${nb2_changelog_gz}
    # -n: no name or time stamp inside, so the package builds reproducibly.
    COMMAND ${NB2_GZIP} -9nc ${CMAKE_CURRENT_SOURCE_DIR}/debian/changelog > ${nb2_changelog_gz}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/debian/changelog
    COMMENT "Compressing the Debian changelog")
add_custom_target(nb2_changelog ALL DEPENDS ${nb2_changelog_gz})
install(FILES debian/copyright ${nb2_changelog_gz} DESTINATION ${NB2_DOC_DIR})
