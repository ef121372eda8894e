/* A hostile native candidate: the same attempts as hostile.py, for a program that is not Python.
   Reads four lines: home folder, secret file, the harness's pid, a port on 127.0.0.1. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void say(const char *name, int failed) {
    if (failed) printf("%s: blocked (%s)\n", name, strerror(errno));
    else printf("%s: DONE\n", name);
}

int main(void) {
    char home[4096], secret[4096], path[8300];
    int pid, port;
    if (scanf("%4095s %4095s %d %d", home, secret, &pid, &port) != 4) return 2;
    snprintf(path, sizeof path, "%s/hostile-c-was-here", home);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    say("write-home", fd < 0);
    fd = open(secret, O_RDONLY);
    say("read-home-secret", fd < 0);
    fd = open("/tmp/hostile-c-marker", O_WRONLY | O_CREAT, 0644);
    printf("create-private-tmp: %s\n", fd < 0 ? "blocked" : "ok");
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    say("connect-local-socket", s < 0 || connect(s, (struct sockaddr *)&addr, sizeof addr) != 0);
    say("signal-harness", kill(pid, SIGTERM) != 0);
    pid_t parent = getppid();
    int rc = kill(parent, SIGKILL);
    usleep(100000);
    errno = EPERM;
    say("kill-parent", rc != 0 || kill(parent, 0) == 0);
    printf("end\n");
    return 0;
}
