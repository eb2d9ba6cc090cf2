//! `phpxml struct` and `phpxml trace`: placeholder until the parser lands.

use crate::Failure;

/// `struct [OPTIONS] FILE`.
pub fn structure(_args: &[String]) -> Result<(), Failure> {
    Err(Failure::Usage("struct is not available yet".to_owned()))
}

/// `trace [OPTIONS] [--chunk N] FILE`.
pub fn trace(_args: &[String]) -> Result<(), Failure> {
    Err(Failure::Usage("trace is not available yet".to_owned()))
}
