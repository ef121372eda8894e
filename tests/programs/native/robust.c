/* The C library's per-thread state after the fork server's clone: the main thread holds a
 * robust mutex and exits (pthread_exit); the kernel must then mark the mutex owner-dead, which
 * needs the thread's robust list registered and the mutex word holding the kernel's thread id.
 * A second thread then signals the main thread's pthread_t while it is alive (pthread_kill
 * uses the C library's cached thread id). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock;
static pthread_t main_thread;
static volatile sig_atomic_t got_signal;

static void on_usr1(int sig) { (void)sig; got_signal = 1; }

static void *signaller(void *arg) {
    (void)arg;
    int rc = pthread_kill(main_thread, SIGUSR1);
    printf("kill-main %s\n", rc == 0 ? "ok" : strerror(rc));
    return (void *)(size_t)rc;
}

static void *heir(void *arg) {
    (void)arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    int rc = pthread_mutex_timedlock(&lock, &until);
    printf("lock %s\n", rc == EOWNERDEAD ? "owner-dead" : rc == 0 ? "taken" : strerror(rc));
    fflush(stdout);
    exit(0);
}

int main(void) {
    main_thread = pthread_self();
    signal(SIGUSR1, on_usr1);
    pthread_t t;
    pthread_create(&t, NULL, signaller, NULL);
    void *rc;
    pthread_join(t, &rc);
    for (int i = 0; i < 5000 && !got_signal && rc == NULL; i++) usleep(1000);
    printf("signal %s\n", got_signal ? "received" : "lost");
    fflush(stdout);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&lock, &attr);
    pthread_mutex_lock(&lock);
    pthread_create(&t, NULL, heir, NULL);
    pthread_exit(NULL);
}
