/* Hostile: a C program handed to `gamecert tests --check PKG --against PROG` that writes a file
   into $HOME, then echoes its input. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    const char *home = getenv("HOME");
    if (home) {
        char path[4096];
        snprintf(path, sizeof path, "%s/gamecert_was_here", home);
        FILE *f = fopen(path, "w");
        if (f) { fputs("a program under judgement wrote this\n", f); fclose(f); }
    }
    int c;
    while ((c = getchar()) != EOF) putchar(c);
    return 0;
}
