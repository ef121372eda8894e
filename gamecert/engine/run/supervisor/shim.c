/* gamecert's native fork server: a library preloaded (LD_PRELOAD) into a dynamically linked
 * candidate program.
 *
 * Its constructor runs before the program's own constructors and main (not before an
 * executable's pre-initialisation array, IFUNC resolvers or audit libraries: programs with those
 * are never started this way, see early_code in _sv_native.py).  If descriptor
 * GC_CONTROL_FD is a unix SOCK_SEQPACKET socket (put there by _sv_native.py), the process becomes
 * a fork server instead of running the program:
 *
 *   1. it removes LD_PRELOAD from the environment (the variable, and its bytes in the initial
 *      environment block, so /proc/self/environ no longer shows it), makes itself non-dumpable
 *      (its test children can neither ptrace it nor read its memory), checks that it can keep
 *      the C library's thread id right in a raw clone, notes its resource limits,
 *      scheduling priority and policy, and sends the hello "GCFS2";
 *   2. per request (a byte 'f' with 3 descriptors, or 'c' with 4, passed as SCM_RIGHTS: the
 *      test's stdin, stdout, stderr, and for 'c' a folder to work in; "c<seconds>": also the
 *      test's CPU time limit, which its process sets before the program runs) it checks that
 *      its limits, priority and policy are still those it noted, then creates the test's
 *      process with clone(CLONE_PARENT): a child of the fork server's parent, which waits for it
 *      with wait4 and gets its status and resource usage; it answers "P<pid>" (or "E<errno>");
 *   3. at end of file on the socket it exits with status 0; if its limits, priority or policy
 *      changed (a test of the same user can lower them with prlimit, setpriority and
 *      sched_setscheduler, SCHED_IDLE needing no privilege; every later clone would inherit
 *      them) it exits with GC_TAMPERED_EXIT without answering, and the supervisor starts a
 *      new server.
 *
 * The test's process puts the descriptors on 0, 1, 2, closes every other one, starts a session
 * of its own, becomes dumpable again, gets back the signal mask the program was started with
 * (its signal dispositions are those too: the server leaves them as they were), and returns
 * from the constructor: the program's own constructors and main then run as in a fresh process.
 * If the descriptor is not such a socket the constructor does nothing and the program runs
 * normally.
 *
 * Only raw system calls and async-signal-safe functions are used (no stdio, no malloc).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define GC_CONTROL_FD 1021           /* also CONTROL_FD in _sv_native.py */
#define GC_HELLO "GCFS2"             /* also HELLO in _sv_native.py */
#define GC_TAMPERED_EXIT 3           /* the server's limits, priority or policy changed: also in _sv_native.py */
#define GC_SETUP_FAILED 125          /* a test process that could not be set up */
#define GC_TID_SCAN_BYTES 1024       /* how far into the thread descriptor to look for its tid */
#define GC_MAX_TID_SLOTS 16
#define GC_MAX_FDS 4

extern char **environ;

struct gc_robust_head { void *list; long offset; void *pending; };

static sigset_t gc_mask;                   /* the signal mask the program was started with */
static cpu_set_t gc_cpus;                  /* the CPUs the program was started on */
static int gc_cpus_saved;
static long gc_tid_offset = -1;            /* offset of the C library's cached thread id */
static void *gc_robust_head;               /* this thread's robust futex list, as registered */
static size_t gc_robust_len;
static struct rlimit gc_limits[RLIM_NLIMITS]; /* what every clone inherits, as the server started */
static int gc_limits_ok[RLIM_NLIMITS];
static int gc_nice;
static int gc_policy;                      /* its scheduling policy (and reset-on-fork flag) */

static void gc_write_all(int fd, const char *text, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text += n;
        len -= (size_t)n;
    }
}

static size_t gc_format_long(char *out, long value) {
    char digits[24];
    size_t n = 0, len = 0;
    unsigned long v = value < 0 ? (unsigned long)(-(value + 1)) + 1 : (unsigned long)value;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (value < 0)
        out[len++] = '-';
    while (n)
        out[len++] = digits[--n];
    return len;
}

/* A message on the socket: a letter and a number ("P1234", "E22"). */
static void gc_send_number(char letter, long value) {
    char msg[32];
    msg[0] = letter;
    size_t len = 1 + gc_format_long(msg + 1, value);
    while (send(GC_CONTROL_FD, msg, len, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
}

static void gc_send_text(const char *text) {
    while (send(GC_CONTROL_FD, text, strlen(text), MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
}

/* A test process that cannot be set up says why on its stderr and ends. */
static void gc_child_fail(const char *what) {
    char msg[160];
    size_t len = 0;
    const char *head = "gamecert: native fork server: ";
    size_t n = strlen(head);
    memcpy(msg, head, n);
    len += n;
    n = strlen(what);
    if (n > 80)
        n = 80;
    memcpy(msg + len, what, n);
    len += n;
    msg[len++] = ' ';
    msg[len++] = 'e';
    msg[len++] = '=';
    len += gc_format_long(msg + len, errno);
    msg[len++] = '\n';
    gc_write_all(2, msg, len);
    _exit(GC_SETUP_FAILED);
}

static int gc_is_control_socket(void) {
    struct stat st;
    int type = 0, domain = 0;
    socklen_t len = sizeof type;
    if (fstat(GC_CONTROL_FD, &st) != 0 || !S_ISSOCK(st.st_mode))
        return 0;
    if (getsockopt(GC_CONTROL_FD, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_SEQPACKET)
        return 0;
    len = sizeof domain;
    if (getsockopt(GC_CONTROL_FD, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_UNIX)
        return 0;
    return 1;
}

/* Remove the variable `name` from environ and blank its bytes where they lie (the initial block
 * that /proc/self/environ shows; _sv_native.py puts LD_BIND_NOW and LD_PRELOAD last there, so
 * nothing after them moves and only NUL bytes are left at the end of the block). */
static void gc_scrub(const char *name) {
    size_t name_len = strlen(name);
    for (;;) {
        char *found = NULL;
        for (char **e = environ; e && *e; e++) {
            if (strncmp(*e, name, name_len) == 0 && (*e)[name_len] == '=') {
                found = *e;
                break;
            }
        }
        if (!found)
            break;
        size_t len = strlen(found);
        unsetenv(name); /* takes every entry of that name out of the array */
        memset(found, 0, len);
    }
}

/* LD_PRELOAD (this library) and LD_BIND_NOW: the server's image is relocated once, every symbol
 * bound at load time, so that no test's process repeats the lazy binding of the symbols it
 * calls (~0.15 ms of a small C++ program's run); neither variable is left for the program. */
static void gc_scrub_preload(void) {
    gc_scrub("LD_PRELOAD");
    gc_scrub("LD_BIND_NOW");
}

/* Where the C library keeps this thread's id (glibc's fork writes it in the child; a raw
 * clone must too).  Candidates are the words of the thread descriptor that hold our tid; a
 * child made by the library's own fork() tells which of them the library updated. */
static int gc_find_tid_offset(void) {
    char *self = (char *)pthread_self();
    pid_t tid = (pid_t)syscall(SYS_gettid);
    long slots[GC_MAX_TID_SLOTS];
    int count = 0;
    for (long off = 0; off + (long)sizeof(pid_t) <= GC_TID_SCAN_BYTES && count < GC_MAX_TID_SLOTS;
         off += (long)sizeof(pid_t)) {
        pid_t value;
        memcpy(&value, self + off, sizeof value);
        if (value == tid)
            slots[count++] = off;
    }
    if (count == 0)
        return -1;
    struct sigaction dfl, old;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &dfl, &old); /* an ignored SIGCHLD would reap the probe by itself */
    pid_t probe = fork();
    if (probe == 0) {
        pid_t mine = (pid_t)syscall(SYS_gettid);
        for (int i = 0; i < count; i++) {
            pid_t value;
            memcpy(&value, self + slots[i], sizeof value);
            if (value == mine)
                _exit(i);
        }
        _exit(255);
    }
    int status = 0, found = -1;
    if (probe > 0) {
        while (waitpid(probe, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) < count)
            found = WEXITSTATUS(status);
    }
    sigaction(SIGCHLD, &old, NULL);
    if (found < 0)
        return -1;
    gc_tid_offset = slots[found];
    return 0;
}

/* The resource limits, priority and scheduling policy the clones inherit, noted once
 * (gc_note_inherited) and compared before every clone (gc_inherited_changed).  Read here, by the server itself, the 16
 * limits cost ~16 us a test; the supervisor asking for them (prlimit on another process, from
 * Python) cost it ~35 us a test.  The check comes after the previous test ended (the supervisor
 * sends the next request only then) and before the clone that would inherit a change. */
static int gc_read_nice(int *nice) {
    errno = 0;
    int value = getpriority(PRIO_PROCESS, 0);
    if (value == -1 && errno != 0)
        return -1;
    *nice = value;
    return 0;
}

static void gc_note_inherited(void) {
    for (int which = 0; which < RLIM_NLIMITS; which++)
        gc_limits_ok[which] = getrlimit(which, &gc_limits[which]) == 0;
    if (gc_read_nice(&gc_nice) != 0)
        gc_nice = 0;
    gc_policy = sched_getscheduler(0);
}

static int gc_inherited_changed(void) {
    for (int which = 0; which < RLIM_NLIMITS; which++) {
        struct rlimit now;
        int ok = getrlimit(which, &now) == 0;
        if (ok != gc_limits_ok[which])
            return 1;
        if (ok && (now.rlim_cur != gc_limits[which].rlim_cur || now.rlim_max != gc_limits[which].rlim_max))
            return 1;
    }
    int nice;
    return gc_read_nice(&nice) != 0 || nice != gc_nice || sched_getscheduler(0) != gc_policy;
}


static void gc_save_signals(void) {
    sigprocmask(SIG_SETMASK, NULL, &gc_mask);
}

static void gc_close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0)
        return;
#endif
    struct rlimit rl;
    long top = 65536;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < top)
        top = (long)rl.rlim_cur;
    if (top <= GC_CONTROL_FD)
        top = GC_CONTROL_FD + 1;
    for (long fd = first; fd < top; fd++)
        close((int)fd);
}

/* In a clone, first thing: the C library's thread id and the robust futex list made its own. */
static void gc_own_identity(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    memcpy((char *)pthread_self() + gc_tid_offset, &tid, sizeof tid);
    if (getpid() != (pid_t)syscall(SYS_getpid))
        gc_child_fail("the C library caches a stale pid");
    if (gc_robust_head)
        syscall(SYS_set_robust_list, gc_robust_head, gc_robust_len);
}

/* In the test's process, once its identity is its own (gc_own_identity): make it a fresh
 * process, then return. */
static void gc_become_test(const int *fds, int nfds) {
    for (int i = 0; i < 3; i++)
        if (dup2(fds[i], i) < 0)
            gc_child_fail("dup2");
    if (nfds == 4 && fchdir(fds[3]) != 0)
        gc_child_fail("fchdir");
    gc_close_from(3);
    if (setsid() < 0)
        gc_child_fail("setsid");
#ifdef SYS_ioprio_set
    /* a fresh process's I/O priority, whatever a test set on the fork server (same user) */
    syscall(SYS_ioprio_set, 1, 0, 0);
#endif
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    /* The dispositions are those the program started with: the server changes only SIGCHLD,
     * for its probe, and puts it back before serving (gc_find_tid_offset); restoring all 64
     * here would cost ~25 us per test for nothing. */
    sigprocmask(SIG_SETMASK, &gc_mask, NULL);
    /* the supervisor may keep the server on its own CPU (a clone request and its reply are then
     * no wake-up of another CPU); the test's process gets back the CPUs the program started with */
    if (gc_cpus_saved)
        sched_setaffinity(0, sizeof gc_cpus, &gc_cpus);
}

static void gc_close_fds(const int *fds, int nfds) {
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
}

/* One message on `sock` (recvmsg, descriptors close-on-exec): up to `size` bytes into data, its
 * descriptors (at most GC_MAX_FDS, the rest closed) into fds; the bytes read, -2 if descriptors
 * were cut off. */
static ssize_t gc_recv(int sock, char *data, size_t size, int *fds, int *nfds) {
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * GC_MAX_FDS)];
    } control;
    struct iovec iov = {data, size};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    ssize_t got;
    while ((got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    *nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); got > 0 && c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        int n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (*nfds < GC_MAX_FDS)
                fds[(*nfds)++] = fd;
            else
                close(fd);
        }
    }
    return got > 0 && (msg.msg_flags & MSG_CTRUNC) ? -2 : got;
}

/* The server loop; returns only in a test's process. */
static void gc_serve(void) {
    for (;;) {
        char text[24];
        int fds[GC_MAX_FDS], nfds = 0;
        ssize_t got = gc_recv(GC_CONTROL_FD, text, sizeof text - 1, fds, &nfds);
        if (got == 0 || got == -1)
            _exit(got == 0 ? 0 : 1); /* end of file: the supervisor is done with us */
        char byte = text[0];
        /* "c<seconds>": the test's CPU time limit, which its process sets first (soft; hard one
         * more), so that the program never sees another; "c" alone leaves the server's */
        long cpu_soft = 0;
        if (got > 1) {
            text[got] = 0;
            char *end;
            cpu_soft = strtol(text + 1, &end, 10);
            if (*end != 0 || cpu_soft <= 0 || byte != 'c')
                got = -2; /* (refused below) */
        }
        int wanted = byte == 'f' ? 3 : byte == 'c' ? 4 : -1;
        if (wanted < 0 || nfds != wanted || got < 0) {
            gc_close_fds(fds, nfds);
            gc_send_number('E', EINVAL);
            continue;
        }
        if (gc_inherited_changed())
            _exit(GC_TAMPERED_EXIT); /* no answer: the supervisor sees the end of file */
        long pid = syscall(SYS_clone, (unsigned long)(CLONE_PARENT | SIGCHLD), NULL, NULL, NULL, 0);
        if (pid == 0) {
            gc_own_identity();
            struct rlimit cpu = {(rlim_t)cpu_soft, (rlim_t)cpu_soft + 1};
            if (cpu_soft > 0 && setrlimit(RLIMIT_CPU, &cpu) != 0)
                gc_child_fail("setrlimit");
            gc_become_test(fds, nfds);
            return;
        }
        int err = errno;
        gc_close_fds(fds, nfds);
        if (pid < 0)
            gc_send_number('E', err);
        else
            gc_send_number('P', pid);
    }
}

__attribute__((constructor)) static void gc_shim_init(void) {
    int saved_errno = errno;
    if (!gc_is_control_socket()) {
        errno = saved_errno;
        return;
    }
    gc_save_signals();
    gc_cpus_saved = sched_getaffinity(0, sizeof gc_cpus, &gc_cpus) == 0;
    gc_scrub_preload();
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* descriptors 0-2 must be taken, so that a received descriptor never lands on one of them */
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) < 0)
            _exit(1);
    if (gc_find_tid_offset() != 0) {
        gc_send_text("Nthe C library's thread id could not be located");
        _exit(0);
    }
    if (syscall(SYS_get_robust_list, 0, &gc_robust_head, &gc_robust_len) != 0)
        gc_robust_head = NULL;
    gc_note_inherited();
    gc_send_text(GC_HELLO);
    gc_serve();
    errno = saved_errno;
}
