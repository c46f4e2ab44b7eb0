#pragma once

#include "core/common/error.h"
#include "core/mcp/mcpimagepreview.h"
#include "core/mcp/mcptoolcatalog.h"
#include "core/mcp/mcptoolhost.h"

#include <QByteArray>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace nb2 {

class SessionController;
class ThinkingLevels;
struct TurnParams;

/** How the bridge was started: what get_help reports and what results contain. */
struct McpBridgeOptions {
    QString version;
    bool demo = false;
    /** Where the key came from ("GEMINI_API_KEY", "~/gemini.key", ...); empty: there is none. */
    QString keySource;
    /** False when the endpoint takes no key (the demo backend on loopback). */
    bool keyRequired = true;
    /** Why the session folder could not be opened (every image tool then says so); empty when it is open. */
    QString sessionError;
    QString sessionDir;
    /** IMAGE_OUTPUT_DIR (absolute): each finished image is also copied there; empty: no copies. */
    QString outputCopyDir;
    bool imageBlocks = true;
    int previewMaxSide = kPreviewMaxSide;
    /** Relative image paths are taken from here (the server's working directory). */
    QString workingDir;
    /** The learned thinking levels (not owned; may be null: the defaults). */
    const ThinkingLevels *thinkingLevels = nullptr;
};

/**
 * The bridge's tools and resources over a session: every image tool becomes a turn of the
 * SessionController (so a frame, marked as an agent's, in a local-first session a person can
 * watch in the app), and its McpCall is answered when that frame is done, failed or cancelled:
 * with the saved path, ids, the model's text, a preview image block and structuredContent, or
 * with isError and a message that names the fix. Forking is explicit (edit_image on a frame
 * that already has a continuation fails naming branch_from); an interaction id the session
 * does not know is continued as a new root. Cancelling a call cancels its frame. Finished
 * frames are resources (nb2lite://frame/<id>). File checks, copies, previews and server look-ups
 * run on worker threads. Owns nothing but its bookkeeping; the controller must outlive it.
 */
class McpSessionTools : public McpToolHost
{
    Q_OBJECT

public:
    McpSessionTools(SessionController *session, McpBridgeOptions options, QObject *parent = nullptr);
    ~McpSessionTools() override;

    QJsonArray toolDefinitions() const override;
    void callTool(const std::shared_ptr<McpCall> &call) override;
    QJsonArray resourceList() const override;
    QJsonArray resourceTemplates() const override;
    void readResource(const std::shared_ptr<McpCall> &call) override;
    QString instructions() const override;

    /** The thinking level sent when none is given: "low" unless the server taught us otherwise. */
    QString defaultThinkingLevel() const;

private:
    struct Turn;

    void generate(const std::shared_ptr<McpCall> &call);
    void edit(const std::shared_ptr<McpCall> &call, bool branch);
    void editLocal(const std::shared_ptr<McpCall> &call, bool withStyle);
    void listFrames(const std::shared_ptr<McpCall> &call);
    void help(const std::shared_ptr<McpCall> &call);
    /** An interaction id no frame made: learn its aspect ratio with a get, then a root edit that continues it. */
    void continueInteraction(const std::shared_ptr<McpCall> &call, const QString &interactionId, TurnParams params,
        const QString &what, bool branch);
    /** Tracks the frame a controller call started (or answers its error) until the frame finishes. */
    void track(
        const std::shared_ptr<McpCall> &call, const Result<QString> &started, const QString &what, const QString &note);
    void onTurnFinished(const QString &frameId);
    void reportProgress(const QString &frameId, const QString &message);
    /** An error result when image tools cannot run at all (no session, no key); nullopt when they can. */
    std::optional<QJsonObject> unavailable(const QString &what) const;
    /** Runs work on a worker thread, then then(result) here (unless this object is gone). */
    template <typename T> void offThread(std::function<T()> work, std::function<void(const T &)> then);
    void checkToolList();
    void scheduleResourceCheck();
    mcp::ToolCatalogInputs catalogInputs() const;
    QString absolutePath(const QString &path) const;

    QPointer<SessionController> m_session;
    McpBridgeOptions m_options;
    QHash<QString, std::shared_ptr<Turn>> m_turns; // by frame id
    QByteArray m_toolsSnapshot;
    QSet<QString> m_listedResources;
    QTimer *m_resourceTimer = nullptr;
};

} // namespace nb2
