# File types: the .nb2session MIME type (shared-mime-info) and the thumbnailer entry that lets
# file managers show a bundle's last frame (nb2lite-thumbnailer, app/thumbnailer).
install(FILES ${NB2_APP_ID}.mime.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME ${NB2_APP_ID}.xml)
install(FILES ${NB2_APP_ID}.thumbnailer DESTINATION ${CMAKE_INSTALL_DATADIR}/thumbnailers)
