/* The supervisor's per-test loop for a native fork server's fast tests, in C (loaded with ctypes
 * by _sv_fast.py; the supervisor works without it, each test then taking the Python path).
 *
 * tl_run() runs one test from the request to the shim to its report: the stderr pipe, the
 * memory cgroup's peak reset and base, the clone request to the shim (shim.c) and its reply,
 * the CPU rlimit, a wait for the child with a timeout (pidfd + poll) while stderr is drained,
 * wait4, the pids cgroup's pids.current (whether anything else of the test is still alive),
 * the fork server's CPU time (schedstat), pids.events, the memory peak, the last of stderr.
 *
 * It decides nothing: whatever is not a test that ended by itself before the first watchdog
 * scan with nothing left behind is handed back to the Python path at the point it reached
 * (TL_RUNNING: the child still runs, the watch goes on from there; TL_OTHERS: the child has
 * ended, not reaped, and the cgroup counts other tasks, which the Python path kills and reaps;
 * TL_NO_SPAWN: nothing was started, the test takes the Python path whole).  Every limit, kill and report
 * rule stays in the Python path.
 *
 * tl_dirty() says which scratch folders and whether the IPC namespace need emptying after a
 * test (fstatvfs per folder, three *ctl(…_INFO) calls, one fstat of the mqueue folder).
 *
 * In a zygote's serve loop (tl_serve), the next test's process is forked while a test runs and
 * waits, parked, for its test (tl_park, tl_release): the fork and the interpreter's after-fork
 * work, the largest part of a test's time that is not the program's, then run on another CPU
 * beside the test before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define TL_DONE 0      /* ended by itself, reaped, nothing else alive: every field is filled */
#define TL_RUNNING 1   /* still running at the first scan: pid, err_r, started_ns, the tail so far */
#define TL_OTHERS 2    /* ended, not reaped, other tasks in the cgroup: as TL_RUNNING */
#define TL_NO_SPAWN 3  /* nothing started: spawn_errno (0: the fork server is gone) */
#define TL_CHILD 4     /* (a zygote's test) returned in the test's process, set up to run it */
#define TL_MAX_SCRATCH 4
#define TL_STAMPS 6

/* Keep in step with _Job in _sv_fast.py (field for field). */
struct tl_job {
    /* in */
    int control;          /* the shim's socket */
    int stdin_fd, stdout_fd, cwd_fd;
    int memcg_version;    /* 0: no memory cgroup, 1 or 2 */
    int peak_fd, usage_fd;
    int pids_current_fd;  /* the pids cgroup's pids.current */
    int events_fd;        /* pids.events, or -1 */
    int schedstat_fd;     /* the fork server's /proc/PID/schedstat, or -1 */
    int nscratch;
    int scratch_fds[TL_MAX_SCRATCH];
    long long scratch_base[TL_MAX_SCRATCH];
    int mqueue_fd;        /* or -1 */
    long long mqueue_empty;
    long long cpu_soft;   /* RLIMIT_CPU soft; hard is one more */
    long long first_scan_ns;
    long long reply_timeout_ns;
    char *tail;           /* a buffer of tail_cap >= 2 * keep bytes */
    long long tail_cap, keep;
    int profile;          /* bench only: stamp the parts of the test (wall and CPU ns) */
    int server_pid;       /* the fork server: kept on the CPU this loop runs on (0: not) */
    int server_cpu;       /* the CPU it was last put on (-1: none yet) */
    /* out */
    int outcome;
    int pid, err_r, status, spawn_errno;
    long long started_ns, ended_ns;
    long long utime_us, stime_us, maxrss_kb, minflt;
    long long mem_base, mem_peak;
    long long server_cpu_ns, events_max;
    long long err_size, tail_off, tail_len;
    long long stamps[TL_STAMPS][3]; /* start, request, reply, ended, reaped, done: wall, CPU, faults */
    struct tl_zygote *zygote; /* in: the test's process forked from this one (a Python zygote,
                               * see tl_zygote_fork), not asked of the shim; NULL: the shim */
    int prefork;          /* in (tl_serve): a zygote's next test's process forked while this one runs */
    int parked_after;     /* out: whether a process was parked during this test (counted by pids) */
    int fresh;            /* out: whether the test's process was forked or cloned for it (not parked) */
    /* in: each scratch folder's mode when empty (a test that changed it leaves it dirty); the
     * memory cgroup's usage above which it is emptied after a test (-1: never); the sandbox's
     * cpuacct.usage (or -1) */
    long long scratch_mode[TL_MAX_SCRATCH];
    long long mem_clean;
    int cpuacct_fd;
    /* out: the sandbox's CPU time (cpuacct) and this supervisor's at the test's start, and the
     * test's: the sandbox's over the test less the supervisor's own (-1: no cpuacct) */
    long long cg_start_ns, own_start_ns, cg_cpu_ns;
};

struct tl_zygote;
int tl_zygote_fork(struct tl_zygote *z, int stdin_fd, int stdout_fd, int err_fd);
static int tl_unpark(struct tl_zygote *z);
static int tl_release(struct tl_zygote *z, int stdin_fd, int stdout_fd, int err_fd);
static int tl_park(struct tl_zygote *z);


static long long tl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tl_own_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void tl_stamp(struct tl_job *job, int which) {
    if (!job->profile)
        return;
    struct timespec ts;
    struct rusage self;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    getrusage(RUSAGE_SELF, &self);
    job->stamps[which][0] = tl_now();
    job->stamps[which][1] = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    job->stamps[which][2] = self.ru_minflt;
}

/* A number at the start of a file (pids.current, memory.peak, memory.current...), or -1. */
static long long tl_read_number(int fd) {
    char buf[64];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    char *end;
    errno = 0;
    long long value = strtoll(buf, &end, 10);
    if (errno || end == buf)
        return -1;
    return value;
}

/* pids.events' "max N" count, or -1. */
static long long tl_read_events(int fd) {
    char buf[256];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, "max ", 4) == 0)
            return strtoll(line + 4, NULL, 10);
    return -1;
}

/* Read what waits on the stderr pipe into the tail (its last `keep` bytes are kept); 1 at end
 * of file, 0 otherwise. */
static int tl_drain(struct tl_job *job) {
    for (;;) {
        if (job->tail_len == job->tail_cap) {  /* full: keep the last `keep` bytes only */
            memmove(job->tail, job->tail + job->tail_len - job->keep, (size_t)job->keep);
            job->tail_len = job->keep;
        }
        ssize_t n = read(job->err_r, job->tail + job->tail_len, (size_t)(job->tail_cap - job->tail_len));
        if (n > 0) {
            job->tail_len += n;
            job->err_size += n;
            continue;
        }
        if (n == 0)
            return 1;
        if (errno == EINTR)
            continue;
        return 0; /* EAGAIN, or an error: nothing more now */
    }
}

/* One message of up to `size` bytes (into data) and up to `most` (<= 200) descriptors, into fds
 * (their count into *nfds; *cut: some were cut off); the bytes read (<= 0: the end, or an error). */
static ssize_t tl_recv_msg(int sock, char *data, size_t size, int *fds, int most, int *nfds, int *cut) {
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * 200)];
    } control;
    struct iovec iov = {data, size};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)most);
    ssize_t got;
    while ((got = recvmsg(sock, &msg, 0)) < 0 && errno == EINTR) {
    }
    *nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); got > 0 && c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            for (int i = 0; i < (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int)) && *nfds < most; i++)
                memcpy(&fds[(*nfds)++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
    *cut = (msg.msg_flags & MSG_CTRUNC) != 0;
    return got;
}

/* One message of one byte and up to `most` descriptors (see tl_recv_msg). */
static ssize_t tl_recv_fds(int sock, char *byte, int *fds, int most, int *nfds, int *cut) {
    return tl_recv_msg(sock, byte, 1, fds, most, nfds, cut);
}

/* One message of `size` bytes and nfds (<= 4) descriptors; what sendmsg returned (errno kept). */
static ssize_t tl_send_msg(int sock, const char *data, size_t size, const int *fds, int nfds) {
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * 4)];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)data, size};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (nfds) {
        msg.msg_control = control.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
    }
    ssize_t sent;
    while ((sent = sendmsg(sock, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    return sent;
}

/* One message of one byte and nfds (<= 4) descriptors (see tl_send_msg). */
static ssize_t tl_send_fds(int sock, char byte, const int *fds, int nfds) {
    return tl_send_msg(sock, &byte, 1, fds, nfds);
}

/* Whether the fork server (a child of this process) has ended or is stopped (a test can stop
 * it): then no request is sent, whose reply would never come (the Python path ends it and starts
 * a new one). */
static int tl_server_stuck(struct tl_job *job) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return job->server_pid > 0 &&
           (waitid(P_PID, (id_t)job->server_pid, &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) != 0 ||
            info.si_pid != 0);
}

/* The clone request to the shim ('c': stdin, stdout, stderr, working folder) and its reply:
 * the pid, or -1 with spawn_errno (0: the server is gone or answered nonsense). */
static int tl_spawn(struct tl_job *job, int err_w) {
    int fds[4] = {job->stdin_fd, job->stdout_fd, err_w, job->cwd_fd};
    char request[24];
    int len = snprintf(request, sizeof request, "c%lld", job->cpu_soft); /* (its CPU limit set first) */
    job->spawn_errno = 0;
    if (tl_server_stuck(job))
        return -1; /* (as gone) */
    if (tl_send_msg(job->control, request, (size_t)len, fds, 4) != len) {
        if (errno != EPIPE && errno != ECONNRESET && errno != ENOTCONN)
            job->spawn_errno = errno; /* the server is not known to be gone */
        return -1;
    }
    long long end = tl_now() + job->reply_timeout_ns;
    char reply[64];
    ssize_t got;
    for (;;) {
        long long left = end - tl_now();
        if (left <= 0)
            return -1;
        struct pollfd p = {job->control, POLLIN, 0};
        int ready = poll(&p, 1, (int)(left / 1000000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return -1;
        got = recv(job->control, reply, sizeof reply - 1, 0);
        if (got < 0 && errno == EINTR)
            continue;
        break;
    }
    if (got < 2)
        return -1;
    reply[got] = 0;
    char *end_digits;
    long value = strtol(reply + 1, &end_digits, 10);
    if (*end_digits != 0 || value <= 0)
        return -1;
    if (reply[0] == 'E') {
        job->spawn_errno = (int)value;
        return -1;
    }
    if (reply[0] != 'P')
        return -1;
    siginfo_t info; /* a child of this process (CLONE_PARENT), running or ended: reaps nothing */
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)value, &info, WEXITED | WNOHANG | WNOWAIT) != 0)
        return -1;
    return (int)value;
}

/* The fork server onto the CPU this loop runs on, if it is not there already: the clone request,
 * the reply and the test's start then wake no other CPU (a wake-up of an idle CPU costs far more
 * than a switch on this one, in a virtual machine most of all). The test's process gets back
 * the CPUs the program started with (shim.c). */
static void tl_follow(struct tl_job *job) {
    int cpu = sched_getcpu();
    if (job->server_pid <= 0 || cpu < 0 || cpu == job->server_cpu)
        return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(job->server_pid, sizeof one, &one) == 0)
        job->server_cpu = cpu;
}

int tl_run(struct tl_job *job) {
    memset(job->stamps, 0, sizeof job->stamps);
    tl_stamp(job, 0);
    tl_follow(job);
    job->err_size = job->tail_len = job->tail_off = 0;
    job->pid = job->err_r = -1;
    job->status = 0;
    job->parked_after = 0;
    if (job->zygote && !job->prefork)
        tl_unpark(job->zygote); /* (none outside the serve loop) */
    job->server_cpu_ns = job->events_max = -1;
    job->mem_base = job->mem_peak = 0;
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        job->spawn_errno = errno;
        job->outcome = TL_NO_SPAWN;
        return job->outcome;
    }
    job->err_r = pipe_fds[0];
    /* only the server's end is non-blocking: the test's stderr blocks when the pipe is full (a
     * new pipe's end has no other status flag: no F_GETFL first, a system call fewer) */
    fcntl(job->err_r, F_SETFL, O_NONBLOCK);
    if (job->memcg_version) {
        const char *reset = job->memcg_version == 1 ? "0" : "reset\n";
        if (write(job->peak_fd, reset, strlen(reset)) < 0 || (job->mem_base = tl_read_number(job->usage_fd)) < 0) {
            close(pipe_fds[0]);
            close(pipe_fds[1]);
            job->err_r = -1;
            job->spawn_errno = EIO; /* the Python path resets the peak or knows it cannot */
            job->outcome = TL_NO_SPAWN;
            return job->outcome;
        }
    }
    long long tasks_before = tl_read_number(job->pids_current_fd);
    job->cg_cpu_ns = -1;
    if (job->cpuacct_fd >= 0) { /* the sandbox's CPU time: the test's, the fork server's and ours */
        job->own_start_ns = tl_own_cpu();
        job->cg_start_ns = tl_read_number(job->cpuacct_fd);
    }
    tl_stamp(job, 1);
    /* the test's wall clock starts before its process can (a loop preempted after the clone or
     * the release would otherwise start it late, and a test look shorter than it was) */
    long long started_ns = tl_now();
    int pid, fresh = 1; /* fresh: forked now (one more task), not a parked process released */
    if (job->zygote) {
        pid = -1;
        if (job->prefork && (pid = tl_release(job->zygote, job->stdin_fd, job->stdout_fd, pipe_fds[1])) > 0)
            fresh = 0;
        else if (pid == 0) /* a parked process that could not be released was reaped: count again */
            tasks_before = tl_read_number(job->pids_current_fd);
        if (fresh) {
            pid = tl_zygote_fork(job->zygote, job->stdin_fd, job->stdout_fd, pipe_fds[1]);
            if (pid == 0) /* (its descriptors are closed: 0-2 are the test's) */
                return job->outcome = TL_CHILD;
            job->spawn_errno = pid < 0 ? (errno ? errno : EAGAIN) : 0;
        }
    } else {
        pid = tl_spawn(job, pipe_fds[1]);
    }
    close(pipe_fds[1]);
    job->fresh = fresh;
    if (pid < 0) {
        close(job->err_r);
        job->err_r = -1;
        job->outcome = TL_NO_SPAWN;
        return job->outcome;
    }
    if (job->prefork && job->zygote) { /* the next test's process, forked while this one runs */
        int parked = tl_park(job->zygote);
        if (parked == 0) /* (in the parked process, released: the next test's, set up) */
            return job->outcome = TL_CHILD;
        job->parked_after = parked > 0;
    }
    job->pid = pid;
    job->started_ns = started_ns;
    tl_stamp(job, 2);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) {
        job->outcome = TL_RUNNING;
        return job->outcome;
    }
    long long scan_at = job->started_ns + job->first_scan_ns;
    int err_open = 1, ended = 0;
    while (!ended) {
        long long left = scan_at - tl_now();
        if (left <= 0)
            break;
        struct pollfd p[2] = {{pidfd, POLLIN, 0}, {err_open ? job->err_r : -1, POLLIN, 0}};
        int ready = poll(p, 2, (int)(left / 1000000) + 1);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        if (p[1].revents && tl_drain(job))
            err_open = 0;
        if (p[0].revents)
            ended = 1;
    }
    close(pidfd);
    if (!ended) {
        job->outcome = TL_RUNNING;
        return job->outcome;
    }
    tl_stamp(job, 3);
    /* ended: its zombie is the one task it adds to the cgroup if nothing else of it is left
     * (a released process was counted before; a process parked meanwhile counts) */
    long long tasks_after = tl_read_number(job->pids_current_fd);
    if (tasks_before < 0 || tasks_after != tasks_before + fresh + job->parked_after) {
        job->outcome = TL_OTHERS;
        return job->outcome;
    }
    struct rusage usage;
    int status = 0;
    pid_t reaped;
    while ((reaped = wait4(pid, &status, 0, &usage)) < 0 && errno == EINTR) {
    }
    job->ended_ns = tl_now();
    if (reaped != pid) {
        job->outcome = TL_OTHERS; /* cannot be: the Python path sees what it is */
        return job->outcome;
    }
    job->status = status;
    job->utime_us = (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec;
    job->stime_us = (long long)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec;
    job->maxrss_kb = usage.ru_maxrss;
    job->minflt = usage.ru_minflt;
    tl_stamp(job, 4);
    if (job->schedstat_fd >= 0)
        job->server_cpu_ns = tl_read_number(job->schedstat_fd);
    if (job->events_fd >= 0)
        job->events_max = tl_read_events(job->events_fd);
    if (job->memcg_version)
        job->mem_peak = tl_read_number(job->peak_fd);
    if (job->cpuacct_fd >= 0 && job->cg_start_ns >= 0) { /* every process of the test is gone */
        long long cg = tl_read_number(job->cpuacct_fd), own = tl_own_cpu() - job->own_start_ns;
        job->cg_cpu_ns = cg < 0 ? -1 : cg - job->cg_start_ns - own > 0 ? cg - job->cg_start_ns - own : 0;
    }
    if (err_open)
        tl_drain(job);
    close(job->err_r);
    job->err_r = -1;
    if (job->tail_len > job->keep) {
        job->tail_off = job->tail_len - job->keep;
        job->tail_len = job->keep;
    }
    tl_stamp(job, 5);
    job->outcome = TL_DONE;
    return job->outcome;
}

/* After a test: bit i set where scratch folder i holds more than its base count of inodes
 * (it has something to remove), bit 8 where the IPC namespace has a SysV object or a queue, or
 * the user's keyrings a key. */
int tl_dirty(struct tl_job *job) {
    int dirty = 0;
    for (int i = 0; i < job->nscratch && i < TL_MAX_SCRATCH; i++) {
        struct statvfs st;
        if (fstatvfs(job->scratch_fds[i], &st) != 0) {
            dirty |= 1 << i;
            continue;
        }
        long long used = (long long)st.f_files - (long long)st.f_ffree - 1;
        if (used < 0)
            used = 0;
        if (used != job->scratch_base[i])
            dirty |= 1 << i;
        /* the folder itself: an extended attribute set on it, or its mode changed */
        struct stat self;
        if (flistxattr(job->scratch_fds[i], NULL, 0) != 0 || fstat(job->scratch_fds[i], &self) != 0
            || (long long)(self.st_mode & 07777) != job->scratch_mode[i])
            dirty |= 1 << i;
    }
    if (job->memcg_version && job->mem_clean >= 0 && tl_read_number(job->usage_fd) > job->mem_clean)
        dirty |= 1 << 9; /* memory left charged (page cache a test read): emptied before the next */
    struct shm_info shm;
    struct msginfo msg;
    struct seminfo sem;
    if (shmctl(0, SHM_INFO, (struct shmid_ds *)&shm) >= 0 && shm.used_ids)
        dirty |= 1 << 8;
    if (msgctl(0, MSG_INFO, (struct msqid_ds *)&msg) >= 0 && msg.msgpool)
        dirty |= 1 << 8;
    if (semctl(0, 0, SEM_INFO, &sem) >= 0 && sem.semusz)
        dirty |= 1 << 8;
#ifdef SYS_keyctl
    /* a key in the user's keyrings (user, user session), which outlive the test's processes:
     * KEYCTL_READ of a keyring gives the size of its list of keys */
    if (syscall(SYS_keyctl, 11, -4, NULL, 0) > 0 || syscall(SYS_keyctl, 11, -5, NULL, 0) > 0)
        dirty |= 1 << 8;
#endif
    if (job->mqueue_fd >= 0) {
        struct stat st;
        if (fstat(job->mqueue_fd, &st) != 0 || (long long)st.st_size != job->mqueue_empty)
            dirty |= 1 << 8;
    }
    return dirty;
}

/* ---- The zygote's fork (the Python mode's tests) ------------------------------------------
 *
 * tl_zygote_fork() forks the supervisor as os.fork() does (the interpreter's before-fork,
 * after-fork-in-parent and after-fork-in-child calls around fork(), whose addresses the caller
 * gives: this library links against no Python) and, in the child, sets the test's process up
 * before it returns there, where Python's own version of this setup took ~20 interpreted calls,
 * each touching objects of the image shared with the supervisor (a copy-on-write fault per page
 * touched): the memory cgroup first (every page the test touches is charged to it), its
 * descriptors on 0-2 and nothing else open, its own process group (or session), the death
 * signal (not contained), the resource limits, the box as working folder, dumpable again (as
 * after an exec) and an empty signal mask. It must be called with the interpreter's lock held
 * (the library loaded as ctypes.PyDLL). The parent gets the pid (-1 and errno on failure); the
 * child gets 0, or, if a step fails, says which on its stderr and exits with status `failed`. */

#define TL_MAX_LIMITS 8

/* Keep in step with _Zygote in _sv_python.py (field for field). */
struct tl_zygote {
    void (*before)(void);
    void (*after_parent)(void);
    void (*after_child)(void);
    int procs_fd;       /* the memory cgroup's cgroup.procs, or -1 */
    int own_session;    /* 1: setsid(), 0: setpgid(0, 0) */
    int death_signal;   /* PR_SET_PDEATHSIG's signal, or 0 */
    int failed;         /* the child's exit status when its setup fails */
    int nlimits;
    int limit_which[TL_MAX_LIMITS];
    long long limit_soft[TL_MAX_LIMITS], limit_hard[TL_MAX_LIMITS];
    const char *box;
    long long *marks;   /* bench only: the child's stamps (a shared page of 24 words), or NULL */
    int park;           /* 1: the serve loop parks each next test's process (see tl_park) */
    int parked;         /* the parked process's pid, or 0 */
    int park_fd;        /* the server's end of the socket pair made with it, or -1 */
};

#include <sys/prctl.h>

static void tl_mark(long long *marks, int slot) {
    if (!marks)
        return;
    struct timespec ts;
    struct rusage self;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    getrusage(RUSAGE_SELF, &self);
    marks[slot] = tl_now();
    marks[8 + slot] = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    marks[16 + slot] = self.ru_minflt;
}

static void tl_child_fail(const struct tl_zygote *z, const char *step) {
    char line[160];
    int n = snprintf(line, sizeof line, "sandbox setup failed: %s: %s\n", step, strerror(errno));
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        n = 0;
    _exit(z->failed);
}

static int tl_child_set_up(struct tl_zygote *z, int stdin_fd, int stdout_fd, int err_fd);

int tl_zygote_fork(struct tl_zygote *z, int stdin_fd, int stdout_fd, int err_fd) {
    z->before();
    pid_t pid = fork();
    int saved = errno;
    if (pid != 0) {
        z->after_parent();
        errno = saved;
        return pid;
    }
    z->after_child();
    return tl_child_set_up(z, stdin_fd, stdout_fd, err_fd);
}

static int tl_child_set_up(struct tl_zygote *z, int stdin_fd, int stdout_fd, int err_fd) {
    tl_mark(z->marks, 0);
    if (z->procs_fd >= 0 && write(z->procs_fd, "0", 1) != 1)
        tl_child_fail(z, "memory cgroup");
    tl_mark(z->marks, 3);
    if (dup2(stdin_fd, 0) < 0 || dup2(stdout_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        tl_child_fail(z, "dup2");
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
        long most = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (most > 0 ? most : 65536); fd++)
            close((int)fd);
    }
    tl_mark(z->marks, 4);
    if ((z->own_session ? setsid() : setpgid(0, 0)) < 0)
        tl_child_fail(z, z->own_session ? "setsid" : "setpgid");
    if (z->death_signal && prctl(PR_SET_PDEATHSIG, z->death_signal, 0, 0, 0) != 0)
        tl_child_fail(z, "death signal");
    for (int i = 0; i < z->nlimits && i < TL_MAX_LIMITS; i++) {
        struct rlimit limit = {(rlim_t)z->limit_soft[i], (rlim_t)z->limit_hard[i]};
        if (setrlimit(z->limit_which[i], &limit) != 0)
            tl_child_fail(z, "setrlimit");
    }
    if (chdir(z->box) != 0)
        tl_child_fail(z, "chdir");
#ifdef SYS_ioprio_set
    /* a fresh process's I/O priority, whatever a test set on the supervisor or a parked process */
    syscall(SYS_ioprio_set, 1, 0, 0);
#endif
    tl_mark(z->marks, 5);
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
        tl_child_fail(z, "dumpable");
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    return 0;
}

/* ---- What every test's process inherits from the supervisor, unchanged ---------------------
 *
 * tl_own_state(1) keeps the supervisor's resource limits, scheduling priority and policy and CPU
 * affinity; tl_own_state(0) says whether any of them differs now (a test can lower them with
 * prlimit, setpriority, sched_setscheduler(SCHED_IDLE) or sched_setaffinity:
 * _sv_procs._own_state, in one call instead of ~20). */

static struct rlimit tl_limits[RLIM_NLIMITS];
static int tl_priority;
static int tl_policy;
static cpu_set_t tl_cpus;

int tl_own_state(int save) {
    struct rlimit limits[RLIM_NLIMITS];
    memset(limits, 0, sizeof limits);
    for (int i = 0; i < RLIM_NLIMITS; i++)
        if (getrlimit(i, &limits[i]) != 0)
            limits[i].rlim_cur = limits[i].rlim_max = 0;
    errno = 0;
    int priority = getpriority(PRIO_PROCESS, 0);
    if (errno)
        priority = -1000;
    int policy = sched_getscheduler(0);
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
        CPU_ZERO(&cpus);
    if (save) {
        memcpy(tl_limits, limits, sizeof limits);
        tl_priority = priority;
        tl_policy = policy;
        tl_cpus = cpus;
        return 0;
    }
    return memcmp(tl_limits, limits, sizeof limits) != 0 || priority != tl_priority || policy != tl_policy
           || !CPU_EQUAL(&cpus, &tl_cpus);
}

/* ---- The next test's process, forked while this one runs ----------------------------------
 *
 * In the serve loop, once a test's process has started, tl_park() forks the next test's: the
 * interpreter's after-fork calls run in it on another CPU while this test runs, and it waits,
 * every signal blocked, holding no descriptor but the parking socket's end and the memory
 * cgroup's, for tl_release() to send it its test's descriptors. Nothing of a test can reach
 * it but what any process of the same user can do to another (no ptrace, no /proc/PID/mem: it
 * is not dumpable): a signal, which stays pending; SIGKILL or SIGSTOP, which the server sees
 * (waitid) before it releases it; its limits, priority, scheduling policy or CPU affinity,
 * which it compares with the server's (tl_own_state) once released, as the native fork server
 * does before each clone. Anything found and it answers 'N' and ends; the server then reaps it
 * and forks the test's process afresh, as without parking. Its answer 'Y' comes before it sets
 * itself up exactly as tl_zygote_fork's child does (the memory cgroup joined after the peak
 * reset, the descriptors on 0-2). The test runs in a fresh process all the same: forked from
 * the server's image, which runs no test's code, and never ran any other test. */

/* The parked process ended and reaped, if there is one, and its socket closed; 1 if there was. */
static int tl_unpark(struct tl_zygote *z) {
    if (z->parked <= 0)
        return 0;
    kill(z->parked, SIGKILL);
    while (waitpid(z->parked, NULL, 0) < 0 && errno == EINTR) {
    }
    z->parked = 0;
    close(z->park_fd);
    z->park_fd = -1;
    return 1;
}

/* In the server: fork the parked process, with a socket pair of its own (no message meant for
 * an earlier one can reach it). Its pid (kept in z->parked), -1 if none, or 0 in the parked
 * process once released, set up for its test. */
static int tl_park(struct tl_zygote *z) {
    int pair[2];
    if (!z->park || z->parked > 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
        return -1;
    z->before();
    pid_t pid = fork();
    int saved = errno;
    if (pid != 0) {
        z->after_parent();
        close(pair[1]);
        if (pid < 0) {
            close(pair[0]);
            errno = saved;
            return -1;
        }
        z->parked = pid;
        z->park_fd = pair[0];
        return pid;
    }
    int sock = pair[1];
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    z->after_child();
    int keep_lo = sock < z->procs_fd || z->procs_fd < 0 ? sock : z->procs_fd;
    int keep_hi = keep_lo == sock ? z->procs_fd : sock;
    /* nothing of the server's but the two (the running test's descriptors included) */
    if (keep_hi < 0) {
        syscall(SYS_close_range, 3U, (unsigned)keep_lo - 1, 0U);
        syscall(SYS_close_range, (unsigned)keep_lo + 1, ~0U, 0U);
    } else {
        syscall(SYS_close_range, 3U, (unsigned)keep_lo - 1, 0U);
        syscall(SYS_close_range, (unsigned)keep_lo + 1, (unsigned)keep_hi - 1, 0U);
        syscall(SYS_close_range, (unsigned)keep_hi + 1, ~0U, 0U);
    }
    char byte = 0;
    int fds[3];
    int nfds = 0, cut = 0;
    ssize_t got = tl_recv_fds(sock, &byte, fds, 3, &nfds, &cut);
    sigset_t pending;
    sigemptyset(&pending);
    int sound = got == 1 && byte == 'G' && nfds == 3 && !cut && sigpending(&pending) == 0 && !tl_own_state(0);
    for (int sig = 1; sig < NSIG && sound; sig++) /* (glibc's sigisemptyset misses real-time ones) */
        if (sigismember(&pending, sig) == 1)
            sound = 0;
    if (!sound) {
        tl_send_fds(sock, 'N', NULL, 0);
        _exit(0);
    }
    if (tl_send_fds(sock, 'Y', NULL, 0) != 1)
        _exit(0);
    return tl_child_set_up(z, fds[0], fds[1], fds[2]);
}

/* In the server: the parked process given its test's descriptors: its pid once it answered that
 * it is sound; 0 if there was one but it could not be released (it is reaped), -1 if none. */
static int tl_release(struct tl_zygote *z, int stdin_fd, int stdout_fd, int err_fd) {
    if (z->parked <= 0)
        return -1;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)z->parked, &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) != 0 || info.si_pid != 0) {
        tl_unpark(z); /* ended, stopped, or not a child of ours (cannot be) */
        return 0;
    }
    int fds[3] = {stdin_fd, stdout_fd, err_fd};
    char answer = 0;
    if (tl_send_fds(z->park_fd, 'G', fds, 3) == 1) {
        struct pollfd p = {z->park_fd, POLLIN, 0};
        int ready;
        while ((ready = poll(&p, 1, 2000)) < 0 && errno == EINTR) {
        }
        if (ready != 1 || recv(z->park_fd, &answer, 1, 0) != 1)
            answer = 0;
    }
    if (answer != 'Y') {
        tl_unpark(z);
        return 0;
    }
    int pid = z->parked;
    z->parked = 0;
    close(z->park_fd);
    z->park_fd = -1;
    return pid;
}

/* ---- The zygote's serve loop ---------------------------------------------------------------
 *
 * tl_serve() is the supervisor's loop for a zygote's plain fast tests, in C: it reads a request
 * (one byte and its descriptors), and while it is a test ('R', stdin and stdout) that tl_run()
 * forks and sees end by itself before the first scan with nothing left, it sends the report
 * (the JSON line the Python path sends for such a test, then the stderr tail), checks that the
 * test left nothing to clean (tl_dirty) and changed nothing the next tests inherit
 * (tl_own_state), and reads the next request. Anything else goes back to the Python loop at the
 * point reached (SV_*): a request of another kind, a test tl_run did not finish (its job and
 * descriptors kept), something to clean, the state changed, the client gone. */

#define SV_REQUEST 0  /* a request it does not run: message, fds, nfds */
#define SV_OUTCOME 1  /* an 'R' request run by tl_run, not TL_DONE: job->outcome, fds */
#define SV_DIRTY 2    /* a test's report sent: a scratch folder or the IPC namespace to empty */
#define SV_STATE 3    /* a test's report sent: the server's limits, priority or affinity changed */
#define SV_GONE 4     /* the client closed its end, or a read or write failed */
#define SV_CHARGE 5   /* (native) an 'R' request run whole, not reported: its fork server used more
                       * CPU than a clone costs (the Python path charges it and ends the server) */
#define SV_SEED 6     /* a test's report sent: the zygote served its share of tests (a new one,
                       * a new hash seed, serves the next: see _sv_procs.ZYGOTE_TESTS) */
#define SV_MAX_FDS 200

/* Keep in step with _Serve in _sv_fast.py (field for field). */
struct tl_serve {
    int sock;
    int has_memcg;
    const char *why;        /* native_why, as a JSON string */
    long long events_seen;  /* pids.events' max count already reported */
    /* out */
    int message, nfds;
    int fds[SV_MAX_FDS];
    long long served;
    /* a native fork server's tests (job->control its socket): its CPU time charged to the tests
     * so far (in and out), the tests it served (in and out), the most one test may be charged
     * (past it, after its first test: SV_CHARGE) */
    int native;
    long long charged_ns, served_native, charge_max_ns;
    long long served_max; /* in: the loop ends (SV_SEED) once it served this many (0: never) */
};

static int sv_send_all(int sock, const char *data, size_t size) {
    while (size) {
        ssize_t n = send(sock, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        size -= (size_t)n;
    }
    return 0;
}

/* The JSON line of a test tl_run finished and its tail; -1 if it cannot be sent. */
static int sv_report(struct tl_job *job, struct tl_serve *s, long long server_ns) {
    long long refused = 0;
    if (job->events_max >= 0) {
        refused = job->events_max - s->events_seen;
        s->events_seen = job->events_max;
    }
    long long cg_kb = 0;
    if (s->has_memcg && job->mem_peak > job->mem_base)
        cg_kb = (job->mem_peak - job->mem_base) >> 10;
    long long wall = job->ended_ns - job->started_ns;
    long long utime_ns = job->utime_us * 1000 + server_ns;
    long long cg_cpu = job->cg_cpu_ns > 0 ? job->cg_cpu_ns : 0;
    char line[1024];
    int n = snprintf(line, sizeof line,
                     "{\"pid\": %d, \"status\": %d, \"utime\": %lld.%09lld, \"stime\": %lld.%06lld, "
                     "\"server_s\": %lld.%09lld, \"maxrss_kb\": %lld, \"wall\": %lld.%09lld, \"killed\": null, "
                     "\"peak_tasks\": 1, \"sampled_kb\": 0, \"others\": 0, \"stderr_bytes\": %lld, \"files\": 0, "
                     "\"native\": %s, \"native_why\": %s, \"tail\": %lld, \"cg_kb\": %lld, \"cg_oom\": 0, "
                     "\"refused\": %lld, \"loop\": true, \"serve\": true, \"parked\": %s, \"cg_cpu\": %lld.%09lld}\n",
                     job->pid, job->status, utime_ns / 1000000000, utime_ns % 1000000000,
                     job->stime_us / 1000000, job->stime_us % 1000000, server_ns / 1000000000, server_ns % 1000000000,
                     job->maxrss_kb, wall / 1000000000, wall % 1000000000, job->err_size, s->native ? "true" : "false",
                     s->why, job->tail_len, cg_kb, refused, job->fresh ? "false" : "true",
                     cg_cpu / 1000000000, cg_cpu % 1000000000);
    if (n <= 0 || n >= (int)sizeof line)
        return -1;
    if (sv_send_all(s->sock, line, (size_t)n) != 0)
        return -1;
    return sv_send_all(s->sock, job->tail + job->tail_off, (size_t)job->tail_len);
}

static int sv_leave(struct tl_job *job, int code) {
    job->prefork = 0;
    if (job->zygote && job->outcome != TL_CHILD)
        tl_unpark(job->zygote); /* (the Python loop sees no process but the tests') */
    return code;
}

/* Whether the last test the serve loop ran ended there (by itself, before the first scan): a
 * test's process is parked for the next test only then (a slow test is handed to the Python
 * path, which ends the parked process; for a run of slow tests each would be forked in vain). */
static int sv_last_fast = 1;

int tl_serve(struct tl_job *job, struct tl_serve *s) {
    job->outcome = TL_DONE;
    for (;;) {
        char byte = 0;
        int cut = 0;
        ssize_t got = tl_recv_fds(s->sock, &byte, s->fds, SV_MAX_FDS, &s->nfds, &cut);
        if (got <= 0)
            return sv_leave(job, SV_GONE);
        s->message = (unsigned char)byte;
        /* a test: 'R' ('P', a plain run, is an exec: the Python path, never a clone) */
        if (byte != 'R' || s->nfds != 2 || cut)
            return sv_leave(job, SV_REQUEST);
        job->stdin_fd = s->fds[0];
        job->stdout_fd = s->fds[1];
        job->prefork = job->zygote != NULL && job->zygote->park && sv_last_fast;
        if (tl_run(job) != TL_DONE) {
            sv_last_fast = 0;
            return sv_leave(job, SV_OUTCOME);
        }
        sv_last_fast = 1;
        long long server_ns = 0; /* (native) the fork server's CPU since the last test: this clone */
        if (s->native) {
            if (job->server_cpu_ns < 0)
                return sv_leave(job, SV_CHARGE); /* (the Python path reads it otherwise) */
            if (job->server_cpu_ns > s->charged_ns)
                server_ns = job->server_cpu_ns - s->charged_ns;
            if (s->served_native >= 1 && server_ns > s->charge_max_ns)
                return sv_leave(job, SV_CHARGE); /* (its descriptors kept, as for SV_OUTCOME) */
            s->charged_ns += server_ns;
            s->served_native++;
        }
        close(s->fds[0]);
        close(s->fds[1]);
        s->nfds = 0;
        if (sv_report(job, s, server_ns) != 0)
            return sv_leave(job, SV_GONE);
        s->served++;
        if (tl_dirty(job))
            return sv_leave(job, SV_DIRTY);
        if (tl_own_state(0))
            return sv_leave(job, SV_STATE);
        if (s->served_max > 0 && s->served >= s->served_max)
            return sv_leave(job, SV_SEED);
    }
}
