//! DLPack: zero-copy export of tensors (`__dlpack__`) and import of any
//! DLPack producer (`lattensor.from_dlpack`: NumPy, PyTorch, JAX, …), via `dlpark`.

use dlpark::ffi::{DLDataType, DLDataTypeCode, DLDevice, DLDeviceType};
use dlpark::metadata::Dynamic;
use dlpark::python::{ExportAbi, ExportRequest};
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};
use lattensor::{DType, Tensor};
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;

use crate::errors::IntoPyResult;

/// The DLPack dtype of `d`, or `None` for float4_e2m1fn, int4 and uint4:
/// DLPack's 4-bit types are packed two to a byte, lattensor (like ml_dtypes)
/// keeps one per byte, so no DLPack code describes them.
fn dl_dtype(d: DType) -> Option<DLDataType> {
    let bits = (d.size() * 8) as u8;
    let code = match d {
        DType::Bool => DLDataTypeCode::BOOL,
        DType::U8 | DType::U16 | DType::U32 | DType::U64 => DLDataTypeCode::UINT,
        DType::I8 | DType::I16 | DType::I32 | DType::I64 => DLDataTypeCode::INT,
        DType::BF16 => DLDataTypeCode::BFLOAT,
        DType::F16 | DType::F32 | DType::F64 => DLDataTypeCode::FLOAT,
        DType::C64 | DType::C128 => DLDataTypeCode::COMPLEX,
        // dlpack.h 1.1's float8 codes
        DType::F8E4M3Fn => DLDataTypeCode::FLOAT8_E4M3FN,
        DType::F8E4M3Fnuz => DLDataTypeCode::FLOAT8_E4M3FNUZ,
        DType::F8E5M2 => DLDataTypeCode::FLOAT8_E5M2,
        DType::F8E5M2Fnuz => DLDataTypeCode::FLOAT8_E5M2FNUZ,
        DType::F8E8M0Fnu => DLDataTypeCode::FLOAT8_E8M0FNU,
        DType::F4E2M1Fn | DType::I4 | DType::U4 => return None,
    };
    Some(DLDataType::scalar(code, bits))
}

fn from_dl_dtype(t: DLDataType) -> PyResult<DType> {
    let d = DType::ALL.into_iter().find(|&d| dl_dtype(d).is_some_and(|dl| dl.matches(t)));
    d.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "DLPack dtype (code {}, {} bits, {} lanes) has no lattensor equivalent",
            t.code.0, t.bits, t.lanes
        ))
    })
}

/// One managed tensor header viewing `t`'s memory; it owns a clone of `t`
/// (an `Arc` on the storage), so the memory lives until the consumer is done.
fn managed<M: ManagedTensorBase>(t: &Tensor, flags: DlpackFlags) -> PyResult<Managed<M>> {
    let layout = t.layout();
    let shape: Vec<i64> = layout.shape().iter().map(|&d| d as i64).collect();
    let strides: Vec<i64> = layout.strides().iter().map(|&s| s as i64).collect();
    let base = t.storage_bytes().as_ptr();
    let data = if t.numel() == 0 { base } else { base.wrapping_add(layout.offset() * t.dtype().size()) };
    let err = |e: &dyn std::fmt::Display| PyBufferError::new_err(format!("DLPack export failed: {e}"));
    let prepared = Dynamic::new(shape, strides).prepare_as::<M>().map_err(|e| err(&e))?;
    let mut init = prepared.initialize(Box::new(t.clone()));
    init.set_data(data.cast_mut().cast());
    let Some(dtype) = dl_dtype(t.dtype()) else {
        return Err(PyBufferError::new_err(format!(
            "DLPack has no code for {} one value per byte (its 4-bit types are packed); \
             use numpy.asarray(t) (via ml_dtypes) or cast first: tf.cast(t, tf.int8)",
            t.dtype()
        )));
    };
    init.set_dtype(dtype);
    init.set_device(DLDevice::CPU);
    if !flags.is_empty() {
        init.set_flags(flags).map_err(|e| err(&e))?;
    }
    // SAFETY: data, dtype, device, shape and strides are all set and describe
    // memory owned by the context (the boxed tensor clone) for the header's life.
    Ok(unsafe { init.finish() })
}

/// `Tensor.__dlpack__`: a capsule viewing the tensor (read-only when the
/// consumer speaks DLPack ≥ 1.0, which can say so).
pub fn export(
    py: Python<'_>,
    t: &Tensor,
    stream: Option<&Bound<'_, PyAny>>,
    max_version: Option<(u32, u32)>,
    dl_device: Option<(u32, i32)>,
    copy: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let request = ExportRequest::parse(stream, max_version, dl_device, copy)?;
    let flags = match request.abi() {
        ExportAbi::Versioned => DlpackFlags::READ_ONLY,
        ExportAbi::Legacy => DlpackFlags::empty(),
    };
    request.export_zero_copy(py, DLDevice::CPU, flags, || managed(t, DlpackFlags::empty()), || managed(t, flags))
}

/// Copies the tensor a DLPack producer exports into a strong lattensor tensor.
#[pyfunction]
pub fn from_dlpack(obj: &Bound<'_, PyAny>) -> PyResult<crate::classes::PyTensor> {
    let imported = dlpark::python::from_dlpack(obj.as_borrowed(), None, None)?;
    let r = imported.validate().map_err(|e| PyBufferError::new_err(format!("invalid DLPack tensor: {e}")))?;
    if r.device().device_type != DLDeviceType::CPU {
        return Err(PyBufferError::new_err("lattensor tensors live on the CPU; move the tensor to the CPU first"));
    }
    let dtype = from_dl_dtype(r.dtype())?;
    let size = dtype.size();
    let shape: Vec<usize> = r.shape().iter().map(|&d| usize::try_from(d).unwrap_or(0)).collect();
    let strides = r.strides_or_compact().map_err(|e| PyBufferError::new_err(e.to_string()))?;
    let nbytes = shape.iter().try_fold(size, |n, &d| n.checked_mul(d)).ok_or_else(|| {
        crate::errors::ResourceExhaustedError::new_err(format!(
            "from_dlpack: shape {shape:?} overflows the address space"
        ))
    })?;
    let numel = nbytes / size;
    let base = (r.data_ptr() as *const u8).wrapping_add(r.byte_offset() as usize);
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(nbytes).map_err(|_| {
        crate::errors::ResourceExhaustedError::new_err(format!("from_dlpack: cannot allocate {nbytes} bytes"))
    })?;
    if numel > 0 && r.is_compact().unwrap_or(false) {
        // SAFETY: a compact tensor's `numel` elements are contiguous from `base`.
        bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(base, numel * size) });
    } else if numel > 0 {
        // Walk the elements in row-major order, copying `size` bytes each.
        let mut idx = vec![0usize; shape.len()];
        loop {
            let off: isize = idx.iter().zip(strides.iter()).map(|(&i, &s)| i as isize * s as isize).sum();
            // SAFETY: the producer guarantees every element at `base + Σ idx·stride·size`
            // is readable for `size` bytes while `imported` is alive (it is, until the end of this function).
            let src = unsafe { std::slice::from_raw_parts(base.offset(off * size as isize), size) };
            bytes.extend_from_slice(src);
            let mut ax = shape.len();
            loop {
                if ax == 0 {
                    break;
                }
                ax -= 1;
                idx[ax] += 1;
                if idx[ax] < shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
            if idx.iter().all(|&i| i == 0) {
                break;
            }
        }
    }
    drop(imported);
    Tensor::from_bytes(&bytes, &shape, dtype).py().map(crate::classes::PyTensor::new)
}
