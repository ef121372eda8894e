// stones_once: xor of pile values, a pile of s worth the largest k with k(k+1)/2 <= s.
use std::io::{self, Read, Write};

fn value(s: u32) -> u32 {
    let mut k = 0;
    while (k + 1) * (k + 2) / 2 <= s {
        k += 1;
    }
    k
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let mut it = text.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let total = it.take(n).fold(0, |acc, s| acc ^ value(s));
    let out = io::stdout();
    writeln!(out.lock(), "{}", if total == 0 { "YES" } else { "NO" }).unwrap();
}
