/* The I/O priority a test inherits: idle (set by an earlier test) is a trace. It then makes
 * every process it can see idle (in the sandbox: the supervisor, a native fork server), or with
 * "parent" only its parent. Input: all|parent, then the word to answer ("carried" if traced). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IDLE (3 << 13)

int main(void) {
    char scope[16] = "", word[64] = "";
    if (scanf("%15s %63s", scope, word) != 2)
        return 1;
    long mine = syscall(SYS_ioprio_get, 1, 0);
    int carried = mine >= 0 && (mine >> 13) == 3;
    if (strcmp(scope, "all") == 0) {
        DIR *proc = opendir("/proc");
        struct dirent *entry;
        while (proc && (entry = readdir(proc)) != NULL) {
            int pid = atoi(entry->d_name);
            if (pid > 0 && pid != getpid())
                syscall(SYS_ioprio_set, 1, pid, IDLE);
        }
        if (proc)
            closedir(proc);
    } else {
        syscall(SYS_ioprio_set, 1, getppid(), IDLE);
    }
    printf("%s\n", carried ? "carried" : word);
    return 0;
}
