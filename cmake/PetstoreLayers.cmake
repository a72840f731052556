# Helpers that give every layer its own CMake library and its own include root.
#
# A library's include root holds a single symlink to its folder, so a file can include a header of
# another layer only when its library links that layer: `#include "adapters/..."` from domain/
# does not compile. tests/architecture adds a source scan on top.

function(petstore_warnings target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    return()
  endif()
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wconversion -Wno-sign-conversion)
  # g++ 12 at -O3 reports `"x" + std::string(...)` as an overlapping memcpy (GCC bug 105651, fixed
  # in 13): a false positive in libstdc++'s own code that would fail every Release build. Only the
  # Release flags carry the switch, so clang-tidy (reading the asan build's commands) never sees it.
  # Likewise -O3 reports a member of an engaged std::optional, read right after the engagement
  # check, as "may be used uninitialized" (GCC bug 80635); the other builds keep the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target}
                           PRIVATE "$<$<CONFIG:Release>:-Wno-restrict;-Wno-maybe-uninitialized>")
  endif()
endfunction()

# petstore_layer_library(<name> <folder> [SOURCES ...] [DEPS ...] [PRIVATE_DEPS ...])
function(petstore_layer_library name folder)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  set(root ${PROJECT_BINARY_DIR}/include-roots/${name})
  get_filename_component(parent ${root}/${folder} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  if(NOT EXISTS ${root}/${folder})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  endif()
  if(ARG_SOURCES)
    add_library(${name} STATIC ${ARG_SOURCES})
    target_include_directories(${name} PUBLIC ${root})
    target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    petstore_warnings(${name})
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${root})
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
  endif()
endfunction()
