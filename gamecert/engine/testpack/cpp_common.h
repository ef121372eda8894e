// The shared part of a package's validator.cpp and check.cpp, written by `gamecert tests`.
// Plain C++17, no testlib.h. It follows testlib's protocol: a validator reads standard input
// strictly (every space, every end of line "\n", the end of file) and exits 3 with "FAIL" and the
// line and column of the first fault; a checker is run as `check INPUT OUTPUT ANSWER`, reads the
// output as tokens separated by space, tab, CR and LF, and exits 0 OK, 1 WA, 2 PE, 3 FAIL with
// a one-line comment on standard error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gc {

enum Code { OK = 0, WA = 1, PE = 2, FAIL = 3 };

[[noreturn]] inline void quit(int code, const std::string &message) {
    static const char *head[] = {"ok ", "wrong answer ", "wrong output format ", "FAIL "};
    std::string line = message.substr(0, 400);
    for (char &c : line)
        if (c == '\n' || c == '\r') c = ' ';
    std::fprintf(stderr, "%s%s\n", head[code], line.c_str());
    std::exit(code);
}

inline std::string read_stream(FILE *f) {
    std::string text;
    char buffer[1 << 16];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, got);
    return text;
}

inline std::string read_file(const char *path) {
    FILE *f = std::fopen(path, "rb");
    if (!f) quit(FAIL, std::string("cannot open ") + path);
    std::string text = read_stream(f);
    std::fclose(f);
    return text;
}

inline std::string shown(const std::string &token) {
    std::string cut = token.size() <= 24 ? token : token.substr(0, 24) + "...";
    return "'" + cut + "'";
}

// ---- a validator's view of the input: strict, character by character ----------------------

struct Fault {
    std::string message;
};

struct Strict {
    std::string text;
    size_t pos = 0;
    long line = 1, column = 1;

    explicit Strict(std::string t) : text(std::move(t)) {}

    [[noreturn]] void fail(const std::string &why) const {
        throw Fault{"line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + why};
    }
    bool at_end() const { return pos >= text.size(); }
    int peek() const { return at_end() ? -1 : (unsigned char)text[pos]; }
    void advance() {
        if (text[pos] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        ++pos;
    }
    static bool blank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
    static std::string name(int c) {
        if (c < 0) return "the end of the file";
        if (c == ' ') return "a space";
        if (c == '\n') return "an end of line";
        if (c == '\r') return "a carriage return";
        if (c == '\t') return "a tab";
        if (c < 32 || c >= 127) return "byte " + std::to_string(c);
        return std::string("'") + char(c) + "'";
    }
    // a token: the characters up to the next space, tab, CR, LF or the end (none: a fault)
    std::string token(const std::string &what) {
        if (at_end() || blank(peek())) fail("expected " + what + ", got " + name(peek()));
        size_t start = pos;
        while (!at_end() && !blank(peek())) advance();
        return text.substr(start, pos - start);
    }
    // an integer written plainly (no sign, no leading zero), in low..high
    long long integer(long long low, long long high, const std::string &what) {
        long start_col = column;
        if (at_end() || peek() < '0' || peek() > '9') fail("expected " + what + " (an integer), got " + name(peek()));
        if (peek() == '0' && pos + 1 < text.size() && text[pos + 1] >= '0' && text[pos + 1] <= '9')
            fail(what + ": a leading zero");
        long long value = 0;
        while (!at_end() && peek() >= '0' && peek() <= '9') {
            if (value <= high) value = value * 10 + (peek() - '0');
            advance();
        }
        if (!at_end() && !blank(peek())) fail(what + ": " + name(peek()) + " is not a digit");
        if (value < low || value > high) {
            column = start_col;
            fail(what + " must be between " + std::to_string(low) + " and " + std::to_string(high));
        }
        return value;
    }
    // a word of min_len..max_len characters, each in alphabet
    std::string word(const std::string &alphabet, size_t min_len, size_t max_len, const std::string &what) {
        long start_col = column;
        size_t start = pos;
        if (at_end() || blank(peek())) fail("expected " + what + ", got " + name(peek()));
        while (!at_end() && !blank(peek())) {
            if (alphabet.find(char(peek())) == std::string::npos) fail("character " + name(peek()) + " is not allowed in " + what);
            advance();
        }
        size_t length = pos - start;
        if (length < min_len || length > max_len) {
            column = start_col;
            fail(what + " must have " + std::to_string(min_len) + " to " + std::to_string(max_len) + " characters, got " +
                 std::to_string(length));
        }
        return text.substr(start, length);
    }
    void space() {
        if (peek() != ' ') fail("expected a space, got " + name(peek()));
        advance();
    }
    void eoln() {
        if (peek() != '\n') fail("expected an end of line, got " + name(peek()));
        advance();
    }
    void eof() {
        if (!at_end()) fail("expected the end of the file, got " + name(peek()));
    }
};

// ---- a checker's view of an output: tokens, read as gamecert's judge and testlib read them ------

struct Verdict {
    int code;
    std::string message;
};

struct Tokens {
    std::vector<std::string> items;
    size_t position = 0;

    explicit Tokens(const std::string &text) {
        std::string current;
        for (char c : text) {
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                if (!current.empty()) items.push_back(current), current.clear();
            } else {
                current += c;
            }
        }
        if (!current.empty()) items.push_back(current);
    }
    bool at_end() const { return position >= items.size(); }
    const std::string &next(const std::string &what) {
        if (at_end()) throw Verdict{WA, "unexpected end of output: expected " + what};
        return items[position++];
    }
    std::string word(const std::vector<std::string> &choices, const std::string &what) {
        const std::string &token = next(what);
        for (const std::string &c : choices)
            if (token == c) return token;
        throw Verdict{WA, "token " + std::to_string(position) + ": expected " + what + ", got " + shown(token)};
    }
    static std::string malformed(const std::string &token) {
        if (token.size() > 20) return "longer than 20 characters";
        bool negative = token.size() > 1 && token[0] == '-';
        std::string digits = negative ? token.substr(1) : token;
        for (char ch : digits)
            if (ch < '0' || ch > '9') return ch == '+' ? "a '+' sign is not allowed" : std::string("'") + ch + "' is not a digit";
        if (digits[0] == '0' && (digits.size() > 1 || negative)) return digits == "0" ? "minus zero" : "leading zero";
        return "";
    }
    // an integer as testlib's readInt (bits 32) or readLong (bits 64) reads it: malformed or out of
    // the type's range PE, outside low..high WA
    long long integer(long long low, long long high, const std::string &what, int bits = 32) {
        const std::string &token = next(what);
        std::string why = malformed(token);
        std::string at = "token " + std::to_string(position) + " (" + what + "): ";
        if (!why.empty()) throw Verdict{PE, at + "expected an integer, got " + shown(token) + " (" + why + ")"};
        bool negative = token[0] == '-';
        __int128 value = 0;
        for (size_t k = negative; k < token.size(); ++k) value = value * 10 + (token[k] - '0');
        if (negative) value = -value;
        __int128 lo = bits == 32 ? -((__int128)1 << 31) : -((__int128)1 << 63);
        __int128 hi = bits == 32 ? ((__int128)1 << 31) - 1 : ((__int128)1 << 63) - 1;
        if (value < lo || value > hi) throw Verdict{PE, at + shown(token) + " is out of the " + std::to_string(bits) + "-bit range"};
        if (value < low || value > high)
            throw Verdict{WA, at + token + " is outside " + std::to_string(low) + ".." + std::to_string(high)};
        return (long long)value;
    }
    void finish() {
        if (!at_end()) throw Verdict{WA, "extra tokens after the answer, the first " + shown(items[position])};
    }
};

}  // namespace gc
