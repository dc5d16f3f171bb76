# The layers the build enforces (docs/architecture.md, "Allowed dependencies between folders").
#
# Each src/ folder but cli/ compiles into an object library of its own, govsim_<folder>; the
# table in docs/architecture.md, read here at configure time, says which folders each may use.
# For every folder a link check, layer_<folder>, links an empty program from all of the folder's
# objects and those of the folders it may use (and of theirs, which they need to link), nothing
# else: a call into any other folder is an undefined reference and fails the build. The checks
# are part of the default build; they link the objects' machine code without LTO.
#
# govsim_layers_read(DOC): sets GOVSIM_LAYERS (the table's folders that have a src/ folder, in
# table order) and GOVSIM_LAYER_USES_<folder> (the src/ folders its row allows).
function(govsim_layers_read doc)
  file(STRINGS ${doc} rows REGEX "^\\| *[a-z_]+ *\\|")
  set(layers)
  foreach(row IN LISTS rows)
    string(REGEX MATCH "^\\| *([a-z_]+) *\\|([^|]*)\\|" m "${row}")
    set(from ${CMAKE_MATCH_1})
    if(from STREQUAL "from" OR NOT IS_DIRECTORY ${CMAKE_SOURCE_DIR}/src/${from})
      continue()
    endif()
    string(REPLACE "," ";" uses "${CMAKE_MATCH_2}")
    set(allowed)
    foreach(u IN LISTS uses)
      string(STRIP "${u}" u)
      if(u AND IS_DIRECTORY ${CMAKE_SOURCE_DIR}/src/${u})
        list(APPEND allowed ${u})
      endif()
    endforeach()
    list(APPEND layers ${from})
    set(GOVSIM_LAYER_USES_${from} ${allowed} PARENT_SCOPE)
  endforeach()
  # every folder that holds C sources has a row
  file(GLOB dirs LIST_DIRECTORIES true RELATIVE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/src/*)
  foreach(d IN LISTS dirs)
    file(GLOB_RECURSE c_files ${CMAKE_SOURCE_DIR}/src/${d}/*.c)
    if(c_files AND NOT d IN_LIST layers)
      message(FATAL_ERROR "src/${d}/ has no row in the table of docs/architecture.md")
    endif()
  endforeach()
  set(GOVSIM_LAYERS ${layers} PARENT_SCOPE)
endfunction()

# govsim_layer_closure(OUT FOLDER): FOLDER's allowed folders and theirs, recursively.
function(govsim_layer_closure out folder)
  set(todo ${GOVSIM_LAYER_USES_${folder}})
  set(seen)
  while(todo)
    list(POP_FRONT todo f)
    if(f IN_LIST seen OR f STREQUAL folder)
      continue()
    endif()
    list(APPEND seen ${f})
    list(APPEND todo ${GOVSIM_LAYER_USES_${f}})
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# govsim_layer_check(TARGET FOLDER [EXCLUDE_FROM_ALL] [SOURCES ...]): an empty program linked
# from FOLDER's objects (and SOURCES, compiled as part of FOLDER) and the objects of the folders
# FOLDER may use; it links only if FOLDER calls nothing else.
function(govsim_layer_check target folder)
  cmake_parse_arguments(L "EXCLUDE_FROM_ALL" "" "SOURCES" ${ARGN})
  govsim_layer_closure(uses ${folder})
  set(objs $<TARGET_OBJECTS:govsim_${folder}>)
  foreach(u IN LISTS uses)
    if(u IN_LIST GOVSIM_LAYERS AND TARGET govsim_${u})
      list(APPEND objs $<TARGET_OBJECTS:govsim_${u}>)
    endif()
  endforeach()
  set(all)
  if(L_EXCLUDE_FROM_ALL)
    set(all EXCLUDE_FROM_ALL)
  endif()
  if(NOT TARGET govsim_layer_main)
    add_library(govsim_layer_main OBJECT ${CMAKE_SOURCE_DIR}/cmake/layer_main.c)
    govsim_no_lto(govsim_layer_main)
  endif()
  add_executable(${target} ${all} $<TARGET_OBJECTS:govsim_layer_main> ${L_SOURCES} ${objs})
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src
    ${GOVSIM_GEN_DIR})
  target_link_libraries(${target} PRIVATE govsim::deps m ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/layers)
  govsim_no_lto(${target})
endfunction()
