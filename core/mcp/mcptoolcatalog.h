#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace nb2::mcp {

/** The tool names: the seed's five (agents' prompts and skills name them) and the bridge's two. */
namespace tool {
inline const QString generateImage = QStringLiteral("generate_image");
inline const QString editImage = QStringLiteral("edit_image");
inline const QString editLocalImage = QStringLiteral("edit_local_image");
inline const QString editLocalImageWithStyle = QStringLiteral("edit_local_image_with_style");
inline const QString getHelp = QStringLiteral("get_help");
inline const QString listFrames = QStringLiteral("list_frames");
inline const QString branchFrom = QStringLiteral("branch_from");
} // namespace tool

/** What the schemas' enums and defaults come from: the client's current knowledge, not constants. */
struct ToolCatalogInputs {
    QStringList aspectRatios;     // supportedAspectRatios()
    QStringList thinkingLevels;   // the model's learned (or default) set
    QString defaultThinkingLevel; // "low" unless the learned set excludes it
};

/**
 * The tools as tools/list describes them: name, title, description, inputSchema (JSON Schema
 * with the seed's parameter names and defaults), outputSchema (the structuredContent every
 * successful call returns) and annotations. McpHandler checks each call against its own
 * inputSchema (checkArguments), so the schema is the one place a default or an enum lives.
 */
QJsonArray toolDefinitions(const ToolCatalogInputs &inputs);

/** The definition named `name` in `tools`, or an empty object. */
QJsonObject findTool(const QJsonArray &tools, const QString &name);

} // namespace nb2::mcp
