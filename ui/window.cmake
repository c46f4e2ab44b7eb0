# Main window, timeline model/view/delegate, prompt and info panels (owner: window helper).
# Paths relative to ui/.
list(APPEND NB2UI_SOURCES
    timelineroles.h
    timelinemodel.h timelinemodel.cpp
    timelinedelegate.h timelinedelegate.cpp
    timelineview.h timelineview.cpp
    findbar.h findbar.cpp
    thumbnailprovider.h thumbnailprovider.cpp
    promptpanel.h promptpanel.cpp
    infopanel.h infopanel.cpp
    importcheck.h importcheck.cpp
    pendingindicator.h pendingindicator.cpp
    windowsettings.h windowsettings.cpp
    windowpreferences.h windowpreferences.cpp
    noticepresenter.h noticepresenter.cpp
    actionmanager.h actionmanager.cpp
    frameselection.h frameselection.cpp
    frameeditor.h frameeditor.cpp
    imagestage.h imagestage.cpp
    importcontroller.h importcontroller.cpp
    sessionmanager.h sessionmanager.cpp
    turndispatcher.h turndispatcher.cpp
    variantsdispatch.h variantsdispatch.cpp
    variantgrid.h variantgrid.cpp
    screenfit.h screenfit.cpp
    shortcutsdialog.h shortcutsdialog.cpp
    windowdialogs.h windowdialogs.cpp
    mainwindow.h mainwindow.cpp
)
