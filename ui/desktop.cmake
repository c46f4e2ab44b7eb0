# Desktop integration: what the app does with files handed to it by the file manager
# (owner: i18n helper, issue 9). Paths relative to ui/.
list(APPEND NB2UI_SOURCES
    bundleopener.h bundleopener.cpp
)
