# hicolor PNG icons, rendered at build time from the scalable app icon by nb2-render-icons
# (Qt's own SVG renderer, a build tool that is never installed). The SVG stays the one source;
# the PNGs are for menus, docks and AppStream tools that want bitmaps.
find_package(Qt6 REQUIRED COMPONENTS Svg) # found in ui/ too, but that scope is not ours
qt_add_executable(nb2-render-icons tools/rendericons.cpp)
target_link_libraries(nb2-render-icons PRIVATE Qt6::Gui Qt6::Svg nb2_warnings nb2_strict_qt)

set(NB2_ICON_SIZES 16 22 24 32 48 64 128 256)
set(NB2_ICON_SOURCE ${PROJECT_SOURCE_DIR}/resources/icons/app.svg)
set(NB2_ICON_DIR ${CMAKE_CURRENT_BINARY_DIR}/icons)
set(nb2_icon_files)
foreach(size IN LISTS NB2_ICON_SIZES)
    list(APPEND nb2_icon_files ${NB2_ICON_DIR}/${size}x${size}/apps/${NB2_APP_ID}.png)
endforeach()
add_custom_command(OUTPUT ${nb2_icon_files}
    # Sanitizer builds run this tool too; a leak report from a library must not fail the build.
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 QT_QPA_PLATFORM=offscreen
            $<TARGET_FILE:nb2-render-icons> --name ${NB2_APP_ID} ${NB2_ICON_SOURCE} ${NB2_ICON_DIR} ${NB2_ICON_SIZES}
    DEPENDS nb2-render-icons ${NB2_ICON_SOURCE}
    COMMENT "Rendering hicolor PNG icons from app.svg"
    VERBATIM)
add_custom_target(nb2_icons ALL DEPENDS ${nb2_icon_files})

install(FILES ${NB2_ICON_SOURCE}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME ${NB2_APP_ID}.svg)
foreach(size IN LISTS NB2_ICON_SIZES)
    install(FILES ${NB2_ICON_DIR}/${size}x${size}/apps/${NB2_APP_ID}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()
