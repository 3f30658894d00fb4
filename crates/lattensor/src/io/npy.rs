//! Reading and writing NumPy `.npy` files.
//!
//! Every one of the 15 core dtypes round-trips. `bfloat16` is stored the way
//! `ml_dtypes` stores it (`np.save` of an `ml_dtypes.bfloat16` array writes
//! the descr `'<V2'`: two opaque bytes), so a `<V2` array reads back as bf16.
//!
//! The low-precision dtypes are written as NumPy writes `ml_dtypes` arrays:
//! `float8_e5m2` as `'<f1'` (its NumPy kind is `f`), which reads back as
//! float8_e5m2, and the other seven as `'<V1'`, one opaque byte. A `<V1`
//! file does not say which of the seven it holds, so it reads as `uint8`
//! bytes; [`bitcast`](crate::bitcast) them to the dtype (a view, no copy):
//!
//! ```
//! use lattensor::{bitcast, npy, DType, Tensor};
//! let t = Tensor::from_vec(vec![0.5f32, -3.0], &[2]).unwrap().cast(DType::F8E4M3Fn).unwrap();
//! let bytes = npy::to_npy_bytes(&t).unwrap();
//! assert!(std::str::from_utf8(&bytes[10..40]).unwrap().contains("'<V1'"));
//! let back = bitcast(&npy::from_npy_bytes(&bytes).unwrap(), DType::F8E4M3Fn).unwrap();
//! assert_eq!(back.cast(DType::F32).unwrap().to_vec::<f32>().unwrap(), vec![0.5, -3.0]);
//! ```
//!
//! Reading accepts format versions 1.0, 2.0 and 3.0, Fortran-ordered data
//! (returned as an ordinary row-major tensor holding the same values) and
//! big-endian descrs (byteswapped). Everything about the input is checked
//! before memory is allocated: the header length, the shape's element count
//! (checked arithmetic), the byte count against [`crate::max_tensor_bytes`]
//! and against the bytes actually present. Bool data must hold only 0 and 1.
//!
//! Writing always produces what `np.save` produces for a C-ordered
//! little-endian array: version 1.0 (2.0 if the header does not fit), the same
//! header text and padding, data aligned to 64 bytes.
//!
//! Files carry no weakness: a tensor read back is strong.
//!
//! ```
//! use lattensor::{npy, DType, Tensor};
//! let t = Tensor::from_vec(vec![1.5f32, -2.0, 3.25], &[3]).unwrap();
//! let bytes = npy::to_npy_bytes(&t).unwrap();
//! assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
//! assert_eq!(bytes.len(), 128 + 12); // 128-byte header, then the data
//! let back = npy::from_npy_bytes(&bytes).unwrap();
//! assert_eq!(back.dtype(), DType::F32);
//! assert_eq!(back.to_vec::<f32>().unwrap(), vec![1.5, -2.0, 3.25]);
//! ```

use std::io::Read;
use std::path::Path;

use crate::core::error::{Error, Result};
use crate::core::layout::checked_numel;
use crate::{DType, Tensor};

/// The six magic bytes every `.npy` file starts with.
const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// numpy aligns the start of the data to this many bytes.
const ALIGN: usize = 64;

/// numpy leaves room for the growth axis to reach this many digits.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// The largest header we accept. numpy refuses headers over 10 000 bytes by
/// default; we allow more, but a bound keeps a hostile length from allocating.
const MAX_HEADER_LEN: usize = 1 << 20;

/// The parsed header of an `.npy` file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Header {
    dtype: DType,
    /// `true` for big-endian data.
    big_endian: bool,
    fortran_order: bool,
    shape: Vec<usize>,
}

impl Header {
    /// Bytes of data the header announces, checked against overflow and the memory limit.
    fn data_len(&self) -> Result<usize> {
        let n = checked_numel(&self.shape, "npy")?;
        let bytes = n.checked_mul(self.dtype.size()).ok_or_else(|| {
            Error::ResourceExhausted(format!(
                "npy: shape {:?} of {} overflows the address space",
                self.shape, self.dtype
            ))
        })?;
        if bytes as u64 > crate::max_tensor_bytes() {
            return Err(Error::ResourceExhausted(format!(
                "npy: an array of shape {:?} and dtype {} needs {bytes} bytes, more than the limit of {} bytes; \
                 raise it with lattensor::set_max_tensor_bytes if the file is trusted",
                self.shape,
                self.dtype,
                crate::max_tensor_bytes()
            )));
        }
        Ok(bytes)
    }
}

fn bad(msg: impl std::fmt::Display) -> Error {
    Error::Io(format!("npy: {msg}"))
}

/// Maps a numpy descr such as `'<f4'`, `'|b1'`, `'>i8'` or `'<V2'` to a dtype
/// and whether the data is big-endian.
fn parse_descr(descr: &str) -> Result<(DType, bool)> {
    let unknown = || {
        bad(format!(
            "unsupported descr {descr:?}; lattensor reads b1, u1-u8, i1-i8, f1 (ml_dtypes float8_e5m2), f2, f4, f8, c8, \
             c16, V1 (the other 1-byte ml_dtypes types, as uint8 bytes to bitcast) and V2 (ml_dtypes bfloat16)"
        ))
    };
    let mut chars = descr.chars();
    let (order, code) = match chars.next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, chars.as_str()),
        _ => (if cfg!(target_endian = "big") { '>' } else { '<' }, descr),
    };
    let big_endian = order == '>' || (order == '=' && cfg!(target_endian = "big"));
    let dtype = match code {
        "b1" | "?" => DType::Bool,
        "u1" | "B" => DType::U8,
        "u2" => DType::U16,
        "u4" => DType::U32,
        "u8" => DType::U64,
        "i1" | "b" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "f2" | "e" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        "c8" => DType::C64,
        "c16" => DType::C128,
        // ml_dtypes' bfloat16 has no type code of its own: np.save writes it
        // as two opaque bytes, `<V2`, in little-endian order.
        "V2" => DType::BF16,
        // ml_dtypes' float8_e5m2 has NumPy kind 'f' and one byte
        "f1" => DType::F8E5M2,
        // the other 1-byte ml_dtypes types are written as one opaque byte,
        // which does not say which type it is: the raw bytes, to bitcast
        "V1" => DType::U8,
        _ => return Err(unknown()),
    };
    Ok((dtype, big_endian))
}

// ---- header dictionary parsing ------------------------------------------------

/// A value in the header dictionary (a Python literal).
#[derive(Debug)]
enum PyValue {
    Str(String),
    Bool(bool),
    Tuple(Vec<usize>),
}

/// A tiny parser for the Python dict literal of an `.npy` header.
struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(bad(format!("malformed header: expected {:?} at byte {}", c as char, self.pos)))
        }
    }

    fn string(&mut self) -> Result<String> {
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(bad(format!("malformed header: expected a string at byte {}", self.pos))),
        };
        self.pos += 1;
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos] != quote {
            if self.s[self.pos] == b'\\' {
                return Err(bad("malformed header: escapes in strings are not supported"));
            }
            self.pos += 1;
        }
        if self.pos >= self.s.len() {
            return Err(bad("malformed header: unterminated string"));
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).map_err(|_| bad("malformed header: not UTF-8"))?;
        self.pos += 1;
        Ok(text.to_string())
    }

    fn word(&mut self) -> &'a [u8] {
        self.skip_ws();
        let start = self.pos;
        while self.pos < self.s.len() && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_') {
            self.pos += 1;
        }
        &self.s[start..self.pos]
    }

    fn int(&mut self) -> Result<usize> {
        let w = self.word();
        // Python 2 wrote `3L`; numpy still accepts it.
        let digits = w.strip_suffix(b"L").unwrap_or(w);
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(bad(format!(
                "malformed header: shape entries must be non-negative integers, found {:?}",
                String::from_utf8_lossy(w)
            )));
        }
        digits.iter().try_fold(0usize, |acc, &d| acc.checked_mul(10)?.checked_add(usize::from(d - b'0'))).ok_or_else(
            || {
                Error::ResourceExhausted(format!(
                    "npy: shape entry {} does not fit in memory",
                    String::from_utf8_lossy(digits)
                ))
            },
        )
    }

    fn value(&mut self) -> Result<PyValue> {
        match self.peek() {
            Some(b'\'' | b'"') => Ok(PyValue::Str(self.string()?)),
            Some(b'(' | b'[') => {
                let close = if self.s[self.pos] == b'(' { b')' } else { b']' };
                self.pos += 1;
                let mut dims = Vec::new();
                loop {
                    if self.eat(close) {
                        break;
                    }
                    if dims.len() >= 64 {
                        return Err(bad("malformed header: more than 64 dimensions"));
                    }
                    dims.push(self.int()?);
                    if !self.eat(b',') {
                        self.expect(close)?;
                        break;
                    }
                }
                Ok(PyValue::Tuple(dims))
            }
            _ => match self.word() {
                b"True" => Ok(PyValue::Bool(true)),
                b"False" => Ok(PyValue::Bool(false)),
                w => Err(bad(format!("malformed header: unexpected value {:?}", String::from_utf8_lossy(w)))),
            },
        }
    }
}

/// Parses the header dictionary `{'descr': …, 'fortran_order': …, 'shape': …}`.
fn parse_header(text: &[u8]) -> Result<Header> {
    let mut p = Parser { s: text, pos: 0 };
    p.expect(b'{')?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.expect(b':')?;
        let value = p.value()?;
        match (key.as_str(), value) {
            ("descr", PyValue::Str(s)) if descr.is_none() => descr = Some(s),
            ("fortran_order", PyValue::Bool(b)) if fortran.is_none() => fortran = Some(b),
            ("shape", PyValue::Tuple(t)) if shape.is_none() => shape = Some(t),
            (k, v) => return Err(bad(format!("malformed header: unexpected entry {k:?}: {v:?}"))),
        }
        if !p.eat(b',') {
            p.expect(b'}')?;
            break;
        }
    }
    if p.peek().is_some() {
        return Err(bad("malformed header: text after the dictionary"));
    }
    let (Some(descr), Some(fortran_order), Some(shape)) = (descr, fortran, shape) else {
        return Err(bad("malformed header: it needs the keys 'descr', 'fortran_order' and 'shape'"));
    };
    let (dtype, big_endian) = parse_descr(&descr)?;
    Ok(Header { dtype, big_endian, fortran_order, shape })
}

/// Reads the magic, version and header length from the first bytes of a file.
/// Returns (length of the prefix, length of the header text).
fn parse_prefix(bytes: &[u8]) -> Result<(usize, usize)> {
    if bytes.len() < 8 || &bytes[..6] != MAGIC {
        return Err(bad("not an .npy file (the magic string \\x93NUMPY is missing)"));
    }
    let (prefix, len) = match (bytes[6], bytes[7]) {
        (1, 0) => (10, bytes.get(8..10).map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))),
        (2 | 3, 0) => {
            (12, bytes.get(8..12).and_then(|b| usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()))
        }
        (major, minor) => {
            return Err(bad(format!("unsupported format version {major}.{minor}; expected 1.0, 2.0 or 3.0")));
        }
    };
    let len = len.ok_or_else(|| bad("truncated header"))?;
    if len > MAX_HEADER_LEN {
        return Err(bad(format!("header of {len} bytes is larger than the limit of {MAX_HEADER_LEN}")));
    }
    Ok((prefix, len))
}

/// Turns raw data bytes (in file order) into a row-major tensor.
fn build(header: &Header, mut data: Vec<u8>) -> Result<Tensor> {
    if header.big_endian {
        // Complex numbers swap each component; every other dtype swaps whole elements.
        let unit = if header.dtype.is_complex() { header.dtype.size() / 2 } else { header.dtype.size() };
        if unit > 1 {
            data.chunks_exact_mut(unit).for_each(<[u8]>::reverse);
        }
    }
    if !header.fortran_order || header.shape.len() < 2 {
        return Tensor::from_bytes(&data, &header.shape, header.dtype);
    }
    // Fortran order is row-major order of the reversed shape; reverse the
    // axes back (a view) and copy into row-major order.
    let reversed: Vec<usize> = header.shape.iter().rev().copied().collect();
    Tensor::from_bytes(&data, &reversed, header.dtype)?.t().contiguous()
}

/// Parses an in-memory `.npy` file.
///
/// ```
/// use lattensor::{npy, DType};
/// // A Fortran-ordered big-endian int16 array, as numpy would write it.
/// let mut f = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
/// let mut h = b"{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }".to_vec();
/// h.resize(117, b' ');
/// h.push(b'\n');
/// f.extend(h);
/// f.extend([0u8, 1, 0, 3, 0, 2, 0, 4]); // column-major 1 3 / 2 4 → [[1, 2], [3, 4]]
/// let t = npy::from_npy_bytes(&f).unwrap();
/// assert_eq!((t.dtype(), t.shape()), (DType::I16, &[2usize, 2][..]));
/// assert_eq!(t.to_vec::<i16>().unwrap(), vec![1, 2, 3, 4]);
/// assert!(npy::from_npy_bytes(&f[..f.len() - 1]).is_err()); // truncated
/// ```
///
/// # Errors
/// [`Error::Io`] for a malformed or truncated file or an unsupported descr;
/// [`Error::ResourceExhausted`] if the array is larger than
/// [`crate::max_tensor_bytes`]; [`Error::InvalidArgument`] for bool bytes other than 0/1.
pub fn from_npy_bytes(bytes: &[u8]) -> Result<Tensor> {
    let (prefix, len) = parse_prefix(bytes)?;
    let end = prefix.checked_add(len).ok_or_else(|| bad("truncated header"))?;
    let text = bytes.get(prefix..end).ok_or_else(|| bad("truncated header"))?;
    let header = parse_header(text)?;
    let n = header.data_len()?;
    let data = &bytes[end..];
    if data.len() != n {
        return Err(bad(format!(
            "the header announces {n} bytes of data (shape {:?}, {}) but the file holds {}",
            header.shape,
            header.dtype,
            data.len()
        )));
    }
    build(&header, data.to_vec())
}

/// Reads an `.npy` file.
///
/// ```
/// use lattensor::{npy, Tensor};
/// let path = std::env::temp_dir().join(format!("lattensor_doc_read_{}.npy", std::process::id()));
/// npy::write_npy(&path, &Tensor::from_vec(vec![true, false], &[2]).unwrap()).unwrap();
/// let t = npy::read_npy(&path).unwrap();
/// assert_eq!(t.to_vec::<bool>().unwrap(), vec![true, false]);
/// std::fs::remove_file(&path).unwrap();
/// ```
///
/// # Errors
/// As [`from_npy_bytes`], and [`Error::Io`] if the file cannot be read.
pub fn read_npy(path: impl AsRef<Path>) -> Result<Tensor> {
    let path = path.as_ref();
    let with_path = |e: Error| match e {
        Error::Io(m) => Error::Io(format!("{}: {m}", path.display())),
        e => e,
    };
    let mut file = std::fs::File::open(path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    // Read the fixed prefix, then exactly as much as the header announces, so
    // a huge or hostile file is never read whole before it is checked.
    let mut prefix = Vec::with_capacity(12);
    (&mut file).take(12).read_to_end(&mut prefix)?;
    let (plen, hlen) = parse_prefix(&prefix).map_err(with_path)?;
    let mut head = prefix.split_off(plen);
    (&mut file).take((hlen - head.len().min(hlen)) as u64).read_to_end(&mut head)?;
    if head.len() < hlen {
        return Err(with_path(bad("truncated header")));
    }
    let early_data = head.split_off(hlen);
    let header = parse_header(&head).map_err(with_path)?;
    let n = header.data_len()?;
    if early_data.len() > n {
        return Err(with_path(bad("more data than the header announces")));
    }
    let mut data = early_data;
    // Reserve the announced size only once the file is known to hold it: a
    // small file whose header claims gigabytes must not reserve gigabytes.
    // (For pipes and other unsized files, `read_to_end` grows with what arrives.)
    if let Some(len) = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()) {
        let present = len.saturating_sub((plen + hlen) as u64);
        if present != n as u64 {
            return Err(with_path(bad(format!(
                "the header announces {n} bytes of data (shape {:?}, {}) but the file holds {present}",
                header.shape, header.dtype
            ))));
        }
        data.reserve_exact(n - data.len());
    }
    (&mut file).take((n - data.len()) as u64 + 1).read_to_end(&mut data)?;
    if data.len() != n {
        return Err(with_path(bad(format!(
            "the header announces {n} bytes of data (shape {:?}, {}) but the file holds {}{}",
            header.shape,
            header.dtype,
            data.len().min(n),
            if data.len() > n { " and more" } else { "" }
        ))));
    }
    build(&header, data)
}

/// The header text numpy writes for a C-ordered little-endian array, padded
/// with spaces and a newline so the data starts at a multiple of 64 bytes.
fn header_bytes(t: &Tensor) -> Result<Vec<u8>> {
    let shape = t.shape();
    let shape_repr = match shape {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        _ => format!("({})", shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut dict =
        format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape_repr}, }}", t.dtype().numpy_descr());
    // numpy leaves room to grow the first axis in place (np.lib.format).
    if let Some(first) = shape.first() {
        dict.push_str(&" ".repeat(GROWTH_AXIS_MAX_DIGITS.saturating_sub(first.to_string().len())));
    }
    let hlen = dict.len() + 1;
    for (version, prefix) in [(1u8, 10usize), (2, 12)] {
        let pad = ALIGN - (prefix + hlen) % ALIGN;
        let total = hlen + pad;
        let fits = if version == 1 { total <= usize::from(u16::MAX) } else { u32::try_from(total).is_ok() };
        if !fits {
            continue;
        }
        let mut out = Vec::with_capacity(prefix + total);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[version, 0]);
        if version == 1 {
            out.extend_from_slice(&(total as u16).to_le_bytes());
        } else {
            out.extend_from_slice(&(total as u32).to_le_bytes());
        }
        out.extend_from_slice(dict.as_bytes());
        out.resize(out.len() + pad, b' ');
        out.push(b'\n');
        return Ok(out);
    }
    Err(bad(format!("a header for shape {shape:?} is too long for any .npy version")))
}

/// Serialises a tensor as an `.npy` file in memory, byte for byte what
/// `np.save` writes for the same C-ordered little-endian array.
///
/// ```
/// use lattensor::{npy, Tensor};
/// let b = npy::to_npy_bytes(&Tensor::scalar(half::bf16::from_f32(1.5))).unwrap();
/// let header = std::str::from_utf8(&b[10..128]).unwrap();
/// assert!(header.starts_with("{'descr': '<V2', 'fortran_order': False, 'shape': (), }"));
/// assert_eq!(&b[128..], &[0xc0, 0x3f]); // bf16 1.5, little-endian
/// ```
///
/// # Errors
/// [`Error::ResourceExhausted`] if a non-contiguous view is too large to copy.
pub fn to_npy_bytes(t: &Tensor) -> Result<Vec<u8>> {
    let mut out = header_bytes(t)?;
    let data = t.to_bytes()?;
    out.extend_from_slice(&data);
    Ok(out)
}

/// Writes a tensor to an `.npy` file (see [`to_npy_bytes`]); weakness is not stored.
///
/// ```
/// use lattensor::{npy, DType, Tensor};
/// let path = std::env::temp_dir().join(format!("lattensor_doc_write_{}.npy", std::process::id()));
/// let t = Tensor::from_vec(vec![1u64, u64::MAX], &[2, 1]).unwrap();
/// npy::write_npy(&path, &t).unwrap();
/// let back = npy::read_npy(&path).unwrap();
/// assert_eq!((back.dtype(), back.shape()), (DType::U64, &[2usize, 1][..]));
/// assert_eq!(back.to_vec::<u64>().unwrap(), vec![1, u64::MAX]);
/// std::fs::remove_file(&path).unwrap();
/// ```
///
/// # Errors
/// [`Error::Io`] if the file cannot be written; as [`to_npy_bytes`] otherwise.
pub fn write_npy(path: impl AsRef<Path>, t: &Tensor) -> Result<()> {
    let path = path.as_ref();
    let bytes = to_npy_bytes(t)?;
    std::fs::write(path, bytes).map_err(|e| Error::Io(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::{bf16, f16};
    use num_complex::{Complex32, Complex64};

    fn file(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
        let dict = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
            if fortran { "True" } else { "False" }
        );
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&((dict.len() + 1) as u16).to_le_bytes());
        out.extend_from_slice(dict.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn round_trips_every_dtype() {
        let tensors = [
            Tensor::from_vec(vec![true, false, true, true], &[2, 2]).unwrap(),
            Tensor::from_vec(vec![0u8, 255, 7, 1], &[4]).unwrap(),
            Tensor::from_vec(vec![0u16, 65535], &[2]).unwrap(),
            Tensor::from_vec(vec![0u32, u32::MAX], &[2]).unwrap(),
            Tensor::from_vec(vec![0u64, u64::MAX], &[2]).unwrap(),
            Tensor::from_vec(vec![-128i8, 127], &[2]).unwrap(),
            Tensor::from_vec(vec![-3i16, 3], &[2]).unwrap(),
            Tensor::from_vec(vec![i32::MIN, 5], &[1, 2]).unwrap(),
            Tensor::from_vec(vec![i64::MIN, i64::MAX], &[2]).unwrap(),
            Tensor::from_vec(vec![bf16::from_f32(1.5), bf16::from_f32(-0.25)], &[2]).unwrap(),
            Tensor::from_vec(vec![f16::from_f32(3.2), f16::INFINITY], &[2]).unwrap(),
            Tensor::from_vec(vec![1.5f32, f32::NAN], &[2]).unwrap(),
            Tensor::scalar(std::f64::consts::PI),
            Tensor::from_vec(vec![Complex32::new(1.0, -2.0)], &[1]).unwrap(),
            Tensor::from_vec(vec![Complex64::new(0.5, 4.0); 3], &[3, 1, 1]).unwrap(),
        ];
        assert_eq!(tensors.each_ref().map(|t| t.dtype()), DType::CORE);
        for t in &tensors {
            let bytes = to_npy_bytes(t).unwrap();
            assert_eq!(bytes.iter().position(|&b| b == b'\n').unwrap() % 64, 63, "aligned header");
            let back = from_npy_bytes(&bytes).unwrap();
            assert_eq!(back.dtype(), t.dtype());
            assert_eq!(back.shape(), t.shape());
            assert_eq!(back.to_bytes().unwrap(), t.to_bytes().unwrap());
        }
    }

    #[test]
    fn header_matches_numpy_text() {
        let t = Tensor::from_vec(vec![1i32; 6], &[2, 3]).unwrap();
        let b = to_npy_bytes(&t).unwrap();
        assert_eq!(&b[..10], b"\x93NUMPY\x01\x00\x76\x00");
        let text = std::str::from_utf8(&b[10..128]).unwrap();
        assert!(text.starts_with("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }"), "{text}");
        assert!(text.ends_with(" \n"));
    }

    #[test]
    fn writes_views_in_row_major_order() {
        let t = Tensor::from_vec(vec![1i16, 2, 3, 4, 5, 6], &[2, 3]).unwrap().t();
        let back = from_npy_bytes(&to_npy_bytes(&t).unwrap()).unwrap();
        assert_eq!(back.shape(), &[3, 2]);
        assert_eq!(back.to_vec::<i16>().unwrap(), vec![1, 4, 2, 5, 3, 6]);
    }

    #[test]
    fn reads_big_endian_and_fortran() {
        let t = from_npy_bytes(&file(">f4", false, "(2,)", &[0x3f, 0xc0, 0, 0, 0xc0, 0, 0, 0])).unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.5, -2.0]);
        let c = from_npy_bytes(&file(">c8", false, "()", &[0x3f, 0x80, 0, 0, 0x40, 0, 0, 0])).unwrap();
        assert_eq!(c.item::<Complex32>().unwrap(), Complex32::new(1.0, 2.0));
        let data: Vec<u8> = [1u8, 4, 2, 5, 3, 6].to_vec();
        let f = from_npy_bytes(&file("|u1", true, "(2, 3)", &data)).unwrap();
        assert_eq!(f.to_vec::<u8>().unwrap(), vec![1, 2, 3, 4, 5, 6]);
        assert!(f.is_contiguous());
        let g = from_npy_bytes(&file("<i1", true, "(2, 1, 2)", &[1, 3, 2, 4])).unwrap();
        assert_eq!(g.to_vec::<i8>().unwrap(), vec![1, 2, 3, 4]);
    }

    #[test]
    fn reads_versions_two_and_three() {
        for version in [2u8, 3] {
            let dict = "{'descr': '<V2', 'fortran_order': False, 'shape': (1,)}\n";
            let mut f = MAGIC.to_vec();
            f.extend_from_slice(&[version, 0]);
            f.extend_from_slice(&(dict.len() as u32).to_le_bytes());
            f.extend_from_slice(dict.as_bytes());
            f.extend_from_slice(&[0xc0, 0x3f]);
            let t = from_npy_bytes(&f).unwrap();
            assert_eq!(t.dtype(), DType::BF16);
            assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.5]);
        }
    }

    #[test]
    fn rejects_bad_input() {
        // bool bytes other than 0/1
        assert!(from_npy_bytes(&file("|b1", false, "(2,)", &[0, 2])).is_err());
        // unknown descr
        let e = from_npy_bytes(&file("<f16", false, "(1,)", &[0; 16])).unwrap_err();
        assert!(e.to_string().contains("unsupported descr"), "{e}");
        assert!(from_npy_bytes(&file("O", false, "(1,)", &[0; 8])).is_err());
        // truncated and overlong data
        assert!(from_npy_bytes(&file("<i4", false, "(2,)", &[0; 7])).is_err());
        assert!(from_npy_bytes(&file("<i4", false, "(2,)", &[0; 9])).is_err());
        // absurd shapes fail before allocating
        let e = from_npy_bytes(&file("<f8", false, "(4294967296, 4294967296)", &[])).unwrap_err();
        assert!(matches!(e, Error::ResourceExhausted(_)), "{e}");
        let e = from_npy_bytes(&file("<f8", false, "(99999999999999999999999,)", &[])).unwrap_err();
        assert!(matches!(e, Error::ResourceExhausted(_)), "{e}");
        let e = from_npy_bytes(&file("<c16", false, "(1073741824, 1024)", &[])).unwrap_err();
        assert!(matches!(e, Error::ResourceExhausted(_)), "{e}");
        // malformed headers
        for h in ["{'descr': '<i4', 'shape': (1,)}", "{'descr': '<i4', 'fortran_order': 1, 'shape': (1,)}", "[]", ""] {
            let mut f = MAGIC.to_vec();
            f.extend_from_slice(&[1, 0]);
            f.extend_from_slice(&(h.len() as u16).to_le_bytes());
            f.extend_from_slice(h.as_bytes());
            assert!(from_npy_bytes(&f).is_err(), "{h}");
        }
        assert!(from_npy_bytes(&file("<i4", false, "(-1,)", &[])).is_err());
        assert!(from_npy_bytes(b"\x93NUMPY\x04\x00").is_err());
        assert!(from_npy_bytes(b"").is_err());
    }

    #[test]
    fn file_claiming_more_data_than_it_holds_fails_before_reserving() {
        // 8 GiB announced (under the default limit), none present: the reader
        // compares with the file's length instead of reserving 8 GiB first.
        let path = std::env::temp_dir().join(format!("lattensor_npy_claim_{}.npy", std::process::id()));
        std::fs::write(&path, file("<f4", false, "(2147483648,)", &[1, 2, 3])).unwrap();
        let e = read_npy(&path).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(e, Error::Io(_)), "{e}");
        assert!(e.to_string().contains("announces 8589934592 bytes") && e.to_string().contains("holds 3"), "{e}");
    }

    /// A tiny deterministic generator, so the test needs no dependencies.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn corrupted_files_never_panic() {
        let seeds = [
            to_npy_bytes(&Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3]).unwrap()).unwrap(),
            to_npy_bytes(&Tensor::from_vec(vec![true; 4], &[2, 2]).unwrap()).unwrap(),
            file(">c16", true, "(1, 2)", &[0; 32]),
        ];
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..20_000 {
            let mut f = seeds[i % seeds.len()].clone();
            match xorshift(&mut rng) % 4 {
                0 => {
                    let n = xorshift(&mut rng) as usize % f.len();
                    f.truncate(n);
                }
                1 => {
                    for _ in 0..1 + xorshift(&mut rng) % 4 {
                        let at = xorshift(&mut rng) as usize % f.len();
                        f[at] = xorshift(&mut rng) as u8;
                    }
                }
                2 => {
                    // corrupt a header character into a digit or punctuation
                    let at = 10 + xorshift(&mut rng) as usize % 60;
                    f[at] = b"0123456789(),:' {}"[xorshift(&mut rng) as usize % 18];
                }
                _ => f = (0..xorshift(&mut rng) % 200).map(|_| xorshift(&mut rng) as u8).collect(),
            }
            let _ = from_npy_bytes(&f);
        }
    }
}
