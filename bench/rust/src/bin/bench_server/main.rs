//! A benchmark server for `bench/peers.py`: times lattensor on the side-by-side
//! workloads, driven over stdin/stdout, so lattensor runs in the same
//! interleaved round-robin loop as NumPy, JAX, TF and PyTorch.
//!
//! `cargo run --release -p lattensor-bench --bin bench_server`
//!
//! Protocol (one command per line, one answer line each):
//! - `list` → `ok NAME NAME …` (the workload names)
//! - `run NAME K` → `ok NS`: `K` back-to-back calls, `NS` nanoseconds in total
//!   (inputs are created once, on the first `run` of a workload; results are
//!   dropped inside the timed loop, as a Python caller's would be)
//! - `check NAME` → `ok SUM SHAPE DTYPE`: the f64 sum of one result, for comparing with the peers
//! - `probe_fma` → `ok NS`: a 2-thread FMA loop with a spin barrier (the noise canary)
//! - `probe_read` → `ok GBPS`: a 2-thread read of 96 MiB (the bandwidth-mode canary)
//! - `limit KIND BYTES K` → `ok NS BYTES STORES`: the host's own memory-bandwidth
//!   limit on a workload's traffic: `K` calls of a hand-written STREAM kernel
//!   (`add`, `copy`, `read` or `fill`, f32, AVX-512 where available) moving `BYTES`
//!   per call on warm, reused buffers, on the threads lattensor uses, in the fastest
//!   of its variants (`STORES`: regular or `nt` stores, `+prefetch`; `plain` or
//!   `prefetch` for `read`). See [`limits`].
//! - `limit fma32|fma64|dot8 FLOPS K` → `ok NS FLOPS LOOP`: the host's own FMA peak
//!   on a workload's operations: `K` calls of a hand-written loop of
//!   independent vector FMAs (int8 dot products for `dot8`) doing `FLOPS` each,
//!   on lattensor's threads (`LOOP` names the vector width and precision). See [`peak`].
//! - `quit`
//!
//! The workloads and their inputs are in `crates/lattensor/benches/workloads/mod.rs`.

use std::collections::HashMap;
use std::hint::black_box;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use lattensor::DType;

use lattensor_bench::workloads::{Call, NAMES, floats, workload};

mod limits;
mod peak;

/// Pins the calling thread to `cpu` (best effort: the probe still runs unpinned).
fn pin(cpu: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: `set` is a plain bitmask owned by this frame; sched_setaffinity only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cpu;
}

/// Two pinned threads, each running dependent FMA chains, meeting at a spin
/// barrier every few thousand iterations: slow whenever the host steals a vCPU.
fn probe_fma() -> u128 {
    let arrived = Arc::new(AtomicUsize::new(0));
    let t = Instant::now();
    let hs: Vec<_> = (0..2)
        .map(|cpu| {
            let arrived = Arc::clone(&arrived);
            std::thread::spawn(move || {
                pin(cpu);
                let mut acc = [1.0f32 + cpu as f32; 16];
                for round in 1..=50usize {
                    for _ in 0..4000 {
                        for a in acc.iter_mut() {
                            *a = *a * 0.999_999 + 1e-7;
                        }
                    }
                    arrived.fetch_add(1, Ordering::AcqRel);
                    while arrived.load(Ordering::Acquire) < 2 * round {
                        std::hint::spin_loop();
                    }
                }
                black_box(acc);
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    t.elapsed().as_nanos()
}

/// Two pinned threads summing 48 MiB each; returns GB/s.
fn probe_read(buf: &Arc<Vec<f32>>) -> f64 {
    let half = buf.len() / 2;
    let t = Instant::now();
    let hs: Vec<_> = (0..2)
        .map(|cpu| {
            let buf = Arc::clone(buf);
            std::thread::spawn(move || {
                pin(cpu);
                let part = &buf[cpu * half..(cpu + 1) * half];
                let mut acc = [0f32; 16];
                for c in part.chunks_exact(16) {
                    for (a, &x) in acc.iter_mut().zip(c) {
                        *a += x;
                    }
                }
                black_box(acc);
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    (buf.len() * 4) as f64 / t.elapsed().as_secs_f64() / 1e9
}

fn main() {
    let mut calls: HashMap<String, Call> = HashMap::new();
    let read_buf = Arc::new(floats(96 << 18, 0));
    let mut limit_runs = limits::Limits::default();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            ["list"] => format!("ok {}", NAMES.join(" ")),
            ["run", name, ..] | ["check", name] => {
                let k: usize = words.get(2).and_then(|k| k.parse().ok()).unwrap_or(1);
                if !calls.contains_key(*name) {
                    match workload(name) {
                        Some(c) => {
                            calls.insert(name.to_string(), c);
                        }
                        None => {
                            writeln!(out, "err unknown workload {name}").unwrap();
                            out.flush().unwrap();
                            continue;
                        }
                    }
                }
                let call = &calls[*name];
                if words[0] == "check" {
                    let r = call();
                    let sum = r.cast(DType::F64).unwrap().to_vec::<f64>().unwrap().iter().sum::<f64>();
                    format!("ok {sum:e} {:?} {:?}", r.shape(), r.dtype())
                } else {
                    let t = Instant::now();
                    for _ in 0..k {
                        black_box(call());
                    }
                    format!("ok {}", t.elapsed().as_nanos())
                }
            }
            ["probe_fma"] => format!("ok {}", probe_fma()),
            ["probe_read"] => format!("ok {:.2}", probe_read(&read_buf)),
            ["limit", kind @ ("fma32" | "fma64" | "dot8"), flops, k] => {
                match (kind.parse(), flops.parse(), k.parse()) {
                    (Ok(precision), Ok(flops), Ok(k)) => match peak::run(precision, flops, k) {
                        Some((ns, done, name)) => format!("ok {ns} {done} {name}"),
                        None => "err no vector FMA on this CPU".to_string(),
                    },
                    _ => format!("err bad limit command {line}"),
                }
            }
            ["limit", kind, bytes, k] => match (kind.parse(), bytes.parse(), k.parse()) {
                (Ok(kind), Ok(bytes), Ok(k)) => {
                    let (ns, moved, stores) = limit_runs.run(kind, bytes, k);
                    format!("ok {ns} {moved} {stores}")
                }
                _ => format!("err bad limit command {line}"),
            },
            ["quit"] | [] => break,
            _ => format!("err unknown command {line}"),
        };
        writeln!(out, "{reply}").unwrap();
        out.flush().unwrap();
    }
}
