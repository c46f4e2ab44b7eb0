#include "core/common/error.h"

#include <QMetaType>
#include <QSet>
#include <QTest>

#include <iterator>

#include <variant>

using namespace nb2;

Q_DECLARE_METATYPE(nb2::ErrorKind)

class tst_Error : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kindNames_data();
    void kindNames();
    void namesAreUnique();
    void unknownNames_data();
    void unknownNames();
    void kindOutsideTheEnumHasNoName();
    void makeSetsKindAndMessageOnly();
    void resultHoldsValue();
    void resultHoldsError();
    void resultValueIsMutable();
    void resultOfErrorThrowsOnValue();
    void voidResultDefaultsToSuccess();
    void voidResultHoldsError();
    void errorCrossesQueuedConnections();
};

namespace {

struct KindRow {
    ErrorKind kind;
    const char *name;
};

// Written out by hand, not taken from the table under test: these names are on disk in
// session files and in scripts reading --json, so a rename must fail here.
constexpr KindRow kAllKinds[] = {
    {ErrorKind::None, "none"},
    {ErrorKind::InvalidInput, "invalid_input"},
    {ErrorKind::InvalidRequest, "invalid_request"},
    {ErrorKind::Auth, "auth"},
    {ErrorKind::NotFound, "not_found"},
    {ErrorKind::RateLimited, "rate_limited"},
    {ErrorKind::Server, "server"},
    {ErrorKind::Network, "network"},
    {ErrorKind::Tls, "tls"},
    {ErrorKind::Timeout, "timeout"},
    {ErrorKind::Cancelled, "cancelled"},
    {ErrorKind::MalformedResponse, "malformed_response"},
    {ErrorKind::NoImage, "no_image"},
    {ErrorKind::TooLarge, "too_large"},
    {ErrorKind::Io, "io"},
    {ErrorKind::Conflict, "conflict"},
    {ErrorKind::Unsafe, "unsafe"},
    {ErrorKind::Corrupt, "corrupt"},
    {ErrorKind::Locked, "locked"},
    {ErrorKind::NotWritable, "not_writable"},
    {ErrorKind::DiskFull, "disk_full"},
    {ErrorKind::Budget, "budget"},
};

} // namespace

void tst_Error::kindNames_data()
{
    QTest::addColumn<ErrorKind>("kind");
    QTest::addColumn<QString>("name");
    for (const KindRow &row : kAllKinds)
        QTest::newRow(row.name) << row.kind << QString::fromLatin1(row.name);
}

void tst_Error::kindNames()
{
    QFETCH(ErrorKind, kind);
    QFETCH(QString, name);
    QCOMPARE(errorKindName(kind), name);
    QCOMPARE(errorKindFromName(name), kind);
}

void tst_Error::namesAreUnique()
{
    // Every enumerator from None to the last one has its own name (none is "unknown").
    QSet<QString> seen;
    const int last = int(ErrorKind::Budget);
    for (int i = 0; i <= last; ++i) {
        const QString name = errorKindName(ErrorKind(i));
        QVERIFY2(name != QLatin1String("unknown"), qPrintable(QString::number(i)));
        QVERIFY2(!seen.contains(name), qPrintable(name));
        seen.insert(name);
    }
    QCOMPARE(seen.size(), int(std::size(kAllKinds)));
}

void tst_Error::unknownNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << QString();
    QTest::newRow("from a newer build") << QStringLiteral("quota_exceeded");
    QTest::newRow("wrong case") << QStringLiteral("Not_Found");
    QTest::newRow("camel case") << QStringLiteral("notFound");
    QTest::newRow("padded") << QStringLiteral(" io");
    QTest::newRow("unknown") << QStringLiteral("unknown");
}

void tst_Error::unknownNames()
{
    QFETCH(QString, name);
    QCOMPARE(errorKindFromName(name), ErrorKind::None);
}

void tst_Error::kindOutsideTheEnumHasNoName()
{
    QCOMPARE(errorKindName(ErrorKind(int(ErrorKind::Budget) + 1)), QStringLiteral("unknown"));
}

void tst_Error::makeSetsKindAndMessageOnly()
{
    const Error e = Error::make(ErrorKind::Locked, QStringLiteral("The session is locked by another program."));
    QCOMPARE(e.kind, ErrorKind::Locked);
    QCOMPARE(e.message, QStringLiteral("The session is locked by another program."));
    QCOMPARE(e.api.httpStatus, 0);
    QCOMPARE(e.api.retryAfterMs, -1);
    QCOMPARE(e.api.attempts, 0);
    QVERIFY(e.api.serverMessage.isEmpty());
    QVERIFY(e.api.serverCode.isEmpty());
    QVERIFY(e.api.modelText.isEmpty());
    QVERIFY(e.api.allowedValues.isEmpty());
    QVERIFY(e.api.interactionId.isEmpty());

    const Error none;
    QCOMPARE(none.kind, ErrorKind::None);
    QVERIFY(none.message.isEmpty());
}

void tst_Error::resultHoldsValue()
{
    const Result<QString> r(QStringLiteral("frame-1"));
    QVERIFY(r.ok());
    QVERIFY(bool(r));
    QCOMPARE(r.value(), QStringLiteral("frame-1"));
    QCOMPARE(r.error().kind, ErrorKind::None);
    QVERIFY(r.error().message.isEmpty());

    // A payload that is itself "falsy" is still a success.
    const Result<bool> no(false);
    QVERIFY(no.ok());
    QCOMPARE(no.value(), false);
    const Result<int> zero(0);
    QVERIFY(zero.ok());
}

void tst_Error::resultHoldsError()
{
    Error e = Error::make(ErrorKind::RateLimited, QStringLiteral("Too many requests; wait 3 s."));
    e.api.httpStatus = 429;
    e.api.retryAfterMs = 3000;
    const Result<QString> r(e);
    QVERIFY(!r.ok());
    QVERIFY(!bool(r));
    QCOMPARE(r.error().kind, ErrorKind::RateLimited);
    QCOMPARE(r.error().message, e.message);
    QCOMPARE(r.error().api.httpStatus, 429);
    QCOMPARE(r.error().api.retryAfterMs, 3000);

    // An error passes from one Result type to another unchanged.
    const auto forward = [&]() -> Result<int> { return r.error(); };
    const Result<int> f = forward();
    QVERIFY(!f);
    QCOMPARE(f.error().api.retryAfterMs, 3000);
}

void tst_Error::resultValueIsMutable()
{
    Result<QStringList> r(QStringList {QStringLiteral("a")});
    r.value().append(QStringLiteral("b"));
    QCOMPARE(r.value(), (QStringList {QStringLiteral("a"), QStringLiteral("b")}));
}

void tst_Error::resultOfErrorThrowsOnValue()
{
    const Result<int> r(Error::make(ErrorKind::Io, QStringLiteral("disk gone")));
    QVERIFY_THROWS_EXCEPTION(std::bad_variant_access, (void)r.value());
}

void tst_Error::voidResultDefaultsToSuccess()
{
    const Result<void> r;
    QVERIFY(r.ok());
    QVERIFY(bool(r));
    QCOMPARE(r.error().kind, ErrorKind::None);

    const Result<void> s = Result<void>::success();
    QVERIFY(s.ok());
    QVERIFY(s.error().message.isEmpty());
}

void tst_Error::voidResultHoldsError()
{
    const Result<void> r = Error::make(ErrorKind::DiskFull, QStringLiteral("No space left on the disk."));
    QVERIFY(!r.ok());
    QVERIFY(!bool(r));
    QCOMPARE(r.error().kind, ErrorKind::DiskFull);
    QCOMPARE(r.error().message, QStringLiteral("No space left on the disk."));

    // Even an Error without a kind makes a failure: what counts is that one was given.
    const Result<void> bare = Error {};
    QVERIFY(!bare.ok());
}

void tst_Error::errorCrossesQueuedConnections()
{
    // Turn failures travel through queued signals: the type must be known to the meta-type system.
    const int id = qRegisterMetaType<nb2::Error>();
    QVERIFY(QMetaType(id).isValid());
    Error e = Error::make(ErrorKind::NoImage, QStringLiteral("The model answered without an image."));
    e.api.modelText = QStringLiteral("I cannot draw that.");
    const QVariant v = QVariant::fromValue(e);
    QCOMPARE(v.value<Error>().api.modelText, QStringLiteral("I cannot draw that."));
    QCOMPARE(v.value<Error>().kind, ErrorKind::NoImage);
}

QTEST_GUILESS_MAIN(tst_Error)
#include "tst_error.moc"
