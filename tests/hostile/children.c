/* Memory split over children: N children each touch MB megabytes and wait until all have, so
 * that all of it is held at once; then the parent answers. Input: N MB WORD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int n = 0, mb = 0;
    char word[64] = "";
    if (scanf("%d %d %63s", &n, &mb, word) != 3)
        return 1;
    int go[2], ready[2];
    if (pipe(go) != 0 || pipe(ready) != 0)
        return 1;
    for (int i = 0; i < n; i++) {
        if (fork() == 0) {
            close(go[1]);
            size_t size = (size_t)mb << 20;
            char *p = malloc(size), c = 1;
            if (!p)
                _exit(1);
            memset(p, 1, size);
            (void)!write(ready[1], &c, 1);
            (void)!read(go[0], &c, 1); /* held until the parent lets go */
            _exit(p[size - 1] == 1 ? 0 : 1);
        }
    }
    for (int i = 0; i < n; i++) {
        char c;
        if (read(ready[0], &c, 1) != 1)
            break;
    }
    close(go[1]);
    while (wait(NULL) > 0) {
    }
    printf("%s\n", word);
    return 0;
}
