#include "core/mcp/mcptoolcatalog.h"

namespace nb2::mcp {

namespace {

QJsonObject stringProperty(const QString &description)
{
    return {{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("description"), description}};
}

QJsonObject requiredText(const QString &description)
{
    QJsonObject p = stringProperty(description);
    p.insert(QStringLiteral("minLength"), 1);
    return p;
}

QJsonObject enumProperty(const QString &description, const QStringList &values, const QString &defaultValue = {})
{
    QJsonObject p = stringProperty(description);
    p.insert(QStringLiteral("enum"), QJsonArray::fromStringList(values));
    if (!defaultValue.isEmpty())
        p.insert(QStringLiteral("default"), defaultValue);
    return p;
}

QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required)
{
    QJsonObject s {{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties},
        {QStringLiteral("additionalProperties"), false}};
    if (!required.isEmpty())
        s.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return s;
}

QJsonObject typed(const char *type, const QString &description)
{
    return {{QStringLiteral("type"), QLatin1String(type)}, {QStringLiteral("description"), description}};
}

QJsonObject openSchema(const QJsonObject &properties, const QStringList &required)
{
    // Output schemas describe what we send; clients must accept fields added later.
    QJsonObject s {{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        s.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return s;
}

QJsonObject imageOutputSchema()
{
    return openSchema(
        {{QStringLiteral("path"),
             typed("string", QStringLiteral("Absolute path of the saved image (in the session's images folder)."))},
            {QStringLiteral("interaction_id"),
                typed(
                    "string", QStringLiteral("Server interaction id: pass it to edit_image to continue this image."))},
            {QStringLiteral("frame_id"), typed("string", QStringLiteral("Session frame id of the new image."))},
            {QStringLiteral("parent_frame_id"),
                typed("string", QStringLiteral("Frame this one continues; empty for a new root."))},
            {QStringLiteral("continued_interaction_id"),
                typed("string", QStringLiteral("previous_interaction_id that was sent, if any."))},
            {QStringLiteral("kind"),
                typed("string", QStringLiteral("generate, edit, edit_local, style_edit or re_anchor."))},
            {QStringLiteral("prompt"), typed("string", QStringLiteral("The prompt that was sent."))},
            {QStringLiteral("aspect_ratio"), typed("string", QStringLiteral("Aspect ratio that was requested."))},
            {QStringLiteral("thinking_level"), typed("string", QStringLiteral("Thinking level that was sent."))},
            {QStringLiteral("model"), typed("string", QStringLiteral("Model that made the image."))},
            {QStringLiteral("model_text"),
                typed("string", QStringLiteral("Text the model returned with the image (may be empty)."))},
            {QStringLiteral("mime_type"), typed("string", QStringLiteral("MIME type of the saved file."))},
            {QStringLiteral("width"), typed("integer", QStringLiteral("Width of the saved image in pixels."))},
            {QStringLiteral("height"), typed("integer", QStringLiteral("Height of the saved image in pixels."))},
            {QStringLiteral("re_anchored"),
                typed("boolean",
                    QStringLiteral(
                        "The parent's id had expired: its stored image was sent instead (continuity may differ)."))},
            {QStringLiteral("copy_path"),
                typed("string", QStringLiteral("Copy in IMAGE_OUTPUT_DIR, when that is set."))},
            {QStringLiteral("session_dir"),
                typed("string", QStringLiteral("The session folder that keeps the whole history."))},
            {QStringLiteral("resource_uri"),
                typed("string", QStringLiteral("nb2lite://frame/<frame_id>: read it with resources/read."))},
            {QStringLiteral("drift_changed"),
                typed("number",
                    QStringLiteral("Edits only: fraction of the picture the edit changed, 0..1 (the drift meter)."))},
            {QStringLiteral("drift_warning"),
                typed("boolean",
                    QStringLiteral("Edits only: the edit changed far more of the picture than an edit "
                                   "usually means; look before continuing."))}},
        {QStringLiteral("path"), QStringLiteral("interaction_id"), QStringLiteral("frame_id"), QStringLiteral("kind"),
            QStringLiteral("session_dir")});
}

QJsonObject framesOutputSchema()
{
    const QJsonObject frame = openSchema(
        {{QStringLiteral("id"), typed("string", QStringLiteral("Session frame id."))},
            {QStringLiteral("parent"), typed("string", QStringLiteral("Parent frame id; empty for a root."))},
            {QStringLiteral("kind"),
                typed("string", QStringLiteral("generate, edit, edit_local, style_edit, import or re_anchor."))},
            {QStringLiteral("prompt"), typed("string", QStringLiteral("Prompt of the turn."))},
            {QStringLiteral("interaction_id"),
                typed("string", QStringLiteral("Server interaction id (empty when none)."))},
            {QStringLiteral("continued_interaction_id"),
                typed("string", QStringLiteral("previous_interaction_id that was sent."))},
            {QStringLiteral("status"),
                typed("string", QStringLiteral("pending, done, failed, cancelled or interrupted."))},
            {QStringLiteral("file"),
                typed("string", QStringLiteral("Absolute path of the image; empty when there is none."))},
            {QStringLiteral("origin"),
                typed("string", QStringLiteral("\"mcp\" for an agent's frame, empty for a person's."))},
            {QStringLiteral("is_head"),
                typed("boolean", QStringLiteral("The newest frame of its branch (edit_image continues here)."))},
            {QStringLiteral("error"), typed("string", QStringLiteral("Why the turn failed, when it did."))}},
        {QStringLiteral("id"), QStringLiteral("status")});
    return openSchema(
        {{QStringLiteral("session_dir"), typed("string", QStringLiteral("The session folder."))},
            {QStringLiteral("frames"),
                QJsonObject {{QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("items"), frame}}},
            {QStringLiteral("heads"),
                QJsonObject {{QStringLiteral("type"), QStringLiteral("array")},
                    {QStringLiteral("items"), QJsonObject {{QStringLiteral("type"), QStringLiteral("string")}}}}},
            {QStringLiteral("total"), typed("integer", QStringLiteral("Frames in the listed scope."))},
            {QStringLiteral("shown"),
                typed("integer", QStringLiteral("Frames in this answer (the newest, when there are many)."))}},
        {QStringLiteral("session_dir"), QStringLiteral("frames"), QStringLiteral("heads"), QStringLiteral("total")});
}

QJsonObject helpOutputSchema()
{
    auto strings = [] {
        return QJsonObject {{QStringLiteral("type"), QStringLiteral("array")},
            {QStringLiteral("items"), QJsonObject {{QStringLiteral("type"), QStringLiteral("string")}}}};
    };
    return openSchema(
        {{QStringLiteral("server"), typed("string", QStringLiteral("Server name."))},
            {QStringLiteral("version"), typed("string", QStringLiteral("Server version."))},
            {QStringLiteral("model"), typed("string", QStringLiteral("Image model in use."))},
            {QStringLiteral("key_status"), typed("string", QStringLiteral("set, missing or demo."))},
            {QStringLiteral("key_source"), typed("string", QStringLiteral("Where the key was found (never the key)."))},
            {QStringLiteral("session_dir"), typed("string", QStringLiteral("The session folder."))},
            {QStringLiteral("session_error"),
                typed("string", QStringLiteral("Why the session could not be opened, if it could not."))},
            {QStringLiteral("image_output_dir"), typed("string", QStringLiteral("IMAGE_OUTPUT_DIR, when set."))},
            {QStringLiteral("demo"),
                typed("boolean", QStringLiteral("Synthetic images from the built-in offline demo backend."))},
            {QStringLiteral("aspect_ratios"), strings()}, {QStringLiteral("thinking_levels"), strings()},
            {QStringLiteral("default_thinking_level"),
                typed("string", QStringLiteral("Thinking level used when none is given."))},
            {QStringLiteral("tools"), strings()}},
        {QStringLiteral("server"), QStringLiteral("model"), QStringLiteral("key_status"), QStringLiteral("session_dir"),
            QStringLiteral("tools")});
}

QJsonObject annotations(const QString &title, bool readOnly)
{
    QJsonObject a {{QStringLiteral("title"), title}, {QStringLiteral("readOnlyHint"), readOnly}};
    if (!readOnly) {
        // Every image call is a new, billable request to an outside service; nothing is overwritten.
        a.insert(QStringLiteral("destructiveHint"), false);
        a.insert(QStringLiteral("idempotentHint"), false);
        a.insert(QStringLiteral("openWorldHint"), true);
    } else {
        a.insert(QStringLiteral("openWorldHint"), false);
    }
    return a;
}

QJsonObject toolObject(const QString &name, const QString &title, const QString &description, const QJsonObject &input,
    const QJsonObject &output, bool readOnly)
{
    return {{QStringLiteral("name"), name}, {QStringLiteral("title"), title},
        {QStringLiteral("description"), description}, {QStringLiteral("inputSchema"), input},
        {QStringLiteral("outputSchema"), output}, {QStringLiteral("annotations"), annotations(title, readOnly)}};
}

} // namespace

QJsonArray toolDefinitions(const ToolCatalogInputs &in)
{
    const QString levels = in.thinkingLevels.join(QStringLiteral(", "));
    const QJsonObject thinking = enumProperty(
        QStringLiteral("How much the model thinks before drawing (%1): the lowest is fastest, the highest follows "
                       "complex layouts and text best. The set is the one the server accepts.")
            .arg(levels),
        in.thinkingLevels, in.defaultThinkingLevel);
    const QJsonObject ratioFixed
        = enumProperty(QStringLiteral("Aspect ratio of the image. It is fixed for the chain: later edits keep it."),
            in.aspectRatios, QStringLiteral("1:1"));
    const QJsonObject ratioOfInput = enumProperty(
        QStringLiteral("Aspect ratio of the result. Omit it to keep the input's shape (the supported ratio nearest to "
                       "the input image's)."),
        in.aspectRatios);
    const QJsonObject imagePath = requiredText(
        QStringLiteral("Path of a local image file (PNG, JPEG, WebP, ...; at most 20 MB). Relative paths are taken "
                       "from the server's working directory."));
    const QJsonObject editPrompt = requiredText(
        QStringLiteral("What to change, in plain words. Describe only the change, not the whole scene again."));
    const QJsonObject output = imageOutputSchema();

    QJsonArray tools;
    tools.append(toolObject(tool::generateImage, QStringLiteral("Generate image"),
        QStringLiteral("Generates a new image from a text prompt and saves it in the session (and in IMAGE_OUTPUT_DIR "
                       "when set). Returns the saved path, the interaction id to continue it with edit_image, the "
                       "session frame id and a preview. The aspect ratio is fixed for the chain."),
        objectSchema({{QStringLiteral("prompt"), requiredText(QStringLiteral("Description of the image to generate."))},
                         {QStringLiteral("aspect_ratio"), ratioFixed}, {QStringLiteral("thinking_level"), thinking}},
            {QStringLiteral("prompt")}),
        output, false));
    tools.append(toolObject(tool::editImage, QStringLiteral("Edit image"),
        QStringLiteral("Edits an earlier image statefully: the model keeps everything you do not mention. Pass the "
                       "newest interaction id (or a session frame id) and describe only the change. Editing an "
                       "image that already has a newer edit would fork the chain, so that fails and names "
                       "branch_from, which forks on purpose. An interaction id this session does not know (e.g. "
                       "from an earlier conversation) is continued too, as a new root in the session."),
        objectSchema(
            {{QStringLiteral("previous_interaction_id"),
                 requiredText(QStringLiteral("Interaction id returned by the previous call (or a session frame id "
                                             "or a unique prefix of one, as list_frames shows)."))},
                {QStringLiteral("edit_prompt"), editPrompt}, {QStringLiteral("thinking_level"), thinking}},
            {QStringLiteral("previous_interaction_id"), QStringLiteral("edit_prompt")}),
        output, false));
    tools.append(toolObject(tool::editLocalImage, QStringLiteral("Edit local image"),
        QStringLiteral("Edits a local image file (one that did not come from an earlier call): the file is sent "
                       "inline and the result starts a new chain in the session. Continue it with edit_image and "
                       "the returned interaction id."),
        objectSchema({{QStringLiteral("image_path"), imagePath}, {QStringLiteral("edit_prompt"), editPrompt},
                         {QStringLiteral("aspect_ratio"), ratioOfInput}, {QStringLiteral("thinking_level"), thinking}},
            {QStringLiteral("image_path"), QStringLiteral("edit_prompt")}),
        output, false));
    tools.append(toolObject(tool::editLocalImageWithStyle, QStringLiteral("Edit local image with a style reference"),
        QStringLiteral("Edits a local image in the style of another local image (visual style, technique, colour "
                       "palette and lighting of the style image applied to the target image)."),
        objectSchema({{QStringLiteral("image_path"), requiredText(QStringLiteral("Path of the local image to edit."))},
                         {QStringLiteral("style_image_path"),
                             requiredText(QStringLiteral("Path of the local image whose style to apply."))},
                         {QStringLiteral("edit_prompt"), editPrompt}, {QStringLiteral("aspect_ratio"), ratioOfInput},
                         {QStringLiteral("thinking_level"), thinking}},
            {QStringLiteral("image_path"), QStringLiteral("style_image_path"), QStringLiteral("edit_prompt")}),
        output, false));
    tools.append(toolObject(tool::branchFrom, QStringLiteral("Branch from a frame"),
        QStringLiteral("Forks on purpose: edits an earlier image even though it already has a newer edit, starting "
                       "a new branch beside the existing one (both stay in the session). Use it to try an "
                       "alternative from an older frame; use edit_image to continue the newest one."),
        objectSchema(
            {{QStringLiteral("frame_or_interaction_id"),
                 requiredText(QStringLiteral("Session frame id (or unique prefix) or interaction id to branch from."))},
                {QStringLiteral("edit_prompt"), editPrompt}, {QStringLiteral("thinking_level"), thinking}},
            {QStringLiteral("frame_or_interaction_id"), QStringLiteral("edit_prompt")}),
        output, false));
    tools.append(toolObject(tool::listFrames, QStringLiteral("List session frames"),
        QStringLiteral("Lists the session's frames (including those a person made in NB2Lite Studio): id, parent, "
                       "prompt, interaction id, status and file. With branch, only the branch through that frame."),
        objectSchema(
            {{QStringLiteral("branch"),
                stringProperty(QStringLiteral("Optional frame id, unique prefix or interaction id: list only the "
                                              "branch that runs through it (root to newest)."))}},
            {}),
        framesOutputSchema(), true));
    tools.append(toolObject(tool::getHelp, QStringLiteral("Help and configuration"),
        QStringLiteral("Explains the tools and reports the configuration: whether an API key is set (never the key), "
                       "the model, the session folder, IMAGE_OUTPUT_DIR, the accepted aspect ratios and thinking "
                       "levels. Call it first when something fails."),
        objectSchema({}, {}), helpOutputSchema(), true));
    return tools;
}

QJsonObject findTool(const QJsonArray &tools, const QString &name)
{
    for (const QJsonValue &t : tools)
        if (t.toObject().value(QLatin1String("name")).toString() == name)
            return t.toObject();
    return {};
}

} // namespace nb2::mcp
