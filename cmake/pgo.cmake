# Profile-guided optimisation of the program (GCC): the replay's hot path is a long chain of
# small branches (event type, task class, clamp key, rate limit, hold kinds), whose layout and
# inlining the compiler can only guess without a profile. With GOVSIM_PGO (on by default in
# Release and RelWithDebInfo builds with GCC 11 or later; off with sanitizers, coverage, the
# fuzz build or another compiler) a build:
#   1. configures and builds an instrumented copy of the program in <build>/pgo/instrumented
#      (this same tree, GOVSIM_PGO_PHASE=generate: -fprofile-generate);
#   2. runs it on the training set, tools/pgo/train.sh: a synthetic mixed workload and the
#      bundled traces (text, gzip, Perfetto, the lab's recordings under their kernels' profiles),
#      which writes one .gcda profile per object into <build>/pgo/profile;
#   3. compiles the program's objects with -fprofile-use from that profile.
# The profile's files are named by each object's path relative to its build tree
# (-fprofile-prefix-path), the same in both trees. Step 1 and 2 run again when a source, a
# header or the training script changes; every object then compiles again with the new profile
# (a stale profile would leave the changed functions unoptimised). -fprofile-partial-training
# keeps the code the training did not reach (other governors, readers, commands) optimised as
# without a profile, not for size. The optimisations a profile enables keep the program's
# arithmetic as written (no -ffast-math): its output is byte-identical to a build without it.
# Development builds that compile often: -DGOVSIM_PGO=OFF (or a Debug build).
option(GOVSIM_PGO "Profile-guided optimisation of the program (GCC; Release/RelWithDebInfo)" ON)
set(GOVSIM_PGO_PHASE "" CACHE INTERNAL "generate: this tree is the instrumented training build")
set(GOVSIM_PGO_DATA "" CACHE INTERNAL "where the instrumented build writes its profile")

set(GOVSIM_PGO_OK OFF)
if(GOVSIM_PGO AND NOT GOVSIM_PGO_PHASE AND CMAKE_C_COMPILER_ID STREQUAL "GNU"
    AND CMAKE_C_COMPILER_VERSION VERSION_GREATER_EQUAL 11
    AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$"
    AND NOT GOVSIM_SANITIZE AND NOT GOVSIM_COVERAGE AND NOT GOVSIM_FUZZ)
  set(GOVSIM_PGO_OK ON)
  set(GOVSIM_PGO_DIR ${CMAKE_BINARY_DIR}/pgo)
  set(GOVSIM_PGO_STAMP ${GOVSIM_PGO_DIR}/profile.stamp)
  message(STATUS "govsim: profile-guided optimisation (an instrumented build and its training "
    "run come first; -DGOVSIM_PGO=OFF for quick development builds)")
endif()

# govsim_pgo_train(): the rule for steps 1 and 2, and govsim_pgo_profile, the target the
# program's objects wait for. SOURCES: everything the program is compiled from.
function(govsim_pgo_train)
  if(NOT GOVSIM_PGO_OK)
    return()
  endif()
  cmake_parse_arguments(P "" "" "SOURCES" ${ARGN})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/*.h
    ${CMAKE_SOURCE_DIR}/include/*.h)
  cmake_host_system_information(RESULT jobs QUERY NUMBER_OF_LOGICAL_CORES)
  set(inst ${GOVSIM_PGO_DIR}/instrumented)
  set(data ${GOVSIM_PGO_DIR}/profile)
  add_custom_command(
    OUTPUT ${GOVSIM_PGO_STAMP}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${data}
    COMMAND ${CMAKE_COMMAND} -S ${CMAKE_SOURCE_DIR} -B ${inst} -G ${CMAKE_GENERATOR}
            -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
            -DCMAKE_C_FLAGS=${CMAKE_C_FLAGS}
            -DGOVSIM_LTO=${GOVSIM_LTO} -DGOVSIM_TESTS=OFF -DGOVSIM_PGO=OFF
            -DGOVSIM_PGO_PHASE=generate -DGOVSIM_PGO_DATA=${data} --log-level=WARNING
    COMMAND ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
            ${CMAKE_COMMAND} --build ${inst} --target govsim --parallel ${jobs}
    COMMAND sh ${CMAKE_SOURCE_DIR}/tools/pgo/train.sh ${inst}/govsim ${CMAKE_SOURCE_DIR}
            ${GOVSIM_PGO_DIR}/work
    COMMAND ${CMAKE_COMMAND} -E touch ${GOVSIM_PGO_STAMP}
    DEPENDS ${P_SOURCES} ${headers} ${CMAKE_SOURCE_DIR}/tools/pgo/train.sh
            ${CMAKE_SOURCE_DIR}/tools/pgo/gen-mix-15k.pftrace.gz
            ${CMAKE_SOURCE_DIR}/cmake/pgo.cmake
    COMMENT "Profile-guided optimisation: the instrumented govsim and its training run"
    VERBATIM)
  add_custom_target(govsim_pgo_profile DEPENDS ${GOVSIM_PGO_STAMP})
endfunction()

# govsim_pgo_flags(TARGET): TARGET's objects instrumented (the training build) or compiled with
# the profile (a PGO build); nothing otherwise.
function(govsim_pgo_flags target)
  if(GOVSIM_PGO_PHASE STREQUAL "generate")
    set(flags -fprofile-generate=${GOVSIM_PGO_DATA} -fprofile-update=prefer-atomic
      -fprofile-prefix-path=${CMAKE_BINARY_DIR})
    target_compile_options(${target} PRIVATE ${flags})
    target_link_options(${target} PRIVATE -fprofile-generate)
  elseif(GOVSIM_PGO_OK)
    target_compile_options(${target} PRIVATE -fprofile-use=${GOVSIM_PGO_DIR}/profile
      -fprofile-prefix-path=${CMAKE_BINARY_DIR} -fprofile-partial-training -Wno-missing-profile)
    add_dependencies(${target} govsim_pgo_profile)
    # Every object waits for the profile and compiles again when it changes. A source another
    # target compiles too (report/plot.c, also in the plot module) brings the training's rule
    # into that target: it must wait for govsim_pgo_profile as well (govsim_pgo_after()), or
    # both would run it at once.
    get_target_property(sources ${target} SOURCES)
    set_property(SOURCE ${sources} TARGET_DIRECTORY ${target} APPEND PROPERTY OBJECT_DEPENDS
      ${GOVSIM_PGO_STAMP})
  endif()
endfunction()

# govsim_pgo_after(TARGET): TARGET, which compiles a source of the program too, waits for the
# profile (see govsim_pgo_flags()).
function(govsim_pgo_after target)
  if(GOVSIM_PGO_OK)
    add_dependencies(${target} govsim_pgo_profile)
  endif()
endfunction()
