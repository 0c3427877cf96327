/* Host-only code: no CUDA device code at all. Used for libhostonly.so and as
 * the host-only member of libframes.a. */
int hostonly_add(int a, int b)
{
    return a + b;
}
