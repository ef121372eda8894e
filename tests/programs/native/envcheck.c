/* What a fresh process sees of its start: the environment (getenv, environ, /proc/self/environ),
 * dumpability, session, open descriptors, the signal mask and dispositions. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

extern char **environ;

int main(void) {
    int in_environ = 0, count = 0;
    for (char **e = environ; *e; e++, count++)
        if (strstr(*e, "LD_PRELOAD")) in_environ++;
    static char buf[1 << 20];
    int fd = open("/proc/self/environ", O_RDONLY);
    size_t len = 0;
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0) len += (size_t)n;
    if (fd >= 0) close(fd);
    int in_proc = 0, nonempty = 0;
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
        if (buf[i]) nonempty++;
        if (strstr(buf + i, "LD_PRELOAD")) in_proc++;
    }
    int fds = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    while (d && (de = readdir(d))) if (de->d_name[0] != '.') fds++;
    if (d) closedir(d);
    sigset_t mask;
    sigprocmask(SIG_SETMASK, NULL, &mask);
    int blocked = 0, non_default = 0;
    for (int s = 1; s < 65; s++) {
        if (sigismember(&mask, s) == 1) blocked++;
        struct sigaction sa;
        if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL) non_default++;
    }
    printf("getenv %s\n", getenv("LD_PRELOAD") ? "set" : "unset");
    printf("environ-mentions %d entries %d proc-mentions %d proc-entries %d\n", in_environ, count, in_proc, nonempty);
    printf("var %s\n", getenv("GC_TEST_VAR") ? getenv("GC_TEST_VAR") : "-");
    printf("dumpable %d session-leader %d fds %d\n", prctl(PR_GET_DUMPABLE), getsid(0) == getpid(), fds - 1);
    printf("blocked %d non-default %d\n", blocked, non_default);
    return 0;
}
