# Run by `cmake --install` (and by CPack): installs docs/deploy/petstore.service with the paths of
# the prefix installed to, so that ExecStart= and Documentation= name the installed binary and
# README (/usr/local by default, /usr in the Debian package). PETSTORE_UNIT_SOURCE,
# PETSTORE_UNIT_STAGING, PETSTORE_BINDIR and PETSTORE_DOCDIR are set by PetstorePackage.cmake.
file(READ "${PETSTORE_UNIT_SOURCE}" unit)
string(REPLACE "/usr/local/bin/petstore" "${CMAKE_INSTALL_PREFIX}/${PETSTORE_BINDIR}/petstore"
       unit "${unit}")
string(REPLACE "file:///usr/local/share/doc/petstore/"
       "file://${CMAKE_INSTALL_PREFIX}/${PETSTORE_DOCDIR}/" unit "${unit}")
file(WRITE "${PETSTORE_UNIT_STAGING}/petstore.service" "${unit}")
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE
     FILES "${PETSTORE_UNIT_STAGING}/petstore.service")
