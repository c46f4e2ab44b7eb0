#include "ui/importcontroller.h"

#include "core/api/imageinput.h"
#include "core/api/inputpreparation.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/frameselection.h"
#include "ui/importcheck.h"
#include "ui/noticepresenter.h"
#include "ui/promptpanel.h"
#include "ui/sessionmanager.h"

#include <QBuffer>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QImageReader>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStandardPaths>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

ImportController::ImportController(SessionManager *sessions, FrameSelection *selection, PromptPanel *prompt,
    NoticePresenter *notices, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_sessions(sessions)
    , m_selection(selection)
    , m_prompt(prompt)
    , m_notices(notices)
    , m_dialogParent(dialogParent)
{}

QString ImportController::pasteDir()
{
    if (!m_pasteDir || !m_pasteDir->isValid())
        m_pasteDir = std::make_unique<QTemporaryDir>();
    return m_pasteDir->isValid() ? m_pasteDir->path() : QString();
}

bool ImportController::canImport(const QMimeData *d)
{
    if (!d)
        return false;
    bool image = d->hasUrls() || d->hasImage();
    for (const QString &f : d->formats())
        image = image || f.startsWith(QLatin1String("image/"));
    return image;
}

QString ImportController::styleCopyFor(const QString &chosen) const
{
    return m_styleCopy.first == chosen ? m_styleCopy.second : QString();
}

bool ImportController::importMimeData(const QMimeData *data)
{
    if (!data)
        return false;
    QStringList files;
    QStringList remote;
    for (const QUrl &url : data->urls()) {
        if (url.isLocalFile())
            files << url.toLocalFile();
        else if (url.isValid())
            remote << url.toDisplayString();
    }
    if (!files.isEmpty())
        return importFiles(files);
    // Raw image bytes (from a browser or an image editor): the encoded form is preferred,
    // because it is exactly what the user copied.
    for (const QString &format : data->formats()) {
        if (!format.startsWith(QLatin1String("image/")))
            continue;
        const QByteArray bytes = data->data(format);
        if (bytes.isEmpty())
            continue;
        if (pasteDir().isEmpty()) {
            m_notices->show(NoticeKind::Error, tr("Cannot create a temporary folder for the pasted image."));
            return true;
        }
        ImportCheck c;
        c.displayName = tr("pasted image");
        runImports({c}, {bytes});
        return true;
    }
    if (data->hasImage()) {
        // Only a decoded image is offered: encode it as PNG on a worker.
        const QImage image = qvariant_cast<QImage>(data->imageData());
        if (!image.isNull()) {
            auto *watcher = new QFutureWatcher<QByteArray>(this);
            connect(watcher, &QFutureWatcher<QByteArray>::finished, this, [this, watcher] {
                watcher->deleteLater();
                ImportCheck c;
                c.displayName = tr("pasted image");
                runImports({c}, {watcher->result()});
            });
            watcher->setFuture(QtConcurrent::run([image] {
                QByteArray out;
                QBuffer buffer(&out);
                buffer.open(QIODevice::WriteOnly);
                image.save(&buffer, "PNG");
                return out;
            }));
            return true;
        }
    }
    if (!remote.isEmpty()) {
        m_notices->show(NoticeKind::Error,
            tr("Only local files can be imported (%1 is on the web). Save the picture first, then drop the file.")
                .arg(remote.first()));
        return true;
    }
    return false;
}

bool ImportController::importFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    QList<ImportCheck> checks;
    for (const QString &p : paths) {
        ImportCheck c;
        c.path = p;
        checks << c;
    }
    runImports(checks, {});
    return true;
}

void ImportController::paste()
{
    const QMimeData *data = QGuiApplication::clipboard()->mimeData();
    if (!data || !importMimeData(data))
        m_notices->status(tr("The clipboard holds no picture to import."), 4000);
}

void ImportController::openImageDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(m_dialogParent, tr("Open Image"),
        QStandardPaths::writableLocation(QStandardPaths::PicturesLocation),
        tr("Images (*.png *.jpg *.jpeg *.webp *.gif *.bmp *.tif *.tiff);;All files (*)"));
    if (!files.isEmpty())
        importFiles(files);
}

void ImportController::runImports(const QList<ImportCheck> &pending, const QList<QByteArray> &data)
{
    if (!m_sessions->session()->isOpen()) {
        m_notices->show(NoticeKind::Error, tr("No session is open. Use File → New Session first."));
        Q_EMIT importFinished({}, m_notices->lastMessage());
        return;
    }
    m_notices->status(tr("Checking the picture…"), 0);
    const QString tmp = data.isEmpty() ? QString() : pasteDir(); // only raw bytes are written there
    // The worker checks each picture and writes the good ones into the session's images/, so
    // the GUI thread only records frames.
    const QString dir = m_sessions->dir();
    auto *watcher = new QFutureWatcher<QList<ImportCheck>>(this);
    connect(watcher, &QFutureWatcher<QList<ImportCheck>>::finished, this, [this, watcher, dir] {
        watcher->deleteLater();
        QList<ImportCheck> checks = watcher->result();
        if (m_sessions->dir() != dir) // another session was opened meanwhile: its images/ has none of these
            refuseAfterSessionChange(checks);
        finishImports(checks);
    });
    watcher->setFuture(QtConcurrent::run([pending, data, tmp, dir] {
        QList<ImportCheck> out;
        for (int i = 0; i < pending.size(); ++i) {
            ImportCheck c = i < data.size() ? checkImportBytes(data[i], tmp, pending[i].displayName)
                                            : checkImportFile(pending[i].path, pending[i].displayName);
            storeInSession(c, dir);
            out << c;
        }
        return out;
    }));
}

void ImportController::finishImports(const QList<ImportCheck> &checks)
{
    m_notices->clearStatus();
    QStringList added;
    QStringList errors;
    QList<ImportCheck> withServerIds; // pictures that say which interaction made them: ask first
    QList<ImportCheck> tooLarge;      // valid but over the decode bound: the notice offers a downscale
    for (const ImportCheck &c : checks) {
        if (!c.ok()) {
            errors << c.error;
            if (c.tooLarge && !c.path.isEmpty())
                tooLarge << c;
            continue;
        }
        if (!c.lineageInteractionId.isEmpty() && m_sessions->session()->isOpen()) {
            withServerIds << c;
            continue;
        }
        const Result<QString> r = record(c, false);
        if (!r) {
            errors << tr("“%1” was not imported: %2").arg(c.displayName, r.error().message);
            continue;
        }
        added << r.value();
    }
    if (withServerIds.isEmpty() || !errors.isEmpty() || !added.isEmpty())
        announce(added, errors, tooLarge);
    if (!withServerIds.isEmpty())
        askToContinueChain(withServerIds);
}

Result<QString> ImportController::record(const ImportCheck &check, bool continueChain)
{
    ImportOptions options;
    options.title = QFileInfo(check.displayName).completeBaseName();
    if (!check.lineageJson.isEmpty())
        options.lineage = FrameLineage::fromRecordJson(check.lineageJson);
    options.continueChain = continueChain;
    // The copy is in the folder of the session open when it was made; no frame of another
    // session may name it (the continue-chain question stays open while the user decides).
    if (check.storedIn != m_sessions->dir()) {
        SessionStore::removeUnrecordedCopy(check.storedIn, check.stored.file);
        return Error::make(ErrorKind::Conflict, tr("another session was opened before it was recorded."));
    }
    const Result<QString> recorded = m_sessions->session()->importStoredImage(check.stored, check.storedAt, options);
    if (!recorded)
        SessionStore::removeUnrecordedCopy(check.storedIn, check.stored.file);
    return recorded;
}

void ImportController::refuseAfterSessionChange(QList<ImportCheck> &checks) const
{
    for (ImportCheck &c : checks) {
        if (!c.ok())
            continue;
        SessionStore::removeUnrecordedCopy(c.storedIn, c.stored.file);
        c.stored = {};
        c.error = tr("“%1” was not imported: the session changed while it was being copied.").arg(c.displayName);
    }
}

/**
 * An exported picture names the interaction it came from. Continuing from that id keeps the
 * server-side context; the user decides, one picture at a time, without blocking the window.
 */
void ImportController::askToContinueChain(const QList<ImportCheck> &queue)
{
    const ImportCheck c = queue.first();
    const QList<ImportCheck> rest = queue.mid(1);
    QStringList rows;
    for (const auto &row : c.lineageRows)
        rows << QStringLiteral("<tr><td><b>%1</b>&nbsp;</td><td>%2</td></tr>")
                    .arg(row.first.toHtmlEscaped(), row.second.toHtmlEscaped());
    auto *box = new QMessageBox(QMessageBox::Question, tr("Continue the Chain?"),
        tr("“%1” was exported by NB2Lite and records where it came from.").arg(c.displayName), QMessageBox::NoButton,
        m_dialogParent);
    box->setInformativeText(
        tr("<table>%1</table><p>Continue the chain: edits send the recorded interaction id, so the "
           "model keeps its context. If the server no longer has it, the picture's pixels are sent "
           "instead (re-anchored).</p><p>Start from the pixels: a fresh chain from this picture.</p>")
            .arg(rows.join(QString())));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("continueChainQuestion"));
    QPushButton *continueButton = box->addButton(tr("Continue the Chain"), QMessageBox::AcceptRole);
    QPushButton *pixelsButton = box->addButton(tr("Start from the Pixels"), QMessageBox::RejectRole);
    continueButton->setObjectName(QStringLiteral("continueChainButton"));
    pixelsButton->setObjectName(QStringLiteral("startFromPixelsButton"));
    box->setDefaultButton(continueButton);
    connect(box, &QMessageBox::finished, this, [this, box, continueButton, c, rest] {
        const bool continueChain = box->clickedButton() == continueButton;
        const Result<QString> r = record(c, continueChain);
        if (r)
            announce({r.value()}, {});
        else
            announce({}, {tr("“%1” was not imported: %2").arg(c.displayName, r.error().message)});
        if (!rest.isEmpty())
            askToContinueChain(rest);
    });
    box->open();
}

void ImportController::downscaleAndImport(const QList<ImportCheck> &tooLarge)
{
    if (tooLarge.isEmpty())
        return;
    if (!m_sessions->session()->isOpen()) {
        m_notices->show(NoticeKind::Error, tr("No session is open. Use File → New Session first."));
        Q_EMIT importFinished({}, m_notices->lastMessage());
        return;
    }
    const QString tmp = pasteDir();
    if (tmp.isEmpty()) {
        m_notices->show(NoticeKind::Error, tr("Cannot create a temporary folder for the downscaled picture."));
        Q_EMIT importFinished({}, m_notices->lastMessage());
        return;
    }
    m_notices->clear();
    m_notices->status(tr("Downscaling %n picture(s) to the model's input size…", nullptr, int(tooLarge.size())), 0);
    struct Outcome {
        QList<ImportCheck> checks;
        QStringList notes;
    };
    const QString dir = m_sessions->dir();
    auto *watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, dir] {
        watcher->deleteLater();
        Outcome outcome = watcher->result();
        if (m_sessions->dir() != dir) { // another session was opened meanwhile: its images/ has none of these
            refuseAfterSessionChange(outcome.checks);
            outcome.notes.clear();
        }
        m_downscaleNotes = outcome.notes;
        finishImports(outcome.checks);
        m_downscaleNotes.clear();
    });
    // Decoding a 12000×12000 picture takes seconds and half a gigabyte: never on the GUI thread.
    watcher->setFuture(QtConcurrent::run([tooLarge, tmp, dir] {
        Outcome out;
        for (const ImportCheck &big : tooLarge) {
            ImportCheck failed;
            failed.path = big.path;
            failed.displayName = big.displayName;
            const Result<ImageInput> input = loadImageInput(big.path);
            if (!input) {
                failed.error = tr("“%1” was not imported: %2").arg(big.displayName, input.error().message);
                out.checks << failed;
                continue;
            }
            const QSize original = QImageReader(big.path).size();
            const Result<ImageInput> small = downscaleToModelInput(input.value());
            if (!small) {
                failed.error = tr("“%1” could not be downscaled: %2").arg(big.displayName, small.error().message);
                out.checks << failed;
                continue;
            }
            // The PNG goes through the same checks and copy as any other import.
            ImportCheck c = checkImportBytes(small.value().bytes, tmp, big.displayName);
            storeInSession(c, dir);
            if (c.ok())
                out.notes << tr("“%1” from %2×%3 to %4×%5")
                                 .arg(big.displayName, QString::number(original.width()),
                                     QString::number(original.height()), QString::number(small.value().size.width()),
                                     QString::number(small.value().size.height()));
            out.checks << c;
        }
        return out;
    }));
}

void ImportController::announce(const QStringList &added, const QStringList &errors, const QList<ImportCheck> &tooLarge)
{
    if (!errors.isEmpty()) {
        // Every failure by name, and what did get in: "2 files were not imported" above a frame
        // that was imported, with only the first reason, told the user the opposite.
        const QString outcome
            = added.isEmpty() ? tr("Nothing was imported.") : tr("Imported %n picture(s).", nullptr, int(added.size()));
        QString text;
        if (errors.size() == 1)
            text = tr("%1 %2").arg(errors.first(), outcome);
        else
            text = tr("Could not import %n file(s): %1 %2", nullptr, int(errors.size()))
                       .arg(errors.join(QLatin1Char(' ')), outcome);
        if (tooLarge.isEmpty()) {
            m_notices->show(NoticeKind::Error, text);
        } else {
            // The fix the message names, one click away: downscale the valid-but-huge pictures
            // (every one the message calls too large).
            m_notices->show(NoticeKind::Error, text, tr("Downscale and Import"),
                [this, tooLarge] { downscaleAndImport(tooLarge); });
        }
    } else {
        m_notices->clear();
    }
    if (!added.isEmpty()) {
        m_selection->select(added.last());
        m_prompt->focusPrompt();
        const QString imported
            = tr("Imported %n picture(s). Describe a change and press Edit this frame.", nullptr, int(added.size()));
        m_notices->status(m_downscaleNotes.isEmpty() ? imported
                                                     : tr("%1 Downscaled to the model's input size: %2.")
                                                           .arg(imported, m_downscaleNotes.join(QStringLiteral("; "))),
            m_downscaleNotes.isEmpty() ? 6000 : 10000);
    }
    Q_EMIT importFinished(added, errors.isEmpty() ? QString() : m_notices->lastMessage());
}

void ImportController::setStyleReference(const QString &path)
{
    const QString dir = m_sessions->dir();
    auto *watcher = new QFutureWatcher<ImportCheck>(this);
    connect(watcher, &QFutureWatcher<ImportCheck>::finished, this, [this, watcher, dir] {
        watcher->deleteLater();
        ImportCheck c = watcher->result();
        if (m_sessions->dir() != dir) { // another session was opened meanwhile: use the original file
            SessionStore::removeUnrecordedCopy(dir, c.stored.file);
            c.stored = {};
        }
        if (!c.ok()) {
            m_notices->show(NoticeKind::Error, tr("Style reference not used: %1").arg(c.error));
            Q_EMIT styleReferenceChecked(c.path, c.error);
            return;
        }
        // The worker copied the picture into this session's images/ (see below); the style
        // edit sends that copy, so nothing is copied on the GUI thread. The slot shows the original.
        m_styleCopy
            = {c.path, c.stored.isNull() ? QString() : m_sessions->session()->store()->absolutePath(c.stored.file)};
        m_prompt->setStyleFile(c.path, c.preview);
        m_notices->status(tr("Style reference set: the next edit restyles the selected frame after it."), 5000);
        Q_EMIT styleReferenceChecked(c.path, {});
    });
    watcher->setFuture(QtConcurrent::run([path, dir] {
        ImportCheck c = checkImportFile(path);
        if (c.ok() && !dir.isEmpty()) {
            if (const Result<QString> copied = SessionStore::copyInputImage(dir, path)) {
                c.stored.file = copied.value();
                c.storedIn = dir;
            }
        }
        return c;
    }));
}

} // namespace nb2
