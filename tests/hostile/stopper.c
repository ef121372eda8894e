/* Stops every other process it can see (in the sandbox: the native fork server; the supervisor
 * as PID 1 drops the signal) with SIGSTOP, or with "none" stops nothing; then answers. Input:
 * stop|none WORD. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    char what[16] = "", word[64] = "";
    if (scanf("%15s %63s", what, word) != 2)
        return 1;
    if (strcmp(what, "stop") == 0) {
        DIR *proc = opendir("/proc");
        struct dirent *entry;
        while (proc && (entry = readdir(proc)) != NULL) {
            int pid = atoi(entry->d_name);
            if (pid > 1 && pid != getpid())
                kill(pid, SIGSTOP);
        }
        if (proc)
            closedir(proc);
    }
    printf("%s\n", word);
    return 0;
}
