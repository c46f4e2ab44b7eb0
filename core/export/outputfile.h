#pragma once

#include "core/common/error.h"

#include <QByteArray>
#include <QString>

namespace nb2 {

/** What to do when an output's name is already taken by a regular file. */
enum class ExistingTarget {
    Refuse,  // the default: an export never overwrites anything it was not told to
    Replace, // the user said so (nb2lite --force, or "Replace" in the export dialog)
};

/**
 * One file an export writes, written so that nothing else is ever harmed: the target is
 * checked with lstat before anything is created (a symlink is never followed, and nothing
 * that is not a regular file — a FIFO, a device such as /dev/full, a folder — is ever
 * replaced, whatever ExistingTarget says); an existing regular file is refused unless
 * Replace; the bytes go to a temp file in the same folder (O_EXCL | O_NOFOLLOW), which is
 * fsync'ed (when durable) and renamed into place after the target is checked again (with
 * RENAME_NOREPLACE when refusing, so a file that appeared meanwhile is not clobbered either).
 * A failure or a destructor before commit() removes the temp file: a crash or an error never
 * leaves a half-written file under the real name. Owns the temp file's descriptor.
 */
class OutputFile
{
public:
    OutputFile(QString path, ExistingTarget existing, bool durable = true);
    ~OutputFile();

    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    /** Checks the target and creates the temp file beside it. */
    Result<void> open();
    /** Appends bytes to the temp file (a short write is an error naming the fix: disk full, read-only). */
    Result<void> write(const char *data, qint64 size);
    Result<void> write(const QByteArray &bytes) { return write(bytes.constData(), bytes.size()); }
    /** Moves the finished file into place; returns its size. */
    Result<qint64> commit();
    /** Drops the temp file (also what the destructor does when commit() was not reached). */
    void discard();

    QString path() const { return m_path; }
    qint64 size() const { return m_size; }

    /**
     * The target check alone: nothing exists at path (Conflict/Unsafe otherwise), or, with
     * Replace, a regular file that is not a symlink. For folder outputs too: they must not be
     * symlinks either (see exportfiles::prepareEmptyDir).
     */
    static Result<void> checkTarget(const QString &path, ExistingTarget existing);

    /** open(), write(bytes), commit() in one call. */
    static Result<qint64> writeAll(
        const QString &path, const QByteArray &bytes, ExistingTarget existing, bool durable = true);

private:
    Error failure(const QString &what, int error) const;

    QString m_path;
    QString m_temp;
    ExistingTarget m_existing;
    bool m_durable;
    int m_fd = -1;
    qint64 m_size = 0;
};

} // namespace nb2
