//! `lattensor einsum` and `lattensor bitcast`: the library's ops on `.npy` files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lattensor::einsum::{Front, PathOptions, einsum_front, einsum_path};
use lattensor::npy::{read_npy, write_npy};
use lattensor::{DType, Result, Tensor};

/// Exit status when the library refuses the inputs.
const EXIT_REFUSED: u8 = 1;

fn read_all(paths: &[PathBuf]) -> Result<Vec<Tensor>> {
    paths.iter().map(read_npy).collect()
}

/// Writes `t` to `out`, or prints it when no output file is given.
fn emit(t: &Tensor, out: Option<&Path>) -> Result<String> {
    match out {
        Some(p) => {
            write_npy(p, t)?;
            Ok(format!("wrote {} (shape {:?}, {})\n", p.display(), t.shape(), t.dtype()))
        }
        None => Ok(format!("{t}\n")),
    }
}

fn finish(r: Result<String>) -> ExitCode {
    match r {
        Ok(text) => crate::print_out(&text),
        Err(e) => {
            eprintln!("lattensor: {e}");
            ExitCode::from(EXIT_REFUSED)
        }
    }
}

/// `lattensor einsum EQUATION IN.npy… [-o OUT.npy] [--semantics raw|tf|numpy] [--path]`.
pub fn einsum(equation: &str, inputs: &[PathBuf], out: Option<&Path>, front: Front, show_path: bool) -> ExitCode {
    finish((|| {
        let tensors = read_all(inputs)?;
        let refs: Vec<&Tensor> = tensors.iter().collect();
        let mut text = String::new();
        if show_path {
            let shapes: Vec<&[usize]> = tensors.iter().map(|t| t.shape()).collect();
            text.push_str(&einsum_path(front, equation, &shapes, PathOptions::default())?.to_string());
            text.push('\n');
        }
        let result = einsum_front(front, equation, &refs, PathOptions::default())?;
        text.push_str(&emit(&result, out)?);
        Ok(text)
    })())
}

/// `lattensor bitcast IN.npy DTYPE [-o OUT.npy]`.
pub fn bitcast(input: &Path, dtype: &str, out: Option<&Path>) -> ExitCode {
    finish((|| {
        let dtype = DType::parse(dtype)?;
        let t = read_npy(input)?;
        emit(&lattensor::bitcast(&t, dtype)?, out)
    })())
}
