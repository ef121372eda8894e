// string_cut: a sum of runs of cuttable positions (s[i-1] == s[i+1]); cutting the k-th of L leaves
// runs of max(0, k-2) and max(0, L-k-1). Run values by the O(n^2) mex recurrence; First wins iff
// the xor is non-zero, and the smallest winning cut is the leftmost cut that leaves xor zero.
use std::io::{self, Read, Write};

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let s: &[u8] = text.split_ascii_whitespace().next().unwrap_or("").as_bytes();
    let n = s.len();
    let mut g = vec![0usize; n + 1];
    let after = |g: &[usize], len: usize, k: usize| -> usize {
        g[k.saturating_sub(2)] ^ g[len.saturating_sub(k + 1)]
    };
    let mut seen = vec![false; n + 2];
    for len in 1..=n {
        for x in seen.iter_mut() {
            *x = false;
        }
        for k in 1..=(len + 1) / 2 {
            let v = after(&g, len, k);
            if v < seen.len() {
                seen[v] = true;
            }
        }
        let mut m = 0;
        while seen[m] {
            m += 1;
        }
        g[len] = m;
    }
    // runs as (first 1-based position, length)
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for j in 1..n.saturating_sub(1) {
        if s[j - 1] != s[j + 1] {
            continue;
        }
        match runs.last_mut() {
            Some(r) if r.0 + r.1 == j + 1 => r.1 += 1,
            _ => runs.push((j + 1, 1)),
        }
    }
    let total = runs.iter().fold(0, |acc, r| acc ^ g[r.1]);
    let out = io::stdout();
    let mut out = out.lock();
    if total == 0 {
        writeln!(out, "Second").unwrap();
        return;
    }
    for &(start, len) in &runs {
        let rest = total ^ g[len];
        for k in 1..=len {
            if after(&g, len, k) == rest {
                writeln!(out, "First\n{}", start + k - 1).unwrap();
                return;
            }
        }
    }
    unreachable!("a non-zero xor always has a move to zero");
}
