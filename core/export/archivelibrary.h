#pragma once

#include "core/common/error.h"

#include <archive.h>
#include <archive_entry.h>

#include <QString>

namespace nb2 {

// The libarchive functions the bundle code calls (sessionbundle.cpp, bundlepreview.cpp).
#define NB2_ARCHIVE_FUNCTIONS(X)                                                                                       \
    X(archive_error_string)                                                                                            \
    X(archive_free)                                                                                                    \
    X(archive_read_new)                                                                                                \
    X(archive_read_support_format_zip)                                                                                 \
    X(archive_read_support_filter_none)                                                                                \
    X(archive_read_open_filename)                                                                                      \
    X(archive_read_next_header)                                                                                        \
    X(archive_read_data)                                                                                               \
    X(archive_read_data_skip)                                                                                          \
    X(archive_write_new)                                                                                               \
    X(archive_write_set_format_zip)                                                                                    \
    X(archive_write_zip_set_compression_deflate)                                                                       \
    X(archive_write_zip_set_compression_store)                                                                         \
    X(archive_write_open2)                                                                                             \
    X(archive_write_header)                                                                                            \
    X(archive_write_data)                                                                                              \
    X(archive_write_close)                                                                                             \
    X(archive_entry_new)                                                                                               \
    X(archive_entry_free)                                                                                              \
    X(archive_entry_filetype)                                                                                          \
    X(archive_entry_hardlink)                                                                                          \
    X(archive_entry_symlink)                                                                                           \
    X(archive_entry_pathname)                                                                                          \
    X(archive_entry_pathname_utf8)                                                                                     \
    X(archive_entry_size)                                                                                              \
    X(archive_entry_size_is_set)                                                                                       \
    X(archive_entry_set_filetype)                                                                                      \
    X(archive_entry_set_mtime)                                                                                         \
    X(archive_entry_set_pathname_utf8)                                                                                 \
    X(archive_entry_set_perm)                                                                                          \
    X(archive_entry_set_size)

/**
 * libarchive, loaded when a bundle is first written, read or previewed, not when the program
 * starts: it and what it pulls in (libxml2, nettle, acl, bz2, ...) are ~3.5 M instructions of
 * dynamic linking, ~0.7 ms of every studio start (issue 10, window start), for a feature used
 * now and then. The executables do not link it; the package depends on it by name
 * (packaging/CMakeLists.txt). Use: `ArchiveLibrary::require()` at the entry point (a clear
 * error when it is missing), then `arc().archive_read_new()` and so on.
 */
struct ArchiveLibrary {
#define NB2_ARCHIVE_POINTER(name) decltype(&::name) name = nullptr;
    NB2_ARCHIVE_FUNCTIONS(NB2_ARCHIVE_POINTER)
#undef NB2_ARCHIVE_POINTER

    /** The shared library's name and major version as the package installs it (libarchive.so.13). */
    static constexpr const char *kName = "archive";
    static constexpr int kVersion = 13;

    /** Loads libarchive once per process (thread-safe) and resolves every function; the error names the package. */
    static Result<const ArchiveLibrary *> require();
    /** Loads a given library file (name without "lib"/".so", version): require() with kName, and tests. */
    static Result<ArchiveLibrary> load(const QString &name, int version);
    /** Whether require() has loaded it in this process (tests: nothing loads it before first use). */
    static bool isLoaded();
};

/** The loaded functions; only after ArchiveLibrary::require() succeeded. */
const ArchiveLibrary &arc();

} // namespace nb2
