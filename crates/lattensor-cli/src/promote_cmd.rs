//! `lattensor promote A B [C…]`: explain one promotion.

use std::process::ExitCode;

use lattensor::promote::explain;
use lattensor::{LatticeType, PromotionMode};

/// Exit status when the mode refuses the promotion.
const EXIT_REFUSED: u8 = 1;
/// Exit status for an operand that is not a type name.
const EXIT_USAGE: u8 = 2;

/// Parses the operands, prints the explanation; the exit status tells
/// scripts whether the promotion is allowed without parsing the text.
pub fn run(operands: &[String], mode: PromotionMode) -> ExitCode {
    let mut types = Vec::with_capacity(operands.len());
    for op in operands {
        match op.parse::<LatticeType>() {
            Ok(t) => types.push(t),
            Err(e) => {
                eprintln!("error: invalid type {op:?}: {e}");
                eprintln!("hint: weak types are written with a star: i32*, i64*, f32*, f64*, c128*");
                return ExitCode::from(EXIT_USAGE);
            }
        }
    }
    let explanation = explain(&types, mode);
    let status = crate::print_out(&explanation.to_string());
    match &explanation.outcome {
        Ok(_) => status,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_REFUSED)
        }
    }
}
