# Dependencies, each found through pkg-config (libcsv has none) and each failing with the
# Debian package that provides it. tools/setup.sh installs all of them.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: install the Debian package 'pkg-config' (or run tools/setup.sh)")
endif()

add_library(govsim_deps INTERFACE)
add_library(govsim::deps ALIAS govsim_deps)

# govsim_find_pkg: PkgConfig::<name>, for the one target that links it;
# govsim_require_pkg: the same, linked by every part of govsim (govsim::deps).
function(govsim_find_pkg name module debpkg)
  pkg_check_modules(${name} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "${module} not found: install the Debian package '${debpkg}' (or run tools/setup.sh)")
  endif()
  message(STATUS "Found ${module} ${${name}_VERSION}")
endfunction()
function(govsim_require_pkg name module debpkg)
  govsim_find_pkg(${name} ${module} ${debpkg})
  target_link_libraries(govsim_deps INTERFACE PkgConfig::${name})
endfunction()

govsim_require_pkg(GSL gsl libgsl-dev)
govsim_require_pkg(SQLITE sqlite3 libsqlite3-dev)
govsim_require_pkg(TRACEEVENT libtraceevent libtraceevent-dev)
govsim_require_pkg(TRACECMD libtracecmd libtracecmd-dev)
govsim_require_pkg(ZLIB zlib zlib1g-dev)
# cairo: only the plot module (govsim-plot.so, src/report/plot_module.h) links it
govsim_find_pkg(CAIRO cairo libcairo2-dev)
govsim_require_pkg(CRYPTO libcrypto libssl-dev)
govsim_require_pkg(PROTOBUFC libprotobuf-c libprotobuf-c-dev)
govsim_require_pkg(YAML yaml-0.1 libyaml-dev)
govsim_require_pkg(JANSSON jansson libjansson-dev)

# protoc-c compiles the reader's minimal Perfetto .proto (src/trace/perfetto/perfetto.proto) at build time.
find_program(PROTOC_C_EXECUTABLE NAMES protoc-c)
if(NOT PROTOC_C_EXECUTABLE)
  message(FATAL_ERROR "protoc-c not found: install the Debian package 'protobuf-c-compiler' (or run tools/setup.sh)")
endif()
message(STATUS "Found protoc-c ${PROTOC_C_EXECUTABLE}")

set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
target_link_libraries(govsim_deps INTERFACE Threads::Threads)

find_path(CSV_INCLUDE_DIR csv.h)
find_library(CSV_LIBRARY NAMES csv)
if(NOT CSV_INCLUDE_DIR OR NOT CSV_LIBRARY)
  message(FATAL_ERROR "libcsv not found: install the Debian package 'libcsv-dev' (or run tools/setup.sh)")
endif()
message(STATUS "Found libcsv ${CSV_LIBRARY}")
target_include_directories(govsim_deps INTERFACE ${CSV_INCLUDE_DIR})
target_link_libraries(govsim_deps INTERFACE ${CSV_LIBRARY})

if(GOVSIM_TESTS)
  pkg_check_modules(CMOCKA QUIET IMPORTED_TARGET cmocka)
  if(NOT CMOCKA_FOUND)
    message(FATAL_ERROR "cmocka not found: install the Debian package 'libcmocka-dev' (or run tools/setup.sh), or configure with -DGOVSIM_TESTS=OFF")
  endif()
endif()
