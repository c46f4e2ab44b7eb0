#pragma once

#include "tests/testpaths.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtTest>

/** Reads tests/data/api/<name>; fails the test when the fixture is missing. */
inline QByteArray apiFixture(const QString &name)
{
    QFile f(nb2test::testDataDir() + QStringLiteral("/api/") + name);
    if (!f.open(QIODevice::ReadOnly)) {
        qWarning("missing fixture %s", qPrintable(name));
        return {};
    }
    return f.readAll();
}

inline QString apiFixturePath(const QString &name)
{
    return nb2test::testDataDir() + QStringLiteral("/api/") + name;
}
