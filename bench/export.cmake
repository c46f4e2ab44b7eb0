# export_html_bench: 1,000-frame session -> HTML export time, and proof that images are not re-encoded.
add_executable(export_html_bench ${CMAKE_CURRENT_LIST_DIR}/export_html_bench.cpp)
target_link_libraries(export_html_bench PRIVATE nb2core_export nb2_warnings nb2_strict_qt)
