# Installation and the Debian package (`cpack -G DEB` in the Release build; scripts/package).
#
# `cmake --install` puts in place the binary (bootstrap/), the docs, the systemd unit with the
# prefix's paths, and petstore(1) when help2man is there. The component `deb`, which a plain
# `cmake --install` leaves out, holds what only a system package may put in place: the conffile
# /etc/petstore/petstore.conf, the sysusers.d entry of the service user, and Debian's copyright
# and changelog. The maintainer scripts in packaging/deb make the user, the key file and the data
# directory. CPack's DEB generator packs both components into petstore_<version>_<arch>.deb, with
# its Depends on Debian's runtime libraries from dpkg-shlibdeps.
include(GNUInstallDirs)

# The unit, with the installed binary's path in ExecStart= (cmake/PetstoreInstallUnit.cmake).
install(CODE "
  set(PETSTORE_UNIT_SOURCE \"${PROJECT_SOURCE_DIR}/docs/deploy/petstore.service\")
  set(PETSTORE_UNIT_STAGING \"${PROJECT_BINARY_DIR}/install-staging\")
  set(PETSTORE_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(PETSTORE_DOCDIR \"${CMAKE_INSTALL_DOCDIR}\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/PetstoreInstallUnit.cmake\")
")

# petstore(1) from the binary's --help (packaging/make-man-page), when help2man is installed
# (scripts/deps --package installs it). Not in sanitizer builds: the package is made from Release.
find_program(HELP2MAN_PROGRAM help2man)
if(HELP2MAN_PROGRAM AND NOT PETSTORE_SANITIZERS)
  set(man_page ${PROJECT_BINARY_DIR}/petstore.1.gz)
  add_custom_command(
    OUTPUT ${man_page}
    COMMAND ${PROJECT_SOURCE_DIR}/packaging/make-man-page $<TARGET_FILE:petstore>
            ${PROJECT_VERSION} ${man_page}
    DEPENDS petstore ${PROJECT_SOURCE_DIR}/packaging/make-man-page
            ${PROJECT_SOURCE_DIR}/packaging/petstore.h2m
    COMMENT "Writing petstore(1) from --help with help2man"
    VERBATIM)
  add_custom_target(petstore_man_page ALL DEPENDS ${man_page})
  install(FILES ${man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# Only in the package.
set(changelog ${PROJECT_BINARY_DIR}/changelog.gz)
add_custom_command(
  OUTPUT ${changelog}
  COMMAND sh -c "gzip -9n <\"$0\" >\"$1\"" ${PROJECT_SOURCE_DIR}/packaging/deb/changelog
          ${changelog}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/deb/changelog
  VERBATIM)
add_custom_target(petstore_changelog ALL DEPENDS ${changelog})
install(FILES ${PROJECT_SOURCE_DIR}/packaging/petstore.conf DESTINATION /etc/petstore
        COMPONENT deb EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/petstore.sysusers
        DESTINATION lib/sysusers.d RENAME petstore.conf
        COMPONENT deb EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/deb/copyright ${changelog}
              ${PROJECT_SOURCE_DIR}/third_party/redoc/redoc.standalone.js.LICENSE.txt
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT deb EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME petstore)
set(CPACK_PACKAGE_VENDOR "Petstore Developers")
set(CPACK_PACKAGE_CONTACT "Petstore Developers <dev@petstore.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "store's catalogue of pets, served as an HTTP JSON API")
# Debian's long description: lines of at most 80 characters (CPack indents each by one space).
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "Petstore lists pets (page size, status filter, cursor), adds a pet and reads\n"
  "one by id, behind bearer API keys, as an HTTP/1.1 JSON API described by an\n"
  "OpenAPI 3.1 document. Pets are kept in LMDB (the default) or in PostgreSQL,\n"
  "shared by many instances; either way every 201 means the pet is stored\n"
  "durably.\n"
  "\n"
  "The package runs it as the systemd service petstore.service under the system\n"
  "user petstore: settings in /etc/petstore/petstore.conf, API keys in\n"
  "/etc/petstore/api-keys (petstore keys new), data in /var/lib/petstore.\n"
  "Licensed under the Apache License 2.0.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL Unspecified deb)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# systemd-sysusers makes the user in postinst: systemd has it, and on a root without systemd
# systemd-standalone-sysusers (260 KB) does.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "systemd-standalone-sysusers | systemd-sysusers")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/deb/conffiles ${PROJECT_SOURCE_DIR}/packaging/deb/postinst
    ${PROJECT_SOURCE_DIR}/packaging/deb/prerm ${PROJECT_SOURCE_DIR}/packaging/deb/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
