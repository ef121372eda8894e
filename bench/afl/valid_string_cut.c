/* string_cut's input (oracles/string_cut.py): one line, 1 to 5000 letters a-z. */
#include "lines.h"

int valid_input(const char *text, size_t len) {
    struct lines l;
    const char *s;
    size_t n;
    lines_of(&l, text, len);
    if (!next_line(&l, &s, &n) || n < 1 || n > 5000) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 'a' || s[i] > 'z') return 0;
    return !next_line(&l, &s, &n);
}
