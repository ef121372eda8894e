/* Output and scratch files of a given size. Input: KIND MB WORD, then it answers WORD.
 * sparse: one byte at MB megabytes into its standard output (lseek: a file with a hole, 1 byte
 *         written); dense: MB megabytes of 'x' lines written to it; scratch: a file of MB
 *         megabytes in its working folder (exit 3 if a write fails). */
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* All of buf, a short write continued (the next write past a file cap is the one refused). */
static int put(int fd, const char *buf, size_t size) {
    while (size) {
        ssize_t n = write(fd, buf, size);
        if (n <= 0)
            return -1;
        buf += n;
        size -= (size_t)n;
    }
    return 0;
}

int main(void) {
    long mb = 0;
    char kind[16] = "", word[64] = "", buf[65536];
    if (scanf("%15s %ld %63s", kind, &mb, word) != 3)
        return 1;
    memset(buf, 'x', sizeof buf);
    buf[sizeof buf - 1] = '\n';
    if (strcmp(kind, "sparse") == 0) {
        lseek(1, (mb << 20) - 1, SEEK_SET);
        if (write(1, "\n", 1) != 1)
            return 2;
    } else if (strcmp(kind, "dense") == 0) {
        for (long i = 0; i < mb << 4; i++)
            if (put(1, buf, sizeof buf) != 0)
                return 2;
    } else {
        int fd = open("scratch", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        for (long i = 0; i < mb << 4; i++)
            if (put(fd, buf, sizeof buf) != 0)
                return 3;
        close(fd);
    }
    printf("%s\n", word);
    return 0;
}
