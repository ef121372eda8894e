// A compile bomb: the preprocessor reads /dev/zero, which never ends, into memory.
#include "/dev/zero"
int main() {}
