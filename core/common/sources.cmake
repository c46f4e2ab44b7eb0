# What every area shares; Qt Core only, so the lowest test can link it alone.
add_library(nb2core_common STATIC
    common/error.h common/error.cpp
    common/translations.h common/translations.cpp
    common/preference.h common/preference.cpp
    common/humanduration.h common/humanduration.cpp
    common/threadpriority.h common/threadpriority.cpp
    common/hugepages.h common/hugepages.cpp
    common/sha256.h common/sha256.cpp
    common/regularfile.h common/regularfile.cpp
)
target_include_directories(nb2core_common PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(nb2core_common PUBLIC Qt6::Core PRIVATE nb2_warnings nb2_strict_qt)
