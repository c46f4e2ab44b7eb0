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
    api/clientcall.h api/clientcall.cpp
    api/exchangerunner.h api/exchangerunner.cpp
    api/buildinfo.h api/buildinfo.cpp
    api/responseparser.h api/responseparser.cpp
    api/responsedocument.h api/responsedocument.cpp
    api/base64blocks.h api/base64blocks.cpp
    api/sseparser.h api/sseparser.cpp
    api/streamassembler.h api/streamassembler.cpp
)
