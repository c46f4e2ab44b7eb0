#pragma once

// Zip helpers for the bundle tests: they read and write zips with libarchive directly,
// independently of SessionBundle, so that a test can craft what SessionBundle would never make.

#include "core/session/sessionstore.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

#include <archive.h>
#include <archive_entry.h>

namespace nb2::testing {

/** Every entry of a zip, decompressed, read independently of SessionBundle. */
inline QMap<QString, QByteArray> zipEntries(const QString &path)
{
    QMap<QString, QByteArray> out;
    archive *a = archive_read_new();
    archive_read_support_format_zip(a);
    if (archive_read_open_filename(a, QFile::encodeName(path).constData(), 65536) != ARCHIVE_OK) {
        archive_read_free(a);
        return out;
    }
    archive_entry *e = nullptr;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        QByteArray data;
        char buf[65536];
        la_ssize_t n;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            data.append(buf, n);
        out.insert(QString::fromUtf8(archive_entry_pathname(e)), data);
    }
    archive_read_free(a);
    return out;
}

/** Writes a zip with the given (name, bytes) entries; symlinkTarget non-empty makes the last a symlink. */
inline void writeZip(
    const QString &path, const QList<QPair<QByteArray, QByteArray>> &entries, const QByteArray &symlinkTarget = {})
{
    archive *a = archive_write_new();
    archive_write_set_format_zip(a);
    archive_write_open_filename(a, QFile::encodeName(path).constData());
    for (int i = 0; i < entries.size(); ++i) {
        archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, entries.at(i).first.constData());
        const bool link = !symlinkTarget.isEmpty() && i == entries.size() - 1;
        archive_entry_set_filetype(e, link ? AE_IFLNK : AE_IFREG);
        if (link)
            archive_entry_set_symlink(e, symlinkTarget.constData());
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, link ? 0 : entries.at(i).second.size());
        archive_write_header(a, e);
        if (!link)
            archive_write_data(a, entries.at(i).second.constData(), size_t(entries.at(i).second.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

inline QByteArray bundleIndexFor(const QList<QPair<QByteArray, QByteArray>> &files)
{
    QJsonArray arr;
    for (const auto &f : files) {
        QJsonObject o;
        o.insert(QStringLiteral("path"), QString::fromUtf8(f.first));
        o.insert(QStringLiteral("size"), qint64(f.second.size()));
        o.insert(QStringLiteral("sha256"), SessionStore::sha256Hex(f.second));
        arr.append(o);
    }
    QJsonObject head;
    head.insert(QStringLiteral("format"), QStringLiteral("nb2lite-bundle"));
    head.insert(QStringLiteral("version"), 1);
    head.insert(QStringLiteral("files"), arr);
    return QJsonDocument(head).toJson();
}

} // namespace nb2::testing
