/* A compile bomb: the preprocessor reads /dev/zero, which never ends, into memory. Without a
   memory cap on the build this takes the machine's memory until the build's time limit. */
#include "/dev/zero"
int main(void) { return 0; }
