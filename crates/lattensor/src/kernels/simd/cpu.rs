//! What the kernels know about the CPU: its vendor and generation (for the
//! memory-system choices in [`long_reads`] and [`interleave_regions`]) and its
//! cache sizes (for [`stream_min_bytes`] and [`l2_bytes`]), each read once.

/// How a thread reads a long sum: how many sequential streams side by side
/// (1 or 4), and whether it asks for its lines a page ahead ([`fetch_ahead`](super::stream::fetch_ahead)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LongReads {
    pub streams: usize,
    pub fetch: bool,
}

/// The [`LongReads`] of this CPU, chosen per memory system (re-measure with the
/// long-sum workloads of `bench/README.md`):
/// - Intel: four streams, each fetched a page ahead: a two-thread C loop read
///   512 MiB at 17.8–21.9 GB/s with four streams per thread against 13.6–17.2
///   with one.
/// - AMD Zen 3: four streams, no software fetch: 512 MiB at 58.9 GB/s with four
///   streams set apart (see `ops::reduce::long_sum`) against 41.6 with one;
///   fetching a page ahead brought four streams back to 51.7.
/// - Elsewhere (Zen 4 among them) one stream, no software fetch: Zen 4 read
///   512 MiB 2.0× faster with one stream than with four, and prefetching made
///   its 10M-f32 sum slower.
///
/// `fetch` also rules [`fold_lanes`](super::fold_lanes)' one-stream reads (sums
/// shorter than a long split, einsum's sums).
pub(crate) fn long_reads() -> LongReads {
    static READS: std::sync::OnceLock<LongReads> = std::sync::OnceLock::new();
    *READS.get_or_init(|| match cpu() {
        Cpu::Intel => LongReads { streams: 4, fetch: true },
        Cpu::Zen3 => LongReads { streams: 4, fetch: false },
        Cpu::Other => LongReads { streams: 1, fetch: false },
    })
}

/// Whether streamed element-wise ops write four regions side by side: on Intel
/// CPUs only (a STREAM-like loop reaches the memory bandwidth there only so;
/// Zen 3 ran it 1.8× slower than one region).
pub(crate) fn interleave_regions() -> bool {
    cpu() == Cpu::Intel
}

/// The CPU kinds whose memory systems the kernels tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cpu {
    Intel,
    /// AMD family 19h, models 00h–0Fh and 20h–5Fh (Zen 3 and 3+; 10h–1Fh and 60h on are Zen 4 and 5)
    Zen3,
    Other,
}

fn cpu() -> Cpu {
    static CPU: std::sync::OnceLock<Cpu> = std::sync::OnceLock::new();
    *CPU.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::__cpuid;
            let id = __cpuid(0);
            // the vendor string in the order ebx, edx, ecx
            if (id.ebx, id.edx, id.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e) {
                return Cpu::Intel; // "GenuineIntel"
            }
            if (id.ebx, id.edx, id.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163) && id.eax >= 1 {
                // "AuthenticAMD"
                let sig = __cpuid(1).eax;
                let family = ((sig >> 8) & 0xf) + ((sig >> 20) & 0xff);
                let model = ((sig >> 4) & 0xf) | ((sig >> 12) & 0xf0);
                if family == 0x19 && matches!(model, 0x00..=0x0f | 0x20..=0x5f) {
                    return Cpu::Zen3;
                }
            }
        }
        Cpu::Other
    })
}

/// Element-wise ops (arithmetic, casts, `exp`) and outer products whose working
/// set (output and inputs) is at least this many bytes write their output with
/// non-temporal (streaming) stores: the smaller of half the largest cache (see
/// [`half_largest_cache`]) and [`SHARED_CACHE_SHARE`].
///
/// Why a cap: a large last-level cache on a server is shared with other
/// tenants and other work, so a working set well under its size still does not
/// stay cached from one op to the next. With a 480 MiB L3, plain stores won only
/// in a tight loop of one op on one recycled output; between other work (a
/// `bench/peers.py` run) streaming won from 2.5M-element f32 adds (30 MB) up,
/// e.g. 10M f32 `x + y` 3.49 → 2.31 ms and the 4096² outer product 2.49 → 1.71.
/// With a 105 MiB L3 streaming won from 2.5M f32 up and lost at 1M (12 MB).
///
/// Why the working set, not the output alone: 10M-element outputs (40 MB f32,
/// 20 MB f16) below half a 105 MiB L3 still ran faster streamed, e.g. f32
/// `x + y` 5.66 → 5.07 ms and i32 + f32 6.57 → 5.56 ms (two threads).
pub(crate) fn stream_min_bytes() -> usize {
    half_largest_cache().min(SHARED_CACHE_SHARE)
}

/// The part of a shared last-level cache an op can count on keeping: 16 MiB,
/// which is also half the 32 MiB L3 of a Zen 4 desktop part (see
/// [`stream_min_bytes`] for the measurements behind it).
const SHARED_CACHE_SHARE: usize = 16 << 20;

/// Half the largest cache's size, read once from sysfs (32 MiB if it cannot be
/// read): a working set that large cannot all stay cached.
fn half_largest_cache() -> usize {
    static MIN: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    #[cfg(test)]
    if FORCE_STREAM.load(std::sync::atomic::Ordering::Relaxed) {
        return 0;
    }
    *MIN.get_or_init(|| largest_cache_bytes().unwrap_or(64 << 20) / 2)
}

/// The size of the CPU's largest data cache, from Linux's sysfs.
fn largest_cache_bytes() -> Option<usize> {
    cache_sizes().map(|(_, bytes)| bytes).max()
}

/// The size of one core's level-2 cache, from Linux's sysfs (1 MiB, Zen 4's,
/// if it cannot be read), read once.
pub(crate) fn l2_bytes() -> usize {
    static L2: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *L2.get_or_init(|| cache_sizes().filter(|&(level, _)| level == 2).map(|(_, b)| b).max().unwrap_or(1 << 20))
}

/// cpu0's caches as (level, bytes), from Linux's sysfs; none if unreadable.
fn cache_sizes() -> impl Iterator<Item = (u32, usize)> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").into_iter().flatten();
    dir.filter_map(|e| {
        let path = e.ok()?.path();
        let read = |file: &str| std::fs::read_to_string(path.join(file)).ok();
        let level = read("level")?.trim().parse().ok()?;
        Some((level, parse_cache_size(read("size")?.trim())?))
    })
}

/// `"48K"`, `"2048K"`, `"300M"` or a plain byte count → bytes.
fn parse_cache_size(s: &str) -> Option<usize> {
    let (digits, unit) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1 << 10),
        b'M' => (&s[..s.len() - 1], 1 << 20),
        b'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
}

/// Makes every output take the streaming path, so that tests exercise it
/// on hosts whose caches are larger than the tests' tensors. Streaming
/// changes no result, so tests running meanwhile are unaffected.
#[cfg(test)]
pub(crate) static FORCE_STREAM: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_sizes_parse() {
        assert_eq!(parse_cache_size("48K"), Some(48 << 10));
        assert_eq!(parse_cache_size("307200K"), Some(300 << 20));
        assert_eq!(parse_cache_size("2M"), Some(2 << 20));
        assert_eq!(parse_cache_size("4096"), Some(4096));
        assert_eq!(parse_cache_size("K"), None);
        assert_eq!(parse_cache_size(""), None);
        assert_eq!(parse_cache_size("99999999999999999999G"), None);
        assert!(stream_min_bytes() >= 1 << 10 || FORCE_STREAM.load(std::sync::atomic::Ordering::Relaxed));
    }
}
