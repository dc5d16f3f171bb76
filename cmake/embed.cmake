# govsim_embed_files(OUT FILES): writes a C file holding each file's bytes as a NUL-terminated
# string, with a table { name, text } named govsim_embedded_files[] (see src/core/embedded.h).
set(GOVSIM_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_run.cmake)
function(govsim_embed_files out files)
  # A ';' in a COMMAND argument would split it in two: pass the list with $<SEMICOLON>.
  string(REPLACE ";" "$<SEMICOLON>" files_arg "${files}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${files_arg}" -P ${GOVSIM_EMBED_SCRIPT}
    DEPENDS ${files} ${GOVSIM_EMBED_SCRIPT}
    VERBATIM
    COMMENT "Embedding platform models")
endfunction()
