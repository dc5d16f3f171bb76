/* hash.c - see hash.h. */
#include "core/hash.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

int gs_file_sha256(const char *path, char out[65], struct gs_error *err)
{
	unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	FILE *f;
	size_t n;
	int ret = 0;

	out[0] = '\0';
	if (strcmp(path, "-") == 0)
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return gs_error_set(err, GS_EIO, "'%s': %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		ret = gs_error_set(err, GS_EINTERNAL, "cannot set up SHA-256");
		goto out_close;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (EVP_DigestUpdate(ctx, buf, n) != 1) {
			ret = gs_error_set(err, GS_EINTERNAL, "SHA-256 failed");
			goto out_close;
		}
	}
	if (ferror(f)) {
		ret = gs_error_set(err, GS_EIO, "'%s': read error", path);
		goto out_close;
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1) {
		ret = gs_error_set(err, GS_EINTERNAL, "SHA-256 failed");
		goto out_close;
	}
	for (unsigned int i = 0; i < mdlen && i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
out_close:
	EVP_MD_CTX_free(ctx);
	fclose(f);
	return ret;
}
