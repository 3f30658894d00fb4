//! Type promotion and its modes: what a mixed-dtype expression gives in each of
//! lattensor's four modes, why a literal does not widen a tensor, and what SAFE
//! mode says when it refuses.
//!
//! `cargo run -q -p lattensor --example promotion_modes`

use lattensor::promote::{self, LatticeType, PromotionMode, with_mode};
use lattensor::{DType, Tensor, constant};

fn main() -> lattensor::Result<()> {
    // A Rust literal is weak: it takes the dtype of the strong operand it meets.
    let h = Tensor::from_vec(vec![half::f16::from_f32(1.5), half::f16::from_f32(2.25)], &[2])?;
    let y = (&h + 1.2)?;
    println!("float16 tensor + 1.2      -> {y}");
    assert_eq!(y.dtype(), DType::F16);

    // Values nobody typed stay weak until they meet a strong one.
    let w = constant([1, 2, 3])?;
    println!("constant([1, 2, 3])       -> {w}");
    let i8s = Tensor::from_vec(vec![1i8, 2, 3], &[3])?;
    println!("int8 tensor + that        -> {}", (&i8s + &w)?);

    // Two strong dtypes: the mode decides.
    let a = Tensor::scalar(10i32);
    let b = Tensor::scalar(5.0f32);
    println!();
    for mode in PromotionMode::ALL_MODES {
        match with_mode(mode, || &a + &b) {
            Ok(t) => println!("int32 + float32 in {mode:<6} -> {}", t.dtype().name()),
            Err(e) => println!("int32 + float32 in {mode:<6} -> refused:\n    {e}"),
        }
    }

    // SAFE accepts what loses nothing: int8 + int16 is int16 in every mode.
    let c = with_mode(PromotionMode::Safe, || &i8s + &Tensor::scalar(7i16))?;
    println!("\nint8 + int16 in SAFE      -> {}", c.dtype().name());

    // NumPy mode follows NEP 50: an integer meeting a float16 widens to float64
    // there, where the lattice keeps float16.
    let i32s = Tensor::from_vec(vec![1i32, 2], &[2])?;
    let f16 = Tensor::scalar(half::f16::from_f32(0.5));
    for mode in [PromotionMode::All, PromotionMode::NumPy] {
        let r = with_mode(mode, || &i32s + &f16)?;
        println!("int32 + float16 in {mode:<6} -> {}", r.dtype().name());
    }

    // The promotion itself, without tensors: the result and each operand's
    // path up the lattice to the join.
    let ops: Vec<LatticeType> = ["i8", "u32"].iter().map(|s| s.parse()).collect::<lattensor::Result<_>>()?;
    println!("\n{}", promote::explain(&ops, PromotionMode::All));
    println!("{}", promote::explain(&ops, PromotionMode::Safe));
    Ok(())
}
