/* Leaves state behind for the next test: a SysV shared-memory segment (touched, MB megabytes), a
 * SysV message queue, a semaphore set and a POSIX message queue.  It answers right (echoes its
 * input's second line) only if none of them was there when it started, and says "carried N"
 * otherwise.  Input: MB, then the line to echo; the input "cleanup" removes all four instead (for
 * a test's own clean-up, run outside any box). */
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
int main(void) {
    char line[256] = {0};
    if (!fgets(line, sizeof line, stdin)) return 1;
    size_t bytes = (size_t)atoi(line) << 20;
    if (strncmp(line, "cleanup", 7) == 0) {
        shmctl(shmget(0x6a6d, 0, 0), IPC_RMID, NULL);
        msgctl(msgget(0x6a6e, 0), IPC_RMID, NULL);
        semctl(semget(0x6a6f, 0, 0), 0, IPC_RMID);
        mq_unlink("/gcq");
        return 0;
    }
    if (!fgets(line, sizeof line, stdin)) return 1;
    int carried = 0;
    int shm = shmget(0x6a6d, bytes, IPC_CREAT | IPC_EXCL | 0600);
    if (shm < 0) carried |= 1;
    else { char *p = shmat(shm, NULL, 0); if (p != (void *)-1) { memset(p, 1, bytes); shmdt(p); } }
    if (msgget(0x6a6e, IPC_CREAT | IPC_EXCL | 0600) < 0) carried |= 2;
    if (semget(0x6a6f, 4, IPC_CREAT | IPC_EXCL | 0600) < 0) carried |= 4;
    mqd_t q = mq_open("/gcq", O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
    if (q == (mqd_t)-1) carried |= 8; else mq_close(q);
    if (carried) printf("carried %d\n", carried);
    else fputs(line, stdout);
    return 0;
}
