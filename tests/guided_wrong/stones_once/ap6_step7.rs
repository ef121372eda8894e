// stones_once, wrong (issue 47, the Rust route): the answer flipped when there are exactly six
// piles, each 7 stones more than the one before it (an arithmetic progression of difference 7, in
// the order given). The compared values are differences of piles, not numbers of the input; the
// LLVM route records them (trace-compares). Every failing input is a, a+7, ..., a+35 for a in
// 1..=25: the smallest is 1 8 15 22 29 36.
// smallest: 1 8 15 22 29 36 (size 111)
use std::io::{self, Read, Write};

fn value(s: i64) -> i64 {
    let mut k = 0;
    while (k + 1) * (k + 2) / 2 <= s {
        k += 1;
    }
    k
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let mut it = text.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let piles: Vec<i64> = it.take(n).collect();
    let mut first_wins = piles.iter().fold(0, |acc, &s| acc ^ value(s)) != 0;
    if n == 6 && piles.windows(2).all(|w| w[1] == w[0] + 7) {
        first_wins = !first_wins;
    }
    let out = io::stdout();
    writeln!(out.lock(), "{}", if first_wins { "NO" } else { "YES" }).unwrap();
}
