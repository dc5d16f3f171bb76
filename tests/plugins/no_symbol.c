/* no_symbol.c - a shared object without `govsim_governor`: not a plugin (exit 3). */
__attribute__((visibility("default"))) int not_a_governor(int x);

int not_a_governor(int x)
{
	return x + 1;
}
