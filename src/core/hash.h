/* hash.h - content hashes of input files (the results database records the trace's SHA-256). */
#ifndef GOVSIM_CORE_HASH_H
#define GOVSIM_CORE_HASH_H

#include "core/error.h"

/* SHA-256 of a file's bytes as 64 lower-case hex digits and a NUL, through OpenSSL's libcrypto.
 * "-" (stdin) cannot be hashed twice: out is set to "" and 0 returned. */
int gs_file_sha256(const char *path, char out[65], struct gs_error *err);

#endif
