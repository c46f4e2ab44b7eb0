nb2_core_area(nb2core_api DEPENDS nb2core_common SOURCES
    api/interaction.h
    api/turnrequest.h api/turnrequest.cpp
    api/imageinput.h api/imageinput.cpp
    api/inputpreparation.h api/inputpreparation.cpp
    api/apikey.h api/apikey.cpp
    api/clientconfig.h api/clientconfig.cpp
    api/thinkinglevels.h api/thinkinglevels.cpp
    api/cancellation.h api/cancellation.cpp
    api/interactionsclient.h api/interactionsclient.cpp
    api/transport.h api/transport.cpp
    api/exchangerunner.h api/exchangerunner.cpp
    api/buildinfo.h api/buildinfo.cpp
    api/responseparser.h api/responseparser.cpp
    api/responsedocument.h api/responsedocument.cpp
    api/base64blocks.h api/base64blocks.cpp
    api/sseparser.h api/sseparser.cpp
    api/streamassembler.h api/streamassembler.cpp
)
# nb2core_http: the only core library that links cpp-httplib and OpenSSL (the transport under
# the Interactions client). Programs get it through nb2core_api; nb2lite-studio instead loads it
# after its first frame as the module libnb2net.so (app/netmodule/), see transport.h.
add_library(nb2core_http STATIC
    api/clientcall.h api/clientcall.cpp
    api/httptransport.cpp
    api/netbackendlinked.cpp
)
set_target_properties(nb2core_http PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(nb2core_http PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(nb2core_http
    PUBLIC nb2core_api
    PRIVATE nb2_httplib nb2_warnings nb2_strict_qt)
# netBackend() is nb2core_api's only reference into it: a program linking nb2core_api links this
# too (a cycle of static libraries, which CMake repeats on the link line).
target_link_libraries(nb2core_api INTERFACE nb2core_http)
