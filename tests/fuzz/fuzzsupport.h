#pragma once
// Shared by the libFuzzer harnesses: the Qt application object, a quiet message handler, a
// per-process scratch folder and the checks that turn a violated property into a crash.

#include <QByteArray>
#include <QList>
#include <QString>

#include <cstddef>
#include <cstdint>

namespace nb2::fuzz {

/** Creates the QCoreApplication once (first call) and silences qDebug/qWarning (not qFatal). */
void ensureApp();

/** A folder private to this process: under $NB2_FUZZ_SCRATCH, else /dev/shm when there is one (fsync is cheap there). */
QString scratchDir();

/** Writes bytes to path (creating its folder); aborts when that fails, since the harness is broken then. */
void writeFile(const QString &path, const QByteArray &bytes);

/** A harness's property check: prints why and aborts, so libFuzzer keeps the input. */
[[noreturn]] void fail(const char *what, const QByteArray &detail = {});
inline void check(bool ok, const char *what, const QByteArray &detail = {})
{
    if (!ok)
        fail(what, detail);
}

/** Splits input at every occurrence of separator (the text-framed harness inputs). */
QList<QByteArray> split(const QByteArray &input, const QByteArray &separator);

/** The input as a QByteArray that does not own (nor copy) libFuzzer's exact-size buffer, so reads past the end are caught. */
inline QByteArray view(const uint8_t *data, size_t size)
{
    return QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
}

} // namespace nb2::fuzz
