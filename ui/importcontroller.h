#pragma once

#include "core/common/error.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

class QMimeData;
class QWidget;

namespace nb2 {

class FrameSelection;
class NoticePresenter;
class PromptPanel;
class SessionManager;
struct ImportCheck;

/**
 * Brings pictures in: dropped, pasted or opened files and raw image data become import
 * frames, and a checked picture becomes the style reference. Every check and every copy into
 * the session's images/ runs on a worker; the GUI thread only records frames. A picture that
 * records the interaction it came from asks, without blocking, whether to continue that chain.
 */
class ImportController : public QObject
{
    Q_OBJECT
public:
    ImportController(SessionManager *sessions, FrameSelection *selection, PromptPanel *prompt, NoticePresenter *notices,
        QWidget *dialogParent);

    /** Local files, file URLs or raw image data. Asynchronous; importFinished() reports.
     *  False when the data holds nothing importable (nothing shown). */
    bool importMimeData(const QMimeData *data);
    bool importFiles(const QStringList &paths);
    /** Whether a drag carries something importImage could use. */
    static bool canImport(const QMimeData *data);
    /** The session's copy of the style picture the user chose (empty: not copied; send the original). */
    QString styleCopyFor(const QString &chosen) const;

    /**
     * The action offered for a valid picture that is too large to open (e.g. 12000×12000):
     * each is downscaled to the model's input size (about 1024×1024, same aspect ratio) on a
     * worker and imported as a PNG. Asynchronous; importFinished() reports. The notice of a
     * "too large" import carries this as its button.
     */
    void downscaleAndImport(const QList<ImportCheck> &tooLarge);

public Q_SLOTS:
    void paste();
    void openImageDialog();
    /** Validates the picture (asynchronous) and puts it in the prompt's style slot. */
    void setStyleReference(const QString &path);

Q_SIGNALS:
    /** An import (drop, paste, Open Image) finished: the new frame ids, or an error message. */
    void importFinished(const QStringList &frameIds, const QString &error);
    void styleReferenceChecked(const QString &path, const QString &error);

private:
    void runImports(const QList<ImportCheck> &pending, const QList<QByteArray> &data);
    void finishImports(const QList<ImportCheck> &checks);
    void askToContinueChain(const QList<ImportCheck> &queue);
    Result<QString> record(const ImportCheck &check, bool continueChain);
    /**
     * A worker finished after another session was opened: each good check becomes an error,
     * and its copy is deleted from the folder it went into (no frame there will name it).
     */
    void refuseAfterSessionChange(QList<ImportCheck> &checks) const;
    void announce(const QStringList &added, const QStringList &errors, const QList<ImportCheck> &tooLarge = {});
    /**
     * The temporary folder for pasted and downscaled pictures' bytes, made on first use (empty
     * if it cannot be made; the next use tries again). Not at start: a window that never pastes
     * makes none, and a killed one leaves none behind in /tmp.
     */
    QString pasteDir();

    SessionManager *m_sessions;
    FrameSelection *m_selection;
    PromptPanel *m_prompt;
    NoticePresenter *m_notices;
    QWidget *m_dialogParent;
    std::unique_ptr<QTemporaryDir> m_pasteDir;
    QPair<QString, QString> m_styleCopy; // style reference as chosen -> its copy in the session's images/
    QStringList m_downscaleNotes; // "“a.png”: 12000×12000 → 1024×1024", said once the import is announced
};

} // namespace nb2
