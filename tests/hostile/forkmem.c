/* Hostile (issue 44, point 5): eight children each touch 64 MB (512 MB at once) and hold it
   until all have; then the parent answers "Bob" (any answer: the checker of the test accepts it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    char word[256] = "";
    if (scanf("%255s", word) != 1) return 1;
    int ready[2], go[2];
    if (pipe(ready) || pipe(go)) return 1;
    pid_t kids[8];
    for (int i = 0; i < 8; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            close(go[1]);
            size_t size = (size_t)64 << 20;
            char *p = malloc(size), c = 1;
            if (!p) _exit(1);
            for (size_t k = 0; k < size; k += 4096)
                ((volatile char *)p)[k] = 1; /* every page touched, not optimised away */
            (void)!write(ready[1], &c, 1);
            (void)!read(go[0], &c, 1);
            _exit(((volatile char *)p)[0] == 1 ? 0 : 1);
        }
    }
    close(ready[1]);
    char c; int held = 0;
    while (held < 8 && read(ready[0], &c, 1) == 1) held++;
    fprintf(stderr, "%d children held 64 MB each at once\n", held);
    close(go[1]);
    for (int i = 0; i < 8; i++) if (kids[i] > 0) waitpid(kids[i], NULL, 0);
    puts("Bob");
    return 0;
}
