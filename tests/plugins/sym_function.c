/* sym_function.c - a shared object whose `govsim_governor` is a function, not the struct: not a
 * plugin (exit 3), and its code is never read as a struct govsim_governor. */
__attribute__((visibility("default"))) int govsim_governor(int x);

int govsim_governor(int x)
{
	return x + 1;
}
