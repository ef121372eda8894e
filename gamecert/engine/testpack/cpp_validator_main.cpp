
// ---- the validator, testlib's: standard input, strictly; exit 0 valid, 3 invalid (FAIL) -----
int main(int argc, char **argv) {
    registerValidation(argc, argv);
    gc::Strict in(inf);
    read_input(in);
#ifdef GAMECERT_KATTIS
    return 42;  // Kattis: valid
#endif
    return 0;
}
