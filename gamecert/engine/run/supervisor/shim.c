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
 *      a park request ('k', no descriptor) makes the clone ahead of its test: it waits, parked
 *      (gc_park), for 'G' and the four descriptors on a socket pair of its own, whose other end
 *      comes with the answer "P<pid>";
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
#include <sys/mman.h>
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

static int gc_inherited_changed_but(int skip) {
    for (int which = 0; which < RLIM_NLIMITS; which++) {
        if (which == skip)
            continue;
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

static int gc_inherited_changed(void) {
    return gc_inherited_changed_but(-1);
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

/* The reply to a park request: "P<pid>" with the parked process's end of its socket pair. */
static void gc_send_parked(long pid, int fd) {
    char text[32];
    text[0] = 'P';
    size_t len = 1 + gc_format_long(text + 1, pid);
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {text, len};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    while (sendmsg(GC_CONTROL_FD, &msg, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
}

/* The server's writable private mappings (its libraries' data, its heap and stack), noted once
 * from /proc/self/maps: the pages of these a test's process writes are copied on its first write
 * (a copy-on-write fault each, ~66 for a small C++ program); a parked process makes the copies
 * of those present in the server beforehand (gc_pretouch), beside the test before. */
#define GC_MAX_REGIONS 64
static unsigned long gc_regions[GC_MAX_REGIONS][2];
static int gc_nregions;

static void gc_note_regions(void) {
    static char maps[65536];
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t len = 0;
    ssize_t n;
    while (len < sizeof maps - 1 && (n = read(fd, maps + len, sizeof maps - 1 - len)) > 0)
        len += (size_t)n;
    close(fd);
    maps[len] = 0; /* (its pages given back below: none of them is a test's to copy) */
    for (char *line = maps; *line && gc_nregions < GC_MAX_REGIONS;) {
        char *end;
        unsigned long start = strtoul(line, &end, 16);
        unsigned long stop = *end == '-' ? strtoul(end + 1, &end, 16) : 0;
        if (stop > start && end[0] == ' ' && strncmp(end + 1, "rw-p", 4) == 0) {
            gc_regions[gc_nregions][0] = start;
            gc_regions[gc_nregions][1] = stop;
            gc_nregions++;
        }
        char *next = strchr(line, '\n');
        if (!next)
            break;
        line = next + 1;
    }
    madvise(maps, sizeof maps, MADV_DONTNEED);
}

/* In a parked process: every page of the noted mappings that is present and shared with the
 * server (/proc/self/pagemap: present, not exclusively mapped) written with its own byte, so
 * that it is this process's own copy before its test runs. */
static void gc_pretouch(void) {
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    long page = sysconf(_SC_PAGESIZE);
    uint64_t entries[512];
    for (int r = 0; r < gc_nregions; r++) {
        for (unsigned long at = gc_regions[r][0]; at < gc_regions[r][1];) {
            unsigned long count = (gc_regions[r][1] - at) / (unsigned long)page;
            if (count > 512)
                count = 512;
            ssize_t got = pread(fd, entries, count * sizeof entries[0], (off_t)(at / (unsigned long)page * 8));
            if (got <= 0)
                break;
            count = (unsigned long)got / sizeof entries[0];
            for (unsigned long i = 0; i < count; i++) {
                uint64_t e = entries[i];
                if ((e >> 63) & 1 && !((e >> 56) & 1)) { /* present, not exclusively mapped */
                    volatile char *byte = (volatile char *)(at + i * (unsigned long)page);
                    *byte = *byte;
                }
            }
            at += count * (unsigned long)page;
        }
    }
    close(fd);
}

/* A parked process (a park request's clone), until its test comes: every signal blocked, no
 * descriptor but 0-2 and its socket's end (not the server's socket: the supervisor sees the
 * server gone as before), not dumpable (as the server). It waits for 'G' and the test's four
 * descriptors (as a clone request's), then checks that nothing reached it meanwhile: no signal
 * pending, its limits, priority and policy the server's (a test can change them with prlimit,
 * setpriority, sched_setscheduler; SIGKILL and SIGSTOP the supervisor sees before it sends
 * 'G'). Sound, it returns with the descriptors (the test then runs in it); else it answers 'N'
 * and ends, and the supervisor runs the test in a fresh clone. It never answers 'Y': a test
 * that ran in it is seen by its end, with nothing on the socket (closed before the program
 * runs). */
static void gc_park(int sock, int *fds) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    if (sock > 3)
        syscall(SYS_close_range, 3U, (unsigned)sock - 1, 0U);
    syscall(SYS_close_range, (unsigned)sock + 1, ~0U, 0U);
    gc_pretouch();
    char byte = 0;
    int nfds = 0;
    ssize_t got = gc_recv(sock, &byte, 1, fds, &nfds);
    sigset_t pending;
    sigemptyset(&pending);
    /* (its CPU time limit, the test's, the supervisor set before sending 'G') */
    int sound = got == 1 && byte == 'G' && nfds == 4 && sigpending(&pending) == 0 &&
                !gc_inherited_changed_but(RLIMIT_CPU);
    for (int sig = 1; sig < NSIG && sound; sig++) /* (glibc's sigisemptyset misses real-time ones) */
        if (sigismember(&pending, sig) == 1)
            sound = 0;
    if (!sound) {
        while (send(sock, "N", 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
        }
        _exit(0);
    }
    close(sock);
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
        if (byte == 'k' && got == 1 && nfds == 0) { /* park: a clone that waits for its test */
            if (gc_inherited_changed())
                _exit(GC_TAMPERED_EXIT);
            int pair[2];
            if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
                gc_send_number('E', errno);
                continue;
            }
            long pid = syscall(SYS_clone, (unsigned long)(CLONE_PARENT | SIGCHLD), NULL, NULL, NULL, 0);
            if (pid == 0) {
                gc_own_identity();
                int test_fds[GC_MAX_FDS];
                gc_park(pair[1], test_fds);
                gc_become_test(test_fds, 4);
                return;
            }
            int err = errno;
            close(pair[1]);
            if (pid < 0)
                gc_send_number('E', err);
            else
                gc_send_parked(pid, pair[0]);
            close(pair[0]);
            continue;
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
    gc_note_regions();
    gc_send_text(GC_HELLO);
    gc_serve();
    errno = saved_errno;
}
