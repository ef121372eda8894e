/* Reads a pid and tries to trace it and to read its memory; prints what the kernel said. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int pid = 0;
    if (scanf("%d", &pid) != 1) return 99;
    long r = ptrace(PTRACE_ATTACH, pid, 0, 0);
    printf("attach %s\n", r == 0 ? "ok" : strerror(errno));
    if (r == 0) { waitpid(pid, NULL, __WALL); ptrace(PTRACE_DETACH, pid, 0, 0); }
    char path[64], byte;
    snprintf(path, sizeof path, "/proc/%d/mem", pid);
    int fd = open(path, O_RDONLY);
    printf("mem %s\n", fd >= 0 ? "opened" : strerror(errno));
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    fd = open(path, O_RDONLY);
    printf("environ %s\n", fd >= 0 && read(fd, &byte, 1) >= 0 ? "read" : strerror(errno));
    return 0;
}
