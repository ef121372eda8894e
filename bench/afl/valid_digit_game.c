/* digit_game's input (oracles/digit_game.py): t (1..100) games, each n (1..1000) and a line of
   n digits without a leading zero. */
#include "lines.h"

int valid_input(const char *text, size_t len) {
    struct lines l;
    const char *s;
    size_t n;
    lines_of(&l, text, len);
    if (!next_line(&l, &s, &n) || !strict_int(s, n, 1, 100)) return 0;
    for (long games = int_of(s, n); games > 0; games--) {
        if (!next_line(&l, &s, &n) || !strict_int(s, n, 1, 1000)) return 0;
        size_t digits = (size_t)int_of(s, n);
        if (!next_line(&l, &s, &n) || n != digits || s[0] == '0') return 0;
        for (size_t i = 0; i < n; i++)
            if (s[i] < '0' || s[i] > '9') return 0;
    }
    return !next_line(&l, &s, &n);
}
