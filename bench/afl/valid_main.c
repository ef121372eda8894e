/* The validity check alone (bench/afl_vs_guided.py compares it with gamecert's validator before
   the runs): prints 1 when stdin is a valid input of the game, else 0. */
#include <stdio.h>

int valid_input(const char *text, size_t len);

int main(void) {
    static char text[1 << 22];
    size_t len = fread(text, 1, sizeof text - 1, stdin);
    text[len] = 0;
    printf("%d\n", len > 0 && valid_input(text, len));
    return 0;
}
