// The Export dialog's scope walks (see ExportDialog::areScopesReady()): every scope the dialog
// counts or previews, walked once on a worker from a copy of the session when it opens.
#include "ui/exportdialog.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

struct ExportDialog::ScopeWalk {
    QList<const ExportFrame *> treeOrder;
    QHash<QString, Result<QList<const ExportFrame *>>> selected; // by selectKey()
};

void ExportDialog::startScopeWalk()
{
    // The worker's session is a copy sharing the dialog's frames (nothing writes either): the
    // pointers it returns point into the same frames as m_session's, which the dialog keeps.
    QList<ExportScope> scopes {ExportScope::session()};
    if (!m_branchHead.isEmpty())
        scopes.append(ExportScope::ofBranch(m_branchHead));
    if (!m_selected.isEmpty())
        scopes.append(ExportScope::ofFrames(m_selected));
    auto walk = std::make_shared<ScopeWalk>();
    m_walk = walk;
    m_walkWatcher = new QFutureWatcher<void>(this);
    connect(m_walkWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (!m_scopesReady)
            adoptScopeWalk();
    });
    m_walkWatcher->setFuture(QtConcurrent::run([walk, session = m_session, scopes] {
        walk->treeOrder = session.treeOrder();
        for (const bool includeFailed : {false, true}) {
            for (const ExportScope &scope : scopes)
                walk->selected.insert(
                    selectKey(scope, includeFailed), session.select(scope, includeFailed, walk->treeOrder));
        }
    }));
}

void ExportDialog::adoptScopeWalk()
{
    // Read only after the worker finished (the watcher's signal, or waitForFinished()).
    m_treeOrder = m_walk->treeOrder;
    for (auto it = m_walk->selected.cbegin(); it != m_walk->selected.cend(); ++it)
        m_selectCache.insert(it.key(), it.value());
    m_walk.reset();
    m_scopesReady = true;
    updateState();
    Q_EMIT scopesReady();
}

} // namespace nb2
