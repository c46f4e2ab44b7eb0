# Reusable widgets and dialogs (owner: widgets helper). Paths relative to ui/.
list(APPEND NB2UI_SOURCES
    theme.h theme.cpp
    displaypath.h displaypath.cpp
    deferredstyleicons.h deferredstyleicons.cpp
    bannerwidget.h bannerwidget.cpp
    canvasview.h canvasview.cpp canvasviewinput.cpp
    compareview.h compareview.cpp
    keystore.h keystore.cpp
    settingsdialog.h settingsdialog.cpp settingsdialoglayout.cpp
    diagnosticsdialog.h diagnosticsdialog.cpp
    exportdialog.h exportdialog.cpp exportdialoglayout.cpp exportdialogpreview.cpp exportdialogscopes.cpp
)
# qt_standard_project_setup() turns on AUTOMOC/AUTOUIC only; the .qrc in nb2ui's source list
# (resources/resources.qrc) needs AUTORCC. nb2::ensureResources() registers it at run time.
set(CMAKE_AUTORCC ON)
