//! Evaluates scalar special functions for `scripts/golden/ulp_sweep.py`: reads lines
//! `NAME HEXBITS` (an f64 as its bit pattern in hex) and prints each result's bits.
use lattensor::ops::special::scalar as s;
use std::io::{BufRead, Write};

fn main() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let mut it = line.split_whitespace();
        let (Some(name), Some(bits)) = (it.next(), it.next()) else { continue };
        let x = f64::from_bits(u64::from_str_radix(bits, 16).unwrap_or(0));
        let f: fn(f64) -> f64 = match name {
            "lgamma" => s::lgamma,
            "digamma" => s::digamma,
            "j0" => s::j0,
            "j1" => s::j1,
            "y0" => s::y0,
            "y1" => s::y1,
            "erfinv" => s::erfinv,
            "erfcinv" => s::erfcinv,
            "ndtri" => s::ndtri,
            _ => |_| f64::NAN,
        };
        let _ = writeln!(out, "{:016x}", f(x).to_bits());
    }
}
