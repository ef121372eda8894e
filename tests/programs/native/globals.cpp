// Global state that must not carry over between tests: a static object whose constructor
// prints and counts, a global counter, a heap block, a function-local static.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>
#include <sys/syscall.h>

static int constructed = 0;
int counter = 0;

struct Banner {
    Banner() { ++constructed; std::cout << "ctor " << constructed << "\n"; }
    ~Banner() { std::cout << "dtor " << counter << "\n"; }
};
static Banner banner;

static int &calls() { static int n = 0; return n; }

int main() {
    long long sum = 0, x;
    static char *heap = nullptr;
    if (!heap) heap = (char *)std::malloc(1 << 20);
    while (std::cin >> x) { sum += x; ++counter; ++calls(); heap[counter % (1 << 20)] = 1; }
    std::cout << "sum " << sum << " counter " << counter << " calls " << calls()
              << " constructed " << constructed << "\n";
    std::cout << "pid-ok " << (getpid() == (pid_t)syscall(SYS_getpid))
              << " tid-is-pid " << ((pid_t)syscall(SYS_gettid) == getpid()) << "\n";
    std::cerr << "stderr line " << counter << "\n";
    return (int)(sum % 7);
}
