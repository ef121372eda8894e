/* Hostile (issue 44, point 6): a sibling made with clone(CLONE_PARENT) (its parent is the test's
   parent, not the test) burns 3.5 s of CPU against word_game's 2 s limit; the test itself answers
   at once, waits for the sibling to end (a pipe) and exits 0. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static char stack[1 << 16];
static int done[2];

static int burn(void *arg) {
    (void)arg;
    struct timespec t;
    do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while (t.tv_sec < 3 || (t.tv_sec == 3 && t.tv_nsec < 500000000L));
    return 0; /* its end closes its copy of done[1]: the test's read below returns */
}

int main(void) {
    char word[256] = "";
    if (scanf("%255s", word) != 1) return 1;
    if (pipe(done) != 0) return 1;
    if (clone(burn, stack + sizeof stack, CLONE_PARENT | SIGCHLD, NULL) < 0) return 1;
    int counts[26] = {0}, x = 0;
    for (char *p = word; *p; p++) if (*p >= 'A' && *p <= 'Z') counts[*p - 'A']++;
    for (int i = 0; i < 26; i++) if (counts[i]) x ^= counts[i] % 3 == 0 ? 3 : counts[i] % 3;
    puts(x ? "Alice" : "Bob");
    fflush(stdout);
    close(done[1]);
    char c;
    (void)!read(done[0], &c, 1); /* the test lasts as long as its sibling burns */
    return 0;
}
