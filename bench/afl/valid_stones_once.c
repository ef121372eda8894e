/* stones_once's input (oracles/stones_once.py): n (1..10^6), then n lines, a pile of 1..60 each. */
#include "lines.h"

int valid_input(const char *text, size_t len) {
    struct lines l;
    const char *s;
    size_t n;
    lines_of(&l, text, len);
    if (!next_line(&l, &s, &n) || !strict_int(s, n, 1, 1000000)) return 0;
    for (long piles = int_of(s, n); piles > 0; piles--)
        if (!next_line(&l, &s, &n) || !strict_int(s, n, 1, 60)) return 0;
    return !next_line(&l, &s, &n);
}
