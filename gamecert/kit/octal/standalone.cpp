// An octal heap game's part of a test package's validator.cpp and check.cpp (`gamecert tests`;
// the shared reader is gamecert/engine/testpack/cpp_common.h), filled in with the game's code
// digits and bounds by OctalHeapGame.standalone_cpp, as its parse_input, parse_answer and judge:
// any winning move is right, judged from Grundy values computed here by the mex rule.
#include <set>

static const std::vector<int> CODE_DIGITS = {@DIGITS@};
static const long long MAX_HEAPS = @MAX_HEAPS@, MAX_HEAP = @MAX_HEAP@;

using Input = std::vector<long long>;
struct Answer {
    bool first = false;
    long long i = 0, a = 0, b = 0;  // the move after First: heap i left as heaps a >= b (0: none)
};

Input read_input(gc::Strict &in) {
    long long m = in.integer(1, MAX_HEAPS, "m, the number of heaps");
    in.eoln();
    Input heaps;
    for (long long k = 0; k < m; ++k) {
        if (k) in.space();
        heaps.push_back(in.integer(1, MAX_HEAP, "heap " + std::to_string(k + 1)));
    }
    in.eoln();
    in.eof();
    return heaps;
}

Answer read_answer(gc::Tokens &out, const Input &) {
    Answer answer;
    if (out.word({"First", "Second"}, "First or Second") == "Second") {
        out.finish();
        return answer;
    }
    answer.first = true;
    answer.i = out.integer(1, 2147483647LL, "the heap i of the move 'i a b'");
    long long x = out.integer(0, MAX_HEAP, "the heap a of the move 'i a b'");
    long long y = out.integer(0, MAX_HEAP, "the heap b of the move 'i a b'");
    out.finish();
    answer.a = x > y ? x : y;
    answer.b = x > y ? y : x;
    return answer;
}

static int digit(long long taken) { return taken < (long long)CODE_DIGITS.size() ? CODE_DIGITS[taken] : 0; }

static std::vector<int> grundy_values(long long top) {
    std::vector<int> g(top + 1, 0);
    for (long long n = 1; n <= top; ++n) {
        std::set<int> seen;
        for (long long j = 0; j < (long long)CODE_DIGITS.size() && j <= n; ++j) {
            int d = CODE_DIGITS[j];
            long long rest = n - j;
            if ((d & 1) && rest == 0 && j > 0) seen.insert(0);
            if ((d & 2) && rest > 0 && j > 0) seen.insert(g[rest]);
            if ((d & 4) && rest >= 2)
                for (long long a = 1; a <= rest / 2; ++a) seen.insert(g[a] ^ g[rest - a]);
        }
        int mex = 0;
        while (seen.count(mex)) ++mex;
        g[n] = mex;
    }
    return g;
}

std::string judge(const Input &heaps, const Answer &got, const Answer &) {
    long long top = 0;
    for (long long h : heaps) top = h > top ? h : top;
    std::vector<int> g = grundy_values(top);
    int total = 0;
    for (long long h : heaps) total ^= g[h];
    if (!got.first) return total == 0 ? "" : "wrong winner: the first player wins (Grundy xor " + std::to_string(total) + "); got Second";
    if (total == 0) return "wrong winner: the second player wins (Grundy xor 0); got First";
    if (got.i < 1 || got.i > (long long)heaps.size()) return "illegal move: there is no heap " + std::to_string(got.i);
    long long h = heaps[got.i - 1], taken = h - got.a - got.b;
    int parts = (got.a > 0) + (got.b > 0), bit = parts == 0 ? 1 : parts == 1 ? 2 : 4;
    std::string move = "heap " + std::to_string(got.i) + " (" + std::to_string(h) + ") -> " + std::to_string(got.a) + " " +
                       std::to_string(got.b);
    if (taken < 0 || (parts < 2 && taken == 0) || !(digit(taken) & bit)) return "illegal move: " + move;
    int after = total ^ g[h] ^ g[got.a] ^ g[got.b];
    if (after) return "losing move: " + move + " leaves Grundy xor " + std::to_string(after) + ", not 0";
    return "";
}
