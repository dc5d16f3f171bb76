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
