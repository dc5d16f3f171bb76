/*
 * layer_probe.c - a call the layer checks must refuse (tests/structure/layers_link.sh).
 *
 * Linked as part of power/, which may use core/ only, it calls store_check() of store/ through
 * a declaration of its own, with no #include for tools/check-layers.sh to see: only the link
 * can tell. Linked as part of report/, which may use store/, the same call links.
 */
struct gs_error;
int store_check(const char *path, struct gs_error *err);
int layer_probe(void);

int layer_probe(void)
{
	return store_check("", 0);
}
