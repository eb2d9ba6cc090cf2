//! `phpxml compare` and `phpxml capture`: every document through the
//! user's own PHP, with the project's reference script `phpxml.php`
//! (built into the binary), and through the crate with the same options.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Instant;

use phpxml::testing::{self, Command, RunError, unified_diff};
use rayon::prelude::*;
use serde_json::json;

use crate::Failure;
use crate::many::{Input, expand, pool, progress};
use crate::script::{self, CompareArgs, ReportFormat};

/// `reference/phpxml.php`, written to a temporary file at run time, so
/// that an installed binary works anywhere.
const REFERENCE_SCRIPT: &str = include_str!("../../reference/phpxml.php");

/// One document and the reference script's words for it.
struct Job {
    file: String,
    name: String,
    command: Command,
    /// The options (`.args` without its command word).
    args: Vec<String>,
}

impl Job {
    /// `COMMAND OPTIONS`, as a `.args` line holds it.
    fn args_line(&self) -> String {
        std::iter::once(self.command.name().to_owned())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The user's PHP and the reference script.
struct Php {
    command: Vec<String>,
    script: tempfile::NamedTempFile,
    /// `PHP_VERSION` and libxml2's version, for the report.
    version: String,
}

impl Php {
    fn start(command_line: &str) -> Result<Self, Failure> {
        let command: Vec<String> = command_line.split_whitespace().map(str::to_owned).collect();
        if command.is_empty() {
            return Err(Failure::Usage("--php needs a command".to_owned()));
        }
        let mut script = tempfile::Builder::new()
            .prefix("phpxml-reference-")
            .suffix(".php")
            .tempfile()
            .map_err(|e| Failure::Io(format!("cannot write the reference script: {e}")))?;
        script
            .write_all(REFERENCE_SCRIPT.as_bytes())
            .map_err(|e| Failure::Io(format!("cannot write the reference script: {e}")))?;
        let probe = std::process::Command::new(&command[0])
            .args(&command[1..])
            .args([
                "-r",
                "echo function_exists('xml_parser_create') ? PHP_VERSION . ', libxml ' . LIBXML_DOTTED_VERSION : 'no xml';",
            ])
            .output()
            .map_err(|e| Failure::Refused(format!("cannot run PHP ({command_line}): {e}")))?;
        let version = String::from_utf8_lossy(&probe.stdout).trim().to_owned();
        if !probe.status.success() || version == "no xml" || version.is_empty() {
            return Err(Failure::Refused(format!(
                "PHP ({command_line}) has no xml extension or does not run \
                 (Debian: apt-get install php8.2-cli php8.2-xml)"
            )));
        }
        Ok(Self {
            command,
            script,
            version,
        })
    }

    /// `php -d error_reporting=0 phpxml.php COMMAND OPTIONS FILE`.
    fn run(&self, job: &Job) -> std::io::Result<Output> {
        std::process::Command::new(&self.command[0])
            .args(&self.command[1..])
            .args(["-d", "error_reporting=0"])
            .arg(self.script.path())
            .arg(job.command.name())
            .args(&job.args)
            .arg(&job.file)
            .stdin(std::process::Stdio::null())
            .output()
    }
}

/// The jobs: each input with the command-line options, or, for a
/// `NAME.xml` beside a `NAME.args` (a captured case), with the case's.
fn jobs(parsed: &CompareArgs, php_args: &[String]) -> Result<Vec<Job>, Failure> {
    if parsed.inputs.files.is_empty() {
        return Err(Failure::Usage("no input file".to_owned()));
    }
    if parsed.inputs.files.iter().any(|f| f == "-") {
        return Err(Failure::Usage(
            "reads files, not standard input (PHP and phpxml each read the document)".to_owned(),
        ));
    }
    let command: Command = parsed
        .script
        .parse()
        .map_err(|e: testing::ArgsError| Failure::Usage(e.to_string()))?;
    // The options mean in PHP what they mean here: refused alike.
    script::invocation(command, php_args)?;
    let (inputs, _) = expand(&parsed.inputs.files, parsed.inputs.glob.as_deref())?;
    let mut jobs = Vec::with_capacity(inputs.len());
    for Input { file, name } in inputs {
        let args_file = Path::new(&file).with_extension("args");
        let (command, args) = match std::fs::read_to_string(&args_file) {
            Ok(line) => {
                let mut words = line.split_whitespace().map(str::to_owned);
                let command = words
                    .next()
                    .unwrap_or_default()
                    .parse()
                    .map_err(|e| Failure::Refused(format!("{}: {e}", args_file.display())))?;
                (command, words.collect())
            }
            Err(_) => (command, php_args.to_vec()),
        };
        jobs.push(Job {
            file,
            name,
            command,
            args,
        });
    }
    Ok(jobs)
}

/// What a document gave.
enum Verdict {
    Identical,
    Different { diff: String },
    PhpFailed { why: String },
}

/// The crate's side: standard output, and whether PHP's script would die
/// (bad options, a `ValueError`, a `JsonException`, an unreadable file).
fn ours(job: &Job) -> (Vec<u8>, bool) {
    let Ok(invocation) = testing::Invocation::parse(job.command, &job.args) else {
        return (Vec::new(), true);
    };
    let Ok(doc) = std::fs::read(&job.file) else {
        return (Vec::new(), true);
    };
    match invocation.run_owned(doc) {
        Ok(run) => (run.stdout, false),
        Err(RunError::Json { printed, .. }) => (printed, true),
        Err(RunError::Php(_)) => (Vec::new(), true),
    }
}

fn judge(php: &Php, job: &Job) -> Verdict {
    let output = match php.run(job) {
        Ok(o) => o,
        Err(e) => {
            return Verdict::PhpFailed {
                why: format!("cannot run PHP: {e}"),
            };
        }
    };
    let (stdout, refused) = ours(job);
    let php_refused = !output.status.success();
    if stdout == output.stdout && refused == php_refused {
        return Verdict::Identical;
    }
    // PHP died where phpxml did not: PHP's own failure (a crash, a missing
    // extension), unless it is the script's exit 2 for a refused input.
    if php_refused && !refused && output.status.code() != Some(2) {
        return Verdict::PhpFailed {
            why: format!(
                "{}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        };
    }
    let mut diff = unified_diff(&output.stdout, &stdout, "php", "phpxml");
    if refused != php_refused {
        let _ = writeln!(
            diff,
            "PHP {} ({}), phpxml {}",
            if php_refused { "died" } else { "ran" },
            output.status,
            if refused { "refused" } else { "ran" }
        );
    }
    Verdict::Different { diff }
}

/// `compare [OPTIONS] PATH...`.
pub fn compare(args: &[String]) -> Result<(), Failure> {
    let (parsed, php_args) = script::parse::<CompareArgs>(args)?;
    if parsed.out.is_some() {
        return Err(Failure::Usage("--out is capture's".to_owned()));
    }
    let jobs = jobs(&parsed, &php_args)?;
    let php = Php::start(&parsed.php)?;
    let pool = pool(parsed.inputs.jobs)?;
    let bar = progress(jobs.len());
    let started = Instant::now();
    let verdicts: Vec<Verdict> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let v = judge(&php, job);
                bar.inc(1);
                v
            })
            .collect()
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let count = |f: fn(&Verdict) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let identical = count(|v| matches!(v, Verdict::Identical));
    let different = count(|v| matches!(v, Verdict::Different { .. }));
    let failed = count(|v| matches!(v, Verdict::PhpFailed { .. }));
    let listed = jobs
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| !matches!(v, Verdict::Identical));
    let mut stdout = std::io::stdout().lock();
    let written = if parsed.format == ReportFormat::Json {
        let problems: Vec<_> = listed
            .map(|(job, v)| match v {
                Verdict::Different { diff } => {
                    json!({"file": job.file, "args": job.args_line(), "verdict": "different", "diff": diff})
                }
                Verdict::PhpFailed { why } => {
                    json!({"file": job.file, "args": job.args_line(), "verdict": "php_failed", "why": why})
                }
                Verdict::Identical => json!(null),
            })
            .collect();
        let report = json!({
            "php": php.version,
            "documents": jobs.len(),
            "identical": identical,
            "different": different,
            "php_failed": failed,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "problems": problems,
        });
        writeln!(stdout, "{report}")
    } else {
        let mut text = String::new();
        for (job, v) in listed.take(parsed.show) {
            match v {
                Verdict::Different { diff } => {
                    let _ = writeln!(
                        text,
                        "different: {} ({})\n{diff}",
                        job.file,
                        job.args_line()
                    );
                }
                Verdict::PhpFailed { why } => {
                    let _ = writeln!(
                        text,
                        "PHP failed: {} ({})\n  {why}\n",
                        job.file,
                        job.args_line()
                    );
                }
                Verdict::Identical => {}
            }
        }
        let _ = writeln!(
            text,
            "compare: {} documents: {identical} identical, {different} different, {failed} PHP failed \
             (PHP {}; {} workers, {seconds:.1} s)",
            jobs.len(),
            php.version,
            pool.current_num_threads(),
        );
        stdout.write_all(text.as_bytes())
    };
    written.map_err(crate::many::write_failure)?;
    if different + failed > 0 {
        return Err(Failure::Found(format!(
            "{different} different, {failed} PHP failed"
        )));
    }
    Ok(())
}

/// `capture [OPTIONS] PATH... --out DIR`: `NAME.{xml,args,out}` as in
/// `fixtures/php`, `NAME.out` being PHP's standard output then its
/// standard error (`2>&1` of `fixtures/capture`).
pub fn capture(args: &[String]) -> Result<(), Failure> {
    let (parsed, php_args) = script::parse::<CompareArgs>(args)?;
    let out_dir = PathBuf::from(
        parsed
            .out
            .clone()
            .ok_or_else(|| Failure::Usage("capture needs --out DIR".to_owned()))?,
    );
    if php_args
        .iter()
        .any(|w| w.is_empty() || w.contains(char::is_whitespace))
    {
        return Err(Failure::Usage(
            "an empty value, or one with whitespace, cannot be written to NAME.args".to_owned(),
        ));
    }
    let jobs = jobs(&parsed, &php_args)?;
    let php = Php::start(&parsed.php)?;
    let pool = pool(parsed.inputs.jobs)?;
    let bar = progress(jobs.len());
    let results: Vec<Result<(), String>> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let r = capture_one(&php, job, &out_dir);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let failed: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    for why in failed.iter().take(parsed.show) {
        eprintln!("phpxml capture: {why}");
    }
    println!(
        "capture: {} cases written to {} ({} failed; PHP {})",
        jobs.len() - failed.len(),
        out_dir.display(),
        failed.len(),
        php.version
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::Found(format!(
            "{} documents not captured",
            failed.len()
        )))
    }
}

fn capture_one(php: &Php, job: &Job, out_dir: &Path) -> Result<(), String> {
    let output = php
        .run(job)
        .map_err(|e| format!("{}: cannot run PHP: {e}", job.file))?;
    if !output.status.success() && output.status.code() != Some(2) {
        return Err(format!(
            "{}: PHP failed ({}): {}",
            job.file,
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let base = out_dir.join(&job.name);
    let write = |ext: &str, bytes: &[u8]| {
        let path = out_dir.join(format!("{}.{ext}", job.name));
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(parent) = base.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let doc = std::fs::read(&job.file).map_err(|e| format!("cannot read {}: {e}", job.file))?;
    write("xml", &doc)?;
    write("args", format!("{}\n", job.args_line()).as_bytes())?;
    let mut printed = output.stdout;
    printed.extend_from_slice(&output.stderr);
    write("out", &printed)
}
