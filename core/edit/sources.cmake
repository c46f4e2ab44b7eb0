# Precision editing (issue 13): masks, crop boxes, compositing and the drift meter. Pixels only:
# no session, no network; the session stores what these compute.
nb2_core_area(nb2core_edit DEPENDS nb2core_api SOURCES
    edit/editmask.h edit/editmask.cpp
    edit/cropbox.h edit/cropbox.cpp
    edit/compositor.h edit/compositor.cpp
    edit/driftmeter.h edit/driftmeter.cpp
)
