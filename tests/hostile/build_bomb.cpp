// A compile bomb: a constant expression that grows a std::vector without end (C++20 allows
// allocation at compile time). g++ evaluates it in its own memory, a tree node per element,
// until a cap stops it; -fconstexpr-ops-limit (2^33 operations) is far beyond any memory cap.
#include <vector>
constexpr long grow() {
    std::vector<long> v;
    for (long i = 0; i < (1L << 40); ++i) v.push_back(i);
    return v.back();
}
static_assert(grow() > 0);
int main() {}
