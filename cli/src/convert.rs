//! `phpxml decode` and `phpxml encode`: streaming conversion.

use std::fs::File;
use std::io::{self, Read, Write};

use phpxml::decode::{StreamDecoder, TargetEncoding, utf8_encode_to_slice};

use crate::Failure;

/// Input is read and converted in blocks of this size, so a file of any
/// size converts in bounded memory.
const BLOCK: usize = 1 << 16;

fn open(file: Option<&str>) -> Result<Box<dyn Read>, Failure> {
    match file {
        None | Some("-") => Ok(Box::new(io::stdin().lock())),
        Some(path) => File::open(path)
            .map(|f| Box::new(f) as Box<dyn Read>)
            .map_err(|e| Failure::Io(format!("cannot read {path}: {e}"))),
    }
}

/// Feeds `input` block by block to `convert(block, last, output)`, which
/// writes the conversion of each block to standard output.
fn pump(
    mut input: Box<dyn Read>,
    mut convert: impl FnMut(&[u8], bool, &mut dyn Write) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut block = vec![0u8; BLOCK];
    let mut stdout = crate::block_stdout();
    let write_err = crate::many::write_failure;
    loop {
        let n = match input.read(&mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Io(format!("cannot read input: {e}"))),
        };
        convert(&block[..n], n == 0, &mut *stdout).map_err(write_err)?;
        if n == 0 {
            return stdout.flush().map_err(write_err);
        }
    }
}

/// `decode --to ENC [FILE]`.
pub fn decode(args: &[String]) -> Result<(), Failure> {
    let mut target = None;
    let mut file = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--to" => {
                let name = args
                    .next()
                    .ok_or_else(|| Failure::Usage("--to needs an encoding".to_owned()))?;
                target = Some(
                    name.parse::<TargetEncoding>()
                        .map_err(|e| Failure::Usage(e.to_string()))?,
                );
            }
            _ => set_file(&mut file, arg)?,
        }
    }
    let target = target.ok_or_else(|| Failure::Usage("decode needs --to ENC".to_owned()))?;
    if target == TargetEncoding::Utf8 {
        return pass_through(file);
    }
    let mut stream = StreamDecoder::new(target);
    // One output buffer for every block, never cleared.
    let mut out = vec![0u8; StreamDecoder::max_output(BLOCK)];
    pump(open(file)?, |block, last, output| {
        let n = stream.decode_to_slice(block, last, &mut out);
        output.write_all(&out[..n])
    })
}

/// `decode --to UTF-8`: the bytes as they are, copied by the kernel where
/// it can (`io::copy` between a file and standard output uses
/// `copy_file_range`, `sendfile` or `splice`).
fn pass_through(file: Option<&str>) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    let copied = match file {
        None | Some("-") => io::copy(&mut io::stdin().lock(), &mut out),
        Some(path) => {
            let mut input =
                File::open(path).map_err(|e| Failure::Io(format!("cannot read {path}: {e}")))?;
            io::copy(&mut input, &mut out)
        }
    };
    copied
        .and_then(|_| out.flush())
        .map_err(|e| Failure::Io(format!("cannot copy the input to the output: {e}")))
}

/// `encode [FILE]`.
pub fn encode(args: &[String]) -> Result<(), Failure> {
    let mut file = None;
    for arg in args {
        set_file(&mut file, arg)?;
    }
    // One output buffer for every block, never cleared.
    let mut out = vec![0u8; 2 * BLOCK];
    pump(open(file)?, |block, _, output| {
        let n = utf8_encode_to_slice(block, &mut out);
        output.write_all(&out[..n])
    })
}

fn set_file<'a>(file: &mut Option<&'a str>, arg: &'a str) -> Result<(), Failure> {
    if arg.starts_with('-') && arg != "-" {
        return Err(Failure::Usage(format!("unknown option {arg}")));
    }
    if file.is_some() {
        return Err(Failure::Usage(format!("unexpected argument {arg}")));
    }
    *file = Some(arg);
    Ok(())
}
