// stones_once, wrong: tests/guided_wrong/stones_once/variance_float.c in Rust (f32 mean and
// variance; all piles taken as equal when the variance rounds to 0). Built with `rustc -O` it
// answers YES on 2,393 piles of 54 and one of 55 (129,277 stones), where the oracle says NO:
// the same fault at the same size (tests/uncaught/README.md says where gamecert stands on it).
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
    let sum: i64 = piles.iter().sum();
    let squares: i64 = piles.iter().map(|p| p * p).sum();
    let mean = sum as f32 / n as f32;
    let variance = squares as f32 / n as f32 - mean * mean;
    let x = if variance == 0.0 {
        if n % 2 == 1 { value(piles[0]) } else { 0 }
    } else {
        piles.iter().fold(0, |acc, &s| acc ^ value(s))
    };
    let out = io::stdout();
    writeln!(out.lock(), "{}", if x == 0 { "YES" } else { "NO" }).unwrap();
}
