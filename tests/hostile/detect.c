/* Looks for the word "gamecert" where a native program can: its command line and PID 1's, its
 * executable's path, its mounts, cgroup, memory map, environment (initial and current), working
 * folder and host name. Prints one line per place where the word appears, else "nothing". */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int seen(const char *text, size_t n) {
    for (size_t i = 0; i + 8 <= n; i++)
        if (strncasecmp(text + i, "gamecert", 8) == 0) return 1;
    return 0;
}

static int file_has(const char *path) {
    static char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return seen(buf, n);
}

int main(void) {
    const char *files[] = {"/proc/self/cmdline", "/proc/1/cmdline", "/proc/self/mountinfo", "/proc/self/cgroup",
                           "/proc/self/maps", "/proc/self/environ", "/proc/1/environ", "/proc/self/status"};
    int found = 0;
    char buf[4096];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (file_has(files[i])) { printf("seen in %s\n", files[i]); found = 1; }
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf);
    if (n > 0 && seen(buf, (size_t)n)) { puts("seen in /proc/self/exe"); found = 1; }
    for (char **e = environ; *e; e++)
        if (seen(*e, strlen(*e))) { puts("seen in environ"); found = 1; break; }
    if (getcwd(buf, sizeof buf) && seen(buf, strlen(buf))) { puts("seen in cwd"); found = 1; }
    if (gethostname(buf, sizeof buf) == 0 && seen(buf, strlen(buf))) { puts("seen in hostname"); found = 1; }
    if (!found) puts("nothing");
    return 0;
}
