nb2_core_area(nb2core_session DEPENDS nb2core_api SOURCES
    session/placeholder.cpp
)
