# The dependency rule, checked on the sources: each layer includes only what it may.
#   domain       : domain/, the standard library, Boost.System's result
#   ports        : + domain/
#   application  : + ports/
#   adapters/pet_json: domain/ and its own folder (the pet's JSON, below the adapters that use it)
#   adapters/http: + application/ (it drives the use cases) + adapters/pet_json/, in two rooms:
#     adapters/http/api/   : pure; never adapters/http/server/, nor Asio or Beast (no sockets)
#     adapters/http/server/: the Beast server; + adapters/http/api/
#     no source sits in adapters/http/ itself, outside both rooms
#   adapters/jsonl: + adapters/pet_json/
#   adapters/cli : + application/ (it drives the data tools' use cases) + adapters/jsonl/ (their
#                  format)
#   adapters/files: its own folder only (durable file writes, below every adapter that writes one)
#   adapters/worker: its own folder only (a thread for blocking work, below the storage adapters)
#   adapters/storage/group_commit: its own folder only, and no technology (a pure rule, below
#                  the storage adapters)
#   other adapters (storage, auth, clock): domain/, ports/ and their own folder
#   a storage adapter (adapters/storage/*): + adapters/storage/group_commit/ + adapters/worker/
#   every adapter: + adapters/files/
#   bootstrap    : anything
# Usage: cmake -DROOT=<source tree> -P check_dependencies.cmake
if(NOT ROOT)
  message(FATAL_ERROR "pass -DROOT=<source tree>")
endif()

set(violations "")

# check_folder(<folder> <allowed quoted prefixes> <is_adapter> [<forbidden angled regex>])
function(check_folder folder allowed_quoted is_adapter)
  set(forbidden_angled "${ARGV3}")
  file(GLOB_RECURSE sources RELATIVE ${ROOT} ${ROOT}/${folder}/*.hpp ${ROOT}/${folder}/*.cpp)
  foreach(source IN LISTS sources)
    file(STRINGS ${ROOT}/${source} includes REGEX "^[ \t]*#[ \t]*include")
    foreach(line IN LISTS includes)
      if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
        set(target ${CMAKE_MATCH_1})
        set(ok FALSE)
        foreach(prefix IN LISTS allowed_quoted)
          string(FIND "${target}" "${prefix}" at)
          if(at EQUAL 0)
            set(ok TRUE)
          endif()
        endforeach()
        if(NOT ok)
          list(APPEND violations "${source}: ${line}")
        endif()
      elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
        set(target ${CMAKE_MATCH_1})
        # The core sees no technology: the standard library and Boost.System's result only.
        if(NOT is_adapter AND target MATCHES "^(boost|lmdb|openssl|CLI|sys|arpa|netinet)" AND
           NOT target MATCHES "^boost/system/")
          list(APPEND violations "${source}: ${line}")
        elseif(forbidden_angled AND target MATCHES "${forbidden_angled}")
          list(APPEND violations "${source}: ${line}")
        endif()
      endif()
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

check_folder(domain "domain/" FALSE)
check_folder(ports "domain/;ports/" FALSE)
check_folder(application "domain/;ports/;application/" FALSE)
file(GLOB adapter_folders RELATIVE ${ROOT} ${ROOT}/adapters/* ${ROOT}/adapters/storage/*)
foreach(folder IN LISTS adapter_folders)
  if(NOT IS_DIRECTORY ${ROOT}/${folder} OR folder STREQUAL "adapters/storage")
    continue()
  endif()
  if(folder STREQUAL "adapters/files" OR folder STREQUAL "adapters/worker")
    check_folder(${folder} "${folder}/" TRUE)
  elseif(folder STREQUAL "adapters/pet_json")
    check_folder(${folder} "domain/;adapters/files/;${folder}/" TRUE)
  elseif(folder STREQUAL "adapters/http")
    file(GLOB outside_rooms RELATIVE ${ROOT} ${ROOT}/${folder}/*.hpp ${ROOT}/${folder}/*.cpp)
    foreach(source IN LISTS outside_rooms)
      list(APPEND violations "${source}: outside adapters/http/api/ and adapters/http/server/")
    endforeach()
    set(http_allowed "domain/;ports/;application/;adapters/pet_json/;adapters/files/")
    check_folder(${folder}/api "${http_allowed};${folder}/api/" TRUE "^boost/(asio|beast)")
    check_folder(${folder}/server "${http_allowed};${folder}/api/;${folder}/server/" TRUE)
  elseif(folder STREQUAL "adapters/cli")
    check_folder(${folder}
                 "domain/;ports/;application/;adapters/jsonl/;adapters/files/;${folder}/" TRUE)
  elseif(folder STREQUAL "adapters/storage/group_commit")
    check_folder(${folder} "${folder}/" FALSE "^(libpq|lmdb|poll|unistd)")
  elseif(folder MATCHES "^adapters/storage/")
    check_folder(${folder}
                 "domain/;ports/;adapters/files/;adapters/storage/group_commit/;adapters/worker/;${folder}/"
                 TRUE)
  elseif(folder STREQUAL "adapters/jsonl")
    check_folder(${folder} "domain/;ports/;adapters/pet_json/;adapters/files/;${folder}/" TRUE)
  else()
    check_folder(${folder} "domain/;ports/;adapters/files/;${folder}/" TRUE)
  endif()
endforeach()

if(violations)
  list(JOIN violations "\n  " listed)
  message(FATAL_ERROR "dependency rule broken:\n  ${listed}")
endif()
message(STATUS "dependency rule holds")
