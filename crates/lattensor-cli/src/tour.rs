//! `lattensor tour`: the type promotion guide's examples, run through lattensor.
//!
//! Each example pairs the TF line from the guide (and `seed_outputs.json`)
//! with the lattensor expression that means the same thing, and prints what
//! the library computes in TF's repr style. NumPy arrays in the guide become
//! strong tensors (a NumPy array has a declared dtype), Python literals
//! become Rust literals (weak).

use std::fmt::Write as _;

use lattensor::promote::with_mode;
use lattensor::{DType, PromotionMode, Result, Scalar, Tensor, Value, Variable, constant, constant_as, ops};

/// One example of the tour.
struct Example {
    /// What the example shows.
    title: &'static str,
    /// TF lines that set up names used by `tf` (printed as comments).
    setup: &'static [&'static str],
    /// The TF expression, exactly as in the guide / `seed_outputs.json`.
    tf: &'static str,
    /// The lattensor equivalent, as Rust source.
    rust: &'static str,
    /// Runs the Rust equivalent and renders the result.
    run: fn() -> Result<String>,
    /// A remark printed after the result, if any.
    note: Option<&'static str>,
}

fn show(t: Result<Tensor>) -> Result<String> {
    t.map(|t| t.to_string())
}

/// `tf.constant([5.0, 10.0, 3])`: a list mixing float and int literals.
fn mixed_list() -> Value {
    Value::List { items: vec![Scalar::from(5.0), Scalar::from(10.0), Scalar::from(3)], shape: vec![3] }
}

fn examples() -> Vec<Example> {
    vec![
        Example {
            title: "int32 + float32: the join keeps float32 (NumPy would widen to float64)",
            setup: &[],
            tf: "tf.constant(10, tf.int32) + tf.constant(5.0, tf.float32)",
            rust: "&constant_as(10, DType::I32)? + &constant_as(5.0, DType::F32)?",
            run: || show(&constant_as(10, DType::I32)? + &constant_as(5.0, DType::F32)?),
            note: None,
        },
        Example {
            title: "int8 + uint32: the smallest signed type holding both",
            setup: &[],
            tf: "tf.constant(10, tf.int8) + tf.constant(5, tf.uint32)",
            rust: "&constant_as(10, DType::I8)? + &constant_as(5, DType::U32)?",
            run: || show(&constant_as(10, DType::I8)? + &constant_as(5, DType::U32)?),
            note: None,
        },
        Example {
            title: "int64 + float16: any float beats any int, even a 16-bit one",
            setup: &[],
            tf: "tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16)",
            rust: "&constant_as(1, DType::I64)? + &constant_as(3.2, DType::F16)?",
            run: || show(&constant_as(1, DType::I64)? + &constant_as(3.2, DType::F16)?),
            note: None,
        },
        Example {
            title: "weak float32 + float16: the weak literal adapts to float16",
            setup: &[],
            tf: "tf.constant(1.2) + tf.constant(3.1, tf.float16)",
            rust: "&constant(1.2)? + &constant_as(3.1, DType::F16)?",
            run: || show(&constant(1.2)? + &constant_as(3.1, DType::F16)?),
            note: None,
        },
        Example {
            title: "a Python int literal makes a weak int32",
            setup: &[],
            tf: "tf.constant(5)",
            rust: "constant(5)?",
            run: || show(constant(5)),
            note: None,
        },
        Example {
            title: "a list of literals folds its elements' types: f32* ⊔ i32* = f32*",
            setup: &[],
            tf: "tf.constant([5.0, 10.0, 3])",
            rust: "constant(Value::List { items: vec![5.0.into(), 10.0.into(), 3.into()], shape: vec![3] })?",
            run: || show(constant(mixed_list())),
            note: Some("(lattensor prints the array without NumPy's `array(..., dtype=float32)` wrapper)"),
        },
        Example {
            title: "a declared dtype makes a strong tensor",
            setup: &[],
            tf: "tf.constant(5, tf.int32)",
            rust: "constant_as(5, DType::I32)?",
            run: || show(constant_as(5, DType::I32)),
            note: None,
        },
        Example {
            title: "unary ops keep weakness",
            setup: &[],
            tf: "tf.math.abs([100.0, 4.0])",
            rust: "ops::abs(&constant([100.0, 4.0])?)?",
            run: || show(ops::abs(&constant([100.0, 4.0])?)),
            note: None,
        },
        Example {
            title: "NumPy arrays are strong: int8 ⊔ i32* = int8, then int8 ⊔ float16 = float16",
            setup: &["a = np.array(1, dtype=np.int8)", "b = tf.constant(1)", "c = np.array(1, dtype=np.float16)"],
            tf: "tf.add(tf.add(a, b), c)",
            rust: "let (a, b, c) = (Tensor::scalar(1i8), constant(1)?, constant_as(1, DType::F16)?);\n\
                   ops::add(&ops::add(&a, &b)?, &c)?",
            run: || {
                let (a, b, c) = (Tensor::scalar(1i8), constant(1)?, constant_as(1, DType::F16)?);
                show(ops::add(&ops::add(&a, &b)?, &c))
            },
            note: None,
        },
        Example {
            title: "the same chain in the other order gives the same type",
            setup: &[],
            tf: "tf.add(tf.add(b, a), c)",
            rust: "ops::add(&ops::add(&b, &a)?, &c)?",
            run: || {
                let (a, b, c) = (Tensor::scalar(1i8), constant(1)?, constant_as(1, DType::F16)?);
                show(ops::add(&ops::add(&b, &a)?, &c))
            },
            note: None,
        },
        Example {
            title: "with operators instead of tf.add: the same result",
            setup: &[],
            tf: "(a + b) + c",
            rust: "&(&a + &b)? + &c",
            run: || {
                let (a, b, c) = (Tensor::scalar(1i8), constant(1)?, constant_as(1, DType::F16)?);
                show(&(&a + &b)? + &c)
            },
            note: None,
        },
        Example {
            title: "and in the other order",
            setup: &[],
            tf: "(b + a) + c",
            rust: "&(&b + &a)? + &c",
            run: || {
                let (a, b, c) = (Tensor::scalar(1i8), constant(1)?, constant_as(1, DType::F16)?);
                show(&(&b + &a)? + &c)
            },
            note: None,
        },
        Example {
            title: "float16 array + int8 + weak int: float16 throughout",
            setup: &[],
            tf: "np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)",
            rust: "&(&constant_as(3.2, DType::F16)? + &constant_as(1, DType::I8)?)? + &constant(50)?",
            run: || show(&(&constant_as(3.2, DType::F16)? + &constant_as(1, DType::I8)?)? + &constant(50)?),
            note: None,
        },
        Example {
            title: "step by step: float16 + int8 = float16",
            setup: &[],
            tf: "np.array(3.2, np.float16) + tf.constant(1, tf.int8)",
            rust: "&constant_as(3.2, DType::F16)? + &constant_as(1, DType::I8)?",
            run: || show(&constant_as(3.2, DType::F16)? + &constant_as(1, DType::I8)?),
            note: None,
        },
        Example {
            title: "a weak int adapts to a strong int8",
            setup: &[],
            tf: "tf.constant(1, tf.int8) + tf.constant(50)",
            rust: "&constant_as(1, DType::I8)? + &constant(50)?",
            run: || show(&constant_as(1, DType::I8)? + &constant(50)?),
            note: None,
        },
        Example {
            title: "negating a weak tensor keeps it weak",
            setup: &[],
            tf: "-tf.constant(5)",
            rust: "-&constant(5)?",
            run: || show(-&constant(5)?),
            note: None,
        },
        Example {
            title: "int16 - float32: float32 holds every int16 exactly",
            setup: &[],
            tf: "tf.constant(5, tf.int16) - tf.constant(1, tf.float32)",
            rust: "&constant_as(5, DType::I16)? - &constant_as(1, DType::F32)?",
            run: || show(&constant_as(5, DType::I16)? - &constant_as(1, DType::F32)?),
            note: None,
        },
        Example {
            title: "a Variable's dtype never changes: int16 is promoted into int32",
            setup: &["a = tf.Variable(10, tf.int32)"],
            tf: "a.assign_add(tf.constant(5, tf.int16))",
            rust: "let a = Variable::new(10)?;\na.assign_add(Tensor::scalar(5i16))?",
            run: || {
                let a = Variable::new(10)?;
                a.assign_add(Tensor::scalar(5i16))?;
                Ok(a.to_string())
            },
            note: None,
        },
        Example {
            title: "tf.constant(tensor, dtype) converts when the promotion lands on dtype",
            setup: &["a = tf.constant(10, tf.int16)"],
            tf: "tf.constant(a, tf.float32)",
            rust: "constant_as(Tensor::scalar(10i16), DType::F32)?",
            run: || show(constant_as(Tensor::scalar(10i16), DType::F32)),
            note: None,
        },
        Example {
            title: "tnp.array of a literal is weak too",
            setup: &[],
            tf: "tnp.array(1)",
            rust: "constant(1)?",
            run: || show(constant(1)),
            note: None,
        },
        Example {
            title: "and a float literal gives a weak float32",
            setup: &[],
            tf: "tnp.array(1.0)",
            rust: "constant(1.0)?",
            run: || show(constant(1.0)),
            note: None,
        },
    ]
}

const HEADER: &str = "\
Weak types, in short
--------------------
A value whose dtype nobody declared (a literal such as 5 or 1.2, or a list of them) gets a *weak*
type: int32*, int64*, float32*, float64* or complex128*. A weak operand adapts to the strong operand
it meets (float16 + 1.2 stays float16) instead of widening it, and weak values stay weak among
themselves and through unary ops. In Rust, literals are weak; `constant_as(x, dtype)`, NumPy-style
typed data and `Tensor::scalar(x)` are strong. TF prints weak tensors with `weak=True`.
Each block below: the guide's TensorFlow line (as a comment), the lattensor expression, and `=>` the result.
";

/// The whole tour, run in `mode`.
pub fn render(mode: PromotionMode) -> String {
    let mut out = format!("lattensor tour of the TensorFlow type promotion guide (mode {mode})\n\n{HEADER}\n");
    for (i, ex) in examples().iter().enumerate() {
        let _ = writeln!(out, "[{}] {}", i + 1, ex.title);
        for line in ex.setup {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "# {}", ex.tf);
        for line in ex.rust.lines() {
            let _ = writeln!(out, "{}", line.trim_start());
        }
        match with_mode(mode, ex.run) {
            Ok(repr) => {
                let _ = writeln!(out, "=> {repr}");
            }
            Err(e) => {
                let _ = writeln!(out, "=> error: {e}");
            }
        }
        if let Some(note) = ex.note {
            let _ = writeln!(out, "{note}");
        }
        out.push('\n');
    }
    out
}
