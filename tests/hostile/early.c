/* Code that runs before a preloaded library's constructor: with -DPREINIT a pre-initialisation
 * array entry, with -DIFUNC an IFUNC resolver (run while the program is loaded). Either burns
 * 1.5 s of CPU time, then main answers at once. Run through a fork server that started the program
 * once, the burn would happen once, in the server, and every test would pass with no CPU time
 * charged; a judge runs the program afresh every time, so every test burns 1.5 s (TLE at 1 s).
 */
#include <stdio.h>
#include <time.h>

static void burn(void) {
    struct timespec t;
    do
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while (t.tv_sec < 1 || (t.tv_sec == 1 && t.tv_nsec < 500000000L));
}

#ifdef PREINIT
static void early(int argc, char **argv, char **envp) {
    (void)argc, (void)argv, (void)envp;
    burn();
}
__attribute__((section(".preinit_array"), used)) static void (*early_entry)(int, char **, char **) = early;
static int answer(void) { return 1; }
#else
static int one(void) { return 1; }
static void *resolve(void) {
    burn();
    return (void *)one;
}
int answer(void) __attribute__((ifunc("resolve")));
#endif

int main(void) {
    puts(answer() ? "Alice" : "Bob");
    return 0;
}
