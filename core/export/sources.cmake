nb2_core_area(nb2core_export DEPENDS nb2core_session SOURCES
    export/exportsession.h export/exportsession.cpp
    export/outputfile.h export/outputfile.cpp
    export/exportfiles.h export/exportfiles.cpp
    export/provenance.h export/provenance.cpp
    export/htmlcard.h export/htmlcard.cpp
    export/htmlexporter.h export/htmlexporter.cpp
    export/archivelibrary.h export/archivelibrary.cpp
    export/sessionbundle.h export/sessionbundle.cpp
    export/bundlepreview.h export/bundlepreview.cpp
    export/captionfont.h export/captionfont.cpp
    export/contactsheet.h export/contactsheet.cpp
    export/framesexporter.h export/framesexporter.cpp
    export/exporter.h export/exporter.cpp
)
# Zip reading and writing for .nb2session bundles (Debian libarchive-dev): headers only, the
# library is loaded when a bundle is first used (archivelibrary.h), not by every start.
find_package(LibArchive REQUIRED)
target_include_directories(nb2core_export PRIVATE ${LibArchive_INCLUDE_DIRS})
target_link_libraries(nb2core_export PRIVATE ${CMAKE_DL_LIBS})
