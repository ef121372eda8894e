/* Creates the file named by its first argument as soon as it runs (to show it was not started). */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc > 1) close(open(argv[1], O_WRONLY | O_CREAT, 0644));
    return 0;
}
