#include "core/mcp/mcphelp.h"

#include "core/mcp/mcpresults.h"

#include <QDir>
#include <QJsonArray>

namespace nb2::mcp {

namespace {

QString keyLine(const HelpFacts &f)
{
    if (f.keyStatus == QLatin1String("demo"))
        return QStringLiteral(
            "demo: the built-in offline backend (synthetic images, no key needed, nothing leaves this "
            "machine)");
    if (f.keyStatus == QLatin1String("set"))
        return QStringLiteral("set (from %1)").arg(f.keySource);
    return QStringLiteral("MISSING: set GEMINI_API_KEY (or GOOGLE_API_KEY) in the environment that starts `nb2lite "
                          "mcp`, or put the key on the first line of ~/gemini.key (mode 0600), then restart the MCP "
                          "server. To try it without a key, register `nb2lite mcp --demo`.");
}

} // namespace

QJsonObject helpResult(const HelpFacts &f)
{
    const QString levels = f.thinkingLevels.join(QStringLiteral(", "));
    const QString ratios = f.aspectRatios.join(QStringLiteral(", "));
    QStringList t;
    t << QStringLiteral("# nb2lite %1: Gemini image generation and editing for agents").arg(f.version) << QString()
      << QStringLiteral("Every call becomes a frame of a local NB2Lite session that a person can watch, compare, "
                        "branch and export in NB2Lite Studio. Server interaction ids expire; the session does not.")
      << QString() << QStringLiteral("## Configuration") << QStringLiteral("- API key: %1").arg(keyLine(f))
      << QStringLiteral("- Model: %1 (GEMINI_MODEL_NAME)").arg(f.model)
      << QStringLiteral("- Session folder: %1 (frames: %2; --session DIR or NB2LITE_SESSION; default "
                        ".nb2lite/session under the working directory)")
             .arg(QDir::toNativeSeparators(f.sessionDir))
             .arg(f.frameCount);
    if (!f.sessionError.isEmpty())
        t << QStringLiteral("- Session problem: %1").arg(f.sessionError);
    t << QStringLiteral("- IMAGE_OUTPUT_DIR: %1")
             .arg(f.imageOutputDir.isEmpty() ? QStringLiteral("not set (images stay in the session's images folder)")
                                             : QStringLiteral("%1 (each image is also copied there)")
                                                   .arg(QDir::toNativeSeparators(f.imageOutputDir)))
      << QStringLiteral("- Image previews in results: %1")
             .arg(f.imageBlocks ? QStringLiteral("on (at most 512 px; the file is full size)")
                                : QStringLiteral("off (--no-image-blocks)"))
      << QString() << QStringLiteral("## Tools")
      << QStringLiteral("- generate_image(prompt, aspect_ratio=\"1:1\", thinking_level=\"%1\"): a new image. The "
                        "aspect ratio is fixed for the chain.")
             .arg(f.defaultThinkingLevel)
      << QStringLiteral("- edit_image(previous_interaction_id, edit_prompt, thinking_level=\"%1\"): continue an "
                        "image. Pass the NEWEST interaction id (or a frame id) and describe only the change. If the "
                        "image already has a newer edit this fails and names branch_from.")
             .arg(f.defaultThinkingLevel)
      << QStringLiteral("- edit_local_image(image_path, edit_prompt, aspect_ratio?, thinking_level=\"%1\"): edit a "
                        "local file (new chain); the aspect ratio defaults to the nearest one of the input.")
             .arg(f.defaultThinkingLevel)
      << QStringLiteral("- edit_local_image_with_style(image_path, style_image_path, edit_prompt, aspect_ratio?, "
                        "thinking_level=\"%1\"): apply the style of one local image to another.")
             .arg(f.defaultThinkingLevel)
      << QStringLiteral("- branch_from(frame_or_interaction_id, edit_prompt, thinking_level=\"%1\"): fork on purpose "
                        "from an earlier frame; the existing branch stays.")
             .arg(f.defaultThinkingLevel)
      << QStringLiteral("- list_frames(branch?): the session's frames, including those a person made in the app.")
      << QStringLiteral("- get_help(): this text.")
      << QStringLiteral("Aspect ratios: %1. Thinking levels: %2 (as the server accepts them; learned from its "
                        "answers).")
             .arg(ratios, levels)
      << QString() << QStringLiteral("## Ids")
      << QStringLiteral("- interaction_id: the server's id of a result; edit_image continues it. Ids expire (1 day "
                        "on free keys, 55 days on paid keys); an expired parent of a session frame is re-sent from "
                        "its stored image (\"re-anchored\").")
      << QStringLiteral("- frame_id: the session's own 8-character id; edit_image and branch_from accept it (or a "
                        "unique prefix of 4+ characters).")
      << QStringLiteral("- Resources: every finished frame is nb2lite://frame/<frame_id> (the full image).")
      << QString() << QStringLiteral("## When something fails")
      << QStringLiteral("- No key: see Configuration above. Never paste a key into the chat.")
      << QStringLiteral("- HTTP 429: the quota is used up; wait the time the message gives, then retry.")
      << QStringLiteral("- Text-only answer: the model refused or misunderstood; describe the picture instead.")
      << QStringLiteral("- Interaction not found: it expired; use edit_local_image with the saved file.")
      << QStringLiteral("- Image files: PNG, JPEG, WebP, GIF, BMP, TIFF or HEIC, at most 20 MB; paths are taken "
                        "from the server's working directory.");

    const QJsonObject structured {
        {QStringLiteral("server"), QStringLiteral("nb2lite")},
        {QStringLiteral("version"), f.version},
        {QStringLiteral("model"), f.model},
        {QStringLiteral("key_status"), f.keyStatus},
        {QStringLiteral("key_source"), f.keySource},
        {QStringLiteral("session_dir"), f.sessionDir},
        {QStringLiteral("session_error"), f.sessionError},
        {QStringLiteral("image_output_dir"), f.imageOutputDir},
        {QStringLiteral("demo"), f.demo},
        {QStringLiteral("aspect_ratios"), QJsonArray::fromStringList(f.aspectRatios)},
        {QStringLiteral("thinking_levels"), QJsonArray::fromStringList(f.thinkingLevels)},
        {QStringLiteral("default_thinking_level"), f.defaultThinkingLevel},
        {QStringLiteral("tools"), QJsonArray::fromStringList(f.tools)},
    };
    return textResult(t.join(QLatin1Char('\n')), structured);
}

} // namespace nb2::mcp
