// The shared part of a package's validator.cpp and check.cpp, written by `gamecert tests`.
//
// Written against testlib's API (registerTestlibCmd, registerValidation, inf/ouf/ans, readInt,
// readLong, readToken, readSpace, readEoln, readEof, seekEof, quitf with _ok/_wa/_pe/_fail).
// Where the judge has its own testlib.h beside the file or on its include path (Polygon,
// Codeforces, ejudge, DOMjudge and Kattis after p2d's conversion), `__has_include` takes it, so the
// judge's testlib.h decides the calling convention, the exit codes and the result file. Where there
// is none (DMOJ, by hand), gamecert's own small reader below stands in: the same subset of the API,
// testlib's command line (`check [--testset T] [--group G] INPUT OUTPUT ANSWER [RESULT [-appes]]`),
// its exit codes (0 OK, 1 WA, 2 PE, 3 FAIL), its verdicts (a missing or an extra token in the
// output is PE; an integer not written plainly PE, out of its range WA; a fault in the input or the
// answer file FAIL), its message on standard error, and the same message on standard output where
// DMOJ reads it; and the Kattis/DOMjudge convention (`check INPUT ANSWER FEEDBACK_DIR < OUTPUT`,
// exit 42 accepted, 43 rejected, judgemessage.txt) when the third argument is a directory.
// Compile with -DGAMECERT_NO_TESTLIB to take gamecert's reader even where testlib.h is found;
// with GAMECERT_KATTIS defined (a Kattis package's input validator) the validator exits as Kattis'
// input validators do: 42 valid, 43 invalid.
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if !defined(GAMECERT_NO_TESTLIB) && !defined(GAMECERT_KATTIS) && defined(__has_include)
#if __has_include("testlib.h")
#include "testlib.h"
#define GAMECERT_TESTLIB 1
#endif
#endif

#ifndef GAMECERT_TESTLIB
#include <sys/stat.h>

// ---- gamecert's small reader: the part of testlib's API these files use ----------------------
enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3, _dirt = 4, _unexpected_eof = 8 };

namespace gcl {
enum Kind { VALIDATED, INPUT, OUTPUT, ANSWER };
struct Run {
    bool checker = false, kattis = false, appes = false, kattis_input = false;
    std::string result_file, feedback_dir, testset = "tests", group;
};
inline Run &run() {
    static Run r;
    return r;
}
inline std::string printable(const std::string &message) {
    std::string line = message.substr(0, 1000);
    for (char &c : line)
        if ((unsigned char)c < 32) c = ' ';
    return line;
}
inline std::string xml_safe(const std::string &text) {
    std::string out;
    for (char c : text) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}
[[noreturn]] void finish(TResult result, const std::string &message);
}  // namespace gcl

struct InStream {
    std::string text, name;
    size_t pos = 0;
    long line = 1, column = 1;
    gcl::Kind kind = gcl::INPUT;
    bool opened = false;

    void open(const std::string &data, const std::string &stream_name, gcl::Kind stream_kind) {
        text = data, name = stream_name, kind = stream_kind, opened = true;
    }
    bool strict() const { return kind == gcl::VALIDATED; }
    // a fault of this stream: a verdict on the output, FAIL on the input or the answer file
    [[noreturn]] void quit(TResult result, const std::string &message) {
        if (kind == gcl::OUTPUT || result == _fail) gcl::finish(result, message);
        if (kind == gcl::VALIDATED)
            gcl::finish(_fail, "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message);
        gcl::finish(_fail, message + " (" + name + ")");
    }
    [[noreturn]] void quits(TResult result, const std::string &message) { quit(result, message); }
    [[noreturn]] void quitf(TResult result, const char *format, ...) {
        char buffer[2048];
        va_list args;
        va_start(args, format);
        std::vsnprintf(buffer, sizeof buffer, format, args);
        va_end(args);
        quit(result, buffer);
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
    static std::string shown(int c) {
        if (c < 0) return "the end of the file";
        if (c == ' ') return "a space";
        if (c == '\n') return "an end of line";
        if (c == '\r') return "a carriage return";
        if (c == '\t') return "a tab";
        if (c < 32 || c >= 127) return "byte " + std::to_string(c);
        return std::string("'") + char(c) + "'";
    }
    void skip_blanks() {
        while (!at_end() && blank(peek())) advance();
    }
    std::string readWord() {
        if (!strict()) skip_blanks();
        if (at_end()) quit(_unexpected_eof, "Unexpected end of file - token expected");
        if (blank(peek())) quit(_pe, "Unexpected white-space - token expected, got " + shown(peek()));
        size_t start = pos;
        while (!at_end() && !blank(peek())) advance();
        return text.substr(start, pos - start);
    }
    std::string readToken() { return readWord(); }
    // testlib's reading of an integer: at most 20 characters, an optional '-', digits, no leading
    // zero, no "-0", in the type's range (else PE), then in minv..maxv (else WA)
    long long readLong(long long minv, long long maxv, const std::string &variable = "") {
        long start_column = column;
        std::string token = readWord();
        bool minus = token.size() > 1 && token[0] == '-';
        bool plain = token.size() <= 20;
        size_t zeroes = 0;
        bool leading = true;
        for (size_t k = minus; k < token.size() && plain; ++k) {
            if (token[k] < '0' || token[k] > '9') plain = false;
            if (token[k] == '0' && leading) ++zeroes;
            else leading = false;
        }
        __int128 value = 0;
        for (size_t k = minus; plain && k < token.size(); ++k) value = value * 10 + (token[k] - '0');
        if (minus) value = -value;
        if (plain && ((zeroes > 0 && (value != 0 || minus)) || zeroes > 1)) plain = false;
        if (plain && (value < INT64_MIN || value > INT64_MAX)) plain = false;
        if (!plain) {
            column = start_column;
            std::string cut = token.size() <= 24 ? token : token.substr(0, 24) + "...";
            quit(_pe, "Expected integer, but \"" + cut + "\" found" + (variable.empty() ? "" : " (" + variable + ")"));
        }
        if (value < minv || value > maxv) {
            column = start_column;
            quit(_wa, "Integer parameter [name=" + variable + "] equals to " + token + ", violates the range [" +
                          std::to_string(minv) + ", " + std::to_string(maxv) + "]");
        }
        return (long long)value;
    }
    int readInt(int minv, int maxv, const std::string &variable = "") {
        long start_column = column;
        long long value = readLong(INT64_MIN, INT64_MAX, variable);
        if (value < INT32_MIN || value > INT32_MAX) {
            column = start_column;
            quit(_pe, "Expected int32, but \"" + std::to_string(value) + "\" found" +
                          (variable.empty() ? "" : " (" + variable + ")"));
        }
        if (value < minv || value > maxv) {
            column = start_column;
            quit(_wa, "Integer parameter [name=" + variable + "] equals to " + std::to_string(value) +
                          ", violates the range [" + std::to_string(minv) + ", " + std::to_string(maxv) + "]");
        }
        return (int)value;
    }
    char readSpace() {
        if (peek() != ' ') quit(_pe, "expected a space, got " + shown(peek()));
        advance();
        return ' ';
    }
    void readEoln() {
        if (!strict() && peek() == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') advance();
        if (!strict() && at_end()) return;
        if (peek() != '\n') quit(_pe, "expected an end of line, got " + shown(peek()));
        advance();
    }
    bool eof() const { return at_end(); }
    bool seekEof() {
        skip_blanks();
        return at_end();
    }
    void readEof() {
        if (!strict()) skip_blanks();
        if (!at_end()) quit(_pe, "expected the end of the file, got " + shown(peek()));
    }
};

InStream inf, ouf, ans;

[[noreturn]] inline void quitf(TResult result, const char *format, ...) {
    char buffer[2048];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    gcl::finish(result, buffer);
}

namespace gcl {
inline std::string read_stream(FILE *f) {
    std::string text;
    char buffer[1 << 16];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, got);
    return text;
}
inline std::string read_file(const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) finish(_fail, "cannot open " + path);
    std::string text = read_stream(f);
    std::fclose(f);
    return text;
}
inline bool is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
// --testset and --group taken out (testlib's checkers and validators accept both); the rest
inline std::vector<std::string> positional(int argc, char **argv) {
    std::vector<std::string> rest;
    for (int k = 1; k < argc; ++k) {
        std::string arg = argv[k];
        if (arg == "--testset" || arg == "--group") {
            if (k + 1 >= argc || (arg == "--testset" && !argv[k + 1][0]))
                finish(_fail, "Expected a value after " + arg + " command line parameter");
            (arg == "--testset" ? run().testset : run().group) = argv[++k];
        } else {
            rest.push_back(arg);
        }
    }
    return rest;
}
[[noreturn]] inline void finish(TResult result, const std::string &message) {
    Run &r = run();
    if (result == _ok && r.checker && ouf.opened && !ouf.seekEof())
        result = _dirt;
    std::string text = printable(result == _dirt && message == "ok" ? "Extra information in the output file" : message);
    if (result == _dirt || result == _unexpected_eof) result = _pe;
    if (r.kattis_input) {
        std::fprintf(stderr, "%s\n", text.c_str());
        std::exit(result == _ok ? 42 : 43);
    }
    if (r.kattis) {
        std::string path = r.feedback_dir + "/judgemessage.txt";
        if (FILE *f = std::fopen(path.c_str(), "w")) {
            std::fprintf(f, "%s\n", text.c_str());
            std::fclose(f);
        }
        std::fprintf(stderr, "%s\n", text.c_str());
        std::exit(result == _ok ? 42 : result == _fail ? 1 : 43);
    }
    static const char *head[] = {"ok ", "wrong answer ", "wrong output format ", "FAIL "};
    static const char *outcome[] = {"accepted", "wrong-answer", "presentation-error", "fail"};
    if (!r.result_file.empty()) {
        FILE *f = std::fopen(r.result_file.c_str(), "w");
        if (!f) {
            r.result_file.clear();
            finish(_fail, "Can not write to the result file");
        }
        if (r.appes)
            std::fprintf(f, "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"%s\">%s</result>\n",
                         outcome[result], xml_safe(text).c_str());
        else
            std::fprintf(f, "%s", text.c_str());
        std::fclose(f);
    } else {
        std::fprintf(stderr, "%s%s\n", head[result], text.c_str());
    }
    if (r.checker) std::fprintf(stdout, "%s%s\n", head[result], text.c_str());
    std::fflush(stdout);
    std::exit(result);
}
}  // namespace gcl

inline void registerTestlibCmd(int argc, char **argv) {
    gcl::Run &r = gcl::run();
    r.checker = true;
    std::vector<std::string> args = gcl::positional(argc, argv);
    if (args.size() >= 3 && gcl::is_directory(args[2].c_str())) {  // Kattis, DOMjudge
        r.kattis = true;
        r.feedback_dir = args[2];
        inf.open(gcl::read_file(args[0]), "input", gcl::INPUT);
        ans.open(gcl::read_file(args[1]), "answer", gcl::ANSWER);
        ouf.open(gcl::read_stream(stdin), "output", gcl::OUTPUT);
        return;
    }
    if (args.size() < 3 || args.size() > 5 || (args.size() == 5 && args[4] != "-appes" && args[4] != "-APPES"))
        gcl::finish(_fail,
                    "usage: check [--testset T] [--group G] INPUT OUTPUT ANSWER [RESULT [-appes]], "
                    "or check INPUT ANSWER FEEDBACK_DIR < OUTPUT");
    if (args.size() >= 4) r.result_file = args[3];
    r.appes = args.size() == 5;
    inf.open(gcl::read_file(args[0]), "input", gcl::INPUT);
    ouf.open(gcl::read_file(args[1]), "output", gcl::OUTPUT);
    ans.open(gcl::read_file(args[2]), "answer", gcl::ANSWER);
}

inline void registerValidation(int argc, char **argv) {
    gcl::positional(argc, argv);
#ifdef GAMECERT_KATTIS
    gcl::run().kattis_input = true;
#endif
    inf.open(gcl::read_stream(stdin), "stdin", gcl::VALIDATED);
}
#endif  // GAMECERT_TESTLIB

namespace gc {

inline std::string shown(const std::string &token) {
    std::string cut = token.size() <= 24 ? token : token.substr(0, 24) + "...";
    return "'" + cut + "'";
}

// ---- a validator's view of the input: strict, as testlib's validators read it --------------

struct Strict {
    InStream &s;
    long ignored_column = 0;
#ifdef GAMECERT_TESTLIB
    long &column = ignored_column;
#else
    long &column = s.column;  // where a fault is said to be (the game's part may move it back)
#endif

    explicit Strict(InStream &stream) : s(stream) {}

    [[noreturn]] void fail(const std::string &why) { s.quits(_wa, why); }
    // a token: the characters up to the next space, tab, CR, LF or the end (none: a fault)
    std::string token(const std::string &) { return s.readToken(); }
    // an integer written plainly (no sign, no leading zero), in low..high
    long long integer(long long low, long long high, const std::string &what) { return s.readLong(low, high, what); }
    // a word of min_len..max_len characters, each in alphabet
    std::string word(const std::string &alphabet, size_t min_len, size_t max_len, const std::string &what) {
        std::string text = s.readWord();
        for (char c : text)
            if (alphabet.find(c) == std::string::npos) fail("character '" + std::string(1, c) + "' is not allowed in " + what);
        if (text.size() < min_len || text.size() > max_len)
            fail(what + " must have " + std::to_string(min_len) + " to " + std::to_string(max_len) + " characters, got " +
                 std::to_string(text.size()));
        return text;
    }
    void space() { s.readSpace(); }
    void eoln() { s.readEoln(); }
    void eof() { s.readEof(); }
};

// ---- a checker's view of an output or an answer file: tokens, as testlib reads them ---------

struct Tokens {
    InStream &s;
    size_t position = 0;

    explicit Tokens(InStream &stream) : s(stream) {}

    std::string word(const std::vector<std::string> &choices, const std::string &what) {
        std::string token = s.readToken();
        ++position;
        for (const std::string &c : choices)
            if (token == c) return token;
        s.quits(_wa, "token " + std::to_string(position) + ": expected " + what + ", got " + shown(token));
    }
    // an integer as testlib's readInt (bits 32) or readLong (bits 64) reads it: malformed or out of
    // the type's range PE, outside low..high WA
    long long integer(long long low, long long high, const std::string &what, int bits = 32) {
        ++position;
        if (bits == 64) return s.readLong(low, high, what);
        int lo = low < INT32_MIN ? INT32_MIN : low > INT32_MAX ? INT32_MAX : (int)low;
        int hi = high > INT32_MAX ? INT32_MAX : high < INT32_MIN ? INT32_MIN : (int)high;
        return s.readInt(lo, hi, what);
    }
    // nothing after the answer (testlib: PE, "extra information"), checked before the game's judge
    void finish() {
        if (!s.seekEof()) s.quits(_pe, "Extra information in the output file: tokens after the answer");
    }
};

}  // namespace gc
