/* Forks k children (each prints a line and exits with status i), runs a thread, uses malloc in
 * every process and thread, waits for all; the C library's fork, pthread_create and malloc
 * must work in a process the fork server made. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg) {
    char *p = malloc(4096);
    strcpy(p, "thread");
    printf("%s %ld\n", p, (long)(size_t)arg);
    free(p);
    return NULL;
}

int main(void) {
    int k = 0;
    if (scanf("%d", &k) != 1) return 99;
    fflush(stdout);
    pthread_t t;
    pthread_create(&t, NULL, worker, (void *)(size_t)k);
    pthread_join(t, NULL);
    fflush(stdout);
    int sum = 0;
    for (int i = 0; i < k; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            char *p = malloc(100);
            snprintf(p, 100, "child %d ppid-ok %d", i, getppid() != getpid());
            puts(p);
            fflush(stdout);
            _exit(i);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) return 98;
        sum += WEXITSTATUS(status);
    }
    printf("children %d status-sum %d\n", k, sum);
    return 0;
}
