// dawson_kayles (octal 0.07): a heap of n moves to heaps a, b with a + b = n - 2 (0 = no heap), so its
// Grundy value is g(n) = mex{g(a) ^ g(n-2-a)}, tabled to 1000. The player to move wins iff the xor X
// of the values is non-zero, by moving on a heap h with g(h) ^ X < g(h) to a split worth g(h) ^ X.
use std::io::{self, Read, Write};

fn main() {
    const N: usize = 1000;
    let mut g = vec![0usize; N + 1];
    for n in 2..=N {
        let mut seen = vec![false; 1024];
        for a in 0..=(n - 2) / 2 {
            seen[g[a] ^ g[n - 2 - a]] = true;
        }
        let mut v = 0;
        while seen[v] {
            v += 1;
        }
        g[n] = v;
    }
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let mut it = text.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let m = it.next().unwrap();
    let heaps: Vec<usize> = it.take(m).collect();
    let x = heaps.iter().fold(0, |acc, &h| acc ^ g[h]);
    let out = io::stdout();
    let mut out = out.lock();
    if x == 0 {
        writeln!(out, "Second").unwrap();
        return;
    }
    for (i, &h) in heaps.iter().enumerate() {
        let t = g[h] ^ x;
        if t >= g[h] {
            continue;
        }
        for a in 0..=(h - 2) / 2 {
            if g[a] ^ g[h - 2 - a] == t {
                writeln!(out, "First\n{} {} {}", i + 1, a, h - 2 - a).unwrap();
                return;
            }
        }
    }
    unreachable!("a non-zero xor always has a winning move");
}
