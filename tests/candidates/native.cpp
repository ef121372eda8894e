// Native candidate with several faults, chosen by argv[1]:
//   segv     - reads the input, then dereferences a null pointer (RE, SIGSEGV)
//   deep     - reads n, recurses n deep with a sizeable frame; 10^6 needs ~100 MB of stack,
//              fine when the stack limit is raised as judges do, a crash under 8 MB (RE)
//   badalloc - allocates until std::bad_alloc ends it (MLE)
#include <cstdio>
#include <cstring>
#include <vector>

static long long depth(int n) {
    volatile char frame[64];
    frame[0] = static_cast<char>(n & 1);
    if (n == 0) return 0;
    long long below = depth(n - 1);  // work after the call: no tail call
    return below + frame[0];
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "deep";
    long long n = 0;
    if (std::scanf("%lld", &n) != 1) n = 0;
    if (std::strcmp(mode, "segv") == 0) {
        volatile int* p = nullptr;
        *p = 42;
    } else if (std::strcmp(mode, "badalloc") == 0) {
        std::vector<std::vector<char>> hoard;
        for (;;) hoard.emplace_back(8 << 20, 'x');
    } else {
        std::printf("%lld\n", depth(static_cast<int>(n)));
    }
    return 0;
}
