nb2_core_area(nb2core_session DEPENDS nb2core_edit SOURCES
    session/frame.h session/frame.cpp
    session/manifestparse.h session/manifestparse.cpp session/jsonscanner.h
    session/framereader.h session/framereader.cpp
    session/frameedit.h session/frameedit.cpp
    session/framegraph.h session/framegraph.cpp
    session/framesource.h session/framesource.cpp
    session/sessionsettings.h session/sessionsettings.cpp
    session/appsettings.h session/appsettings.cpp
    session/journal.h session/journal.cpp
    session/sessionpaths.h session/sessionpaths.cpp
    session/sessionstore.h session/sessionstore.cpp
    session/sessionstoreinternal.h session/sessionstorefiles.cpp session/sessionwriter.cpp
    session/sessionstoreread.cpp session/sessionstorewatch.cpp session/sessionrebuild.cpp
    session/ownerprocess.h session/ownerprocess.cpp
    session/sessioncontroller.h session/sessioncontroller.cpp
    session/sessionjob.h session/sessionjob.cpp
    session/sessionrecovery.cpp session/sessionframeops.cpp session/sessionturnrequests.cpp
    session/framecommands.h session/framecommands.cpp
    session/turnplanner.h session/turnplanner.cpp
    session/sessioncopy.h session/sessioncopy.cpp
    session/pricetable.h session/pricetable.cpp
    session/costledger.h session/costledger.cpp
    session/framefilter.h session/framefilter.cpp
    session/precisionedit.h session/precisionedit.cpp
    session/replayplan.h session/replayplan.cpp
    session/replayqueue.h session/replayqueue.cpp
    session/replayrecordwriter.h session/replayrecordwriter.cpp
    session/replayrunner.h session/replayrunner.cpp
    session/precisionrunner.h session/precisionrunner.cpp
    session/editfinisher.h session/editfinisher.cpp
    session/keeplist.h session/keeplist.cpp
)
