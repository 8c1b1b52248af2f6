// The link check of each core module (src/core/CMakeLists.txt): an empty
// program that the whole of one module's archive is linked into, against its
// declared dependencies alone.
int main()
{
    return 0;
}
