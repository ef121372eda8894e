// stones_once, wrong (issue 47, the Rust route): the answer flipped for six piles that start at
// 1 and go up by 7 each (an arithmetic progression of difference 7 from 1, in the order given).
// The compared values are a pile and the one before it plus 7, a value the program derives; the
// LLVM route records them (trace-compares) and sees how far the loop of `windows(2).all(...)`
// went (its hit counts). The one failing input is 1 8 15 22 29 36.
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
    if n == 6 && piles[0] == 1 && piles.windows(2).all(|w| w[1] == w[0] + 7) {
        first_wins = !first_wins;
    }
    let out = io::stdout();
    writeln!(out.lock(), "{}", if first_wins { "NO" } else { "YES" }).unwrap();
}
