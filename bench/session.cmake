# Opening a 1,000-frame session (manifest only, no image decoding): prints the median ms.
add_executable(session_open_bench session_open_bench.cpp)
target_link_libraries(session_open_bench PRIVATE nb2core_session nb2_warnings nb2_strict_qt)
