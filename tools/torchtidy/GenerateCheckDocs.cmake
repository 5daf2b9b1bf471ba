# Turns docs/checks/*.md into CheckDocs.inc entries {"<check>", R"(<page>)"},
# so SARIF rules carry each check's page as help text.
# Usage: cmake -DDOCS_DIR=... -DOUTPUT=... -P GenerateCheckDocs.cmake
file(GLOB pages "${DOCS_DIR}/*.md")
list(SORT pages)
set(content "// Generated from docs/checks by GenerateCheckDocs.cmake; do not edit.\n")
foreach(page ${pages})
  get_filename_component(check "${page}" NAME_WE)
  file(READ "${page}" text)
  string(APPEND content "{\"${check}\", R\"tt_doc(${text})tt_doc\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${content}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
