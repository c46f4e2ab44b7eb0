#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace nb2::mcp {

/** What get_help reports: the live configuration (never the key itself). */
struct HelpFacts {
    QString version;
    QString model;
    QString keyStatus; // "set", "missing" or "demo"
    QString keySource; // "GEMINI_API_KEY", "~/gemini.key", ...; empty without a key
    QString sessionDir;
    QString sessionError;   // why the session could not be opened
    QString imageOutputDir; // IMAGE_OUTPUT_DIR, empty when unset
    bool demo = false;
    bool imageBlocks = true;
    QStringList aspectRatios;
    QStringList thinkingLevels;
    QString defaultThinkingLevel;
    QStringList tools;
    int frameCount = 0;
};

/** The get_help result: Markdown text and structuredContent. */
QJsonObject helpResult(const HelpFacts &facts);

/** The skill file for agents (Markdown), as `nb2lite mcp --print-skill` prints it and the package installs it. */
QString skillText();

} // namespace nb2::mcp
