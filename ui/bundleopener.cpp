#include "ui/bundleopener.h"

#include "core/export/sessionbundle.h"
#include "ui/sessionmanager.h"
#include "ui/theme.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace nb2 {

namespace {

// A name for the folder: the bundle's base name, or "session" for a bundle called ".nb2session".
QString folderName(const QString &bundle)
{
    const QString base = QFileInfo(bundle).completeBaseName().trimmed();
    return base.isEmpty() ? QStringLiteral("session") : base;
}

bool isWritableFolder(const QString &dir)
{
    const QFileInfo info(dir);
    return info.isDir() && info.isWritable();
}

} // namespace

BundleOpener::BundleOpener(QWidget *window, SessionOpener openSession, QObject *parent)
    : QObject(parent), m_window(window), m_openSession(std::move(openSession))
{}

BundleOpener::SessionOpener BundleOpener::inBackground(SessionManager *sessions)
{
    return [sessions](const QString &dir, OpenDone done) { sessions->openInBackground(dir, std::move(done)); };
}

bool BundleOpener::isBundle(const QString &path)
{
    return path.endsWith(QLatin1String(".nb2session"), Qt::CaseInsensitive);
}

QString BundleOpener::suggestedFolder(const QString &bundle, const QString &fallbackParent)
{
    QString parent = QFileInfo(bundle).absolutePath();
    if (!isWritableFolder(parent) && !fallbackParent.isEmpty())
        parent = fallbackParent;
    const QString name = folderName(bundle);
    QString candidate = QDir(parent).filePath(name);
    // Opening the same bundle twice gives a second copy, never a mix of two.
    for (int n = 2; QFileInfo::exists(candidate) && !folderProblem(candidate).isEmpty(); ++n)
        candidate = QDir(parent).filePath(QStringLiteral("%1 %2").arg(name).arg(n));
    return candidate;
}

QString BundleOpener::folderProblem(const QString &dir)
{
    if (dir.trimmed().isEmpty())
        return tr("Choose a folder to unpack the session into.");
    const QFileInfo info(dir);
    if (info.isSymLink())
        return tr("“%1” is a symbolic link; choose a new folder.").arg(QDir::toNativeSeparators(dir));
    if (info.exists() && !info.isDir())
        return tr("“%1” is a file; choose a new folder.").arg(QDir::toNativeSeparators(dir));
    if (info.isDir() && !QDir(dir).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System))
        return tr("“%1” is not empty; choose a new folder, or an empty one.").arg(QDir::toNativeSeparators(dir));
    return {};
}

QString BundleOpener::askFolder(const QString &bundle)
{
    QDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("bundleOpenDialog"));
    dialog.setWindowTitle(tr("Open Session Bundle"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *intro = new QLabel(tr("“%1” is a session bundle. It is unpacked into a new folder, which then opens as a "
                                "session; the bundle itself is not changed.")
                                 .arg(QFileInfo(bundle).fileName()),
        &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *row = new QHBoxLayout;
    auto *label = new QLabel(tr("Unpack into:"), &dialog);
    auto *edit = new QLineEdit(QDir::toNativeSeparators(suggestedFolder(bundle, m_fallbackParent)), &dialog);
    edit->setObjectName(QStringLiteral("bundleFolderEdit"));
    edit->setMinimumWidth(edit->fontMetrics().averageCharWidth() * 50);
    label->setBuddy(edit);
    auto *browse = new QPushButton(tr("Choose…"), &dialog);
    browse->setObjectName(QStringLiteral("bundleFolderBrowse"));
    row->addWidget(label);
    row->addWidget(edit, 1);
    row->addWidget(browse);
    layout->addLayout(row);

    auto *problem = new QLabel(&dialog);
    problem->setObjectName(QStringLiteral("bundleFolderProblem"));
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color: %1").arg(themeColor(ThemeColor::Error).name()));
    problem->hide();
    layout->addWidget(problem);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Unpack and Open"));
    layout->addWidget(buttons);

    // "Choose…" picks where the folder goes; its name stays the bundle's.
    connect(browse, &QPushButton::clicked, &dialog, [&dialog, edit, bundle] {
        const QString current = QDir::fromNativeSeparators(edit->text().trimmed());
        const QString parent = QFileDialog::getExistingDirectory(
            &dialog, tr("Unpack the Session Into"), QFileInfo(current).absolutePath());
        if (!parent.isEmpty())
            edit->setText(
                QDir::toNativeSeparators(suggestedFolder(QDir(parent).filePath(QFileInfo(bundle).fileName()))));
    });
    connect(edit, &QLineEdit::textEdited, problem, &QLabel::hide);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&dialog, edit, problem] {
        // Checked here so that the user can pick another folder without starting over.
        const QString why = folderProblem(QDir::fromNativeSeparators(edit->text().trimmed()));
        if (!why.isEmpty()) {
            problem->setText(why);
            problem->show();
            return;
        }
        dialog.accept();
    });

    if (dialog.exec() != QDialog::Accepted)
        return {};
    return QDir::cleanPath(QDir(QDir::fromNativeSeparators(edit->text().trimmed())).absolutePath());
}

bool BundleOpener::open(const QString &bundle)
{
    const QString dir = askFolder(bundle);
    if (dir.isEmpty())
        return false;
    unpack(bundle, dir);
    return true;
}

void BundleOpener::unpack(const QString &bundle, const QString &dir)
{
    m_busy = true;
    QApplication::setOverrideCursor(Qt::BusyCursor);
    auto *watcher = new QFutureWatcher<QString>(this);
    const auto done = [this](const QString &dir, const QString &error) {
        QApplication::restoreOverrideCursor();
        m_busy = false;
        Q_EMIT finished(dir, error);
    };
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, dir, done] {
        watcher->deleteLater();
        const QString error = watcher->result();
        if (!error.isEmpty() || !m_openSession) {
            done(dir, error);
            return;
        }
        // Busy until the session is open: the window is reading it on a worker.
        m_openSession(dir, [self = QPointer<BundleOpener>(this), dir, done](const Result<void> &opened) {
            if (!self)
                return;
            done(dir,
                opened ? QString()
                       : tr("The unpacked session in %1 could not be opened: %2")
                             .arg(QDir::toNativeSeparators(dir), opened.error().message));
        });
    });
    // Unzipping and hashing every image is disk work: never on the GUI thread.
    watcher->setFuture(QtConcurrent::run([bundle, dir] {
        const Result<ExportReport> extracted = SessionBundle::extract(bundle, dir);
        return extracted ? QString() : extracted.error().message;
    }));
}

} // namespace nb2
