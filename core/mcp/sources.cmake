# The agent bridge (`nb2lite mcp`): MCP protocol handler, the session's tools and the stdio
# transport. Above the session layer; no widgets, no HTTP of its own.

# The agents' skill file is one Markdown file in resources/: printed by `nb2lite mcp
# --print-skill` (compiled in here) and installed by packaging/.
set(NB2_SKILL_FILE ${PROJECT_SOURCE_DIR}/resources/skills/nb2lite-image/SKILL.md)
file(READ ${NB2_SKILL_FILE} NB2_SKILL_TEXT)
configure_file(mcp/mcpskilltext.cpp.in ${CMAKE_CURRENT_BINARY_DIR}/mcp/mcpskilltext.cpp @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NB2_SKILL_FILE})

nb2_core_area(nb2core_mcp DEPENDS nb2core_session SOURCES
    mcp/jsonrpc.h mcp/jsonrpc.cpp
    mcp/mcpprotocol.h mcp/mcpprotocol.cpp
    mcp/mcpcall.h mcp/mcpcall.cpp
    mcp/mcpschema.h mcp/mcpschema.cpp
    mcp/mcptoolcatalog.h mcp/mcptoolcatalog.cpp
    mcp/mcptoolhost.h
    mcp/mcphandler.h mcp/mcphandler.cpp
    mcp/mcpframeref.h mcp/mcpframeref.cpp
    mcp/mcpinputs.h mcp/mcpinputs.cpp
    mcp/mcpimagepreview.h mcp/mcpimagepreview.cpp
    mcp/mcpoutputcopy.h mcp/mcpoutputcopy.cpp
    mcp/mcpresults.h mcp/mcpresults.cpp
    mcp/mcphelp.h mcp/mcphelp.cpp
    ${CMAKE_CURRENT_BINARY_DIR}/mcp/mcpskilltext.cpp
    mcp/mcpsessiontools.h mcp/mcpsessiontools.cpp
    mcp/mcpstdiotransport.h mcp/mcpstdiotransport.cpp
)
