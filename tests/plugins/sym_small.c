/* sym_small.c - a shared object whose `govsim_governor` is an object smaller than struct
 * govsim_governor: not a plugin (exit 3), and nothing past its end is read. */
__attribute__((visibility("default"))) const unsigned int govsim_governor = 1;
