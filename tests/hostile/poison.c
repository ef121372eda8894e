/* Writes into the memory of every other process it can see, to leave state for the next test.
 * In the sandbox, the other processes are the native fork server, whose image every later test is
 * cloned from, and the supervisor (PID 1). The target is a global of this program at the same
 * address in the fork server, which is the same image. It tries three routes: process_vm_writev,
 * /proc/PID/mem and ptrace's POKEDATA. Every test prints the global as it found it.
 * Input: "poison WORD" (the attack), "none WORD", or "child WORD" (the control: the same three
 * routes into a child of its own, which is dumpable; the child then prints what it holds).
 * Output: WORD, the global, and how many writes landed, e.g. "b 0 0". */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long poisoned = 0;

static int poison(pid_t pid) {
    long value = 7;
    int landed = 0;
    struct iovec local = {&value, sizeof value}, remote = {(void *)&poisoned, sizeof value};
    if (process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof value)
        landed++;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    int fd = open(path, O_RDWR);
    if (fd >= 0) {
        if (pwrite(fd, &value, sizeof value, (off_t)(unsigned long)&poisoned) == (ssize_t)sizeof value)
            landed++;
        close(fd);
    }
    if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) {
        waitpid(pid, NULL, __WALL);
        if (ptrace(PTRACE_POKEDATA, pid, (void *)&poisoned, (void *)value) == 0)
            landed++;
        ptrace(PTRACE_DETACH, pid, NULL, NULL);
    }
    return landed;
}

int main(void) {
    char what[16] = "", word[64] = "";
    if (scanf("%15s %63s", what, word) != 2)
        return 1;
    long found = poisoned;
    int landed = 0;
    if (strcmp(what, "poison") == 0) {
        DIR *proc = opendir("/proc");
        struct dirent *entry;
        while (proc && (entry = readdir(proc)) != NULL) {
            int pid = atoi(entry->d_name);
            if (pid > 0 && pid != getpid())
                landed += poison(pid);
        }
        if (proc)
            closedir(proc);
    } else if (strcmp(what, "child") == 0) {
        int ready[2], go[2];
        if (pipe(ready) != 0 || pipe(go) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            char c;
            close(ready[0]);
            close(go[1]);
            if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
                _exit(1);
            printf("%s %ld ", word, poisoned);
            fflush(stdout);
            _exit(0);
        }
        char c;
        close(ready[1]);
        close(go[0]);
        if (read(ready[0], &c, 1) != 1)
            return 1;
        landed = poison(pid);
        if (write(go[1], "g", 1) != 1)
            return 1;
        waitpid(pid, NULL, 0);
        printf("%d\n", landed);
        return 0;
    }
    printf("%s %ld %d\n", word, found, landed);
    return 0;
}
