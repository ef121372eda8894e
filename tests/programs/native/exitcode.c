/* Exit statuses and crashes: 0 a null write (SIGSEGV), 1 abort() (raise, which uses the C
 * library's idea of the thread id), 2 a division by zero (SIGFPE), 3 kill(getpid(), SIGTERM),
 * any other n: exit(n % 256) after writing to stdout and stderr (stdout left unflushed until exit). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    long n = -1;
    if (scanf("%ld", &n) != 1) return 99;
    printf("got %ld\n", n);
    fprintf(stderr, "err %ld\n", n);
    volatile int zero = 0;
    switch (n) {
    case 0: fflush(stdout); *(volatile int *)0 = 1; break;
    case 1: abort();
    case 2: fflush(stdout); printf("%ld\n", n / zero); break;
    case 3: fflush(stdout); kill(getpid(), SIGTERM); pause(); break;
    }
    exit((int)(n % 256));
}
