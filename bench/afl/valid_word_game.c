/* word_game's input (oracles/word_game.py): one line, a word of 1 to 40 letters A-Z. */
#include "lines.h"

int valid_input(const char *text, size_t len) {
    struct lines l;
    const char *s;
    size_t n;
    lines_of(&l, text, len);
    if (!next_line(&l, &s, &n) || n < 1 || n > 40) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 'A' || s[i] > 'Z') return 0;
    return !next_line(&l, &s, &n);
}
