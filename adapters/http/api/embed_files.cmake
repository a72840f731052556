# Writes a C++ source that compiles files in as byte arrays, each returned by a function declared
# in HEADER: `std::string_view NAME() noexcept`. Run at build time, so the binary needs no file at
# run time. Byte arrays, not string literals: any byte is safe and no literal-length limit applies.
# Usage: cmake -DOUTPUT=<file.cpp> -DHEADER=<include path> -DENTRIES="name=path;name=path"
#              -P embed_files.cmake
foreach(required OUTPUT HEADER ENTRIES)
  if(NOT ${required})
    message(FATAL_ERROR "embed_files.cmake: pass -D${required}=...")
  endif()
endforeach()

set(arrays "")
set(functions "")
foreach(entry IN LISTS ENTRIES)
  if(NOT entry MATCHES "^([a-z_]+)=(.+)$")
    message(FATAL_ERROR "embed_files.cmake: entry '${entry}' is not name=path")
  endif()
  set(name ${CMAKE_MATCH_1})
  set(path ${CMAKE_MATCH_2})
  file(READ ${path} hex HEX)
  string(LENGTH "${hex}" digits)
  if(digits EQUAL 0)
    message(FATAL_ERROR "embed_files.cmake: ${path} is empty")
  endif()
  # 32 bytes a line, then each byte as 0xNN.
  string(REGEX REPLACE "(................................................................)" "\\1\n"
                       hex "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND arrays "// ${path}\nconstexpr unsigned char ${name}_bytes[] = {\n${bytes}\n};\n\n")
  string(APPEND functions
    "std::string_view ${name}() noexcept {\n"
    "  return {reinterpret_cast<const char*>(${name}_bytes), sizeof ${name}_bytes};\n"
    "}\n\n")
endforeach()

set(text "// Generated at build time by adapters/http/api/embed_files.cmake. Do not edit.\n")
string(APPEND text "#include \"${HEADER}\"\n\n")
string(APPEND text "namespace petstore::adapters::http {\nnamespace {\n\n")
string(APPEND text "${arrays}}  // namespace\n\n")
string(APPEND text "${functions}}  // namespace petstore::adapters::http\n")
file(WRITE ${OUTPUT} "${text}")
