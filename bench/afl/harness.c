/* The AFL++ side of bench/afl_vs_guided.py: one binary holding a wrong program (its main built
   as wrong_main) and a right solver of the same game (right_main). An input that is not valid
   for the game (valid_input, one file per game beside this one) is dropped, as a contest judge
   never gives it; on a valid one both programs run with stdin read from the input and stdout
   written to memory, and the binary aborts when their answers (whitespace-separated tokens) or
   exit statuses differ: a crash for AFL++ is a failing input. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int wrong_main(void);
int right_main(void);
int valid_input(const char *text, size_t len);

#define MAX_INPUT (8u << 20)

static int run(int (*program)(void), const char *text, size_t len, char **out, size_t *out_len) {
    FILE *in = fmemopen((void *)text, len, "r");
    FILE *mem = open_memstream(out, out_len);
    if (!in || !mem) _exit(3);
    FILE *saved_in = stdin, *saved_out = stdout;
    stdin = in;
    stdout = mem;
    int status = program();
    fflush(stdout);
    stdin = saved_in;
    stdout = saved_out;
    fclose(in);
    fclose(mem);
    return status;
}

/* The next token of s (len n) from *at: its start and length, 0 when none is left. */
static size_t token(const char *s, size_t n, size_t *at, const char **start) {
    while (*at < n && strchr(" \t\r\n", s[*at]) && s[*at]) (*at)++;
    *start = s + *at;
    size_t begin = *at;
    while (*at < n && !(strchr(" \t\r\n", s[*at]) && s[*at])) (*at)++;
    return *at - begin;
}

static int same_tokens(const char *a, size_t na, const char *b, size_t nb) {
    size_t i = 0, j = 0;
    for (;;) {
        const char *ta, *tb;
        size_t la = token(a, na, &i, &ta), lb = token(b, nb, &j, &tb);
        if (la != lb || memcmp(ta, tb, la) != 0) return 0;
        if (la == 0) return 1;
    }
}

int main(void) {
    static char text[MAX_INPUT + 1];
    size_t len = 0;
    ssize_t got;
    while (len < MAX_INPUT && (got = read(0, text + len, MAX_INPUT - len)) > 0) len += (size_t)got;
    text[len] = 0;
    if (len == 0 || !valid_input(text, len)) return 0;
    char *wrong_out = NULL, *right_out = NULL;
    size_t wrong_len = 0, right_len = 0;
    int right_status = run(right_main, text, len, &right_out, &right_len);
    int wrong_status = run(wrong_main, text, len, &wrong_out, &wrong_len);
    if (wrong_status != right_status || !same_tokens(wrong_out, wrong_len, right_out, right_len))
        abort();
    free(wrong_out);
    free(right_out);
    return 0;
}
