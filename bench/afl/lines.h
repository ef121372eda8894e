/* Lines as gamecert's validators split them (gamecert.kit.game.input_lines: one final newline
   optional, a CR at a line's end dropped), and an integer written strictly (parse_int: the whole
   line, digits only, no leading zero, within [low, high]). */
#include <stddef.h>

struct lines {
    const char *text;
    size_t end, at;
    int done;
};

static void lines_of(struct lines *l, const char *text, size_t len) {
    l->text = text;
    l->end = len - (len > 0 && text[len - 1] == '\n');
    l->at = 0;
    l->done = 0;
}

/* The next line into *start and *n; 0 when none is left. */
static int next_line(struct lines *l, const char **start, size_t *n) {
    if (l->done) return 0;
    size_t stop = l->at;
    while (stop < l->end && l->text[stop] != '\n') stop++;
    *start = l->text + l->at;
    *n = stop - l->at;
    if (*n > 0 && (*start)[*n - 1] == '\r') (*n)--;
    if (stop >= l->end)
        l->done = 1;
    else
        l->at = stop + 1;
    return 1;
}

static int strict_int(const char *s, size_t n, long low, long high) {
    if (n == 0 || n > 9 || (n > 1 && s[0] == '0')) return 0;
    long value = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        value = value * 10 + (s[i] - '0');
    }
    return low <= value && value <= high;
}

static long int_of(const char *s, size_t n) {
    long value = 0;
    for (size_t i = 0; i < n; i++) value = value * 10 + (s[i] - '0');
    return value;
}
