//! `lattensor`: look at TensorFlow-NumPy type promotion as lattensor implements it.
//!
//! Every answer this tool prints comes from the library (`lattensor::promote`
//! and the tensor ops); the CLI only lays it out. That way the pictures and
//! tables cannot drift from the semantics.

mod escape;
mod lattice_draw;
mod promote_cmd;
mod table;
mod tensor_cmds;
mod tour;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use lattensor::PromotionMode;

/// Parses a mode with the library's own parser (all, safe, strict, numpy).
fn parse_mode(s: &str) -> Result<PromotionMode, String> {
    PromotionMode::parse(s).map_err(|e| e.to_string())
}

#[derive(Parser, Debug)]
#[command(
    name = "lattensor",
    version,
    about = "Explore TensorFlow-NumPy type promotion (weak types, the promotion lattice) as lattensor implements it",
    long_about = "Explore TensorFlow-NumPy type promotion as lattensor implements it.\n\n\
        Types are the 15 dtypes (bool, uint8..uint64, int8..int64, bfloat16, float16, float32, float64, \
        complex64, complex128), the 8 low-precision storage dtypes (float8_e4m3fn, float8_e5m2, \
        float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu, float4_e2m1fn, int4, uint4; leaves of the lattice, \
        so two of them, or one with a dtype not below it, have no join and are refused in every mode) \
        plus five weak kinds written with a star: i32*, i64*, f32*, f64*, c128*. \
        A weak type is the type of a value nobody declared (a literal); it adapts to the strong type it meets.\n\n\
        Modes: all (TF's dtype_conversion_mode=\"all\", the lattice join), safe (refuses lossy or widening \
        promotions), strict (no implicit promotion between different strong dtypes), numpy (NumPy 2 / NEP 50)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the promotion table over the 28 lattice types in one mode.
    #[command(long_about = "Print the promotion table: the result type of every pair of the 28 lattice types \
        (23 dtypes and the weak kinds i32* i64* f32* f64* c128*), row ⊔ column, in the chosen mode.\n\n\
        Every cell is computed by lattensor::promote::result_type_in. Weak results end in '*'. Refused \
        cells (pairs without a join in every mode; more in safe and strict) are marked: '!' before the type ALL mode would give (text), red cells \
        with the refusal as tooltip (html, svg), {\"error\": message} (json).")]
    Table {
        /// Promotion mode: all, safe, strict or numpy.
        #[arg(long, default_value = "all", value_parser = parse_mode)]
        mode: PromotionMode,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TableFormat::Text)]
        format: TableFormat,
    },
    /// Draw the promotion lattice (the Hasse diagram of the ALL-mode join).
    #[command(long_about = "Draw the promotion lattice: 28 nodes (23 strong dtypes, 5 weak kinds drawn dashed) \
        and the 35 covering edges lattensor::promote::COVERING_EDGES, an arrow a -> b meaning a promotes to b.\n\n\
        dot: Graphviz source (render with `dot -Tsvg`). svg: drawn directly with a layered layout \
        (a node's layer is its longest path from bool), no external tools needed.")]
    Lattice {
        /// Output format.
        #[arg(long, value_enum, default_value_t = LatticeFormat::Dot)]
        format: LatticeFormat,
    },
    /// Explain the promotion of two or more types.
    #[command(long_about = "Explain the promotion of two or more types: the result (or the refusal in safe and \
        strict modes) and each operand's path up the lattice to the join.\n\n\
        Types: int32 or i32, float64 or f64, bool or b, bfloat16 or bf16, complex128 or c128, and weak kinds \
        with a star (i32*, float64*).\n\n\
        Exit status: 0 when the promotion is allowed, 1 when the mode refuses it, 2 for bad arguments.\n\n\
        Example: lattensor promote int8 uint32 --mode safe")]
    Promote {
        /// The operand types (at least two), e.g. `i8 u32` or `int32 f32*`.
        #[arg(required = true, num_args = 2.., value_name = "TYPE")]
        operands: Vec<String>,
        /// Promotion mode: all, safe, strict or numpy.
        #[arg(long, default_value = "all", value_parser = parse_mode)]
        mode: PromotionMode,
    },
    /// Run the type promotion guide's examples through lattensor.
    #[command(long_about = "Run the examples of TensorFlow's type promotion guide that need no Python through \
        lattensor, and print for each one the TF code, the equivalent lattensor Rust expression and the result \
        in TF's repr style (or the error).\n\n\
        With --mode safe the examples that SAFE mode refuses print the promotion error instead.")]
    Tour {
        /// Promotion mode: all or safe (strict and numpy also run).
        #[arg(long, default_value = "all", value_parser = parse_mode)]
        mode: PromotionMode,
    },
    /// Evaluate an einsum over .npy files.
    #[command(long_about = "Evaluate an Einstein summation over tensors read from .npy files.

        --semantics picks the rules: tf (tf.einsum, the default), raw (TF's raw Einsum op: exactly one '->',         1 or 2 inputs, repeated output labels expand a diagonal) or numpy (numpy.einsum, with size-1         broadcasting of named labels). Mixed dtypes promote through the lattice in the --mode given (all, safe, strict or numpy; all by default); --semantics numpy changes only the equation rules, not the promotion, so without --mode numpy it keeps the lattice. --path prints the contraction         plan like numpy.einsum_path.

        Example: lattensor einsum 'ij,jk->ik' a.npy b.npy -o c.npy --path")]
    Einsum {
        /// The equation, e.g. `ij,jk->ik` or `...ij->...ji`.
        equation: String,
        /// Input .npy files, one per operand.
        #[arg(required = true, value_name = "IN.npy")]
        inputs: Vec<PathBuf>,
        /// Output .npy file (prints the result when omitted).
        #[arg(short, long, value_name = "OUT.npy")]
        output: Option<PathBuf>,
        /// Which front end's rules to apply.
        #[arg(long, value_enum, default_value_t = Semantics::Tf)]
        semantics: Semantics,
        /// Print the contraction path, FLOP count and largest intermediate.
        #[arg(long)]
        path: bool,
        /// Promotion mode for mixed dtypes: all, safe, strict or numpy (the lattice's ALL by default, also with --semantics numpy).
        #[arg(long, default_value = "all", value_parser = parse_mode)]
        mode: PromotionMode,
    },
    /// Reinterpret the bytes of a .npy tensor as another dtype (TF's bitcast).
    #[command(
        long_about = "Reinterpret the bytes of a tensor as another dtype with TF's shape rules: same size         keeps the shape; a narrower dtype appends a dimension of size in/out; a wider one needs the last         dimension to equal out/in and removes it. bool is refused.

        Example: lattensor bitcast x.npy uint8 -o bytes.npy"
    )]
    Bitcast {
        /// Input .npy file.
        #[arg(value_name = "IN.npy")]
        input: PathBuf,
        /// Target dtype, e.g. `uint8`, `f16`, `complex64`.
        dtype: String,
        /// Output .npy file (prints the result when omitted).
        #[arg(short, long, value_name = "OUT.npy")]
        output: Option<PathBuf>,
        /// Promotion mode: all, safe, strict or numpy (a bitcast promotes nothing; accepted as `table` accepts it).
        #[arg(long, default_value = "all", value_parser = parse_mode)]
        mode: PromotionMode,
    },
}

/// Which einsum front end the CLI uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Semantics {
    /// TF's raw Einsum op.
    Raw,
    /// `tf.einsum`.
    Tf,
    /// `numpy.einsum`.
    Numpy,
}

/// Formats of `lattensor table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Aligned text grid with short names.
    Text,
    /// `{row: {col: "int64" | "float64*" | {"error": "..."}}}`.
    Json,
    /// A standalone, colour-coded HTML page.
    Html,
    /// An SVG image of the grid.
    Svg,
}

/// Formats of `lattensor lattice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LatticeFormat {
    /// Graphviz DOT source.
    Dot,
    /// An SVG image.
    Svg,
}

/// Exit status for bad arguments (as clap uses).
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" to clap but succeed (code 0).
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE));
        }
    };
    let text = match cli.command {
        Command::Table { mode, format } => table::render(mode, format),
        Command::Lattice { format: LatticeFormat::Dot } => lattice_draw::dot(),
        Command::Lattice { format: LatticeFormat::Svg } => lattice_draw::svg(),
        Command::Promote { operands, mode } => return promote_cmd::run(&operands, mode),
        Command::Tour { mode } => tour::render(mode),
        Command::Einsum { equation, inputs, output, semantics, path, mode } => {
            let front = match semantics {
                Semantics::Raw => lattensor::einsum::Front::Raw,
                Semantics::Tf => lattensor::einsum::Front::Tf,
                Semantics::Numpy => lattensor::einsum::Front::NumPy,
            };
            return lattensor::promote::with_mode(mode, || {
                tensor_cmds::einsum(&equation, &inputs, output.as_deref(), front, path)
            });
        }
        Command::Bitcast { input, dtype, output, mode } => {
            return lattensor::promote::with_mode(mode, || tensor_cmds::bitcast(&input, &dtype, output.as_deref()));
        }
    };
    print_out(&text)
}

/// Writes to stdout without panicking when the reader went away (`| head`).
pub fn print_out(text: &str) -> ExitCode {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lattensor: cannot write output: {e}");
            ExitCode::FAILURE
        }
    }
}
