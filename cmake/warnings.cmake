# Compiler flags: strict warnings (as git's DEVELOPER=1), sanitizers (as libuv), coverage.
set(GOVSIM_WARNINGS
  -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wwrite-strings
  -Wpointer-arith -Wformat=2 -Wformat-security -Wshadow -Wundef -Wold-style-definition
  -Wno-unused-parameter -Wno-missing-field-initializers)

set(GOVSIM_SAN_FLAGS)
if(GOVSIM_SANITIZE)
  set(GOVSIM_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${GOVSIM_SAN_FLAGS})
  add_link_options(${GOVSIM_SAN_FLAGS})
endif()
if(GOVSIM_COVERAGE)
  add_compile_options(--coverage -O0)
  add_link_options(--coverage)
endif()

function(govsim_target_flags target)
  target_compile_options(${target} PRIVATE ${GOVSIM_WARNINGS})
  if(GOVSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Link-time optimisation in optimised builds: the replay's hot path crosses the stages (sim ->
# sched -> gov -> cpufreq and back through hooks and tiny accessors), which only LTO can inline.
# Not with sanitizers, coverage or the libFuzzer build (clang would need its own LTO linker).
option(GOVSIM_LTO "Link-time optimisation in Release/RelWithDebInfo/MinSizeRel builds" ON)
if(GOVSIM_LTO AND NOT GOVSIM_SANITIZE AND NOT GOVSIM_COVERAGE AND NOT GOVSIM_FUZZ)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT GOVSIM_IPO_OK OUTPUT GOVSIM_IPO_MSG LANGUAGES C)
  if(GOVSIM_IPO_OK)
    set(CMAKE_INTERPROCEDURAL_OPTIMIZATION_RELEASE ON)
    set(CMAKE_INTERPROCEDURAL_OPTIMIZATION_RELWITHDEBINFO ON)
    set(CMAKE_INTERPROCEDURAL_OPTIMIZATION_MINSIZEREL ON)
  else()
    message(STATUS "govsim: no link-time optimisation (${GOVSIM_IPO_MSG})")
  endif()
endif()

# The library's objects carry both GIMPLE and machine code (-ffat-lto-objects): the program is
# linked with LTO, and the tests link the machine code without redoing LTO code generation for
# each of their executables (most of a clean build's time otherwise).
function(govsim_lto_library target)
  if(GOVSIM_IPO_OK AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -ffat-lto-objects)
  endif()
endfunction()
# The executables and modules without LTO (tests, fuzz targets, the layer checks, plugins) link
# with gold where the toolchain has it: a third of ld.bfd's CPU for each of some 90 links. The
# program keeps the default linker.
include(CheckLinkerFlag)
check_linker_flag(C -fuse-ld=gold GOVSIM_HAVE_GOLD)
function(govsim_no_lto target)
  if(GOVSIM_IPO_OK)
    set_target_properties(${target} PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF
      INTERPROCEDURAL_OPTIMIZATION_RELEASE OFF INTERPROCEDURAL_OPTIMIZATION_RELWITHDEBINFO OFF
      INTERPROCEDURAL_OPTIMIZATION_MINSIZEREL OFF)
    target_link_options(${target} PRIVATE -fno-lto)
  endif()
  get_target_property(type ${target} TYPE)
  if(GOVSIM_HAVE_GOLD AND NOT type STREQUAL "OBJECT_LIBRARY")
    target_link_options(${target} PRIVATE -fuse-ld=gold)
  endif()
endfunction()
