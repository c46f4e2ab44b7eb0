# Main window, timeline model/view/delegate, prompt and info panels (owner: window helper).
# Paths relative to ui/.
list(APPEND NB2UI_SOURCES
    timelineroles.h
    timelinemodel.h timelinemodel.cpp timelinemodelrows.h timelinemodelrows.cpp
    timelinedelegate.h timelinedelegate.cpp
    timelineview.h timelineview.cpp timelineviewpaint.cpp timelineviewmetrics.h timelinelaneheaders.cpp
    findbar.h findbar.cpp
    thumbnailprovider.h thumbnailprovider.cpp
    promptpanel.h promptpanel.cpp
    infopanel.h infopanel.cpp
    elidedlabel.h elidedlabel.cpp
    wraplabel.h wraplabel.cpp
    replaypanel.h replaypanel.cpp
    replaydialog.h replaydialog.cpp
    importcheck.h importcheck.cpp
    pendingindicator.h pendingindicator.cpp
    windowsettings.h windowsettings.cpp
    windowpreferences.h windowpreferences.cpp
    noticepresenter.h noticepresenter.cpp
    actionmanager.h actionmanager.cpp
    frameselection.h frameselection.cpp
    frameeditor.h frameeditor.cpp
    imagestage.h imagestage.cpp
    driftwatch.h driftwatch.cpp
    keeplistwidget.h keeplistwidget.cpp
    importcontroller.h importcontroller.cpp
    sessionmanager.h sessionmanager.cpp
    sessionpresenter.h sessionpresenter.cpp
    turndispatcher.h turndispatcher.cpp
    selectionmask.h selectionmask.cpp
    selectiontool.h selectiontool.cpp
    selectionoverlay.h selectionoverlay.cpp
    selectioncontroller.h selectioncontroller.cpp
    selectionchoice.h selectionchoice.cpp
    variantsdispatch.h variantsdispatch.cpp
    variantgrid.h variantgrid.cpp
    screenfit.h screenfit.cpp
    shortcutsdialog.h shortcutsdialog.cpp
    windowdialogs.h windowdialogs.cpp
    firstpaint.h firstpaint.cpp
    mainwindow.h mainwindow.cpp
)
