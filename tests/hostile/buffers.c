/* Memory held in the kernel's buffers, not in the program's pages: input "KIND COUNT", KIND 0
 * unix stream socket pairs, 1 unix datagram socket pairs, 2 pipes (each grown to 1 MB); COUNT
 * of them (0: as many as the descriptor limit allows), each filled until it takes no more.
 * Prints what it queued. A judge that counts only the program's pages misses all of it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    static char chunk[65536];
    memset(chunk, 'x', sizeof chunk);
    int kind = 0, count = 0, made = 0;
    long long queued = 0;
    if (scanf("%d %d", &kind, &count) != 2)
        return 2;
    while (count == 0 || made < count) {
        int ends[2];
        int ok = kind == 0 ? socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0
                 : kind == 1 ? socketpair(AF_UNIX, SOCK_DGRAM, 0, ends) == 0 : pipe(ends) == 0;
        if (!ok)
            break;
        made++;
        if (kind == 2)
            fcntl(ends[1], F_SETPIPE_SZ, 1 << 20);
        fcntl(ends[1], F_SETFL, O_NONBLOCK);
        ssize_t n;
        while ((n = write(ends[1], chunk, kind == 1 ? 4096 : sizeof chunk)) > 0)
            queued += n;
    }
    printf("%d made, %lld KB queued\n", made, queued >> 10);
    return 0;
}
