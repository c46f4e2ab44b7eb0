nb2_core_area(nb2core_export DEPENDS nb2core_session SOURCES
    export/placeholder.cpp
)
