# Reads lib/Checks/CheckCatalogue.def, the one list of checks, at configure
# time, for what the build derives from it: the registration's includes
# (lib/CMakeLists.txt) and the lit suites of the checks (test/lit). CMake
# configures again when the catalogue changes, so nothing derived from it
# can lag behind a row added or removed.
#
# torchtidy_read_catalogue(<prefix>) sets, in the caller's scope, one entry a
# check, in the catalogue's order:
#   <prefix>_NAMES    libtorch-mixed-device-operands;...
#   <prefix>_CLASSES  MixedDeviceOperandsCheck;...
#   <prefix>_LEVELS   bug;...
#   <prefix>_EVENTS   mixed_device;...;none
# It fails the configuration on a row it cannot read and on a check without
# a page docs/checks/<name>.md: the page is what `torchtidy --explain` prints
# and SARIF carries as the rule's help, and a missing one would only show
# as an empty help text.
set(TORCHTIDY_CATALOGUE ${PROJECT_SOURCE_DIR}/lib/Checks/CheckCatalogue.def)

function(torchtidy_read_catalogue prefix)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${TORCHTIDY_CATALOGUE})
  file(READ ${TORCHTIDY_CATALOGUE} text)
  # Comment and preprocessor lines name the macro too; a row's summary may
  # hold anything, and is never read here.
  string(REGEX REPLACE "\n[ \t]*(//|#)[^\n]*" "\n" text "\n${text}")
  string(REGEX MATCHALL "TORCHTIDY_CHECK[ \t\n]*\\(" uses "${text}")
  set(space "[ \t\n]*")
  set(row_pattern "TORCHTIDY_CHECK${space}\\(${space}\"([^\"]*)\"${space},${space}([A-Za-z_][A-Za-z0-9_]*)${space},${space}([a-z]+)${space},${space}([a-z_]+)${space},")
  string(REGEX MATCHALL "${row_pattern}" rows "${text}")
  list(LENGTH uses use_count)
  list(LENGTH rows row_count)
  if(NOT use_count EQUAL row_count OR row_count EQUAL 0)
    message(FATAL_ERROR "${TORCHTIDY_CATALOGUE}: read ${row_count} of its "
      "${use_count} rows; each must be TORCHTIDY_CHECK(\"<name>\", <Class>, "
      "<level>, <runtime event>, \"<summary>\")")
  endif()

  set(names "")
  set(classes "")
  set(levels "")
  set(events "")
  foreach(row IN LISTS rows)
    string(REGEX MATCH "${row_pattern}" _ "${row}")
    # Taken before the if(MATCHES) below overwrite CMAKE_MATCH_<n>.
    set(name ${CMAKE_MATCH_1})
    set(class ${CMAKE_MATCH_2})
    set(level ${CMAKE_MATCH_3})
    set(event ${CMAKE_MATCH_4})
    set(where "${TORCHTIDY_CATALOGUE}: ${name}")
    if(NOT name MATCHES "^libtorch-[a-z0-9]+(-[a-z0-9]+)*$")
      message(FATAL_ERROR "${where}: a check's name is libtorch-<words>, "
        "lower case and hyphens")
    endif()
    if(name IN_LIST names)
      message(FATAL_ERROR "${where}: listed twice")
    endif()
    if(NOT level MATCHES "^(bug|performance|style)$")
      message(FATAL_ERROR "${where}: level '${level}' is none of "
        "bug, performance, style")
    endif()
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/docs/checks/${name}.md)
      message(FATAL_ERROR "${where}: no page docs/checks/${name}.md (what "
        "torchtidy --explain prints and SARIF carries as help)")
    endif()
    list(APPEND names ${name})
    list(APPEND classes ${class})
    list(APPEND levels ${level})
    list(APPEND events ${event})
  endforeach()
  set(${prefix}_NAMES ${names} PARENT_SCOPE)
  set(${prefix}_CLASSES ${classes} PARENT_SCOPE)
  set(${prefix}_LEVELS ${levels} PARENT_SCOPE)
  set(${prefix}_EVENTS ${events} PARENT_SCOPE)
endfunction()
