# Reusable widgets and dialogs (owner: widgets helper). Paths relative to ui/.
list(APPEND NB2UI_SOURCES
    theme.h theme.cpp
    bannerwidget.h bannerwidget.cpp
    canvasview.h canvasview.cpp
    compareview.h compareview.cpp
    keystore.h keystore.cpp
    settingsdialog.h settingsdialog.cpp
    diagnosticsdialog.h diagnosticsdialog.cpp
)
