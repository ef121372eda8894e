/* Holds memory beside itself: anonymous files (memfd_create) filled with write(), never mapped,
 * held while it answers.  Input: the number of files and MB per file, then the line to echo. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
    int count = 0, mb = 0;
    char line[256] = {0};
    static char block[1 << 20];
    if (scanf("%d %d ", &count, &mb) != 2 || !fgets(line, sizeof line, stdin))
        return 1;
    memset(block, 'm', sizeof block);
    for (int i = 0; i < count; i++) {
        int fd = memfd_create("m", 0);
        for (int j = 0; j < mb && fd >= 0; j++)
            if (write(fd, block, sizeof block) < 0)
                break;
    }
    fputs(line, stdout);
    return 0;
}
