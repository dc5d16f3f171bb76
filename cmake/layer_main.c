/* An empty program: the layer checks (cmake/layers.cmake) link a folder's objects into it. */
int main(void)
{
	return 0;
}
